//! The tolerant single-move parser: every dialect's spelling of a move or drop, legal or
//! not, to the physical move it names.
//!
//! Accepted: SAN (`Nf3`, `exd5`, `e8=Q+`, with `!?` and `+`/`#`), FIDE castling `0-0`,
//! drops `N@f3`, `P@e3`, `@e3` (chess.com pawn drop), `$146@g4` (chess.com knight drop, the
//! `N` read as a NAG), `n@f3`, promotion without `=` (`e8Q`), bughouse.pro's pawn capture
//! without its file (`xe6`) and rank-first disambiguation (`N8c6`), Transfer removal
//! `e8=.`, and the long form Tandem writes for illegal moves (`Bc1c3`, `e5xd6`, also
//! `Ng1-f3`). A legal reading is preferred; otherwise the piece that can physically make
//! the move is taken, so that an illegal move that stood can be recorded as played.

use shakmaty::{
    CastlingSide, Color, File, Move, Position, Rank, Role, Square,
    san::{San, SanError},
};

use crate::rules::{BoardState, IllegalReason, RulesPreset, with_promotion};

/// Why a token names no move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum MoveFailure {
    /// Not a move in any dialect.
    Unreadable,
    /// More than one piece could make it.
    Ambiguous,
    /// No piece can make it; the rule, in the players' words.
    Impossible(String),
}

impl MoveFailure {
    pub(crate) fn describe(&self) -> String {
        match self {
            MoveFailure::Unreadable => "not a move".into(),
            MoveFailure::Ambiguous => "ambiguous: more than one piece can make that move".into(),
            MoveFailure::Impossible(why) => why.clone(),
        }
    }
}

/// Parses one move as written in any BPGN dialect, for the side to move on `state`.
///
/// Returns the physical move the text names, legal or not (the caller judges it with
/// [`BoardState::judge`]); an error says why the text names no move.
pub fn parse_move(state: &BoardState, rules: &RulesPreset, token: &str) -> Result<Move, String> {
    resolve(state, rules, token).map_err(|f| f.describe())
}

pub(crate) fn resolve(
    state: &BoardState,
    rules: &RulesPreset,
    token: &str,
) -> Result<Move, MoveFailure> {
    let (text, removal) = normalize(token).ok_or(MoveFailure::Unreadable)?;
    let san = San::from_ascii(text.as_bytes()).map_err(|_| MoveFailure::Unreadable)?;
    match san {
        San::Null => Err(MoveFailure::Unreadable),
        San::Put {
            role: Role::King, ..
        } => Err(MoveFailure::Impossible("a king cannot be dropped".into())),
        San::Put { role, to } => {
            if removal {
                return Err(MoveFailure::Unreadable);
            }
            if !rules.is_bughouse() {
                return Err(MoveFailure::Impossible(
                    "no drops in single-board chess".into(),
                ));
            }
            Ok(Move::Put { role, to })
        }
        San::Castle(side) => {
            if removal {
                return Err(MoveFailure::Unreadable);
            }
            castle(state, side)
        }
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            if removal && (role != Role::Pawn || promotion.is_some()) {
                return Err(MoveFailure::Unreadable);
            }
            if let Some(pos) = state.analysis() {
                // Removal is looked up as the promotion shakmaty insists on, then undone.
                let lookup = San::Normal {
                    role,
                    file,
                    rank,
                    capture,
                    to,
                    promotion: if removal {
                        Some(Role::Queen)
                    } else {
                        promotion
                    },
                };
                match lookup.to_move(pos) {
                    Ok(m) => return Ok(if removal { with_promotion(m, None) } else { m }),
                    Err(SanError::AmbiguousSan) => return Err(MoveFailure::Ambiguous),
                    Err(SanError::IllegalSan) => {}
                }
            }
            physical(state, role, file, rank, to, promotion)
        }
    }
}

