//! Promoted pawns laid on their side (US Chess bughouse 10c). The board reads a lying
//! pawn as nothing, or now and then, for a pass of its scan (two at times), as a pawn; a
//! pawn set down upright reads as a pawn on every pass until it is lifted. So a pawn shown
//! once or twice where a lying promoted piece could have gone, and gone again after, is
//! that piece's move, not a drop of a pawn. And a pawn left upright reads as a pawn on
//! every pass: once it stood so, its square empty is the piece lifted, not a pawn laid
//! down.

#![allow(clippy::unwrap_used)]

use crate::common::scene::{Played, Scene, assert_happened, k, offsets, pc};
use shakmaty::Color::{Black, White};
use shakmaty::Role;
use tandem::BoardId::{A, B};
use tandem::Millis;
use tandem::arbiter::AlertKind::{Displaced, Promotion, UnseenMove};
use tandem::arbiter::{PlyRef, TdAction};
use tandem::sim::emulator::EmulatorConfig;

/// A match whose board A reads as `a` says: White on A holds a pawn (Black on B took one)
/// and has a pawn on h7, a capture on g8 away from promoting.
fn pawn_in_hand_and_on_the_seventh(a: EmulatorConfig) -> Scene {
    let mut s = Scene::with_a("uscf-bughouse", a);
    s.black_takes_a_pawn_on_b();
    s.pawn_on_the_seventh();
    s
}

/// US Chess bughouse, board A a Bluetooth board (a 500 ms scan) that never reads a
/// lying pawn.
fn bluetooth_lying_pawns_unseen() -> Scene {
    Scene::bluetooth_a_as(
        "uscf-bughouse",
        EmulatorConfig {
            lying_pawn_flicker: 0.0,
            ..EmulatorConfig::bluetooth()
        },
    )
}

/// White on A holds a pawn (Black on B took one) and has a queen from h7xg8 laid on its
/// side on g8; Black has answered a4-a3. Board A never reads a lying pawn (the reads
/// a scenario relies on come from the hands, so that they are known).
fn lying_queen_and_a_pawn_in_hand() -> Scene {
    let mut s = pawn_in_hand_and_on_the_seventh(EmulatorConfig {
        lying_pawn_flicker: 0.0,
        ..EmulatorConfig::default()
    });
    s.h7_takes_g8_laid_down().press(A, White).wait(1500);
    s.mv(A, "a4", "a3", 'p');
    s
}

#[test]
fn a_lying_queen_read_as_a_pawn_for_one_scan_where_it_lands_is_no_pawn_drop() {
    // White moves the lying queen g8-g7 (set down upright for a moment, then laid on its
    // side), presses, and Black answers b7-b6. Where the board read a pawn on g7 for one
    // pass only, as it reads a lying pawn now and then, that is the queen's move: a pawn
    // dropped there would have read on every pass.
    let read_once = lying_queen_to_g7_read_as_a_pawn(120, 200, |shown, _| shown <= 300);
    assert!(read_once >= 10, "only {read_once} single reads on g7");
}

#[test]
fn a_lying_queen_read_as_a_pawn_for_two_scans_where_it_lands_is_no_pawn_drop() {
    // As above, but the queen stands upright on g7 a little longer before it is laid down:
    // the board reads a pawn there for two passes, then nothing (as it reads a lying pawn
    // two passes in a row at times). A pawn dropped there would read on every pass, so
    // g7 empty again, nobody's piece in its place, is still the lying queen's move.
    let read_twice = lying_queen_to_g7_read_as_a_pawn(330, 100, |shown, then_nothing| {
        shown > 260 && shown <= 520 && then_nothing
    });
    assert!(read_twice >= 10, "only {read_twice} double reads on g7");
}

/// The lying queen g8-g7, set down upright for `upright_ms`, laid on its side, pressed
/// `then_ms` later; Black answers b7-b6. At 40 offsets where g7 read as a pawn (shown
/// before the press was judged) and then empty, and `reads(for how long it read as a
/// pawn, whether g7 showed nothing more)` holds, the record must read `Qg7 b6` and raise
/// only the promotion's question. Returns at how many offsets it held.
fn lying_queen_to_g7_read_as_a_pawn(
    upright_ms: Millis,
    then_ms: Millis,
    reads: impl Fn(Millis, bool) -> bool,
) -> usize {
    let pawn = Some(pc('P'));
    let mut held = 0;
    for offset in 0..40 {
        let mut s = lying_queen_and_a_pawn_in_hand();
        s.wait(offset * 25);
        let landed = s.t + 300;
        s.lift(A, "g8")
            .wait(300)
            .place(A, "g7", 'P')
            .wait(upright_ms)
            .lay_down(A, "g7")
            .wait(then_ms);
        let pressed = s.t;
        s.press(A, White).wait(1200);
        let answered = s.t;
        s.mv(A, "b7", "b6", 'p');
        let p = s.run(3000);
        // The physics this asks about: what the board showed on g7 from the landing to the
        // reply, and whether the pawn showed before the press was judged (a press message
        // comes a moment after the lever at the earliest, and is judged a scan after it).
        let g7: Vec<_> = s
            .seen(A, "g7")
            .into_iter()
            .filter(|&(t, _)| t >= landed && t <= answered)
            .collect();
        let read = match g7.as_slice() {
            [(t1, p1), (t2, None), rest @ ..] if *p1 == pawn && *t1 <= pressed + 300 => {
                reads(t2 - t1, rest.is_empty())
            }
            _ => false,
        };
        if !read {
            continue;
        }
        held += 1;
        assert_eq!(
            p.sans(A)[10..],
            ["Qg7", "b6"],
            "offset {offset}: {g7:?}\n{}",
            p.dump()
        );
        assert_eq!(
            p.alerts(),
            [k(Promotion, Some("g8"))],
            "offset {offset}\n{}",
            p.dump()
        );
    }
    held
}

/// The upright queen's scenes, from the promotion: `hxg8=Q b6 Qg7 a3`.
const QG7: [&str; 4] = ["hxg8=Q", "b6", "Qg7", "a3"];

/// A board whose clock messages come late (a poll and more after the lever) and that never
/// reads a lying pawn.
fn late_clock() -> EmulatorConfig {
    EmulatorConfig {
        lying_pawn_flicker: 0.0,
        clock_late_chance: 1.0,
        clock_late_ms: (600, 700),
        ..EmulatorConfig::default()
    }
}

#[test]
fn an_upright_queen_moved_before_the_reply_is_judged_is_no_pawn_drop() {
    // White on A holds a pawn and promotes h7xg8 with the pawn left upright: the board
    // reads it as a pawn on every pass. Black answers b7-b6 at once, and this board's
    // clock messages come late (a poll and more after the lever), so White has lifted the
    // queen, g8-g7, before Black's press is judged, maybe before White's own promotion is
    // committed: no report came while the pawn stood on g8 with the promotion on record.
    // A pawn stood on g8 on every pass, so g8 empty is the queen lifted, not a lying pawn:
    // the pawn on g7 is the queen's move, not a drop of the pawn White holds.
    let mut checked = 0;
    for offset in 0..16 {
        let mut s = pawn_in_hand_and_on_the_seventh(late_clock());
        s.h7_takes_g8_upright()
            .press(A, White)
            .wait(150)
            .lift(A, "b7")
            .wait(150)
            .place(A, "b6", 'p')
            .wait(100)
            .press(A, Black)
            .wait(200 + offset * 50);
        let lifted = s.t;
        s.lift(A, "g8")
            .wait(200)
            .place(A, "g7", 'P')
            .wait(300)
            .press(A, White)
            .wait(1500);
        s.mv(A, "a4", "a3", 'p');
        let p = s.run(3000);
        // The physics this relies on: g8 read as a pawn, steadily, until the lift.
        let g8: Vec<_> = s.seen(A, "g8");
        let stood = g8
            .iter()
            .rev()
            .find(|(_, piece)| *piece == Some(pc('P')))
            .map(|(t, _)| *t);
        assert!(
            stood.is_some_and(|t| t + 600 < lifted),
            "offset {offset}: {g8:?}"
        );
        checked += 1;
        assert_record_and_only_the_question(&p, QG7, offset);
    }
    assert_eq!(checked, 16);
}

/// White on A holds a pawn and promotes h7xg8 with the pawn left upright, standing there
/// through many passes; Black answers b7-b6 and presses, and this board's clock messages
/// come late (a poll and more after the lever). The scene `offset` × 13 ms after Black's
/// press, White's hand about to lift the queen.
fn upright_queen_then_b6(offset: Millis) -> Scene {
    let mut s = pawn_in_hand_and_on_the_seventh(late_clock());
    s.h7_takes_g8_upright().press(A, White).wait(1500);
    s.lift(A, "b7")
        .wait(200)
        .place(A, "b6", 'p')
        .wait(60)
        .press(A, Black)
        .wait(100 + offset * 13);
    s
}

/// From the promotion on board A (its ninth ply), the record reads `want`, and the
/// promotion's question is the one alert.
fn assert_record_and_only_the_question(p: &Played, want: [&str; 4], offset: Millis) {
    assert_eq!(p.sans(A)[8..], want, "offset {offset}\n{}", p.dump());
    assert_eq!(
        p.alerts(),
        [k(Promotion, Some("g8"))],
        "offset {offset}\n{}",
        p.dump()
    );
}

