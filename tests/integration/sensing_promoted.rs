//! Promoted pawns laid on their side (US Chess bughouse 10c). The board reads a lying
//! pawn as nothing, or now and then, for one pass of its scan, as a pawn; a pawn set down
//! upright reads as a pawn on every pass until it is lifted. So a pawn shown once where a
//! lying promoted piece could have gone, and gone again at the next pass, is that piece's
//! move, not a drop of a pawn.

#![allow(clippy::unwrap_used)]

use crate::common::scene::{Scene, k, pc};
use shakmaty::Color::White;
use tandem::BoardId::A;
use tandem::arbiter::AlertKind::Promotion;
use tandem::sim::emulator::EmulatorConfig;

/// White on A holds a pawn (Black on B took one) and has a queen from h7xg8 laid on its
/// side on g8; Black has answered a4-a3. Board A never reads a lying pawn (the reads
/// a scenario relies on come from the hands, so that they are known).
fn lying_queen_and_a_pawn_in_hand() -> Scene {
    let a = EmulatorConfig {
        lying_pawn_flicker: 0.0,
        ..EmulatorConfig::default()
    };
    let mut s = Scene::with(
        "uscf-bughouse",
        a,
        EmulatorConfig {
            serial: "22222".into(),
            ..EmulatorConfig::default()
        },
    );
    s.black_takes_a_pawn_on_b();
    s.pawn_on_the_seventh();
    s.lift(A, "h7")
        .wait(300)
        .lift(A, "g8")
        .wait(300)
        .place(A, "g8", 'P')
        .lay_down(A, "g8")
        .wait(300)
        .press(A, White)
        .wait(1500);
    s.mv(A, "a4", "a3", 'p');
    s
}

#[test]
fn a_lying_queen_read_as_a_pawn_for_one_scan_where_it_lands_is_no_pawn_drop() {
    // White moves the lying queen g8-g7 (set down upright for a moment, then laid on its
    // side), presses, and Black answers b7-b6. Where the board read a pawn on g7 for one
    // pass only, as it reads a lying pawn now and then, that is the queen's move: a pawn
    // dropped there would have read on every pass.
    let pawn = Some(pc('P'));
    let mut read_once = 0;
    for offset in 0..40 {
        let mut s = lying_queen_and_a_pawn_in_hand();
        s.wait(offset * 25);
        let landed = s.t + 300;
        s.lift(A, "g8")
            .wait(300)
            .place(A, "g7", 'P')
            .wait(120)
            .lay_down(A, "g7")
            .wait(200);
        let pressed = s.t;
        s.press(A, White).wait(1200);
        let answered = s.t;
        s.mv(A, "b7", "b6", 'p');
        let p = s.run(3000);
        // The physics this asks about: on g7 the board showed a pawn for one pass, then
        // nothing, and the pawn showed before the press was judged (a press message comes
        // a moment after the lever at the earliest, and is judged a scan after it came).
        let g7: Vec<_> = s
            .seen(A, "g7")
            .into_iter()
            .filter(|&(t, _)| t >= landed && t <= answered)
            .collect();
        let once = matches!(g7.as_slice(),
            [(t1, p1), (t2, None), ..] if *p1 == pawn && t2 - t1 <= 300 && *t1 <= pressed + 300);
        if !once {
            continue;
        }
        read_once += 1;
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
    assert!(read_once >= 10, "only {read_once} single reads on g7");
}
