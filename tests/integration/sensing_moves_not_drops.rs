//! A move read as a drop of the same piece on its landing square. A player holding a piece
//! of the kind moved may have dropped it there: for a moment (the landing reported, the
//! origin not yet), or once the piece has moved on, the board shows a drop just as well.
//! The mover's own piece gone from its origin, in the same pass of the scan as the landing,
//! and the order of the reports around the opponent's reply, tell which it was.

#![allow(clippy::unwrap_used)]

use crate::common::scene::{Scene, pc};
use shakmaty::Color::{Black, White};
use tandem::BoardId::{A, B};
use tandem::dgt::ClockSide;

/// White holds a pawn and takes en passant: the pawn lifted and set down at once, the
/// victim taken off well after (after the landing's scan, before the press). The scan may
/// report the landing first and the origin emptied a few fields later, in the same pass:
/// for that moment the board shows a pawn dropped. The pawn that left its square in that
/// pass is the mover's own hand: the capture, shown whole once the victim is off, is the
/// move, however long after the landing that comes.
#[test]
fn en_passant_landing_shown_before_its_lift_with_a_pawn_in_hand_is_no_drop() {
    let mut landing_first = 0;
    for offset in 0..16 {
        let mut s = Scene::new("uscf-bughouse");
        s.black_takes_a_pawn_on_b();
        s.mv(A, "e2", "e4", 'P')
            .mv(A, "a7", "a6", 'p')
            .mv(A, "e4", "e5", 'P')
            .mv(A, "d7", "d5", 'p');
        s.wait(offset * 15);
        let start = s.t;
        s.lift(A, "e5")
            .wait(30)
            .place(A, "d6", 'P')
            .wait(450)
            .lift(A, "d5")
            .wait(150)
            .press(A, White)
            .wait(1500);
        s.mv(A, "g8", "f6", 'n');
        let p = s.run(3000);
        let first = |square: &str, piece: Option<char>| {
            s.seen(A, square)
                .into_iter()
                .find(|&(t, x)| t >= start && x == piece.map(pc))
                .map(|(t, _)| t)
        };
        // The landing reported before the origin emptied: a drop, for that moment.
        if first("d6", Some('P')) < first("e5", None) {
            landing_first += 1;
        }
        assert_eq!(
            p.sans(A),
            ["e4", "a6", "e5", "d5", "exd6", "Nf6"],
            "offset {offset}\n{}",
            p.dump()
        );
        assert!(p.raised.is_empty(), "offset {offset}\n{}", p.dump());
        // The capture passed the pawn on; White's pawn in hand is still there.
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
    assert!(
        landing_first > 0,
        "the scan never reported the landing before the lift"
    );
}

/// White drops a pawn and presses; Black replies at once and presses; White pushes the
/// dropped pawn on at once. The clock's message for the first press comes late (the board
/// polls the clock, which reads in whole seconds), so by the time that press is judged the
/// board shows the push too: a pawn dropped straight on the further square, the reply in
/// progress. But the board showed the drop exactly, and the pawn left it only after the
/// reply had landed: the push is White's next move, not part of this one.
#[test]
fn a_drop_pushed_on_after_a_fast_reply_before_its_press_is_judged() {
    let mut late = 0;
    for offset in 0..40 {
        let mut s = Scene::new("uscf-bughouse");
        s.black_takes_a_pawn_on_b();
        s.mv(A, "e2", "e4", 'P').mv(A, "e7", "e5", 'p');
        s.wait(offset * 25);
        let start = s.t;
        s.place(A, "a4", 'P')
            .wait(80)
            .press(A, White)
            .wait(220)
            .lift(A, "d8")
            .wait(80)
            .place(A, "h4", 'q')
            .wait(50)
            .press(A, Black)
            .wait(100)
            .lift(A, "a4")
            .wait(100)
            .place(A, "a5", 'P')
            .wait(600);
        let third = s.t;
        s.press(A, White).wait(3000);
        let p = s.run(3000);
        let first = |square: &str, piece: char| {
            s.seen(A, square)
                .into_iter()
                .find(|&(t, x)| t >= start && x == Some(pc(piece)))
                .map(|(t, _)| t)
        };
        // The clock showed White's first press (Black's side running) so late that the
        // board had shown the push before that press was judged (the settling time after
        // its message), and the drop itself before the reply began.
        let pressed = s
            .clock_seen(A)
            .into_iter()
            .find(|&(t, running)| t >= start && running == Some(ClockSide::Right))
            .map(|(t, _)| t);
        let reply_lifted = s
            .seen(A, "d8")
            .into_iter()
            .find(|&(t, x)| t >= start && x.is_none())
            .map(|(t, _)| t);
        if let (Some(pressed), Some(pushed), Some(dropped), Some(lifted)) =
            (pressed, first("a5", 'P'), first("a4", 'P'), reply_lifted)
            && pressed < third
            && pushed <= pressed + 300
            && dropped < lifted
        {
            late += 1;
        }
        assert_eq!(
            p.sans(A),
            ["e4", "e5", "P@a4", "Qh4", "a5"],
            "offset {offset}\n{}",
            p.dump()
        );
        assert!(p.raised.is_empty(), "offset {offset}\n{}", p.dump());
    }
    assert!(
        late > 0,
        "the clock never showed the drop's press after the reply"
    );
}
