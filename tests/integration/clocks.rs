//! The bughouse clock on simulated boards wired as the live station: Tandem sets up,
//! starts, stops and corrects both boards' DGT3000s (every command through the board's
//! link, acked, checked against the clock's next reading), and keeps the time itself
//! where there is no DGT clock, with presses through the input-event reader.

#![allow(clippy::unwrap_used)]

use shakmaty::Color;
use tandem::BoardId;
use tandem::arbiter::{AlertKind, ClockPlan, Offence, TdAction};
use tandem::dgt::ClockButton;
use tandem::rules::{Penalty, RulesPreset, Seat};
use tandem::sim::emulator::{ClockFault, ClockModel, PhysicalAction};

use crate::common::clocks::{Rig, configs};

fn rules() -> RulesPreset {
    RulesPreset::built_in("uscf-bughouse")
}

/// Both clocks set up by Tandem (about 2 s after the boards connect), then started.
fn started() -> Rig {
    let r = rules();
    let mut rig = Rig::new(r.clone(), ClockPlan::Drive, configs(&r, true));
    rig.run(4000);
    rig.td(5000, TdAction::StartClocks);
    rig.run(7000);
    rig
}

#[test]
fn set_up_paused_then_started_together() {
    let r = rules();
    let base = r.time_control.base_ms;
    let mut rig = Rig::new(r.clone(), ClockPlan::Drive, configs(&r, true));
    rig.run(4000);
    for b in BoardId::BOTH {
        let e = rig.emu(b);
        assert!(e.clock_in_pc_mode(), "board {b}: set-and-run taken");
        assert_eq!(e.clock_text().as_deref().map(str::trim), Some("READY"));
        assert_eq!(
            rig.clock(b),
            (base, base, false),
            "board {b} set up, stopped"
        );
    }
    let view = rig.view();
    assert!(
        view.clocks.boards.iter().all(|c| c.in_hand),
        "{:?}",
        view.clocks
    );
    rig.td(5000, TdAction::StartClocks);
    rig.run(8000);
    // The start commands reached both clocks in the same moment.
    let starts: Vec<(u64, u8)> = BoardId::BOTH
        .iter()
        .map(|&b| *rig.set_and_runs(b).last().unwrap())
        .collect();
    assert_eq!(starts[0].0, starts[1].0, "{starts:?}");
    assert_eq!(
        starts[0].1 & 0x03,
        0x01,
        "board A: White's time (left) runs"
    );
    assert_eq!(
        starts[1].1 & 0x03,
        0x02,
        "board B: White's time (right) runs"
    );
    for b in BoardId::BOTH {
        let (w, bl, ticking) = rig.clock(b);
        assert!(ticking, "board {b} runs");
        assert!(
            w < base && w > base - 3500 && bl == base,
            "board {b}: {w} {bl}"
        );
    }
    let view = rig.view();
    assert!(view.clocks.started);
    for c in &view.clocks.boards {
        assert!(
            c.note
                .as_deref()
                .is_some_and(|n| n.contains("took the start: checked")),
            "{c:?}"
        );
    }
    assert!(rig.alerts(AlertKind::Clock).is_empty());
}

#[test]
fn pause_both_from_the_console_and_resume_both() {
    let mut rig = started();
    rig.td(10_000, TdAction::PauseClocks);
    rig.run(12_000);
    let at_pause: Vec<_> = BoardId::BOTH.iter().map(|&b| rig.clock(b)).collect();
    assert!(at_pause.iter().all(|c| !c.2), "both stopped: {at_pause:?}");
    let view = rig.view();
    assert!(view.clocks.paused.is_some());
    let hall = tandem::arbiter::spectator::SpectatorView::of(&view, None);
    assert!(hall.paused, "the hall sees play stopped");
    // During the pause a lever press is no press, and time does not run.
    rig.act(
        BoardId::A,
        14_000,
        PhysicalAction::PressClock { by: Color::White },
    );
    rig.run(40_000);
    let still: Vec<_> = BoardId::BOTH.iter().map(|&b| rig.clock(b)).collect();
    assert_eq!(still, at_pause);
    assert!(rig.alerts(AlertKind::NoMovePress).is_empty());
    rig.td(40_000, TdAction::ResumeClocks);
    rig.run(42_000);
    for (i, b) in BoardId::BOTH.into_iter().enumerate() {
        let (w, bl, ticking) = rig.clock(b);
        assert!(ticking, "board {b} runs again");
        // White's time runs on from where it stood (whole seconds), Black's as it was.
        assert!(
            w <= at_pause[i].0 + 1000 && w + 3500 >= at_pause[i].0,
            "{b}: {w}"
        );
        assert_eq!(bl, at_pause[i].1);
    }
    // Both restart commands arrived together.
    let a = *rig.set_and_runs(BoardId::A).last().unwrap();
    let b = *rig.set_and_runs(BoardId::B).last().unwrap();
    assert_eq!(a.0, b.0);
    assert!(rig.view().clocks.paused.is_none());
}

