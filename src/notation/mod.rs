//! Notation: SAN for display and the record, the BPGN writer and the tolerant reader.

pub mod bpgn;
pub mod san;

pub use bpgn::{
    BpgnError, BpgnFileError, BpgnHeader, RawGame, ReadGame, parse_bpgn, parse_move, read_bpgn,
    read_bpgn_file, replay_game, write_bpgn,
};
