//! Tandem: over-the-board bughouse on DGT e-boards.
//!
//! The crate is one library with a thin binary (`src/main.rs`). The rooms:
//! - [`rules`]: two-board bughouse on shakmaty's Crazyhouse positions, rule presets.
//! - [`notation`]: SAN for display, the BPGN writer and tolerant reader.
//! - [`dgt`]: the DGT wire protocol, pure (no I/O).
//! - [`device`]: serial workers, device profiles, the virtual board, capture files.
//! - [`buttons`]: USB clock buttons (Linux input devices) when Tandem is the clock.
//! - [`sensing`]: square occupancy to moves and drops.
//! - [`arbiter`]: the deterministic core: inputs in, moves, alerts and outcome out.
//! - [`event`]: a club evening: teams, rounds, pairings, results, standings (pure).
//! - [`web`]: the spectators' web page and live feeds (the only HTTP).
//! - [`ui`]: the TD console and the projector (egui).
//!
//! The pure core (`rules`, `dgt`, `sensing`, `arbiter`, and `event` above it) never reads
//! the wall clock and never touches I/O: time arrives inside the inputs.

pub mod arbiter;
pub mod board_id;
pub mod buttons;
pub mod cli;
pub mod device;
pub mod dgt;
pub mod event;
pub mod notation;
pub mod rules;
pub mod sensing;
pub mod sim;
pub mod station;
pub mod ui;
pub mod util;
pub mod web;

pub use board_id::{BoardId, ByBoard, Millis};