#[test]
fn an_upright_queen_set_down_short_and_moved_on_is_no_pawn_laid_down() {
    // After `upright_queen_then_b6`, White lifts the queen at once, sets it down on h7,
    // thinks better of it and, after a moment with it in the hand, sets it on g7 and
    // presses. For that moment, Black's press not yet read, nothing of White's stands
    // anywhere new and g8 has been empty for two passes, as when an upright pawn is laid
    // on its side during the opponent's turn; but a White piece did land since g8 emptied
    // (on h7): the queen in the hand, not a pawn laid down. At 16 offsets: `hxg8=Q b6 Qg7
    // a3`, and only the question.
    for offset in offsets(16) {
        let mut s = upright_queen_then_b6(offset);
        s.lift(A, "g8")
            .wait(150)
            .place(A, "h7", 'P')
            .wait(600)
            .lift(A, "h7")
            .wait(400)
            .place(A, "g7", 'P')
            .wait(150)
            .press(A, White)
            .wait(1500);
        s.mv(A, "a4", "a3", 'p');
        assert_record_and_only_the_question(&s.run(3000), QG7, offset);
    }
}

/// After [`upright_queen_then_b6`], White lifts the queen at once and holds it, thinking,
/// for three passes of the scan before setting it on g7 and pressing. Black's press is not
/// yet judged, so by the record White is not to move, and g8 has been empty for two
/// passes with nothing of White's landed: as when an upright pawn is laid on its side
/// during the opponent's turn. But Black has pressed: White is to move, the queen is in
/// the hand. At 16 offsets: `hxg8=Q b6 Qg7 a3`, and only the question; g8 empty for two
/// passes before the queen showed on g7 at least 4 times.
#[test]
fn an_upright_queen_held_in_the_hand_before_the_reply_is_judged_is_no_pawn_laid_down() {
    let mut held = 0;
    for offset in offsets(16) {
        let mut s = upright_queen_then_b6(offset);
        let lifted = s.t;
        s.lift(A, "g8")
            .wait(750)
            .place(A, "g7", 'P')
            .wait(150)
            .press(A, White)
            .wait(1500);
        s.mv(A, "a4", "a3", 'p');
        let p = s.run(3000);
        // The physics this relies on: g8 reported empty two passes of the scan before
        // g7 reported the queen.
        let gone = s.first_seen(A, "g8", lifted, false);
        let landed = s.first_seen(A, "g7", lifted, true);
        if gone.zip(landed).is_some_and(|(g, l)| l >= g + 500) {
            held += 1;
        }
        assert_record_and_only_the_question(&p, QG7, offset);
    }
    assert_happened(held, 4, "g8 empty two passes before g7");
}

#[test]
fn an_upright_bishop_moved_in_one_movement_on_a_bluetooth_board_is_no_pawn_drop() {
    // On a Bluetooth board (a pass of half a second) a lying pawn may read as a pawn for two
    // passes, so a pawn that stood for less than that is not yet known to be upright when
    // its owner moves it. White on A holds a pawn and promotes h7xg8 to a bishop, the pawn
    // left upright (the TD hears "bishop" later); Black answers a4-a3 at once, and White
    // moves the bishop g8-h7 in one movement of the hand. Read as a drop of the pawn White
    // holds on h7, the pawn on g8 would lie on its side and have stopped reading as a pawn
    // in the very pass the drop landed beside it; read as the bishop's move, the two are
    // one gesture, and the board showed g8 empty within a pass of h7 filled. At 16 offsets:
    // `hxg8=B a3 Bh7`, and only the question; the pawn on g8 stood less than two passes
    // and a quarter before it was lifted at least 4 times.
    let mut short = 0;
    for offset in offsets(16) {
        let mut s = Scene::bluetooth_a("uscf-bughouse");
        s.black_takes_a_pawn_on_b();
        s.pawn_on_the_seventh();
        s.lift(A, "g8")
            .wait(200)
            .lift(A, "h7")
            .wait(250)
            .place(A, "g8", 'P')
            .wait(150);
        let set = s.t;
        s.press(A, White).wait(300);
        s.lift(A, "a4")
            .wait(150)
            .place(A, "a3", 'p')
            .wait(100)
            .press(A, Black)
            .wait(100 + offset * 31);
        s.lift(A, "g8")
            .wait(150)
            .place(A, "h7", 'P')
            .wait(150)
            .press(A, White)
            .wait(1500);
        s.mv(A, "b7", "b6", 'p');
        s.td(TdAction::SetPromotion {
            ply: PlyRef {
                board: A,
                color: White,
                number: 5,
            },
            role: Role::Bishop,
        });
        let p = s.run(3000);
        assert_record_and_only_the_question(&p, ["hxg8=B", "a3", "Bh7", "b6"], offset);
        // The physics: g8 read as a pawn from the promotion, for less than the run that
        // tells an upright pawn on this board, until it emptied.
        let shown = s.first_seen(A, "g8", set - 500, true);
        let emptied = shown.and_then(|t| s.first_seen(A, "g8", t, false));
        if let (Some(shown), Some(emptied)) = (shown, emptied)
            && emptied < shown + 1125
        {
            short += 1;
        }
    }
    assert_happened(short, 4, "the pawn stood briefly");
}

#[test]
fn a_piece_lifted_to_reply_after_the_press_is_no_victim_of_a_lying_queen() {
    // White moves the lying queen g8-g6, where the board sees nothing, and presses. Black
    // lifts the bishop from f8, which the queen on g8 attacks, to answer Bf8-g7. The
    // board reports f8 empty only after the press message came, and before the press is
    // judged: "the lying queen took on f8" explains the board then better than any move
    // of the queen. But the reply begins after the press, and a piece taken leaves the
    // board, while one lifted to reply lands again within a hand's move, where it could
    // go: the press waits for that, and the bishop on g7 says which it was.
    let mut relevant = 0;
    for offset in 0..24 {
        let mut s = lying_queen_and_a_pawn_in_hand();
        s.lift(A, "g8")
            .wait(250)
            .place(A, "g6", 'P')
            .lay_down(A, "g6");
        s.wait(150);
        let pressed = s.t;
        s.press(A, White).wait(100 + offset * 25);
        s.lift(A, "f8")
            .wait(350)
            .place(A, "g7", 'b')
            .wait(200)
            .press(A, Black)
            .wait(1500);
        let p = s.run(3000);
        // The physics this is about: f8 reported empty after the clock showed White's
        // press, the bishop reported on g7 later.
        let shown = s
            .clock_seen(A)
            .into_iter()
            .find(|&(t, _)| t > pressed)
            .map(|(t, _)| t);
        let f8_empty = s.first_seen(A, "f8", pressed, false);
        if shown.zip(f8_empty).is_none_or(|(c, e)| e <= c) {
            continue;
        }
        relevant += 1;
        let sans = p.sans(A);
        assert_eq!(sans.len(), 12, "offset {offset}\n{}", p.dump());
        assert!(
            sans[10].starts_with('Q') && !sans[10].contains('x'),
            "offset {offset}: {:?}\n{}",
            &sans[10..],
            p.dump()
        );
        assert_eq!(
            sans[11],
            "Bg7",
            "offset {offset}: pressed {pressed}, clock {:?}, f8 {:?}, g7 {:?}\n{}",
            s.clock_seen(A),
            s.seen(A, "f8"),
            s.seen(A, "g7"),
            p.dump()
        );
        assert!(p.raised_only(Promotion), "offset {offset}\n{}", p.dump());
    }
    assert!(
        relevant >= 6,
        "only {relevant} lifts reported after the press message"
    );
}

/// Black's g-pawn takes on h1 and is laid on its side, pressed, and just after the press
/// the sensor reads the lying queen as a pawn for most of a second (stood up a moment, or
/// lying just so); it lies unread again as White sets c4 down and presses. The record
/// takes it for a pawn kept upright, until the empty square says otherwise: once the
/// owner's own move is committed, h1 empty for two scans with nothing of Black's set down
/// since is a pawn laid down. Black's knight, which stood on g8 before that, is no piece
/// set down since. At 24 offsets: `gxh1=Q c4 Nf6 d3` and no alert but the promotion
/// question (not the queen missing from h1).
#[test]
fn a_lying_queen_read_as_a_pawn_for_a_while_is_no_piece_missing_once_it_lies_unread() {
    for offset in offsets(24) {
        let mut s = Scene::lying_pawns_unseen("uscf-bughouse");
        s.black_pawn_on_g2();
        s.wait(offset * 23);
        s.lift(A, "g2")
            .wait(200)
            .lift(A, "h1")
            .wait(200)
            .place(A, "h1", 'p')
            .lay_down(A, "h1")
            .wait(300)
            .press(A, Black)
            .wait(200)
            .place(A, "h1", 'p')
            .wait(300)
            .lift(A, "c2")
            .wait(500)
            .place(A, "c4", 'P')
            .lay_down(A, "h1")
            .wait(100)
            .press(A, White)
            .wait(1500)
            .td(Scene::gxh1_is_a_queen());
        s.mv(A, "g8", "f6", 'n');
        s.wait(2000);
        s.mv(A, "d2", "d3", 'P');
        let p = s.run(3000);
        assert_eq!(
            p.sans(A)[8..],
            ["axb7", "gxh1=Q", "c4", "Nf6", "d3"],
            "offset {offset}\n{}",
            p.dump()
        );
        assert!(
            p.raised_only(Promotion),
            "offset {offset}: h1 {:?}\n{}",
            s.seen(A, "h1"),
            p.dump()
        );
    }
}

