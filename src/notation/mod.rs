//! Notation: the BPGN writer and the tolerant reader (SAN itself is fixed by the rules:
//! [`crate::rules::san`]).

pub mod bpgn;

pub use bpgn::{
    BpgnError, BpgnFileError, BpgnHeader, RawGame, ReadGame, parse_bpgn, parse_move, read_bpgn,
    read_bpgn_file, replay_game, write_bpgn,
};
