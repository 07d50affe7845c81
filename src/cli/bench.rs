//! `tandem bench`: how fast the arbiter replays board messages, and how long the input that
//! commits a move takes to handle.
//!
//! The recording is made on the spot: bughouse matches played physically on simulated
//! boards (the production decoder and link code, realistic noise), as the `tests/` do,
//! with a TD answering the promotion questions. Run
//! it in release (`cargo run --release -- bench`); figures from a debug build mean little.

use std::process::ExitCode;
use std::time::Instant;

use crate::arbiter::BoardEventKind;
use crate::arbiter::{Arbiter, ArbiterConfig, Input, Output};
use crate::dgt::Message;
use crate::rules::RulesPreset;
use crate::sim::emulator::EmulatorConfig;
use crate::sim::performer::Style;
use crate::sim::table::{Chooser, Rehearsal};
use crate::sim::td::truthful_answers;

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Matches to record (each up to 60 plies per board).
    #[arg(long, default_value_t = 40)]
    pub matches: u64,
    /// Times the whole recording is replayed for the throughput figure.
    #[arg(long, default_value_t = 5)]
    pub rounds: u32,
    /// Rules preset.
    #[arg(long, default_value = RulesPreset::DEFAULT_NAME)]
    pub rules: String,
    /// No TD at the table: promotion questions stay unanswered (the worst case: after an
    /// under-promotion the record is wrong and every press is read against a board that
    /// no longer fits it).
    #[arg(long)]
    pub no_td: bool,
}

/// What the benchmark measured.
#[derive(Debug, Clone)]
pub struct BenchReport {
    pub inputs: usize,
    pub field_updates: usize,
    pub commits: usize,
    /// Field updates per second of replay (all inputs replayed, only field updates counted).
    pub updates_per_s: f64,
    /// Inputs per second of replay.
    pub inputs_per_s: f64,
    /// Time to handle the input that produced a commit, in µs: median, p99, max.
    pub commit_us: (f64, f64, f64),
    /// Match time from the press message to the commit, in ms: median, p99 (the settle
    /// window is by design: the board reports a square only when its scan passes it).
    pub press_to_commit_ms: (u64, u64),
    /// Share of the handling time spent in the slowest 1% of inputs (the judgments of a
    /// board that will not settle), and how many inputs that is.
    pub slowest_share: (f64, usize),
}

/// Records `matches` simulated matches as arbiter inputs.
#[must_use]
pub fn record(rules: &RulesPreset, matches: u64, td: bool) -> Vec<Vec<Input>> {
    (0..matches)
        .map(|seed| {
            let cfgs = [
                EmulatorConfig::default(),
                EmulatorConfig {
                    serial: "22222".into(),
                    ..EmulatorConfig::default()
                },
            ];
            let mut r = Rehearsal::new(
                rules.clone(),
                &cfgs,
                &Style::blitz(),
                Chooser::Natural,
                1000 + seed,
            );
            r.set_max_plies(60);
            let out = r.run(5000);
            // A TD stands at the table and answers "which piece?" as the player says it
            // (unanswered, an under-promotion leaves the record wrong for the rest of the
            // game, which no real match lets happen): the answers are inputs too.
            let mut arb = Arbiter::new(ArbiterConfig::new(rules.clone()));
            let mut inputs = Vec::new();
            for ev in Rehearsal::events(&out) {
                let t_ms = ev.t_ms;
                let input = Input::Board(ev);
                let mut outputs = arb.handle(&input);
                inputs.push(input);
                while !outputs.is_empty() {
                    let mut more = Vec::new();
                    let answers = if td {
                        truthful_answers(&r.truth, &outputs)
                    } else {
                        Vec::new()
                    };
                    for action in answers {
                        let input = Input::Td { t_ms, action };
                        more.extend(arb.handle(&input));
                        inputs.push(input);
                    }
                    outputs = more;
                }
            }
            inputs
        })
        .collect()
}

