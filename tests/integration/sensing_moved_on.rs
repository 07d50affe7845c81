//! A piece moved, the opponent's reply, and the same piece moved on, while the first
//! press is still being judged. On a Bluetooth board the clock's message may reach the PC
//! a second after the lever, and Tandem judges a scan after the message: by then the reply
//! has landed and the piece may already stand on its next square. A piece set down and
//! corrected before the press looks the same on the board, but a correction comes before
//! the press and the reply after it, and the board reports each within a scan: a piece
//! that first showed on its new square more than a scan after the reply's first report
//! moved on after the reply. It is the mover's next move, not this one.

#![allow(clippy::unwrap_used)]

use crate::common::scene::{Scene, assert_happened, offsets};
use shakmaty::Color::{Black, White};
use tandem::BoardId::{A, B};
use tandem::Millis;
use tandem::dgt::{ClockSide, Orientation};
use tandem::sim::emulator::EmulatorConfig;

/// After 1.e4 e5 on a Bluetooth board, White plays Qe2 and presses, Black answers Nc6
/// and presses, and White's queen goes on along the same diagonal to h5 (a slide d1–h5
/// through e2 would end where it does) and White presses. At 40 offsets of the scan and
/// the clock: each time the record must read the three moves with no alert, and the
/// queen must have shown on h5 before the first press was judged at least 4 times (else
/// the test proves nothing).
#[test]
fn a_queen_moved_on_after_the_reply_while_its_first_press_waits_is_two_moves() {
    moved_on_after_the_reply(
        e4_e5,
        |s| {
            s.lift(A, "d1").wait(200).place(A, "e2", 'Q').wait(100);
        },
        nc6,
        |s| {
            s.lift(A, "e2").wait(150).place(A, "h5", 'Q');
        },
        "h5",
        &["e4", "e5", "Qe2", "Nc6", "Qh5", "g6"],
    );
}

/// The same with a capture: the knight goes g1–f3, and after the reply on to take the
/// pawn on e5, set straight onto it (a knight from g1 cannot reach e5: read as one move,
/// it would be an illegal one). A guard: this one was read right before too.
#[test]
fn a_knight_moved_on_to_capture_after_the_reply_while_its_first_press_waits_is_two_moves() {
    moved_on_after_the_reply(
        e4_e5,
        |s| {
            s.lift(A, "g1").wait(200).place(A, "f3", 'N').wait(100);
        },
        nc6,
        |s| {
            s.lift(A, "f3").wait(150).place(A, "e5", 'N');
        },
        "e5",
        &["e4", "e5", "Nf3", "Nc6", "Nxe5", "g6"],
    );
}

/// After 1.e3 Nf6 2.Qh5 Ng4 on a Bluetooth board, White's queen goes along the fifth
/// rank to a5 and White presses, Black answers Ng4-e5 and presses, and the queen comes
/// back along the rank to take the knight. Read from h5 at once, the board's last picture
/// is one legal move, `Qe5` with Black's knight in hand; but the queen stood on a5, off
/// that way, while the knight was lifted and set down: a5 was its move, pressed and
/// answered. At 40 offsets: each time the record must read `Qa5 Ne5 Qxe5` with no alert,
/// and the queen must have shown on e5 before the first press was judged at least 4
/// times.
#[test]
fn a_queen_stopped_off_its_way_then_taking_the_reply_is_two_moves() {
    moved_on_after_the_reply(
        |s| {
            s.mv(A, "e2", "e3", 'P')
                .mv(A, "g8", "f6", 'n')
                .mv(A, "d1", "h5", 'Q')
                .mv(A, "f6", "g4", 'n');
        },
        |s| {
            s.lift(A, "h5").wait(200).place(A, "a5", 'Q').wait(100);
        },
        |s| {
            s.lift(A, "g4").wait(500).place(A, "e5", 'n');
        },
        |s| {
            s.lift(A, "a5").wait(150).place(A, "e5", 'Q');
        },
        "e5",
        &["e3", "Nf6", "Qh5", "Ng4", "Qa5", "Ne5", "Qxe5", "g6"],
    );
}

/// After 1.d4 d5 on a Bluetooth board, White's bishop goes c1–f4 and White presses,
/// Black answers h6 and presses, and the bishop goes on along the same diagonal to take
/// the pawn. Read from c1 at once, the board's last picture is one legal move, `Bh6`
/// (a slide through f4), with Black's h-pawn missing; but Black's pawn stood on h6
/// before the bishop came: f4 was the move, pressed and answered. At 40 offsets: each
/// time the record must read `Bf4 h6 Bxh6` with no alert, and the bishop must have shown
/// on h6 before the first press was judged at least 4 times.
#[test]
fn a_bishop_stopped_on_its_way_then_taking_the_reply_is_two_moves() {
    moved_on_after_the_reply(
        |s| {
            s.mv(A, "d2", "d4", 'P').mv(A, "d7", "d5", 'p');
        },
        |s| {
            s.lift(A, "c1").wait(200).place(A, "f4", 'B').wait(100);
        },
        |s| {
            s.lift(A, "h7").wait(300).place(A, "h6", 'p');
        },
        |s| {
            s.lift(A, "f4").wait(150).place(A, "h6", 'B');
        },
        "h6",
        &["d4", "d5", "Bf4", "h6", "Bxh6", "g6"],
    );
}

fn e4_e5(s: &mut Scene) {
    s.mv(A, "e2", "e4", 'P').mv(A, "e7", "e5", 'p');
}

fn nc6(s: &mut Scene) {
    s.lift(A, "b8").wait(500).place(A, "c6", 'n');
}

/// `opening` on a Bluetooth board A, then `first` pressed, Black's `reply` pressed, 300
/// ms, `then` (the same piece moved on, landing on `landing`) pressed, and Black's g6.
/// The piece moves on long enough after the reply began that the board reports its new
/// square more than a scan after the reply's first report, whatever the scan's phase.
fn moved_on_after_the_reply(
    opening: fn(&mut Scene),
    first: fn(&mut Scene),
    reply: fn(&mut Scene),
    then: fn(&mut Scene),
    landing: &str,
    want: &[&str],
) {
    let settle: Millis = 550;
    let mut before_judged = 0;
    for offset in offsets(40) {
        let mut s = late_clock_bluetooth_a();
        opening(&mut s);
        s.wait(offset * 37);
        first(&mut s);
        let pressed = s.t;
        s.press(A, White).wait(100);
        reply(&mut s);
        s.wait(100).press(A, Black).wait(300);
        then(&mut s);
        s.wait(200)
            .press(A, White)
            .wait(300)
            .lift(A, "g7")
            .wait(150)
            .place(A, "g6", 'p')
            .wait(60)
            .press(A, Black)
            .wait(3000);
        let p = s.run(3000);
        let message = white_press_message(&s, pressed);
        let judged = message.map(|m| judged_at(&s, m, settle));
        let moved_on = s
            .seen(A, landing)
            .into_iter()
            .find(|&(t, piece)| t > pressed && piece.is_some_and(|p| p.color == White))
            .map(|(t, _)| t);
        if let (Some(j), Some(l)) = (judged, moved_on)
            && l < j
        {
            before_judged += 1;
        }
        p.assert_read_quietly(
            A,
            want,
            &format!("offset {offset}, message {message:?}, moved on {moved_on:?}"),
        );
    }
    assert_happened(
        before_judged,
        4,
        "the piece moved on before its first press was judged",
    );
}

