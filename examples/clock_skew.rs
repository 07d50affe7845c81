//! How far apart the two boards' clock commands reach them: live, through the production
//! serial workers, on two virtual boards on pseudo-terminals (each notes the moment a
//! clock command arrives). Tandem sets both clocks up, then the TD starts, pauses and
//! resumes both; for each, the gap between the two boards' set-and-run.
//!
//!     cargo run --release --example clock_skew [RUNS]

use std::time::{Duration, Instant};

use tandem::BoardId;
use tandem::arbiter::journal::JournalHeader;
use tandem::arbiter::{ArbiterConfig, ClockPlan, TdAction};
use tandem::dgt::ClockCommand;
use tandem::rules::RulesPreset;
use tandem::station::Session;
use tandem::station::demo::{DemoBoards, ready_to_start};

fn set_and_runs(boards: &DemoBoards, b: BoardId) -> Vec<Instant> {
    boards
        .handle(b)
        .map(|h| h.clock_commands_received())
        .unwrap_or_default()
        .into_iter()
        .filter_map(|(t, c)| matches!(c, ClockCommand::SetAndRun { .. }).then_some(t))
        .collect()
}

fn wait(mut ok: impl FnMut() -> bool, secs: u64) -> bool {
    let end = Instant::now() + Duration::from_secs(secs);
    while !ok() {
        if Instant::now() > end {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

fn main() -> anyhow::Result<()> {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10);
    let root = std::env::temp_dir().join(format!("tandem-skew-{}", std::process::id()));
    let mut skews: Vec<(String, f64)> = Vec::new();
    for run in 0..runs {
        let dir = root.join(format!("run{run}"));
        let registry = dir.join("registry");
        let boards = DemoBoards::spawn(Some(registry.clone()), run as u64)?;
        for b in BoardId::BOTH {
            if let Some(h) = boards.handle(b) {
                h.act(tandem::sim::PhysicalAction::SetUpStart);
            }
        }
        let mut config = ArbiterConfig::new(RulesPreset::built_in("uscf-bughouse"));
        config.clocks = tandem::ByBoard {
            a: ClockPlan::Drive,
            b: ClockPlan::Drive,
        };
        let header = JournalHeader {
            config,
            event: "skew".into(),
            site: "?".into(),
            date: "2026.01.01".into(),
            time: None,
            capture: None,
            round: String::new(),
            teams: None,
        };
        let session = Session::start(
            header,
            &boards.plans(),
            &dir.join("match"),
            Some(registry),
            std::sync::Arc::new(|| {}),
        )?;
        anyhow::ensure!(
            wait(|| ready_to_start(&session.view()), 20),
            "clocks not set up"
        );
        for (what, action) in [
            ("start", TdAction::StartClocks),
            ("pause", TdAction::PauseClocks),
            ("resume", TdAction::ResumeClocks),
        ] {
            let before = BoardId::BOTH.map(|b| set_and_runs(&boards, b).len());
            session.td(action);
            let arrived = wait(
                || {
                    BoardId::BOTH
                        .iter()
                        .zip(before)
                        .all(|(&b, n)| set_and_runs(&boards, b).len() > n)
                },
                10,
            );
            anyhow::ensure!(arrived, "{what} did not reach both clocks");
            let a = set_and_runs(&boards, BoardId::A)[before[0]];
            let b = set_and_runs(&boards, BoardId::B)[before[1]];
            let gap = if a > b { a - b } else { b - a };
            println!(
                "run {run}: {what} skew {:.3} ms",
                gap.as_secs_f64() * 1000.0
            );
            skews.push((what.to_owned(), gap.as_secs_f64() * 1000.0));
            std::thread::sleep(Duration::from_millis(1500));
        }
        session.stop(true);
        drop(boards);
    }
    let _ = std::fs::remove_dir_all(&root);
    for what in ["start", "pause", "resume"] {
        let mut v: Vec<f64> = skews
            .iter()
            .filter(|(w, _)| w == what)
            .map(|(_, s)| *s)
            .collect();
        v.sort_by(f64::total_cmp);
        if let (Some(min), Some(max)) = (v.first(), v.last()) {
            println!(
                "{what}: {} runs, skew {min:.3}–{max:.3} ms, median {:.3} ms",
                v.len(),
                v[v.len() / 2]
            );
        }
    }
    Ok(())
}