/// On board B White takes a rook (1.h4 g5 2.hxg5 h6 3.Rxh6 Rxh6 4.gxh6): Black on A
/// holds a rook. On A White promotes hxg8 and lays the pawn on its side, Black answers a3,
/// White moves the lying queen g8-g7, where the board sees nothing, and presses. Black
/// lifts the rook from h8, which the queen on g8 attacked, `after_ms` after the lever, and
/// sets it on h6 `hand_ms` later. "The lying queen took on h8, and Black dropped a rook on
/// h6 in reply" reads the board as well as the rook's move. Returns the match played, and
/// when the clock's message of White's press came, when h8 was reported empty and when
/// the rook was reported on h6 (if they were).
fn rook_lifted_after_a_lying_queen_moved(
    after_ms: Millis,
    hand_ms: Millis,
) -> (Played, Option<(Millis, Millis, Millis)>) {
    let mut s = Scene::lying_pawns_unseen("uscf-bughouse");
    s.mv(B, "h2", "h4", 'P').mv(B, "g7", "g5", 'p');
    s.take(B, "h4", "g5", 'P');
    s.mv(B, "h7", "h6", 'p');
    s.take(B, "h1", "h6", 'R');
    s.take(B, "h8", "h6", 'r');
    s.take(B, "g5", "h6", 'P');
    s.pawn_on_the_seventh();
    s.h7_takes_g8_laid_down().press(A, White).wait(1500);
    s.mv(A, "a4", "a3", 'p');
    s.lift(A, "g8")
        .wait(250)
        .place(A, "g7", 'P')
        .lay_down(A, "g7");
    s.wait(150);
    let pressed = s.t;
    s.press(A, White).wait(after_ms);
    s.lift(A, "h8")
        .wait(hand_ms)
        .place(A, "h6", 'r')
        .wait(200)
        .press(A, Black)
        .wait(1500);
    let p = s.run(3000);
    assert_eq!(
        p.sans(B),
        ["h4", "g5", "hxg5", "h6", "Rxh6", "Rxh6", "gxh6"],
        "{}",
        p.dump()
    );
    let shown = s
        .clock_seen(A)
        .into_iter()
        .find(|&(t, _)| t > pressed)
        .map(|(t, _)| t);
    let h8_empty = s.first_seen(A, "h8", pressed, false);
    let h6_rook = s
        .seen(A, "h6")
        .into_iter()
        .find(|&(t, piece)| t > pressed && piece == Some(pc('r')))
        .map(|(t, _)| t);
    let times = match (shown, h8_empty, h6_rook) {
        (Some(c), Some(e), Some(r)) => Some((c, e, r)),
        _ => None,
    };
    (p, times)
}

/// The lying queen's move stands (not a capture), and Black's rook moved.
fn rook_moved_after_the_queen(p: &Played, offset: Millis) {
    let sans = p.sans(A);
    assert_eq!(sans.len(), 12, "offset {offset}\n{}", p.dump());
    assert!(
        sans[10].starts_with('Q') && !sans[10].contains('x'),
        "offset {offset}: {:?}\n{}",
        &sans[10..],
        p.dump()
    );
    assert_eq!(sans[11], "Rh6", "offset {offset}\n{}", p.dump());
    assert!(p.raised_only(Promotion), "offset {offset}\n{}", p.dump());
}

#[test]
fn a_piece_moved_on_to_where_its_owner_could_drop_one_is_no_victim_of_a_lying_queen() {
    // Black's fast hand sets the rook on h6 at once, h8 reported empty only after the
    // press message came. The rook showed on h6 sooner after h8 emptied than a capture,
    // its press and a drop in reply take: it is the rook moved on.
    let mut relevant = 0;
    for offset in 0..24 {
        let (p, times) = rook_lifted_after_a_lying_queen_moved(100 + offset * 25, 120);
        // The physics this is about: h8 reported empty after the clock showed White's
        // press, the rook reported on h6 within a fifth of a second of it.
        if !times.is_some_and(|(c, e, r)| e > c && r < e + 200) {
            continue;
        }
        relevant += 1;
        rook_moved_after_the_queen(&p, offset);
    }
    assert!(
        relevant >= 4,
        "only {relevant} rooks shown on h6 soon after h8 emptied, after the press message"
    );
}

#[test]
fn a_piece_lifted_after_the_press_message_is_no_victim_of_a_lying_queen() {
    // Black's hand is slower: the rook shows on h6 well after h8 emptied, soon enough for
    // a capture and a drop in reply. But h8 was reported empty more than a scan (250 ms
    // here), less the quickest press after a landing (60 ms), after the press message
    // came: the board saw the rook still on h8 after the lever, so it was lifted after
    // the press, to reply, and nothing took it.
    let mut relevant = 0;
    for offset in 0..24 {
        let (p, times) = rook_lifted_after_a_lying_queen_moved(100 + offset * 25, 400);
        if !times.is_some_and(|(c, e, r)| e + 60 > c + 250 && r >= e + 200) {
            continue;
        }
        relevant += 1;
        rook_moved_after_the_queen(&p, offset);
    }
    assert!(
        relevant >= 4,
        "only {relevant} rooks lifted from h8 after the press message"
    );
}

#[test]
fn a_pawn_taken_at_once_where_a_lying_queen_could_have_gone_is_the_pawn_s_move() {
    // Board A on Bluetooth (half-second passes), never reading a lying pawn: Black's
    // h-pawn takes its way to h1 and promotes to a queen laid on its side (1.a3 h5 2.a4
    // h4 3.a5 h3 4.a6 hxg2 5.axb7 gxh1=Q, the TD told "queen"), 6.c4. Black plays d7-d5,
    // and White takes the pawn at once: d5 read as a pawn for a pass or two, then empty,
    // as a lying queen moved h1-d5 would read. But d7 emptied too: the pawn's move
    // explains the board (its victim in White's hand, c4 lifted to take it), the queen's
    // would leave a pawn missing. The record reads d5 cxd5, nothing alarmed.
    let pawn = Some(pc('p'));
    let mut relevant = 0;
    for phase in 0..24 {
        let mut s = bluetooth_lying_pawns_unseen();
        s.black_pawn_on_g2();
        s.gxh1_queen_laid_down();
        s.mv(A, "c2", "c4", 'P');
        s.wait(phase * 23);
        s.lift(A, "d7").wait(300);
        let set = s.t;
        s.place(A, "d5", 'p').wait(150).press(A, Black);
        let pressed = s.t;
        s.wait(150 + phase % 3 * 100)
            .lift(A, "d5")
            .wait(200)
            .lift(A, "c4");
        s.wait(200).place(A, "d5", 'P').wait(300).press(A, White);
        s.wait(1500);
        let p = s.run(3000);
        // The physics: d5 read as a pawn, then empty less than two scans on (a lying
        // queen's reading), that within a settling time of Black's press message.
        let d5 = s.seen(A, "d5");
        let read = d5.iter().find(|&&(t, q)| t >= set && q == pawn);
        let gone = d5.iter().find(|&&(t, q)| t >= set && q.is_none());
        let message = s.clock_seen(A).into_iter().find(|&(t, _)| t > pressed);
        let (Some(&(read, _)), Some(&(gone, _)), Some((message, _))) = (read, gone, message) else {
            continue;
        };
        if gone > read + 1000 || gone > message + 500 {
            continue;
        }
        relevant += 1;
        let at = format!("{phase}: d5 {d5:?}, clock {message}");
        assert_eq!(p.sans(A)[10..], ["c4", "d5", "cxd5"], "{at}\n{}", p.dump());
        assert_eq!(p.alerts(), [k(Promotion, Some("h1"))], "{at}\n{}", p.dump());
    }
    assert!(
        relevant >= 4,
        "only {relevant} runs of the pawn taken at once"
    );
}

/// Black's lying queen goes h1-e4: lifted, set down and laid on its side there, which
/// the board never reads; Black presses. When the lever went down.
fn queen_to_e4_unseen(s: &mut Scene) -> Millis {
    s.lift(A, "h1")
        .wait(300)
        .place(A, "e4", 'p')
        .lay_down(A, "e4")
        .wait(200)
        .press(A, Black);
    s.t
}

/// The TD's answer to where Black's lying queen went from h1 with its 6th move: e4.
fn queen_went_to_e4() -> TdAction {
    TdAction::ChooseHiddenMove {
        from: None,
        ply: PlyRef {
            board: A,
            color: Black,
            number: 6,
        },
        to: shakmaty::Square::E4,
    }
}

/// Board B: 1.e4 d5 2.exd5, so Black on A holds a pawn. On board A (as `a` says) Black's
/// h-pawn promotes on h1 to a queen laid on its side (1.a3 h5 2.a4 h4 3.a5 h3 4.a6 hxg2
/// 5.axb7 gxh1=Q, the TD told "queen"), and White plays 6.c4.
fn lying_queen_on_h1_and_a_pawn_in_hand(a: EmulatorConfig) -> Scene {
    let mut s = Scene::with_a("uscf-bughouse", a);
    s.mv(B, "e2", "e4", 'P').mv(B, "d7", "d5", 'p');
    s.take(B, "e4", "d5", 'P');
    s.black_pawn_on_g2();
    s.gxh1_queen_laid_down();
    s.mv(A, "c2", "c4", 'P');
    s
}

/// Board A's record from White's 6.c4 on is `sans`, and only the promotion's questions
/// were raised (answered, if `answered`).
fn assert_read_on_a(p: &Played, at: &str, sans: &[&str], answered: bool) {
    assert_eq!(p.sans(A)[10..], *sans, "{at}\n{}", p.dump());
    if answered {
        assert_eq!(p.open(Promotion), 0, "{at}\n{}", p.dump());
    }
    assert!(p.raised_only(Promotion), "{at}\n{}", p.dump());
}

