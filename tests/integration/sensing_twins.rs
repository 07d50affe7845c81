//! Twins: `Nf4 Bh3` (the knight from h3 to f4, the bishop landing where it stood) and
//! `N@f4 Bxh3` (a knight dropped on f4, the bishop taking the one on h3) leave every
//! square the same; only the reserves differ. The board tells them apart only by when it
//! showed h3 empty: before f4 filled and before the press for the move, a hand's move
//! after the press for the drop. A drop taken beside quickly, scanned as h3 empty just
//! after f4 filled and reported with a late press message, reads as the move; then the TD
//! is asked which pair was played (`unseen_move`), and the players' answer stands.

#![allow(clippy::unwrap_used)]

use crate::common::scene::{Played, Scene, assert_happened};
use shakmaty::Color::{Black, White};
use shakmaty::Role;
use tandem::BoardId::{A, B};
use tandem::arbiter::{AlertKind, PlyRef, Subject, TdAction};

/// Board B: 1.Nc3 d5 2.Nxd5 Qxd5 (Black's queen takes the knight: White on A holds it),
/// and board A: 1.Nh3 d6 (Black's bishop on c8 sees h3).
fn white_a_holds_a_knight(s: &mut Scene) {
    s.mv(B, "b1", "c3", 'N')
        .mv(B, "d7", "d5", 'p')
        .take(B, "c3", "d5", 'N')
        .take(B, "d8", "d5", 'q');
    s.mv(A, "g1", "h3", 'N').mv(A, "d7", "d6", 'p');
}

/// Board A (Bluetooth or USB) after [`white_a_holds_a_knight`], `offset` steps of 31 ms
/// further into the boards' scans.
fn knight_in_hand_at(bluetooth: bool, offset: u64) -> Scene {
    let mut s = if bluetooth {
        Scene::bluetooth_a("uscf-bughouse")
    } else {
        Scene::new("uscf-bughouse")
    };
    white_a_holds_a_knight(&mut s);
    s.wait(offset * 31);
    s
}

/// White's move 2 on board A: the knight's move or drop.
const WHITE_2: PlyRef = PlyRef {
    board: A,
    color: White,
    number: 2,
};

/// Black's move 2 on board A: the bishop's reply.
const BLACK_2: PlyRef = PlyRef {
    board: A,
    color: Black,
    number: 2,
};

const MOVED: &str = "Nf4 Bh3";
const DROPPED: &str = "N@f4 Bxh3";

/// The pair questions raised about White's move 2: their options.
fn questions(p: &Played) -> Vec<Vec<String>> {
    p.pair_questions(WHITE_2)
}

/// White drops the knight on f4 and presses at once; Black lifts the knight on h3
/// `victim_after` ms after the press, then the bishop, sets it on h3 and presses.
fn knight_dropped_and_the_one_beside_taken(s: &mut Scene, victim_after: u64) {
    s.place(A, "f4", 'N')
        .wait(40)
        .press(A, White)
        .wait(victim_after)
        .lift(A, "h3")
        .wait(150)
        .lift(A, "c8")
        .wait(200)
        .place(A, "h3", 'b')
        .wait(300)
        .press(A, Black)
        .wait(2000);
}

