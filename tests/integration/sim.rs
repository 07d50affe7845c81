//! The virtual board on a simulated link, through the production decoder and link code.

#![allow(clippy::unwrap_used)] // tests may unwrap

use shakmaty::{Color, Piece, Role, Square};
use tandem::BoardId;
use tandem::arbiter::BoardEventKind;
use tandem::device::{CaptureWriter, read_capture};
use tandem::dgt::{ClockSide, Message, Orientation, PieceCode, detect_orientation};
use tandem::sim::board::events;
use tandem::sim::emulator::{EmulatorConfig, PhysicalAction as A};
use tandem::sim::{SimBoard, SimOutput};

fn kinds(out: &[SimOutput]) -> Vec<BoardEventKind> {
    events(out).into_iter().map(|e| e.kind).collect()
}

#[test]
fn connects_then_dump_then_moves_and_clock() {
    let mut sim = SimBoard::new(BoardId::B, EmulatorConfig::default(), 1);
    sim.act(0, A::SetUpStart);
    let out = sim.run_until(1000);
    let k = kinds(&out);
    match k.as_slice() {
        [
            BoardEventKind::Connected {
                serial,
                version,
                port,
            },
            BoardEventKind::Message(Message::BoardDump(f)),
            ..,
        ] => {
            assert_eq!(serial.as_deref(), Some("3000012345"));
            assert_eq!(*version, Some((1, 2)));
            assert_eq!(port, "sim:B");
            // The board was set up at the moment the PC connected: the dump shows what
            // the scan had seen by then, and field updates bring the rest.
            let mut seen = *f;
            for k in &k {
                if let BoardEventKind::Message(Message::FieldUpdate { field, code }) = k {
                    seen.set(*field, *code);
                }
            }
            assert_eq!(detect_orientation(&seen), Some(Orientation::Normal));
        }
        other => panic!("{other:?}"),
    }
    let evs = events(&out);
    assert!(evs.iter().all(|e| e.board == BoardId::B));
    // Link chatter (serial numbers, version) never reaches the core.
    sim.act(1000, A::PressClock { by: Color::Black });
    sim.act(3000, A::Lift { square: Square::E2 });
    sim.act(
        3200,
        A::Place {
            square: Square::E4,
            piece: Piece {
                color: Color::White,
                role: Role::Pawn,
            },
        },
    );
    sim.act(3300, A::PressClock { by: Color::White });
    let out = sim.run_until(6000);
    let k = kinds(&out);
    assert!(
        k.iter().all(|k| matches!(
            k,
            BoardEventKind::Message(Message::FieldUpdate { .. } | Message::Clock(_))
        )),
        "{k:?}"
    );
    let fields: Vec<u8> = k
        .iter()
        .filter_map(|k| match k {
            BoardEventKind::Message(Message::FieldUpdate { field, .. }) => Some(*field),
            _ => None,
        })
        .collect();
    assert_eq!(fields.len(), 2);
    assert!(k.iter().any(|k| matches!(k, BoardEventKind::Message(Message::Clock(t)) if t.running == Some(ClockSide::Right))));
    // Timestamps never go backwards.
    let ts: Vec<u64> = events(&out).iter().map(|e| e.t_ms).collect();
    assert!(ts.windows(2).all(|w| w[0] <= w[1]));
}

