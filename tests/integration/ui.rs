//! The TD console and the projector, driven frame by frame with egui_kittest (no GPU, no
//! window): two virtual boards on simulated serial links (the production decoder and link
//! code, in simulated time), the arbiter, and the whole app on top.

#![allow(clippy::unwrap_used)] // tests may unwrap

use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::common::view_sans;
use egui::accesskit::Role as A11y;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use shakmaty::{Color, Piece, Role, Square};
use tandem::arbiter::spectator::SpectatorView;
use tandem::arbiter::view::MatchView;
use tandem::arbiter::{AlertKind, Arbiter, ArbiterConfig, Input, TdAction};
use tandem::device::capture::{CaptureChunk, CaptureWriter};
use tandem::notation::{BpgnHeader, write_bpgn};
use tandem::rules::RulesPreset;
use tandem::sim::emulator::{EmulatorConfig, PhysicalAction};
use tandem::sim::table::SimTable;
use tandem::station::Views;
use tandem::ui::{MatchSource, Options, TandemApp};
use tandem::{BoardId, Millis};

/// A match on simulated boards: the test moves the pieces and the time.
struct Sim {
    arb: Arbiter,
    table: SimTable,
    now: Millis,
    /// The station's views: the TD's latest, the hall's history for the delay.
    views: Views,
    /// The bytes the boards sent, as a capture file holds them.
    chunks: Vec<CaptureChunk>,
}

#[derive(Clone)]
struct SimMatch(Rc<RefCell<Sim>>, Rc<RulesPreset>);

impl SimMatch {
    fn new(rules: &str) -> SimMatch {
        let rules = RulesPreset::built_in(rules);
        let mut cfg = ArbiterConfig::new(rules.clone());
        cfg.players = ["Ada", "Boris", "Chen", "Dana"].map(str::to_owned);
        let b = EmulatorConfig {
            serial: "10002".into(),
            ..EmulatorConfig::default()
        };
        let a = EmulatorConfig {
            serial: "10001".into(),
            ..EmulatorConfig::default()
        };
        let arb = Arbiter::new(cfg);
        let views = Views::new(arb.view());
        let sim = SimMatch(
            Rc::new(RefCell::new(Sim {
                arb,
                table: SimTable::new(&[a, b], 3),
                now: 0,
                views,
                chunks: Vec::new(),
            })),
            Rc::new(rules),
        );
        // The links come up and dump the start position.
        sim.advance(1500);
        sim
    }

    /// Lets simulated time pass: everything the boards report goes to the arbiter.
    fn advance(&self, ms: Millis) {
        let mut s = self.0.borrow_mut();
        let until = s.now + ms;
        let outputs = s.table.run_until(until);
        for o in outputs {
            if let Some(ev) = o.event() {
                s.arb.handle(&Input::Board(ev.clone()));
            }
            if let Some(c) = o.chunk() {
                s.chunks.push(c.clone());
            }
        }
        s.now = until;
        s.arb.handle(&Input::Tick { t_ms: until });
        let view = s.arb.view();
        s.views.publish(view);
    }

    fn act(&self, board: BoardId, action: PhysicalAction) {
        let mut s = self.0.borrow_mut();
        let now = s.now;
        s.table.schedule(board, &[(now, action)]);
    }

    /// Physical actions on `board`, each followed by its wait (ms).
    fn act_in_turn(
        &self,
        board: BoardId,
        steps: impl IntoIterator<Item = (PhysicalAction, Millis)>,
    ) {
        for (action, wait) in steps {
            self.act(board, action);
            self.advance(wait);
        }
    }

    /// A player moves a piece (taking what stands on the target) and presses the clock.
    fn play(&self, board: BoardId, from: Square, to: Square) {
        self.play_as(board, from, to, None);
    }

