//! End to end on pseudo-terminals: the virtual board on the master side, the production
//! worker on the slave path, opened by the same code as `/dev/ttyUSB0`.

#![allow(clippy::unwrap_used)] // tests may unwrap

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, bounded};
use shakmaty::{Color, Piece, Role, Square};
use tandem::BoardId;
use tandem::arbiter::{BoardEvent, BoardEventKind};
use tandem::device::port::{DeviceError, open_port};
use tandem::device::{
    CaptureSink, CaptureWriter, DeviceProfile, PortSpec, WorkerConfig, read_capture,
    spawn_board_worker,
};
use tandem::dgt::{ClockSide, Message, Orientation, PieceCode, detect_orientation};
use tandem::sim::VirtualBoard;
use tandem::sim::emulator::{EmulatorConfig, PhysicalAction as A};

use crate::common::live::temp_dir;

const WAIT: Duration = Duration::from_secs(10);

/// The next event matching `pred`, skipping others; panics after `WAIT`.
fn wait_for(
    rx: &Receiver<BoardEvent>,
    what: &str,
    pred: impl Fn(&BoardEvent) -> bool,
) -> BoardEvent {
    let deadline = Instant::now() + WAIT;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(e) if pred(&e) => return e,
            Ok(_) => {}
            Err(_) => panic!("timed out waiting for {what}"),
        }
    }
}

fn is_connected(e: &BoardEvent) -> bool {
    matches!(e.kind, BoardEventKind::Connected { .. })
}

fn is_dump(e: &BoardEvent) -> bool {
    matches!(e.kind, BoardEventKind::Message(Message::BoardDump(_)))
}

fn profile() -> DeviceProfile {
    DeviceProfile::load("virtual").unwrap()
}

#[test]
fn moves_and_clock_through_a_real_serial_port() {
    let reg = temp_dir("pty-moves");
    let vb = VirtualBoard::spawn_in(EmulatorConfig::default(), 1, Some(reg.clone())).unwrap();
    vb.act(A::SetUpStart);
    // Let the board's scan see the pieces (its dump shows the last scan, not the pieces).
    let deadline = Instant::now() + WAIT;
    while vb.inspect(|e| detect_orientation(e.sensed())) != Some(Some(Orientation::Normal)) {
        assert!(Instant::now() < deadline, "board never sensed its pieces");
        std::thread::sleep(Duration::from_millis(20));
    }
    let path = vb.path();
    assert!(path.starts_with("/dev/pts/"), "{path}");
    let capture_path = reg.join("run.capture");
    let sink = CaptureSink::new(CaptureWriter::create(&capture_path).unwrap());
    let (tx, rx) = bounded(256);
    let wakes = Arc::new(AtomicUsize::new(0));
    let w = wakes.clone();
    let epoch = Instant::now();
    let mut cfg = WorkerConfig::new(BoardId::A, PortSpec::Path(path.clone()), profile());
    cfg.registry_dir = Some(reg.clone());
    let worker = spawn_board_worker(
        cfg,
        epoch,
        tx,
        Arc::new(move || {
            w.fetch_add(1, Ordering::SeqCst);
        }),
        Some(sink),
    );

    let c = wait_for(&rx, "connected", is_connected);
    assert_eq!(c.board, BoardId::A);
    let BoardEventKind::Connected {
        port,
        serial,
        version,
    } = &c.kind
    else {
        unreachable!()
    };
    assert_eq!(
        (port.as_str(), serial.as_deref(), *version),
        (path.as_str(), Some("3000012345"), Some((1, 2)))
    );
    let d = wait_for(&rx, "dump", is_dump);
    let BoardEventKind::Message(Message::BoardDump(f)) = &d.kind else {
        unreachable!()
    };
    assert_eq!(detect_orientation(f), Some(Orientation::Normal));

    // Black starts White's clock, White plays e2-e4 and presses.
    vb.act(A::PressClock { by: Color::Black });
    wait_for(
        &rx,
        "white's clock running",
        |e| matches!(&e.kind, BoardEventKind::Message(Message::Clock(t)) if t.running == Some(ClockSide::Left)),
    );
    let moved_at = epoch.elapsed().as_millis() as u64;
    vb.act(A::Lift { square: Square::E2 });
    vb.act(A::Place {
        square: Square::E4,
        piece: Piece {
            color: Color::White,
            role: Role::Pawn,
        },
    });
    vb.act(A::PressClock { by: Color::White });
    let mut fields = Vec::new();
    let mut pressed = None;
    let deadline = Instant::now() + WAIT;
    while (fields.len() < 2 || pressed.is_none()) && Instant::now() < deadline {
        let Ok(e) = rx.recv_timeout(Duration::from_millis(200)) else {
            continue;
        };
        match &e.kind {
            BoardEventKind::Message(Message::FieldUpdate { field, code }) => {
                assert!(e.t_ms >= moved_at, "timestamped after the move");
                fields.push((*field, *code));
            }
            BoardEventKind::Message(Message::Clock(t)) if t.running == Some(ClockSide::Right) => {
                pressed = Some(e.t_ms);
            }
            _ => {}
        }
    }
    fields.sort_by_key(|(f, _)| *f);
    assert_eq!(fields, vec![(36, PieceCode(1)), (52, PieceCode::EMPTY)]);
    assert!(pressed.is_some_and(|t| t >= moved_at));
    assert!(wakes.load(Ordering::SeqCst) > 0);
    worker.join();

    // The capture holds the raw bytes; decoding it gives the same messages.
    let chunks = read_capture(&capture_path).unwrap();
    let mut dec = tandem::dgt::Decoder::new();
    let mut msgs = Vec::new();
    for c in &chunks {
        dec.push(&c.bytes, &mut msgs);
    }
    assert!(msgs.iter().any(|m| matches!(m, Message::BoardDump(_))));
    assert!(msgs.contains(&Message::FieldUpdate {
        field: 36,
        code: PieceCode(1)
    }));
    vb.shutdown();
    let _ = std::fs::remove_dir_all(&reg);
}

