//! Physical scenarios, one per reality the sensing must absorb and per alert the TD must
//! get: short scripts of lifts, placements, slides, knocks and clock presses on virtual
//! boards (through the production decoder and link), asserting the moves recorded and the
//! exact alerts raised. A false alarm fails a test as surely as a missed move.

#![allow(clippy::unwrap_used)]

use crate::common::scene::{Played, Scene, assert_happened, k, offsets, pc};
use shakmaty::Color::{Black, White};
use tandem::BoardId::{A, B};
use tandem::Millis;
use tandem::arbiter::AlertKind::*;
use tandem::arbiter::{Subject, TdAction};
use tandem::dgt::{ClockSide, Orientation};
use tandem::sim::emulator::{ClockConfig, EmulatorConfig};

fn opening(s: &mut Scene) {
    s.mv(A, "e2", "e4", 'P').mv(A, "e7", "e5", 'p');
}

#[test]
fn plain_moves_and_no_alerts() {
    let mut s = Scene::new("uscf-bughouse");
    opening(&mut s);
    s.mv(A, "g1", "f3", 'N').mv(A, "b8", "c6", 'n');
    let p = s.run(3000);
    assert_eq!(p.sans(A), ["e4", "e5", "Nf3", "Nc6"], "{}", p.dump());
    assert!(p.raised.is_empty(), "{}", p.dump());
}

#[test]
fn slide_through_intermediate_squares() {
    let mut s = Scene::new("uscf-bughouse");
    s.mv(A, "a2", "a4", 'P').mv(A, "h7", "h6", 'p');
    // The rook slides a1-a2-a3 (the scan reports whichever squares it catches).
    s.lift(A, "a1")
        .wait(40)
        .place(A, "a2", 'R')
        .wait(120)
        .lift(A, "a2")
        .wait(10);
    s.place(A, "a3", 'R').wait(400).press(A, White).wait(1500);
    let p = s.run(3000);
    assert_eq!(p.sans(A), ["a4", "h6", "Ra3"], "{}", p.dump());
    assert!(p.raised.is_empty(), "{}", p.dump());
}

#[test]
fn piece_set_down_then_corrected_before_the_press() {
    let mut s = Scene::new("uscf-bughouse");
    s.lift(A, "g1")
        .wait(300)
        .place(A, "f3", 'N')
        .wait(500)
        .lift(A, "f3")
        .wait(200);
    s.place(A, "h3", 'N').wait(300).press(A, White).wait(1500);
    let p = s.run(3000);
    assert_eq!(p.sans(A), ["Nh3"], "{}", p.dump());
    assert!(p.raised.is_empty(), "{}", p.dump());
}

#[test]
fn captures_in_all_three_orders() {
    for order in 0..3 {
        let mut s = Scene::new("uscf-bughouse");
        s.mv(A, "e2", "e4", 'P').mv(A, "d7", "d5", 'p');
        match order {
            0 => s
                .lift(A, "d5")
                .wait(300)
                .lift(A, "e4")
                .wait(300)
                .place(A, "d5", 'P'),
            1 => s
                .lift(A, "e4")
                .wait(300)
                .lift(A, "d5")
                .wait(300)
                .place(A, "d5", 'P'),
            _ => s.lift(A, "e4").wait(300).place(A, "d5", 'P'),
        };
        s.wait(300).press(A, White).wait(1500);
        let p = s.run(3000);
        assert_eq!(
            p.sans(A),
            ["e4", "d5", "exd5"],
            "order {order}\n{}",
            p.dump()
        );
        assert!(p.raised.is_empty(), "order {order}\n{}", p.dump());
        // The captured pawn went to White's partner, Black on B.
        assert_eq!(
            p.arb
                .game()
                .board(B)
                .reserve(Black)
                .get(shakmaty::Role::Pawn),
            1
        );
    }
}

#[test]
fn castling_in_any_order() {
    for order in 0..3 {
        let mut s = Scene::new("uscf-bughouse");
        s.mv(A, "e2", "e4", 'P')
            .mv(A, "e7", "e5", 'p')
            .mv(A, "g1", "f3", 'N')
            .mv(A, "b8", "c6", 'n');
        s.mv(A, "f1", "c4", 'B').mv(A, "g8", "f6", 'n');
        match order {
            0 => s
                .lift(A, "e1")
                .wait(200)
                .place(A, "g1", 'K')
                .wait(300)
                .lift(A, "h1")
                .wait(200)
                .place(A, "f1", 'R'),
            1 => s
                .lift(A, "h1")
                .wait(200)
                .place(A, "f1", 'R')
                .wait(300)
                .lift(A, "e1")
                .wait(200)
                .place(A, "g1", 'K'),
            _ => s
                .lift(A, "e1")
                .lift(A, "h1")
                .wait(250)
                .place(A, "g1", 'K')
                .place(A, "f1", 'R'),
        };
        s.wait(300).press(A, White).wait(1500);
        let p = s.run(3000);
        assert_eq!(
            p.sans(A).last().map(String::as_str),
            Some("O-O"),
            "order {order}\n{}",
            p.dump()
        );
        assert!(p.raised.is_empty(), "order {order}\n{}", p.dump());
    }
}

#[test]
fn en_passant_with_the_victim_lifted_before_or_after() {
    for victim_first in [true, false] {
        let mut s = Scene::new("uscf-bughouse");
        s.mv(A, "e2", "e4", 'P')
            .mv(A, "a7", "a6", 'p')
            .mv(A, "e4", "e5", 'P')
            .mv(A, "d7", "d5", 'p');
        if victim_first {
            s.lift(A, "d5")
                .wait(300)
                .lift(A, "e5")
                .wait(300)
                .place(A, "d6", 'P');
        } else {
            s.lift(A, "e5")
                .wait(300)
                .place(A, "d6", 'P')
                .wait(400)
                .lift(A, "d5");
        }
        s.wait(300).press(A, White).wait(1500);
        let p = s.run(3000);
        assert_eq!(
            p.sans(A).last().map(String::as_str),
            Some("exd6"),
            "{}",
            p.dump()
        );
        assert!(p.raised.is_empty(), "{}", p.dump());
        assert_eq!(
            p.arb
                .game()
                .board(B)
                .reserve(Black)
                .get(shakmaty::Role::Pawn),
            1,
            "e.p. passes a pawn"
        );
    }
}

#[test]
fn adjusted_pieces_are_not_moves() {
    let mut s = Scene::new("uscf-bughouse");
    // White adjusts the queen (lifted and put back), then plays.
    s.lift(A, "d1").wait(150).place(A, "d1", 'Q').wait(400);
    s.mv(A, "d2", "d4", 'P');
    // Black adjusts a knight during White's time after the reply.
    s.mv(A, "d7", "d5", 'p');
    s.lift(A, "b8").wait(600).place(A, "b8", 'n').wait(400);
    s.mv(A, "c2", "c4", 'P');
    let p = s.run(3000);
    assert_eq!(p.sans(A), ["d4", "d5", "c4"], "{}", p.dump());
    assert!(p.raised.is_empty(), "{}", p.dump());
}

