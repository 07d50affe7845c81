//! Names shared by every room: which board, and match time.

use serde::{Deserialize, Serialize};

/// Milliseconds since the match (or capture) started. The only notion of time in the core.
pub type Millis = u64;

/// One of the two boards of a bughouse match. Board A's White partners board B's Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum BoardId {
    A,
    B,
}

impl BoardId {
    pub const BOTH: [BoardId; 2] = [BoardId::A, BoardId::B];

    /// The partner board: where captures made on this board are sent.
    #[must_use]
    pub fn other(self) -> BoardId {
        match self {
            BoardId::A => BoardId::B,
            BoardId::B => BoardId::A,
        }
    }

    /// 0 for A, 1 for B: for indexing per-board arrays.
    #[must_use]
    pub fn index(self) -> usize {
        match self {
            BoardId::A => 0,
            BoardId::B => 1,
        }
    }

    #[must_use]
    pub fn letter(self) -> char {
        match self {
            BoardId::A => 'A',
            BoardId::B => 'B',
        }
    }

    /// Parses `A`/`B` (either case).
    #[must_use]
    pub fn from_letter(c: char) -> Option<BoardId> {
        match c {
            'A' | 'a' => Some(BoardId::A),
            'B' | 'b' => Some(BoardId::B),
            _ => None,
        }
    }
}

impl std::fmt::Display for BoardId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// One value for each board, reached by the board's name (modelled on shakmaty's
/// `ByColor`). Serialized as the two-element list `[a, b]`, the form per-board arrays
/// always had in journals and settings files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByBoard<T> {
    pub a: T,
    pub b: T,
}

impl<T> ByBoard<T> {
    /// Builds each board's value from its name.
    pub fn new_with(mut init: impl FnMut(BoardId) -> T) -> ByBoard<T> {
        ByBoard {
            a: init(BoardId::A),
            b: init(BoardId::B),
        }
    }

    #[must_use]
    pub const fn get(&self, board: BoardId) -> &T {
        match board {
            BoardId::A => &self.a,
            BoardId::B => &self.b,
        }
    }

    pub const fn get_mut(&mut self, board: BoardId) -> &mut T {
        match board {
            BoardId::A => &mut self.a,
            BoardId::B => &mut self.b,
        }
    }

    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByBoard<U> {
        ByBoard {
            a: f(self.a),
            b: f(self.b),
        }
    }

    /// A's value, then B's.
    pub fn iter(&self) -> std::array::IntoIter<&T, 2> {
        [&self.a, &self.b].into_iter()
    }

    pub fn iter_mut(&mut self) -> std::array::IntoIter<&mut T, 2> {
        [&mut self.a, &mut self.b].into_iter()
    }
}

impl<T> std::ops::Index<BoardId> for ByBoard<T> {
    type Output = T;

    fn index(&self, board: BoardId) -> &T {
        self.get(board)
    }
}

impl<T> std::ops::IndexMut<BoardId> for ByBoard<T> {
    fn index_mut(&mut self, board: BoardId) -> &mut T {
        self.get_mut(board)
    }
}

impl<T> IntoIterator for ByBoard<T> {
    type Item = T;
    type IntoIter = std::array::IntoIter<T, 2>;

    fn into_iter(self) -> Self::IntoIter {
        [self.a, self.b].into_iter()
    }
}

impl<'a, T> IntoIterator for &'a ByBoard<T> {
    type Item = &'a T;
    type IntoIter = std::array::IntoIter<&'a T, 2>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T> IntoIterator for &'a mut ByBoard<T> {
    type Item = &'a mut T;
    type IntoIter = std::array::IntoIter<&'a mut T, 2>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

impl<T> From<[T; 2]> for ByBoard<T> {
    fn from([a, b]: [T; 2]) -> ByBoard<T> {
        ByBoard { a, b }
    }
}

impl<T: Serialize> Serialize for ByBoard<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        [&self.a, &self.b].serialize(serializer)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for ByBoard<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        <[T; 2]>::deserialize(deserializer).map(ByBoard::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_board_reaches_each_board_by_name() {
        let mut v = ByBoard::new_with(|b| b.letter());
        assert_eq!((v[BoardId::A], v[BoardId::B]), ('A', 'B'));
        *v.get_mut(BoardId::B) = 'x';
        assert_eq!(v.iter().copied().collect::<String>(), "Ax");
        assert_eq!(v.map(|c| c == 'x'), ByBoard { a: false, b: true });
    }

    #[test]
    fn by_board_serializes_as_the_old_two_element_list() {
        let v = ByBoard { a: 1u8, b: 2u8 };
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(json, "[1,2]");
        let back: ByBoard<u8> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, v);
        assert!(serde_json::from_str::<ByBoard<u8>>("[1]").is_err());
    }
}
