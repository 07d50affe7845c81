//! What a board's sensors report, square by square, and what the record says they
//! should report.
//!
//! A [`Cell`] is one square's sensed content: empty, a piece, or a token the board cannot
//! name (DGT's "magic pieces" and unknown codes). [`Expect`] is the set of cells the
//! record allows on a square: one piece normally, but a promoted piece may stand as a
//! pawn, a spare piece, or a pawn laid on its side that the sensors mostly cannot see.

use shakmaty::{Bitboard, Board, Color, Piece, Role, Square};

/// One square's sensed content, as a small code: 0 empty, 1..=12 a piece, 13 unknown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cell(u8);

impl Cell {
    pub const EMPTY: Cell = Cell(0);
    /// A token the board reports but that is no chess piece.
    pub const UNKNOWN: Cell = Cell(13);

    #[must_use]
    pub fn piece(p: Piece) -> Cell {
        Cell(1 + 6 * u8::from(p.color.is_black()) + role_index(p.role))
    }

    #[must_use]
    pub fn from_piece(p: Option<Piece>) -> Cell {
        p.map_or(Cell::EMPTY, Cell::piece)
    }

    /// The piece, if the cell holds a known one.
    #[must_use]
    pub fn to_piece(self) -> Option<Piece> {
        if self.0 == 0 || self.0 > 12 {
            return None;
        }
        let i = self.0 - 1;
        let color = if i >= 6 { Color::Black } else { Color::White };
        Some(Piece {
            color,
            role: ROLES[usize::from(i % 6)],
        })
    }

    #[must_use]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[must_use]
    pub fn is_unknown(self) -> bool {
        self.0 > 12
    }

    #[must_use]
    pub fn color(self) -> Option<Color> {
        self.to_piece().map(|p| p.color)
    }

    #[must_use]
    pub fn bit(self) -> u16 {
        1 << self.0.min(13)
    }

    /// FEN letter, `.` for empty, `?` for unknown.
    #[must_use]
    pub fn char(self) -> char {
        match self.to_piece() {
            Some(p) => p.char(),
            None if self.is_empty() => '.',
            None => '?',
        }
    }
}

const ROLES: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

fn role_index(r: Role) -> u8 {
    match r {
        Role::Pawn => 0,
        Role::Knight => 1,
        Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 4,
        Role::King => 5,
    }
}

/// All 64 sensed cells, indexed by square (a1 = 0), orientation already applied.
#[derive(Clone, Copy, Debug, Eq)]
pub struct Cells(pub [Cell; 64]);

impl Cells {
    /// The cells eight at a time: compared after every input, and a slice of a newtype
    /// is compared cell by cell.
    fn words(&self) -> [u64; 8] {
        std::array::from_fn(|i| u64::from_le_bytes(std::array::from_fn(|j| self.0[i * 8 + j].0)))
    }
}

impl PartialEq for Cells {
    fn eq(&self, other: &Cells) -> bool {
        self.words() == other.words()
    }
}

impl std::hash::Hash for Cells {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.words().hash(state);
    }
}

impl Default for Cells {
    fn default() -> Self {
        Cells([Cell::EMPTY; 64])
    }
}

impl Cells {
    #[must_use]
    pub fn from_board(board: &Board) -> Cells {
        let mut cells = Cells::default();
        for (sq, p) in board {
            cells.0[sq.to_usize()] = Cell::piece(p);
        }
        cells
    }

    #[must_use]
    pub fn get(&self, sq: Square) -> Cell {
        self.0[sq.to_usize()]
    }

    pub fn set(&mut self, sq: Square, c: Cell) {
        self.0[sq.to_usize()] = c;
    }