/// The message of White's press on board A, the lever pulled at `pressed`: the clock's
/// first report of Black's side running (White's clock is on the left) after it.
fn white_press_message(s: &Scene, pressed: Millis) -> Option<Millis> {
    s.running_reported(A, pressed, ClockSide::Right)
}

/// When White's press whose message came at `message` is judged: `settle` after it, or at
/// the reply's press message (Black's side stops running), if that comes first.
fn judged_at(s: &Scene, message: Millis, settle: Millis) -> Millis {
    s.judged_while(A, message, settle, ClockSide::Right)
}

/// Board A a Bluetooth board whose clock messages always come late, in US Chess bughouse.
fn late_clock_bluetooth_a() -> Scene {
    Scene::late_clock_bluetooth_a_facing("uscf-bughouse", Orientation::Normal)
}

/// The same board turned round (Black sits on the connector side).
fn late_clock_bluetooth_a_turned_round() -> Scene {
    Scene::late_clock_bluetooth_a_turned_round("uscf-bughouse")
}

/// After 1.e4 e5 2.d3 on a Bluetooth board whose clock messages come late, Black sets the
/// bishop on e7 and presses, White's hand is on the knight at once (g1 reported empty
/// before the scan reached e7), White plays Nf3 and presses, and Black lifts the bishop
/// again before White's press message has come, holding it a while before setting it on
/// c5. So no moment showed Be7 alone: White's knight was already off g1. At 40 offsets:
/// each time the record must read `Be7 Nf3 Bc5` with no alert (not the bishop's first
/// move to wherever it may go in hand), and e7 must have shown only after g1 was lifted
/// at least 4 times (else the test proves nothing).
#[test]
fn a_move_shown_only_after_the_reply_began_then_moved_on_is_the_move_shown() {
    let mut reply_first = 0;
    for offset in 0..40 {
        let mut s = late_clock_bluetooth_a();
        s.mv(A, "e2", "e4", 'P')
            .mv(A, "e7", "e5", 'p')
            .mv(A, "d2", "d3", 'P');
        s.wait(offset * 37);
        let start = s.t;
        s.lift(A, "f8")
            .wait(150)
            .place(A, "e7", 'b')
            .wait(40)
            .press(A, Black)
            .wait(60)
            .lift(A, "g1")
            .wait(300)
            .place(A, "f3", 'N')
            .wait(40)
            .press(A, White)
            .wait(150)
            .lift(A, "e7")
            .wait(900)
            .place(A, "c5", 'b')
            .wait(40)
            .press(A, Black)
            .wait(1500);
        s.mv(A, "a2", "a3", 'P');
        let p = s.run(3000);
        let first_after = |sq: &str, want: fn(Option<char>) -> bool| {
            s.seen(A, sq)
                .into_iter()
                .find(|&(t, piece)| t > start && want(piece.map(|p| p.char())))
                .map(|(t, _)| t)
        };
        if let (Some(e7), Some(g1)) = (
            first_after("e7", |p| p == Some('b')),
            first_after("g1", |p| p.is_none()),
        ) && g1 < e7
        {
            reply_first += 1;
        }
        p.assert_read_quietly(
            A,
            &["e4", "e5", "d3", "Be7", "Nf3", "Bc5", "a3"],
            &format!("offset {offset}"),
        );
    }
    assert!(
        reply_first >= 4,
        "the bishop showed on e7 after the knight's lift only {reply_first} times"
    );
}

/// After 1.g3 a6 2.d3 a5 3.Qd2 h6 4.e4 h5 on a USB board whose clock messages come late,
/// White plays f3 and presses, Black answers Nc6 at once and presses, and White's queen
/// slides d2–g2 along the second rank, stopping a moment on e2, and White presses. The
/// first press's message comes after the queen showed on e2: read then, f3 Nc6 Qe2 are
/// three plies that landed in order before it. But the queen goes on from e2 before that
/// press is judged, and the reply's press and White's come after: e2 was a stop on the
/// queen's way, the press was f3's alone. At 40 offsets of the scan and the clock: each
/// time the record must read `f3 Nc6 Qg2` with no alert, and the queen must have shown on
/// e2 before the first press's message and gone on before it was judged at least 4 times.
#[test]
fn a_slide_stopping_on_a_square_before_a_late_press_message_is_no_move_there() {
    let mut relevant = 0;
    for offset in 0..40 {
        let mut s = Scene::with_a(
            "uscf-blitz",
            EmulatorConfig {
                clock_late_chance: 1.0,
                clock_late_ms: (500, 700),
                ..EmulatorConfig::default()
            },
        );
        s.mv(A, "g2", "g3", 'P')
            .mv(A, "a7", "a6", 'p')
            .mv(A, "d2", "d3", 'P')
            .mv(A, "a6", "a5", 'p')
            .mv(A, "d1", "d2", 'Q')
            .mv(A, "h7", "h6", 'p')
            .mv(A, "e2", "e4", 'P')
            .mv(A, "h6", "h5", 'p');
        s.wait(offset * 37);
        s.lift(A, "f2").wait(300).place(A, "f3", 'P').wait(100);
        let pressed = s.t;
        s.press(A, White)
            .wait(150)
            .lift(A, "b8")
            .wait(300)
            .place(A, "c6", 'n')
            .wait(100)
            .press(A, Black)
            .wait(100)
            .lift(A, "d2")
            .wait(100)
            .place(A, "e2", 'Q')
            .wait(150 + (offset % 5) * 30)
            .lift(A, "e2")
            .wait(100)
            .place(A, "g2", 'Q')
            .wait(150)
            .press(A, White)
            .wait(3000);
        let p = s.run(3000);
        // The first press's message; judged a scan and a little on.
        let message = white_press_message(&s, pressed).unwrap();
        let e2 = s.seen(A, "e2");
        let shown = e2
            .iter()
            .find(|(_, piece)| piece.is_some())
            .map(|&(t, _)| t);
        let gone_on = e2
            .iter()
            .rfind(|(_, piece)| piece.is_none())
            .map(|&(t, _)| t);
        if let (Some(shown), Some(gone_on)) = (shown, gone_on)
            && shown <= message
            && gone_on < message + 300
        {
            relevant += 1;
        }
        p.assert_read_quietly(
            A,
            &[
                "g3", "a6", "d3", "a5", "Qd2", "h6", "e4", "h5", "f3", "Nc6", "Qg2",
            ],
            &format!("offset {offset}: message {message}, e2 {e2:?}"),
        );
    }
    assert!(
        relevant >= 4,
        "the queen showed on e2 before the message and went on before the judgement only {relevant} times"
    );
}

