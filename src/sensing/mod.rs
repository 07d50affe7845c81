//! Sensing: from square occupancy to moves and drops.
//!
//! Knows chess (through `rules`) but nothing of DGT: the arbiter turns board messages into
//! [`cells::Cells`] (orientation applied) before they reach this module.
//!
//! - [`cells`]: sensed cells, what the record expects, promoted-piece tokens.
//! - [`explain`]: differences between record and board sorted into "the opponent partway
//!   through one move" and anomalies (displaced, missing, unexplained).
//! - [`press`]: judging a clock press over the board's recent history.

pub mod cells;
pub mod explain;
pub mod press;

pub use cells::{Cell, Cells, Expect, Recorded, Token, Tokens, expected, expected_after};
pub use explain::{Anomaly, Residual, explain, explain_before, explain_with};
pub use press::{
    CLOCK_MESSAGE_LAG_MS, Candidate, Committed, Plies, PressSeen, Snapshot, Verdict, judge_press,
    judge_stable, judge_three_presses, judge_two_unseen_presses, latest_run, lying_read_ms,
    touched,
};