/// The text in shakmaty's SAN syntax, and whether it was a removal (`e8=.`).
fn normalize(token: &str) -> Option<(String, bool)> {
    let mut t = token.trim();
    if let Some(s) = t.strip_suffix("e.p.") {
        t = s;
    }
    let t = t.trim_end_matches(['!', '?', '+', '#']);
    let mut t = t.to_owned();
    if let Some(rest) = t.strip_prefix("$146@") {
        t = format!("N@{rest}");
    } else if let Some(rest) = t.strip_prefix('@') {
        t = format!("P@{rest}");
    }
    // Lower-case drop letters (`n@f3`).
    let mut chars = t.chars();
    if let (Some(first), Some('@')) = (chars.next(), chars.next())
        && "pnbrq".contains(first)
    {
        t = format!("{}@{}", first.to_ascii_uppercase(), chars.as_str());
    }
    match t.as_str() {
        "0-0" | "o-o" => return Some(("O-O".into(), false)),
        "0-0-0" | "o-o-o" => return Some(("O-O-O".into(), false)),
        _ => {}
    }
    let removal = t.ends_with("=.");
    if removal {
        t.truncate(t.len() - 2);
    }
    if !t.starts_with('O') {
        // Long form with a dash: `Ng1-f3`, `e2-e4`.
        t = t.replace('-', "");
    }
    // Promotion without `=`: `e8Q`, `dxe8N`.
    let bytes = t.as_bytes();
    if let [.., file, rank, piece] = bytes
        && (b'a'..=b'h').contains(file)
        && matches!(rank, b'1' | b'8')
        && b"QRBN".contains(piece)
        && bytes.first().is_some_and(u8::is_ascii_lowercase)
    {
        t.insert(t.len() - 1, '=');
    }
    if t.is_empty() || !t.is_ascii() {
        return None;
    }
    Some((t, removal))
}

fn castle(state: &BoardState, side: CastlingSide) -> Result<Move, MoveFailure> {
    if let Some(pos) = state.analysis()
        && let Some(m) = pos.castling_moves(side).first()
    {
        return Ok(*m);
    }
    // Not legal: name the physical castling (king and the corner rook of its rank).
    let color = state.turn();
    let board = state.board();
    let king = board
        .king_of(color)
        .ok_or_else(|| MoveFailure::Impossible("no king to castle".into()))?;
    let file = match side {
        CastlingSide::KingSide => File::H,
        CastlingSide::QueenSide => File::A,
    };
    let rook = Square::from_coords(file, king.rank());
    if board.piece_at(rook) != Some(color.rook()) {
        return Err(MoveFailure::Impossible(
            IllegalReason::CastlingNotAllowed.describe().into(),
        ));
    }
    Ok(Move::Castle { king, rook })
}

/// The move of the one piece of `role` (matching the hints) that can physically go to
/// `to`, whatever it leaves its king in; with both hints, the piece on that square.
fn physical(
    state: &BoardState,
    role: Role,
    file: Option<File>,
    rank: Option<Rank>,
    to: Square,
    promotion: Option<Role>,
) -> Result<Move, MoveFailure> {
    let color = state.turn();
    let board = state.board();
    if let (Some(f), Some(r)) = (file, rank) {
        let from = Square::from_coords(f, r);
        if board.piece_at(from) != Some(role.of(color)) {
            return Err(MoveFailure::Impossible(format!(
                "no {} {} on {from}",
                color_name(color),
                role_name(role)
            )));
        }
        return Ok(build(state, role, from, to, promotion));
    }
    let ours = board.by_color(color) & board.by_role(role);
    let mut candidates = ours.into_iter().filter(|&from| {
        file.is_none_or(|f| f == from.file())
            && rank.is_none_or(|r| r == from.rank())
            && can_reach(state, color, role, from, to)
    });
    match (candidates.next(), candidates.next()) {
        (Some(from), None) => Ok(build(state, role, from, to, promotion)),
        (Some(_), Some(_)) => Err(MoveFailure::Ambiguous),
        (None, _) => Err(MoveFailure::Impossible(
            IllegalReason::CannotMoveThere.describe().into(),
        )),
    }
}

fn build(
    state: &BoardState,
    role: Role,
    from: Square,
    to: Square,
    promotion: Option<Role>,
) -> Move {
    let target = state.board().piece_at(to);
    if role == Role::Pawn && from.file() != to.file() && target.is_none() {
        // A diagonal pawn step onto an empty square can only mean en passant.
        return Move::EnPassant { from, to };
    }
    Move::Normal {
        role,
        from,
        capture: target.map(|p| p.role),
        to,
        promotion,
    }
}

