//! The virtual board is as unkind as a real one: scan order, clock latency, flags, no
//! clock, rotation, Bluetooth timing.

#![allow(clippy::unwrap_used)] // tests may unwrap

use shakmaty::{Color, Piece, Role, Square};
use tandem::Millis;
use tandem::dgt::{
    ClockSide, Command, Decoder, Fields, Message, Orientation, PieceCode, detect_orientation,
    square_to_field,
};
use tandem::sim::emulator::{
    BoardEmulator, BoardMode, ClockConfig, EmulatorConfig, PhysicalAction as A,
};

/// A minimal PC on the other end: sends commands, decodes what comes back.
struct Pc {
    emu: BoardEmulator,
    dec: Decoder,
    log: Vec<(Millis, Message)>,
}

impl Pc {
    fn new(cfg: EmulatorConfig, seed: u64) -> Self {
        Pc {
            emu: BoardEmulator::new(cfg, seed),
            dec: Decoder::new(),
            log: Vec::new(),
        }
    }

    /// Board set up and settled, then update-nice.
    fn started(cfg: EmulatorConfig, seed: u64) -> Self {
        let mut pc = Pc::new(cfg, seed);
        pc.emu.act(0, A::SetUpStart);
        pc.send(600, &Command::UpdateNice);
        pc.run(700);
        pc.log.clear();
        pc
    }

    fn send(&mut self, t: Millis, c: &Command) {
        self.run(t);
        self.emu.receive_from_pc(t, &c.encode());
    }

    fn run(&mut self, t: Millis) {
        self.emu.advance_to(t);
        for (tm, bytes) in self.emu.take_output() {
            for m in self.dec.decode(&bytes) {
                self.log.push((tm, m));
            }
        }
    }

    fn act(&mut self, t: Millis, a: A) {
        self.run(t);
        self.emu.act(t, a);
    }

    fn field_updates(&self) -> Vec<(Millis, u8, PieceCode)> {
        self.log
            .iter()
            .filter_map(|(t, m)| match m {
                Message::FieldUpdate { field, code } => Some((*t, *field, *code)),
                _ => None,
            })
            .collect()
    }

    fn clocks(&self) -> Vec<(Millis, tandem::dgt::ClockTimes)> {
        self.log
            .iter()
            .filter_map(|(t, m)| match m {
                Message::Clock(c) => Some((*t, *c)),
                _ => None,
            })
            .collect()
    }
}

fn wp() -> Piece {
    Piece {
        color: Color::White,
        role: Role::Pawn,
    }
}

fn f(sq: Square) -> u8 {
    square_to_field(sq, Orientation::Normal)
}

#[test]
fn power_up_is_idle_and_dump_shows_the_last_scan() {
    let mut pc = Pc::new(EmulatorConfig::default(), 1);
    pc.act(0, A::SetUpStart);
    pc.run(2000);
    assert!(pc.log.is_empty(), "idle board sends nothing: {:?}", pc.log);
    assert_eq!(pc.emu.mode(), BoardMode::Idle);
    // Lift e2 and ask for a dump at once: the scan has not seen it yet.
    pc.act(2000, A::Lift { square: Square::E2 });
    pc.send(2000, &Command::SendBoard);
    pc.run(2100);
    let Some((_, Message::BoardDump(d))) = pc.log.first() else {
        panic!("{:?}", pc.log)
    };
    assert_eq!(
        detect_orientation(d),
        Some(Orientation::Normal),
        "dump is what was scanned"
    );
    pc.run(2400);
    pc.send(2400, &Command::SendBoard);
    pc.run(2500);
    let Some((_, Message::BoardDump(d))) = pc.log.last() else {
        panic!()
    };
    assert_eq!(d.get(f(Square::E2)), PieceCode::EMPTY);
}

#[test]
fn updates_arrive_in_scan_order_not_physical_order() {
    // e2 is field 52, e4 field 36: the scan reaches e4 first in every pass.
    let (mut new_first, mut old_first) = (0, 0);
    for i in 0..40u64 {
        let mut pc = Pc::started(EmulatorConfig::default(), i);
        let t = 1000 + i * 7;
        pc.act(t, A::Lift { square: Square::E2 });
        pc.act(
            t + 40,
            A::Place {
                square: Square::E4,
                piece: wp(),
            },
        );
        pc.run(t + 1000);
        let u = pc.field_updates();
        assert_eq!(u.len(), 2, "{u:?}");
        // Both halves arrive within about one scan of the move.
        for (tu, _, _) in &u {
            assert!(*tu >= t && *tu <= t + 40 + 250 + 20, "{u:?}");
        }
        match (u[0].1, u[1].1) {
            (36, 52) => new_first += 1,
            (52, 36) => old_first += 1,
            other => panic!("{other:?}"),
        }
    }
    assert!(
        new_first > 0 && old_first > 0,
        "new-first {new_first}, old-first {old_first}"
    );
}