/// After 1.e4 d6 2.Qe2 a6 3.Qc4 a5 on a Bluetooth board whose clock messages come late,
/// White's queen slides c4–e6, stopping a moment on d5, and White presses; Black takes it
/// at once, lifting the queen off e6 before the scan showed it there, and hands it to the
/// partner before the bishop goes to e6: Bxe6. The board showed the queen on d5, then d5
/// empty, and never the queen on e6: until Black's bishop lifts, the queen is nowhere. It
/// is no missing queen: the stop was on its way, and its end was taken. At 40 offsets: the record must read `Qe6 Bxe6` with no alert each time, and the
/// queen must have shown on d5 and never on e6 at least 4 times.
#[test]
fn a_slide_whose_end_was_taken_at_once_leaves_no_piece_missing_from_its_stop() {
    let mut relevant = 0;
    for offset in 0..40 {
        let mut s = late_clock_bluetooth_a();
        s.mv(A, "e2", "e4", 'P')
            .mv(A, "d7", "d6", 'p')
            .mv(A, "d1", "e2", 'Q')
            .mv(A, "a7", "a6", 'p')
            .mv(A, "e2", "c4", 'Q')
            .mv(A, "a6", "a5", 'p');
        s.wait(offset * 37);
        let start = s.t;
        s.lift(A, "c4")
            .wait(100)
            .place(A, "d5", 'Q')
            .wait(300 + (offset % 4) * 60)
            .lift(A, "d5")
            .wait(100)
            .place(A, "e6", 'Q')
            .wait(60)
            .press(A, White)
            .wait(250)
            .lift(A, "e6")
            .wait(900)
            .lift(A, "c8")
            .wait(250)
            .place(A, "e6", 'b')
            .wait(200)
            .press(A, Black)
            .wait(4000);
        let p = s.run(3000);
        let queen_on = |sq: &str| {
            s.seen(A, sq)
                .into_iter()
                .any(|(t, piece)| t > start && piece.is_some_and(|p| p.char() == 'Q'))
        };
        if queen_on("d5") && !queen_on("e6") {
            relevant += 1;
        }
        p.assert_read_quietly(
            A,
            &["e4", "d6", "Qe2", "a6", "Qc4", "a5", "Qe6", "Bxe6"],
            &format!("offset {offset}"),
        );
    }
    assert!(
        relevant >= 4,
        "the queen showed on d5 and never on e6 only {relevant} times"
    );
}

/// After 1.Nf3 a6 2.e3 a5 3.Be2 h6 on a Bluetooth board, White's rook goes h1–f1 and the
/// lever follows at once; Black answers Nc6 at once and presses; and White's rook, lifted
/// as soon as the knight is down, goes back to g1 and White presses. By the time the first
/// press is judged the board may show the rook on g1 and the knight on c6: `Rg1` and the
/// reply under way, unless the rook was still on f1 at the press. It was if the scan
/// showed it there less than a lever's reach (60 ms) before the press message came, or
/// less than a lever, a glance and a hand's move (180 ms) before the knight's lift showed.
/// At 40 offsets: the record must read `Rf1 Nc6 Rg1` with no alert each time, and the
/// rook must have shown on g1 before the press was judged, with one of those two facts to
/// tell, at least 4 times (the knight's lift, on this board's scan; the press message, on
/// a sweep's setup replayed in `sensing_property::setups_that_once_failed`).
#[test]
fn a_piece_shown_on_its_landing_just_before_the_press_then_moved_back_is_the_next_move() {
    let settle: Millis = 550;
    let mut relevant = 0;
    for offset in 0..40 {
        let mut s = Scene::bluetooth_a("uscf-bughouse");
        s.mv(A, "g1", "f3", 'N')
            .mv(A, "a7", "a6", 'p')
            .mv(A, "e2", "e3", 'P')
            .mv(A, "a6", "a5", 'p')
            .mv(A, "f1", "e2", 'B')
            .mv(A, "h7", "h6", 'p');
        s.wait(offset * 37);
        s.lift(A, "h1").wait(150).place(A, "f1", 'R').wait(60);
        let pressed = s.t;
        s.press(A, White)
            .wait(120)
            .lift(A, "b8")
            .wait(200)
            .place(A, "c6", 'n')
            .wait(80)
            .press(A, Black)
            .wait(100)
            .lift(A, "f1")
            .wait(100)
            .place(A, "g1", 'R')
            .wait(300)
            .press(A, White)
            .wait(2000);
        s.mv(A, "a5", "a4", 'p');
        let p = s.run(3000);
        let message = white_press_message(&s, pressed).unwrap();
        let judged = judged_at(&s, message, settle);
        let first = |sq: &str, piece: Option<char>| {
            s.seen(A, sq)
                .into_iter()
                .find(|&(t, p)| t + 300 > pressed && p.map(|p| p.char()) == piece)
                .map(|(t, _)| t)
        };
        if let (Some(f1), Some(g1), Some(b8)) = (
            first("f1", Some('R')),
            first("g1", Some('R')),
            first("b8", None),
        ) && g1 < judged
            && (f1 + 60 > message || b8 < f1 + 180)
        {
            relevant += 1;
        }
        p.assert_read_quietly(
            A,
            &[
                "Nf3", "a6", "e3", "a5", "Be2", "h6", "Rf1", "Nc6", "Rg1", "a4",
            ],
            &format!(
                "offset {offset}: message {message}, f1 {:?}, g1 {:?}, b8 {:?}",
                s.seen(A, "f1"),
                s.seen(A, "g1"),
                s.seen(A, "b8")
            ),
        );
    }
    assert!(
        relevant >= 4,
        "the rook showed on g1 before the judgement, its stand on f1 at the press told, only {relevant} times"
    );
}

/// After 1.h3 a5 2.h4 a4 on a Bluetooth board whose clock messages come late, White's
/// b-pawn goes two squares, dragged over b3 (the scan may see it there), and White
/// presses; Black's hand is on the a-pawn at once and takes en passant: a4 lifted, the
/// pawn set on b3, b4's pawn lifted, press. The scan may report b4's pawn only after
/// a4's lift, so `b4` is never shown alone, while `b3` was: then it is the pawn gone on
/// (it left b3 before the reply's lift), and `b3 axb3` would leave the same board with
/// the record one square wrong. At 40 offsets: each time the record must read
/// `b4 axb3` with no alert, and the pawn must have shown on b3 and then on b4 only after
/// a4's lift at least 4 times (else the test proves nothing).
#[test]
fn a_double_step_shown_on_its_way_and_landed_only_beside_the_en_passant_lift() {
    let mut relevant = 0;
    for offset in 0..40 {
        let mut s = late_clock_bluetooth_a();
        s.mv(A, "h2", "h3", 'P')
            .mv(A, "a7", "a5", 'p')
            .mv(A, "h3", "h4", 'P')
            .mv(A, "a5", "a4", 'p');
        s.wait(offset * 37);
        let pressed_from = s.t;
        s.lift(A, "b2")
            .wait(60)
            .place(A, "b3", 'P')
            .wait(380)
            .lift(A, "b3")
            .wait(120)
            .place(A, "b4", 'P')
            .wait(60)
            .press(A, White)
            .wait(260)
            .lift(A, "a4")
            .wait(150)
            .place(A, "b3", 'p')
            .wait(120)
            .lift(A, "b4")
            .wait(200)
            .press(A, Black)
            .wait(2000);
        s.mv(A, "g2", "g3", 'P');
        let p = s.run(3000);
        let first = |sq: &str, piece: Option<char>| {
            s.seen(A, sq)
                .into_iter()
                .find(|&(t, p)| t > pressed_from && p.map(|p| p.char()) == piece)
                .map(|(t, _)| t)
        };
        if let (Some(b3), Some(b4), Some(a4)) = (
            first("b3", Some('P')),
            first("b4", Some('P')),
            first("a4", None),
        ) && b3 < a4
            && a4 < b4
        {
            relevant += 1;
        }
        p.assert_read_quietly(
            A,
            &["h3", "a5", "h4", "a4", "b4", "axb3", "g3"],
            &format!("offset {offset}"),
        );
    }
    assert!(
        relevant >= 4,
        "the pawn showed on b3, then on b4 after a4's lift, only {relevant} times"
    );
}

