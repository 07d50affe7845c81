//! Memory of a station over an evening: matches played back to back on simulated boards
//! in simulated time (hours of play in seconds), each through the station's runner with
//! its match folder, every view published as the live arbiter thread publishes it (the
//! console's latest view and the projector's broadcast-delay history). Prints the
//! process's resident memory every simulated quarter of an hour.
//!
//! `cargo run --release --example station_memory -- [HOURS] [PLIES_PER_BOARD] [THINK_MAX_MS]`
//! (defaults: 4 hours, 200 plies a board, the demo's 3.5 s thinking at most).

use std::time::Instant;

use tandem::arbiter::journal::JournalHeader;
use tandem::arbiter::{ArbiterConfig, Input};
use tandem::rules::RulesPreset;
use tandem::station::Views;
use tandem::station::simulated::{SimulatedPlay, play_match};

fn rss_kib(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let hours: f64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(4.0);
    let plies: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(200);
    let think_max: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(3500);
    let root = std::env::temp_dir().join(format!("tandem-memory-{}", std::process::id()));
    let mut rules = RulesPreset::built_in("uscf-bughouse");
    // A long game keeps its players thinking: give the clocks time for it.
    rules.time_control.base_ms = 60 * 60_000;
    let goal_ms = (hours * 3_600_000.0) as u64;
    let started = Instant::now();
    let mut played_ms = 0u64;
    let mut next_report = 0u64;
    let mut games = 0u64;
    let mut most_views = 0usize;
    println!("sim_minutes games views_kept rss_mib peak_mib");
    while played_ms < goal_ms {
        let mut play = SimulatedPlay::demo(1000 + games, plies);
        play.style.think_ms = (play.style.think_ms.0.min(think_max), think_max);
        let header = JournalHeader {
            config: ArbiterConfig::new(rules.clone()),
            event: "Memory".into(),
            site: "?".into(),
            date: "2026.11.23".into(),
            time: None,
            capture: None,
            round: String::new(),
            teams: None,
        };
        let dir = root.join(format!("match-{games}"));
        let mut views: Option<Views> = None;
        let base = played_ms;
        let runner = play_match(header, Some(&dir), &play, |runner, input, out| {
            let view = runner.arbiter().view();
            let changed = !out.is_empty() || !matches!(input, Input::Tick { .. });
            match &mut views {
                None => views = Some(Views::new(view)),
                Some(v) if changed => v.publish(view),
                Some(_) => {}
            }
            let kept = views.as_ref().map_or(0, Views::kept);
            most_views = most_views.max(kept);
            let now = base + input.t_ms();
            if now >= next_report {
                next_report += 15 * 60_000;
                println!(
                    "{:>11} {:>5} {:>10} {:>7.1} {:>8.1}",
                    now / 60_000,
                    games,
                    kept,
                    rss_kib("VmRSS:") as f64 / 1024.0,
                    rss_kib("VmHWM:") as f64 / 1024.0
                );
            }
        })?;
        played_ms += runner.last_t_ms();
        games += 1;
        // Each match folder is kept on disk, not in memory.
        std::fs::remove_dir_all(&dir).ok();
    }
    println!(
        "{} games, {:.1} h of play in {:.0} s; most views kept at once {most_views}; final RSS {:.1} MiB, peak {:.1} MiB",
        games,
        played_ms as f64 / 3_600_000.0,
        started.elapsed().as_secs_f64(),
        rss_kib("VmRSS:") as f64 / 1024.0,
        rss_kib("VmHWM:") as f64 / 1024.0
    );
    std::fs::remove_dir_all(&root).ok();
    Ok(())
}
