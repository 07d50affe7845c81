//! Shared helpers for the integration tests: run simulated play through the arbiter and
//! compare with the truth.
#![allow(dead_code)]

pub mod browser;
pub mod clocks;
pub mod http;
pub mod live;
pub mod proxy;
pub mod scene;
pub mod sweep;
pub mod trace;

use shakmaty::Move;
use tandem::BoardId;
use tandem::arbiter::{Alert, AlertKind, Arbiter, ArbiterConfig, Input, Output, Timing};
use tandem::rules::{Match, RulesPreset};
use tandem::sim::SimOutput;
use tandem::sim::table::Rehearsal;
use tandem::sim::td::truthful_answers_with_late;

/// Feeds every device event of `outputs` to a fresh arbiter, then lets all deadlines fall.
/// Board `b`'s record in a view, as SAN.
pub fn view_sans(v: &tandem::arbiter::view::MatchView, b: tandem::BoardId) -> Vec<String> {
    v.record
        .iter()
        .filter(|p| p.ply.board == b)
        .map(|p| p.san.clone())
        .collect()
}

pub fn arbitrate(rules: &RulesPreset, outputs: &[SimOutput]) -> Arbiter {
    arbitrate_with_td(rules, outputs, None)
}

/// Like [`arbitrate`], with a TD who answers "which piece?" and "where did the hidden
/// promoted piece go?" from the truth, right away (as the player would say it aloud).
pub fn arbitrate_with_td(
    rules: &RulesPreset,
    outputs: &[SimOutput],
    truth: Option<&Match>,
) -> Arbiter {
    arbitrate_with_td_timing(rules, outputs, truth, &[], [Timing::default(); 2])
}

/// Like [`arbitrate_with_td`], with per-board timing (Bluetooth boards scan slower).
pub fn arbitrate_with_td_timing(
    rules: &RulesPreset,
    outputs: &[SimOutput],
    truth: Option<&Match>,
    late: &[(BoardId, Move)],
    timing: [Timing; 2],
) -> Arbiter {
    let mut cfg = ArbiterConfig::new(rules.clone());
    cfg.timing = timing.into();
    let mut arb = Arbiter::new(cfg);
    let mut last = 0;
    for ev in Rehearsal::events(outputs) {
        last = ev.t_ms;
        let out = arb.handle(&Input::Board(ev));
        if let Some(truth) = truth {
            answer(&mut arb, &out, truth, late, last);
        }
    }
    let out = arb.finish_at(last + 10_000);
    if let Some(truth) = truth {
        answer(&mut arb, &out, truth, late, last + 10_000);
    }
    arb
}

fn answer(arb: &mut Arbiter, out: &[Output], truth: &Match, late: &[(BoardId, Move)], t_ms: u64) {
    for action in truthful_answers_with_late(truth, late, out) {
        let more = arb.handle(&Input::Td { t_ms, action });
        answer(arb, &more, truth, late, t_ms);
    }
}

/// Alerts a correct arbiter must raise in a clean game where the players announce their
/// promotions: "which piece?" for a pawn standing in for a piece.
pub fn expected_questions(arb: &Arbiter) -> usize {
    arb.alerts()
        .all()
        .iter()
        .filter(|a| a.kind == AlertKind::Promotion)
        .count()
}

pub fn sans(m: &Match, board: BoardId) -> Vec<String> {
    m.record()
        .iter()
        .filter(|p| p.board == board)
        .map(|p| p.san.clone())
        .collect()
}

/// Alerts other than the end of the match and answered questions (which piece a promoted
/// pawn is, which move the board could not show): false alarms, in a clean game.
pub fn alarms(arb: &Arbiter) -> Vec<Alert> {
    let question = |k: AlertKind| matches!(k, AlertKind::Promotion | AlertKind::UnseenMove);
    arb.alerts()
        .all()
        .iter()
        .filter(|a| a.kind != AlertKind::GameEnd && (!question(a.kind) || a.is_open()))
        .cloned()
        .collect()
}

pub fn describe_alerts(arb: &Arbiter) -> String {
    arb.alerts()
        .all()
        .iter()
        .map(|a| a.json_line())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Property-test settings: a fixed seed so that CI runs are reproducible (set
/// `TANDEM_RANDOM=1` to explore fresh cases), `TANDEM_CASES` to change the number of cases.
pub fn proptest_config(default_cases: u32) -> proptest::test_runner::Config {
    use proptest::test_runner::{Config, RngSeed};
    let cases = std::env::var("TANDEM_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default_cases);
    let rng_seed = if std::env::var_os("TANDEM_RANDOM").is_some() {
        RngSeed::Random
    } else {
        RngSeed::Fixed(20_261_121)
    };
    Config {
        cases,
        failure_persistence: None,
        rng_seed,
        // A smaller seed is a different match, not a simpler one: shrinking only costs time.
        max_shrink_iters: 0,
        ..Config::default()
    }
}
