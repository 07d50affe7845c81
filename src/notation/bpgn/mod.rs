//! BPGN (bughouse PGN): the writer, FICS/BughouseDB style, the tolerant reader, and the
//! conversion for bughouse.pro.
//!
//! - [`write_bpgn`] writes one match: tags (Seven Tag Roster with `WhiteA/BlackA/WhiteB/BlackB`,
//!   rule tags, `Termination`, `Outcome`), movetext in real-time order (`1A. e4{298.210}`),
//!   a termination comment and a **team-relative** Result (`1-0` = WhiteA & BlackB won).
//! - [`parse_bpgn`] splits text into games (tags and movetext tokens with positions);
//!   [`replay_game`] plays a game through the rules and reports the first bad move with its
//!   line and column; [`read_bpgn`] and [`read_bpgn_file`] do both.
//! - [`parse_move`] is the tolerant single-move parser (every dialect's spelling of a move).
//! - [`to_bughouse_pro`] writes a match in bughouse.pro's import dialect (`pro.rs` lists
//!   that importer's rules, with their place in its source).
//! - [`write_bpgn_feed`] and [`write_pgn_clk`] write what the hall may read as it grows
//!   (the web server's feeds): BPGN, and a single board's PGN with `[%clk]` clocks.
//!
//! The dialects read (FICS/BughouseDB, chess.com, bughouse.pro, Lieven) are described in
//! `shared/reference/bughouse-software.md` §2 and in README.md ("BPGN").

mod feed;
mod lex;
mod moves;
mod outcome;
mod pro;
mod read;
mod write;

use std::path::PathBuf;

pub use feed::{FeedEnd, FeedPly, write_bpgn_feed, write_pgn_clk};
pub use lex::{Lexeme, LexemeKind, Pos, RawGame, RawTag, parse_bpgn};
pub use moves::parse_move;
pub use pro::{ProExport, ProRefusal, to_bughouse_pro};
pub use read::{ReadGame, decode_bpgn, read_bpgn, read_bpgn_file, replay_game};
pub use write::{BpgnHeader, write_bpgn};

/// A problem in BPGN text, at a 1-based line and column (columns count characters).
/// The caller adds the file name: `file:line:column: message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct BpgnError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl BpgnError {
    pub(crate) fn at(pos: Pos, message: impl Into<String>) -> BpgnError {
        BpgnError {
            line: pos.line,
            column: pos.column,
            message: message.into(),
        }
    }
}

/// Reading a BPGN file: the file could not be read, or its text is bad.
#[derive(Debug, thiserror::Error)]
pub enum BpgnFileError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}:{error}", path.display())]
    Bpgn { path: PathBuf, error: BpgnError },
}
