//! Presses judged late: a piece taken by the reply before the scan showed it land leaves
//! its press unclear until a later press tells, and the board's reports go on meanwhile.
//! No alert may come from having waited: not the unclear press told as a press without a
//! move, not the reply's landing taken for a later move, not the mover's press told as
//! ambiguous when the reply showed which it was.

#![allow(clippy::unwrap_used)]

use crate::common::scene::{Scene, pc};
use shakmaty::Color::{Black, White};
use tandem::BoardId::A;

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