/// Can the piece physically get from `from` to `to` (path clear, target not our own)?
fn can_reach(state: &BoardState, color: Color, role: Role, from: Square, to: Square) -> bool {
    let board = state.board();
    let occupied = board.occupied();
    if board.color_at(to) == Some(color) {
        return false;
    }
    match role {
        Role::Pawn => {
            if from.file() != to.file() {
                return shakmaty::attacks::pawn_attacks(color, from).contains(to)
                    && (board.color_at(to) == Some(!color) || state.ep_square() == Some(to));
            }
            let step: i32 = if color.is_white() { 8 } else { -8 };
            let Some(one) = from.offset(step) else {
                return false;
            };
            if occupied.contains(one) {
                return false;
            }
            if one == to {
                return true;
            }
            let home = if color.is_white() {
                Rank::Second
            } else {
                Rank::Seventh
            };
            from.rank() == home && from.offset(2 * step) == Some(to) && !occupied.contains(to)
        }
        Role::King => shakmaty::attacks::king_attacks(from).contains(to),
        _ => shakmaty::attacks::attacks(from, role.of(color), occupied).contains(to),
    }
}

pub(crate) fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

pub(crate) fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> RulesPreset {
        RulesPreset::built_in("uscf-bughouse")
    }

    #[test]
    fn spellings_of_one_move() {
        let s = BoardState::start();
        let nf3 = parse_move(&s, &rules(), "Nf3").unwrap();
        for t in ["Nf3!?", "Ng1f3", "Ng1-f3", "Nf3+", "N1f3"] {
            assert_eq!(parse_move(&s, &rules(), t).unwrap(), nf3, "{t}");
        }
        assert!(parse_move(&s, &rules(), "Zz9").is_err());
        assert!(parse_move(&s, &rules(), "").is_err());
        assert!(parse_move(&s, &rules(), "é4").is_err());
    }

    #[test]
    fn drops_in_every_dialect() {
        let s = BoardState::start();
        let p = Move::Put {
            role: Role::Pawn,
            to: Square::E3,
        };
        for t in ["P@e3", "@e3", "p@e3"] {
            assert_eq!(parse_move(&s, &rules(), t).unwrap(), p, "{t}");
        }
        let n = Move::Put {
            role: Role::Knight,
            to: Square::G4,
        };
        for t in ["N@g4", "$146@g4", "n@g4"] {
            assert_eq!(parse_move(&s, &rules(), t).unwrap(), n, "{t}");
        }
        assert!(parse_move(&s, &rules(), "K@e4").is_err());
        let blitz = RulesPreset::built_in("uscf-blitz");
        assert_eq!(
            parse_move(&s, &blitz, "N@g4"),
            Err("no drops in single-board chess".to_owned())
        );
    }

    #[test]
    fn removal_promotion_and_illegal_long_forms() {
        let transfer = RulesPreset::built_in("transfer-chess");
        let s = BoardState::from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let removal = parse_move(&s, &transfer, "b8=.").unwrap();
        assert!(matches!(
            removal,
            Move::Normal {
                promotion: None,
                to: Square::B8,
                ..
            }
        ));
        assert_eq!(parse_move(&s, &transfer, "b7b8=.").unwrap(), removal);
        let queen = parse_move(&s, &rules(), "b8=Q").unwrap();
        assert_eq!(parse_move(&s, &rules(), "b8Q").unwrap(), queen);
        // Illegal moves as Tandem writes them: the physical move, whatever the rules say.
        let start = BoardState::start();
        let bishop = parse_move(&start, &rules(), "Bc1c3").unwrap();
        assert_eq!((bishop.from(), bishop.to()), (Some(Square::C1), Square::C3));
        assert_eq!(
            parse_move(&start, &rules(), "Bd1d3"),
            Err("no White bishop on d1".to_owned())
        );
        assert_eq!(
            parse_move(&start, &rules(), "Ke3"),
            Err("the piece cannot move there".to_owned())
        );
    }
}
