//! A move and its reply that leave the board as another pair would. Two shapes:
//!
//! - The mover's piece going from t to s and the reply landing on t (`Nf4 Nh3`), or a
//!   piece of that kind dropped on s and the reply taking the mover's piece on t (`N@f4
//!   Nxh3`). The squares end the same; only the reserves differ (a piece spent from the
//!   mover's hand, one more captured for the partner).
//! - A pawn promoting by taking on v, laid on its side (which the scan does not see), and
//!   the reply dropping a piece of the victim's kind on s, a move of that piece away
//!   (`cxb1=Q N@c3`), or the pawn promoting straight ahead, laid down too, and the piece
//!   on v moving to s (`c1=Q Nc3`). The board shows both alike: the lying piece on b1 or
//!   c1 reads as an empty square either way, and v empties and s fills in both.
//!
//! Only the order in which the board showed the squares change, and the press between,
//! can tell them apart, and the scan and the clock's late messages often cannot: then the
//! players are asked.
//!
//! Only a pair judged as the move (first shape) or as the capture and the drop (second)
//! has its twin looked for. A drop beside a move is read only when the board showed it
//! (the piece on s while t still stood), so the move is what the judge takes when nothing
//! shows otherwise. A lying promotion's reply is read as the drop when it is under way at
//! the judgement (one square in progress against the move's two), and the push is read
//! only when v still stood at the press message, which no capture on v allows.

use shakmaty::{Move, Piece, Role, Square};

use super::order::REPLY_AFTER_LANDING_MS;
use super::{CLOCK_MESSAGE_LAG_MS, Snapshot};
use crate::Millis;
use crate::rules::{BoardState, RulesPreset};

/// The two shapes of a pair with a twin (see the module's doc).
#[derive(Clone, Copy)]
enum Shape {
    /// The mover's `role` from t to s; the reply, `reply` from u (promoting to
    /// `promotion`), lands on t.
    Beside {
        role: Role,
        t: Square,
        s: Square,
        reply: Role,
        u: Square,
        promotion: Option<Role>,
    },
    /// A pawn from f promoting to `promotion` by taking `taken` on v; the reply drops a
    /// piece of that kind on s.
    LyingPromotion {
        f: Square,
        v: Square,
        taken: Role,
        promotion: Role,
        s: Square,
    },
}

fn shape(pair: [Move; 2]) -> Option<Shape> {
    match pair {
        [
            Move::Normal {
                role,
                from: t,
                capture: None,
                to: s,
                promotion: None,
            },
            Move::Normal {
                role: reply,
                from: u,
                capture: None,
                to,
                promotion,
            },
        ] if to == t => Some(Shape::Beside {
            role,
            t,
            s,
            reply,
            u,
            promotion,
        }),
        [
            Move::Normal {
                role: Role::Pawn,
                from: f,
                capture: Some(taken),
                to: v,
                promotion: Some(promotion),
            },
            Move::Put { role, to: s },
        ] if role == taken => Some(Shape::LyingPromotion {
            f,
            v,
            taken,
            promotion,
            s,
        }),
        _ => None,
    }
}

/// The twin of the recorded pair `pair` (a move, then its reply), by the moves' shape
/// alone: cheap, asked before anything else. Whether it could have been played is for
/// [`legal_pair`] and [`ruled_out`] to say.
#[must_use]
pub fn twin_of(pair: [Move; 2]) -> Option<[Move; 2]> {
    Some(match shape(pair)? {
        Shape::Beside {
            role,
            t,
            s,
            reply,
            u,
            promotion,
        } => [
            Move::Put { role, to: s },
            Move::Normal {
                role: reply,
                from: u,
                capture: Some(role),
                to: t,
                promotion,
            },
        ],
        Shape::LyingPromotion {
            f,
            v,
            taken,
            promotion,
            s,
        } => [
            Move::Normal {
                role: Role::Pawn,
                from: f,
                capture: None,
                to: Square::from_coords(f.file(), v.rank()),
                promotion: Some(promotion),
            },
            Move::Normal {
                role: taken,
                from: v,
                capture: None,
                to: s,
                promotion: None,
            },
        ],
    })
}

/// Does the board rule out the twin (see [`twin_of`]) of the recorded pair `pair` (the
/// mover's move from `state`, then the reply)? By what it showed in `history` (since
/// before the move): the pieces as they stood, and the order in which the squares changed.
/// `first_pressed_at`: when the mover's press message came.
#[must_use]
pub fn ruled_out(
    state: &BoardState,
    pair: [Move; 2],
    history: &[Snapshot],
    first_pressed_at: Millis,
    scan_ms: Millis,
) -> bool {
    let mover = state.turn();
    // When the board first showed `sq` as `shown` has it. With `after_start`, not if it
    // did so from the history's start: when that came is unknown.
    let first = |sq: Square, shown: &dyn Fn(Option<Piece>) -> bool, after_start: bool| {
        history
            .iter()
            .position(|h| shown(h.cells.get(sq).to_piece()))
            .filter(|&i| !after_start || i > 0)
            .map(|i| history[i].t_ms)
    };
    match shape(pair) {
        None => true,
        Some(Shape::Beside { role, t, s, .. }) => {
            // A promoted piece shows as its token, not as the piece a drop would show.
            if state.promoted().contains(t) {
                return true;
            }
            let piece = role.of(mover);
            // When the board first showed the piece on s, and first showed t without it.
            let (Some(filled), Some(emptied)) = (
                first(s, &|p| p == Some(piece), false),
                first(t, &|p| p != Some(piece), false),
            ) else {
                return true;
            };
            // Beside a drop, the piece on t is taken only after the press, a hand's move
            // after the drop landed (as `gone_before_move` in the judge has it), and the
            // press comes at most a clock message's lag before its message: t emptied
            // earlier rules the drop out.
            emptied + scan_ms < filled + REPLY_AFTER_LANDING_MS
                || emptied + CLOCK_MESSAGE_LAG_MS < first_pressed_at
        }
        Some(Shape::LyingPromotion { f, v, taken, s, .. }) => {
            // A promoted piece taken shows as its token, not as the piece a drop would
            // show; the pawn shown on v: the capture was seen.
            if state.promoted().contains(v)
                || history
                    .iter()
                    .any(|h| h.cells.get(v).color() == Some(mover))
            {
                return true;
            }
            let (pawn, victim) = (Role::Pawn.of(mover), taken.of(!mover));
            // When the board first showed v without the victim (in the twin the piece on v
            // moves only after the press, so not at the history's start), f without the
            // pawn, and s with a piece of the victim's kind.
            let (Some(emptied), Some(filled)) = (
                first(v, &|p| p != Some(victim), true),
                first(s, &|p| p == Some(victim), false),
            ) else {
                return true;
            };
            let left = first(f, &|p| p != Some(pawn), true);
            // In the twin the piece on v leaves after the press, so after the pawn left f,
            // was set down and the lever pressed, and before it lands on s; the press comes
            // at most a clock message's lag before its message.
            emptied + CLOCK_MESSAGE_LAG_MS < first_pressed_at
                || left.is_some_and(|left| emptied + scan_ms < left + REPLY_AFTER_LANDING_MS)
                || filled + scan_ms < emptied
        }
    }
}

/// Are both plies legal, each from the board the one before leaves?
#[must_use]
pub fn legal_pair(state: &BoardState, rules: &RulesPreset, pair: [Move; 2]) -> bool {
    let mut board = state.clone();
    pair.into_iter()
        .all(|m| board.judge(rules, m).is_legal() && board.apply(m, rules.promotion).is_ok())
}