/// Measures throughput and commit latency over recorded matches.
#[must_use]
pub fn measure(rules: &RulesPreset, recording: &[Vec<Input>], rounds: u32) -> BenchReport {
    let inputs: usize = recording.iter().map(Vec::len).sum();
    let field_updates = recording
        .iter()
        .flatten()
        .filter(|i| {
            matches!(
                i,
                Input::Board(e) if matches!(e.kind, BoardEventKind::Message(Message::FieldUpdate { .. }))
            )
        })
        .count();
    // Throughput: whole matches through fresh arbiters.
    let start = Instant::now();
    for _ in 0..rounds.max(1) {
        for m in recording {
            let mut arb = Arbiter::new(ArbiterConfig::new(rules.clone()));
            for input in m {
                std::hint::black_box(arb.handle(input));
            }
        }
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let replays = f64::from(rounds.max(1));
    // Latency: each input timed on its own; those that committed a move kept.
    let mut commit_us: Vec<f64> = Vec::new();
    let mut press_to_commit: Vec<u64> = Vec::new();
    let mut all_us: Vec<f64> = Vec::new();
    for m in recording {
        let mut arb = Arbiter::new(ArbiterConfig::new(rules.clone()));
        for input in m {
            let t0 = Instant::now();
            let out = arb.handle(input);
            let us = t0.elapsed().as_secs_f64() * 1e6;
            all_us.push(us);
            let committed: Vec<_> = out
                .iter()
                .filter_map(|o| match o {
                    Output::Committed { ply } => Some(*ply),
                    _ => None,
                })
                .collect();
            if !committed.is_empty() {
                commit_us.push(us);
                for ply in committed {
                    if let Some(p) = arb.ply_index(ply).and_then(|i| arb.game().record().get(i))
                        && let Some(t_msg) = p.meta.t_ms
                    {
                        press_to_commit.push(arb.now().saturating_sub(t_msg));
                    }
                }
            }
        }
    }
    commit_us.sort_by(f64::total_cmp);
    all_us.sort_by(f64::total_cmp);
    let slowest = all_us.len().div_ceil(100);
    let total: f64 = all_us.iter().sum();
    let slow: f64 = all_us.iter().rev().take(slowest).sum();
    press_to_commit.sort_unstable();
    let pct = |v: &[f64], p: f64| {
        v.get(((v.len() as f64 - 1.0) * p).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    let pct_u = |v: &[u64], p: f64| {
        v.get(((v.len() as f64 - 1.0) * p).round() as usize)
            .copied()
            .unwrap_or(0)
    };
    BenchReport {
        inputs,
        field_updates,
        commits: commit_us.len(),
        updates_per_s: field_updates as f64 * replays / secs,
        inputs_per_s: inputs as f64 * replays / secs,
        commit_us: (
            pct(&commit_us, 0.5),
            pct(&commit_us, 0.99),
            commit_us.last().copied().unwrap_or(0.0),
        ),
        press_to_commit_ms: (pct_u(&press_to_commit, 0.5), pct_u(&press_to_commit, 0.99)),
        slowest_share: (slow / total.max(1e-9), slowest),
    }
}

pub fn run(args: BenchArgs) -> anyhow::Result<ExitCode> {
    let rules = RulesPreset::load(&args.rules).map_err(anyhow::Error::msg)?;
    if cfg!(debug_assertions) {
        eprintln!("note: a debug build; run `cargo run --release -- bench` for meaningful figures");
    }
    let t0 = Instant::now();
    let recording = record(&rules, args.matches, !args.no_td);
    let recorded_in = t0.elapsed();
    let r = measure(&rules, &recording, args.rounds);
    outln!(
        "recorded {} matches in {:.1} s: {} inputs, {} field updates, {} commits",
        args.matches,
        recorded_in.as_secs_f64(),
        r.inputs,
        r.field_updates,
        r.commits
    );
    outln!(
        "replay: {:.0} field updates/s ({:.0} inputs/s of all kinds), {} rounds",
        r.updates_per_s,
        r.inputs_per_s,
        args.rounds
    );
    outln!(
        "handling the input that commits a move: median {:.1} µs, p99 {:.1} µs, max {:.1} µs",
        r.commit_us.0,
        r.commit_us.1,
        r.commit_us.2
    );
    outln!(
        "the slowest 1% of inputs ({}) take {:.0}% of the handling time",
        r.slowest_share.1,
        r.slowest_share.0 * 100.0
    );
    outln!(
        "match time from press message to commit: median {} ms, p99 {} ms (the settle window)",
        r.press_to_commit_ms.0,
        r.press_to_commit_ms.1
    );
    Ok(ExitCode::SUCCESS)
}
