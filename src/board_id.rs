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