#[test]
fn a_clocks_play_button_stops_both_and_the_td_is_told_who() {
    let mut rig = started();
    rig.act(
        BoardId::B,
        9_000,
        PhysicalAction::ClockButton(ClockButton::Run),
    );
    rig.run(12_000);
    for b in BoardId::BOTH {
        assert!(!rig.clock(b).2, "board {b} stopped");
    }
    let alerts = rig.alerts(AlertKind::Clock);
    assert_eq!(alerts.len(), 1, "{alerts:?}");
    assert!(
        alerts[0].detail.contains("board B's clock") && alerts[0].detail.contains("WhiteB"),
        "{}",
        alerts[0].detail
    );
    let view = rig.view();
    let pause = view.clocks.paused.as_ref().unwrap();
    assert_eq!(pause.by, tandem::arbiter::PausedBy::ClockButton(BoardId::B));
}

#[test]
fn without_a_console_the_play_button_restarts_what_it_stopped() {
    let r = rules();
    let mut config = tandem::arbiter::ArbiterConfig::new(r.clone());
    config.clocks = tandem::ByBoard {
        a: ClockPlan::Drive,
        b: ClockPlan::Drive,
    };
    config.clock_button_resumes = true;
    let runner = tandem::station::MatchRunner::new(crate::common::live::header(config, "headless"));
    let mut rig = Rig::with_runner(runner, configs(&r, true));
    rig.run(4000);
    rig.td(5000, TdAction::StartClocks);
    rig.run(7000);
    let button = PhysicalAction::ClockButton(ClockButton::Run);
    rig.act(BoardId::B, 9_000, button.clone());
    rig.run(12_000);
    for b in BoardId::BOTH {
        assert!(!rig.clock(b).2, "board {b} stopped");
    }
    let alerts = rig.alerts(AlertKind::Clock);
    assert!(
        alerts.len() == 1 && alerts[0].detail.contains("the play/pause button again"),
        "{alerts:?}"
    );
    // The same button again (on the other board's clock, say): both run again together.
    rig.act(BoardId::A, 14_000, button);
    rig.run(17_000);
    assert!(rig.view().clocks.paused.is_none());
    assert!(
        BoardId::BOTH.iter().any(|&b| rig.clock(b).2),
        "play goes on: {:?} {:?}",
        rig.clock(BoardId::A),
        rig.clock(BoardId::B)
    );
    let a = *rig.set_and_runs(BoardId::A).last().unwrap();
    let b = *rig.set_and_runs(BoardId::B).last().unwrap();
    assert_eq!(a.0, b.0, "both restarted in the same moment");
}

#[test]
fn a_penalty_minute_lands_on_the_opponents_clock_and_is_checked() {
    let mut rig = started();
    rig.run(9_000);
    let before = rig.clock(BoardId::B);
    // Black B displaced pieces: by the ladder, a minute to White B.
    rig.td(
        9_000,
        TdAction::Penalize {
            seat: Seat::new(BoardId::B, Color::Black),
            offence: Offence::Other,
            penalty: Penalty::TimeToOpponent,
            alert: None,
        },
    );
    rig.run(12_000);
    let after = rig.clock(BoardId::B);
    let minute = rules().penalties.time_penalty_ms;
    // White B's time ran 3 s meanwhile; the minute is there (to the second).
    let gained = (after.0 + 3000).abs_diff(before.0 + minute);
    assert!(gained <= 1500, "before {before:?}, after {after:?}");
    assert_eq!(after.1, before.1, "Black B's time untouched");
    let note = rig.view().clocks.boards[1].note.clone().unwrap();
    assert!(note.contains("took the time change: checked"), "{note}");
    // Board A untouched.
    assert!(rig.set_and_runs(BoardId::A).len() == 2);
}