/// Board B: 1.e4 d5 2.exd5 Qxd5 3.Bc4 Qxc4 4.d3 Qxc2 5.Qxc2: White on board A holds
/// pawns and a bishop, Black a pawn and a queen. On board A (a Bluetooth board turned
/// round, whose clock messages come late) 1.e3 a6
/// 2.Be2 h6, then White's bishop goes e2–d3 and White presses, Black drops a pawn on b4 at
/// once and presses, and White's bishop goes back the way it came, through e2 to f1, and
/// White presses. When the first press is judged the board may show the bishop back on
/// e2 and d3 empty: the bishop's next move under way, not "a bishop dropped on d3, the
/// e2 bishop lifted and set back" (which explains that board only a little better, and
/// then left a bishop missing from d3 and an unexplained bishop drop), whatever deeper
/// readings end on the same board as the move (the bishop out and back taking a queen
/// dropped on d3). At 40 offsets: the
/// record reads `Bd3 P@b4 Bf1` with no alert each time, and the first press was judged
/// while the bishop stood on e2 again, not yet on f1, at least 4 times (else the test
/// proves nothing).
#[test]
fn a_bishop_moved_on_back_through_its_square_after_a_dropped_reply_is_two_moves() {
    let settle: Millis = 550;
    let mut before_judged = 0;
    for offset in 0..40 {
        // Turned round, the scan passes e2 before d3: the bishop shows back on e2 while
        // d3 still reads it.
        let mut s = late_clock_bluetooth_a_turned_round();
        s.mv(B, "e2", "e4", 'P').mv(B, "d7", "d5", 'p');
        s.take(B, "e4", "d5", 'P');
        s.take(B, "d8", "d5", 'q');
        s.mv(B, "f1", "c4", 'B');
        s.take(B, "d5", "c4", 'q');
        s.mv(B, "d2", "d3", 'P');
        s.take(B, "c4", "c2", 'q');
        s.take(B, "d1", "c2", 'Q');
        s.mv(A, "e2", "e3", 'P')
            .mv(A, "a7", "a6", 'p')
            .mv(A, "f1", "e2", 'B')
            .mv(A, "h7", "h6", 'p');
        s.wait(offset * 37);
        s.lift(A, "e2").wait(200).place(A, "d3", 'B').wait(150);
        let pressed = s.t;
        s.press(A, White)
            .wait(350)
            .place(A, "b4", 'p')
            .wait(100)
            .press(A, Black)
            .wait(250)
            .lift(A, "d3")
            .wait(100)
            .place(A, "e2", 'B')
            .wait(400)
            .lift(A, "e2")
            .wait(100)
            .place(A, "f1", 'B')
            .wait(80)
            .press(A, White)
            .wait(1500);
        s.mv(A, "h6", "h5", 'p');
        let p = s.run(3000);
        let message = white_press_message(&s, pressed);
        let judged = message.map(|m| judged_at(&s, m, settle));
        let back = s
            .seen(A, "e2")
            .into_iter()
            .find(|&(t, piece)| t > pressed && piece.is_some_and(|p| p.color == White))
            .map(|(t, _)| t);
        let on_f1 = s
            .seen(A, "f1")
            .into_iter()
            .find(|&(t, piece)| t > pressed && piece.is_some_and(|p| p.color == White))
            .map(|(t, _)| t);
        if let (Some(j), Some(b), Some(f)) = (judged, back, on_f1)
            && b < j
            && j < f
        {
            before_judged += 1;
        }
        p.assert_read_quietly(
            A,
            &["e3", "a6", "Be2", "h6", "Bd3", "P@b4", "Bf1", "h5"],
            &format!(
                "offset {offset}, message {message:?}, back on e2 {back:?}, judged {judged:?}"
            ),
        );
    }
    assert!(
        before_judged >= 4,
        "the first press was judged with the bishop back on e2 only {before_judged} times"
    );
}

/// After 1.d4 Nf6 on a Bluetooth board turned round, whose clock messages come late,
/// White's bishop stops on f4 and is pressed, Black's knight is lifted at once and set on
/// e4 0.4 s later and pressed, and White's bishop slides on 0.1 s after that, through g5
/// (resting there 0.45 s) to h6. The first press is judged a scan after its late message:
/// by then g5 may show, and `Bg5` (a slide c1–g5 through f4) fits the board as well as
/// `Bf4` with the next move begun. But the reply's first lift comes a hand's move after
/// the move it answers landed, and the board showed the bishop still on f4 later than a
/// hand's move before it reported f6 empty (turned round, it scans f6 16 squares after
/// f4): the bishop stopped on f4. At 40 offsets: each time the record must read `Bf4 Ne4
/// Bh6` with no alert, and g5 must have shown before the first press was judged at least
/// 4 times (else the test proves nothing).
#[test]
fn a_bishop_that_stood_as_the_fast_reply_began_then_slid_on_stopped_where_it_stood() {
    let settle: Millis = 550;
    let mut before_judged = 0;
    for offset in offsets(40) {
        let mut s = late_clock_bluetooth_a_turned_round();
        s.mv(A, "d2", "d4", 'P').mv(A, "g8", "f6", 'n');
        s.wait(offset * 37);
        s.lift(A, "c1").wait(200).place(A, "f4", 'B').wait(100);
        let pressed = s.t;
        s.press(A, White)
            .wait(100)
            .lift(A, "f6")
            .wait(400)
            .place(A, "e4", 'n')
            .wait(40)
            .press(A, Black)
            .wait(60)
            .lift(A, "f4")
            .place(A, "g5", 'B')
            .wait(450)
            .lift(A, "g5")
            .place(A, "h6", 'B')
            .wait(80)
            .press(A, White)
            .wait(1500);
        s.mv(A, "a7", "a6", 'p');
        let p = s.run(3000);
        let message = white_press_message(&s, pressed);
        let judged = message.map(|m| judged_at(&s, m, settle));
        let on_g5 = s
            .seen(A, "g5")
            .into_iter()
            .find(|&(t, piece)| t > pressed && piece.is_some_and(|p| p.color == White))
            .map(|(t, _)| t);
        if let (Some(j), Some(g5)) = (judged, on_g5)
            && g5 < j
        {
            before_judged += 1;
        }
        p.assert_read_quietly(
            A,
            &["d4", "Nf6", "Bf4", "Ne4", "Bh6", "a6"],
            &format!("offset {offset}, message {message:?}, on g5 {on_g5:?}, judged {judged:?}"),
        );
    }
    assert!(
        before_judged >= 4,
        "the bishop showed on g5 before the first press was judged only {before_judged} times"
    );
}

