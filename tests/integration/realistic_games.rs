//! The three real FICS bughouse games (shared/fixtures/bpgn), performed physically on two
//! virtual boards at the pace of their recorded clocks — captures in every order, slides,
//! drops of pieces passed across, the promotion with a pawn laid on its side — come back
//! move for move through the production decoder, link and arbiter.

#![allow(clippy::unwrap_used)]

use crate::common::{alarms, arbitrate_with_td, describe_alerts, sans};
use tandem::BoardId;
use tandem::dgt::{ClockSide, Orientation};
use tandem::notation::read_bpgn;
use tandem::rules::RulesPreset;
use tandem::sim::emulator::{ClockConfig, EmulatorConfig};
use tandem::sim::performer::Style;
use tandem::sim::table::{SimTable, perform_script};

fn fixture(name: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/fixtures/bpgn")
        .join(name);
    std::fs::read_to_string(p).unwrap()
}

/// Press times from the recorded clocks: each ply takes the time its mover's clock lost
/// (at least half a second: online premoves are faster than hands), boards in parallel,
/// the file's real-time order kept.
fn schedule(game: &tandem::rules::Match, base_ms: u64) -> Vec<(BoardId, shakmaty::Move, u64)> {
    let mut clock = [[base_ms; 2]; 2];
    let mut board_time = [5000u64; 2];
    let mut last = 0u64;
    let mut out = Vec::new();
    for p in game.record() {
        let b = p.board.index();
        let c = usize::from(p.color.is_black());
        let left = p.meta.clock_ms.unwrap_or(clock[b][c]);
        let used = clock[b][c].saturating_sub(left).max(500);
        clock[b][c] = left;
        let t = (board_time[b] + used).max(last + 50);
        board_time[b] = t;
        last = t;
        out.push((p.board, p.mv, t));
    }
    out
}

fn perform(name: &str, seeds: std::ops::Range<u64>) {
    for seed in seeds {
        perform_once(name, seed);
    }
}

fn perform_once(name: &str, seed: u64) {
    let rules = RulesPreset::built_in("uscf-bughouse");
    let games = read_bpgn(&fixture(name), &rules).unwrap();
    let game = &games[0].game;
    let plies = schedule(game, game.rules().time_control.base_ms);
    let cfg = |serial: &str, rotated: bool, right: bool| EmulatorConfig {
        serial: serial.into(),
        orientation: if rotated {
            Orientation::Rotated
        } else {
            Orientation::Normal
        },
        clock: Some(ClockConfig {
            white_side: if right {
                ClockSide::Right
            } else {
                ClockSide::Left
            },
            base_ms: 3_600_000,
            ..ClockConfig::default()
        }),
        ..EmulatorConfig::default()
    };
    // Board B turned round with its clock on the other side, as a real table might be.
    let mut table = SimTable::new(
        &[cfg("11111", false, false), cfg("22222", true, true)],
        seed,
    );
    let mut style = Style::blitz();
    style.think_ms = (100, 600);
    let outputs = perform_script(&mut table, &rules, &style, seed, &plies, 8000);
    let arb = arbitrate_with_td(&rules, &outputs, Some(game));
    for b in BoardId::BOTH {
        assert_eq!(
            sans(arb.game(), b),
            sans(game, b),
            "{name} board {b}\n{}",
            describe_alerts(&arb)
        );
    }
    // A mate is found on the board by the arbiter itself; a flag fall is the players' to
    // claim (the TD declares it), so the match stays open.
    let mated = game
        .result()
        .filter(|r| matches!(r.reason, tandem::rules::EndReason::Checkmate { .. }));
    assert_eq!(
        arb.game().result().cloned().map(|r| (r.winner, r.reason)),
        mated.cloned().map(|r| (r.winner, r.reason)),
        "{name}"
    );
    assert!(
        alarms(&arb).is_empty(),
        "{name}: false alarms\n{}",
        describe_alerts(&arb)
    );
}

#[test]
fn fics_1934301_with_a_promotion_and_a_drop_mate() {
    perform("fics-bughousedb-1934301.bpgn", 1..9);
}

#[test]
fn fics_1934461_ends_on_time() {
    perform("fics-bughousedb-1934461.bpgn", 11..19);
}

#[test]
fn fics_1934587_one_minute_game() {
    perform("fics-bughousedb-1934587.bpgn", 21..29);
}
