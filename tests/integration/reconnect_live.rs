//! A board unplugged mid-game and plugged back on another port, in real time through the
//! production serial workers: moves made while it was away come back from the fresh dump,
//! nothing committed is lost or counted twice; too much change while away is a desync that
//! the TD resolves by entering the moves the players made.

#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use crate::common::view_sans as sans;
use shakmaty::{Color, Piece, Role, Square};
use tandem::BoardId;
use tandem::arbiter::view::MatchView;
use tandem::arbiter::{AlertKind, AlertState, ArbiterConfig, TdAction};
use tandem::rules::RulesPreset;
use tandem::sim::emulator::PhysicalAction as A;
use tandem::sim::virtual_board::VirtualBoardHandle;
use tandem::station::Session;
use tandem::station::demo::DemoBoards;

use crate::common::live::{demo_session, header, temp_dir};

fn start(name: &str) -> (DemoBoards, Session) {
    let config = ArbiterConfig::new(RulesPreset::built_in("uscf-bughouse"));
    let (boards, session) = demo_session(&temp_dir(name), 3, header(config, "test"));
    for b in BoardId::BOTH {
        boards.handle(b).unwrap().act(A::SetUpStart);
    }
    wait_until(
        &session,
        "both boards connected at the start position",
        |v| v.boards.iter().all(|b| b.link.connected && b.started),
    );
    (boards, session)
}

fn wait_until(session: &Session, what: &str, ok: impl Fn(&MatchView) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let v = session.view();
        if ok(&v) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting: {what}\n{:#?}",
            v.boards.iter().map(|b| &b.link).collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn open(v: &MatchView, kind: AlertKind) -> usize {
    v.alerts
        .iter()
        .filter(|a| a.kind == kind && a.state == AlertState::Open)
        .count()
}

/// A move by hand: lift, a moment in the air, set down, then the clock.
fn play(h: &VirtualBoardHandle, from: Square, to: Square, role: Role, color: Color) {
    h.act(A::Lift { square: from });
    std::thread::sleep(Duration::from_millis(250));
    h.act(A::Place {
        square: to,
        piece: Piece { color, role },
    });
    std::thread::sleep(Duration::from_millis(300));
    h.act(A::PressClock { by: color });
    std::thread::sleep(Duration::from_millis(400));
}

#[test]
fn moves_made_while_a_board_was_unplugged_come_back_once() {
    let (boards, session) = start("reconnect");
    let a = boards.handle(BoardId::A).unwrap();
    a.act(A::PressClock { by: Color::Black }); // Black starts White's clock
    play(a, Square::E2, Square::E4, Role::Pawn, Color::White);
    wait_until(&session, "e4 committed", |v| sans(v, BoardId::A) == ["e4"]);
    let first_path = a.path();

    a.unplug();
    wait_until(&session, "the loss is seen", |v| {
        !v.boards[0].link.connected && open(v, AlertKind::Disconnected) == 1
    });
    // Black replies while the cable is out: neither the move nor the press reaches Tandem.
    play(a, Square::E7, Square::E5, Role::Pawn, Color::Black);
    let new_path = a.replug().unwrap();
    assert_ne!(new_path, first_path, "the board comes back on another port");
    wait_until(
        &session,
        "reconnected with the reply read from the dump",
        |v| v.boards[0].link.connected && sans(v, BoardId::A) == ["e4", "e5"],
    );
    play(a, Square::G1, Square::F3, Role::Knight, Color::White);
    wait_until(&session, "the game goes on", |v| {
        sans(v, BoardId::A) == ["e4", "e5", "Nf3"]
    });
    // Board B stood still through all this.
    std::thread::sleep(Duration::from_millis(1500));
    let v = session.view();
    assert_eq!(sans(&v, BoardId::A), ["e4", "e5", "Nf3"]);
    assert!(sans(&v, BoardId::B).is_empty());
    assert_eq!(
        open(&v, AlertKind::Disconnected),
        0,
        "cleared on reconnection"
    );
    let kinds: Vec<AlertKind> = v.alerts.iter().map(|a| a.kind).collect();
    assert_eq!(kinds, [AlertKind::Disconnected], "{:?}", v.alerts);
    // The journal agrees with what was seen live.
    let again = session.replayed().unwrap();
    let replayed: Vec<String> = again
        .game()
        .record()
        .iter()
        .map(|p| p.san.clone())
        .collect();
    assert_eq!(replayed, ["e4", "e5", "Nf3"]);
    session.stop(true);
}

#[test]
fn too_much_change_while_unplugged_is_a_desync_the_td_resolves_by_entering_the_moves() {
    let (boards, session) = start("reconnect-desync");
    let a = boards.handle(BoardId::A).unwrap();
    a.act(A::PressClock { by: Color::Black });
    play(a, Square::E2, Square::E4, Role::Pawn, Color::White);
    wait_until(&session, "e4 committed", |v| sans(v, BoardId::A) == ["e4"]);
    a.unplug();
    wait_until(&session, "the loss is seen", |v| {
        !v.boards[0].link.connected
    });
    play(a, Square::E7, Square::E5, Role::Pawn, Color::Black);
    play(a, Square::G1, Square::F3, Role::Knight, Color::White);
    play(a, Square::B8, Square::C6, Role::Knight, Color::Black);
    a.replug().unwrap();
    wait_until(&session, "a desync naming the squares", |v| {
        v.boards[0].link.connected && open(v, AlertKind::Desync) == 1
    });
    let v = session.view();
    let desync = v
        .alerts
        .iter()
        .find(|a| a.kind == AlertKind::Desync)
        .unwrap()
        .clone();
    for sq in ["e7", "e5", "g1", "f3", "b8", "c6"] {
        assert!(desync.detail.contains(sq), "{sq} in {}", desync.detail);
    }
    assert_eq!(sans(&v, BoardId::A), ["e4"], "nothing guessed");
    // The TD asks the players what happened and enters the three moves: the board matches
    // the record again and the desync clears itself.
    for mv in ["e5", "Nf3", "Nc6"] {
        session.td(TdAction::AddMove {
            board: BoardId::A,
            mv: mv.into(),
        });
    }
    wait_until(&session, "the desync resolved", |v| {
        open(v, AlertKind::Desync) == 0 && sans(v, BoardId::A) == ["e4", "e5", "Nf3", "Nc6"]
    });
    session.stop(true);
}