/// After 1.d4 Nf6 on a Bluetooth board turned round, whose clock messages come late,
/// White's bishop slides c1–g5, resting on f4 on its way, and the hand leaving g5 knocks
/// Black's knight from f6 to f5 straight after; White presses, and Black sets the knight
/// back two seconds later and plays a6. The knight gone from f6 after the bishop left c1,
/// standing elsewhere soon after the board showed the bishop on f4, looks like a reply
/// begun while the bishop stood there; but a knight does not go to f5: it is no reply,
/// and no sign that the slide ended on f4 (`Bf4` was recorded at 5 of 40 offsets when any
/// piece set down elsewhere counted). At 40 offsets: each time the record must read `Bg5`
/// with no alert, and the bishop must have shown on f4 at least 4 times (else the test
/// proves nothing).
#[test]
fn a_piece_knocked_by_the_sliding_hand_is_no_reply_that_ends_the_slide() {
    let mut on_f4 = 0;
    for offset in offsets(40) {
        let mut s = late_clock_bluetooth_a_turned_round();
        s.mv(A, "d2", "d4", 'P').mv(A, "g8", "f6", 'n');
        s.wait(offset * 37);
        let lifted = s.t;
        s.lift(A, "c1")
            .wait(150)
            .place(A, "f4", 'B')
            .wait(200)
            .lift(A, "f4")
            .place(A, "g5", 'B')
            .wait(60)
            .knock(A, "f6", "f5")
            .wait(100)
            .press(A, White)
            .wait(2000)
            .lift(A, "f5")
            .place(A, "f6", 'n')
            .wait(300);
        s.mv(A, "a7", "a6", 'p');
        let p = s.run(3000);
        if s.seen(A, "f4")
            .iter()
            .any(|&(t, piece)| t > lifted && piece.is_some_and(|p| p.color == White))
        {
            on_f4 += 1;
        }
        p.assert_read_quietly(A, &["d4", "Nf6", "Bg5", "a6"], &format!("offset {offset}"));
    }
    assert!(on_f4 >= 4, "the bishop showed on f4 only {on_f4} times");
}

/// After 1.Nf3 d5 2.Ng5 Qd7 3.h3 on a Bluetooth board whose clock messages come late,
/// Black holding a queen from board B, Black's queen goes d7–d6 and Black presses; White
/// lifts the knight on g5 for `Ne6`, holds it half a second, sets it down and presses;
/// and Black, as the knight lands, lifts the queen from d6 for `Qc6`. When Black's press is judged the board may
/// show d6 empty and White's knight on e6: as `Qe6 Nxe6` would, the queen gone on from
/// d6 to e6 before the lever and taken there at once. But the queen stood on d6 for most
/// of a second, and the knight's lift came before it left: a reply begun less than a
/// lever, a glance and a hand's move after the queen went on (a scan's doubt each way)
/// answered `Qd6`. At 40 offsets the record must read `Qd6 Ne6 Qc6` with no alert, and d6
/// must have shown empty with the knight on e6 before Black's press was judged at least 4
/// times (else the test proves nothing).
#[test]
fn a_queen_that_stood_as_the_reply_began_then_moved_on_was_not_taken_further_on() {
    let mut relevant = 0;
    for offset in offsets(40) {
        let mut s = late_clock_bluetooth_a();
        // Board B: 1.e4 e5 2.Nf3 Qh4 3.Nxh4: Black on A holds a queen.
        s.mv(B, "e2", "e4", 'P').mv(B, "e7", "e5", 'p');
        s.mv(B, "g1", "f3", 'N').mv(B, "d8", "h4", 'q');
        s.take(B, "f3", "h4", 'N');
        s.mv(A, "g1", "f3", 'N').mv(A, "d7", "d5", 'p');
        s.mv(A, "f3", "g5", 'N').mv(A, "d8", "d7", 'q');
        s.mv(A, "h2", "h3", 'P');
        s.wait(offset * 37);
        s.lift(A, "d7").wait(250).place(A, "d6", 'q').wait(60);
        let pressed = s.t;
        s.press(A, Black)
            .wait(450)
            .lift(A, "g5")
            .wait(550)
            .place(A, "e6", 'N')
            .lift(A, "d6")
            .wait(60)
            .press(A, White)
            .wait(300)
            .place(A, "c6", 'q')
            .wait(60)
            .press(A, Black)
            .wait(2000);
        let p = s.run(3000);
        // Black's press message (White's clock, on the left, starts), and when it was
        // judged: 550 ms after it, or at White's press message if that came first.
        let message = s.running_reported(A, pressed, ClockSide::Left);
        let judged = message.map(|m| s.judged_while(A, m, 550, ClockSide::Left));
        let d6_empty = s.first_seen(A, "d6", pressed, false);
        let e6_knight = s.first_seen(A, "e6", pressed, true);
        if let (Some(j), Some(d), Some(e)) = (judged, d6_empty, e6_knight)
            && d <= j
            && e <= j
        {
            relevant += 1;
        }
        assert_eq!(
            p.sans(A)[5..],
            ["Qd6", "Ne6", "Qc6"],
            "offset {offset}, message {message:?}, judged {judged:?}\n{}",
            p.dump()
        );
        assert!(p.raised.is_empty(), "offset {offset}\n{}", p.dump());
    }
    assert_happened(
        relevant,
        4,
        "d6 showed empty beside the knight on e6 before the press was judged",
    );
}

