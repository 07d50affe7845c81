//! Press-to-commit: from the moment a player presses the clock to the moment the move is
//! in the record, in match time, on simulated boards wired as the live station. With a
//! DGT clock the press reaches the PC at the board's next clock poll (0.05–1 s) and is
//! judged a scan after its message; with Tandem's clock (a USB button) the press is known
//! to the millisecond and judged a scan after the press itself.
//!
//!     cargo run --release --example press_to_commit [MATCHES]

use tandem::arbiter::journal::JournalHeader;
use tandem::arbiter::{ArbiterConfig, ClockPlan, Input, Output, TdAction};
use tandem::rules::{RulesPreset, Seat};
use tandem::sim::emulator::{ClockConfig, EmulatorConfig};
use tandem::sim::performer::Style;
use tandem::sim::table::{Chooser, Rehearsal, SimTable};
use tandem::station::MatchRunner;
use tandem::station::simulated::SimStation;
use tandem::{BoardId, ByBoard, Millis};

fn configs(clock: bool, bluetooth: bool) -> [EmulatorConfig; 2] {
    let base = if bluetooth {
        EmulatorConfig::bluetooth()
    } else {
        EmulatorConfig::default()
    };
    let c = clock.then(ClockConfig::default);
    [
        EmulatorConfig {
            serial: "10001".into(),
            clock: c.clone(),
            ..base.clone()
        },
        EmulatorConfig {
            serial: "10002".into(),
            clock: c,
            ..base
        },
    ]
}

/// Press-to-commit of every move of `matches` matches, in ms.
fn measure(plan: ClockPlan, bluetooth: bool, matches: u64) -> Vec<Millis> {
    let rules = RulesPreset::built_in("uscf-bughouse");
    let mut out = Vec::new();
    for seed in 0..matches {
        let mut config = ArbiterConfig::new(rules.clone());
        config.clocks = ByBoard { a: plan, b: plan };
        let scan = if bluetooth { 500 } else { 250 };
        config.timing = ByBoard::new_with(|_| tandem::arbiter::Timing::for_scan_period(scan));
        let header = JournalHeader {
            config,
            event: "bench".into(),
            site: "?".into(),
            date: "2026.01.01".into(),
            time: None,
            capture: None,
            round: String::new(),
            teams: None,
        };
        let mut station = SimStation::new(MatchRunner::new(header));
        let table = SimTable::new(&configs(plan != ClockPlan::Tandem, bluetooth), 100 + seed);
        let mut r = Rehearsal::at(
            table,
            rules.clone(),
            &Style::blitz(),
            Chooser::Natural,
            100 + seed,
            5000,
        );
        r.set_max_plies(40);
        let mut commits: Vec<(BoardId, Millis)> = Vec::new();
        let mut note = |out: &[Output], t: Millis| {
            for o in out {
                if let Output::Committed { ply } = o {
                    commits.push((ply.board, t));
                }
            }
        };
        let mut started = plan == ClockPlan::Read;
        let mut seen = 0;
        while let Some(t) = r.next_time() {
            if !started && t >= 5000 {
                started = true;
                station.run(&mut r.table, 5000, |_, _, i, o| note(o, i.t_ms()), |_| {});
                let i = Input::Td {
                    t_ms: 5000,
                    action: TdAction::StartClocks,
                };
                let o = station.apply(&mut r.table, &i);
                note(&o, 5000);
            }
            station.run(&mut r.table, t, |_, _, i, o| note(o, i.t_ms()), |_| {});
            r.advance();
            while let Some(&(b, _, at)) = r.log.get(seen) {
                seen += 1;
                if plan == ClockPlan::Tandem {
                    let seat = Seat::new(b, !r.truth.board(b).turn());
                    let i = Input::Press { t_ms: at, seat };
                    let o = station.apply(&mut r.table, &i);
                    note(&o, at);
                }
            }
        }
        let end = r.now() + 6000;
        station.run(&mut r.table, end, |_, _, i, o| note(o, i.t_ms()), |_| {});
        // The k-th commit on a board against the k-th press there.
        for b in BoardId::BOTH {
            let presses: Vec<Millis> = r.log.iter().filter(|p| p.0 == b).map(|p| p.2).collect();
            let done: Vec<Millis> = commits.iter().filter(|c| c.0 == b).map(|c| c.1).collect();
            for (p, c) in presses.iter().zip(&done) {
                out.push(c.saturating_sub(*p));
            }
        }
    }
    out.sort_unstable();
    out
}

fn main() {
    let matches: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20);
    let pct = |v: &[Millis], p: usize| {
        v.get((v.len() * p / 100).min(v.len().saturating_sub(1)))
            .copied()
            .unwrap_or(0)
    };
    for (name, plan, bt) in [
        ("DGT clock (USB board), read", ClockPlan::Read, false),
        (
            "DGT3000 driven by Tandem (USB board)",
            ClockPlan::Drive,
            false,
        ),
        ("DGT clock (Bluetooth board), read", ClockPlan::Read, true),
        (
            "Tandem's clock, USB buttons (USB board)",
            ClockPlan::Tandem,
            false,
        ),
        (
            "Tandem's clock, USB buttons (Bluetooth board)",
            ClockPlan::Tandem,
            true,
        ),
    ] {
        let v = measure(plan, bt, matches);
        println!(
            "{name}: {} moves, press-to-commit median {} ms, p90 {} ms, p99 {} ms, max {} ms",
            v.len(),
            pct(&v, 50),
            pct(&v, 90),
            pct(&v, 99),
            v.last().copied().unwrap_or(0)
        );
    }
}