    /// Like `play`, putting `placed` on the target (a pawn that promotes stays a pawn).
    fn play_as(&self, board: BoardId, from: Square, to: Square, placed: Option<Piece>) {
        let piece = {
            let s = self.0.borrow();
            s.table.physical(board, from).unwrap().piece()
        };
        self.act(board, PhysicalAction::Lift { square: from });
        self.advance(200);
        if self.0.borrow().table.physical(board, to).is_some() {
            self.act(board, PhysicalAction::Lift { square: to });
            self.advance(200);
        }
        self.act(
            board,
            PhysicalAction::Place {
                square: to,
                piece: placed.unwrap_or(piece),
            },
        );
        self.advance(400);
        self.act(board, PhysicalAction::PressClock { by: piece.color });
        self.advance(2500);
    }

    /// Black starts White's clock, as in every bughouse game.
    fn start(&self, board: BoardId) {
        self.act(board, PhysicalAction::PressClock { by: Color::Black });
        self.advance(1500);
    }

    fn view(&self) -> Arc<MatchView> {
        self.0.borrow().views.latest()
    }
}

impl MatchSource for SimMatch {
    fn view(&self) -> Arc<MatchView> {
        SimMatch::view(self)
    }

    fn hall_view(&self, delay_ms: Millis) -> Arc<SpectatorView> {
        let s = self.0.borrow();
        s.views.for_hall(s.now, delay_ms)
    }

    fn td(&self, action: TdAction) {
        let mut s = self.0.borrow_mut();
        let t_ms = s.now;
        s.arb.handle(&Input::Td { t_ms, action });
        let view = s.arb.view();
        s.views.publish(view);
    }

    fn now_ms(&self) -> Millis {
        self.0.borrow().now
    }

    fn problem(&self) -> Option<String> {
        None
    }

    fn dir(&self) -> Option<&Path> {
        None
    }

    fn rules(&self) -> &RulesPreset {
        &self.1
    }

    fn event(&self) -> &str {
        "Test match"
    }

    fn bpgn(&self) -> String {
        let s = self.0.borrow();
        write_bpgn(s.arb.game(), &BpgnHeader::default())
    }

    fn stop(self: Box<Self>, _close: bool) {}
}

fn harness(sim: &SimMatch) -> Harness<'static, TandemApp> {
    harness_with(sim, true)
}

/// The app on the simulated match; the projector (an embedded window in tests, over the
/// console's top left corner) only when asked.
fn harness_with(sim: &SimMatch, projector: bool) -> Harness<'static, TandemApp> {
    harness_opts(
        sim,
        Options {
            projector,
            ..Options::default()
        },
    )
}

fn harness_opts(sim: &SimMatch, opts: Options) -> Harness<'static, TandemApp> {
    let source = sim.clone();
    Harness::builder()
        .with_size([1700.0, 1100.0])
        .build_eframe(move |cc| TandemApp::with_source(&cc.egui_ctx, Box::new(source), opts))
}

fn projector<'h>(h: &'h Harness<'static, TandemApp>) -> egui_kittest::Node<'h> {
    h.get_by_role_and_label(A11y::Window, "Tandem — projector")
}

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

#[test]
fn a_move_on_the_board_shows_in_the_console_and_on_the_projector() {
    let sim = SimMatch::new("uscf-bughouse");
    let mut h = harness(&sim);
    h.run();
    sim.start(BoardId::A);
    sim.play(BoardId::A, sq("e2"), sq("e4"));
    h.run();
    assert_eq!(sim.view().record.len(), 1, "{:?}", sim.view().record);
    // The console's move list, and the projector's last moves.
    h.get_by_label("e4");
    projector(&h).get_by_label("Board A  ·  1. e4");
    // Names and clocks on both.
    assert!(h.query_all_by_label("Ada").count() >= 2);
    assert_eq!(
        h.query_all_by_label("OK: board matches the record").count(),
        2
    );
}