/// On a Bluetooth board whose clock messages come late, with White holding a pawn (taken
/// on board B): after 1.Nf3 e6 2.e3, Black's bishop goes f8–a3, stopping on b4 for a
/// moment on its way, and Black presses; White sweeps the bishop off a3 at once, takes
/// with the b-pawn before the scan passes a3 and presses; Black answers Nf6 at once and
/// presses, then White plays Nc3. The bishop may be recorded on b4, where the scan showed
/// it, and the capture then reads alone as a pawn dropped on a3 and taken by the bishop
/// and taken back, presses unseen (`Bb4 P@a3 Bxa3 bxa3`), until the reply's press
/// carries it. At 40 offsets: the record must read `Ba3 bxa3 Nf6 Nc3` with no alert each
/// time, and the bishop must have shown on b4 and never on a3 at least 4 times (else the
/// test proves nothing).
#[test]
fn a_slide_taken_at_once_where_it_ended_by_a_pawn_the_taker_also_holds_is_the_capture() {
    let mut relevant = 0;
    for offset in offsets(40) {
        let mut s = late_clock_bluetooth_a();
        s.black_takes_a_pawn_on_b();
        s.mv(A, "g1", "f3", 'N').mv(A, "e7", "e6", 'p');
        s.mv(A, "e2", "e3", 'P');
        s.wait(offset * 37);
        let start = s.t;
        s.lift(A, "f8")
            .wait(80)
            .place(A, "b4", 'b')
            .wait(300 + (offset % 4) * 60)
            .lift(A, "b4")
            .wait(80)
            .place(A, "a3", 'b')
            .wait(60)
            .press(A, Black)
            .wait(100)
            .lift(A, "a3")
            .wait(200)
            .lift(A, "b2")
            .wait(200)
            .place(A, "a3", 'P')
            .wait(60)
            .press(A, White)
            .wait(300)
            .lift(A, "g8")
            .wait(200)
            .place(A, "f6", 'n')
            .wait(60)
            .press(A, Black)
            .wait(1500);
        s.mv(A, "b1", "c3", 'N');
        let p = s.run(3000);
        let bishop_on = |sq: &str| {
            s.seen(A, sq)
                .into_iter()
                .any(|(t, piece)| t > start && piece.is_some_and(|p| p.char() == 'b'))
        };
        if bishop_on("b4") && !bishop_on("a3") {
            relevant += 1;
        }
        p.assert_read_quietly(
            A,
            &["Nf3", "e6", "e3", "Ba3", "bxa3", "Nf6", "Nc3"],
            &format!("offset {offset}"),
        );
    }
    assert_happened(relevant, 4, "the bishop showed on b4 and never on a3");
}

/// 1.d3 Nc6 2.a3 Nd4 on a Bluetooth board whose clock messages come late, `offset` × 37 ms
/// of waiting, and White's bishop set c1–f4 and pressed: the scene, and when the bishop
/// was lifted.
fn bishop_to_f4_beside_the_knight_on_d4(offset: Millis) -> (Scene, Millis) {
    let mut s = late_clock_bluetooth_a();
    s.mv(A, "d2", "d3", 'P')
        .mv(A, "b8", "c6", 'n')
        .mv(A, "a2", "a3", 'P')
        .mv(A, "c6", "d4", 'n');
    s.wait(offset * 37);
    let start = s.t;
    s.lift(A, "c1")
        .wait(150)
        .place(A, "f4", 'B')
        .wait(60)
        .press(A, White);
    (s, start)
}

/// After 1.d3 Nc6 2.a3 Nd4 on a Bluetooth board whose clock messages come late, White's
/// bishop goes c1–f4 and White presses; Black's knight goes d4–b3 at once and Black
/// presses, and White's bishop comes back to e3 and White presses. The scan passes d4,
/// f4, b3 and e3 in that order, a few fields apart: a bishop set on e3 after the pass
/// that showed d4 left shows only on the next pass, beside the knight's landing on b3. On
/// a scan quicker than the 500 ms Tandem allows for one, that is less than 500 ms after
/// the knight's lift showed, and `Be3` with the knight's move stood exactly on the board
/// before White's first press was judged. But that pass found e3 empty after the knight
/// had left: the bishop came after the reply began. At 40 offsets: each time the record
/// must read `Bf4 Nb3 Be3` with no alert, and e3 must have shown less than 500 ms after
/// d4's lift, later than that pass could have shown it, at least 4 times (else the test
/// proves nothing).
#[test]
fn a_piece_shown_less_than_a_scan_after_the_reply_but_later_than_its_pass_moved_after_it() {
    let mut relevant = 0;
    for offset in offsets(40) {
        let (mut s, start) = bishop_to_f4_beside_the_knight_on_d4(offset);
        s.wait(100)
            .lift(A, "d4")
            .wait(400)
            .place(A, "b3", 'n')
            .wait(50)
            .press(A, Black)
            .wait(30)
            .lift(A, "f4")
            .wait(80)
            .place(A, "e3", 'B')
            .wait(300)
            .press(A, White)
            .wait(1500);
        s.mv(A, "a7", "a6", 'p');
        let p = s.run(3000);
        if let (Some(lifted), Some(landed)) = (
            s.first_seen(A, "d4", start, false),
            s.first_seen(A, "e3", start, true),
        ) && landed < lifted + 500
            && landed > lifted + 500 * 9 / 64 + 500 / 4
        {
            relevant += 1;
        }
        p.assert_read_quietly(
            A,
            &["d3", "Nc6", "a3", "Nd4", "Bf4", "Nb3", "Be3", "a6"],
            &format!(
                "offset {offset}: d4 {:?}, b3 {:?}, f4 {:?}, e3 {:?}",
                s.seen(A, "d4"),
                s.seen(A, "b3"),
                s.seen(A, "f4"),
                s.seen(A, "e3")
            ),
        );
    }
    assert_happened(
        relevant,
        4,
        "e3 showed within a scan of d4's lift but after its pass",
    );
}

/// After 1.d3 Nc6 2.a3 Nd4 on a Bluetooth board whose clock messages come late, White's
/// bishop goes c1–f4 and White presses; Black's knight goes d4–b5 at once and Black
/// presses, and half a second later White's bishop goes back to e3 and White presses. The
/// scan passes b5, d4 and f4 in that order, a few fields apart: the knight's whole move,
/// made before the scan reached f4, shows in the same pass as the bishop on f4. `Bf4`
/// never shows alone, only beside the reply; `Be3` then stands beside it exactly, and
/// read with it as `Be3 Nb5` it leaves White's last press without a move. At 40
/// offsets: each time the record must read `Bf4 Nb5 Be3` with no alert, and f4 must have
/// shown the bishop first in the pass that showed d4 left and the knight on b5, at least
/// 4 times (else the test proves nothing).
#[test]
fn a_move_shown_only_beside_a_whole_reply_begun_after_it_then_moved_on_was_made() {
    let mut relevant = 0;
    for offset in offsets(40) {
        let (mut s, start) = bishop_to_f4_beside_the_knight_on_d4(offset);
        s.wait(20)
            .lift(A, "d4")
            .wait(100)
            .place(A, "b5", 'n')
            .wait(50)
            .press(A, Black)
            .wait(450)
            .lift(A, "f4")
            .wait(80)
            .place(A, "e3", 'B')
            .wait(300)
            .press(A, White)
            .wait(1500);
        s.mv(A, "a7", "a6", 'p');
        let p = s.run(3000);
        if let (Some(bishop), Some(lifted), Some(landed)) = (
            s.first_seen(A, "f4", start, true),
            s.first_seen(A, "d4", start, false),
            s.first_seen(A, "b5", start, true),
        ) && bishop >= lifted
            && bishop >= landed
        {
            relevant += 1;
        }
        p.assert_read_quietly(
            A,
            &["d3", "Nc6", "a3", "Nd4", "Bf4", "Nb5", "Be3", "a6"],
            &format!(
                "offset {offset}: d4 {:?}, b5 {:?}, f4 {:?}, e3 {:?} clock {:?}",
                s.seen(A, "d4"),
                s.seen(A, "b5"),
                s.seen(A, "f4"),
                s.seen(A, "e3"),
                s.clock_seen(A)
                    .iter()
                    .filter(|c| c.0 > start)
                    .collect::<Vec<_>>()
            ),
        );
    }
    assert_happened(
        relevant,
        4,
        "f4 showed the bishop only beside the knight's whole move",
    );
}