#[test]
fn fast_reply_before_the_press_reaches_the_pc() {
    let mut s = Scene::new("uscf-bughouse");
    // White presses; Black lifts within 150 ms and completes the reply within 400 ms.
    s.lift(A, "e2")
        .wait(250)
        .place(A, "e4", 'P')
        .wait(100)
        .press(A, White)
        .wait(150);
    s.lift(A, "c7")
        .wait(200)
        .place(A, "c5", 'p')
        .wait(100)
        .press(A, Black)
        .wait(1500);
    s.mv(A, "g1", "f3", 'N');
    let p = s.run(3000);
    assert_eq!(p.sans(A), ["e4", "c5", "Nf3"], "{}", p.dump());
    assert!(p.raised.is_empty(), "{}", p.dump());
}

#[test]
fn board_turned_round_and_clock_on_the_right() {
    let a = EmulatorConfig {
        orientation: Orientation::Rotated,
        clock: Some(ClockConfig {
            white_side: ClockSide::Right,
            ..ClockConfig::default()
        }),
        ..EmulatorConfig::default()
    };
    let b = EmulatorConfig {
        serial: "22222".into(),
        ..EmulatorConfig::default()
    };
    let mut s = Scene::with("uscf-bughouse", a, b);
    opening(&mut s);
    s.mv(A, "d2", "d4", 'P');
    let p = s.run(3000);
    assert_eq!(p.sans(A), ["e4", "e5", "d4"], "{}", p.dump());
    assert!(p.raised.is_empty(), "{}", p.dump());
    assert_eq!(
        p.arb.track(A).sensed.orientation,
        Some(Orientation::Rotated)
    );
    assert_eq!(p.arb.track(A).clock.white_side, Some(ClockSide::Right));
}

#[test]
fn promotion_with_a_spare_piece_is_recorded_as_that_piece() {
    let mut s = Scene::new("uscf-bughouse");
    s.pawn_on_the_seventh();
    s.lift(A, "h7")
        .wait(300)
        .lift(A, "g8")
        .wait(300)
        .place(A, "g8", 'N')
        .wait(300)
        .press(A, White)
        .wait(2000);
    let p = s.run(3000);
    assert_eq!(
        p.sans(A).last().map(String::as_str),
        Some("hxg8=N"),
        "{}",
        p.dump()
    );
    assert!(
        p.raised.is_empty(),
        "a real piece names itself: no question\n{}",
        p.dump()
    );
}

#[test]
fn promotion_with_the_pawn_left_upright_asks_which_piece() {
    let mut s = Scene::new("uscf-bughouse");
    s.pawn_on_the_seventh();
    s.h7_takes_g8_upright().press(A, White).wait(2000);
    let p = s.run(3000);
    assert_eq!(
        p.sans(A).last().map(String::as_str),
        Some("hxg8=Q"),
        "{}",
        p.dump()
    );
    assert_eq!(p.alerts(), vec![k(Promotion, Some("g8"))], "{}", p.dump());
}

#[test]
fn promotion_confirmed_by_the_td_and_the_laid_down_pawn_followed() {
    let mut s = Scene::new("uscf-bughouse");
    s.pawn_on_the_seventh();
    // The pawn captures on g8 and is laid on its side: the sensors see nothing there.
    s.h7_takes_g8_laid_down();
    s.press(A, White).wait(2500);
    // The TD confirms: a rook.
    let ply = tandem::arbiter::PlyRef {
        board: A,
        color: White,
        number: 5,
    };
    s.td(TdAction::SetPromotion {
        ply,
        role: shakmaty::Role::Rook,
    });
    s.mv(A, "a4", "a3", 'p');
    // The laid-down rook takes the f8 bishop: the bishop vanishes, nothing appears.
    s.lift(A, "f8")
        .wait(300)
        .lift(A, "g8")
        .wait(300)
        .place(A, "f8", 'P')
        .lay_down(A, "f8")
        .wait(300);
    s.press(A, White).wait(2000);
    let p = s.run(3000);
    let sans = p.sans(A);
    assert_eq!(
        &sans[sans.len() - 3..],
        ["hxg8=R", "a3", "Rxf8+"],
        "{}",
        p.dump()
    );
    assert_eq!(p.alerts(), vec![k(Promotion, Some("g8"))], "{}", p.dump());
    // Captured later, the promoted rook goes to the partner as a pawn.
    assert!(
        p.arb
            .game()
            .board(A)
            .promoted()
            .contains("f8".parse().unwrap())
    );
}

#[test]
fn hidden_promoted_piece_moving_unseen_asks_where_it_went() {
    // A board that never reads the lying pawn (no flicker): the move shows nothing at all.
    let a = EmulatorConfig {
        lying_pawn_flicker: 0.0,
        ..EmulatorConfig::default()
    };
    let b = EmulatorConfig {
        serial: "22222".into(),
        ..EmulatorConfig::default()
    };
    let mut s = Scene::with("uscf-bughouse", a, b);
    s.pawn_on_the_seventh();
    s.h7_takes_g8_laid_down();
    s.press(A, White).wait(2500);
    s.mv(A, "a4", "a3", 'p');
    // White moves the laid-down queen: nothing visible changes, and presses.
    s.lift(A, "g8")
        .wait(300)
        .place(A, "g7", 'P')
        .lay_down(A, "g7")
        .wait(300)
        .press(A, White)
        .wait(2500);
    let p = s.run(3000);
    let hidden = p
        .raised
        .iter()
        .find(|a| matches!(a.subject, Subject::HiddenMove { .. }));
    let Some(alert) = hidden else {
        panic!("no question about the hidden move\n{}", p.dump());
    };
    let Subject::HiddenMove { options, .. } = &alert.subject else {
        unreachable!()
    };
    assert!(
        options.iter().any(|o| o.to == shakmaty::Square::G7),
        "{options:?}"
    );
    assert_eq!(alert.kind, Promotion);
}

#[test]
fn illegal_move_stands_and_is_reported() {
    let mut s = Scene::new("uscf-bughouse");
    opening(&mut s);
    // The bishop moves like a rook.
    s.mv(A, "f1", "f3", 'B');
    let p = s.run(3000);
    assert_eq!(p.sans(A), ["e4", "e5", "Bf1f3"], "{}", p.dump());
    assert_eq!(p.alerts(), vec![k(IllegalMove, Some("f3"))], "{}", p.dump());
    let ply = p.arb.game().record().last().unwrap();
    assert!(!ply.legality.is_legal());
}