#[test]
fn unplug_is_reported_and_the_same_board_is_found_again_by_serial() {
    let reg = temp_dir("pty-replug");
    let vb = VirtualBoard::spawn_in(
        EmulatorConfig {
            serial: "24680".into(),
            ..EmulatorConfig::default()
        },
        2,
        Some(reg.clone()),
    )
    .unwrap();
    vb.act(A::SetUpStart);
    let first_path = vb.path();
    let (tx, rx) = bounded(256);
    let mut cfg = WorkerConfig::new(BoardId::B, PortSpec::Serial("24680".into()), profile());
    cfg.registry_dir = Some(reg.clone());
    let worker = spawn_board_worker(cfg, Instant::now(), tx, Arc::new(|| {}), None);
    let c = wait_for(&rx, "connected", is_connected);
    assert!(matches!(&c.kind, BoardEventKind::Connected { port, .. } if *port == first_path));
    wait_for(&rx, "dump", is_dump);

    vb.unplug();
    let d = wait_for(&rx, "disconnected", |e| {
        matches!(e.kind, BoardEventKind::Disconnected { .. })
    });
    let BoardEventKind::Disconnected { reason } = &d.kind else {
        unreachable!()
    };
    assert!(reason.contains("unplugged"), "{reason}");
    // A move while unplugged...
    vb.act(A::Lift { square: Square::G1 });
    vb.act(A::Place {
        square: Square::F3,
        piece: Piece {
            color: Color::White,
            role: Role::Knight,
        },
    });
    std::thread::sleep(Duration::from_millis(300));
    let new_path = vb.replug().unwrap();
    assert_ne!(new_path, first_path);
    let c = wait_for(&rx, "reconnected", is_connected);
    let BoardEventKind::Connected { port, serial, .. } = &c.kind else {
        unreachable!()
    };
    assert_eq!(port, &new_path);
    assert_eq!(serial.as_deref(), Some("3000024680"));
    // ...shows in the fresh dump.
    let d = wait_for(&rx, "fresh dump", is_dump);
    let BoardEventKind::Message(Message::BoardDump(f)) = &d.kind else {
        unreachable!()
    };
    assert_eq!(f.get(45), PieceCode(3), "knight on f3");
    assert_eq!(f.get(62), PieceCode::EMPTY);
    worker.join();
    vb.shutdown();
    assert!(
        tandem::device::registry::list(&reg).is_empty(),
        "shutdown removes the entry"
    );
    let _ = std::fs::remove_dir_all(&reg);
}

