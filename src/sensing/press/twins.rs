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
//!
//! A third pair needs the board's state, not only the moves (`lying_twins`): a promoted
//! piece laid on its side moved to s and taken there (`Nc2 Qxc2`) against a pawn dropped
//! on s and taken there (`P@c2 Qxc2`). A lying piece reads as nothing, now and then as a
//! pawn for a pass (or is set down upright a moment before it is laid down); a pawn
//! dropped and lifted at once to be taken reads as a pawn for a pass or two as well. Its
//! twin is looked for whichever of the two the judge took.

use shakmaty::{Move, Piece, Role, Square};

use super::order::{REPLY_AFTER_LANDING_MS, taken_too_soon_to_answer};
use super::{CLOCK_MESSAGE_LAG_MS, Snapshot, Token, Tokens, lying_read_ms};
use crate::Millis;
use crate::dgt::Orientation;
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
/// `first_pressed_at`: when the mover's press message came; the board scans in
/// `scan_order` (if known), a pass taking `scan_ms`.
#[must_use]
pub fn ruled_out(
    state: &BoardState,
    pair: [Move; 2],
    history: &[Snapshot],
    first_pressed_at: Millis,
    (scan_ms, scan_order): (Millis, Option<Orientation>),
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
            // So does t shown emptied before s filled, in a pass that had passed s, still
            // empty, a moment before: the drop came after that, the reply's hand on t
            // only a lever and a glance later (`N@c3 Nxb5` on a board scanning c3 a few
            // fields before b5, b5 shown left first: the knight's own `Nc3`).
            emptied + scan_ms < filled + REPLY_AFTER_LANDING_MS
                || emptied + CLOCK_MESSAGE_LAG_MS < first_pressed_at
                || taken_too_soon_to_answer((scan_order, scan_ms), (s, filled), (t, emptied))
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

/// Could the recorded pair `pair` have a lying twin (see [`lying_twins`])? Cheap, by the
/// moves' shape and the promoted pieces' `tokens` before the move: the reply takes on the
/// move's square, and the move is a pawn dropped beside a piece laid on its side, or that
/// piece's move.
#[must_use]
pub fn may_have_lying_twin(pair: [Move; 2], tokens: &Tokens) -> bool {
    let lying = |sq: Square| tokens.get(sq).is_some_and(Token::is_hidden);
    let taken_there = pair[1].is_capture() && pair[1].to() == pair[0].to();
    taken_there
        && match pair[0] {
            Move::Put {
                role: Role::Pawn, ..
            } => tokens.iter().any(|(_, t)| t.is_hidden()),
            Move::Normal {
                from,
                capture: None,
                promotion: None,
                ..
            } => lying(from),
            _ => false,
        }
}

/// The twins a promoted piece of the mover's laid on its side (`tokens`: how the promoted
/// pieces looked before the move) makes of the recorded pair `pair`, the reply taking on
/// the move's square: for a pawn dropped there, each lying piece's move there (`P@c2
/// Qxc2` against `Nc2 Qxc2`); for a lying piece's move, a pawn dropped there. Whether they
/// could have been played is for [`legal_pair`] and [`lying_twin_ruled_out`] to say.
#[must_use]
pub fn lying_twins(state: &BoardState, tokens: &Tokens, pair: [Move; 2]) -> Vec<[Move; 2]> {
    if !may_have_lying_twin(pair, tokens) {
        return Vec::new();
    }
    let Move::Normal {
        role: taker,
        from: u,
        to: s,
        promotion,
        ..
    } = pair[1]
    else {
        return Vec::new();
    };
    let taking = |role: Role| Move::Normal {
        role: taker,
        from: u,
        capture: Some(role),
        to: s,
        promotion,
    };
    let board = state.board();
    match pair[0] {
        Move::Put { .. } => tokens
            .iter()
            .filter(|&(h, t)| t.is_hidden() && board.color_at(h) == Some(state.turn()))
            .filter_map(|(h, _)| {
                let role = board.role_at(h)?;
                let moved = Move::Normal {
                    role,
                    from: h,
                    capture: None,
                    to: s,
                    promotion: None,
                };
                Some([moved, taking(role)])
            })
            .collect(),
        _ => vec![[
            Move::Put {
                role: Role::Pawn,
                to: s,
            },
            taking(Role::Pawn),
        ]],
    }
}

/// Does the board rule out the lying twin `twin` of the recorded pair `pair` (see
/// [`lying_twins`]; `state` before the move, `history` since before it, `first_pressed_at`
/// when the mover's press message came)? Only a pawn read on the square for a pass or
/// two, then nothing until the taker came, leaves both open:
/// - never read as a pawn, there is nothing to mistake (a drop taken before the scan
///   passed is the taken drop's own question);
/// - read as a pawn longer than a lying piece reads so, or until the taker was put
///   straight onto it, a pawn stood there;
/// - read as a pawn again after it went, it was a lying piece's flicker (a pawn taken
///   does not come back);
/// - the lying piece read where it lay after the pawn showed, it had not moved;
/// - the pawn gone before the press could have come, it was no victim of the reply.
#[must_use]
pub fn lying_twin_ruled_out(
    state: &BoardState,
    pair: [Move; 2],
    twin: [Move; 2],
    history: &[Snapshot],
    first_pressed_at: Millis,
    scan_ms: Millis,
) -> bool {
    let (dropped, moved) = match (pair[0], twin[0]) {
        (Move::Put { .. }, moved) => (true, moved),
        (moved, _) => (false, moved),
    };
    let (Some(h), s) = (moved.from(), moved.to()) else {
        return true;
    };
    let mover = state.turn();
    let pawn = Some(mover.pawn());
    // The runs of the pawn on s: first and one-past-last snapshot.
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for (i, snap) in history.iter().enumerate() {
        if snap.cells.get(s).to_piece() != pawn {
            continue;
        }
        match runs.last_mut() {
            Some(run) if run.1 == i => run.1 = i + 1,
            _ => runs.push((i, i + 1)),
        }
    }
    let Some(&(first, first_end)) = runs.first() else {
        return true;
    };
    let stood = runs.iter().any(|&(start, end)| {
        let until = history.get(end).or(history.last()).map_or(0, |h| h.t_ms);
        until.saturating_sub(history[start].t_ms) > lying_read_ms(scan_ms)
            || history
                .get(end)
                .is_some_and(|h| h.cells.get(s).color() == Some(!mover))
    });
    let came_back = runs.len() > 1;
    let lay_still = history[first..]
        .iter()
        .any(|snap| snap.cells.get(h).to_piece() == pawn);
    let gone_before_press = history
        .get(first_end)
        .is_some_and(|h| h.t_ms + CLOCK_MESSAGE_LAG_MS < first_pressed_at);
    if dropped {
        stood || lay_still
    } else {
        came_back || gone_before_press
    }
}

/// Are both plies legal, each from the board the one before leaves?
#[must_use]
pub fn legal_pair(state: &BoardState, rules: &RulesPreset, pair: [Move; 2]) -> bool {
    let mut board = state.clone();
    pair.into_iter()
        .all(|m| board.judge(rules, m).is_legal() && board.apply(m, rules.promotion).is_ok())
}