#[test]
fn knocked_piece_is_displaced_then_cleared_when_put_back() {
    let mut s = Scene::new("uscf-bughouse");
    s.mv(A, "g1", "f3", 'N');
    // During Black's time White's knight is knocked onto h4; put back four seconds later.
    s.knock(A, "f3", "h4")
        .wait(4500)
        .lift(A, "h4")
        .wait(200)
        .place(A, "f3", 'N')
        .wait(1000);
    s.mv(A, "e7", "e5", 'p');
    let p = s.run(3000);
    assert_eq!(p.sans(A), ["Nf3", "e5"], "{}", p.dump());
    assert_eq!(p.alerts(), vec![k(Displaced, Some("f3"))], "{}", p.dump());
    assert_eq!(p.open(Displaced), 0, "cleared when put back\n{}", p.dump());
}

/// On board A White drops `piece` on `on` and presses `press_after` later, the same hand
/// lifting `knocked` off the board `knock_after` after the lever; four seconds on, Black
/// plays Nf6. The match as recorded, and when the board first showed the drop and the
/// knock.
fn drop_then_knock_off(
    s: &mut Scene,
    (on, piece, press_after): (&str, char, Millis),
    (knocked, knock_after): (&str, Millis),
) -> (Played, Millis, Millis) {
    let start = s.t;
    s.place(A, on, piece)
        .wait(press_after)
        .press(A, White)
        .wait(knock_after)
        .lift(A, knocked)
        .wait(4000);
    s.mv(A, "g8", "f6", 'n');
    let p = s.run(3000);
    let shown = s.first_seen(A, on, start, true);
    let gone = s.first_seen(A, knocked, start, false);
    let (Some(shown), Some(gone)) = (shown, gone) else {
        panic!(
            "no drop on {on} or no knock off {knocked} shown\n{}",
            p.dump()
        );
    };
    (p, shown, gone)
}

/// White on board A holds a pawn (Black took one on B). After 1.d4 d5, White drops the
/// pawn on g3 and presses, and a moment later the same hand knocks the e2 pawn off the
/// board. The board shows a pawn appearing on g3 and then e2 emptied, which together read
/// like the e2 pawn going to g3 (illegal). But the scan passes e2 six fields after g3: a
/// pawn moved from e2 would have shown e2 empty in the very pass that showed it on g3,
/// not a pass later. The move is P@g3, and e2 is missing. At 24 offsets of the scan, the
/// knock 150-250 ms after the drop; where e2 showed empty in the same pass as g3 (the
/// knock before the scan reached it) the board cannot tell the two apart and nothing is
/// asserted; the other offsets must be at least 12.
#[test]
fn a_pawn_knocked_off_the_board_just_after_a_drop_is_missing_not_the_drop() {
    let mut told = 0;
    for offset in 0..24 {
        let mut s = Scene::new("uscf-bughouse");
        s.black_takes_a_pawn_on_b();
        s.mv(A, "d2", "d4", 'P').mv(A, "d7", "d5", 'p');
        s.wait(offset * 11);
        let (p, g3, e2) =
            drop_then_knock_off(&mut s, ("g3", 'P', 40), ("e2", 110 + offset % 3 * 50));
        // e2 shown empty in the pass that showed g3, some 25 ms on.
        if e2 < g3 + 60 {
            continue;
        }
        told += 1;
        assert_eq!(
            p.sans(A),
            ["d4", "d5", "P@g3", "Nf6"],
            "offset {offset}\n{}",
            p.dump()
        );
        assert_eq!(
            p.alerts(),
            vec![k(Missing, Some("e2"))],
            "offset {offset}\n{}",
            p.dump()
        );
    }
    assert!(
        told >= 12,
        "e2 showed empty a pass after g3 only {told} times"
    );
}

/// White on board A holds a knight (Black took one on B: 1.Nf3 e5 2.Ng5 Qxg5). After
/// 1.e4 e5, White drops the knight on c6 and presses, and the returning hand knocks the
/// g1 knight off the board. The board shows a knight appearing on c6 and g1 emptied:
/// read together, the g1 knight jumping to c6 (illegal). The scan passes g1 44 fields
/// after c6; where g1 shows empty in the very pass that showed c6, the pass before read
/// g1 occupied less than 80 ms before this one read c6, too short for a hand to carry a
/// knight across the board. The move is N@c6, and g1 is missing. At 40 offsets of the
/// scan, the knock 120-240 ms after the drop; where g1 showed empty before c6 (the knock
/// reached by the pass before) the board cannot tell the two apart and nothing is
/// asserted; the others (32 of 40 now) must come at least 24 times.
#[test]
fn a_knight_knocked_off_in_the_pass_that_shows_a_knight_drop_is_missing_not_a_jump() {
    let mut same_pass = 0;
    for offset in offsets(40) {
        let mut s = Scene::new("uscf-bughouse");
        s.mv(B, "g1", "f3", 'N')
            .mv(B, "e7", "e5", 'p')
            .mv(B, "f3", "g5", 'N')
            .take(B, "d8", "g5", 'q');
        s.mv(A, "e2", "e4", 'P').mv(A, "e7", "e5", 'p');
        s.wait(offset * 7);
        let (p, c6, g1) =
            drop_then_knock_off(&mut s, ("c6", 'N', 60), ("g1", 60 + offset % 4 * 40));
        // g1 shown empty before c6 (the knock before the scan reached g1 in the pass
        // before): the board cannot tell that from a jump, and nothing is asserted.
        if g1 < c6 {
            continue;
        }
        same_pass += usize::from(g1 < c6 + 200);
        assert_eq!(
            p.sans(A),
            ["e4", "e5", "N@c6", "Nf6"],
            "offset {offset}: c6 shown at {c6}, g1 empty at {g1}\n{}",
            p.dump()
        );
        assert_eq!(
            p.alerts(),
            vec![k(Missing, Some("g1"))],
            "offset {offset}: c6 shown at {c6}, g1 empty at {g1}\n{}",
            p.dump()
        );
    }
    assert_happened(same_pass, 24, "g1 showed empty in the pass that showed c6");
}

