//! A move and its reply that leave the board as another pair would: the mover's piece
//! going from t to s and the reply landing on t (`Nf4 Nh3`), or a piece of that kind
//! dropped on s and the reply taking the mover's piece on t (`N@f4 Nxh3`). The squares
//! end the same; only the reserves differ (a piece spent from the mover's hand, one more
//! captured for the partner). Only the order in which the board showed t empty and s
//! filled, and the press between, can tell them apart, and the scan and the clock's late
//! messages often cannot: then the players are asked.
//!
//! Only a pair judged as the move has its drop twin looked for. A drop is read only when
//! the board showed it (the piece on s while t still stood); a move is what the judge
//! takes when nothing shows otherwise, and then the drop taken at t may be what happened.

use shakmaty::{Move, Square};

use super::order::REPLY_AFTER_LANDING_MS;
use super::{CLOCK_MESSAGE_LAG_MS, Snapshot};
use crate::Millis;
use crate::rules::{BoardState, RulesPreset};

/// The drop twin of the recorded pair `pair` (the mover's move from `state`, then the
/// reply landing where the piece stood), if it has one, both of its plies legal, and the
/// board's `history` (since before the move) does not rule it out. `first_pressed_at`:
/// when the mover's press message came.
#[must_use]
pub fn drop_twin(
    state: &BoardState,
    rules: &RulesPreset,
    pair: [Move; 2],
    history: &[Snapshot],
    first_pressed_at: Millis,
    scan_ms: Millis,
) -> Option<[Move; 2]> {
    let [
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
    ] = pair
    else {
        return None;
    };
    // A promoted piece shows as its token, not as the piece a drop would show.
    if to != t || state.promoted().contains(t) {
        return None;
    }
    let twin = [
        Move::Put { role, to: s },
        Move::Normal {
            role: reply,
            from: u,
            capture: Some(role),
            to: t,
            promotion,
        },
    ];
    if !legal_pair(state, rules, twin) {
        return None;
    }
    let piece = role.of(state.turn());
    let shows = |h: &Snapshot, sq: Square| h.cells.get(sq).to_piece() == Some(piece);
    // When the board first showed the piece on s, and first showed t without it.
    let filled = history.iter().find(|h| shows(h, s))?.t_ms;
    let emptied = history.iter().find(|h| !shows(h, t))?.t_ms;
    // Beside a drop, the piece on t is taken only after the press, a hand's move after the
    // drop landed (as `gone_before_move` in the judge has it), and the press comes at most
    // a clock message's lag before its message: t emptied earlier rules the drop out.
    let not_dropped = emptied + scan_ms < filled + REPLY_AFTER_LANDING_MS
        || emptied + CLOCK_MESSAGE_LAG_MS < first_pressed_at;
    (!not_dropped).then_some(twin)
}

/// Are both plies legal, each from the board the one before leaves?
fn legal_pair(state: &BoardState, rules: &RulesPreset, pair: [Move; 2]) -> bool {
    let mut board = state.clone();
    pair.into_iter()
        .all(|m| board.judge(rules, m).is_legal() && board.apply(m, rules.promotion).is_ok())
}
