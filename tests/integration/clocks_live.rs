//! The bughouse clock live, on the production serial path: two virtual boards on
//! pseudo-terminals with DGT3000s, the serial workers, the arbiter thread. Tandem sets
//! both clocks up, starts them together and stops and restarts them together.

#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use tandem::BoardId;
use tandem::arbiter::{ArbiterConfig, ClockPlan, TdAction};
use tandem::dgt::ClockCommand;
use tandem::rules::RulesPreset;
use tandem::station::Session;
use tandem::station::demo::{DemoBoards, ready_to_start};

use crate::common::live::{header, temp_dir};

fn wait_for(what: &str, secs: u64, mut ok: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !ok() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn ticking(boards: &DemoBoards, b: BoardId) -> Option<bool> {
    boards
        .handle(b)?
        .inspect(|e| e.clock_times().is_some_and(|t| t.running.is_some()))
}

/// When each board received its last set-and-run, and its flags.
fn last_set_and_run(boards: &DemoBoards, b: BoardId) -> Option<(Instant, u8)> {
    boards
        .handle(b)?
        .clock_commands_received()
        .into_iter()
        .rev()
        .find_map(|(t, c)| match c {
            ClockCommand::SetAndRun { flags, .. } => Some((t, flags)),
            _ => None,
        })
}

#[test]
fn live_clocks_start_together_pause_and_resume_together() {
    let dir = temp_dir("clocks-live");
    let registry = dir.join("registry");
    let boards = DemoBoards::spawn(Some(registry.clone()), 5).unwrap();
    for b in BoardId::BOTH {
        boards
            .handle(b)
            .unwrap()
            .act(tandem::sim::PhysicalAction::SetUpStart);
    }
    let mut config = ArbiterConfig::new(RulesPreset::built_in("uscf-bughouse"));
    config.clocks = tandem::ByBoard {
        a: ClockPlan::Drive,
        b: ClockPlan::Drive,
    };
    let session = Session::start(
        header(config, "live clocks"),
        &boards.plans(),
        &dir.join("match"),
        Some(registry),
        std::sync::Arc::new(|| {}),
    )
    .unwrap();
    let ready = Instant::now() + Duration::from_secs(20);
    while !ready_to_start(&session.view()) && Instant::now() < ready {
        std::thread::sleep(Duration::from_millis(100));
    }
    let v = session.view();
    eprintln!("{:#?}", v.clocks);
    for b in &v.boards {
        eprintln!("{} started {} link {:?}", b.id, b.started, b.link);
    }
    assert!(ready_to_start(&v), "both clocks set up");
    for b in BoardId::BOTH {
        let text = boards
            .handle(b)
            .unwrap()
            .inspect(|e| e.clock_text())
            .flatten();
        assert_eq!(text.as_deref().map(str::trim), Some("READY"));
        assert_eq!(ticking(&boards, b), Some(false));
    }
    session.td(TdAction::StartClocks);
    wait_for("both clocks running", 10, || {
        BoardId::BOTH
            .iter()
            .all(|&b| ticking(&boards, b) == Some(true))
    });
    let a = last_set_and_run(&boards, BoardId::A).unwrap();
    let b = last_set_and_run(&boards, BoardId::B).unwrap();
    let skew = if a.0 > b.0 { a.0 - b.0 } else { b.0 - a.0 };
    eprintln!("start skew on the wire: {skew:?}");
    assert!(skew < Duration::from_millis(100), "start skew {skew:?}");
    assert!(a.1 & 0x04 == 0 && b.1 & 0x04 == 0, "both run");
    std::thread::sleep(Duration::from_millis(1500));
    session.td(TdAction::PauseClocks);
    wait_for("both clocks stopped", 10, || {
        BoardId::BOTH
            .iter()
            .all(|&b| ticking(&boards, b) == Some(false))
    });
    // The clocks answer the arbiter's orders as soon as they are sent; the view the
    // projector shows is published just after, on the arbiter thread.
    wait_for("the projector to say play is stopped", 10, || {
        session.hall_view(0).paused
    });
    let a = last_set_and_run(&boards, BoardId::A).unwrap();
    let b = last_set_and_run(&boards, BoardId::B).unwrap();
    assert!(a.1 & 0x04 != 0 && b.1 & 0x04 != 0, "both paused");
    session.td(TdAction::ResumeClocks);
    wait_for("both clocks running again", 10, || {
        BoardId::BOTH
            .iter()
            .all(|&b| ticking(&boards, b) == Some(true))
    });
    wait_for("the restart checked", 10, || {
        session.view().clocks.boards.iter().all(|c| {
            c.note
                .as_deref()
                .is_some_and(|n| n.contains("took the restart: checked"))
        })
    });
    wait_for("the projector to say play goes on", 10, || {
        !session.hall_view(0).paused
    });
    session.stop(true);
    let _ = std::fs::remove_dir_all(&dir);
}