/// White on board A holds a rook (Black took one on B: 1.h4 d6 2.Rh3 Bxh3), and Black's
/// knight on b3 attacks the rook on a1 (1.h3 Nc6 2.h4 Na5 3.h5 Nb3). White drops the rook
/// on a3 and presses; Black's hand is on the a1 rook at once (Nxa1). Board A is turned
/// (Black at the connector), so its scan passes a1 before a3: where a1 showed empty no
/// later than the rook on a3, the board read first as the a1 rook jumping over the a2 pawn
/// to a3 (illegal); the reply tells which it was, taking on a1. At 24 offsets of the scan:
/// `R@a3 Nxa1` and no alert; the board showed the jump so at least 4 times.
#[test]
fn a_rook_dropped_and_the_other_rook_taken_at_once_is_no_rook_jumping_a_pawn() {
    let mut jumped = 0;
    for offset in offsets(24) {
        let mut s = Scene::bluetooth_a_turned_round("uscf-bughouse");
        s.mv(B, "h2", "h4", 'P')
            .mv(B, "d7", "d6", 'p')
            .mv(B, "h1", "h3", 'R')
            .take(B, "c8", "h3", 'b');
        s.mv(A, "h2", "h3", 'P')
            .mv(A, "b8", "c6", 'n')
            .mv(A, "h3", "h4", 'P')
            .mv(A, "c6", "a5", 'n')
            .mv(A, "h4", "h5", 'P')
            .mv(A, "a5", "b3", 'n');
        s.wait(offset * 21);
        let start = s.t;
        s.place(A, "a3", 'R')
            .wait(40)
            .press(A, White)
            .wait(120 + offset % 3 * 40)
            .lift(A, "a1")
            .wait(800)
            .lift(A, "b3")
            .wait(200)
            .place(A, "a1", 'n')
            .wait(200)
            .press(A, Black)
            .wait(1500);
        s.mv(A, "g2", "g3", 'P');
        let p = s.run(3000);
        assert_eq!(
            p.sans(A)[6..],
            ["R@a3", "Nxa1", "g3"],
            "offset {offset}\n{}",
            p.dump()
        );
        assert!(p.raised.is_empty(), "offset {offset}\n{}", p.dump());
        let first = |sq: &str, standing: bool| s.first_seen(A, sq, start, standing);
        if let (Some(a3), Some(a1)) = (first("a3", true), first("a1", false))
            && a1 <= a3
        {
            jumped += 1;
        }
    }
    assert_happened(jumped, 4, "the board showed the jump");
}

#[test]
fn adjusting_for_a_second_is_no_displacement() {
    let mut s = Scene::new("uscf-bughouse");
    s.mv(A, "g1", "f3", 'N');
    s.knock(A, "f3", "h4")
        .wait(600)
        .lift(A, "h4")
        .wait(200)
        .place(A, "f3", 'N')
        .wait(1000);
    s.mv(A, "e7", "e5", 'p');
    let p = s.run(3000);
    assert_eq!(p.sans(A), ["Nf3", "e5"], "{}", p.dump());
    assert!(p.raised.is_empty(), "{}", p.dump());
}

#[test]
fn piece_gone_with_the_move_is_missing() {
    let mut s = Scene::new("uscf-bughouse");
    // White plays e4 and pockets the h2 pawn before pressing.
    s.lift(A, "h2")
        .wait(200)
        .lift(A, "e2")
        .wait(300)
        .place(A, "e4", 'P')
        .wait(300)
        .press(A, White)
        .wait(2500);
    let p = s.run(3000);
    assert_eq!(p.sans(A), ["e4"], "{}", p.dump());
    assert_eq!(p.alerts(), vec![k(Missing, Some("h2"))], "{}", p.dump());
}

#[test]
fn press_without_a_move() {
    let mut s = Scene::new("uscf-bughouse");
    s.mv(A, "e2", "e4", 'P');
    s.wait(500).press(A, Black).wait(2500);
    let p = s.run(3000);
    assert_eq!(p.sans(A), ["e4"], "{}", p.dump());
    assert_eq!(p.alerts(), vec![k(NoMovePress, None)], "{}", p.dump());
}

#[test]
fn drop_of_a_piece_nobody_captured_is_unexplained() {
    let mut s = Scene::new("uscf-bughouse");
    s.mv(A, "e2", "e4", 'P');
    // Black puts a knight on e5 from nowhere.
    s.place(A, "e5", 'n').wait(300).press(A, Black).wait(4000);
    let p = s.run(3000);
    assert_eq!(p.sans(A), ["e4", "N@e5"], "{}", p.dump());
    assert_eq!(p.alerts(), vec![k(Unexplained, Some("e5"))], "{}", p.dump());
}

/// White plays e4 and presses; while Black thinks, a white knight is set on e5 (a piece
/// from the box, a hand's slip). Black's press may be a minute away: the knight is told as
/// unexplained once it has stood as long as a displaced piece may, not at that press. Black
/// then plays d5: the knight is told once, and its alert stays open while it stands.
#[test]
fn a_piece_set_down_after_the_press_is_told_while_the_opponent_thinks() {
    let mut s = Scene::new("uscf-bughouse");
    s.mv(A, "e2", "e4", 'P');
    s.wait(1500).place(A, "e5", 'N');
    let placed = s.t;
    s.wait(6000);
    s.mv(A, "d7", "d5", 'p');
    let p = s.run(3000);
    assert_eq!(p.sans(A), ["e4", "d5"], "{}", p.dump());
    assert_eq!(p.alerts(), vec![k(Unexplained, Some("e5"))], "{}", p.dump());
    // Told while Black was still thinking: within a scan and a displaced piece's wait
    // (USB board: 250 ms + 2,000 ms) and the scan's report of it.
    let told = p.raised[0].t_ms;
    assert!(
        told <= placed + 3000,
        "told at {told}, placed at {placed}\n{}",
        p.dump()
    );
    assert_eq!(p.open(Unexplained), 1, "{}", p.dump());
}

#[test]
fn drop_arriving_before_the_partner_capture_is_reported_is_fine() {
    let mut s = Scene::new("uscf-bughouse");
    s.mv(B, "e2", "e4", 'P').mv(B, "d7", "d5", 'p');
    s.mv(A, "e2", "e4", 'P');
    // On B White takes d5 and presses; 100 ms later Black on A drops that pawn (its press
    // reaches the PC before board B's).
    s.lift(B, "e4")
        .wait(200)
        .lift(B, "d5")
        .wait(200)
        .place(B, "d5", 'P')
        .wait(100)
        .press(B, White)
        .wait(100);
    s.place(A, "d6", 'p').wait(150).press(A, Black).wait(3000);
    let p = s.run(3000);
    assert_eq!(p.sans(A), ["e4", "P@d6"], "{}", p.dump());
    assert_eq!(p.sans(B), ["e4", "d5", "exd5"], "{}", p.dump());
    assert!(p.raised.is_empty(), "{}", p.dump());
    let order: Vec<String> = p
        .arb
        .game()
        .record()
        .iter()
        .map(|x| x.san.clone())
        .collect();
    let cap = order.iter().position(|x| x == "exd5").unwrap();
    let drop = order.iter().position(|x| x == "P@d6").unwrap();
    assert!(
        cap < drop,
        "the capture comes first in the record: {order:?}"
    );
}

