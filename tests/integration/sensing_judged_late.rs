//! Presses judged late: a piece taken by the reply before the scan showed it land leaves
//! its press unclear until a later press tells, and the board's reports go on meanwhile.
//! No alert may come from having waited: not the unclear press told as a press without a
//! move, not the reply's landing taken for a later move, not the mover's press told as
//! ambiguous when the reply showed which it was.

#![allow(clippy::unwrap_used)]

use crate::common::scene::{Scene, assert_happened, offsets, pc};
use shakmaty::Color::{Black, White};
use tandem::BoardId::{A, B};
use tandem::Millis;
use tandem::dgt::ClockSide;

/// Black on A holds a pawn and a knight (White on B took them: they go to White's partner).
fn black_a_gets_a_pawn_and_a_knight(s: &mut Scene) {
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

/// Black drops a pawn on e5 and presses; White's hand, already there, takes it at once
/// with the knight, before the scan shows it. Black's press shows nothing; White's shows
/// a knight on e5 taking a piece nobody saw (which one only Black's next move tells: a
/// knight dropped, so the pawn went). Black thinks for seconds: Black's next press comes
/// longer after the first than a press without a move is kept untold. The presses still
/// being judged may account for it, so it waits for them: no alert.
#[test]
fn a_drop_taken_unseen_then_the_dropper_thinking_long_is_no_press_without_a_move() {
    // A press that showed nothing is kept untold this long after it was judged (a settle
    // after its message); the next press is judged a settle after its own message.
    let kept = tandem::arbiter::Timing::default().max_wait_ms;
    let mut told_late = 0;
    let mut unseen = 0;
    for think in (2300..2800).step_by(50) {
        for offset in 0..3 {
            let mut s = Scene::new("uscf-bughouse");
            black_a_gets_a_pawn_and_a_knight(&mut s);
            s.mv(A, "g1", "f3", 'N');
            s.wait(offset * 40);
            let start = s.t;
            s.place(A, "e5", 'p').wait(80).press(A, Black).wait(70);
            s.lift(A, "e5")
                .wait(150)
                .lift(A, "f3")
                .wait(200)
                .place(A, "e5", 'N')
                .wait(300)
                .press(A, White)
                .wait(think);
            s.place(A, "d6", 'n').wait(300).press(A, Black).wait(1500);
            let p = s.run(3000);
            if !s
                .seen(A, "e5")
                .iter()
                .any(|(t, x)| *t >= start && *x == Some(pc('p')))
            {
                unseen += 1;
            }
            // The physics: Black's presses as the clock showed them (White's side, on
            // the left, starting to run), the second judged after the first was due to
            // be told.
            let black_presses: Vec<Millis> = s
                .clock_seen(A)
                .windows(2)
                .filter(|w| w[1].0 >= start && w[1].1 == Some(ClockSide::Left))
                .filter(|w| w[0].1 != Some(ClockSide::Left))
                .map(|w| w[1].0)
                .collect();
            if let [first, second] = black_presses[..]
                && second > first + kept
            {
                told_late += 1;
            }
            assert_eq!(
                p.sans(A),
                ["Nf3", "P@e5", "Nxe5", "N@d6"],
                "think {think}, offset {offset}\n{}",
                p.dump()
            );
            assert!(
                p.raised.is_empty(),
                "think {think}, offset {offset}\n{}",
                p.dump()
            );
        }
    }
    assert!(unseen > 0, "the scan saw the dropped pawn at every timing");
    assert!(
        told_late > 0,
        "Black's next press always came while the first was still kept untold"
    );
}

/// On a Bluetooth board (a slow scan), White's knight checks from d6 and Black's hand,
/// already there, takes it at once with the c-pawn, before the scan shows the knight:
/// White's press stays unclear (the knight seen leaving b5, landing nowhere) until Black's
/// press, and is decided a settle after Black's message. White's next move begins at
/// once: by then the board has reported more, and the judgement of Black's press starts
/// from there. Black's pawn stood on d6 when that window began: it landed before, not
/// after Black's press (no "no move explains the board").
#[test]
fn a_capture_landed_before_the_window_its_press_is_judged_from_is_no_late_landing() {
    let mut unseen = 0;
    for offset in 0..40 {
        let mut s = Scene::bluetooth_a("uscf-bughouse");
        s.mv(A, "b1", "c3", 'N')
            .mv(A, "h7", "h6", 'p')
            .mv(A, "c3", "b5", 'N')
            .mv(A, "h6", "h5", 'p');
        s.wait(offset * 13);
        let start = s.t;
        s.lift(A, "b5")
            .wait(150)
            .place(A, "d6", 'N')
            .wait(80)
            .press(A, White)
            .wait(60);
        // Black's hand takes the knight off at once, then fetches the pawn.
        s.lift(A, "d6")
            .wait(700)
            .lift(A, "c7")
            .wait(150)
            .place(A, "d6", 'p')
            .wait(150)
            .press(A, Black)
            .wait(400 + offset * 11);
        s.lift(A, "g2")
            .wait(300)
            .place(A, "g4", 'P')
            .wait(250)
            .press(A, White)
            .wait(3000);
        let p = s.run(3000);
        if !s
            .seen(A, "d6")
            .iter()
            .any(|(t, x)| *t >= start && *x == Some(pc('N')))
        {
            unseen += 1;
        }
        assert_eq!(
            p.sans(A),
            ["Nc3", "h6", "Nb5", "h5", "Nd6+", "cxd6", "g4"],
            "offset {offset}\n{}",
            p.dump()
        );
        assert!(p.raised.is_empty(), "offset {offset}\n{}", p.dump());
    }
    assert!(unseen > 0, "the scan saw the knight on d6 at every timing");
}

/// On a Bluetooth board, Black's queen takes on d4 along the fourth rank and White's hand,
/// already there, takes it back at once with the c-pawn: the scan may never show the
/// queen on d4, only a4 and c3 emptied (a white pawn on d4 all along). Black's press alone
/// fits Qxd4 (cxd4 made) as well as Qb4 (cxb4 under way, the pawn in hand); White's press
/// tells: the pawn stands on d4. Both presses read together, no alert.
#[test]
fn a_move_taken_back_unseen_is_told_by_the_reply_not_raised_as_ambiguous() {
    let mut unseen = 0;
    for offset in 0..24 {
        let mut s = Scene::bluetooth_a("uscf-bughouse");
        s.mv(A, "d2", "d4", 'P')
            .mv(A, "c7", "c6", 'p')
            .mv(A, "c2", "c3", 'P')
            .mv(A, "d8", "a5", 'q')
            .mv(A, "h2", "h3", 'P')
            .mv(A, "a5", "a4", 'q')
            .mv(A, "h3", "h4", 'P');
        s.wait(offset * 21);
        let start = s.t;
        s.lift(A, "d4")
            .wait(60)
            .lift(A, "a4")
            .wait(120)
            .place(A, "d4", 'q')
            .wait(70)
            .press(A, Black)
            .wait(40);
        s.lift(A, "d4")
            .wait(60)
            .lift(A, "c3")
            .wait(100)
            .place(A, "d4", 'P')
            .wait(150)
            .press(A, White)
            .wait(2500);
        s.mv(A, "g8", "f6", 'n');
        let p = s.run(3000);
        if !s
            .seen(A, "d4")
            .iter()
            .any(|(t, x)| *t >= start && *x == Some(pc('q')))
        {
            unseen += 1;
        }
        assert_eq!(
            p.sans(A),
            [
                "d4", "c6", "c3", "Qa5", "h3", "Qa4", "h4", "Qxd4", "cxd4", "Nf6"
            ],
            "offset {offset}\n{}",
            p.dump()
        );
        assert!(p.raised.is_empty(), "offset {offset}\n{}", p.dump());
    }
    assert!(unseen > 0, "the scan saw the queen on d4 at every timing");
}

/// After 1.e4 e5 2.Nf3 Nc6 3.Bc4 on a USB board whose clock messages all come late (White
/// holds a pawn from board B), Black sets the bishop on c5 and presses; White drops a pawn
/// on d4 at once and presses, and Black's hand goes to the knight on c6 to take it, the
/// knight lifted first. Black's press message comes up to a second after the lever, so
/// `Bc5` may be judged with the drop already shown and gone again and c6 empty: the knight
/// is in Black's hand for the capture, not missing. At 40 offsets the record must read
/// `Bc5 P@d4 Nxd4 d3` with no alert, and c6 must have shown empty before `Bc5` was judged
/// at least 4 times (else the test proves nothing).
#[test]
fn a_piece_lifted_to_take_a_drop_before_the_late_press_is_judged_is_not_missing() {
    let mut before_judged = 0;
    for offset in offsets(40) {
        let mut s = Scene::late_clock_a("uscf-bughouse");
        s.black_takes_a_pawn_on_b();
        s.mv(A, "e2", "e4", 'P')
            .mv(A, "e7", "e5", 'p')
            .mv(A, "g1", "f3", 'N')
            .mv(A, "b8", "c6", 'n')
            .mv(A, "f1", "c4", 'B');
        s.wait(offset * 23)
            .lift(A, "f8")
            .wait(150)
            .place(A, "c5", 'b')
            .wait(100);
        let pressed = s.t;
        s.press(A, Black)
            .wait(350)
            .place(A, "d4", 'P')
            .wait(100)
            .press(A, White)
            .wait(150)
            .lift(A, "c6")
            .wait(150)
            .lift(A, "d4")
            .wait(200)
            .place(A, "d4", 'n')
            .wait(100)
            .press(A, Black)
            .wait(2500);
        s.mv(A, "d2", "d3", 'P');
        let p = s.run(3000);
        // Black's press sets White's side running: White's clock is on the left.
        let message = s.running_reported(A, pressed, ClockSide::Left);
        let judged = message.map(|m| s.judged_while(A, m, s.timing[0].settle_ms, ClockSide::Left));
        let lifted = s.first_seen(A, "c6", pressed, false);
        if let (Some(j), Some(l)) = (judged, lifted)
            && l < j
        {
            before_judged += 1;
        }
        assert_eq!(
            p.sans(A)[5..],
            ["Bc5", "P@d4", "Nxd4", "d3"],
            "offset {offset}, message {message:?}, c6 lifted {lifted:?}\n{}",
            p.dump()
        );
        assert!(p.raised.is_empty(), "offset {offset}\n{}", p.dump());
    }
    assert_happened(before_judged, 4, "c6 showed empty before Bc5 was judged");
}