/// The drop, taken beside a hand's move after the press: at the offsets where the board
/// cannot tell it from the knight's move, the move is recorded and the TD asked; the
/// players' answer makes the record the drop and the capture (the knight passed to
/// Black's partner, spent from White's hand), and the question closes. Where the board
/// shows the drop, it is recorded with no question.
#[test]
fn a_drop_read_as_the_move_beside_it_is_asked_and_the_answer_stands() {
    let mut asked = 0;
    for bluetooth in [false, true] {
        for offset in 0..16 {
            let ctx = format!("bluetooth {bluetooth} offset {offset}");
            let mut s = knight_in_hand_at(bluetooth, offset);
            knight_dropped_and_the_one_beside_taken(&mut s, 150);
            let p = s.run(3000);
            let record = p.sans(A);
            assert_eq!(record.len(), 4, "{ctx}\n{}", p.dump());
            assert_eq!(record[..2], ["Nh3", "d6"], "{ctx}");
            let pair = record[2..].join(" ");
            let q = questions(&p);
            assert_eq!(
                p.raised.len(),
                q.len(),
                "{ctx}: only the question\n{}",
                p.dump()
            );
            if pair == DROPPED {
                assert!(q.is_empty(), "{ctx}: the drop was shown\n{}", p.dump());
                continue;
            }
            assert_eq!(pair.replace('+', ""), MOVED, "{ctx}\n{}", p.dump());
            assert_eq!(q, [vec![MOVED.to_owned(), DROPPED.to_owned()]], "{ctx}");
            asked += 1;
            // The players say the knight was dropped.
            s.wait(500).td(TdAction::ChoosePair {
                ply: WHITE_2,
                moves: DROPPED.to_owned(),
            });
            let p = s.run(3000);
            assert_eq!(p.sans(A)[2..].join(" "), DROPPED, "{ctx}\n{}", p.dump());
            assert_eq!(p.open(AlertKind::UnseenMove), 0, "{ctx}\n{}", p.dump());
            let game = p.arb.game();
            assert_eq!(game.board(A).reserve(White).get(Role::Knight), 0, "{ctx}");
            assert_eq!(
                game.board(B).reserve(White).get(Role::Knight),
                1,
                "{ctx}: the knight taken on A goes to Black's partner"
            );
        }
    }
    assert!(asked >= 4, "the drop read as the move only {asked} times");
}

/// The knight's move itself, the bishop landing on h3 `reply_after` ms after White's
/// press. `hand_ms`: how long the knight is in the hand.
fn knight_moved_and_the_bishop_landing_where_it_stood(
    s: &mut Scene,
    hand_ms: u64,
    reply_after: u64,
) {
    s.lift(A, "h3")
        .wait(hand_ms)
        .place(A, "f4", 'N')
        .wait(60)
        .press(A, White)
        .wait(reply_after)
        .lift(A, "c8")
        .wait(200)
        .place(A, "h3", 'b')
        .wait(300)
        .press(A, Black)
        .wait(2000);
}

/// The knight's move, answered at once: the move is recorded every time. Where the board
/// could not rule out the drop (the knight in the hand briefly, h3 scanned empty just
/// before f4 filled), the TD is asked, and the players' answer leaves the record as it
/// was and closes the question. With the knight in the hand as long as a hand takes and
/// the reply a moment later, a USB board always shows the move: nothing is asked.
#[test]
fn the_move_beside_a_drop_is_recorded_and_asked_only_when_the_board_cannot_tell() {
    let mut asked = 0;
    for bluetooth in [false, true] {
        for offset in 0..16 {
            let ctx = format!("bluetooth {bluetooth} offset {offset}");
            let mut s = knight_in_hand_at(bluetooth, offset);
            knight_moved_and_the_bishop_landing_where_it_stood(&mut s, 120, 150);
            let p = s.run(3000);
            assert_eq!(p.sans(A)[2..].join(" "), MOVED, "{ctx}\n{}", p.dump());
            let q = questions(&p);
            assert_eq!(
                p.raised.len(),
                q.len(),
                "{ctx}: only the question\n{}",
                p.dump()
            );
            if q.is_empty() {
                continue;
            }
            assert_eq!(q, [vec![MOVED.to_owned(), DROPPED.to_owned()]], "{ctx}");
            asked += 1;
            s.wait(500).td(TdAction::ChoosePair {
                ply: WHITE_2,
                moves: MOVED.to_owned(),
            });
            let p = s.run(3000);
            assert_eq!(p.sans(A)[2..].join(" "), MOVED, "{ctx}\n{}", p.dump());
            assert_eq!(p.open(AlertKind::UnseenMove), 0, "{ctx}\n{}", p.dump());
            assert_eq!(
                p.arb.game().board(A).reserve(White).get(Role::Knight),
                1,
                "{ctx}"
            );
            // A correction of the reply instead answers the question too: no stale
            // buttons offering a pair the record no longer has.
            let mut s = knight_in_hand_at(bluetooth, offset);
            knight_moved_and_the_bishop_landing_where_it_stood(&mut s, 120, 150);
            s.wait(500).td(TdAction::CorrectMove {
                ply: BLACK_2,
                mv: "Bg4".into(),
            });
            let p = s.run(3000);
            assert_eq!(p.sans(A)[2..].join(" "), "Nf4 Bg4", "{ctx}\n{}", p.dump());
            assert_eq!(p.open(AlertKind::UnseenMove), 0, "{ctx}\n{}", p.dump());
        }
    }
    assert!(asked >= 4, "the board could not tell only {asked} times");
    for offset in 0..16 {
        let ctx = format!("offset {offset}");
        let mut s = knight_in_hand_at(false, offset);
        knight_moved_and_the_bishop_landing_where_it_stood(&mut s, 300, 600);
        let p = s.run(3000);
        assert_eq!(p.sans(A)[2..].join(" "), MOVED, "{ctx}\n{}", p.dump());
        assert!(p.raised.is_empty(), "{ctx}\n{}", p.dump());
    }
}