#[test]
fn both_pieces_of_a_transfer_removal_capture_pay_drops_seen_before_it() {
    // Transfer Chess 4c: `hxg8=.` takes a knight and the pawn is removed at once; the
    // knight goes to Black on board B, the pawn to White on board B. Board A's press
    // message is late (a Bluetooth board), so board B's two drops of those pieces are
    // recorded before the capture that supplies them.
    let mut s = Scene::bluetooth_a_as(
        "transfer-chess",
        EmulatorConfig {
            clock_late_chance: 1.0,
            clock_late_ms: (700, 800),
            ..EmulatorConfig::bluetooth()
        },
    );
    s.mv(B, "e2", "e4", 'P');
    s.pawn_on_the_seventh();
    s.lift(A, "h7")
        .wait(300)
        .lift(A, "g8")
        .wait(300)
        .place(A, "g8", 'P')
        .wait(200)
        .press(A, White)
        .wait(100)
        .lift(A, "g8");
    s.place(B, "f6", 'n').wait(150).press(B, Black).wait(150);
    s.place(B, "d3", 'P').wait(150).press(B, White).wait(4000);
    let p = s.run(3000);
    assert_eq!(
        p.sans(A),
        ["h4", "g5", "hxg5", "a6", "g6", "a5", "gxh7", "a4", "hxg8=."],
        "{}",
        p.dump()
    );
    assert_eq!(p.sans(B), ["e4", "N@f6", "P@d3"], "{}", p.dump());
    assert!(p.raised.is_empty(), "{}", p.dump());
    let order: Vec<&str> = p
        .arb
        .game()
        .record()
        .iter()
        .map(|x| x.san.as_str())
        .collect();
    let at = |san: &str| order.iter().position(|x| *x == san);
    assert!(
        at("hxg8=.") < at("N@f6") && at("hxg8=.") < at("P@d3"),
        "the capture comes before both drops in the record: {order:?}"
    );
}

#[test]
fn pawn_dropped_on_the_first_rank_is_illegal() {
    let mut s = Scene::new("uscf-bughouse");
    s.mv(B, "e2", "e4", 'P').mv(B, "d7", "d5", 'p');
    s.lift(B, "e4")
        .wait(200)
        .lift(B, "d5")
        .wait(200)
        .place(B, "d5", 'P')
        .wait(300)
        .press(B, White)
        .wait(1500);
    s.mv(A, "e2", "e4", 'P');
    s.mv(A, "e7", "e5", 'p');
    s.mv(A, "d1", "h5", 'Q');
    // Black drops the pawn on h8's neighbour... on rank 8 (its own first rank).
    s.mv(A, "f8", "e7", 'b');
    s.mv(A, "h5", "h4", 'Q');
    s.place(A, "f8", 'p').wait(300).press(A, Black).wait(2000);
    let p = s.run(3000);
    assert_eq!(
        p.sans(A).last().map(String::as_str),
        Some("P@f8"),
        "{}",
        p.dump()
    );
    assert_eq!(p.alerts(), vec![k(IllegalMove, Some("f8"))], "{}", p.dump());
}

#[test]
fn transfer_white_drop_on_rank_eight_is_illegal() {
    let mut s = Scene::new("transfer-chess");
    // On B Black's queen takes a white knight: it goes to White on A (Black-B's partner).
    s.mv(B, "b1", "c3", 'N').mv(B, "d7", "d5", 'p');
    s.lift(B, "c3")
        .wait(300)
        .lift(B, "d5")
        .wait(300)
        .place(B, "d5", 'N')
        .wait(300)
        .press(B, White)
        .wait(1500);
    s.lift(B, "d8")
        .wait(300)
        .lift(B, "d5")
        .wait(300)
        .place(B, "d5", 'q')
        .wait(300)
        .press(B, Black)
        .wait(1500);
    s.mv(A, "e2", "e4", 'P').mv(A, "b8", "c6", 'n');
    // White places the knight on b8: Transfer 4b iii forbids White any piece on rank 8.
    s.place(A, "b8", 'N').wait(300).press(A, White).wait(2000);
    let p = s.run(3000);
    assert_eq!(p.sans(A), ["e4", "Nc6", "N@b8"], "{}", p.dump());
    assert_eq!(p.alerts(), vec![k(IllegalMove, Some("b8"))], "{}", p.dump());
}

#[test]
fn flag_fall_is_reported_to_the_td() {
    let a = EmulatorConfig {
        clock: Some(ClockConfig {
            base_ms: 4000,
            ..ClockConfig::default()
        }),
        ..EmulatorConfig::default()
    };
    let b = EmulatorConfig {
        serial: "22222".into(),
        ..EmulatorConfig::default()
    };
    let mut s = Scene::with("uscf-bughouse", a, b);
    s.wait(7000);
    let p = s.run(3000);
    assert_eq!(p.alerts(), vec![k(Flag, None)], "{}", p.dump());
    assert!(p.raised[0].detail.contains("White"), "{}", p.dump());
}

#[test]
fn two_pieces_moved_at_once_is_a_desync() {
    let mut s = Scene::new("uscf-bughouse");
    s.lift(A, "e2")
        .lift(A, "d2")
        .wait(300)
        .place(A, "e4", 'P')
        .place(A, "d4", 'P')
        .wait(300)
        .press(A, White)
        .wait(5000);
    let p = s.run(3000);
    assert!(p.sans(A).is_empty(), "{}", p.dump());
    assert_eq!(p.alerts(), vec![k(Desync, None)], "{}", p.dump());
    assert!(
        p.raised[0].detail.contains("d4") && p.raised[0].detail.contains("e4"),
        "{}",
        p.dump()
    );
}

#[test]
fn mate_ends_the_match() {
    // Scholar's mate: the queen on f7 touches the king and is protected: no drop can help.
    let mut s = Scene::new("uscf-bughouse");
    opening(&mut s);
    s.mv(A, "d1", "h5", 'Q')
        .mv(A, "b8", "c6", 'n')
        .mv(A, "f1", "c4", 'B')
        .mv(A, "g8", "f6", 'n');
    s.lift(A, "h5")
        .wait(300)
        .lift(A, "f7")
        .wait(300)
        .place(A, "f7", 'Q')
        .wait(300)
        .press(A, White)
        .wait(2000);
    let p = s.run(3000);
    assert_eq!(
        p.sans(A),
        ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"],
        "{}",
        p.dump()
    );
    assert_eq!(p.alerts(), vec![k(GameEnd, None)], "{}", p.dump());
    assert!(
        p.raised[0].detail.contains("BlackA checkmated"),
        "{}",
        p.dump()
    );
}