#[test]
fn an_hour_of_play_runs_fast_and_stays_connected() {
    let started = std::time::Instant::now();
    let mut sim = SimBoard::new(BoardId::A, EmulatorConfig::default(), 7);
    sim.act(0, A::SetUpStart);
    sim.act(
        500,
        A::SetClock {
            white_ms: 3_600_000,
            black_ms: 3_600_000,
        },
    );
    sim.run_until(1900);
    let mut updates = 0;
    let mut t = 2000;
    let knight = Piece {
        color: Color::White,
        role: Role::Knight,
    };
    // A knight hopping back and forth for an hour, pressing after each hop.
    let mut on_g1 = true;
    let mut disconnected = 0;
    while t < 3_600_000 {
        let (from, to) = if on_g1 {
            (Square::G1, Square::F3)
        } else {
            (Square::F3, Square::G1)
        };
        sim.act(t, A::Lift { square: from });
        sim.act(
            t + 300,
            A::Place {
                square: to,
                piece: knight,
            },
        );
        sim.act(t + 400, A::PressClock { by: Color::White });
        sim.act(t + 2000, A::PressClock { by: Color::Black });
        on_g1 = !on_g1;
        t += 5000;
        for e in events(&sim.run_until(t)) {
            match e.kind {
                BoardEventKind::Message(Message::FieldUpdate { .. }) => updates += 1,
                BoardEventKind::Disconnected { .. } => disconnected += 1,
                _ => {}
            }
        }
    }
    assert_eq!(disconnected, 0);
    assert_eq!(updates, 2 * 720, "two updates per hop");
    assert!(
        started.elapsed().as_secs() < 30,
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(
        sim.emulator().sensed().get(62),
        PieceCode::from_piece(Some(knight))
    );
}

#[test]
fn unplug_and_replug_gives_disconnected_then_a_fresh_dump() {
    let mut sim = SimBoard::new(BoardId::A, EmulatorConfig::default(), 2);
    sim.act(0, A::SetUpStart);
    sim.run_until(1500);
    sim.unplug(2000);
    // Moves while unplugged are never reported as updates...
    sim.act(2500, A::Lift { square: Square::E2 });
    sim.act(
        2700,
        A::Place {
            square: Square::E4,
            piece: Piece {
                color: Color::White,
                role: Role::Pawn,
            },
        },
    );
    let k = kinds(&sim.run_until(5000));
    assert!(
        matches!(k.as_slice(), [BoardEventKind::Disconnected { reason }] if reason == "unplugged"),
        "{k:?}"
    );
    sim.replug(5000);
    let k = kinds(&sim.run_until(6500));
    // ...but the fresh dump shows them.
    match k.as_slice() {
        [
            BoardEventKind::Connected { .. },
            BoardEventKind::Message(Message::BoardDump(f)),
            ..,
        ] => {
            assert_eq!(f.get(36), PieceCode(1));
            assert_eq!(f.get(52), PieceCode::EMPTY);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn chunks_make_a_capture_that_decodes_to_the_same_events() {
    let mut sim = SimBoard::new(BoardId::A, EmulatorConfig::default(), 4);
    sim.act(0, A::SetUpStart);
    sim.act(1000, A::PressClock { by: Color::Black });
    sim.act(2000, A::Lift { square: Square::D2 });
    sim.act(
        2100,
        A::Place {
            square: Square::D4,
            piece: Piece {
                color: Color::White,
                role: Role::Pawn,
            },
        },
    );
    let out = sim.run_until(4000);
    let dir = std::env::temp_dir().join(format!("tandem-sim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("sim.capture");
    let mut w = CaptureWriter::create(&path).unwrap();
    for c in out.iter().filter_map(SimOutput::chunk) {
        w.write_chunk(c.t_ms, c.board, &c.bytes).unwrap();
    }
    drop(w);
    let chunks = read_capture(&path).unwrap();
    assert_eq!(
        chunks.len(),
        out.iter().filter(|o| o.chunk().is_some()).count()
    );
    let mut d = tandem::dgt::Decoder::new();
    let mut msgs = Vec::new();
    for c in &chunks {
        d.push(&c.bytes, &mut msgs);
    }
    let forwarded: Vec<Message> = events(&out)
        .into_iter()
        .filter_map(|e| match e.kind {
            BoardEventKind::Message(m) => Some(m),
            _ => None,
        })
        .collect();
    // Every forwarded message is in the capture, in order.
    let mut it = msgs.iter();
    for m in &forwarded {
        assert!(it.any(|x| x == m), "{m:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