#[test]
fn an_illegal_move_is_hidden_from_the_hall_until_the_td_rules() {
    let sim = SimMatch::new("uscf-bughouse");
    let mut h = harness(&sim);
    sim.start(BoardId::A);
    // A knight jumps straight ahead: not a knight's move.
    sim.play(BoardId::A, sq("g1"), sq("g3"));
    h.run();
    let v = sim.view();
    assert!(
        v.open_alerts().any(|a| a.kind == AlertKind::IllegalMove),
        "{:?}",
        v.alerts
    );
    let long = v.record[0].san.clone();
    assert_eq!(long, "Ng1g3");
    // The TD sees it, with the resolutions that fit.
    h.get_by_label("Ng1g3");
    h.get_by_label("Illegal move · Board A");
    h.get_by_role_and_label(A11y::Button, "Let it stand");
    // The hall sees an ordinary-looking move, nothing more.
    let p = projector(&h);
    p.get_by_label("Board A  ·  1. Ng3");
    assert!(p.query_by_label_contains("g1g3").is_none());
    assert!(p.query_by_label_contains("llegal").is_none());
    // The opponent claims it: under US Chess rules the offender loses.
    h.get_by_role_and_label(A11y::Button, "Claimed: Ada loses the game")
        .click();
    h.run();
    let v = sim.view();
    assert!(v.open_alerts().all(|a| a.kind != AlertKind::IllegalMove));
    let result = v.result.clone().unwrap();
    assert_eq!(result.token, "0-1");
    // Now that the TD has ruled, the projector names the game's end.
    let p = projector(&h);
    p.get_by_label_contains("Boris & Chen win");
    p.get_by_label("Board A  ·  1. Ng1g3");
}

#[test]
fn let_it_stand_resolves_the_alert() {
    let sim = SimMatch::new("uscf-bughouse");
    let mut h = harness(&sim);
    sim.start(BoardId::A);
    sim.play(BoardId::A, sq("g1"), sq("g3"));
    h.run();
    h.get_by_role_and_label(A11y::Button, "Let it stand")
        .click();
    h.run();
    let v = sim.view();
    assert!(v.open_alerts().next().is_none(), "{:?}", v.alerts);
    assert!(v.result.is_none());
    assert!(
        h.query_by_role_and_label(A11y::Button, "Let it stand")
            .is_none()
    );
    h.get_by_label("Alerts (0 open)");
    // Ruled on: the projector may spell it as played.
    projector(&h).get_by_label("Board A  ·  1. Ng1g3");
}

#[test]
fn a_promoted_pawn_is_confirmed_by_the_td() {
    let sim = SimMatch::new("uscf-bughouse");
    let mut h = harness(&sim);
    sim.start(BoardId::A);
    let a = BoardId::A;
    // 1. a4 b5 2. axb5 a6 3. bxa6 Bb7 4. axb7 Nc6 5. bxa8, the pawn left standing.
    for (from, to) in [
        ("a2", "a4"),
        ("b7", "b5"),
        ("a4", "b5"),
        ("a7", "a6"),
        ("b5", "a6"),
        ("c8", "b7"),
        ("a6", "b7"),
        ("b8", "c6"),
    ] {
        sim.play(a, sq(from), sq(to));
    }
    let pawn = Piece {
        color: Color::White,
        role: Role::Pawn,
    };
    sim.play_as(a, sq("b7"), sq("a8"), Some(pawn));
    h.run();
    let v = sim.view();
    assert_eq!(v.record.len(), 9, "{:?}", v.record);
    assert!(
        v.open_alerts().any(|a| a.kind == AlertKind::Promotion),
        "{:?}",
        v.alerts
    );
    h.get_by_label("Promoted pawn · Board A");
    // The player says "knight": one click.
    h.get_by_role_and_label(A11y::Button, "Knight").click();
    h.run();
    let v = sim.view();
    assert!(v.open_alerts().all(|a| a.kind != AlertKind::Promotion));
    let last = v.record.last().unwrap();
    assert_eq!(last.san, "bxa8=N");
    let board = v.board(a).unwrap();
    let knight = board.pieces[Square::A8.to_usize()].unwrap();
    assert_eq!(knight.piece.role, Role::Knight);
    assert!(knight.promoted, "a promoted pawn stays marked");
    h.get_by_label("bxa8=N");
    projector(&h).get_by_label_contains("bxa8=N");
}