/// `lying_queen_on_h1_and_a_pawn_in_hand` on a board A that never reads a lying pawn
/// (the reads a scenario relies on come from the hands, so that they are known).
fn lying_queen_on_h1_never_read() -> Scene {
    lying_queen_on_h1_and_a_pawn_in_hand(EmulatorConfig {
        lying_pawn_flicker: 0.0,
        ..EmulatorConfig::default()
    })
}

#[test]
fn a_lying_queen_s_unseen_move_blocked_by_the_guess_is_no_pawn_dropped_and_taken_at_once() {
    // Board B: 1.e4 d5 2.exd5, so Black on A holds a pawn. On A Black's h-pawn promotes on
    // h1 to a queen laid on its side (1.a3 h5 2.a4 h4 3.a5 h3 4.a6 hxg2 5.axb7 gxh1=Q),
    // 6.c4, and the lying queen goes h1-e4: the board shows nothing of it. The record
    // guesses the first square it could have gone to (g2) and asks the TD. White answers
    // Bf1-h3, through g2: illegal with the queen guessed there, legal with it on e4. "Black
    // dropped a pawn on h3 and the bishop took it before the scan passed" reads the board as
    // well, and is the only reading in which every landing shows. But the TD was asked
    // where the queen went, and a pawn nobody saw is no answer to that: the record keeps
    // the queen's move, the bishop's move is held, not told illegal, and the TD's answer
    // (e4) puts it right. Black still holds the pawn.
    let mut relevant = 0;
    for offset in offsets(16) {
        let mut s = lying_queen_on_h1_never_read();
        let moved = s.t;
        queen_to_e4_unseen(&mut s);
        s.wait(200 + offset * 50);
        s.lift(A, "f1")
            .wait(300)
            .place(A, "h3", 'B')
            .wait(200)
            .press(A, White)
            .wait(1500)
            .td(queen_went_to_e4());
        s.wait(1500);
        let p = s.run(3000);
        // The physics: nothing shown on e4 (the queen lies there unseen), only the bishop
        // on h3.
        let h3 = s.seen(A, "h3");
        if !s.seen(A, "e4").is_empty() || h3.iter().any(|&(t, q)| t > moved && q != Some(pc('B'))) {
            continue;
        }
        relevant += 1;
        let at = format!("offset {offset}: h3 {h3:?}");
        assert_eq!(p.sans(B), ["e4", "d5", "exd5"], "{at}\n{}", p.dump());
        assert_eq!(p.sans(A)[10..], ["c4", "Qe4", "Bh3"], "{at}\n{}", p.dump());
        assert_eq!(
            p.alerts(),
            [k(Promotion, Some("h1")), k(Promotion, Some("h1"))],
            "{at}\n{}",
            p.dump()
        );
        let reserve = p.arb.game().board(A).reserve(Black).get(Role::Pawn);
        assert_eq!(reserve, 1, "{at}\n{}", p.dump());
    }
    assert!(
        relevant >= 12,
        "only {relevant} runs showed nothing of the queen"
    );
}

#[test]
fn a_lying_queen_read_as_a_pawn_for_a_pass_where_it_went_unseen_answers_where_it_went() {
    // The lying queen goes h1-e4 unseen (the board never reads a lying pawn): the record
    // guesses g2 and asks the TD where it went. White answers Nb1-a3. Then a hand stands
    // the queen up on e4 for a moment and lays it down again: a pawn read there for a
    // pass, on a square the queen could have gone to, empty on the record, gone again. That
    // is the lying queen (a pawn set down would stay): the record takes e4, the question
    // answered, and Black's a7-a6 follows.
    let pawn = Some(pc('p'));
    let mut relevant = 0;
    for offset in offsets(24) {
        let mut s = lying_queen_on_h1_never_read();
        s.wait(offset * 23);
        queen_to_e4_unseen(&mut s);
        s.wait(1500);
        s.mv(A, "b1", "a3", 'N');
        s.wait(300 + offset * 10);
        let stood = s.t;
        s.place(A, "e4", 'p').wait(150).lay_down(A, "e4").wait(1000);
        s.mv(A, "a7", "a6", 'p');
        let p = s.run(3000);
        // The physics: e4 read as a pawn once the hand stood the queen up, and nothing
        // there before.
        let e4 = s.seen(A, "e4");
        if !matches!(e4.as_slice(), [(t, q), (_, None)] if *t >= stood && *q == pawn) {
            continue;
        }
        relevant += 1;
        let at = format!("offset {offset}: e4 {e4:?}");
        assert_read_on_a(&p, &at, &["c4", "Qe4", "Na3", "a6"], true);
    }
    assert!(relevant >= 8, "only {relevant} single reads on e4");
}

#[test]
fn a_pawn_lifted_just_after_a_lying_queen_s_unseen_move_and_pushed_is_no_capture_and_drop() {
    // Board B: 1.e4 d5 2.Nc3 dxe4, so White on A holds a pawn. On A Black's lying queen
    // (1.a3 h5 2.a4 h4 3.a5 h3 4.a6 hxg2 5.axb7 gxh1=Q, the TD told "queen"; 6.c4) goes
    // h1-e4: the board shows nothing of it. White answers h2-h3 at once: h2 shown empty
    // before Black's press message, or with Black's message lost, both presses read at
    // White's. "The queen took on h2 and White dropped the pawn in hand on h3" reads the
    // board as well (a lying queen's landing never shows). But h2 emptied no longer
    // before the message than a message lags its lever, and h3 filled within a gesture of
    // it: White's own pawn, pushed. The record keeps the queen's move unseen and asks
    // where it went (the TD says e4); White still holds the pawn. At 24 offsets.
    let mut relevant = 0;
    for offset in offsets(24) {
        let mut s = Scene::with_a(
            "uscf-bughouse",
            EmulatorConfig {
                lying_pawn_flicker: 0.0,
                ..EmulatorConfig::default()
            },
        );
        s.black_takes_a_pawn_on_b();
        s.black_pawn_on_g2();
        s.gxh1_queen_laid_down();
        s.mv(A, "c2", "c4", 'P');
        s.wait(offset * 23);
        let pressed = queen_to_e4_unseen(&mut s);
        s.wait(offset % 4 * 60);
        s.lift(A, "h2")
            .wait(150)
            .place(A, "h3", 'P')
            .wait(150)
            .press(A, White)
            .wait(3500)
            .td(queen_went_to_e4());
        s.wait(1500);
        let p = s.run(3000);
        // The physics that asks it: h2 shown empty before the clock's next message (Black's
        // press read late, or not at all and read with White's).
        let message = s.clock_seen(A).into_iter().find(|&(t, _)| t > pressed);
        let lifted = s
            .seen(A, "h2")
            .into_iter()
            .find(|&(t, q)| t > pressed && q.is_none());
        let (Some((message, _)), Some((lifted, _))) = (message, lifted) else {
            continue;
        };
        let at = format!("offset {offset}: message {message}, h2 empty {lifted}");
        if lifted < message {
            relevant += 1;
        }
        assert_eq!(p.sans(A)[10..], ["c4", "Qe4", "h3"], "{at}\n{}", p.dump());
        assert_eq!(
            p.alerts(),
            [k(Promotion, Some("h1")), k(Promotion, Some("h1"))],
            "{at}\n{}",
            p.dump()
        );
        let reserve = p.arb.game().board(A).reserve(White).get(Role::Pawn);
        assert_eq!(reserve, 1, "{at}\n{}", p.dump());
    }
    assert!(
        relevant >= 6,
        "only {relevant} runs with h2 shown empty before the message"
    );
}

/// Black drops a pawn on `drop` and presses; White's hand lifts it at once and the piece on
/// `taker` takes it there, before the board's scan passed the square; White presses. Then
/// Black answers a7-a6. Returns the match played and whether the board never showed the
/// dropped pawn, and (where it is) when it read the lying queen as a pawn on h1 between
/// Black's press and White's.
fn pawn_dropped_and_taken_at_once_beside_the_lying_queen(
    flicker: f64,
    offset: Millis,
    drop: &str,
    taker: &str,
    piece: char,
) -> (Played, bool, bool) {
    let mut s = lying_queen_on_h1_and_a_pawn_in_hand(EmulatorConfig {
        lying_pawn_flicker: flicker,
        ..EmulatorConfig::default()
    });
    s.wait(offset * 23);
    let set = s.t;
    s.place(A, drop, 'p').wait(60).press(A, Black);
    let pressed = s.t;
    s.wait(40)
        .lift(A, drop)
        .wait(150)
        .lift(A, taker)
        .wait(250)
        .place(A, drop, piece)
        .wait(600);
    let answered = s.t;
    s.press(A, White).wait(1500);
    s.mv(A, "a7", "a6", 'p');
    let p = s.run(3000);
    let pawn = Some(pc('p'));
    let unseen = s.seen(A, drop).iter().all(|&(t, q)| t < set || q != pawn);
    let read = s
        .seen(A, "h1")
        .iter()
        .any(|&(t, q)| t > pressed && t < answered && q == pawn);
    (p, unseen, read)
}