#[test]
fn a_hidden_move_on_the_other_board_after_the_mate_asks_nothing() {
    // Board A: White promotes on g8 and lays the pawn on its side (the board never reads
    // it), Black answers. Board B: Scholar's mate ends the match. Two seconds on, White
    // on board A (still thinking, as players do) moves the lying piece, which the board
    // cannot see, and presses: nothing of it can be recorded, so the TD is not asked
    // where it went.
    let mut s = Scene::lying_pawns_unseen("uscf-bughouse");
    s.pawn_on_the_seventh();
    s.h7_takes_g8_laid_down().press(A, White).wait(1500);
    s.mv(A, "a4", "a3", 'p');
    s.mv(B, "e2", "e4", 'P')
        .mv(B, "e7", "e5", 'p')
        .mv(B, "d1", "h5", 'Q')
        .mv(B, "b8", "c6", 'n')
        .mv(B, "f1", "c4", 'B')
        .mv(B, "g8", "f6", 'n');
    s.lift(B, "h5")
        .wait(300)
        .lift(B, "f7")
        .wait(300)
        .place(B, "f7", 'Q')
        .wait(300)
        .press(B, White)
        .wait(2000);
    s.lift(A, "g8")
        .wait(300)
        .place(A, "g5", 'P')
        .lay_down(A, "g5")
        .wait(300)
        .press(A, White);
    let p = s.run(3000);
    assert_eq!(p.sans(B).last().map(String::as_str), Some("Qxf7#"));
    assert_eq!(p.sans(A)[8..], ["hxg8=Q", "a3"], "{}", p.dump());
    assert_eq!(
        p.alerts(),
        vec![k(Promotion, Some("g8")), k(GameEnd, None)],
        "{}",
        p.dump()
    );
}

#[test]
fn blockable_check_is_no_mate_and_the_game_goes_on() {
    // Fool's mate is ordinary mate, but a piece dropped on g3 or f2 would block: in
    // bughouse White may wait for one (true mate), so the game goes on.
    let mut s = Scene::new("uscf-bughouse");
    s.mv(A, "f2", "f3", 'P')
        .mv(A, "e7", "e5", 'p')
        .mv(A, "g2", "g4", 'P')
        .mv(A, "d8", "h4", 'q');
    let p = s.run(3000);
    assert_eq!(p.sans(A), ["f3", "e5", "g4", "Qh4+"], "{}", p.dump());
    assert!(p.raised.is_empty(), "{}", p.dump());
    assert!(!p.arb.game().is_over());
}

#[test]
fn without_a_clock_a_move_counts_when_the_board_stands_still() {
    let mut s = Scene::without_clocks("uscf-blitz");
    s.lift(A, "e2").wait(300).place(A, "e4", 'P').wait(3000);
    s.lift(A, "e7").wait(300).place(A, "e5", 'p').wait(3000);
    let p = s.run(3000);
    assert_eq!(p.sans(A), ["e4", "e5"], "{}", p.dump());
    assert!(p.raised.is_empty(), "{}", p.dump());
}

#[test]
fn unplugged_board_moves_made_while_away_are_reconstructed() {
    let mut s = Scene::new("uscf-bughouse");
    s.mv(A, "e2", "e4", 'P');
    let t = s.t;
    s.table.board_mut(A).unwrap().unplug(t);
    // While unplugged, Black replies (the press never reaches the PC).
    s.mv(A, "e7", "e5", 'p');
    let t = s.t;
    s.table.board_mut(A).unwrap().replug(t);
    s.wait(3000);
    s.mv(A, "g1", "f3", 'N');
    let p = s.run(3000);
    assert_eq!(p.sans(A), ["e4", "e5", "Nf3"], "{}", p.dump());
    assert_eq!(p.alerts(), vec![k(Disconnected, None)], "{}", p.dump());
    assert_eq!(
        p.open(Disconnected),
        0,
        "cleared on reconnection\n{}",
        p.dump()
    );
}

#[test]
fn unplugged_board_with_too_much_changed_is_a_desync() {
    let mut s = Scene::new("uscf-bughouse");
    s.mv(A, "e2", "e4", 'P');
    let t = s.t;
    s.table.board_mut(A).unwrap().unplug(t);
    s.mv(A, "e7", "e5", 'p')
        .mv(A, "g1", "f3", 'N')
        .mv(A, "b8", "c6", 'n');
    let t = s.t;
    s.table.board_mut(A).unwrap().replug(t);
    s.wait(4000);
    let p = s.run(3000);
    assert_eq!(p.sans(A), ["e4"], "{}", p.dump());
    assert_eq!(
        p.alerts(),
        vec![k(Disconnected, None), k(Desync, None)],
        "{}",
        p.dump()
    );
}

#[test]
fn a_piece_from_nowhere_in_single_board_chess_is_unexplained_not_a_drop() {
    let mut s = Scene::new("uscf-blitz");
    s.mv(A, "e2", "e4", 'P');
    // Black puts a queen on e5 from nowhere and presses: there are no reserves in blitz.
    s.place(A, "e5", 'q').wait(300).press(A, Black).wait(4000);
    let p = s.run(3000);
    assert_eq!(p.sans(A), ["e4"], "{}", p.dump());
    assert_eq!(p.alerts(), vec![k(Unexplained, Some("e5"))], "{}", p.dump());
}

/// Black on A holds a pawn (White on B took one: it goes to White's partner).
fn black_a_gets_a_pawn(s: &mut Scene) {
    s.mv(B, "e2", "e4", 'P')
        .mv(B, "d7", "d5", 'p')
        .lift(B, "d5")
        .wait(200)
        .lift(B, "e4")
        .wait(200)
        .place(B, "d5", 'P')
        .wait(300)
        .press(B, White)
        .wait(1500);
}

/// ...and then a knight too.
fn black_a_gets_a_knight(s: &mut Scene) {
    s.mv(B, "g8", "f6", 'n')
        .mv(B, "b1", "c3", 'N')
        .mv(B, "f6", "d5", 'n')
        .lift(B, "d5")
        .wait(200)
        .lift(B, "c3")
        .wait(200)
        .place(B, "d5", 'N')
        .wait(300)
        .press(B, White)
        .wait(1500);
}

#[test]
fn drop_captured_before_the_scan_saw_it() {
    // Black holds a pawn and a knight, drops the pawn on e5 and presses; White's hand,
    // already there, takes it at once with the knight (the pawn off the board 150 ms after
    // the drop, so at some timings the scan never shows it). Black's next move, a knight
    // drop, tells which piece went: a pawn. All three presses are explained, no alert.
    let mut unseen = 0;
    for next_after in [1500, 300] {
        for offset in 0..12 {
            let mut s = Scene::new("uscf-bughouse");
            black_a_gets_a_pawn(&mut s);
            black_a_gets_a_knight(&mut s);
            s.mv(A, "g1", "f3", 'N');
            s.wait(offset * 20);
            let start = s.t;
            s.place(A, "e5", 'p').wait(80).press(A, Black).wait(70);
            s.lift(A, "e5")
                .wait(150)
                .lift(A, "f3")
                .wait(200)
                .place(A, "e5", 'N')
                .wait(300)
                .press(A, White)
                .wait(next_after);
            s.place(A, "d6", 'n').wait(300).press(A, Black).wait(1500);
            let p = s.run(3000);
            if !s
                .seen(A, "e5")
                .iter()
                .any(|(t, x)| *t >= start && *x == Some(pc('p')))
            {
                unseen += 1;
            }
            assert_eq!(
                p.sans(A),
                ["Nf3", "P@e5", "Nxe5", "N@d6"],
                "next after {next_after}, offset {offset}\n{}",
                p.dump()
            );
            assert!(p.raised.is_empty(), "offset {offset}\n{}", p.dump());
            // The pawn went to White's partner.
            assert_eq!(
                p.arb
                    .game()
                    .board(B)
                    .reserve(Black)
                    .get(shakmaty::Role::Pawn),
                1,
                "offset {offset}"
            );
        }
    }
    assert!(unseen > 0, "the scan saw the dropped pawn at every timing");
}