/// Board A: 1.b3 e6 2.Bb2 a6 3.c4 P@c2 4.e3, Black's pawn on c2 beside White's knight on
/// b1 and queen on d1, c1 and e2 empty (Black holds the pawn from board B).
fn black_pawn_on_c2(s: &mut Scene) {
    s.mv(A, "b2", "b3", 'P').mv(A, "e7", "e6", 'p');
    s.mv(A, "c1", "b2", 'B').mv(A, "a7", "a6", 'p');
    s.mv(A, "c2", "c4", 'P');
    s.place(A, "c2", 'p').wait(200).press(A, Black).wait(1500);
    s.mv(A, "e2", "e3", 'P');
}

/// Black's pawn from c2 promotes on c1 and is laid on its side; White's piece on `from`
/// goes to `to` and is pressed; Black answers h6.
fn c1_laid_down_and_the_reply(s: &mut Scene, from: &str, to: &str, piece: char) {
    s.lift(A, "c2")
        .wait(150)
        .place(A, "c1", 'p')
        .lay_down(A, "c1")
        .wait(100)
        .press(A, Black)
        .wait(600)
        .lift(A, from)
        .wait(250)
        .place(A, to, piece)
        .wait(100)
        .press(A, White)
        .wait(2000);
    s.mv(A, "h7", "h6", 'p');
}

/// Black's promotion on A, move 4.
const PROMOTION: PlyRef = PlyRef {
    board: A,
    color: Black,
    number: 4,
};

/// The pair questions about the promotion still open: their options.
fn open_questions(p: &Played) -> Vec<Vec<String>> {
    p.arb
        .alerts()
        .open()
        .filter_map(|a| match &a.subject {
            Subject::Pairs { ply, options, .. } if *ply == PROMOTION => Some(options.clone()),
            _ => None,
        })
        .collect()
}

/// Runs `s`: Black's promotion and White's reply recorded either as `pushed`, with no
/// question, or as `taken`, with the one question open offering both; then the players
/// say `pushed` was played and the record takes it. `None` where the push was read; else
/// the run after the answer.
fn asked_and_answered(s: &mut Scene, ctx: &str, pushed: &str, taken: &str) -> Option<Played> {
    let p = s.run(3000);
    let record = p.sans(A);
    assert_eq!(record.len(), 10, "{ctx}\n{}", p.dump());
    assert_eq!(record[9], "h6", "{ctx}\n{}", p.dump());
    let pair = record[7..9].join(" ");
    if pair == pushed {
        assert!(open_questions(&p).is_empty(), "{ctx}\n{}", p.dump());
        return None;
    }
    assert_eq!(pair, taken, "{ctx}\n{}", p.dump());
    assert_eq!(
        open_questions(&p),
        [vec![taken.to_owned(), pushed.to_owned()]],
        "{ctx}\n{}",
        p.dump()
    );
    s.wait(500).td(TdAction::ChoosePair {
        ply: PROMOTION,
        moves: pushed.to_owned(),
    });
    let p = s.run(3000);
    assert_eq!(
        p.sans(A)[7..].join(" "),
        format!("{pushed} h6"),
        "{ctx}\n{}",
        p.dump()
    );
    Some(p)
}