#[test]
fn a_lying_queen_read_where_it_stood_after_a_press_that_showed_nothing_made_no_move() {
    // Black's press shows nothing: the pawn dropped on a3 was taken by the b1 knight
    // before the scan passed it. Alone, the press reads as the lying queen's move, unseen
    // (Qg2, the TD asked where it went), and Nb1-a3 is legal after it. But the board then
    // read a pawn on h1 (a lying pawn reads so now and then): the queen never left h1, so
    // the press was the pawn dropped and taken at once: `P@a3 Nxa3 a6`, and the TD's
    // question answered by the board.
    let mut relevant = 0;
    for offset in offsets(40) {
        let (p, unseen, read) =
            pawn_dropped_and_taken_at_once_beside_the_lying_queen(0.3, offset, "a3", "b1", 'N');
        if !unseen || !read {
            continue;
        }
        relevant += 1;
        let at = format!("offset {offset}");
        assert_read_on_a(&p, &at, &["c4", "P@a3", "Nxa3", "a6"], true);
    }
    assert!(
        relevant >= 4,
        "only {relevant} drops unseen with the queen read on h1"
    );
}

/// Black's move 6 on board A after `lying_queen_on_h1_and_a_pawn_in_hand`.
const BLACK_6: PlyRef = PlyRef {
    board: A,
    color: Black,
    number: 6,
};

#[test]
fn a_pawn_dropped_where_a_lying_queen_could_go_and_lifted_by_the_reply_is_recorded_and_asked() {
    // Black drops a pawn on d5, where the lying queen could have gone from h1, and presses.
    // White lifts the pawn as the board has read it for a pass or two, lifts c4 and takes
    // on d5. A pawn read for a pass or two and then gone, nobody's piece in its place yet,
    // is what a lying queen set down shows too. White's pawn lifted to take there (with the
    // pawn or up to half a second after it) makes the drop the likelier, and the record
    // has `P@d5 cxd5`; but how often a lying piece reads as a pawn is the board's own (one
    // pass in twenty on this one, unmeasured on real boards), so `Qd5 cxd5` is not ruled
    // out: the TD is asked which pair was played, and the players' answer stands.
    let pawn = Some(pc('p'));
    let mut relevant = 0;
    for offset in offsets(40) {
        let mut s = lying_queen_on_h1_never_read();
        s.wait(offset * 23);
        let set = s.t;
        s.place(A, "d5", 'p').wait(60).press(A, Black);
        // The victim lifted first, its capturer a moment or half a second later.
        s.wait(200 + offset % 4 * 60)
            .lift(A, "d5")
            .wait([40, 250, 450][offset as usize % 3])
            .lift(A, "c4")
            .wait(250)
            .place(A, "d5", 'P')
            .wait(400)
            .press(A, White)
            .wait(1500);
        s.mv(A, "a7", "a6", 'p');
        let p = s.run(3000);
        // The physics: d5 read as a pawn, then empty within two scans (a lying queen's
        // reading too).
        let d5 = s.seen(A, "d5");
        let read = d5.iter().find(|&&(t, q)| t >= set && q == pawn);
        let gone = d5.iter().find(|&&(t, q)| t >= set && q.is_none());
        let (Some(&(read, _)), Some(&(gone, _))) = (read, gone) else {
            continue;
        };
        if gone > read + 500 {
            continue;
        }
        relevant += 1;
        let at = format!("offset {offset}: d5 {d5:?}");
        assert_eq!(
            p.sans(A)[10..],
            ["c4", "P@d5", "cxd5", "a6"],
            "{at}\n{}",
            p.dump()
        );
        assert_eq!(
            p.pair_questions(BLACK_6),
            [["P@d5 cxd5", "Qd5 cxd5"]],
            "{at}\n{}",
            p.dump()
        );
        s.wait(500).td(TdAction::ChoosePair {
            ply: BLACK_6,
            moves: "P@d5 cxd5".to_owned(),
        });
        let p = s.run(3000);
        assert_eq!(
            p.sans(A)[10..],
            ["c4", "P@d5", "cxd5", "a6"],
            "{at}\n{}",
            p.dump()
        );
        assert_eq!(p.open(UnseenMove), 0, "{at}\n{}", p.dump());
        assert!(
            p.raised
                .iter()
                .all(|a| matches!(a.kind, Promotion | UnseenMove)),
            "{at}\n{}",
            p.dump()
        );
    }
    assert!(
        relevant >= 10,
        "only {relevant} pawns gone within two scans"
    );
}

#[test]
fn a_lying_queen_read_as_a_pawn_for_a_pass_where_a_piece_that_moves_elsewhere_could_take_is_its_move()
 {
    // The lying queen goes h1-f3, set down upright for a moment (a pawn read there for a
    // pass), then laid on its side; Black presses. White's knight on g1, which could take
    // on f3, is lifted after f3 read empty again and goes to h3. While it is in hand, f3
    // may have emptied as its victim; once it lands elsewhere, the pawn shown and gone was
    // the lying queen: `Qf3 Nh3 a6`, no pawn dropped, only the promotion's question.
    let pawn = Some(pc('p'));
    let mut relevant = 0;
    for offset in offsets(40) {
        let mut s = lying_queen_on_h1_never_read();
        s.wait(offset * 23);
        let set = s.t;
        s.lift(A, "h1")
            .wait(250)
            .place(A, "f3", 'p')
            .wait(120)
            .lay_down(A, "f3")
            .wait(100)
            .press(A, Black);
        s.wait(150 + offset % 4 * 100)
            .lift(A, "g1")
            .wait(300)
            .place(A, "h3", 'N')
            .wait(300)
            .press(A, White)
            .wait(1500);
        s.mv(A, "a7", "a6", 'p');
        let p = s.run(3000);
        // The physics: f3 read as a pawn once, then empty before the knight was lifted.
        let f3 = s.seen(A, "f3");
        let g1 = s.seen(A, "g1");
        let read = f3.iter().find(|&&(t, q)| t >= set && q == pawn);
        let gone = f3.iter().find(|&&(t, q)| t >= set && q.is_none());
        let lifted = g1.iter().find(|&&(t, q)| t >= set && q.is_none());
        let (Some(&(read, _)), Some(&(gone, _)), Some(&(lifted, _))) = (read, gone, lifted) else {
            continue;
        };
        if gone > read + 300 || lifted < gone {
            continue;
        }
        relevant += 1;
        let at = format!("offset {offset}: f3 {f3:?}, g1 {g1:?}");
        assert_eq!(
            p.sans(A)[10..],
            ["c4", "Qf3", "Nh3", "a6"],
            "{at}\n{}",
            p.dump()
        );
        assert_eq!(p.alerts(), [k(Promotion, Some("h1"))], "{at}\n{}", p.dump());
    }
    assert!(relevant >= 10, "only {relevant} single reads of f3");
}

#[test]
fn a_pawn_dropped_and_taken_at_once_by_a_pawn_beside_a_lying_queen_is_no_illegal_pawn_step() {
    // The same, the dropped pawn on d3 taken by the e2 pawn, and the board never reads the
    // lying queen. Black's press reads as the queen's unseen move, the TD asked where it
    // went; then e2-d3 is a pawn going diagonally onto an empty square wherever the queen
    // went: the pawn dropped on d3 and taken there at once is what the board shows, not an
    // illegal move. The TD's question goes with the queen's move.
    let mut relevant = 0;
    for offset in offsets(40) {
        let (p, unseen, _) =
            pawn_dropped_and_taken_at_once_beside_the_lying_queen(0.0, offset, "d3", "e2", 'P');
        if !unseen {
            continue;
        }
        relevant += 1;
        let at = format!("offset {offset}");
        assert_read_on_a(&p, &at, &["c4", "P@d3", "exd3", "a6"], false);
    }
    assert!(relevant >= 4, "only {relevant} drops unseen");
}

#[test]
fn a_piece_knocked_where_a_lying_knight_could_have_gone_is_displaced() {
    // White's h-pawn takes on g8 and promotes to a knight laid on its side (the TD told
    // "knight"). Black answers a4-a3, presses, and its hand knocks the e7 pawn onto f6. The
    // board reads the lying knight as nothing, as it would read it lifted: "the knight went
    // to f6 and the pawn took it there, both presses between two polls of the clock" reads
    // the board as well. But a piece on its side reads as nothing where it lies, so g8 empty
    // is no sign that it moved: the pawn is displaced, and the TD is told.
    let mut s = pawn_in_hand_and_on_the_seventh(EmulatorConfig {
        lying_pawn_flicker: 0.0,
        ..EmulatorConfig::default()
    });
    s.h7_takes_g8_laid_down()
        .press(A, White)
        .wait(1500)
        .td(TdAction::SetPromotion {
            ply: PlyRef {
                board: A,
                color: White,
                number: 5,
            },
            role: Role::Knight,
        });
    s.lift(A, "a4")
        .wait(300)
        .place(A, "a3", 'p')
        .wait(300)
        .press(A, Black)
        .wait(150)
        .knock(A, "e7", "f6")
        .wait(4000);
    let p = s.run(3000);
    assert_eq!(p.sans(A)[8..], ["hxg8=N", "a3"], "{}", p.dump());
    assert_eq!(
        p.alerts(),
        [k(Promotion, Some("g8")), k(Displaced, Some("e7"))],
        "{}",
        p.dump()
    );
    assert_eq!(p.open(Displaced), 1, "{}", p.dump());
}