#[test]
fn lift_and_replace_between_two_samples_is_never_seen() {
    for seed in 0..10 {
        let mut pc = Pc::started(EmulatorConfig::default(), seed);
        // Wait until the scan has just passed e2.
        let mut t = 1000;
        while pc.emu.next_scan().0 != f(Square::E2) + 1 {
            t += 1;
            pc.run(t);
        }
        pc.act(t, A::Lift { square: Square::E2 });
        pc.act(
            t + 150,
            A::Place {
                square: Square::E2,
                piece: wp(),
            },
        );
        pc.run(t + 2000);
        assert!(pc.field_updates().is_empty(), "{:?}", pc.field_updates());
    }
}

#[test]
fn capture_onto_the_victim_never_shows_empty() {
    let wn = Piece {
        color: Color::White,
        role: Role::Knight,
    };
    for seed in 0..20 {
        let mut pc = Pc::started(EmulatorConfig::default(), seed);
        let t = 1000 + seed * 13;
        // Nb1 takes on d7... well, on d2 here: the knight goes straight onto the pawn.
        pc.act(t, A::Lift { square: Square::B1 });
        let swept = pc.emu.act(
            t + 30,
            A::Place {
                square: Square::D2,
                piece: wn,
            },
        );
        assert_eq!(swept, Some(tandem::sim::PhysicalPiece::Standing(wp())));
        pc.run(t + 1000);
        let u = pc.field_updates();
        let d2: Vec<_> = u.iter().filter(|(_, fl, _)| *fl == f(Square::D2)).collect();
        assert_eq!(d2.len(), 1, "{u:?}");
        assert_eq!(d2[0].2, PieceCode::from_piece(Some(wn)));
    }
}

#[test]
fn slide_reports_what_the_scan_caught() {
    let wr = Piece {
        color: Color::White,
        role: Role::Rook,
    };
    let mut seen_intermediate = 0;
    for seed in 0..20 {
        let mut pc = Pc::new(EmulatorConfig::default(), seed);
        let mut b = shakmaty::Board::empty();
        b.set_piece_at(Square::A1, wr);
        pc.act(0, A::SetUp(b));
        pc.send(600, &Command::UpdateNice);
        pc.run(700);
        pc.log.clear();
        let via = [
            Square::A2,
            Square::A3,
            Square::A4,
            Square::A5,
            Square::A6,
            Square::A7,
        ];
        pc.emu.slide(1000, Square::A1, &via, Square::A8, wr, 60);
        pc.run(3000);
        let u = pc.field_updates();
        // Whatever happened in between, the end state is reported and settled.
        assert_eq!(
            pc.emu.sensed().get(f(Square::A8)),
            PieceCode::from_piece(Some(wr))
        );
        assert_eq!(pc.emu.sensed().get(f(Square::A1)), PieceCode::EMPTY);
        seen_intermediate += u
            .iter()
            .filter(|(_, fl, _)| via.iter().any(|s| f(*s) == *fl))
            .count();
    }
    assert!(
        seen_intermediate > 0,
        "a slide sometimes shows intermediate squares"
    );
}

#[test]
fn lying_pawn_is_mostly_unseen() {
    let mut cfg = EmulatorConfig {
        lying_pawn_flicker: 0.0,
        ..EmulatorConfig::default()
    };
    let mut pc = Pc::started(cfg.clone(), 3);
    pc.act(1000, A::LayDown { square: Square::E2 });
    pc.run(2000);
    assert_eq!(pc.field_updates().len(), 1);
    assert_eq!(pc.emu.sensed().get(f(Square::E2)), PieceCode::EMPTY);
    cfg.lying_pawn_flicker = 0.3;
    let mut pc = Pc::started(cfg, 3);
    pc.act(1000, A::LayDown { square: Square::E2 });
    pc.run(6000);
    // It flickers between empty and pawn.
    assert!(pc.field_updates().len() > 4, "{:?}", pc.field_updates());
}