#[test]
fn a_refused_command_is_told_to_the_td_with_what_to_do() {
    let mut rig = started();
    rig.table
        .board_mut(BoardId::B)
        .unwrap()
        .emulator_mut()
        .inject_clock_fault(ClockFault::Refuse(2));
    rig.td(9_000, TdAction::PauseClocks);
    rig.run(14_000);
    assert!(!rig.clock(BoardId::A).2, "board A stopped");
    assert!(
        rig.clock(BoardId::B).2,
        "board B's clock refused: it still runs"
    );
    let alerts = rig.alerts(AlertKind::Clock);
    assert_eq!(alerts.len(), 1, "{alerts:?}");
    assert!(
        alerts[0]
            .detail
            .contains("board B's clock refused the pause")
            && alerts[0].detail.contains("stop it by hand"),
        "{}",
        alerts[0].detail
    );
    // An unanswered command (no ack after the retries) is told the same way.
    rig.table
        .board_mut(BoardId::A)
        .unwrap()
        .emulator_mut()
        .inject_clock_fault(ClockFault::Ignore(5));
    rig.td(15_000, TdAction::ResumeClocks);
    rig.run(25_000);
    let alerts = rig.alerts(AlertKind::Clock);
    assert!(
        alerts
            .iter()
            .any(|a| a.detail.contains("board A's clock refused the restart")
                && a.detail.contains("no answer")),
        "{alerts:?}"
    );
}

#[test]
fn an_older_clock_or_none_degrades_to_reading_only() {
    let r = rules();
    let mut cfg = configs(&r, true);
    if let Some(c) = cfg[1].clock.as_mut() {
        c.model = ClockModel::Older;
    }
    cfg[0].clock = None;
    let mut rig = Rig::new(r, ClockPlan::Drive, cfg);
    rig.run(6000);
    let view = rig.view();
    let a = &view.clocks.boards[0];
    let b = &view.clocks.boards[1];
    assert!(!a.in_hand && a.status.contains("no clock"), "{a:?}");
    assert!(!b.in_hand && b.status.contains("mode 23"), "{b:?}");
    let alerts = rig.alerts(AlertKind::Clock);
    assert_eq!(alerts.len(), 1, "{alerts:?}");
    assert!(
        alerts[0].detail.contains("set it to 300+0 by hand"),
        "{}",
        alerts[0].detail
    );
    // The older clock is still read, as before: the players start it with a press.
    rig.act(
        BoardId::B,
        7000,
        PhysicalAction::PressClock { by: Color::Black },
    );
    rig.run(9000);
    assert!(rig.clock(BoardId::B).2);
    assert!(rig.view().boards[1].clock.running.is_some());
}