#[test]
fn a_pawn_knocked_just_after_a_lying_queen_s_unseen_move_is_displaced_not_an_illegal_move() {
    // White's queen from h7xg8 lies on its side on g8 (board A never reads a lying pawn);
    // Black has answered a4-a3. White moves the lying queen g8-g7 (the board shows nothing
    // of it) and presses, and a moment later White's sleeve knocks the b2 pawn onto c3.
    // Judged a settling time after the press message, the board shows the pawn gone
    // diagonally to an empty square: as a move, `b2c3`, illegal. But the press message
    // found b2 and c3 as the record has them, and a lying queen's move shows nothing: the
    // press was the queen's (the TD asked where it went, and says g7), and the pawn stands
    // displaced. At 24 offsets of the knock, 100 to 376 ms after the press; without that,
    // the 8 whose knock shows in the settling time end with an illegal move told.
    let mut relevant = 0;
    for offset in offsets(24) {
        // Nothing in White's hand: the pawn on c3 is no drop either.
        let mut s = Scene::lying_pawns_unseen("uscf-bughouse");
        s.pawn_on_the_seventh();
        s.h7_takes_g8_laid_down().press(A, White).wait(1500);
        s.mv(A, "a4", "a3", 'p');
        s.lift(A, "g8")
            .wait(300)
            .place(A, "g7", 'P')
            .lay_down(A, "g7")
            .wait(200)
            .press(A, White);
        let pressed = s.t;
        s.wait(100 + offset * 12)
            .knock(A, "b2", "c3")
            .wait(4000)
            .td(TdAction::ChooseHiddenMove {
                from: None,
                ply: PlyRef {
                    board: A,
                    color: White,
                    number: 6,
                },
                to: shakmaty::Square::G7,
            });
        s.wait(1500);
        let p = s.run(3000);
        // The physics that asks it: c3 shown taken after the press message, within the
        // settling time (300 ms) in which the press is judged.
        let message = s.clock_seen(A).into_iter().find(|&(t, _)| t > pressed);
        let knocked = s
            .seen(A, "c3")
            .into_iter()
            .find(|&(t, q)| t > pressed && q.is_some());
        let (Some((message, _)), Some((knocked, _))) = (message, knocked) else {
            continue;
        };
        let at = format!("offset {offset}: message {message}, c3 {knocked}");
        if knocked > message && knocked <= message + 300 {
            relevant += 1;
        }
        assert_eq!(
            p.sans(A)[8..],
            ["hxg8=Q", "a3", "Qg7"],
            "{at}\n{}",
            p.dump()
        );
        assert_eq!(
            p.alerts(),
            [
                k(Promotion, Some("g8")),
                k(Promotion, Some("g8")),
                k(Displaced, Some("b2"))
            ],
            "{at}\n{}",
            p.dump()
        );
    }
    assert!(
        relevant >= 6,
        "only {relevant} runs with c3 shown in the settling time after the message"
    );
}

/// White holds a pawn and moves the queen lying on its side on g8 to g7 (laid straight
/// down: the board sees nothing of the move) and presses; Black's hand is on the b8
/// knight at once (Nc6). This board reads a lying pawn as a pawn on a third of its passes
/// (a worn one; real boards now and then, two passes in a row at times). Where g7 first
/// read as a pawn after b8 showed empty, both by the time the press is judged (a scan
/// after its message), the queen's move never showed exactly (the reply already under
/// way), and the reading that explains the board best is a pawn dropped on g7. A pawn
/// dropped there reads on every pass; g7 empty again within two passes, nobody's piece on
/// it, is the lying queen. At 40 offsets, each time the board showed it so: `Qg7 Nc6`,
/// the only question the promotion's; at least 6 times (9 now, each `P@g7` before the
/// queen's lying rivals were weighed where no reading showed exactly).
#[test]
fn a_lying_queen_read_as_a_pawn_only_after_the_reply_began_is_no_pawn_drop() {
    let pawn = Some(pc('P'));
    let mut held = 0;
    for offset in offsets(40) {
        let mut s = pawn_in_hand_and_on_the_seventh(EmulatorConfig {
            lying_pawn_flicker: 0.3,
            ..EmulatorConfig::default()
        });
        s.h7_takes_g8_laid_down().press(A, White).wait(1500);
        s.mv(A, "a4", "a3", 'p');
        s.wait(offset * 25);
        s.lift(A, "g8")
            .wait(300)
            .place(A, "g7", 'P')
            .lay_down(A, "g7")
            .wait(150)
            .press(A, White);
        let pressed = s.t;
        s.wait(100)
            .lift(A, "b8")
            .wait(450)
            .place(A, "c6", 'n')
            .wait(100)
            .press(A, Black)
            .wait(1500);
        s.mv(A, "b2", "b3", 'P');
        let p = s.run(3000);
        // The physics this asks about: the knight's lift, then g7 read as a pawn, both
        // shown by a scan after the press message, and g7 empty again after it.
        let message = s.clock_seen(A).into_iter().find(|&(t, _)| t > pressed);
        let lifted = s.first_seen(A, "b8", pressed, false);
        let g7: Vec<_> = s
            .seen(A, "g7")
            .into_iter()
            .filter(|&(t, _)| t > pressed)
            .collect();
        let read = match (message, lifted, g7.as_slice()) {
            (Some((message, _)), Some(lifted), [(t1, p1), (t2, None), ..]) => {
                *p1 == pawn && lifted < *t1 && *t1 <= message + 250 && t2 - t1 <= 520
            }
            _ => false,
        };
        if !read {
            continue;
        }
        held += 1;
        assert_eq!(
            p.sans(A)[10..],
            ["Qg7", "Nc6", "b3"],
            "offset {offset}: {g7:?}\n{}",
            p.dump()
        );
        assert!(
            p.alerts().iter().all(|a| *a == k(Promotion, Some("g8"))),
            "offset {offset}\n{}",
            p.dump()
        );
    }
    assert_happened(held, 6, "g7 read as a pawn after the knight's lift");
}

/// On board A Black's h-pawn reaches g2 (`black_pawn_on_g2`), 5...Nf6 6.Nf3 clears g1,
/// and Black promotes g2-g1, the queen laid on its side (the board sees nothing on g1),
/// and presses; White's hand is on the h1 rook at once, `Rxg1` taking the lying queen.
/// Where h1 showed empty before the press message came, "the pawn took on h1, laid on
/// its side there" explains the board exactly, and the rook set down on g1 then reads
/// as a rook dropped that White does not hold: read again with the ply before, only the
/// promotion on g1 taken at once fits, whatever piece it became (the board cannot
/// tell): the piece the record has. At 24 offsets of the scan, the reply 100 to 220 ms
/// after the press: `g1=Q Rxg1 a6` each time, the only question the promotion's; h1
/// shown empty before the message at least 6 times (without picking the piece the
/// record has, 5 end as `gxh1=Q R@g1`).
#[test]
fn a_promotion_laid_down_and_taken_at_once_is_no_capture_promotion_beside_it() {
    let mut relevant = 0;
    for offset in offsets(24) {
        let mut s = Scene::new("uscf-bughouse");
        s.black_pawn_on_g2();
        s.mv(A, "g8", "f6", 'n').mv(A, "g1", "f3", 'N');
        s.wait(offset * 23);
        s.lift(A, "g2")
            .wait(250)
            .place(A, "g1", 'p')
            .lay_down(A, "g1")
            .wait(150)
            .press(A, Black);
        let pressed = s.t;
        s.wait(100 + offset % 4 * 40)
            .lift(A, "h1")
            .wait(300)
            .place(A, "g1", 'R')
            .wait(150)
            .press(A, White)
            .wait(1500);
        s.mv(A, "a7", "a6", 'p');
        let p = s.run(3000);
        // The physics that asks it: h1 shown empty before the press message came.
        let message = s.clock_seen(A).into_iter().find(|&(t, _)| t > pressed);
        let lifted = s.first_seen(A, "h1", pressed, false);
        if let (Some((message, _)), Some(lifted)) = (message, lifted)
            && lifted < message
        {
            relevant += 1;
        }
        assert_eq!(
            p.sans(A)[9..],
            ["Nf6", "Nf3", "g1=Q", "Rxg1", "a6"],
            "offset {offset}\n{}",
            p.dump()
        );
        assert!(p.raised_only(Promotion), "offset {offset}\n{}", p.dump());
    }
    assert_happened(relevant, 6, "h1 shown empty before the message");
}

/// Black holds a rook (board B: 1.e4 h5 2.Qxh5 Rh6 3.Qxh6), and on board A (a Bluetooth
/// board, a 500 ms scan, that never reads a lying pawn) takes `gxh1`, lays the pawn on its
/// side there and presses; the TD hears it is a knight. White thinks, board A quiet: h1
/// stays empty two scans and more, its owner not to move, so the pawn lies on its side.
/// Then Black straightens the lying pawn (stands it up a moment and lays it down again),
/// and White plays `e3` at once, its reports and press all within two scans of that. Black
/// drops the rook on g3, a knight's step from h1: a pawn on its side shows nothing, so
/// the rook standing there is the drop, not the knight's move with a spare rook for its
/// token (a spare piece shows on every pass, and h1 never showed one). At 40 offsets the
/// record must read `gxh1=N e3 R@g3 d3` with only the promotion asked, and White's pawn
/// must have shown on e3 within two scans of h1 reading empty again at least 30 times (so
/// White's reports come too soon after h1 changed to tell the lying pawn by them).
#[test]
fn a_lying_pawn_s_square_empty_while_the_opponent_thinks_is_no_spare_piece() {
    let mut within = 0;
    for offset in offsets(40) {
        let mut s = bluetooth_lying_pawns_unseen();
        s.mv(B, "e2", "e4", 'P')
            .mv(B, "h7", "h5", 'p')
            .take(B, "d1", "h5", 'Q')
            .mv(B, "h8", "h6", 'r')
            .take(B, "h5", "h6", 'Q');
        s.black_pawn_on_g2();
        s.wait(offset * 29);
        let start = s.t;
        s.gxh1_laid_down()
            .wait(2000)
            .td(Scene::gxh1_is(Role::Knight))
            .wait(500)
            .place(A, "h1", 'p')
            .wait(600)
            .lay_down(A, "h1")
            .wait(100)
            .lift(A, "e2")
            .wait(100)
            .place(A, "e3", 'P')
            .wait(50)
            .press(A, White)
            .wait(1500)
            .place(A, "g3", 'r')
            .wait(300)
            .press(A, Black)
            .wait(1500);
        s.mv(A, "d2", "d3", 'P');
        let p = s.run(3000);
        // The straightened pawn read standing, then empty again, and White's pawn shown
        // on e3 within two scans of that.
        let h1 = s.seen(A, "h1");
        let relaid = h1
            .iter()
            .skip_while(|&&(t, x)| t <= start || x.is_none())
            .skip_while(|&&(_, x)| x.is_some())
            .find(|&&(_, x)| x.is_none())
            .map(|&(t, _)| t);
        let landed = s.first_seen(A, "e3", start, true);
        if relaid
            .zip(landed)
            .is_some_and(|(relaid, landed)| landed <= relaid + 1000)
        {
            within += 1;
        }
        let b = &p.sans(A)[9..];
        assert_eq!(
            b,
            ["gxh1=N", "e3", "R@g3", "d3"],
            "offset {offset}\n{}",
            p.dump()
        );
        assert_eq!(
            p.alerts(),
            [k(Promotion, Some("h1"))],
            "offset {offset}\n{}",
            p.dump()
        );
    }
    assert!(
        within >= 30,
        "White's move showed within two scans of the pawn laid down again only {within} times"
    );
}