#[test]
fn a_pawn_step_the_board_never_showed_is_put_right_by_the_td() {
    let sim = SimMatch::new("uscf-bughouse");
    let mut h = harness(&sim);
    sim.start(BoardId::A);
    let a = BoardId::A;
    for (from, to) in [("a2", "a3"), ("f7", "f5"), ("a3", "a4"), ("f5", "f4")] {
        sim.play(a, sq(from), sq(to));
    }
    // g2-g4 and the lever, and Black's f4 pawn takes it en passant before the scan
    // passes g4: the board shows g2 and f4 emptied and a black pawn on g3.
    let pawn = |color| Piece {
        color,
        role: Role::Pawn,
    };
    let steps = [
        (PhysicalAction::Lift { square: sq("g2") }, 100),
        (
            PhysicalAction::Place {
                square: sq("g4"),
                piece: pawn(Color::White),
            },
            40,
        ),
        (PhysicalAction::PressClock { by: Color::White }, 20),
        (PhysicalAction::Lift { square: sq("g4") }, 60),
        (PhysicalAction::Lift { square: sq("f4") }, 100),
        (
            PhysicalAction::Place {
                square: sq("g3"),
                piece: pawn(Color::Black),
            },
            250,
        ),
        (PhysicalAction::PressClock { by: Color::Black }, 2500),
    ];
    sim.act_in_turn(a, steps);
    h.run();
    let v = sim.view();
    let sans: Vec<&str> = v.record.iter().map(|p| p.san.as_str()).collect();
    assert_eq!(
        sans,
        ["a3", "f5", "a4", "f4", "g3", "fxg3"],
        "{:?}",
        v.alerts
    );
    assert!(
        v.open_alerts().any(|a| a.kind == AlertKind::UnseenMove),
        "{:?}",
        v.alerts
    );
    h.get_by_label("Move not seen · Board A");
    // The players say two steps: one click.
    h.get_by_role_and_label(A11y::Button, "to g4").click();
    h.run();
    let v = sim.view();
    assert!(v.open_alerts().all(|a| a.kind != AlertKind::UnseenMove));
    let sans: Vec<&str> = v.record.iter().map(|p| p.san.as_str()).collect();
    assert_eq!(sans, ["a3", "f5", "a4", "f4", "g4", "fxg3"]);
    h.get_by_label("g4");
}

#[test]
fn of_two_lying_queens_the_td_clicks_the_one_that_went() {
    let sim = SimMatch::new("uscf-bughouse");
    let mut h = harness(&sim);
    sim.start(BoardId::A);
    let a = BoardId::A;
    let white_pawn = Piece {
        color: Color::White,
        role: Role::Pawn,
    };
    // A pawn takes on `to`, is laid on its side there and pressed; the TD hears "queen".
    let promote_lying = |h: &mut Harness<'static, TandemApp>, from: &str, to: &str| {
        sim.act_in_turn(
            a,
            [
                (PhysicalAction::Lift { square: sq(from) }, 200),
                (PhysicalAction::Lift { square: sq(to) }, 200),
                (
                    PhysicalAction::Place {
                        square: sq(to),
                        piece: white_pawn,
                    },
                    0,
                ),
                (PhysicalAction::LayDown { square: sq(to) }, 300),
                (PhysicalAction::PressClock { by: Color::White }, 2500),
            ],
        );
        h.run();
        h.get_by_role_and_label(A11y::Button, "Queen").click();
        h.run();
    };
    for (from, to) in [
        ("h2", "h4"),
        ("g7", "g5"),
        ("h4", "g5"),
        ("a7", "a6"),
        ("g5", "g6"),
        ("a6", "a5"),
        ("g6", "h7"),
        ("a5", "a4"),
    ] {
        sim.play(a, sq(from), sq(to));
    }
    promote_lying(&mut h, "h7", "g8");
    for (from, to) in [
        ("b7", "b6"),
        ("g2", "g4"),
        ("b6", "b5"),
        ("g4", "g5"),
        ("b5", "b4"),
        ("g5", "g6"),
        ("c7", "c6"),
        ("g6", "g7"),
        ("c6", "c5"),
    ] {
        sim.play(a, sq(from), sq(to));
    }
    promote_lying(&mut h, "g7", "h8");
    sim.play(a, sq("d7"), sq("d6"));
    // The h8 queen goes to g7 unseen (set down on its side at once), pressed.
    sim.act_in_turn(
        a,
        [
            (PhysicalAction::Lift { square: sq("h8") }, 300),
            (
                PhysicalAction::Place {
                    square: sq("g7"),
                    piece: white_pawn,
                },
                0,
            ),
            (PhysicalAction::LayDown { square: sq("g7") }, 100),
            (PhysicalAction::PressClock { by: Color::White }, 2500),
        ],
    );
    h.run();
    let v = sim.view();
    assert!(
        v.open_alerts().any(|a| a.kind == AlertKind::Promotion),
        "{:?}",
        v.alerts
    );
    // Both queens reach g7: each button names the queen's square.
    h.get_by_role_and_label(A11y::Button, "g8 to g7");
    h.get_by_role_and_label(A11y::Button, "h8 to g7").click();
    h.run();
    let v = sim.view();
    assert!(v.open_alerts().all(|a| a.kind != AlertKind::Promotion));
    assert_eq!(v.record.last().map(|p| p.san.as_str()), Some("Qhg7"));
}

