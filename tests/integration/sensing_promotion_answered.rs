//! A promotion answered at once: the reply is under way, or done, before the promoting
//! press is judged. What the promoted piece is, and whether the mover's pieces are where
//! they belong, is read from before the reply touched them.

#![allow(clippy::unwrap_used)]

use crate::common::scene::{Scene, k, pc};
use shakmaty::Color::{Black, White};
use tandem::BoardId::A;
use tandem::Millis;
use tandem::arbiter::AlertKind::Promotion;
use tandem::sim::emulator::EmulatorConfig;

/// Board A on Bluetooth (a pass of the scan takes up to half a second) and turned
/// round, so a pass reads f7 shortly before g8: White's h-pawn on h7, Black's king on
/// f7 beside g8 (1.h4 g5 2.hxg5 f5 3.g6 a6 4.gxh7 Kf7).
fn king_beside_the_promotion() -> Scene {
    let mut s = Scene::bluetooth_a_turned_round("uscf-bughouse");
    s.mv(A, "h2", "h4", 'P').mv(A, "g7", "g5", 'p');
    s.take(A, "h4", "g5", 'P').mv(A, "f7", "f5", 'p');
    s.mv(A, "g5", "g6", 'P').mv(A, "a7", "a6", 'p');
    s.take(A, "g6", "h7", 'P').mv(A, "e8", "f7", 'k');
    s
}

#[test]
fn a_spare_queen_taken_before_the_press_is_judged_is_still_a_queen() {
    // White takes on g8 and sets a spare queen there, checking the king, which takes her
    // at once: its lift from f7 reads before the queen does (f7 comes first in a pass of
    // the scan), and its landing on g8 before the press is judged (the board settled).
    // The queen was shown, so no question is asked, and she stood where she belonged
    // until the king took her (no "missing" queen).
    let queen = Some(pc('Q'));
    let king = Some(pc('k'));
    let mut relevant = 0;
    for phase in 0..24 {
        let mut s = king_beside_the_promotion();
        s.wait(phase * 23);
        s.lift(A, "h7").wait(200).lift(A, "g8").wait(200);
        let set = s.t;
        s.place(A, "g8", 'Q').wait(100).press(A, White);
        let pressed = s.t;
        s.wait(30).lift(A, "f7").wait(200 + phase % 4 * 50);
        s.lift(A, "g8")
            .place(A, "g8", 'k')
            .wait(300)
            .press(A, Black);
        s.wait(1500);
        let p = s.run(3000);
        // The physics: f7 read empty, then the queen on g8, then the king, the king
        // within a settling time of White's press message (before it could be judged).
        let g8 = s.seen(A, "g8");
        let shown = g8.iter().find(|&&(t, q)| t >= set && q == queen);
        let taken = g8.iter().find(|&&(t, q)| t >= set && q == king);
        let lifted = s
            .seen(A, "f7")
            .into_iter()
            .find(|&(t, q)| t >= set && q.is_none());
        let message = s.clock_seen(A).into_iter().find(|&(t, _)| t > pressed);
        let (Some(&(shown, _)), Some(&(taken, _)), Some((lifted, _)), Some((message, _))) =
            (shown, taken, lifted, message)
        else {
            continue;
        };
        if lifted > shown || taken > message + 500 {
            continue;
        }
        relevant += 1;
        let at = format!("{phase}: g8 {g8:?}, f7 lifted {lifted}, clock {message}");
        assert_eq!(p.sans(A)[8..], ["hxg8=Q+", "Kxg8"], "{at}\n{}", p.dump());
        assert_eq!(p.alerts(), [], "{at}\n{}", p.dump());
    }
    assert!(
        relevant >= 4,
        "only {relevant} runs of the king read in time"
    );
}

#[test]
fn a_victim_lifted_before_a_lying_promoted_pawn_shows_is_not_missing() {
    // White takes on g8 and lays the pawn on its side at once: the board reads nothing
    // there, now and then a pawn for a pass (a lying pawn's flicker). Black lifts the
    // rook on h1 at once after White's press, to take it with the rook from h8, before
    // White's press message reaches the PC and before g8 first reads a pawn. The rook
    // was lifted as a victim of the reply, which began after the pawn was down (when h7
    // and g8 were both clear): no "missing" rook.
    let mut relevant = 0;
    for phase in 0..24 {
        let mut s = Scene::with_a(
            "uscf-bughouse",
            EmulatorConfig {
                lying_pawn_flicker: 0.5,
                ..EmulatorConfig::default()
            },
        );
        s.pawn_on_the_seventh();
        s.wait(phase * 23);
        s.lift(A, "h7").wait(300).lift(A, "g8").wait(300);
        let laid = s.t;
        s.place(A, "g8", 'P')
            .lay_down(A, "g8")
            .wait(200)
            .press(A, White);
        let pressed = s.t;
        s.wait(40 + phase % 4 * 30)
            .lift(A, "h1")
            .wait(300)
            .lift(A, "h8");
        s.wait(300).place(A, "h1", 'r').wait(300).press(A, Black);
        s.wait(1500);
        let p = s.run(3000);
        // The physics: h1 read empty before White's press message, and g8 first read a
        // pawn more than a pass (250 ms) after that.
        let h1 = s.seen(A, "h1");
        let lifted = h1.iter().find(|&&(t, q)| t >= laid && q.is_none());
        let pawn = s
            .seen(A, "g8")
            .into_iter()
            .find(|&(t, q)| t >= laid && q == Some(pc('P')));
        let message = s.clock_seen(A).into_iter().find(|&(t, _)| t > pressed);
        let (Some(&(lifted, _)), Some((pawn, _)), Some((message, _))) = (lifted, pawn, message)
        else {
            continue;
        };
        if lifted >= message || pawn <= lifted + 250 || pawn > message + 500 {
            continue;
        }
        relevant += 1;
        let at = format!("{phase}: h1 lifted {lifted}, g8 pawn {pawn}, clock {message}");
        assert_eq!(p.sans(A)[8..], ["hxg8=Q", "Rxh1"], "{at}\n{}", p.dump());
        assert_eq!(p.alerts(), [k(Promotion, Some("g8"))], "{at}\n{}", p.dump());
    }
    assert!(
        relevant >= 4,
        "only {relevant} runs of the victim lifted early"
    );
}

