//! A promoted pawn standing in for a piece: the record holds a queen until the player says
//! which piece it is (the TD is asked once). Nothing else may be alarmed on the strength
//! of that guess: not a reply that is legal against the piece the pawn really is, not the
//! pawn "missing" when it was laid on its side just after it was set down.

#![allow(clippy::unwrap_used)]

use crate::common::scene::{Scene, assert_happened, k, offsets, pc};
use shakmaty::Color::{Black, White};
use shakmaty::Role;
use tandem::BoardId::A;
use tandem::Millis;
use tandem::arbiter::AlertKind::{GameEnd, IllegalMove, Promotion};
use tandem::arbiter::{PlyRef, Subject, TdAction};

/// Board A: White's h-pawn on h7 (1.h4 g5 2.hxg5 a6 3.g6 a5 4.gxh7 a4), a capture on g8
/// away from promoting; a lying pawn never reads as a pawn on board A (what the board
/// shows comes from the hands alone).
fn pawn_on_the_seventh() -> Scene {
    let mut s = Scene::lying_pawns_unseen("uscf-bughouse");
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
    s.h7_takes_g8_laid_down().press(A, White).wait(1500);
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

/// Board A: White's g-pawn on g7 (1.h4 g5 2.hxg5 a6 3.g6 a5 4.g7 a4), a capture on h8
/// away from promoting, where no Black piece could take back; a lying pawn never reads as
/// a pawn.
fn pawn_on_g7() -> Scene {
    let mut s = Scene::lying_pawns_unseen("uscf-bughouse");
    s.mv(A, "h2", "h4", 'P').mv(A, "g7", "g5", 'p');
    s.lift(A, "h4")
        .wait(300)
        .lift(A, "g5")
        .wait(300)
        .place(A, "g5", 'P')
        .wait(300)
        .press(A, White)
        .wait(1500);
    s.mv(A, "a7", "a6", 'p');
    s.mv(A, "g5", "g6", 'P').mv(A, "a6", "a5", 'p');
    s.mv(A, "g6", "g7", 'P').mv(A, "a5", "a4", 'p');
    s
}

#[test]
fn a_promoted_pawn_laid_down_just_after_the_press_is_not_missing() {
    // White takes on h8 and sets the pawn down upright, presses, and lays it on its side
    // a moment later (as a lying pawn read as a pawn for a few passes by chance looks
    // too). The board read a pawn on h8 for three passes and more, then nothing, the
    // square emptied after the press message and before the press was judged (a scan
    // after it), no Black piece able to take on h8: the pawn was laid down (or never
    // stood), not lifted; nobody is moving (Black thinks long, White's pieces stand
    // still). The square empty is no missing queen: two scans of it tell a pawn on its
    // side.
    let pawn = Some(pc('P'));
    let mut relevant = 0;
    for (phase, before_press, after_press) in
        (0..10).flat_map(|a| (0..8).flat_map(move |b| (0..3).map(move |c| (a, b, c))))
    {
        let mut s = pawn_on_g7();
        s.wait(phase * 25);
        s.lift(A, "g7").wait(300).lift(A, "h8").wait(300);
        let landed = s.t;
        s.place(A, "h8", 'P')
            .wait(300 + before_press * 50)
            .press(A, White);
        let pressed = s.t;
        s.wait(after_press * 100).lay_down(A, "h8").wait(2500);
        s.mv(A, "a4", "a3", 'p');
        let p = s.run(3000);
        // The physics: a pawn read on h8 for more than two and a quarter scans, gone
        // after the press message and within a settling time (a scan and 50 ms) of it.
        let h8 = s.seen(A, "h8");
        let read = h8.iter().find(|&&(t, q)| t >= landed && q == pawn);
        let gone = h8.iter().find(|&&(t, q)| t >= landed && q.is_none());
        let message = s.clock_seen(A).into_iter().find(|&(t, _)| t > pressed);
        let (Some(&(read, _)), Some(&(gone, _)), Some((message, _))) = (read, gone, message) else {
            continue;
        };
        if gone - read <= 625 || gone <= message || gone >= message + 300 {
            continue;
        }
        relevant += 1;
        let at = format!("{phase}/{before_press}/{after_press}: h8 {h8:?}, clock {message}");
        assert_eq!(p.sans(A)[8..], ["gxh8=Q", "a3"], "{at}\n{}", p.dump());
        assert_eq!(p.alerts(), [k(Promotion, Some("h8"))], "{at}\n{}", p.dump());
    }
    assert!(
        relevant >= 4,
        "only {relevant} runs of three passes and more"
    );
}

#[test]
fn a_reply_legal_where_the_player_says_a_hidden_piece_went_is_no_illegal_move() {
    // Black's h-pawn takes its way to h1 and promotes to a queen laid on its side (1.a3
    // h5 2.a4 h4 3.a5 h3 4.a6 hxg2 5.axb7 gxh1=Q; the TD hears it is a queen), White
    // answers 6.d3. Black moves the lying queen h1-d5, where the board sees nothing, and
    // presses: it may have gone to g2, f3, e4, d5 or c6, and the record guesses g2 until
    // the TD says. White answers Bf1-h3, through g2: illegal were the queen on g2. The TD
    // comes to the table only after the reply was recorded and hears d5: the reply was
    // legal, and nobody may be told otherwise.
    // Board A never reads a lying pawn.
    let mut s = Scene::lying_pawns_unseen("uscf-bughouse");
    s.black_pawn_on_g2();
    s.lift(A, "h1")
        .wait(200)
        .lift(A, "g2")
        .wait(200)
        .place(A, "h1", 'p')
        .lay_down(A, "h1")
        .wait(300)
        .press(A, Black)
        .wait(1500)
        .td(Scene::gxh1_is_a_queen());
    s.mv(A, "d2", "d3", 'P');
    s.lift(A, "h1")
        .wait(300)
        .place(A, "d5", 'p')
        .lay_down(A, "d5")
        .wait(300)
        .press(A, Black)
        .wait(1500);
    s.mv(A, "f1", "h3", 'B');
    let hidden = PlyRef {
        board: A,
        color: Black,
        number: 6,
    };
    let answered = s.t + 1500;
    s.wait(1500).td(TdAction::ChooseHiddenMove {
        ply: hidden,
        from: None,
        to: "d5".parse().unwrap(),
    });
    let p = s.run(3000);
    assert_eq!(
        p.sans(A)[7..],
        ["hxg2", "axb7", "gxh1=Q", "d3", "Qd5", "Bh3"],
        "{}",
        p.dump()
    );
    // The situation: the record guessed g2 (the question asked), and White's reply was
    // recorded before the TD answered.
    let question = p
        .raised
        .iter()
        .find(|a| matches!(&a.subject, Subject::HiddenMove { ply, .. } if *ply == hidden))
        .unwrap();
    let Subject::HiddenMove { options, .. } = &question.subject else {
        unreachable!()
    };
    assert_eq!(
        options.first().map(|o| o.to.to_string()).as_deref(),
        Some("g2")
    );
    let reply = p
        .arb
        .game()
        .record()
        .iter()
        .find(|q| q.board == A && q.color == White && q.number == 7)
        .cloned()
        .unwrap();
    assert!(reply.meta.t_ms.unwrap() < answered, "{}", p.dump());
    assert_eq!(
        p.alerts(),
        vec![k(Promotion, Some("h1")), k(Promotion, Some("h1"))],
        "{}",
        p.dump()
    );
}

#[test]
fn a_hidden_piece_taken_at_once_where_it_went_is_no_capture_of_the_taker() {
    // As above to 6.d3: Black's queen lies on h1, read by nobody. Black moves it h1-f3,
    // laid on its side again (the board sees nothing), and presses; White's hand is on
    // the g1 knight at once, lifts the lying queen from f3 and sets the knight there. The
    // scan may report g1 empty before Black's press is judged: then the board showed
    // exactly "the queen took on g1", and White's knight set on f3 reads as a drop White
    // does not hold. Together, `Qf3 Nxf3` explains both presses, legally: the record
    // takes it, and still asks where the queen went: it could as well have stopped on g2,
    // or gone on to e4, d5 or c6, with the knight's move a plain one (the board shows
    // none of them). The TD hears f3. At 24 offsets: `Qf3 Nxf3` each time, and the two
    // questions (which piece, and where it went) and nothing else; g1 reported empty
    // before Black's press message at least 4 times.
    let mut relevant = 0;
    for offset in 0..24 {
        let mut s = Scene::lying_pawns_unseen("uscf-bughouse");
        s.black_pawn_on_g2();
        s.lift(A, "g2")
            .wait(200)
            .place(A, "h1", 'p')
            .lay_down(A, "h1")
            .wait(300)
            .press(A, Black)
            .wait(1500)
            .td(Scene::gxh1_is_a_queen());
        s.mv(A, "d2", "d3", 'P');
        s.wait(offset * 23);
        s.lift(A, "h1")
            .wait(250)
            .place(A, "f3", 'p')
            .lay_down(A, "f3")
            .wait(80);
        let pressed = s.t;
        s.press(A, Black)
            .wait(90)
            .lift(A, "g1")
            .wait(150)
            .lift(A, "f3")
            .wait(150)
            .place(A, "f3", 'N')
            .wait(250)
            .press(A, White)
            .wait(1500)
            .td(TdAction::ChooseHiddenMove {
                from: None,
                ply: PlyRef {
                    board: A,
                    color: Black,
                    number: 6,
                },
                to: "f3".parse().unwrap(),
            });
        let p = s.run(3000);
        let message = s
            .clock_seen(A)
            .into_iter()
            .find(|&(t, _)| t > pressed)
            .map(|(t, _)| t);
        let g1 = s.first_seen(A, "g1", pressed, false);
        if let (Some(message), Some(g1)) = (message, g1)
            && g1 < message
        {
            relevant += 1;
        }
        assert_eq!(
            p.sans(A)[7..],
            ["hxg2", "axb7", "gxh1=Q", "d3", "Qf3", "Nxf3"],
            "offset {offset}\n{}",
            p.dump()
        );
        assert_eq!(
            p.alerts(),
            vec![k(Promotion, Some("h1")), k(Promotion, Some("h1"))],
            "offset {offset}\n{}",
            p.dump()
        );
    }
    assert!(
        relevant >= 4,
        "g1 showed empty before Black's press message only {relevant} times"
    );
}

/// Board A: 1.a3 h5 2.a4 h4 3.a5 h3 4.a6 hxg2 5.b3 d6 6.b4 Bh3 7.b5: Black's pawn on g2
/// takes on f1 next, the bishop on h3 guarding f1 once the pawn has left g2. A queen there
/// mates (the king on e1 has nowhere to go and nothing takes f1); a bishop does not, and
/// White's knight on g1 takes the bishop on h3.
fn bishop_on_h3_pawn_on_g2() -> Scene {
    let mut s = Scene::new("uscf-bughouse");
    s.mv(A, "a2", "a3", 'P')
        .mv(A, "h7", "h5", 'p')
        .mv(A, "a3", "a4", 'P')
        .mv(A, "h5", "h4", 'p')
        .mv(A, "a4", "a5", 'P')
        .mv(A, "h4", "h3", 'p')
        .mv(A, "a5", "a6", 'P')
        .take(A, "h3", "g2", 'p')
        .mv(A, "b2", "b3", 'P')
        .mv(A, "d7", "d6", 'p')
        .mv(A, "b3", "b4", 'P')
        .mv(A, "c8", "h3", 'b')
        .mv(A, "b4", "b5", 'P');
    s
}

/// On `bishop_on_h3_pawn_on_g2`: Black takes on f1 with the pawn left upright and
/// presses; `reply_after` ms on, White's knight takes the bishop on h3 (the victim lifted
/// first) and White presses; the TD hears "bishop" `named_after` ms after Black's press.
/// Returns when Black pressed.
fn gxf1_upright_then_nxh3(s: &mut Scene, reply_after: Millis, named_after: Millis) -> Millis {
    s.lift(A, "f1")
        .wait(200)
        .lift(A, "g2")
        .wait(200)
        .place(A, "f1", 'p')
        .wait(150);
    let pressed = s.t;
    s.press(A, Black).wait(reply_after);
    s.lift(A, "h3").wait(400).lift(A, "g1").wait(200);
    s.place(A, "h3", 'N').wait(300).press(A, White);
    let pressed_white = s.t;
    s.t = pressed + named_after;
    s.td(TdAction::SetPromotion {
        ply: PlyRef {
            board: A,
            color: Black,
            number: 7,
        },
        role: Role::Bishop,
    });
    s.t = s.t.max(pressed_white);
    pressed
}

#[test]
fn a_reply_to_a_promotion_that_mates_only_as_a_queen_is_no_missing_piece() {
    // Black takes on f1 and promotes to a bishop, leaving the pawn upright; the record
    // guesses a queen, which mates. White's hand is on the bishop on h3 within a few
    // tenths of a second of Black's press (the knight takes it), at some offsets before
    // the press is judged: the bishop gone from h3 is the reply's victim, not a piece
    // missing after a mate. The TD hears "bishop" 0.6 s after the press, while the knight
    // is on its way. At 24 offsets: `gxf1=B Nxh3` and the one question, nothing else; h3
    // shown empty by the time Black's press was judged at least 4 times.
    let mut relevant = 0;
    for offset in offsets(24) {
        let mut s = bishop_on_h3_pawn_on_g2();
        let pressed = gxf1_upright_then_nxh3(&mut s, 150 + offset * 23, 600);
        let p = s.run(4000);
        assert_eq!(
            p.sans(A)[11..],
            ["Bh3", "b5", "gxf1=B", "Nxh3"],
            "offset {offset}\n{}",
            p.dump()
        );
        assert_eq!(
            p.alerts()
                .into_iter()
                .filter(|(k, _)| *k != GameEnd)
                .collect::<Vec<_>>(),
            [k(Promotion, Some("f1"))],
            "offset {offset}\n{}",
            p.dump()
        );
        assert_eq!(p.arb.game().result(), None, "offset {offset}");
        // Black's press judged (the question asked) with h3 already shown empty.
        let judged = p
            .raised
            .iter()
            .find(|a| a.kind == Promotion)
            .map(|a| a.t_ms);
        let emptied = s.first_seen(A, "h3", pressed, false);
        if let (Some(judged), Some(emptied)) = (judged, emptied)
            && emptied <= judged
        {
            relevant += 1;
        }
    }
    assert_happened(relevant, 4, "h3 shown empty by the judgement");
}

#[test]
fn a_piece_named_after_it_moved_on_takes_its_moves_with_it() {
    // White promotes h7xg8 with the pawn left upright: a queen on record. White moves it
    // g8-h7 and Black answers; only then does the TD hear "bishop". The record's later
    // move of that piece (a queen's until now) is the bishop's too: the answer is taken,
    // not refused as a record that no longer plays.
    let mut s = pawn_on_the_seventh();
    s.h7_takes_g8_upright().press(A, White).wait(1500);
    s.mv(A, "b7", "b6", 'p');
    s.mv(A, "g8", "h7", 'P');
    s.mv(A, "b6", "b5", 'p');
    s.td(TdAction::SetPromotion {
        ply: PROMOTION,
        role: Role::Bishop,
    });
    let p = s.run(3000);
    assert_eq!(p.arb.td_refusal(), None, "{}", p.dump());
    assert_eq!(
        p.sans(A)[8..],
        ["hxg8=B", "b6", "Bh7", "b5"],
        "{}",
        p.dump()
    );
    assert_eq!(p.alerts(), [k(Promotion, Some("g8"))], "{}", p.dump());
    assert_eq!(p.open(Promotion), 0);
}

#[test]
fn a_mate_withdrawn_when_the_piece_is_named_lets_the_match_go_on() {
    // As in `a_reply_to_a_promotion_that_mates_only_as_a_queen_is_no_missing_piece`, the
    // TD coming to the table only 4 s after Black's press: by then the
    // record's queen has mated (the end announced) and White has taken the bishop on h3
    // and pressed, a move the record could not take while the match stood over. The TD
    // hears "bishop": the end is withdrawn (its alert cleared), and White's move is read
    // with Black's next, e7-e5: the match goes on.
    let mut s = bishop_on_h3_pawn_on_g2();
    gxf1_upright_then_nxh3(&mut s, 400, 4000);
    s.wait(1000).mv(A, "e7", "e5", 'p');
    let p = s.run(4000);
    assert_eq!(
        p.sans(A)[11..],
        ["Bh3", "b5", "gxf1=B", "Nxh3", "e5"],
        "{}",
        p.dump()
    );
    assert_eq!(
        p.alerts(),
        [k(Promotion, Some("f1")), k(GameEnd, None)],
        "{}",
        p.dump()
    );
    assert_eq!(p.open(GameEnd), 0, "{}", p.dump());
    assert_eq!(p.arb.game().result(), None);
}
