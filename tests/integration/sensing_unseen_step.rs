//! A pawn's first step never shown landing, taken at once by a pawn. On a Bluetooth board
//! (a 500 ms scan) a pawn set down and swept off again within a scan never shows: White's
//! g2 pawn goes to g3 or g4 and Black's f4 pawn takes it, landing on g3, either way. The
//! board shows g2 emptied, f4 emptied and a black pawn on g3; the reserve gets a pawn
//! either way. One step and a capture, or two steps and en passant: only the players can
//! say, so the TD is asked, the record's reading standing until the answer.

#![allow(clippy::unwrap_used)]

use crate::common::scene::Scene;
use shakmaty::Color::{Black, White};
use tandem::BoardId::A;
use tandem::arbiter::{AlertKind, PlyRef, Subject, TdAction};
use tandem::dgt::ClockSide;

/// Board A (Bluetooth) at 1.a3 f5 2.a4 f4; White's pawn from g2 goes to `to`, stands there
/// 100 ms, and Black's f4 pawn takes it (landing on g3); then 4.h3. The TD answers the
/// question with `answer`, if given.
fn step_taken_at_once(offset: u64, to: &str, answer: Option<&str>) -> Scene {
    let mut s = Scene::bluetooth_a("uscf-bughouse");
    s.mv(A, "a2", "a3", 'P')
        .mv(A, "f7", "f5", 'p')
        .mv(A, "a3", "a4", 'P')
        .mv(A, "f5", "f4", 'p');
    s.wait(offset * 37);
    s.lift(A, "g2")
        .wait(150)
        .place(A, to, 'P')
        .wait(40)
        .press(A, White)
        .wait(60)
        .lift(A, to)
        .wait(150)
        .lift(A, "f4")
        .wait(150)
        .place(A, "g3", 'p')
        .wait(250)
        .press(A, Black)
        .wait(1500);
    s.wait(500).mv(A, "h2", "h3", 'P').wait(1500);
    // The TD answers once the players have been asked, the game gone on meanwhile.
    if let Some(to) = answer {
        s.td(TdAction::ChooseHiddenMove {
            ply: step_ply(),
            from: None,
            to: to.parse().unwrap(),
        });
    }
    s
}

/// After a run: the board never showed White's pawn on g3 or g4.
fn never_shown(s: &Scene) -> bool {
    ["g3", "g4"].iter().all(|sq| {
        !s.seen(A, sq)
            .iter()
            .any(|(_, p)| p.is_some_and(|p| p.char() == 'P'))
    })
}

fn step_ply() -> PlyRef {
    PlyRef {
        board: A,
        color: White,
        number: 3,
    }
}

/// The questions raised about the step: the squares offered.
fn questions(p: &crate::common::scene::Played) -> Vec<Vec<String>> {
    p.raised
        .iter()
        .filter(|a| a.kind == AlertKind::UnseenMove)
        .filter_map(|a| match &a.subject {
            Subject::HiddenMove { ply, options } if *ply == step_ply() => {
                Some(options.iter().map(|o| o.to.to_string()).collect())
            }
            _ => None,
        })
        .collect()
}

/// Two steps and en passant, the pawn never shown on g4: recorded as one step and a
/// capture for now, the TD asked which; the answer makes it `g4 fxg3` (en passant). Shown
/// on g4, it is read as such and nothing is asked.
#[test]
fn a_two_step_taken_en_passant_before_the_board_showed_it_is_asked_about() {
    let mut unseen = 0;
    for offset in 0..16 {
        let mut s = step_taken_at_once(offset, "g4", None);
        let p = s.run(3000);
        let hidden = never_shown(&s);
        let want_now: &[&str] = if hidden {
            unseen += 1;
            &["a3", "f5", "a4", "f4", "g3", "fxg3", "h3"]
        } else {
            &["a3", "f5", "a4", "f4", "g4", "fxg3", "h3"]
        };
        assert_eq!(p.sans(A), want_now, "offset {offset}\n{}", p.dump());
        let asked = questions(&p);
        if hidden {
            assert_eq!(asked, [["g3", "g4"]], "offset {offset}\n{}", p.dump());
            assert_eq!(p.open(AlertKind::UnseenMove), 1, "offset {offset}");
            let detail = &p.raised[0].detail;
            assert!(
                detail.contains("g3 fxg3") && detail.contains("g4 fxg3 en passant"),
                "{detail}"
            );
        }
        assert_eq!(
            p.raised.len(),
            asked.len(),
            "nothing else raised, offset {offset}\n{}",
            p.dump()
        );
        // The TD's answer.
        let mut s = step_taken_at_once(offset, "g4", Some("g4"));
        let p = s.run(3000);
        assert_eq!(
            p.sans(A),
            ["a3", "f5", "a4", "f4", "g4", "fxg3", "h3"],
            "offset {offset}\n{}",
            p.dump()
        );
        let record = p.arb.game().record();
        assert!(
            matches!(record[5].mv, shakmaty::Move::EnPassant { .. }),
            "offset {offset}: {:?}",
            record[5].mv
        );
        assert_eq!(p.open(AlertKind::UnseenMove), 0, "offset {offset}");
        // Board B's White holds the pawn taken, either way.
        assert_eq!(
            p.arb.game().board(tandem::BoardId::B).reserve(White).pawn,
            1,
            "offset {offset}"
        );
    }
    assert!(unseen >= 4, "the pawn went unseen only {unseen} times");
}