/// Board A after `black_pawn_on_g2`, `offset` × 50 ms into the clock's second: Black's
/// pawn takes on f1 and `token` is set there, pressed, and White answers Ng1-f3 at once,
/// pressed. With the moments just before each press.
fn gxf1_answered_nf3(offset: Millis, token: char) -> (Scene, Millis, Millis) {
    let mut s = Scene::new("uscf-bughouse");
    s.black_pawn_on_g2();
    s.wait(offset * 50);
    s.lift(A, "g2")
        .wait(200)
        .lift(A, "f1")
        .wait(200)
        .place(A, "f1", token)
        .wait(60);
    let first = s.t;
    s.press(A, Black)
        .wait(100)
        .lift(A, "g1")
        .wait(200)
        .place(A, "f3", 'N')
        .wait(60);
    let last = s.t;
    s.press(A, White).wait(8000);
    (s, first, last)
}

/// Black's g2 pawn takes on f1 and becomes a knight (a spare knight set there), and White
/// answers Ng1-f3 at once, both pressed, the clock showing Black's press late or never. A
/// queen on f1 would check the king beside it, and Nf3 would then be illegal: read as the
/// knight the board shows, the pair is `gxf1=N Nf3`, with no alert. At 40 offsets of the
/// clock's second, the clock hid Black's press at least 4 times.
#[test]
fn an_underpromotion_answered_before_the_clock_showed_it_is_read_with_its_piece() {
    use crate::common::scene::offsets;
    use tandem::dgt::ClockSide;
    let mut unseen = 0;
    for offset in offsets(40) {
        let (mut s, first, last) = gxf1_answered_nf3(offset, 'n');
        let p = s.run(3000);
        // White's clock is on the left: Black's press shows as it starting to run.
        let shown = s
            .clock_seen(A)
            .iter()
            .any(|&(t, running)| t > first && t <= last && running == Some(ClockSide::Left));
        if !shown {
            unseen += 1;
        }
        assert_eq!(
            p.sans(A),
            [
                "a3", "h5", "a4", "h4", "a5", "h3", "a6", "hxg2", "axb7", "gxf1=N", "Nf3"
            ],
            "offset {offset}, shown {shown}\n{}",
            p.dump()
        );
        assert!(p.raised.is_empty(), "offset {offset}\n{}", p.dump());
    }
    assert!(unseen >= 4, "only {unseen} presses the clock never showed");
}

/// The same with the pawn left upright on f1 (no spare piece: nothing names the piece).
/// White's Nf3 is legal only if f1 is no queen (nor a rook, which would check along the
/// rank). Where the pair is read together (the clock never showed Black's press), it is
/// read with a knight on f1, the likeliest piece the reply allows, and the TD asked as for
/// any unnamed promotion: `gxf1=N Nf3`, one question, naming the knight recorded. Where
/// the promotion was read alone first, it is recorded as a queen, and Nf3's illegality
/// waits for the TD's answer, as before (`sensing_promotion_question`): one question,
/// naming the queen. At 40 offsets of
/// the clock's second, the pair was read together at least 4 times.
#[test]
fn an_upright_pawn_promotion_answered_before_the_clock_showed_it_is_read_as_the_reply_allows() {
    use crate::common::scene::offsets;
    use tandem::arbiter::AlertKind::Promotion;
    let mut together = 0;
    for offset in offsets(40) {
        let (mut s, _, _) = gxf1_answered_nf3(offset, 'p');
        let p = s.run(3000);
        let read_together = p.sans(A).get(9).is_some_and(|m| m == "gxf1=N");
        // Against a queen, the reply is written as the illegal move it would be.
        let (promotion, reply, piece) = if read_together {
            together += 1;
            ("gxf1=N", "Nf3", "knight")
        } else {
            ("gxf1=Q+", "Ng1f3", "queen")
        };
        assert_eq!(
            p.sans(A),
            [
                "a3", "h5", "a4", "h4", "a5", "h3", "a6", "hxg2", "axb7", promotion, reply
            ],
            "offset {offset}\n{}",
            p.dump()
        );
        assert_eq!(
            p.alerts(),
            [k(Promotion, Some("f1"))],
            "offset {offset}\n{}",
            p.dump()
        );
        assert!(
            p.raised[0]
                .detail
                .contains(&format!("recorded as a {piece}")),
            "offset {offset}\n{}",
            p.dump()
        );
    }
    assert!(
        together >= 4,
        "the pair read together only {together} times"
    );
}