#[test]
fn a_drop_taken_at_once_is_named_by_the_td() {
    // A knight dropped on d4 and taken at once by the e3 pawn, faster than the scan passes
    // d4: the board shows only the pawn's capture. Tried at successive moments of the scan
    // until the knight goes unseen (the simulation is deterministic: the same each run).
    let mut found = false;
    for offset in 0..20 {
        let sim = SimMatch::new("uscf-bughouse");
        let mut h = harness(&sim);
        sim.start(BoardId::A);
        sim.start(BoardId::B);
        // Board B: 1. e4 d5 2. exd5 Nc6 3. dxc6: White on B took a pawn and a knight, so
        // Black on board A (the partner) holds both.
        let b = BoardId::B;
        for (from, to) in [
            ("e2", "e4"),
            ("d7", "d5"),
            ("e4", "d5"),
            ("b8", "c6"),
            ("d5", "c6"),
        ] {
            sim.play(b, sq(from), sq(to));
        }
        let a = BoardId::A;
        sim.play(a, sq("e2"), sq("e3"));
        sim.advance(offset * 13);
        let steps = [
            (
                PhysicalAction::Place {
                    square: sq("d4"),
                    piece: Piece {
                        color: Color::Black,
                        role: Role::Knight,
                    },
                },
                40,
            ),
            (PhysicalAction::PressClock { by: Color::Black }, 60),
            (PhysicalAction::Lift { square: sq("d4") }, 150),
            (PhysicalAction::Lift { square: sq("e3") }, 200),
            (
                PhysicalAction::Place {
                    square: sq("d4"),
                    piece: Piece {
                        color: Color::White,
                        role: Role::Pawn,
                    },
                },
                250,
            ),
            (PhysicalAction::PressClock { by: Color::White }, 3000),
        ];
        sim.act_in_turn(a, steps);
        // Black's next move: read with it, the three presses are the drop, its capture and
        // this move.
        sim.play(a, sq("a7"), sq("a6"));
        h.run();
        let v = sim.view();
        if !v.open_alerts().any(|a| a.kind == AlertKind::UnseenMove) {
            continue;
        }
        found = true;
        let on_a = |v: &MatchView| view_sans(v, a);
        assert_eq!(on_a(&v), ["e3", "P@d4", "exd4", "a6"], "{:?}", v.alerts);
        h.get_by_label("Move not seen · Board A");
        h.get_by_label_contains("which piece was dropped, a pawn or a knight?");
        // The players say a knight: one click.
        h.get_by_role_and_label(A11y::Button, "Knight").click();
        h.run();
        let v = sim.view();
        assert!(v.open_alerts().all(|a| a.kind != AlertKind::UnseenMove));
        assert_eq!(on_a(&v), ["e3", "N@d4", "exd4", "a6"]);
        h.get_by_label("N@d4");
        // The knight dropped is no longer in Black's hand; the pawn is.
        let black = &v.board(a).unwrap().black_reserve;
        assert_eq!((black.get(Role::Knight), black.get(Role::Pawn)), (0, 1));
        break;
    }
    assert!(found, "the knight never went unseen");
}

