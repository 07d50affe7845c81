//! Developer tool: where the replay time goes, input by input. Records the `tandem bench`
//! matches, replays them `ROUNDS` times, keeps each input's fastest handling time (the
//! fastest of several is free of the machine's other load), and prints the share of the
//! slowest inputs and what they were.
//!
//! `cargo run --release --example bench_tail -- [RULES] [--no-td] [ROUNDS]`
use std::time::Instant;

use tandem::arbiter::{Arbiter, ArbiterConfig, BoardEventKind, Input};
use tandem::cli::bench::record;
use tandem::dgt::Message;
use tandem::rules::RulesPreset;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let no_td = args.iter().any(|a| a == "--no-td");
    let rest: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let rules = RulesPreset::built_in(rest.first().map_or("uscf-bughouse", |s| s.as_str()));
    let rounds: usize = rest.get(1).and_then(|s| s.parse().ok()).unwrap_or(5);
    let recording = record(&rules, 40, !no_td);
    let mut best: Vec<Vec<f64>> = recording.iter().map(|m| vec![f64::MAX; m.len()]).collect();
    for _ in 0..rounds {
        for (mi, m) in recording.iter().enumerate() {
            let mut arb = Arbiter::new(ArbiterConfig::new(rules.clone()));
            for (i, input) in m.iter().enumerate() {
                let t0 = Instant::now();
                std::hint::black_box(arb.handle(input));
                let us = t0.elapsed().as_secs_f64() * 1e6;
                best[mi][i] = best[mi][i].min(us);
            }
        }
    }
    let mut all: Vec<(f64, usize, usize)> = Vec::new();
    for (mi, m) in best.iter().enumerate() {
        for (i, us) in m.iter().enumerate() {
            all.push((*us, mi, i));
        }
    }
    all.sort_by(|a, b| b.0.total_cmp(&a.0));
    let total: f64 = all.iter().map(|x| x.0).sum();
    let updates = recording
        .iter()
        .flatten()
        .filter(|i| matches!(i, Input::Board(e) if matches!(e.kind, BoardEventKind::Message(Message::FieldUpdate { .. }))))
        .count();
    println!(
        "{} inputs, {updates} field updates: {:.1} ms in all (fastest of {rounds}), {:.0} field updates/s",
        all.len(),
        total / 1000.0,
        updates as f64 / (total / 1e6)
    );
    for share in [0.001, 0.01, 0.1] {
        let n = ((all.len() as f64) * share).ceil() as usize;
        let s: f64 = all.iter().take(n).map(|x| x.0).sum();
        println!(
            "slowest {:.1}% ({n}): {:.0}% of the time",
            share * 100.0,
            100.0 * s / total
        );
    }
    let mut by_kind: std::collections::BTreeMap<String, (usize, f64)> = Default::default();
    for (us, mi, i) in &all {
        let kind = match &recording[*mi][*i] {
            Input::Board(e) => match &e.kind {
                BoardEventKind::Message(Message::FieldUpdate { .. }) => "field update",
                BoardEventKind::Message(Message::Clock(_)) => "clock",
                _ => "other board event",
            },
            Input::Td { .. } => "td",
            Input::Tick { .. } => "tick",
            Input::Press { .. } => "press on Tandem's clock",
            Input::Buttons { .. } => "clock buttons",
        };
        let slow = if *us > 5.0 { " (over 5 µs)" } else { "" };
        let e = by_kind.entry(format!("{kind}{slow}")).or_default();
        e.0 += 1;
        e.1 += us;
    }
    for (k, (n, us)) in &by_kind {
        println!(
            "{k:32} {n:6} inputs {:8.1} ms {:5.1}%",
            us / 1000.0,
            100.0 * us / total
        );
    }
    for (us, mi, i) in all.iter().take(15) {
        let what = match &recording[*mi][*i] {
            Input::Board(e) => match &e.kind {
                BoardEventKind::Message(Message::FieldUpdate { .. }) => {
                    format!("field update {}", e.board)
                }
                BoardEventKind::Message(Message::Clock(_)) => format!("clock {}", e.board),
                other => format!("{other:?}").chars().take(40).collect(),
            },
            other => format!("{other:?}").chars().take(40).collect(),
        };
        println!(
            "{us:9.1} µs  match {mi} input {i} t={} {what}",
            recording[*mi][*i].t_ms()
        );
    }
}