/// After 1.e4 b6 2.Ba6 e6 3.a3 Qf6 4.a4 Qe5 on a Bluetooth board whose clock messages
/// come late, White's bishop slides back a6–d3, caught by the scan on c4 for one pass,
/// and White presses; Black's queen goes on at once e5–f5–g5, resting a moment on f5,
/// and Black presses. The scan passes e5 and f5 a few fields before c4: one pass may show
/// the queen's lift and its stop on f5 before it shows c4 left, so the board tells that
/// the queen moved while the bishop stood on c4. But it does not: the bishop may have
/// left c4 before the queen's hand came, the scan not yet there. Shown there for one pass
/// only, the bishop was sliding through, and nothing says it waited out the queen's
/// move: `Bd3` is the move, not `Bc4` with the queen's `Qf5` pressed between. At 40
/// offsets: each time the record must read `Bd3 Qg5` with no alert, and c4 must have
/// shown the bishop, then shown it gone after e5's lift and f5's queen, in the same pass,
/// at least 4 times (else the test proves nothing).
#[test]
fn a_slide_shown_on_its_way_for_one_pass_did_not_wait_out_a_reply_shown_first_in_the_next() {
    let mut relevant = 0;
    for offset in offsets(40) {
        let mut s = late_clock_bluetooth_a();
        s.mv(A, "e2", "e4", 'P')
            .mv(A, "b7", "b6", 'p')
            .mv(A, "f1", "a6", 'B')
            .mv(A, "e7", "e6", 'p')
            .mv(A, "a2", "a3", 'P')
            .mv(A, "d8", "f6", 'q')
            .mv(A, "a3", "a4", 'P')
            .mv(A, "f6", "e5", 'q');
        s.wait(offset * 37);
        let start = s.t;
        s.lift(A, "a6")
            .wait(80)
            .place(A, "c4", 'B')
            .wait(150)
            .lift(A, "c4")
            .wait(60)
            .place(A, "d3", 'B')
            .wait(60)
            .press(A, White)
            .wait(150)
            .lift(A, "e5")
            .wait(50)
            .place(A, "f5", 'q')
            .wait(300)
            .lift(A, "f5")
            .wait(60)
            .place(A, "g5", 'q')
            .wait(60)
            .press(A, Black)
            .wait(1500);
        s.mv(A, "a4", "a5", 'P');
        let p = s.run(3000);
        let shown = s.first_seen(A, "c4", start, true);
        if let (Some(on), Some(lifted), Some(stop)) = (
            shown,
            s.first_seen(A, "e5", start, false),
            s.first_seen(A, "f5", start, true),
        ) && let Some(left) = s.first_seen(A, "c4", on, false)
            && lifted < left
            && stop < left
            && left < lifted + 100
        {
            relevant += 1;
        }
        p.assert_read_quietly(
            A,
            &[
                "e4", "b6", "Ba6", "e6", "a3", "Qf6", "a4", "Qe5", "Bd3", "Qg5", "a5",
            ],
            &format!(
                "offset {offset}: c4 {:?}, e5 {:?}, f5 {:?}, d3 {:?}",
                s.seen(A, "c4"),
                s.seen(A, "e5"),
                s.seen(A, "f5"),
                s.seen(A, "d3")
            ),
        );
    }
    assert_happened(
        relevant,
        4,
        "c4 showed the bishop, then gone in the queen's pass,",
    );
}

/// After 1.Na3 on a Bluetooth board whose clock messages come late, Black pushes d7-d6
/// and presses, White plays Ng1-f3 at once and presses, and Black pushes the same pawn on
/// to d5 and presses; White lifts the knight again for Ng5 before that press is judged.
/// Where the first two presses fall between two polls of the clock, it shows neither:
/// Black's press is read alone, and `d5` (the double step, its stop on d6 shown) with the
/// knight's lift as White's reply under way explains the board at no cost. But the pawn
/// stood on d6 while the knight left g1 and came down on f3: a double step does not wait
/// out a whole move of the opponent's. At 40 offsets: each time the record must read
/// `d6 Nf3 d5 Ng5` with no alert, and the clock must have shown neither of the first two
/// presses at least 4 times (else the test proves nothing).
#[test]
fn a_pawn_that_stood_on_its_single_step_through_a_whole_reply_was_pushed_twice() {
    let mut unseen = 0;
    for offset in offsets(40) {
        let mut s = late_clock_bluetooth_a();
        s.mv(A, "b1", "a3", 'N');
        s.wait(offset * 37);
        s.lift(A, "d7").wait(200).place(A, "d6", 'p').wait(40);
        let first = s.t;
        s.press(A, Black)
            .wait(60)
            .lift(A, "g1")
            .wait(150)
            .place(A, "f3", 'N')
            .wait(40)
            .press(A, White)
            .wait(400)
            .lift(A, "d6")
            .wait(100)
            .place(A, "d5", 'p')
            .wait(40);
        let last = s.t;
        s.press(A, Black)
            .wait(100)
            .lift(A, "f3")
            .wait(400)
            .place(A, "g5", 'N')
            .wait(40)
            .press(A, White)
            .wait(1500);
        s.mv(A, "a7", "a6", 'p');
        let p = s.run(3000);
        // White's clock is on the left: it never showed running between Black's first
        // press and the last.
        if !s.clock_showed(A, first, last, ClockSide::Left) {
            unseen += 1;
        }
        p.assert_read_quietly(
            A,
            &["Na3", "d6", "Nf3", "d5", "Ng5", "a6"],
            &format!(
                "offset {offset}: d6 {:?}, f3 {:?}, clock {:?}",
                s.seen(A, "d6"),
                s.seen(A, "f3"),
                s.clock_seen(A)
            ),
        );
    }
    assert_happened(
        unseen,
        4,
        "the clock showed neither of the first two presses",
    );
}