#[test]
fn a_move_the_board_cannot_tell_from_a_drop_is_chosen_by_the_td() {
    // Board B: 1. Nc3 d5 2. Nxd5 Qxd5 (White on A holds the knight); board A: 1. Nh3 d6,
    // then White drops a knight on f4 and Black's bishop takes the one on h3 at once. At
    // some moments of the scan the board cannot tell this from 2. Nf4 Bh3: the console
    // asks, and one click settles it.
    let mut found = false;
    for offset in 0..16 {
        let sim = SimMatch::new("uscf-bughouse");
        let mut h = harness(&sim);
        sim.start(BoardId::A);
        sim.start(BoardId::B);
        let b = BoardId::B;
        for (from, to) in [("b1", "c3"), ("d7", "d5"), ("c3", "d5"), ("d8", "d5")] {
            sim.play(b, sq(from), sq(to));
        }
        let a = BoardId::A;
        sim.play(a, sq("g1"), sq("h3"));
        sim.play(a, sq("d7"), sq("d6"));
        sim.advance(offset * 31);
        let piece = |color, role| Piece { color, role };
        let steps = [
            (
                PhysicalAction::Place {
                    square: sq("f4"),
                    piece: piece(Color::White, Role::Knight),
                },
                40,
            ),
            (PhysicalAction::PressClock { by: Color::White }, 150),
            (PhysicalAction::Lift { square: sq("h3") }, 150),
            (PhysicalAction::Lift { square: sq("c8") }, 200),
            (
                PhysicalAction::Place {
                    square: sq("h3"),
                    piece: piece(Color::Black, Role::Bishop),
                },
                300,
            ),
            (PhysicalAction::PressClock { by: Color::Black }, 3000),
        ];
        sim.act_in_turn(a, steps);
        h.run();
        let v = sim.view();
        if !v.open_alerts().any(|a| a.kind == AlertKind::UnseenMove) {
            continue;
        }
        found = true;
        let on_a = |v: &MatchView| view_sans(v, a);
        assert_eq!(on_a(&v), ["Nh3", "d6", "Nf4", "Bh3"], "{:?}", v.alerts);
        h.get_by_label("Move not seen · Board A");
        h.get_by_label_contains("the board cannot tell Nf4 Bh3 from N@f4 Bxh3");
        // The players say the knight was dropped: one click.
        h.get_by_role_and_label(A11y::Button, "N@f4 Bxh3").click();
        h.run();
        let v = sim.view();
        assert!(v.open_alerts().all(|a| a.kind != AlertKind::UnseenMove));
        assert_eq!(on_a(&v), ["Nh3", "d6", "N@f4", "Bxh3"]);
        // The knight is spent from White's hand, and Black's partner holds the one taken.
        assert_eq!(v.board(a).unwrap().white_reserve.get(Role::Knight), 0);
        assert_eq!(v.board(b).unwrap().white_reserve.get(Role::Knight), 1);
        break;
    }
    assert!(found, "the board always told the drop");
}

#[test]
fn an_unplugged_board_is_loud_and_its_return_is_noticed() {
    let sim = SimMatch::new("uscf-bughouse");
    let mut h = harness(&sim);
    h.run();
    h.get_by_label("Board B");
    {
        let mut s = sim.0.borrow_mut();
        let now = s.now;
        s.table.board_mut(BoardId::B).unwrap().unplug(now);
    }
    sim.advance(500);
    h.run();
    assert!(!sim.view().board(BoardId::B).unwrap().link.connected);
    h.get_by_label_contains("BOARD B NOT CONNECTED");
    h.get_by_label("NOT CONNECTED");
    // The projector is not the place for it.
    assert!(
        projector(&h)
            .query_by_label_contains("NOT CONNECTED")
            .is_none()
    );
    {
        let mut s = sim.0.borrow_mut();
        let now = s.now;
        s.table.board_mut(BoardId::B).unwrap().replug(now);
    }
    sim.advance(3000);
    h.run();
    assert!(sim.view().board(BoardId::B).unwrap().link.connected);
    assert!(h.query_by_label_contains("BOARD B NOT CONNECTED").is_none());
    h.get_by_label_contains("Board B is back");
}

