//! The 64 fields of a board dump, the board's square numbering and its orientation
//! (reference §1.6).

use std::sync::OnceLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use shakmaty::{Board, File, Rank, Square};

use super::piece::PieceCode;

/// How the board lies in front of the players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Orientation {
    /// Field 0 is a8, field 63 is h1 (connector on White's left).
    #[default]
    Normal,
    /// The board is turned 180°: field i is square `63 - i` in a8=0 terms.
    Rotated,
}

/// The chess square that board field `field` (0..=63) stands for, or `None` past 63.
#[must_use]
pub fn field_to_square(field: u8, o: Orientation) -> Option<Square> {
    if field > 63 {
        return None;
    }
    let a8_index = match o {
        Orientation::Normal => u32::from(field),
        Orientation::Rotated => 63 - u32::from(field),
    };
    // a8=0 numbering: file = i % 8, rank counted from the top.
    Some(Square::from_coords(
        File::new(a8_index % 8),
        Rank::new(7 - a8_index / 8),
    ))
}

/// The board field that reports square `sq`.
#[must_use]
pub fn square_to_field(sq: Square, o: Orientation) -> u8 {
    let file = u8::from(sq.file());
    let rank = u8::from(sq.rank());
    let a8_index = file + 8 * (7 - rank);
    match o {
        Orientation::Normal => a8_index,
        Orientation::Rotated => 63 - a8_index,
    }
}

/// The 64 piece codes of a board dump, in the board's own field order (field 0 first).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fields([PieceCode; 64]);

impl Default for Fields {
    fn default() -> Self {
        Fields([PieceCode::EMPTY; 64])
    }
}

impl std::fmt::Debug for Fields {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Fields({})", self.placement_fen())
    }
}

impl Fields {
    #[must_use]
    pub fn new(codes: [PieceCode; 64]) -> Self {
        Fields(codes)
    }

    /// An empty board.
    #[must_use]
    pub fn empty() -> Self {
        Self::default()
    }

    /// From raw dump bytes; `None` unless exactly 64 bytes.
    #[must_use]
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        let arr: &[u8; 64] = bytes.try_into().ok()?;
        Some(Fields(arr.map(PieceCode)))
    }

    /// A chess position as a board in orientation `o` would report it.
    #[must_use]
    pub fn from_board(board: &Board, o: Orientation) -> Self {
        let mut f = Fields::default();
        for (sq, piece) in board.iter() {
            f.set(square_to_field(sq, o), PieceCode::from_piece(Some(piece)));
        }
        f
    }

    /// The code of `field`; empty for a field number past 63.
    #[must_use]
    pub fn get(&self, field: u8) -> PieceCode {
        self.0.get(usize::from(field)).copied().unwrap_or_default()
    }

    /// Sets `field` (ignored past 63).
    pub fn set(&mut self, field: u8, code: PieceCode) {
        if let Some(slot) = self.0.get_mut(usize::from(field)) {
            *slot = code;
        }
    }

    /// The code at a chess square, the board lying in orientation `o`.
    #[must_use]
    pub fn at(&self, sq: Square, o: Orientation) -> PieceCode {
        self.get(square_to_field(sq, o))
    }

    /// `(field, code)` in field order.
    pub fn iter(&self) -> impl Iterator<Item = (u8, PieceCode)> + '_ {
        (0u8..).zip(self.0.iter().copied())
    }

    #[must_use]
    pub fn codes(&self) -> &[PieceCode; 64] {
        &self.0
    }

    /// The raw bytes, as in a dump.
    #[must_use]
    pub fn to_bytes(&self) -> [u8; 64] {
        self.0.map(|c| c.0)
    }

    /// FEN piece placement of the fields *as the board numbers them* (field 0 is the first
    /// character; orientation is not applied); codes that are no chess piece print `?`.
    #[must_use]
    pub fn placement_fen(&self) -> String {
        let mut s = String::with_capacity(72);
        for (row_index, row) in self.0.chunks(8).enumerate() {
            if row_index > 0 {
                s.push('/');
            }
            let mut empties = 0u8;
            for code in row {
                if code.is_empty() {
                    empties += 1;
                    continue;
                }
                if empties > 0 {
                    s.push(char::from(b'0' + empties));
                    empties = 0;
                }
                s.push(code.fen_char());
            }
            if empties > 0 {
                s.push(char::from(b'0' + empties));
            }
        }
        s
    }

    /// 128 lowercase hex digits (the serde form).
    #[must_use]
    pub fn to_hex(&self) -> String {
        crate::dgt::hex::encode(&self.to_bytes())
    }

    /// Parses the 128-hex-digit form.
    #[must_use]
    pub fn from_hex(s: &str) -> Option<Self> {
        let bytes = crate::dgt::hex::decode(s)?;
        Fields::from_bytes(&bytes)
    }
}