/// `c1=Q Nc3` with the queen laid on its side, White holding a knight: the board shows it
/// as it would `cxb1=Q N@c3` (b1 and c1 both read empty with the lying piece on either,
/// b1 empties and c3 fills). With the clock's message late, the reply is under way when
/// the promotion is judged, and the drop (one square in progress) explains the board
/// better than the knight's move (two). Wherever the record has the capture and the drop,
/// the TD is asked which pair was played, and the players' answer stands: the knight back
/// in White's hand, none passed to White on B, and the piece's own question now about c1.
#[test]
fn a_lying_promotion_read_as_a_capture_beside_a_drop_is_asked_and_the_answer_stands() {
    const PUSHED: &str = "c1=Q Nc3";
    const TAKEN: &str = "cxb1=Q N@c3";
    let mut asked = 0;
    for offset in crate::common::scene::offsets(40) {
        let ctx = format!("offset {offset}");
        let mut s = Scene::late_clock_a("uscf-bughouse");
        s.mv(B, "b1", "c3", 'N').mv(B, "d7", "d5", 'p');
        s.take(B, "c3", "d5", 'N').take(B, "d8", "d5", 'q');
        black_pawn_on_c2(&mut s);
        s.wait(offset * 25);
        c1_laid_down_and_the_reply(&mut s, "b1", "c3", 'N');
        let Some(p) = asked_and_answered(&mut s, &ctx, PUSHED, TAKEN) else {
            continue;
        };
        asked += 1;
        assert_eq!(p.open(AlertKind::UnseenMove), 0, "{ctx}\n{}", p.dump());
        let game = p.arb.game();
        assert_eq!(game.board(A).reserve(White).get(Role::Knight), 1, "{ctx}");
        assert_eq!(game.board(B).reserve(White).get(Role::Knight), 0, "{ctx}");
        // The pair chosen does not name the piece: that question stays open, now about
        // the piece on c1, until the TD names it.
        let asked: Vec<_> = p
            .arb
            .alerts()
            .open()
            .map(|a| (a.kind, a.square.map(|sq| sq.to_string())))
            .collect();
        assert_eq!(
            asked,
            [(AlertKind::Promotion, Some("c1".to_owned()))],
            "{ctx}\n{}",
            p.dump()
        );
        s.wait(500).td(TdAction::SetPromotion {
            ply: PROMOTION,
            role: Role::Queen,
        });
        let p = s.run(3000);
        assert_eq!(p.arb.alerts().open().count(), 0, "{ctx}\n{}", p.dump());
    }
    assert!(
        asked >= 4,
        "the capture and the drop recorded only {asked} times"
    );
}

/// `c1=N Qe2`, the knight laid on its side, White holding a queen, the king on e1. As
/// guessed until the player names it, a queen, neither pair is legal: on c1 it pins
/// White's queen to the king, on d1 it gives check. So the question waits for the piece;
/// once the TD names the knight, it is asked with the knight, and the answer stands.
#[test]
fn a_lying_promotion_s_twin_is_asked_once_the_piece_is_named() {
    const PUSHED: &str = "c1=N Qe2";
    const TAKEN: &str = "cxd1=N Q@e2";
    let mut asked = 0;
    for offset in crate::common::scene::offsets(40) {
        let ctx = format!("offset {offset}");
        let mut s = Scene::late_clock_a("uscf-bughouse");
        // Board B: 1.e4 e5 2.Qh5 Nc6 3.Qxf7+ Kxf7: White on A holds a queen, Black a pawn.
        s.mv(B, "e2", "e4", 'P').mv(B, "e7", "e5", 'p');
        s.mv(B, "d1", "h5", 'Q').mv(B, "b8", "c6", 'n');
        s.take(B, "h5", "f7", 'Q').take(B, "e8", "f7", 'k');
        black_pawn_on_c2(&mut s);
        s.wait(offset * 25);
        c1_laid_down_and_the_reply(&mut s, "d1", "e2", 'Q');
        s.wait(500).td(TdAction::SetPromotion {
            ply: PROMOTION,
            role: Role::Knight,
        });
        let Some(p) = asked_and_answered(&mut s, &ctx, PUSHED, TAKEN) else {
            continue;
        };
        asked += 1;
        let open: Vec<_> = p.arb.alerts().open().map(|a| a.kind).collect();
        assert!(open.is_empty(), "{ctx}: {open:?}\n{}", p.dump());
        assert_eq!(
            p.arb.game().board(A).reserve(White).get(Role::Queen),
            1,
            "{ctx}"
        );
    }
    assert!(
        asked >= 4,
        "the capture and the drop recorded only {asked} times"
    );
}