#[test]
fn a_result_is_declared_with_a_confirmation() {
    let sim = SimMatch::new("uscf-bughouse");
    let mut h = harness(&sim);
    sim.start(BoardId::B);
    sim.play(BoardId::B, sq("d2"), sq("d4"));
    h.run();
    h.get_by_role_and_label(A11y::Button, "Chen resigns")
        .click();
    h.run();
    assert!(sim.view().result.is_none(), "not before the TD confirms");
    h.get_by_role_and_label(A11y::Button, "Confirm").click();
    h.run();
    let r = sim.view().result.clone().unwrap();
    assert_eq!(r.token, "1-0");
    projector(&h).get_by_label_contains("Ada & Dana win");
    projector(&h).get_by_label("1 : 0");
}

#[test]
fn penalties_follow_the_ladder_of_the_texts() {
    let sim = SimMatch::new("uscf-bughouse");
    let mut h = harness(&sim);
    h.run();
    h.get_by_role_and_label(A11y::Button, "Penalties").click();
    h.run();
    // US Chess bughouse: knocking pieces over, then pressing: warning, then a minute
    // to the opponent, then the game.
    h.get_by_role_and_label(
        A11y::Button,
        "Knocked pieces, then pressed: Warning to Boris",
    )
    .click();
    h.run();
    h.get_by_role_and_label(
        A11y::Button,
        "Knocked pieces, then pressed: +1 min to Ada's clock",
    )
    .click();
    h.run();
    // The arbiter does not set the clock: the console tells the TD to.
    h.get_by_label_contains("Set 1 min more on Ada's clock");
    h.get_by_role_and_label(A11y::Button, "Knocked pieces, then pressed: Boris forfeits");
    // Knocking the clock over: a minute to the opponent, every time.
    h.get_by_role_and_label(
        A11y::Button,
        "Knocked the clock over: +1 min to Chen's clock",
    );
    assert_eq!(sim.view().penalties.len(), 2);
}