    /// Squares with a piece of `color`.
    #[must_use]
    pub fn of_color(&self, color: Color) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for sq in Square::ALL {
            if self.get(sq).color() == Some(color) {
                bb.add(sq);
            }
        }
        bb
    }

    /// FEN piece placement of the sensed cells (`?` for unknown tokens).
    #[must_use]
    pub fn placement(&self) -> String {
        let mut s = String::new();
        for rank in (0..8u32).rev() {
            let mut empty = 0;
            for file in 0..8u32 {
                let c = self.0[(rank * 8 + file) as usize];
                if c.is_empty() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(c.char());
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s
    }
}

/// The cells the record allows on each square, as bit masks over cell codes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expect {
    masks: [u16; 64],
    /// Per square the one cell allowed there, as its code, where one is (elsewhere
    /// `MANY`): the board is compared with it eight squares at a time.
    codes: [u8; 64],
    /// The squares allowing several cells (a promoted piece's token, a removal square):
    /// compared with their masks one by one.
    several: Bitboard,
    /// The pieces expected, as a board: the logical pieces (a promoted piece as what it
    /// stands for, whatever its token), and on a square allowed a piece beyond the record
    /// (a Transfer pawn awaiting removal) that piece. Kept because explaining a board
    /// reasons about the moves on it, for every reading of every snapshot.
    board: Board,
    /// The squares where `board` has a piece beyond the record: the logical board is
    /// `board` without them (a bitboard rather than a second board: an expectation is
    /// copied with every reading, and readings are made by the thousand).
    beyond_record: Bitboard,
}

impl Expect {
    /// Cells allowed beyond the record (a removal square): the masks widened, and a piece
    /// the record does not have but the square may still show put on the board.
    fn allow_extra(&mut self, extra: &[(Square, u16)]) {
        for &(sq, m) in extra {
            self.set_mask(sq, self.mask(sq) | m);
        }
        for &(sq, _) in extra {
            if self.logical(sq).is_none()
                && let Some(p) = self.piece_beyond_record(sq)
            {
                self.board.set_piece_at(sq, p);
                self.beyond_record.add(sq);
            }
        }
    }

    /// Nothing expected anywhere (an empty board).
    #[must_use]
    pub fn empty() -> Expect {
        Expect {
            masks: [1; 64],
            codes: [0; 64],
            several: Bitboard::EMPTY,
            board: Board::empty(),
            beyond_record: Bitboard::EMPTY,
        }
    }

    /// The cells `mask` allows on `sq`, kept in both forms.
    fn set_mask(&mut self, sq: Square, mask: u16) {
        let i = sq.to_usize();
        self.masks[i] = mask;
        if mask.count_ones() == 1 {
            // A single bit: the cell code it stands for (0..=13, so it fits).
            self.codes[i] = mask.trailing_zeros() as u8;
            self.several.discard(sq);
        } else {
            self.codes[i] = MANY;
            self.several.add(sq);
        }
    }

    /// The pieces the record has on the board (a promoted piece as what it stands for; a
    /// piece allowed beyond the record as itself).
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    #[must_use]
    pub fn allows(&self, sq: Square, c: Cell) -> bool {
        self.masks[sq.to_usize()] & c.bit() != 0
    }

    #[must_use]
    pub fn mask(&self, sq: Square) -> u16 {
        self.masks[sq.to_usize()]
    }

    /// The piece the record has on `sq` (a promoted piece as what it stands for).
    #[must_use]
    pub fn logical(&self, sq: Square) -> Option<Piece> {
        if self.beyond_record.contains(sq) {
            None
        } else {
            self.board.piece_at(sq)
        }
    }

    /// Squares where `cells` is not what the record allows.
    #[must_use]
    pub fn differences(&self, cells: &Cells) -> Bitboard {
        // Eight squares at a time, as words: the bytes where the sensed code is not the
        // one allowed, their flags gathered into a byte by one multiplication; then the
        // few squares allowing several cells one by one. This runs for every reading of
        // every snapshot, and for every field update.
        let mut off = 0u64;
        for (k, (codes, cells)) in self
            .codes
            .chunks_exact(8)
            .zip(cells.0.chunks_exact(8))
            .enumerate()
        {
            let mut a = [0u8; 8];
            a.copy_from_slice(codes);
            let mut b = [0u8; 8];
            for (d, c) in b.iter_mut().zip(cells) {
                *d = c.0;
            }
            let x = u64::from_le_bytes(a) ^ u64::from_le_bytes(b);
            // The top bit of each byte set where the byte is not zero, the others clear.
            let nonzero = (((x & LOW7) + LOW7) | x) & !LOW7;
            off |= ((nonzero >> 7).wrapping_mul(GATHER) >> 56) << (8 * k);
        }
        let mut off = Bitboard(off) & !self.several;
        for sq in self.several {
            if !self.allows(sq, cells.get(sq)) {
                off.add(sq);
            }
        }
        off
    }