/// Black's g2 pawn takes on h1 and is left standing there, a promoted pawn upright (read
/// on every pass); White answers c2-c4. Then Black remembers: lays the pawn on its side,
/// thinks `think_ms`, and moves g8-f6. At Black's commit h1 stands empty with nothing of
/// Black's set down since: the pawn laid down, not a queen missing, whether h1 has stood
/// empty two scans by then or less (the lying pawn read for a pass while Black thought,
/// as the USB board here reads one now and then). Returns the match played and whether
/// h1 read a pawn for longer than a lying pawn reads as one.
fn upright_then_laid_down_on_its_owner_s_turn(mut s: Scene, think_ms: Millis) -> (Played, bool) {
    s.black_pawn_on_g2();
    let start = s.t;
    s.lift(A, "g2")
        .wait(200)
        .lift(A, "h1")
        .wait(200)
        .place(A, "h1", 'p')
        .wait(300)
        .press(A, Black)
        .wait(1500)
        .td(Scene::gxh1_is_a_queen());
    s.mv(A, "c2", "c4", 'P');
    s.lay_down(A, "h1").wait(think_ms);
    s.mv(A, "g8", "f6", 'n');
    s.mv(A, "d2", "d3", 'P');
    let p = s.run(3000);
    let h1 = s.seen(A, "h1");
    let stood = h1
        .iter()
        .skip_while(|&&(t, x)| t <= start || x.is_none())
        .collect::<Vec<_>>();
    let upright = match stood[..] {
        [(on, Some(_)), (off, None), ..] => off - on > 2000,
        _ => false,
    };
    (p, upright)
}

/// The same on a USB board and on a Bluetooth one, Black thinking from 1.2 s (two
/// Bluetooth scans and more) to 3 s: at 24 offsets each, the record must read
/// `gxh1=Q c4 Nf6 d3` with only the promotion asked, h1 read standing every time.
#[test]
fn an_upright_promoted_pawn_laid_down_on_its_owner_s_turn_is_no_piece_missing() {
    for bluetooth in [false, true] {
        for offset in offsets(24) {
            let mut s = if bluetooth {
                Scene::bluetooth_a("uscf-bughouse")
            } else {
                Scene::new("uscf-bughouse")
            };
            s.wait(offset * 23);
            let (p, upright) = upright_then_laid_down_on_its_owner_s_turn(s, 1200 + offset * 75);
            assert!(
                upright,
                "bluetooth {bluetooth} offset {offset}\n{}",
                p.dump()
            );
            assert_eq!(
                p.sans(A)[9..],
                ["gxh1=Q", "c4", "Nf6", "d3"],
                "bluetooth {bluetooth} offset {offset}\n{}",
                p.dump()
            );
            assert!(
                p.raised_only(Promotion),
                "bluetooth {bluetooth} offset {offset}\n{}",
                p.dump()
            );
        }
    }
}

/// On board A (a Bluetooth board, a 500 ms scan, that never reads a lying pawn), White's
/// g7 pawn takes the rook on h8 and is laid on its side there, pressed at once; the scan
/// may pass h8 only after the press message, so the rook's square shows empty late, as
/// when Black lifts the rook to reply. Black's reply is the king: lifted from e8, set down
/// a moment on d6 (a square it cannot reach), then on e7. A king and a rook lifted from
/// the back rank and the king set down off it is no castling under way: the pawn's
/// `g8=Q` beside it leaves the rook gone and the king displaced, where `gxh8=Q` leaves
/// only the king. At 40 offsets the record must read `gxh8=Q Ke7` with only the
/// promotion asked, and h8 must have shown empty after the press message at least 6
/// times.
#[test]
fn a_lying_capture_promotion_shown_late_beside_a_king_off_its_rank_is_the_capture() {
    let mut late = 0;
    for offset in offsets(40) {
        let mut s = bluetooth_lying_pawns_unseen();
        s.mv(A, "h2", "h4", 'P')
            .mv(A, "g8", "f6", 'n')
            .mv(A, "h4", "h5", 'P')
            .mv(A, "e7", "e6", 'p')
            .mv(A, "h5", "h6", 'P')
            .mv(A, "a7", "a6", 'p')
            .take(A, "h6", "g7", 'P')
            .mv(A, "a6", "a5", 'p');
        s.wait(offset * 37);
        s.lift(A, "g7")
            .wait(150)
            .lift(A, "h8")
            .wait(200)
            .place(A, "h8", 'P')
            .lay_down(A, "h8")
            .wait(80)
            .press(A, White);
        let pressed = s.t;
        s.wait(350)
            .lift(A, "e8")
            .wait(150)
            .place(A, "d6", 'k')
            .wait(350)
            .lift(A, "d6")
            .wait(100)
            .place(A, "e7", 'k')
            .wait(150)
            .press(A, Black)
            .wait(1500);
        s.mv(A, "a2", "a3", 'P').mv(A, "a5", "a4", 'p');
        let p = s.run(3000);
        let message = s.clock_seen(A).into_iter().find(|&(t, _)| t > pressed);
        let emptied = s.first_seen(A, "h8", pressed.saturating_sub(400), false);
        if let (Some((message, _)), Some(emptied)) = (message, emptied)
            && emptied > message
        {
            late += 1;
        }
        assert_eq!(
            p.sans(A),
            [
                "h4", "Nf6", "h5", "e6", "h6", "a6", "hxg7", "a5", "gxh8=Q", "Ke7", "a3", "a4"
            ],
            "offset {offset}\n{}",
            p.dump()
        );
        assert!(p.raised_only(Promotion), "offset {offset}\n{}", p.dump());
    }
    assert_happened(late, 6, "h8 shown empty after the message");
}

/// The TD's answer to a White promotion on board A at move `number`: a queen.
fn white_queen(number: u32) -> TdAction {
    TdAction::SetPromotion {
        ply: PlyRef {
            board: A,
            color: White,
            number,
        },
        role: Role::Queen,
    }
}

/// White on board A (a board that never reads a lying pawn) has two queens laid on their
/// side, from `hxg8` and `gxh8`, and moves the one on h8 to g7 unseen, pressed (the TD is
/// asked where it went); Black answers `e6`. `offset` shifts the scan's phase.
fn two_lying_queens_and_h8_to_g7_unseen(offset: Millis) -> Scene {
    let mut s = Scene::lying_pawns_unseen("uscf-bughouse");
    s.pawn_on_the_seventh();
    s.h7_takes_g8_laid_down().press(A, White).wait(1500);
    s.td(white_queen(5));
    s.mv(A, "b7", "b6", 'p')
        .mv(A, "g2", "g4", 'P')
        .mv(A, "b6", "b5", 'p')
        .mv(A, "g4", "g5", 'P')
        .mv(A, "b5", "b4", 'p')
        .mv(A, "g5", "g6", 'P')
        .mv(A, "c7", "c6", 'p')
        .mv(A, "g6", "g7", 'P')
        .mv(A, "c6", "c5", 'p');
    s.lift(A, "g7")
        .wait(300)
        .lift(A, "h8")
        .wait(300)
        .place(A, "h8", 'P')
        .lay_down(A, "h8")
        .wait(300)
        .press(A, White)
        .wait(1500);
    s.td(white_queen(10));
    s.mv(A, "d7", "d6", 'p');
    s.wait(offset);
    s.lift(A, "h8")
        .wait(300)
        .place(A, "g7", 'P')
        .lay_down(A, "g7")
        .wait(100)
        .press(A, White)
        .wait(1500);
    s.mv(A, "e7", "e6", 'p');
    s
}

/// The TD's answer to where White's 11th move on board A went: to g7, the piece that
/// went named or not.
fn went_to_g7(from: Option<&str>) -> TdAction {
    TdAction::ChooseHiddenMove {
        ply: PlyRef {
            board: A,
            color: White,
            number: 11,
        },
        from: from.map(|f| f.parse().unwrap()),
        to: "g7".parse().unwrap(),
    }
}