#[test]
fn a_capture_opens_in_a_read_only_replay() {
    let sim = SimMatch::new("uscf-bughouse");
    sim.start(BoardId::A);
    sim.play(BoardId::A, sq("e2"), sq("e4"));
    sim.play(BoardId::A, sq("e7"), sq("e5"));
    let path =
        std::env::temp_dir().join(format!("tandem-ui-replay-{}.capture", std::process::id()));
    {
        let mut w = CaptureWriter::create(&path).unwrap();
        for c in &sim.0.borrow().chunks {
            w.write_chunk(c.t_ms, c.board, &c.bytes).unwrap();
        }
        w.flush().unwrap();
    }
    let mut h = harness_with(&sim, false);
    h.run();
    h.get_by_role_and_label(A11y::Button, "Export").click();
    h.run();
    let field = h.get_by_label("File:");
    field.focus();
    field.type_text(&path.display().to_string());
    h.run();
    h.get_by_role_and_label(A11y::Button, "Open replay").click();
    // The recording is opened off the UI thread (a progress bar shows meanwhile).
    let opened = Instant::now();
    while h.query_by_label_contains("REPLAY (read-only)").is_none()
        && opened.elapsed() < Duration::from_secs(20)
    {
        std::thread::sleep(Duration::from_millis(20));
        h.step();
    }
    h.run();
    h.get_by_label_contains("REPLAY (read-only)");
    h.get_by_label("1. e4  1… e5");
    // Read-only: no resolution buttons, no move correction.
    assert!(h.query_by_role_and_label(A11y::Button, "Correct").is_none());
    h.get_by_role_and_label(A11y::Button, "Close replay")
        .click();
    h.run();
    h.get_by_label_contains("open)");
    assert!(h.query_by_label_contains("REPLAY").is_none());
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_fallen_flag_is_for_the_td_not_for_the_hall() {
    let sim = SimMatch::new("uscf-bughouse");
    // Three seconds each on board A.
    sim.act(
        BoardId::A,
        PhysicalAction::SetClock {
            white_ms: 3000,
            black_ms: 3000,
        },
    );
    sim.advance(1000);
    sim.start(BoardId::A);
    sim.advance(4000);
    let mut h = harness(&sim);
    h.run();
    let v = sim.view();
    assert!(
        v.open_alerts().any(|a| a.kind == AlertKind::Flag),
        "{:?}",
        v.alerts
    );
    h.get_by_label("Flag fell · Board A");
    h.get_by_label("0:00 FLAG");
    // The projector shows the clock as it reads, and nothing else.
    let p = projector(&h);
    assert!(p.query_by_label_contains("FLAG").is_none());
    assert!(p.query_by_label_contains("lag").is_none());
    p.get_by_label("0:00");
    h.get_by_role_and_label(A11y::Button, "Flag claimed against Ada")
        .click();
    h.run();
    let r = sim.view().result.clone().unwrap();
    assert_eq!(r.winner, Some(tandem::rules::Team::BlackA));
    projector(&h).get_by_label_contains("Ada forfeits on time");
}

#[test]
fn the_projector_runs_behind_by_the_broadcast_delay() {
    let sim = SimMatch::new("uscf-bughouse");
    let mut h = harness_opts(
        &sim,
        Options {
            projector: true,
            delay_s: 20,
            ..Options::default()
        },
    );
    sim.start(BoardId::B);
    sim.play(BoardId::B, sq("c2"), sq("c4"));
    h.run();
    // The TD sees the move at once; the hall twenty seconds later.
    h.get_by_label("c4");
    projector(&h).get_by_label_contains("20 s broadcast delay");
    assert!(projector(&h).query_by_label_contains("1. c4").is_none());
    sim.advance(21_000);
    h.run();
    projector(&h).get_by_label("Board B  ·  1. c4");
}

#[test]
fn a_correction_that_cannot_be_played_is_refused_aloud() {
    let sim = SimMatch::new("uscf-bughouse");
    let mut h = harness_with(&sim, false);
    h.run();
    sim.start(BoardId::A);
    sim.play(BoardId::A, sq("e2"), sq("e4"));
    h.run();
    // The TD picks the move and types a move White could not have played.
    h.get_by_role_and_label(A11y::Button, "e4").click();
    h.run();
    h.get_by_label("correct to").focus();
    h.run();
    h.get_by_label("correct to").type_text("Qh5");
    h.run();
    h.get_by_role_and_label(A11y::Button, "Correct").click();
    h.run();
    h.get_by_label_contains("Not done: Qh5 on board A");
    assert_eq!(sim.view().record[0].san, "e4");
    // The move stays picked: a move that fits is taken, and the complaint goes.
    h.get_by_label("correct to").focus();
    h.run();
    h.get_by_label("correct to").type_text("e3");
    h.run();
    h.get_by_role_and_label(A11y::Button, "Correct").click();
    h.run();
    assert_eq!(sim.view().record[0].san, "e3");
    assert!(h.query_by_label_contains("Not done").is_none());
}

#[test]
fn the_pause_key_stops_both_clocks_and_the_projector_says_paused() {
    let sim = SimMatch::new("uscf-bughouse");
    let mut h = harness(&sim);
    h.run();
    sim.start(BoardId::A);
    h.run();
    // F9 (a function key: it types nothing into a move being entered).
    h.key_press(egui::Key::F9);
    h.run();
    assert!(sim.view().clocks.paused.is_some(), "F9 paused play");
    h.get_by_label_contains("PLAY STOPPED on both boards");
    projector(&h).get_by_label("PAUSED — both clocks stopped");
    // The DGT clocks here are read only: the TD is told to stop them by hand.
    h.get_by_role_and_label(A11y::Button, "Clocks").click();
    h.run();
    assert_eq!(
        h.query_all_by_label_contains("read only: stop it by hand")
            .count(),
        2,
        "a note for each board"
    );
    // One click resumes both.
    h.get_by_role_and_label(A11y::Button, "Resume both (F9)")
        .click();
    h.run();
    assert!(sim.view().clocks.paused.is_none());
    assert!(
        projector(&h)
            .query_by_label("PAUSED — both clocks stopped")
            .is_none()
    );
}