#[test]
fn move_captured_before_the_scan_saw_it_on_a_bluetooth_board() {
    // White's bishop slides f1-e2-d3-c4-b5-a6 and White presses; Black's hand, already
    // there, takes it at once with the c8 bishop (the victim lifted first). On a slow scan
    // the board may show the bishop on a square of its slide, then that square empty, and
    // never the bishop on a6: only Black's bishop arriving there. The piece went on and
    // was taken where it landed (Ba6 Bxa6), not left on its way and lost (Bc4 Bb7 and a
    // bishop missing).
    let mut on_the_way = 0;
    for offset in 0..16 {
        let mut s = Scene::bluetooth_a("uscf-bughouse");
        s.mv(A, "e2", "e3", 'P').mv(A, "b7", "b6", 'p');
        s.wait(offset * 30);
        let start = s.t;
        s.lift(A, "f1");
        for square in ["e2", "d3", "c4", "b5"] {
            s.wait(60).place(A, square, 'B').wait(60).lift(A, square);
        }
        s.wait(60)
            .place(A, "a6", 'B')
            .wait(80)
            .press(A, White)
            .wait(60);
        s.lift(A, "a6")
            .wait(120)
            .lift(A, "c8")
            .wait(150)
            .place(A, "a6", 'b')
            .wait(250)
            .press(A, Black)
            .wait(3000);
        let p = s.run(3000);
        let shown_at = |square: &str| {
            s.seen(A, square)
                .iter()
                .any(|(t, x)| *t >= start && *x == Some(pc('B')))
        };
        if !shown_at("a6") && ["e2", "d3", "c4", "b5"].into_iter().any(shown_at) {
            on_the_way += 1;
        }
        assert_eq!(
            p.sans(A),
            ["e3", "b6", "Ba6", "Bxa6"],
            "offset {offset}\n{}",
            p.dump()
        );
        assert!(p.raised.is_empty(), "offset {offset}\n{}", p.dump());
    }
    assert!(
        on_the_way > 0,
        "no timing showed the bishop on its way and never on a6"
    );
}

#[test]
fn piece_pocketed_by_the_opponent_before_the_press() {
    for offset in 0..16 {
        let mut s = Scene::new("uscf-bughouse");
        opening(&mut s);
        s.mv(A, "f1", "c4", 'B').mv(A, "b8", "c6", 'n');
        s.wait(offset * 15);
        // White plays Nf3 and, just before pressing, lifts Black's f7 pawn (which the
        // bishop attacks) off the board.
        s.lift(A, "g1").wait(300).place(A, "f3", 'N').wait(150);
        s.lift(A, "f7").wait(100).press(A, White).wait(600);
        // Black moves another piece and presses while f7 is still gone.
        s.lift(A, "g8")
            .wait(300)
            .place(A, "f6", 'n')
            .wait(300)
            .press(A, Black);
        // It comes back seconds later.
        s.wait(3000).place(A, "f7", 'p').wait(1500);
        let p = s.run(3000);
        assert_eq!(
            p.sans(A),
            ["e4", "e5", "Bc4", "Nc6", "Nf3", "Nf6"],
            "offset {offset}\n{}",
            p.dump()
        );
        // At Black's press: the pawn was gone before Black even moved, so it is no victim
        // of White's next move (which begins after that press).
        assert_eq!(
            p.alerts(),
            vec![k(Missing, Some("f7"))],
            "offset {offset}\n{}",
            p.dump()
        );
    }
}

#[test]
fn piece_set_down_short_and_pushed_on_while_another_is_pocketed() {
    // Black's bishop goes f8–c5 but is set down on d6 first (the board shows Bd6 exactly,
    // and White's knight on b5 could be taking it there), then pushed on to c5 in the
    // same movement of the hand; meanwhile the other hand pockets the c8 bishop. The
    // bishop's going on makes Bc5 the move, with c8 missing, not Bd6 with the knight
    // "taking" on d6 and a bishop from c8 "displaced" to c5.
    for offset in 0..16 {
        let mut s = Scene::new("uscf-bughouse");
        opening(&mut s);
        s.mv(A, "b1", "c3", 'N')
            .mv(A, "g8", "f6", 'n')
            .mv(A, "c3", "b5", 'N');
        s.wait(offset * 15);
        s.lift(A, "f8").wait(60).place(A, "d6", 'b').wait(180);
        s.lift(A, "c8")
            .wait(60)
            .lift(A, "d6")
            .wait(40)
            .place(A, "c5", 'b');
        s.wait(100).press(A, Black).wait(3000);
        let p = s.run(3000);
        assert_eq!(
            p.sans(A),
            ["e4", "e5", "Nc3", "Nf6", "Nb5", "Bc5"],
            "offset {offset}\n{}",
            p.dump()
        );
        assert_eq!(
            p.alerts(),
            vec![k(Missing, Some("c8"))],
            "offset {offset}\n{}",
            p.dump()
        );
    }
}

#[test]
fn pawn_pocketed_during_the_move_of_its_neighbour() {
    // White plays b3 and pockets the a2 pawn with the same hand before pressing; Black's
    // bishop on g7 eyes b2, so b2 emptying could pass for Black taking it. Across timings
    // the scan sometimes reports a2 empty before b2: for one report the board shows the a2
    // pawn "gone diagonally" to b3.
    let mut tricky = 0;
    for offset in 0..16 {
        let mut s = Scene::new("uscf-bughouse");
        s.mv(A, "e2", "e4", 'P')
            .mv(A, "g7", "g6", 'p')
            .mv(A, "g1", "f3", 'N')
            .mv(A, "f8", "g7", 'b');
        s.wait(offset * 15);
        let start = s.t;
        s.lift(A, "b2").wait(60).place(A, "b3", 'P').wait(30);
        s.lift(A, "a2").wait(250).press(A, White).wait(3000);
        let p = s.run(3000);
        let first = |sq: &str| {
            s.seen(A, sq)
                .into_iter()
                .find(|(t, _)| *t >= start)
                .map(|(t, _)| t)
        };
        if first("a2") < first("b2") && first("b3") < first("b2") {
            tricky += 1;
        }
        assert_eq!(
            p.sans(A),
            ["e4", "g6", "Nf3", "Bg7", "b3"],
            "offset {offset}\n{}",
            p.dump()
        );
        assert_eq!(
            p.alerts(),
            vec![k(Missing, Some("a2"))],
            "offset {offset}\n{}",
            p.dump()
        );
    }
    assert!(tricky > 0, "no timing had a2 reported before b2");
}