#[test]
fn clock_press_reaches_the_pc_late_and_sometimes_before_the_move() {
    let (mut press_first, mut move_first) = (0, 0);
    let mut delays = Vec::new();
    for seed in 0..60 {
        let mut pc = Pc::started(EmulatorConfig::default(), seed);
        // Black presses to start White's time.
        pc.act(1000, A::PressClock { by: Color::Black });
        pc.run(3000);
        let t = 3000 + seed * 11;
        pc.act(t, A::Lift { square: Square::E2 });
        pc.act(
            t + 150,
            A::Place {
                square: Square::E4,
                piece: wp(),
            },
        );
        pc.act(t + 160, A::PressClock { by: Color::White });
        pc.run(t + 3000);
        let press_msg = pc
            .clocks()
            .into_iter()
            .find(|(tm, c)| *tm > t && c.running == Some(ClockSide::Right))
            .map(|(tm, _)| tm)
            .expect("lever change reported");
        let last_field = pc
            .field_updates()
            .iter()
            .map(|(tm, _, _)| *tm)
            .max()
            .unwrap();
        delays.push(press_msg - (t + 160));
        if press_msg < last_field {
            press_first += 1;
        } else {
            move_first += 1;
        }
    }
    let max = *delays.iter().max().unwrap();
    let min = *delays.iter().min().unwrap();
    assert!(min < 300 && max > 500 && max <= 1200, "delays {delays:?}");
    assert!(
        press_first > 0 && move_first > 0,
        "press first {press_first}, move first {move_first}"
    );
}

#[test]
fn clock_statuses_and_increment_as_a_real_clock() {
    let cfg = EmulatorConfig {
        clock: Some(ClockConfig {
            white_side: ClockSide::Left,
            base_ms: 180_000,
            increment_ms: 2000,
            delay_ms: 0,
            ..ClockConfig::default()
        }),
        clock_late_chance: 0.0,
        ..EmulatorConfig::default()
    };
    let mut pc = Pc::new(cfg, 9);
    pc.act(0, A::SetUpStart);
    pc.send(100, &Command::UpdateNice);
    pc.run(1000);
    let first = pc.clocks();
    assert_eq!(first.len(), 1, "update-nice sends the clock once when idle");
    assert_eq!(first[0].1.status, 0x08);
    assert_eq!(first[0].1.left.hms(), "0:03:02");
    assert!(first[0].1.left.time_per_move);
    pc.act(1000, A::PressClock { by: Color::Black });
    pc.run(4000);
    let c = pc.clocks();
    assert!(c.iter().any(|(_, t)| t.status == 0x09));
    // About once a second while running.
    let running = c.iter().filter(|(_, t)| t.status == 0x09).count();
    assert!((3..=5).contains(&running), "{c:?}");
    pc.act(4000, A::PressClock { by: Color::White });
    pc.run(5000);
    let (_, t) = *pc.clocks().iter().find(|(_, t)| t.status == 0x13).unwrap();
    // 182 s - ~3 s + 2 s increment.
    assert!((180..=182).contains(&t.left.seconds), "{t:?}");
    pc.act(5000, A::PauseClock);
    pc.run(6000);
    assert_eq!(pc.clocks().last().unwrap().1.status, 0x12);
}

#[test]
fn flag_falls_and_stays_at_zero() {
    let mut pc = Pc::started(EmulatorConfig::default(), 4);
    pc.act(
        1000,
        A::SetClock {
            white_ms: 2500,
            black_ms: 60_000,
        },
    );
    pc.act(1000, A::PressClock { by: Color::Black });
    pc.run(6000);
    let (_, last) = *pc.clocks().last().unwrap();
    assert_eq!(last.left.hms(), "0:00:00");
    assert!(last.left.flag_fallen && last.left.flag_shown);
    assert!(!last.right.flag());
    assert_eq!(last.right.seconds, 60);
    assert_eq!(last.running, None);
    pc.run(9000);
    assert_eq!(pc.clocks().last().unwrap().1, last, "stays blocked");
}

#[test]
fn no_clock_plugged_in() {
    let mut pc = Pc::started(
        EmulatorConfig {
            clock: None,
            ..EmulatorConfig::default()
        },
        5,
    );
    pc.send(1000, &Command::SendClock);
    pc.run(1200);
    let c = pc.clocks();
    assert!(!c.is_empty());
    assert!(c.iter().all(|(_, t)| t.no_clock));
    // Clock commands get no ack.
    pc.send(1300, &Command::Clock(tandem::dgt::ClockCommand::Version));
    pc.run(3000);
    assert!(
        !pc.log
            .iter()
            .any(|(_, m)| matches!(m, Message::ClockAck(_)))
    );
}

#[test]
fn clock_acks_only_in_update_modes() {
    let mut pc = Pc::new(EmulatorConfig::default(), 6);
    pc.send(0, &Command::Clock(tandem::dgt::ClockCommand::Version));
    pc.run(2000);
    assert!(pc.log.is_empty());
    pc.send(2000, &Command::UpdateNice);
    pc.send(2100, &Command::Clock(tandem::dgt::ClockCommand::Version));
    pc.run(4000);
    let ack = pc.log.iter().find_map(|(_, m)| match m {
        Message::ClockAck(a) => Some(*a),
        _ => None,
    });
    assert_eq!(ack.and_then(|a| a.version()), Some((2, 1)));
}