/// White's lying queen's move on board A and Black's reply taking it there.
const QUEEN_TAKEN: &str = "Qh7 Rxh7";
/// A pawn from White's hand dropped there and taken instead.
const PAWN_TAKEN: &str = "P@h7 Rxh7";

/// White's move 6 on board A: the lying queen's move, or the drop.
const WHITE_6: PlyRef = PlyRef {
    board: A,
    color: White,
    number: 6,
};

/// White holds a pawn (Black on B took one) and has a queen from 5.hxg8 laid on its side
/// on g8 (the TD told "queen"); Black has answered a4-a3. White takes the lying queen to
/// h7, sets it down upright, presses and lays it on its side; Black lifts it at once,
/// hands it to the partner and takes with the h8 rook. The board read a pawn on h7 for a
/// pass (the queen upright, as a worn board reads a lying piece now and then), then
/// nothing, then the rook lifted most of a second later: so would a pawn dropped from
/// White's hand and lifted at once to be taken, the rook slow to follow. Where it read so,
/// whichever pair the record holds, the TD is asked which was played, and the players'
/// answer stands: the queen's move, the pawn still in White's hand. At 40 offsets, at
/// least 6 times.
#[test]
fn a_lying_queen_taken_where_it_landed_read_as_a_pawn_for_a_pass_is_asked() {
    let pawn = Some(crate::common::scene::pc('P'));
    let mut asked = 0;
    for offset in crate::common::scene::offsets(40) {
        let ctx = format!("offset {offset}");
        let mut s = Scene::with_a(
            "uscf-bughouse",
            tandem::sim::emulator::EmulatorConfig {
                lying_pawn_flicker: 0.0,
                ..tandem::sim::emulator::EmulatorConfig::default()
            },
        );
        s.black_takes_a_pawn_on_b();
        s.pawn_on_the_seventh();
        s.h7_takes_g8_laid_down().press(A, White).wait(1500);
        s.mv(A, "a4", "a3", 'p');
        s.td(TdAction::SetPromotion {
            ply: PlyRef {
                board: A,
                color: White,
                number: 5,
            },
            role: Role::Queen,
        });
        s.wait(offset * 23);
        let start = s.t;
        s.lift(A, "g8")
            .wait(300)
            .place(A, "h7", 'P')
            .wait(60)
            .press(A, White)
            .wait(150)
            .lay_down(A, "h7")
            .wait(250)
            .lift(A, "h7")
            .wait(700)
            .lift(A, "h8")
            .wait(250)
            .place(A, "h7", 'r')
            .wait(100)
            .press(A, Black)
            .wait(1500);
        s.mv(A, "b2", "b3", 'P');
        let p = s.run(3000);
        // The physics this asks about: h7 read as a pawn once, then nothing, then the
        // rook.
        let h7: Vec<_> = s
            .seen(A, "h7")
            .into_iter()
            .filter(|&(t, _)| t > start)
            .collect();
        let read_once = matches!(h7.as_slice(),
            [(_, p1), (_, None), (_, Some(r))] if *p1 == pawn && r.char() == 'r');
        if !read_once {
            continue;
        }
        let record = p.sans(A);
        assert_eq!(record.len(), 13, "{ctx}: {h7:?}\n{}", p.dump());
        let pair = record[10..12].join(" ");
        let q = p.pair_questions(WHITE_6);
        let other = if pair == QUEEN_TAKEN {
            PAWN_TAKEN
        } else {
            QUEEN_TAKEN
        };
        assert_eq!(
            q,
            [vec![pair.clone(), other.to_owned()]],
            "{ctx}: {h7:?}\n{}",
            p.dump()
        );
        asked += 1;
        s.wait(500).td(TdAction::ChoosePair {
            ply: WHITE_6,
            moves: QUEEN_TAKEN.to_owned(),
        });
        let p = s.run(3000);
        assert_eq!(
            p.sans(A)[10..].join(" "),
            format!("{QUEEN_TAKEN} b3"),
            "{ctx}\n{}",
            p.dump()
        );
        assert_eq!(p.arb.alerts().open().count(), 0, "{ctx}\n{}", p.dump());
        assert_eq!(
            p.arb.game().board(A).reserve(White).get(Role::Pawn),
            1,
            "{ctx}: the pawn still in White's hand\n{}",
            p.dump()
        );
    }
    assert_happened(asked, 6, "h7 read as a pawn once before the rook");
}
