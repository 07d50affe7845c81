//! Notation: SAN for display and the record, the BPGN writer and the tolerant reader.

pub mod san;