    /// Squares whose allowed cells differ from `other`'s.
    #[must_use]
    pub fn differs_from(&self, other: &Expect) -> Bitboard {
        let mut flags = [0u8; 64];
        for (f, (a, b)) in flags
            .iter_mut()
            .zip(self.masks.iter().zip(other.masks.iter()))
        {
            *f = u8::from(a != b);
        }
        Bitboard(pack_flags(&flags))
    }

    /// Does the board show exactly this, given what differs from another expectation
    /// (`off`: `other.differences(cells)`; `changed`: `self.differs_from(other)`)? Elsewhere
    /// the two allow the same cells, so only the changed squares need looking at: many
    /// readings of one press share the committed expectation.
    #[must_use]
    pub fn matches_beside(&self, cells: &Cells, off: Bitboard, changed: Bitboard) -> bool {
        (off & !changed).is_empty() && changed.into_iter().all(|sq| self.allows(sq, cells.get(sq)))
    }

    /// Does the board show exactly this (no square differs)?
    #[must_use]
    pub fn matches(&self, cells: &Cells) -> bool {
        self.differences(cells).is_empty()
    }

    /// The piece this square is expected to hold, if one (the logical piece's token when
    /// it is unambiguous: a single non-empty cell allowed).
    #[must_use]
    pub fn single_piece(&self, sq: Square) -> Option<Piece> {
        let m = self.mask(sq);
        if m.count_ones() == 1 && m & 1 == 0 {
            Cell(m.trailing_zeros() as u8).to_piece()
        } else {
            None
        }
    }

    /// The piece a square allows where the record has none (a Transfer pawn awaiting
    /// removal): the single piece allowed, else the highest piece of the colour allowed.
    fn piece_beyond_record(&self, sq: Square) -> Option<Piece> {
        if let Some(p) = self.single_piece(sq) {
            return Some(p);
        }
        let color = self.color(sq)?;
        [
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
            Role::King,
        ]
        .into_iter()
        .map(|r| r.of(color))
        .find(|p| self.allows(sq, Cell::piece(*p)))
    }

    /// Does the square allow the empty cell?
    #[must_use]
    pub fn allows_empty(&self, sq: Square) -> bool {
        self.mask(sq) & 1 != 0
    }

    /// Colour of the pieces the square allows (if the allowed pieces share one).
    #[must_use]
    pub fn color(&self, sq: Square) -> Option<Color> {
        let m = self.mask(sq) & !1;
        if m == 0 {
            return None;
        }
        let white = m & WHITE_BITS != 0;
        let black = m & BLACK_BITS != 0;
        match (white, black) {
            (true, false) => Some(Color::White),
            (false, true) => Some(Color::Black),
            _ => None,
        }
    }
}

/// Packs 64 flags (each 0 or 1) into a mask, flag `i` as bit `i`: eight at a time, the
/// multiplication gathering each byte's low bit into the top byte.
fn pack_flags(flags: &[u8; 64]) -> u64 {
    let mut bits = 0u64;
    for (k, chunk) in flags.chunks_exact(8).enumerate() {
        let mut b = [0u8; 8];
        b.copy_from_slice(chunk);
        let x = u64::from_le_bytes(b);
        bits |= (x.wrapping_mul(GATHER) >> 56) << (8 * k);
    }
    bits
}

/// Multiplying a word whose bytes are each 0 or 1 by this gathers them, byte `i` as bit
/// `i`, into the top byte.
const GATHER: u64 = 0x0102_0408_1020_4080;
/// The low seven bits of every byte of a word.
const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
/// The code of no cell: a square allowing several cells.
const MANY: u8 = 0xff;

const WHITE_BITS: u16 = 0b0000_0000_0111_1110;
const BLACK_BITS: u16 = 0b0001_1111_1000_0000;

