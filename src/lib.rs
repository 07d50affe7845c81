//! Tandem: over-the-board bughouse on DGT e-boards.
//!
//! The crate is one library with a thin binary (`src/main.rs`). The rooms:
//! - [`rules`]: two-board bughouse on shakmaty's Crazyhouse positions, rule presets.
//! - [`notation`]: SAN for display, the BPGN writer and tolerant reader.
//! - [`dgt`]: the DGT wire protocol, pure (no I/O).
//! - [`device`]: serial workers, device profiles, the virtual board, capture files.
//! - [`sensing`]: square occupancy to moves and drops.
//! - [`arbiter`]: the deterministic core: inputs in, moves, alerts and outcome out.
//! - [`web`]: the spectators' web page and live feeds (the only HTTP).
//! - [`ui`]: the TD console and the projector (egui).
//!
//! The pure core (`rules`, `dgt`, `sensing`, `arbiter`) never reads the wall clock and
//! never touches I/O: time arrives inside the inputs.

pub mod arbiter;
pub mod board_id;
pub mod cli;
pub mod device;
pub mod dgt;
pub mod notation;
pub mod rules;
pub mod sensing;
pub mod sim;
pub mod station;
pub mod ui;
pub mod util;
pub mod web;

pub use board_id::{BoardId, ByBoard, Millis};