impl Serialize for Fields {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for Fields {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Fields::from_hex(&s)
            .ok_or_else(|| serde::de::Error::custom("expected 128 hex digits (64 piece codes)"))
    }
}

/// The orientation in which `fields` shows the standard start position, if it does.
#[must_use]
pub fn detect_orientation(fields: &Fields) -> Option<Orientation> {
    // Laid out once: a board being set up is asked this after every field it reports.
    static START: OnceLock<[(Orientation, Fields); 2]> = OnceLock::new();
    let start = START.get_or_init(|| {
        [Orientation::Normal, Orientation::Rotated]
            .map(|o| (o, Fields::from_board(&Board::new(), o)))
    });
    start.iter().find(|(_, f)| f == fields).map(|&(o, _)| o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_numbering_is_a8_first() {
        assert_eq!(field_to_square(0, Orientation::Normal), Some(Square::A8));
        assert_eq!(field_to_square(7, Orientation::Normal), Some(Square::H8));
        assert_eq!(field_to_square(63, Orientation::Normal), Some(Square::H1));
        assert_eq!(field_to_square(52, Orientation::Normal), Some(Square::E2));
        assert_eq!(field_to_square(36, Orientation::Normal), Some(Square::E4));
        assert_eq!(field_to_square(64, Orientation::Normal), None);
        assert_eq!(field_to_square(255, Orientation::Rotated), None);
    }

    #[test]
    fn rotated_numbering_turns_the_board() {
        assert_eq!(field_to_square(0, Orientation::Rotated), Some(Square::H1));
        // 2.inbytes: White's first move arrives as fields 11 -> 27, i.e. e2 -> e4.
        assert_eq!(field_to_square(11, Orientation::Rotated), Some(Square::E2));
        assert_eq!(field_to_square(27, Orientation::Rotated), Some(Square::E4));
    }

    #[test]
    fn square_and_field_are_inverse() {
        for o in [Orientation::Normal, Orientation::Rotated] {
            for f in 0u8..64 {
                let sq = field_to_square(f, o).unwrap();
                assert_eq!(square_to_field(sq, o), f);
            }
        }
    }

    #[test]
    fn start_position_in_both_orientations() {
        let normal = Fields::from_board(&Board::new(), Orientation::Normal);
        assert_eq!(
            normal.placement_fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
        );
        assert_eq!(detect_orientation(&normal), Some(Orientation::Normal));
        let rotated = Fields::from_board(&Board::new(), Orientation::Rotated);
        assert_eq!(
            rotated.placement_fen(),
            "RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr"
        );
        assert_eq!(detect_orientation(&rotated), Some(Orientation::Rotated));
        assert_eq!(detect_orientation(&Fields::empty()), None);
    }

    #[test]
    fn serde_is_a_hex_string() {
        let mut f = Fields::from_board(&Board::new(), Orientation::Normal);
        f.set(40, PieceCode(0x0e));
        let json = serde_json::to_string(&f).unwrap();
        assert_eq!(json.len(), 130);
        let back: Fields = serde_json::from_str(&json).unwrap();
        assert_eq!(back, f);
        assert!(back.placement_fen().contains('?'));
        assert!(serde_json::from_str::<Fields>("\"00\"").is_err());
    }
}