/// One step and a capture, never shown on g3: the same question; the TD's answer keeps
/// the record as it was read.
#[test]
fn a_one_step_taken_before_the_board_showed_it_is_asked_about_too() {
    let mut unseen = 0;
    for offset in 0..16 {
        let mut s = step_taken_at_once(offset, "g3", None);
        let p = s.run(3000);
        let hidden = never_shown(&s);
        assert_eq!(
            p.sans(A),
            ["a3", "f5", "a4", "f4", "g3", "fxg3", "h3"],
            "offset {offset}\n{}",
            p.dump()
        );
        let asked = questions(&p);
        if hidden {
            unseen += 1;
            assert_eq!(asked, [["g3", "g4"]], "offset {offset}\n{}", p.dump());
        } else {
            assert!(asked.is_empty(), "offset {offset}\n{}", p.dump());
        }
        assert_eq!(p.raised.len(), asked.len(), "offset {offset}\n{}", p.dump());
        let mut s = step_taken_at_once(offset, "g3", Some("g3"));
        let p = s.run(3000);
        assert_eq!(
            p.sans(A),
            ["a3", "f5", "a4", "f4", "g3", "fxg3", "h3"],
            "offset {offset}\n{}",
            p.dump()
        );
        assert_eq!(p.open(AlertKind::UnseenMove), 0, "offset {offset}");
    }
    assert!(unseen >= 4, "the pawn went unseen only {unseen} times");
}

/// Two steps and en passant never shown, as above, but White's next move lands on the
/// step's square at once: on a Bluetooth board (1.e3 f5 2.a3 f4), `g4 fxg3` and the queen
/// set down on g4 (`Qg4`) before Black's press message came. The queen on g4 is no sight
/// of the pawn there: the TD is still asked which step it was. At 16 offsets, where the
/// pawn never showed and the queen showed on g4 before the capture was judged, the
/// question must be asked; so it must at least 4 times.
#[test]
fn a_step_taken_en_passant_is_asked_about_though_the_next_move_lands_on_its_square() {
    let mut relevant = 0;
    for offset in 0..16 {
        let mut s = Scene::bluetooth_a("uscf-bughouse");
        s.mv(A, "e2", "e3", 'P')
            .mv(A, "f7", "f5", 'p')
            .mv(A, "a2", "a3", 'P')
            .mv(A, "f5", "f4", 'p');
        s.wait(offset * 37);
        s.lift(A, "g2")
            .wait(150)
            .place(A, "g4", 'P')
            .wait(40)
            .press(A, White)
            .wait(60)
            .lift(A, "g4")
            .wait(150)
            .lift(A, "f4")
            .wait(150)
            .place(A, "g3", 'p')
            .wait(100)
            .press(A, Black);
        let pressed = s.t;
        s.wait(200)
            .lift(A, "d1")
            .wait(250)
            .place(A, "g4", 'Q')
            .wait(300)
            .press(A, White)
            .wait(1500);
        s.mv(A, "h7", "h6", 'p');
        let p = s.run(3000);
        let pawn_unseen = !s
            .seen(A, "g3")
            .iter()
            .chain(s.seen(A, "g4").iter())
            .any(|(_, p)| p.is_some_and(|p| p.char() == 'P'));
        // Unseen, the one step is recorded until the TD answers; shown, the two.
        let step = if pawn_unseen { "g3" } else { "g4" };
        assert_eq!(
            p.sans(A),
            ["e3", "f5", "a3", "f4", step, "fxg3", "Qg4", "h6"],
            "offset {offset}\n{}",
            p.dump()
        );
        // Black's press message: White's clock (on the left) reported running again.
        let message = s.running_reported(A, pressed, ClockSide::Left);
        let queen = s
            .seen(A, "g4")
            .into_iter()
            .find(|(_, p)| p.is_some_and(|p| p.char() == 'Q'))
            .map(|(t, _)| t);
        if pawn_unseen
            && let (Some(m), Some(q)) = (message, queen)
            && q < m + 550
        {
            relevant += 1;
            assert_eq!(
                questions(&p),
                [["g3", "g4"]],
                "offset {offset}\n{}",
                p.dump()
            );
        }
    }
    assert!(
        relevant >= 4,
        "the queen landed before the capture was judged only {relevant} times"
    );
}