/// The token standing for a promoted piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Token {
    /// Not seen yet since the promotion: a pawn, a spare piece or nothing visible.
    Unsettled,
    /// The pawn stays upright.
    Pawn,
    /// A spare piece of this kind (may differ from the logical piece).
    #[serde(with = "role_serde")]
    Piece(Role),
    /// The pawn lies on its side: the sensors see nothing (or now and then a pawn).
    Hidden,
}

impl Token {
    /// The cells that may stand for a promoted piece of `color` under this token.
    #[must_use]
    pub fn mask(self, color: Color) -> u16 {
        let pawn = Cell::piece(color.pawn()).bit();
        match self {
            Token::Unsettled => {
                1 | pawn
                    | [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
                        .iter()
                        .fold(0, |m, r| m | Cell::piece(r.of(color)).bit())
            }
            Token::Pawn => pawn,
            Token::Piece(r) => Cell::piece(r.of(color)).bit(),
            Token::Hidden => 1 | pawn,
        }
    }

    /// Settles an unsettled token of `owner`'s from what the sensors show. Another
    /// colour's piece there (the reply took the promoted piece) or a king tells nothing.
    #[must_use]
    pub fn settle(cell: Cell, owner: Color) -> Token {
        match cell.to_piece() {
            None => Token::Hidden,
            Some(p) if p.color != owner || p.role == Role::King => Token::Unsettled,
            Some(p) if p.role == Role::Pawn => Token::Pawn,
            Some(p) => Token::Piece(p.role),
        }
    }

    #[must_use]
    pub fn is_hidden(self) -> bool {
        matches!(self, Token::Hidden)
    }

    /// Its moves may show nothing on the board (laid down, or not settled yet).
    #[must_use]
    pub fn may_be_unseen(self) -> bool {
        matches!(self, Token::Hidden | Token::Unsettled)
    }
}

mod role_serde {
    use serde::{Deserialize, Deserializer, Serializer};
    use shakmaty::Role;

    pub fn serialize<S: Serializer>(r: &Role, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_char(r.upper_char())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Role, D::Error> {
        let c = char::deserialize(d)?;
        Role::from_char(c)
            .ok_or_else(|| serde::de::Error::custom(format!("not a piece letter: {c}")))
    }
}

/// Tokens of the promoted pieces on one board, by square.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tokens {
    by_square: Vec<(Square, Token)>,
}

impl Tokens {
    #[must_use]
    pub fn get(&self, sq: Square) -> Option<Token> {
        self.by_square
            .iter()
            .find(|(s, _)| *s == sq)
            .map(|(_, t)| *t)
    }

    pub fn set(&mut self, sq: Square, t: Token) {
        self.remove(sq);
        self.by_square.push((sq, t));
    }

    pub fn remove(&mut self, sq: Square) -> Option<Token> {
        let i = self.by_square.iter().position(|(s, _)| *s == sq)?;
        Some(self.by_square.swap_remove(i).1)
    }

    pub fn iter(&self) -> impl Iterator<Item = (Square, Token)> + '_ {
        self.by_square.iter().copied()
    }

    /// Keeps only tokens on squares that still hold promoted pieces.
    pub fn retain(&mut self, promoted: Bitboard) {
        self.by_square.retain(|(s, _)| promoted.contains(*s));
    }
}

/// What the record says the sensors should show for `board`: each piece as itself,
/// promoted pieces as their token, plus extra allowances (`extra`: square → mask OR-ed in).
#[must_use]
pub fn expected(
    board: &Board,
    promoted: Bitboard,
    tokens: &Tokens,
    extra: &[(Square, u16)],
) -> Expect {
    let mut e = Expect {
        masks: [1; 64],
        codes: [0; 64],
        several: Bitboard::EMPTY,
        board: board.clone(),
        beyond_record: Bitboard::EMPTY,
    };
    // Piece by piece over the bitboards: this runs for every candidate reading.
    for color in [Color::White, Color::Black] {
        for role in ROLES {
            let p = role.of(color);
            let cell = Cell::piece(p);
            for sq in board.by_piece(p) {
                e.masks[sq.to_usize()] = cell.bit();
                e.codes[sq.to_usize()] = cell.0;
            }
        }
    }
    for sq in promoted & board.occupied() {
        if let Some(p) = board.piece_at(sq) {
            e.set_mask(sq, tokens.get(sq).unwrap_or(Token::Unsettled).mask(p.color));
        }
    }
    e.allow_extra(extra);
    e
}

