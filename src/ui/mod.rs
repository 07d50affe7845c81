//! The TD console and the projector (egui/eframe). egui appears only here (and in
//! `cli::app`, which starts it).
//!
//! - [`app`]: the application: screens, the live match, the demo's loop, the projector
//!   window, repaint scheduling.
//! - [`console`]: the TD console: boards, links, clocks, move lists, the alert queue and
//!   its one-click resolutions, results, penalties, players, BPGN export.
//! - [`projector`]: what the hall sees, filtered to what the TD stands behind.
//! - [`overview`]: an evening at a glance: every live match, one alert queue, the round.
//! - [`projector_grid`], [`standings`]: the hall during an evening: the round's matches in
//!   a grid (or one large), the standings between rounds.
//! - [`setup`]: rules, time control, players and boards before the start; resuming.
//! - [`replay`]: a capture or journal replayed through the arbiter, read-only.
//! - [`board`], [`pieces`], [`theme`], [`text`]: drawing and wording shared by all.
//! - [`source`]: [`MatchSource`], what the UI needs of a match (a live `Session`, or a
//!   simulated one in the tests). The UI takes match time only from it.

pub mod app;
pub mod board;
pub mod console;
pub mod overview;
pub mod pieces;
pub mod projector;
pub mod projector_grid;
pub mod replay;
pub mod setup;
pub mod source;
pub mod standings;
pub mod text;
pub mod theme;

pub use app::{Options, ProjectorSettings, TandemApp, projector_id};
pub use source::MatchSource;
