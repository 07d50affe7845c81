//! The immutable view of the match the UI draws.