#[test]
fn rotated_board_numbers_its_fields_the_other_way() {
    let cfg = EmulatorConfig {
        orientation: Orientation::Rotated,
        ..EmulatorConfig::default()
    };
    let mut pc = Pc::started(cfg, 7);
    pc.send(700, &Command::SendBoard);
    pc.run(800);
    let Some((_, Message::BoardDump(d))) = pc.log.first() else {
        panic!()
    };
    assert_eq!(
        d.to_bytes()[..8],
        [2, 3, 4, 5, 6, 4, 3, 2],
        "as 2.inbytes starts"
    );
    assert_eq!(detect_orientation(d), Some(Orientation::Rotated));
    pc.act(1000, A::Lift { square: Square::E2 });
    pc.act(
        1300,
        A::Place {
            square: Square::E4,
            piece: wp(),
        },
    );
    pc.run(2000);
    let fields: Vec<u8> = pc.field_updates().iter().map(|(_, fl, _)| *fl).collect();
    assert_eq!(fields, vec![11, 27]);
}

#[test]
fn bluetooth_board_is_slower() {
    fn worst_latency(cfg: EmulatorConfig) -> u64 {
        let mut worst = 0;
        for seed in 0..30 {
            let mut pc = Pc::started(cfg.clone(), seed);
            let t = 1000 + seed * 17;
            pc.act(t, A::Lift { square: Square::A2 });
            pc.run(t + 1500);
            let (tu, _, _) = pc.field_updates()[0];
            worst = worst.max(tu - t);
        }
        worst
    }
    let usb = worst_latency(EmulatorConfig::default());
    let bt = worst_latency(EmulatorConfig::bluetooth());
    assert!(usb <= 260, "usb {usb}");
    assert!(bt > 300 && bt <= 520, "bt {bt}");
}

#[test]
fn same_seed_same_bytes() {
    let run = |seed| {
        let mut pc = Pc::started(EmulatorConfig::default(), seed);
        pc.act(1000, A::PressClock { by: Color::Black });
        pc.act(1500, A::Lift { square: Square::E2 });
        pc.act(
            1700,
            A::Place {
                square: Square::E4,
                piece: wp(),
            },
        );
        pc.act(1800, A::PressClock { by: Color::White });
        pc.run(5000);
        pc.log
    };
    assert_eq!(run(42), run(42));
    assert_ne!(run(42), run(43));
}

#[test]
fn fields_of_a_fresh_board_match_the_setup() {
    let mut pc = Pc::started(EmulatorConfig::default(), 8);
    pc.run(1000);
    assert_eq!(
        *pc.emu.sensed(),
        Fields::from_board(&shakmaty::Board::new(), Orientation::Normal)
    );
}

#[test]
fn knocked_piece_lands_elsewhere_or_falls_off() {
    let mut pc = Pc::started(EmulatorConfig::default(), 10);
    // Knocked onto an empty square: both squares change.
    assert_eq!(
        pc.emu.act(
            1000,
            A::Knock {
                from: Square::D2,
                to: Square::D3
            }
        ),
        None
    );
    // Knocked onto an occupied square: it falls off the board.
    let off = pc.emu.act(
        1100,
        A::Knock {
            from: Square::E2,
            to: Square::E1,
        },
    );
    assert_eq!(off, Some(tandem::sim::PhysicalPiece::Standing(wp())));
    pc.run(2000);
    let mut fields: Vec<(u8, PieceCode)> = pc
        .field_updates()
        .iter()
        .map(|(_, fl, c)| (*fl, *c))
        .collect();
    fields.sort_by_key(|(fl, _)| *fl);
    assert_eq!(
        fields,
        vec![
            (f(Square::D3), PieceCode(1)),
            (f(Square::D2), PieceCode::EMPTY),
            (f(Square::E2), PieceCode::EMPTY)
        ]
    );
}

#[test]
fn delay_is_not_counted() {
    let cfg = EmulatorConfig {
        clock: Some(ClockConfig {
            white_side: ClockSide::Right,
            base_ms: 60_000,
            increment_ms: 0,
            delay_ms: 5000,
            ..ClockConfig::default()
        }),
        ..EmulatorConfig::default()
    };
    let mut pc = Pc::started(cfg, 11);
    pc.act(1000, A::PressClock { by: Color::Black });
    pc.run(4000);
    assert_eq!(
        pc.emu.clock_remaining_ms(Color::White),
        Some(60_000),
        "within the delay"
    );
    pc.run(8000);
    assert_eq!(pc.emu.clock_remaining_ms(Color::White), Some(58_000));
    // White's time runs on the right-hand side of this clock.
    assert_eq!(
        pc.clocks().last().unwrap().1.running,
        Some(ClockSide::Right)
    );
    assert_eq!(pc.emu.clock_remaining_ms(Color::Black), Some(60_000));
}
