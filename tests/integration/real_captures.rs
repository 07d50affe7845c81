//! The three games recorded from a real DGT board and clock (shared/fixtures/dgt), replayed
//! through the arbiter exactly as live play: every move comes back.

#![allow(clippy::unwrap_used)]

use crate::common::describe_alerts;
use tandem::BoardId;
use tandem::arbiter::{AlertKind, ArbiterConfig};
use tandem::arbiter::{Arbiter, BoardEvent};
use tandem::device::capture::read_capture;
use tandem::rules::RulesPreset;
use tandem::station::recording::{Recording, capture_events};

fn fixture(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/fixtures/dgt")
        .join(name)
}

fn check(name: &str) {
    let chunks = read_capture(&fixture(&format!("{name}.capture"))).expect("capture");
    let expected: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(fixture(&format!("{name}.expected.json"))).unwrap(),
    )
    .unwrap();
    let rules = RulesPreset::built_in(expected["preset"].as_str().unwrap());
    let want: Vec<String> = expected["sans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    let arb = run(ArbiterConfig::new(rules), &capture_events(&chunks), |_| {});
    let got: Vec<String> = arb
        .game()
        .record()
        .iter()
        .filter(|p| p.board == BoardId::A)
        .map(|p| p.san.trim_end_matches(['+', '#']).to_owned())
        .collect();
    let first_diff = got.iter().zip(&want).position(|(g, w)| g != w);
    assert_eq!(
        got,
        want,
        "{name}: first difference at ply {first_diff:?}\n{}",
        describe_alerts(&arb)
    );
    let alarms: Vec<_> = arb
        .alerts()
        .all()
        .iter()
        .filter(|a| !matches!(a.kind, AlertKind::GameEnd | AlertKind::Flag))
        .map(|a| a.json_line())
        .collect();
    assert!(
        alarms.is_empty(),
        "{name}: false alarms:\n{}",
        alarms.join("\n")
    );
}

#[test]
fn real_game_1_normal_orientation_white_on_the_left() {
    check("real-1");
}

#[test]
fn real_game_2_board_turned_white_on_the_right() {
    check("real-2");
}

#[test]
fn real_game_johan() {
    check("real-johan");
}

/// Johan's game ends on time: Black's flag falls, then the players put the kings on e4 and
/// d5 (the DGT "White wins" signal). The flag is reported once, to the TD; the kings are
/// offered as a result signal, not taken as moves or as displaced pieces.
#[test]
fn real_game_johan_ends_with_a_flag_and_the_result_signal() {
    let chunks = read_capture(&fixture("real-johan.capture")).unwrap();
    let mut signals = Vec::new();
    let arb = run(
        ArbiterConfig::new(RulesPreset::built_in("uscf-blitz")),
        &capture_events(&chunks),
        |o| {
            if let tandem::arbiter::Output::ResultSignal { signal, .. } = o {
                signals.push(*signal);
            }
        },
    );
    let flags: Vec<_> = arb
        .alerts()
        .all()
        .iter()
        .filter(|a| a.kind == AlertKind::Flag)
        .collect();
    assert_eq!(flags.len(), 1, "{}", describe_alerts(&arb));
    assert!(flags[0].detail.contains("Black"), "{}", flags[0].detail);
    assert_eq!(
        signals,
        vec![Some(tandem::arbiter::ResultSignal::WhiteWins)]
    );
    assert!(
        !arb.game().is_over(),
        "a result signal is only offered to the TD"
    );
}

/// Runs board events through the station's runner as `tandem replay` does.
fn run(
    cfg: ArbiterConfig,
    events: &[BoardEvent],
    on_output: impl FnMut(&tandem::arbiter::Output),
) -> Arbiter {
    Recording::of_events(cfg, events)
        .replay(on_output)
        .into_arbiter()
}
