//! The journal: every input, one JSON line, written before it is applied.