/// Two lying queens moved unseen (`two_lying_queens_and_h8_to_g7_unseen`), the TD not
/// answering. Then the player straightens the queen on g8 (stood up a moment, laid down
/// again: the board reads a pawn there for a pass), `a3 f6` are played, and the player
/// straightens the one on g7. The pawn read on g7 is where the piece went; the one on g8,
/// two moves before, says the queen there never left: it was the h8 queen (`Qhg7`),
/// whichever the record guessed (at these offsets, the g8 queen's `Qg2`).
#[test]
fn of_two_lying_queens_the_one_read_where_it_stood_did_not_go() {
    for offset in offsets(10) {
        let mut s = two_lying_queens_and_h8_to_g7_unseen(offset * 41);
        s.lift(A, "g8")
            .wait(150)
            .place(A, "g8", 'P')
            .wait(300)
            .lay_down(A, "g8")
            .wait(1000);
        s.mv(A, "a2", "a3", 'P').mv(A, "f7", "f6", 'p');
        s.lift(A, "g7")
            .wait(150)
            .place(A, "g7", 'P')
            .wait(300)
            .lay_down(A, "g7")
            .wait(1500);
        let p = s.run(3000);
        assert_eq!(
            p.sans(A)[20..],
            ["Qhg7", "e6", "a3", "f6"],
            "offset {offset}\n{}",
            p.dump()
        );
        assert_eq!(p.open(Promotion), 0, "offset {offset}\n{}", p.dump());
    }
}

/// Two lying queens moved unseen (`two_lying_queens_and_h8_to_g7_unseen`): the TD's
/// answer names the queen that went, h8's, and the record takes it, though the g8 queen
/// reaches g7 too. An answer naming only the square keeps the piece the record guessed.
#[test]
fn the_td_names_which_of_two_lying_queens_went() {
    for (from, want) in [(Some("h8"), "Qhg7"), (Some("g8"), "Qgg7"), (None, "Qgg7")] {
        let mut s = two_lying_queens_and_h8_to_g7_unseen(0);
        s.wait(500).td(went_to_g7(from));
        let p = s.run(3000);
        assert_eq!(p.sans(A)[20..], [want, "e6"], "{from:?}\n{}", p.dump());
        assert_eq!(p.open(Promotion), 0, "{from:?}\n{}", p.dump());
    }
}

/// The lying queen goes h1-e4 unseen (the board never reads a lying pawn) and Black
/// presses. White's hand is on the g1 knight at once, beside the queen's square: while the
/// press is judged, "the queen took on g1" waits for the reply to tell. White plays Nf3
/// and presses, and Black lifts the d-pawn for d5 before that wait is over. The d7 pawn
/// showed gone more than two scans after Black's press message: it was lifted after the
/// lever, for Black's next move, and is no reading of the press (a `d6` never shown,
/// then `d5` read as `d6-d5` and the pawn missing). The record keeps the queen's unseen
/// move, asks the TD, who answers e4: `Qe4 Nf3 d5`.
#[test]
fn a_lying_queen_s_unseen_move_is_not_the_pawn_lifted_for_the_next_move_after_the_reply() {
    let mut happened = 0;
    for offset in offsets(30) {
        let mut s = lying_queen_on_h1_never_read();
        let pressed = queen_to_e4_unseen(&mut s);
        s.wait(50 + offset * 8)
            .lift(A, "g1")
            .wait(300)
            .place(A, "f3", 'N')
            .wait(200)
            .press(A, White)
            .wait(250)
            .lift(A, "d7")
            .wait(300)
            .place(A, "d5", 'p')
            .wait(300)
            .press(A, Black)
            .wait(1500)
            .td(queen_went_to_e4());
        s.wait(1500);
        let p = s.run(3000);
        let message = s.clock_seen(A).into_iter().find(|&(t, _)| t > pressed);
        let g1 = s.first_seen(A, "g1", pressed, false);
        let d7 = s.first_seen(A, "d7", pressed, false);
        let at = format!("offset {offset}: message {message:?}, g1 {g1:?}, d7 {d7:?}");
        assert_eq!(
            p.sans(A)[10..],
            ["c4", "Qe4", "Nf3", "d5"],
            "{at}\n{}",
            p.dump()
        );
        assert!(p.raised_only(Promotion), "{at}\n{}", p.dump());
        assert_eq!(p.open(Promotion), 0, "{at}\n{}", p.dump());
        // The physics: g1 shown empty while the press was judged (within a settling time
        // of its message), d7 more than two scans after the message.
        if let (Some((message, _)), Some(g1), Some(d7)) = (message, g1, d7)
            && g1 <= message + 300
            && d7 > message + 500
        {
            happened += 1;
        }
    }
    assert_happened(happened, 16, "the knight lifted while the press was judged");
}

/// White's knight has left g1, and Black's h-pawn has taken its way to g2 (1.a3 h5 2.f4 h4
/// 3.a4 h3 4.Nf3 hxg2 5.a5). White's hand, pressing, knocks the f4 pawn back onto g3, and
/// the TD is told. Black pushes g2-g1 and lays the pawn on its side there, a promoted
/// piece, and presses. The board shows g2 empty, g1 nothing, f4 empty and a white pawn on
/// g3. "Black pressed without a move, White's pawn taking en passant on g2" fitted that
/// cheaply, but a pawn takes en passant only from its fifth rank, beside the victim,
/// landing ahead: the promotion is the move, the pawn on g3 displaced. At 20 offsets the
/// record must read `g1=Q` and the TD hear only of the knocked pawn and of which piece
/// the promoted pawn is.
#[test]
fn a_pawn_knocked_behind_a_lying_promotion_s_square_is_no_en_passant() {
    for offset in offsets(20) {
        let mut s = Scene::lying_pawns_unseen("uscf-bughouse");
        s.mv(A, "a2", "a3", 'P')
            .mv(A, "h7", "h5", 'p')
            .mv(A, "f2", "f4", 'P')
            .mv(A, "h5", "h4", 'p')
            .mv(A, "a3", "a4", 'P')
            .mv(A, "h4", "h3", 'p')
            .mv(A, "g1", "f3", 'N')
            .take(A, "h3", "g2", 'p');
        s.lift(A, "a4")
            .wait(300)
            .place(A, "a5", 'P')
            .wait(300)
            .press(A, White)
            .wait(100)
            .knock(A, "f4", "g3")
            .wait(3000 + offset * 97);
        s.lift(A, "g2")
            .wait(300)
            .place(A, "g1", 'p')
            .lay_down(A, "g1")
            .wait(300)
            .press(A, Black)
            .wait(3000);
        let p = s.run(3000);
        assert_eq!(
            p.sans(A),
            [
                "a3", "h5", "f4", "h4", "a4", "h3", "Nf3", "hxg2", "a5", "g1=Q"
            ],
            "offset {offset}\n{}",
            p.dump()
        );
        assert_eq!(
            p.alerts(),
            [k(Displaced, Some("f4")), k(Promotion, Some("g1"))],
            "offset {offset}\n{}",
            p.dump()
        );
    }
}

/// White's queen from `hxg8=Q` lies on its side on g8, and the clock's messages come late
/// (a board that never reads a lying pawn by itself). White moves the lying queen g8-g6,
/// where the board sees nothing, and presses; Black's hand is at once on the pawn on b2,
/// the a-pawn set on b2 a moment later (`axb2`), and then White stands the queen on g6
/// up for a moment (read as a pawn for a pass) and lays it down again. The queen's
/// landing first showed after the pawn on b2 was lifted, but a lying piece shows when it
/// stands up, not when it lands: the pawn was the reply's victim, not a piece gone
/// before the queen moved. At 24 offsets: `Qg6 axb2`, and no alert but the promotion's
/// question (not the queen guessed elsewhere and the pawn told missing), each time g6
/// read as a pawn after b2 showed empty, at least 6 times.
#[test]
fn a_lying_queen_first_shown_after_the_reply_lifted_its_victim_moved_before_it() {
    let mut relevant = 0;
    for offset in offsets(24) {
        let mut s = pawn_in_hand_and_on_the_seventh(late_clock());
        s.h7_takes_g8_laid_down().press(A, White).wait(1500);
        s.mv(A, "a4", "a3", 'p');
        s.wait(offset * 23);
        let start = s.t;
        s.lift(A, "g8")
            .wait(250)
            .place(A, "g6", 'P')
            .lay_down(A, "g6")
            .wait(150)
            .press(A, White)
            .wait(150)
            .lift(A, "b2")
            .wait(200)
            .lift(A, "a3")
            .wait(150)
            .place(A, "b2", 'p')
            .wait(100)
            .place(A, "g6", 'P')
            .wait(300)
            .lay_down(A, "g6")
            .wait(100)
            .press(A, Black)
            .wait(1500);
        s.mv(A, "d2", "d3", 'P');
        let p = s.run(3000);
        let sans = p.sans(A);
        let context = format!(
            "offset {offset}: b2 {:?}, g6 {:?}, clock {:?}\n{}",
            s.seen(A, "b2"),
            s.seen(A, "g6"),
            s.clock_seen(A),
            p.dump()
        );
        assert_eq!(sans[sans.len() - 3..], ["Qg6", "axb2", "d3"], "{context}");
        assert_eq!(p.alerts(), [k(Promotion, Some("g8"))], "{context}");
        if let (Some(victim), Some(queen)) = (
            s.first_seen(A, "b2", start, false),
            s.first_seen(A, "g6", start, true),
        ) && victim < queen
        {
            relevant += 1;
        }
    }
    assert_happened(relevant, 6, "g6 read as a pawn after b2 showed empty");
}