/// Black on A holds a knight (White on B took one: it goes to White's partner).
fn black_a_gets_only_a_knight(s: &mut Scene) {
    s.mv(B, "e2", "e4", 'P')
        .mv(B, "g8", "f6", 'n')
        .mv(B, "b1", "c3", 'N')
        .mv(B, "f6", "d5", 'n')
        .lift(B, "d5")
        .wait(200)
        .lift(B, "c3")
        .wait(200)
        .place(B, "d5", 'N')
        .wait(300)
        .press(B, White)
        .wait(1500);
}

#[test]
fn capture_victim_lifted_soon_after_a_drop_on_a_bluetooth_board() {
    // Black drops a knight on d4, a square its own knight on c6 could reach; White, whose
    // bishop attacks c6, lifts that knight first and then takes with the bishop. On a slow
    // scan c6 is reported empty a few hundred ms after d4 shows the knight: for a moment
    // the board reads like Nc6-d4. (White takes at once: the bishop stands on c6 when
    // Black's press is decided.)
    let mut tricky = 0;
    for offset in 0..16 {
        let mut s = Scene::bluetooth_a("uscf-bughouse");
        black_a_gets_only_a_knight(&mut s);
        s.mv(A, "e2", "e4", 'P')
            .mv(A, "b8", "c6", 'n')
            .mv(A, "f1", "b5", 'B');
        s.wait(offset * 30);
        let start = s.t;
        s.place(A, "d4", 'n').wait(150).press(A, Black).wait(200);
        s.lift(A, "c6")
            .wait(60)
            .lift(A, "b5")
            .wait(200)
            .place(A, "c6", 'B')
            .wait(300)
            .press(A, White)
            .wait(2000);
        let p = s.run(3000);
        let first = |sq: &str| {
            s.seen(A, sq)
                .into_iter()
                .find(|(t, _)| *t >= start)
                .map(|(t, _)| t)
        };
        if let (Some(d4), Some(c6)) = (first("d4"), first("c6"))
            && c6 > d4
            && c6 - d4 <= 560
        {
            tricky += 1;
        }
        assert_eq!(
            p.sans(A),
            ["e4", "Nc6", "Bb5", "N@d4", "Bxc6"],
            "offset {offset}\n{}",
            p.dump()
        );
        assert!(p.raised.is_empty(), "offset {offset}\n{}", p.dump());
    }
    assert!(tricky > 0, "no timing had c6 reported soon after d4");
}

#[test]
fn an_extra_piece_flagged_takes_no_later_capture() {
    let mut s = Scene::new("uscf-bughouse");
    s.mv(A, "e2", "e4", 'P');
    // Black puts a knight on e5 from nowhere: flagged once the grace for board B's
    // capture has passed.
    s.place(A, "e5", 'n').wait(300).press(A, Black).wait(4000);
    s.mv(A, "d2", "d3", 'P');
    // Much later White on B takes a knight: it goes to Black on A, who drops it.
    s.wait(5000);
    black_a_gets_only_a_knight(&mut s);
    s.place(A, "c6", 'n').wait(300).press(A, Black).wait(4000);
    let p = s.run(3000);
    assert_eq!(p.sans(A), ["e4", "N@e5", "d3", "N@c6"], "{}", p.dump());
    assert_eq!(
        p.sans(B),
        ["e4", "Nf6", "Nc3", "Nd5", "Nxd5"],
        "{}",
        p.dump()
    );
    // The extra knight alone is flagged; the knight from board B is a legitimate drop, in
    // the record too (the extra one took nothing from the reserve).
    assert_eq!(p.alerts(), vec![k(Unexplained, Some("e5"))], "{}", p.dump());
    use tandem::rules::{IllegalReason, Legality};
    let drops: Vec<(String, Legality, bool)> = p
        .arb
        .game()
        .record()
        .iter()
        .filter(|x| x.board == A && matches!(x.mv, shakmaty::Move::Put { .. }))
        .map(|x| (x.san.clone(), x.legality.clone(), x.extra_piece))
        .collect();
    assert_eq!(
        drops,
        [
            (
                "N@e5".to_string(),
                Legality::Illegal(IllegalReason::NotInReserve),
                true
            ),
            ("N@c6".to_string(), Legality::Legal, false),
        ],
        "{}",
        p.dump()
    );
    let reserve = p.arb.game().board(A).reserve(Black);
    assert_eq!(reserve.get(shakmaty::Role::Knight), 0, "{}", p.dump());
}

#[test]
fn queen_slide_still_under_way_when_the_press_is_decided_on_a_bluetooth_board() {
    // Black plays Nc6-a5 and presses; White answers at once with d4 and presses; Black's
    // queen then slides d8-c8-b8, pausing on c8. On a slow scan the board shows the queen
    // on c8 when Black's Na5 press is decided: that is Black's next move under way, not
    // Black's move after two presses nobody saw (White's press is on its way).
    let mut mid_slide = 0;
    for offset in 0..16 {
        let mut s = Scene::bluetooth_a("uscf-bughouse");
        s.mv(A, "e2", "e3", 'P')
            .mv(A, "b7", "b6", 'p')
            .mv(A, "g1", "f3", 'N')
            .mv(A, "c8", "b7", 'b')
            .mv(A, "h2", "h3", 'P')
            .mv(A, "b8", "c6", 'n')
            .mv(A, "a2", "a3", 'P');
        s.wait(offset * 30);
        s.lift(A, "c6")
            .wait(200)
            .place(A, "a5", 'n')
            .wait(120)
            .press(A, Black);
        let pressed = s.t;
        s.wait(80)
            .lift(A, "d2")
            .wait(150)
            .place(A, "d4", 'P')
            .wait(60)
            .press(A, White)
            .wait(40);
        s.lift(A, "d8")
            .wait(50)
            .place(A, "c8", 'q')
            .wait(250)
            .lift(A, "c8")
            .wait(40)
            .place(A, "b8", 'q')
            .wait(300)
            .press(A, Black)
            .wait(3000);
        let p = s.run(3000);
        if s.seen(A, "c8")
            .iter()
            .any(|(t, x)| *t >= pressed && x.is_some())
        {
            mid_slide += 1;
        }
        assert_eq!(
            p.sans(A),
            [
                "e3", "b6", "Nf3", "Bb7", "h3", "Nc6", "a3", "Na5", "d4", "Qb8"
            ],
            "offset {offset}\n{}",
            p.dump()
        );
        assert!(p.raised.is_empty(), "offset {offset}\n{}", p.dump());
    }
    assert!(mid_slide > 0, "the scan never caught the queen on c8");
}
