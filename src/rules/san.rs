//! SAN as Tandem writes it: FICS/BughouseDB style.
//!
//! - Legal moves: standard SAN from shakmaty, pawn drops written `P@e3` (shakmaty writes
//!   `@e3`), `+` for check and `#` only for mate by the preset's definition (true mate in
//!   bughouse: a check a drop could block is `+`).
//! - Transfer Chess removal (a pawn reaching the last rank is removed): `e8=.` / `dxe8=.`,
//!   the form bughouse.pro writes for its discard promotion.
//! - Illegal moves (they stand until claimed): long form with both squares, `Bc1c3`,
//!   `Ke1xe2`, `e5xd6`, which SAN readers still tokenize as a move; the record adds a
//!   comment naming the rule broken.

use shakmaty::{CastlingSide, Move, Rank, Role, san::San};

use crate::rules::{BoardState, Legality, Promotion, RulesPreset, with_promotion};

/// A move and the reply after it, both legal, as the players read them out: `N@f4 Nxh3`
/// (each without its check suffix). The reply's text is left out if the move does not
/// play from `before`.
#[must_use]
pub fn pair_text(before: &BoardState, rules: &RulesPreset, pair: [Move; 2]) -> String {
    let mut board = before.clone();
    let first = move_text(&board, rules, pair[0], &Legality::Legal);
    if board.apply(pair[0], rules.promotion).is_err() {
        return first;
    }
    format!(
        "{first} {}",
        move_text(&board, rules, pair[1], &Legality::Legal)
    )
}

/// The text of `mv` played in `before`, without the check suffix.
#[must_use]
pub fn move_text(
    before: &BoardState,
    rules: &RulesPreset,
    mv: Move,
    legality: &Legality,
) -> String {
    if let Move::Put { role, to } = mv {
        return format!("{}@{}", role.upper_char(), to);
    }
    let removal = is_removal(rules, mv);
    match (legality, before.analysis()) {
        (Legality::Legal, Some(pos)) => {
            let lookup = if removal {
                with_promotion(mv, Some(Role::Queen))
            } else {
                mv
            };
            let san = San::from_move(pos, lookup);
            let mut text = san.to_string();
            if removal {
                // shakmaty wrote `=Q` for the stand-in promotion: removal is `=.`.
                if let Some(stripped) = text.strip_suffix("=Q") {
                    text = stripped.to_owned();
                }
                text.push_str("=.");
            }
            text
        }
        _ => long_form(before, mv, removal),
    }
}

/// `+`, `#` or nothing, judged on the position after the move.
#[must_use]
pub fn suffix(after: &BoardState, rules: &RulesPreset) -> &'static str {
    if !after.is_check() {
        ""
    } else if after.is_mate(rules) {
        "#"
    } else {
        "+"
    }
}

/// A pawn move onto the last rank with no promotion piece under removal rules.
#[must_use]
pub fn is_removal(rules: &RulesPreset, mv: Move) -> bool {
    match mv {
        Move::Normal {
            role: Role::Pawn,
            to,
            promotion: None,
            ..
        } => {
            rules.promotion == Promotion::Removal && matches!(to.rank(), Rank::First | Rank::Eighth)
        }
        _ => false,
    }
}

fn long_form(before: &BoardState, mv: Move, removal: bool) -> String {
    match mv {
        Move::Castle { king, rook } => match CastlingSide::from_queen_side(rook < king) {
            CastlingSide::KingSide => "O-O".into(),
            CastlingSide::QueenSide => "O-O-O".into(),
        },
        Move::Normal {
            role,
            from,
            to,
            promotion,
            ..
        } => {
            let capture = before.board().piece_at(to).is_some();
            let mut s = String::new();
            if role != Role::Pawn {
                s.push(role.upper_char());
            }
            s.push_str(&from.to_string());
            if capture {
                s.push('x');
            }
            s.push_str(&to.to_string());
            if let Some(p) = promotion {
                s.push('=');
                s.push(p.upper_char());
            } else if removal {
                s.push_str("=.");
            }
            s
        }
        Move::EnPassant { from, to } => format!("{from}x{to}"),
        Move::Put { role, to } => format!("{}@{}", role.upper_char(), to),
    }
}
