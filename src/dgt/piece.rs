//! DGT piece codes (reference §1.5).

use serde::{Deserialize, Serialize};
use shakmaty::{Color, Piece, Role};

/// A piece code exactly as the board sent it (one byte, MSB always 0 on the wire).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct PieceCode(pub u8);

/// A code that is not a chess piece: the "magic pieces" 0x0D–0x0F, or bits above the low
/// nibble (an undocumented "S bit" exists). Reported, never guessed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("DGT piece code 0x{0:02x} is not a chess piece")]
pub struct UnknownPieceCode(pub u8);

// Board order is P, R, N, B, K, Q (king before queen), white 1..6, black 7..12.
const ROLES: [Role; 6] = [
    Role::Pawn,
    Role::Rook,
    Role::Knight,
    Role::Bishop,
    Role::King,
    Role::Queen,
];

impl PieceCode {
    pub const EMPTY: PieceCode = PieceCode(0);

    /// The chess piece this code stands for; `Ok(None)` for an empty field.
    pub fn piece(self) -> Result<Option<Piece>, UnknownPieceCode> {
        let c = self.0;
        if c == 0 {
            return Ok(None);
        }
        if c > 12 {
            return Err(UnknownPieceCode(c));
        }
        let (color, i) = if c <= 6 {
            (Color::White, c - 1)
        } else {
            (Color::Black, c - 7)
        };
        match ROLES.get(usize::from(i)) {
            Some(&role) => Ok(Some(Piece { color, role })),
            None => Err(UnknownPieceCode(c)),
        }
    }

    #[must_use]
    pub fn from_piece(piece: Option<Piece>) -> PieceCode {
        let Some(p) = piece else {
            return PieceCode::EMPTY;
        };
        let i = match p.role {
            Role::Pawn => 1,
            Role::Rook => 2,
            Role::Knight => 3,
            Role::Bishop => 4,
            Role::King => 5,
            Role::Queen => 6,
        };
        match p.color {
            Color::White => PieceCode(i),
            Color::Black => PieceCode(i + 6),
        }
    }

    #[must_use]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// FEN letter: `.` for empty, `?` for a code that is no chess piece.
    #[must_use]
    pub fn fen_char(self) -> char {
        match self.piece() {
            Ok(None) => '.',
            Ok(Some(p)) => p.char(),
            Err(_) => '?',
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_follow_the_board_order() {
        let letters: String = (0u8..=12).map(|c| PieceCode(c).fen_char()).collect();
        assert_eq!(letters, ".PRNBKQprnbkq");
        for c in 0u8..=12 {
            let p = PieceCode(c).piece().unwrap();
            assert_eq!(PieceCode::from_piece(p), PieceCode(c));
        }
    }

    #[test]
    fn magic_pieces_and_high_bits_are_unknown() {
        for c in [0x0d, 0x0e, 0x0f, 0x11, 0x21, 0x40, 0x7f, 0xff] {
            assert_eq!(PieceCode(c).piece(), Err(UnknownPieceCode(c)));
            assert_eq!(PieceCode(c).fen_char(), '?');
        }
    }
}