#[test]
fn a_port_in_use_is_reported_busy() {
    let reg = temp_dir("pty-busy");
    let vb = VirtualBoard::spawn_in(EmulatorConfig::default(), 3, Some(reg.clone())).unwrap();
    let path = vb.path();
    let _held = open_port(&path, &profile()).unwrap();
    let err = open_port(&path, &profile()).err().unwrap();
    assert_eq!(err, DeviceError::PortBusy { port: path.clone() });
    assert_eq!(
        err.to_string(),
        format!("port {path} is busy (another program has it open?)")
    );
    // The worker says the same to the core.
    let (tx, rx) = bounded(16);
    let worker = spawn_board_worker(
        WorkerConfig::new(BoardId::A, PortSpec::Path(path.clone()), profile()),
        Instant::now(),
        tx,
        Arc::new(|| {}),
        None,
    );
    let e = wait_for(&rx, "busy", |e| {
        matches!(e.kind, BoardEventKind::Disconnected { .. })
    });
    assert!(
        matches!(&e.kind, BoardEventKind::Disconnected { reason } if reason.contains("busy")),
        "{e:?}"
    );
    worker.join();
    vb.shutdown();
    let _ = std::fs::remove_dir_all(&reg);
}

#[test]
fn boards_are_told_apart_by_serial_number_not_by_port() {
    let reg = temp_dir("pty-swap");
    let one = VirtualBoard::spawn_in(
        EmulatorConfig {
            serial: "11111".into(),
            ..EmulatorConfig::default()
        },
        4,
        Some(reg.clone()),
    )
    .unwrap();
    let two = VirtualBoard::spawn_in(
        EmulatorConfig {
            serial: "22222".into(),
            ..EmulatorConfig::default()
        },
        5,
        Some(reg.clone()),
    )
    .unwrap();
    let (tx, rx) = bounded(256);
    let spawn = |board, serial: &str| {
        let mut cfg = WorkerConfig::new(board, PortSpec::Serial(serial.into()), profile());
        cfg.registry_dir = Some(reg.clone());
        spawn_board_worker(cfg, Instant::now(), tx.clone(), Arc::new(|| {}), None)
    };
    // A is the board with serial 22222, B the one with 11111, and a third worker looks
    // for a board that is not there.
    let a = spawn(BoardId::A, "22222");
    let b = spawn(BoardId::B, "11111");
    let mut cfg = WorkerConfig::new(BoardId::A, PortSpec::Serial("33333".into()), profile());
    cfg.registry_dir = Some(reg.clone());
    let (tx3, rx3) = bounded(16);
    let c = spawn_board_worker(cfg, Instant::now(), tx3, Arc::new(|| {}), None);
    let mut seen = Vec::new();
    while seen.len() < 2 {
        let e = wait_for(&rx, "both connected", |e| {
            // Both workers ask the same ports at once: neither may report its board lost
            // because the other was asking the port it is on.
            assert!(
                !matches!(e.kind, BoardEventKind::Disconnected { .. }),
                "{e:?}"
            );
            is_connected(e)
        });
        let BoardEventKind::Connected { port, serial, .. } = e.kind else {
            unreachable!()
        };
        seen.push((e.board, port, serial));
    }
    seen.sort();
    assert_eq!(
        seen,
        vec![
            (BoardId::A, two.path(), Some("3000022222".to_string())),
            (BoardId::B, one.path(), Some("3000011111".to_string())),
        ]
    );
    let e = wait_for(&rx3, "not found", |e| {
        matches!(e.kind, BoardEventKind::Disconnected { .. })
    });
    assert!(
        matches!(&e.kind, BoardEventKind::Disconnected { reason } if reason.contains("33333")),
        "{e:?}"
    );
    assert!(rx3.try_iter().all(|e| !is_connected(&e)));
    a.join();
    b.join();
    c.join();
    let _ = std::fs::remove_dir_all(&reg);
}

#[test]
fn find_boards_names_the_virtual_board_by_its_serial() {
    let reg = temp_dir("pty-find");
    let vb = VirtualBoard::spawn_in(
        EmulatorConfig {
            serial: "24680".into(),
            ..EmulatorConfig::default()
        },
        5,
        Some(reg.clone()),
    )
    .unwrap();
    let profile = DeviceProfile::load("virtual").unwrap();
    let (found, failed) =
        tandem::device::port::find_boards(&reg, &profile, Duration::from_millis(800));
    assert!(failed.is_empty(), "{failed:?}");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].path, vb.path());
    // The number it answers to opens it again, whatever its port.
    assert!(found[0].serial.ends_with("24680"), "{found:?}");
    assert_eq!(found[0].version, Some((1, 2)));
}