#[test]
fn resumed_after_a_crash_with_the_clocks_paused() {
    use tandem::station::folder::{JOURNAL, MatchFolder};
    use tandem::station::runner::LiveFiles;
    use tandem::station::{MatchRunner, Recording};
    let dir = crate::common::live::temp_dir("clocks-crash");
    let r = rules();
    let mut config = tandem::arbiter::ArbiterConfig::new(r.clone());
    config.clocks = tandem::ByBoard {
        a: ClockPlan::Drive,
        b: ClockPlan::Drive,
    };
    let header = crate::common::live::header(config, "crash");
    let (folder, writers) = MatchFolder::create(&dir, &header, None).unwrap();
    let mut runner = MatchRunner::new(header);
    runner.attach(LiveFiles {
        folder,
        journal: writers.journal,
        alerts: writers.alerts,
    });
    let mut rig = Rig::with_runner(runner, configs(&r, true));
    rig.run(4000);
    rig.td(5000, TdAction::StartClocks);
    rig.td(12_000, TdAction::PauseClocks);
    rig.run(15_000);
    let at_pause: Vec<_> = BoardId::BOTH.iter().map(|&b| rig.clock(b)).collect();
    assert!(at_pause.iter().all(|c| !c.2));
    // The station dies (kill -9): nothing is closed. A new one replays the journal and
    // opens the boards again, which stayed powered with their clocks stopped.
    let text = std::fs::read_to_string(dir.join(JOURNAL)).unwrap();
    let recording = Recording::from_journal(&text).unwrap();
    let mut runner = MatchRunner::new(recording.header.clone());
    runner.replay(&recording.inputs, |_, _| {});
    assert!(
        runner.arbiter().paused(),
        "the journal says play is stopped"
    );
    let Rig { mut table, station } = rig;
    let now = station.now;
    drop(station);
    for b in BoardId::BOTH {
        table.board_mut(b).unwrap().replug(now + 2000);
    }
    let mut rig = Rig {
        table,
        station: tandem::station::simulated::SimStation::new(runner),
    };
    rig.station.now = now;
    rig.run(30_000);
    // Read, not written: still stopped, the same times, no set-up again.
    let after: Vec<_> = BoardId::BOTH.iter().map(|&b| rig.clock(b)).collect();
    assert_eq!(after, at_pause);
    for b in BoardId::BOTH {
        assert_eq!(rig.set_and_runs(b).len(), 3, "set-up, start, pause only");
    }
    let view = rig.view();
    assert!(view.clocks.paused.is_some());
    assert!(
        view.clocks.boards.iter().all(|c| c.in_hand),
        "{:?}",
        view.clocks
    );
    rig.td(30_000, TdAction::ResumeClocks);
    rig.run(33_000);
    for (i, b) in BoardId::BOTH.into_iter().enumerate() {
        let (w, bl, ticking) = rig.clock(b);
        assert!(ticking, "board {b} runs again after the resume");
        assert!(w < at_pause[i].0 && w + 4000 > at_pause[i].0);
        assert_eq!(bl, at_pause[i].1);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_driven_clock_gets_its_increment_from_tandem() {
    let mut r = rules();
    r.time_control.increment_ms = 2000;
    let mut rig = Rig::new(r.clone(), ClockPlan::Drive, configs(&r, true));
    rig.run(4000);
    rig.td(5000, TdAction::StartClocks);
    let start = r.time_control.base_ms + 2000;
    // White A plays e4 and presses after 4 s: in mode 23 the clock adds nothing itself.
    let sq = |s: &str| s.parse::<shakmaty::Square>().unwrap();
    rig.act(BoardId::A, 8000, PhysicalAction::Lift { square: sq("e2") });
    rig.act(
        BoardId::A,
        8300,
        PhysicalAction::Place {
            square: sq("e4"),
            piece: shakmaty::Piece::from_char('P').unwrap(),
        },
    );
    rig.act(
        BoardId::A,
        9000,
        PhysicalAction::PressClock { by: Color::White },
    );
    rig.run(13_000);
    let (w, _, _) = rig.clock(BoardId::A);
    // 4 s used, 2 s back: within the clock's whole seconds.
    assert!(w.abs_diff(start - 4000 + 2000) <= 1500, "White A has {w}");
    let view = rig.view();
    assert_eq!(view.record.len(), 1);
    assert_eq!(view.record[0].san, "e4");
    assert!(
        rig.alerts(AlertKind::Clock).is_empty(),
        "{:?}",
        rig.alerts(AlertKind::Clock)
    );
}

#[test]
fn tandems_own_clocks_with_buttons_through_the_reader_and_an_exact_flag() {
    use crate::common::clocks::ButtonPipe;
    let mut r = rules();
    r.time_control.base_ms = 20_000;
    let mut rig = Rig::new(r.clone(), ClockPlan::Tandem, configs(&r, false));
    let mut buttons = ButtonPipe::new();
    rig.td(3000, TdAction::StartClocks);
    let sq = |s: &str| s.parse::<shakmaty::Square>().unwrap();
    rig.act(BoardId::A, 5000, PhysicalAction::Lift { square: sq("e2") });
    rig.act(
        BoardId::A,
        5300,
        PhysicalAction::Place {
            square: sq("e4"),
            piece: shakmaty::Piece::from_char('P').unwrap(),
        },
    );
    let white_a = Seat::new(BoardId::A, Color::White);
    let presses = buttons.press(white_a, 6000);
    assert_eq!(
        presses,
        vec![tandem::arbiter::Input::Press {
            t_ms: 6000,
            seat: white_a
        }]
    );
    for p in presses {
        rig.input(p);
    }
    rig.run(7000);
    let view = rig.view();
    assert_eq!(view.record.len(), 1, "{:?}", view.record);
    assert_eq!(view.record[0].san, "e4");
    // White's 3 s to the millisecond, from the press's own time.
    assert_eq!(view.record[0].clock_ms, Some(17_000));
    assert_eq!(view.record[0].t_ms, Some(6000));
    let clock = view.board(BoardId::A).unwrap().clock;
    assert_eq!(clock.running, Some(Color::Black));
    // A press out of turn (White again) changes nothing.
    for p in buttons.press(white_a, 8000) {
        rig.input(p);
    }
    // Nobody presses on board B, nor Black on A: the flags fall at the exact moment.
    rig.run(30_000);
    let flags = rig.alerts(AlertKind::Flag);
    let at: Vec<(u64, Seat)> = flags
        .iter()
        .map(|a| match a.subject {
            tandem::arbiter::Subject::Seat(s) => (a.t_ms, s),
            _ => panic!("{a:?}"),
        })
        .collect();
    assert_eq!(
        at,
        vec![
            (23_000, Seat::new(BoardId::B, Color::White)),
            (26_000, Seat::new(BoardId::A, Color::Black)),
        ]
    );
    // Claimed: Tandem's clock says so exactly.
    let out = rig.td(
        30_000,
        TdAction::ClaimFlag {
            seat: Seat::new(BoardId::A, Color::Black),
        },
    );
    assert!(
        !out.iter()
            .any(|o| matches!(o, tandem::arbiter::Output::Refused { .. })),
        "{out:?}"
    );
    assert!(rig.view().result.is_some());
}

#[test]
fn a_match_on_boards_without_clocks_pressed_through_the_reader() {
    use crate::common::clocks::ButtonPipe;
    use tandem::sim::performer::Style;
    use tandem::sim::table::{Chooser, Rehearsal, SimTable};
    let r = rules();
    let table = SimTable::new(&configs(&r, false), 21);
    let mut rehearsal = Rehearsal::at(
        table,
        r.clone(),
        &Style::blitz(),
        Chooser::Natural,
        21,
        3000,
    );
    rehearsal.set_max_plies(24);
    let mut config = tandem::arbiter::ArbiterConfig::new(r);
    config.clocks = tandem::ByBoard {
        a: ClockPlan::Tandem,
        b: ClockPlan::Tandem,
    };
    let runner = tandem::station::MatchRunner::new(crate::common::live::header(config, "buttons"));
    let mut station = tandem::station::simulated::SimStation::new(runner);
    let mut buttons = ButtonPipe::new();
    let mut started = false;
    let mut seen = 0;
    while let Some(t) = rehearsal.next_time() {
        if !started && t >= 3000 {
            started = true;
            station.run(&mut rehearsal.table, 3000, |_, _, _, _| {}, |_| {});
            let start = tandem::arbiter::Input::Td {
                t_ms: 3000,
                action: TdAction::StartClocks,
            };
            station.apply(&mut rehearsal.table, &start);
        }
        station.run(&mut rehearsal.table, t, |_, _, _, _| {}, |_| {});
        rehearsal.advance();
        while let Some(&(b, _, at)) = rehearsal.log.get(seen) {
            seen += 1;
            let seat = Seat::new(b, !rehearsal.truth.board(b).turn());
            for input in buttons.press(seat, at) {
                station.apply(&mut rehearsal.table, &input);
            }
        }
    }
    let end = rehearsal.now() + 6000;
    station.run(&mut rehearsal.table, end, |_, _, _, _| {}, |_| {});
    let arb = station.runner.arbiter();
    for b in BoardId::BOTH {
        assert_eq!(
            crate::common::sans(arb.game(), b),
            crate::common::sans(&rehearsal.truth, b),
            "board {b}"
        );
    }
    assert!(arb.game().record().len() >= 20);
    let bad: Vec<_> = arb
        .alerts()
        .all()
        .iter()
        .filter(|a| matches!(a.kind, AlertKind::Desync | AlertKind::NoMovePress))
        .collect();
    assert!(bad.is_empty(), "{bad:?}");
    // Every move carries the presser's time to the millisecond.
    assert!(
        arb.game()
            .record()
            .iter()
            .all(|p| p.meta.clock_ms.is_some())
    );
}
