//! Twins: `Nf4 Bh3` (the knight from h3 to f4, the bishop landing where it stood) and
//! `N@f4 Bxh3` (a knight dropped on f4, the bishop taking the one on h3) leave every
//! square the same; only the reserves differ. The board tells them apart only by when it
//! showed h3 empty: before f4 filled and before the press for the move, a hand's move
//! after the press for the drop. A drop taken beside quickly, scanned as h3 empty just
//! after f4 filled and reported with a late press message, reads as the move; then the TD
//! is asked which pair was played (`unseen_move`), and the players' answer stands.

#![allow(clippy::unwrap_used)]

use crate::common::scene::{Played, Scene};
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

/// The pair questions raised: their options.
fn questions(p: &Played) -> Vec<Vec<String>> {
    p.raised
        .iter()
        .filter_map(|a| match &a.subject {
            Subject::Pairs { ply, options, .. } if *ply == WHITE_2 => Some(options.clone()),
            _ => None,
        })
        .collect()
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