/// After 1.Nf3 c6 2.a3 on a Bluetooth board, Black's queen slides d8-b6 by way of c7,
/// resting there a moment, and Black presses; White's hand is on the rook at once for
/// Rg1. The scan reaches c7 early in a pass and g1 and h1 at its end: the pass that shows
/// the queen on c7 may show the rook on g1 and h1 left after it, and c7 left only in the
/// next. That is no sign the queen stood on c7 while the rook moved: it may have left c7
/// just after the scan passed it, before the rook's lift, which came at any time since
/// the pass before; and the rook came down more than the fastest reply after the queen's
/// stand was shown, so it may have answered `Qb6`. Nothing tells of a move `Qc7` pressed
/// between: `Qb6` is the move. At 120 offsets: each time the record must read `Qb6 Rg1`
/// with no alert, and c7 must have shown the queen, then h1 lifted and g1 the rook in the
/// same pass, then c7 left in the next, at least 8 times (else the test proves nothing).
#[test]
fn a_slide_shown_on_its_way_before_a_reply_in_the_same_pass_did_not_wait_it_out() {
    let mut relevant = 0;
    for offset in offsets(120) {
        let mut s = Scene::bluetooth_a("uscf-bughouse");
        s.mv(A, "g1", "f3", 'N')
            .mv(A, "c7", "c6", 'p')
            .mv(A, "a2", "a3", 'P');
        s.wait(offset * 37);
        let start = s.t;
        s.lift(A, "d8")
            .wait(80)
            .place(A, "c7", 'q')
            .wait(200)
            .lift(A, "c7")
            .wait(50)
            .place(A, "b6", 'q')
            .wait(50)
            .press(A, Black)
            .wait(130)
            .lift(A, "h1")
            .wait(100)
            .place(A, "g1", 'R')
            .wait(300)
            .press(A, White)
            .wait(1500);
        s.mv(A, "e7", "e6", 'p');
        let p = s.run(3000);
        if let (Some(on), Some(lifted), Some(landed)) = (
            s.first_seen(A, "c7", start, true),
            s.first_seen(A, "h1", start, false),
            s.first_seen(A, "g1", start, true),
        ) && let Some(left) = s.first_seen(A, "c7", on, false)
            && on < lifted.min(landed)
            && lifted.max(landed) < left
        {
            relevant += 1;
        }
        p.assert_read_quietly(
            A,
            &["Nf3", "c6", "a3", "Qb6", "Rg1", "e6"],
            &format!(
                "offset {offset}: c7 {:?}, h1 {:?}, g1 {:?}, b6 {:?}",
                s.seen(A, "c7"),
                s.seen(A, "h1"),
                s.seen(A, "g1"),
                s.seen(A, "b6")
            ),
        );
    }
    assert_happened(
        relevant,
        8,
        "c7 showed the queen, then h1 lifted and g1 the rook in that pass, then c7 left,",
    );
}

/// On a Bluetooth board turned round whose clock messages come late, Black on A holding
/// nothing and White holding a pawn (Black on B took one), after 1.e4 e5 2.a3 and
/// `offset` × 37 ms: Black's queen d8-g5 and Black's press; White's pawn dropped on f6
/// `drop_after` ms later and White's press; the queen lifted at once, held 1.8 s, set on
/// g6 and pressed. Returns the scene and when Black's first press came.
fn queen_to_g5_drop_beside_queen_on(offset: Millis, drop_after: Millis) -> (Scene, Millis) {
    let mut s = late_clock_bluetooth_a_turned_round();
    s.black_takes_a_pawn_on_b();
    s.mv(A, "e2", "e4", 'P')
        .mv(A, "e7", "e5", 'p')
        .mv(A, "a2", "a3", 'P');
    s.wait(offset * 37);
    s.lift(A, "d8").wait(150).place(A, "g5", 'q').wait(60);
    let pressed = s.t;
    s.press(A, Black)
        .wait(drop_after)
        .place(A, "f6", 'P')
        .wait(60)
        .press(A, White)
        .wait(100)
        .lift(A, "g5")
        .wait(1800)
        .place(A, "g6", 'q')
        .wait(60)
        .press(A, Black)
        .wait(1500);
    (s, pressed)
}

/// After 1.e4 e5 2.a3 on a Bluetooth board turned round (its scan reaches g5 before f6)
/// whose clock messages come late, Black's queen goes d8-g5 and Black presses; White,
/// holding a pawn from the partner board, drops it on f6 beside the queen and presses;
/// Black lifts the queen at once (it stood on g5 for more than a scan) and holds it
/// before setting it on g6. Before Black's first press is judged, the board may show g5
/// left and f6 White's pawn in one pass: as if the queen had gone on to f6 and been
/// taken there at once. But nothing of White's could take on f6 (no piece of theirs
/// left a square it could take from): the pawn was dropped on an empty square, and
/// `Qg5` is the move. At 40 offsets: each time the record must read `Qg5 P@f6 Qg6` with
/// no alert, and g5 must have shown left within 150 ms of f6 showing the pawn, before
/// Black's first press was judged, at least 8 times (else the test proves nothing).
#[test]
fn a_piece_dropped_beside_a_landing_just_left_took_nothing_there() {
    let settle: Millis = 550;
    let mut relevant = 0;
    for offset in offsets(40) {
        let (mut s, pressed) = queen_to_g5_drop_beside_queen_on(offset, 450);
        s.mv(A, "a3", "a4", 'P');
        let p = s.run(3000);
        let judged = s
            .running_reported(A, pressed, ClockSide::Left)
            .map(|message| s.judged_while(A, message, settle, ClockSide::Left));
        if let (Some(landed), Some(dropped), Some(judged)) = (
            s.first_seen(A, "g5", pressed - 500, true),
            s.first_seen(A, "f6", pressed, true),
            judged,
        ) && let Some(left) = s.first_seen(A, "g5", landed, false)
            && left.abs_diff(dropped) < 150
            && left.max(dropped) < judged
        {
            relevant += 1;
        }
        p.assert_read_quietly(
            A,
            &["e4", "e5", "a3", "Qg5", "P@f6", "Qg6", "a4"],
            &format!(
                "offset {offset}: g5 {:?}, f6 {:?}, g6 {:?}, clock {:?}",
                s.seen(A, "g5"),
                s.seen(A, "f6"),
                s.seen(A, "g6"),
                s.clock_seen(A)
            ),
        );
    }
    assert_happened(
        relevant,
        8,
        "g5 showed left beside f6's pawn before the press was judged",
    );
}

/// Known to fail (found this session, not by a sweep; listed in the README): as in
/// `a_piece_dropped_beside_a_landing_just_left_took_nothing_there`, but White's drop
/// comes sooner, so the queen stands on g5 for less than a scan, and at some offsets the
/// board never shows it there. The clock's late messages show neither Black's press nor
/// White's. The reading of `Qg5 P@f6 Qg6` is then refused (a move claimed unseen must
/// have been seen landing), and the record goes `Qf6`, White's `a4`, `Qg6`, `P@f6`: the
/// right position in the wrong order, and no alert tells the TD. At 40 offsets: where g5
/// never showed the queen, the record must read `Qg5 P@f6 Qg6 a4 h6 b3`, or an alert must
/// be raised; it happens at 3 (7, 19, 32), each failing.
#[test]
#[ignore = "known failure: a queen's landing never shown, then a drop beside it and its next move"]
fn a_queen_never_shown_on_its_landing_then_a_drop_beside_it_is_read_in_order_or_told() {
    let mut unseen = 0;
    for offset in offsets(40) {
        let (mut s, pressed) = queen_to_g5_drop_beside_queen_on(offset, 200);
        let start = pressed - 210;
        s.mv(A, "a3", "a4", 'P')
            .mv(A, "h7", "h6", 'p')
            .mv(A, "b2", "b3", 'P');
        let p = s.run(3000);
        if s.first_seen(A, "g5", start, true).is_some() {
            continue;
        }
        unseen += 1;
        let want = ["e4", "e5", "a3", "Qg5", "P@f6", "Qg6", "a4", "h6", "b3"];
        assert!(
            p.sans(A) == want || !p.raised.is_empty(),
            "offset {offset}: read {:?} with no alert",
            p.sans(A)
        );
    }
    assert_happened(unseen, 2, "g5 never showed the queen");
}
