//! Whole matches played physically on virtual boards (production decoder and link code)
//! and reconstructed by the arbiter, compared move for move with what was played.

use crate::common::{alarms, arbitrate_with_td, describe_alerts, sans};
use tandem::rules::RulesPreset;
use tandem::sim::emulator::EmulatorConfig;
use tandem::sim::performer::Style;
use tandem::sim::table::{Chooser, Rehearsal};

fn rehearse(preset: &str, style: &Style, chooser: Chooser, seed: u64, plies: usize) {
    let rules = RulesPreset::built_in(preset);
    let cfgs = [
        EmulatorConfig::default(),
        EmulatorConfig {
            serial: "22222".into(),
            ..EmulatorConfig::default()
        },
    ];
    let mut r = Rehearsal::new(rules.clone(), &cfgs, style, chooser, seed);
    r.set_max_plies(plies);
    let outputs = r.run(5000);
    let arb = arbitrate_with_td(&rules, &outputs, Some(&r.truth));
    let played = r.truth.record().len();
    assert!(
        played >= plies.min(10),
        "seed {seed}: only {played} plies were played"
    );
    eprintln!(
        "seed {seed}: {played} plies, {} events",
        Rehearsal::events(&outputs).len()
    );
    for &b in r.truth.board_ids() {
        assert_eq!(
            sans(arb.game(), b),
            sans(&r.truth, b),
            "seed {seed} board {b}\n{}",
            describe_alerts(&arb)
        );
    }
    assert!(
        alarms(&arb).is_empty(),
        "seed {seed}: false alarms\n{}",
        describe_alerts(&arb)
    );
}

#[test]
fn calm_blitz_game_comes_back_move_for_move() {
    rehearse("uscf-blitz", &Style::calm(), Chooser::Natural, 1, 30);
}

#[test]
fn calm_bughouse_match_comes_back_move_for_move() {
    rehearse("uscf-bughouse", &Style::calm(), Chooser::Natural, 2, 30);
}

#[test]
fn noisy_bughouse_matches_over_many_seeds() {
    for seed in 100..130 {
        rehearse("uscf-bughouse", &Style::blitz(), Chooser::Random, seed, 40);
    }
}
