//! A promoted pawn standing in for a piece: the record holds a queen until the player says
//! which piece it is (the TD is asked once). Nothing else may be alarmed on the strength
//! of that guess: not a reply that is legal against the piece the pawn really is.

#![allow(clippy::unwrap_used)]

use crate::common::scene::{Scene, k};
use shakmaty::Color::{Black, White};
use shakmaty::Role;
use tandem::BoardId::A;
use tandem::arbiter::AlertKind::{IllegalMove, Promotion};
use tandem::arbiter::{PlyRef, TdAction};
use tandem::sim::emulator::EmulatorConfig;

/// Board A: White's h-pawn on h7 (1.h4 g5 2.hxg5 a6 3.g6 a5 4.gxh7 a4), a capture on g8
/// away from promoting; a lying pawn never reads as a pawn on board A (what the board
/// shows comes from the hands alone).
fn pawn_on_the_seventh() -> Scene {
    let mut s = Scene::with(
        "uscf-bughouse",
        EmulatorConfig {
            lying_pawn_flicker: 0.0,
            ..EmulatorConfig::default()
        },
        EmulatorConfig {
            serial: "22222".into(),
            ..EmulatorConfig::default()
        },
    );
    s.pawn_on_the_seventh();
    s
}

const PROMOTION: PlyRef = PlyRef {
    board: A,
    color: White,
    number: 5,
};

/// White takes on g8 and promotes to a knight, laying the pawn on its side; Black
/// answers Bf8-g7, legal against a knight but not against the queen the record guesses
/// (a queen on g8 would check the king on e8 once the bishop left f8). The TD comes to
/// the table and names the piece only after the reply was recorded: `role`.
fn knight_on_g8_then_bishop_g7(role: Role) -> (Scene, crate::common::scene::Played) {
    let mut s = pawn_on_the_seventh();
    s.lift(A, "h7")
        .wait(300)
        .lift(A, "g8")
        .wait(300)
        .place(A, "g8", 'P')
        .lay_down(A, "g8")
        .wait(300)
        .press(A, White)
        .wait(1500);
    s.mv(A, "f8", "g7", 'b');
    s.wait(1500).td(TdAction::SetPromotion {
        ply: PROMOTION,
        role,
    });
    let p = s.run(3000);
    (s, p)
}

#[test]
fn a_reply_legal_against_the_piece_the_player_names_is_no_illegal_move() {
    let (_, p) = knight_on_g8_then_bishop_g7(Role::Knight);
    // The situation: the reply was recorded while the question stood open (the TD named
    // the piece well after Black's press), against a queen on g8 it is illegal.
    let reply = p
        .arb
        .game()
        .record()
        .iter()
        .find(|q| q.board == A && q.color == Black && q.number == 5)
        .cloned()
        .unwrap();
    let question = p.raised.iter().find(|a| a.kind == Promotion).unwrap();
    assert!(
        reply.meta.t_ms.unwrap() > question.t_ms,
        "the reply came after the question\n{}",
        p.dump()
    );
    assert_eq!(p.sans(A)[8..], ["hxg8=N", "Bg7"], "{}", p.dump());
    assert!(p.arb.game().record().iter().all(|q| q.legality.is_legal()));
    assert_eq!(p.alerts(), [k(Promotion, Some("g8"))], "{}", p.dump());
    assert_eq!(p.open(Promotion), 0);
}

#[test]
fn a_reply_illegal_against_the_piece_the_player_names_is_told_when_named() {
    // The same, the player saying "queen": Bg7 leaves the king in check, told as soon as
    // the TD has the answer (it was held only while the piece was unknown).
    let (_, p) = knight_on_g8_then_bishop_g7(Role::Queen);
    assert_eq!(p.sans(A)[8..], ["hxg8=Q", "Bf8g7"], "{}", p.dump());
    assert_eq!(
        p.alerts(),
        [k(Promotion, Some("g8")), k(IllegalMove, Some("g7"))],
        "{}",
        p.dump()
    );
    let told = p.raised.iter().find(|a| a.kind == IllegalMove).unwrap();
    let asked = p.raised.iter().find(|a| a.kind == Promotion).unwrap();
    assert!(told.t_ms > asked.t_ms + 1500, "{}", p.dump());
}