/// A board as the record has it, the inputs of [`expected`]: pieces, promoted pieces,
/// tokens, extra allowances.
pub type Recorded<'a> = (&'a Board, Bitboard, &'a Tokens, &'a [(Square, u16)]);

/// The same as `expected(after)`, worked out from `base`, the expectation of `before`: only
/// the squares whose piece, promotion, token or allowance changed are worked out again. A
/// reading changes two or three squares, and readings are made by the thousand.
#[must_use]
pub fn expected_after(base: &Expect, before: Recorded<'_>, after: Recorded<'_>) -> Expect {
    let (old_board, old_promoted, old_tokens, old_extra) = before;
    let (board, promoted, tokens, extra) = after;
    let promoted = promoted & board.occupied();
    let mut changed = (old_promoted & old_board.occupied()) ^ promoted;
    for role in ROLES {
        changed |= old_board.by_role(role) ^ board.by_role(role);
    }
    for color in [Color::White, Color::Black] {
        changed |= old_board.by_color(color) ^ board.by_color(color);
    }
    for (sq, _) in old_tokens.iter().chain(tokens.iter()) {
        changed.add(sq);
    }
    for &(sq, _) in old_extra.iter().chain(extra) {
        changed.add(sq);
    }
    // The pieces beyond the record are worked out afresh below (`allow_extra`).
    let mut e = Expect {
        masks: base.masks,
        codes: base.codes,
        several: base.several,
        board: board.clone(),
        beyond_record: Bitboard::EMPTY,
    };
    // Each changed square as `expected` works it out; the others are as in `base`.
    for sq in changed {
        let piece = board.piece_at(sq);
        let cell = Cell::from_piece(piece);
        let mask = match piece {
            Some(p) if promoted.contains(sq) => {
                tokens.get(sq).unwrap_or(Token::Unsettled).mask(p.color)
            }
            Some(_) => cell.bit(),
            None => 1,
        };
        e.set_mask(sq, mask);
    }
    e.allow_extra(extra);
    debug_assert_eq!(e, expected(board, promoted, tokens, extra));
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_codes_round_trip() {
        for color in [Color::White, Color::Black] {
            for role in ROLES {
                let p = role.of(color);
                assert_eq!(Cell::piece(p).to_piece(), Some(p));
            }
        }
        assert_eq!(Cell::EMPTY.to_piece(), None);
        assert!(Cell::UNKNOWN.is_unknown());
    }

    #[test]
    fn start_position_expectation_matches_itself() {
        let board = Board::default();
        let e = expected(&board, Bitboard::EMPTY, &Tokens::default(), &[]);
        let cells = Cells::from_board(&board);
        assert!(e.differences(&cells).is_empty());
        assert_eq!(
            cells.placement(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
        );
        assert_eq!(e.color(Square::E1), Some(Color::White));
        assert_eq!(e.single_piece(Square::E8), Some(Color::Black.king()));
    }

    #[test]
    fn differences_and_matches_beside_agree_with_square_by_square() {
        let board = Board::default();
        let base = expected(&board, Bitboard::EMPTY, &Tokens::default(), &[]);
        let mut moved = board.clone();
        moved.discard_piece_at(Square::E2);
        moved.set_piece_at(Square::E4, Color::White.pawn());
        let after = expected(&moved, Bitboard::EMPTY, &Tokens::default(), &[]);
        let changed = after.differs_from(&base);
        assert_eq!(changed, Bitboard::from_square(Square::E2).with(Square::E4));
        let mut cells = Cells::from_board(&board);
        for (sq, cell) in [
            (Square::E2, Cell::EMPTY),
            (Square::E4, Cell::piece(Color::White.pawn())),
            (Square::H8, Cell::UNKNOWN),
            (Square::A1, Cell::EMPTY),
        ] {
            let slow: Bitboard = Square::ALL
                .into_iter()
                .filter(|&s| !base.allows(s, cells.get(s)))
                .collect();
            let off = base.differences(&cells);
            assert_eq!(off, slow);
            assert_eq!(
                after.matches_beside(&cells, off, changed),
                after.matches(&cells)
            );
            cells.set(sq, cell);
            if sq == Square::E4 {
                assert!(after.matches_beside(&cells, base.differences(&cells), changed));
            }
        }
    }

    #[test]
    fn expectation_after_a_change_is_the_one_worked_out_afresh() {
        let mut board = Board::default();
        board.discard_piece_at(Square::E7);
        board.set_piece_at(Square::E8, Color::White.queen());
        board.discard_piece_at(Square::D8);
        let promoted = Bitboard::from_square(Square::E8);
        let mut tokens = Tokens::default();
        tokens.set(Square::E8, Token::Hidden);
        let extra = [(Square::H8, Cell::piece(Color::White.pawn()).bit())];
        let base = expected(&board, promoted, &tokens, &[]);
        // The queen captures on f8 (its token goes with it), a pawn awaits removal on h8.
        let mut after = board.clone();
        after.discard_piece_at(Square::E8);
        after.set_piece_at(Square::F8, Color::White.queen());
        let mut moved = Tokens::default();
        moved.set(Square::F8, Token::Hidden);
        let moved_promoted = Bitboard::from_square(Square::F8);
        let fresh = expected(&after, moved_promoted, &moved, &extra);
        let worked = expected_after(
            &base,
            (&board, promoted, &tokens, &[]),
            (&after, moved_promoted, &moved, &extra),
        );
        assert_eq!(worked, fresh);
        assert!(worked.allows(Square::F8, Cell::EMPTY));
        assert!(worked.allows(Square::H8, Cell::piece(Color::White.pawn())));
        // And on: the allowance gone, the token settled.
        let mut settled = moved.clone();
        settled.set(Square::F8, Token::Piece(Role::Queen));
        let on = expected_after(
            &worked,
            (&after, moved_promoted, &moved, &extra),
            (&after, moved_promoted, &settled, &[]),
        );
        assert_eq!(on, expected(&after, moved_promoted, &settled, &[]));
        assert!(!on.allows(Square::F8, Cell::EMPTY));
    }

    #[test]
    fn differences_agree_with_the_masks_where_several_cells_are_allowed() {
        let mut board = Board::empty();
        board.set_piece_at(Square::E8, Color::White.queen());
        board.set_piece_at(Square::D8, Color::White.rook());
        board.set_piece_at(Square::A1, Color::Black.king());
        let mut tokens = Tokens::default();
        tokens.set(Square::E8, Token::Hidden);
        let promoted = Bitboard::from_square(Square::E8).with(Square::D8);
        let extra = [(Square::H8, Cell::piece(Color::White.pawn()).bit())];
        let e = expected(&board, promoted, &tokens, &extra);
        // Every cell on every square, the rest of the board as the record has it.
        let mut cells = Cells::from_board(&board);
        for sq in Square::ALL {
            let was = cells.get(sq);
            for code in 0..=13 {
                cells.set(sq, Cell(code));
                let slow: Bitboard = Square::ALL
                    .into_iter()
                    .filter(|&s| !e.allows(s, cells.get(s)))
                    .collect();
                assert_eq!(e.differences(&cells), slow, "{sq} {code}");
                assert_eq!(e.matches(&cells), slow.is_empty());
            }
            cells.set(sq, was);
        }
    }

    #[test]
    fn hidden_promoted_piece_allows_empty_and_pawn_flicker() {
        let mut board = Board::empty();
        board.set_piece_at(Square::E8, Color::White.queen());
        let mut tokens = Tokens::default();
        tokens.set(Square::E8, Token::Hidden);
        let e = expected(&board, Bitboard::from_square(Square::E8), &tokens, &[]);
        assert!(e.allows(Square::E8, Cell::EMPTY));
        assert!(e.allows(Square::E8, Cell::piece(Color::White.pawn())));
        assert!(!e.allows(Square::E8, Cell::piece(Color::White.queen())));
    }
}
