//! The rules engine: two-board bughouse on shakmaty's Crazyhouse positions.
//!
//! - [`preset`]: the options on which the rule texts differ, loaded from RON.
//! - [`position`]: one board as the players actually have it (illegal moves included),
//!   with legality, mate and stalemate by the preset's definitions.
//! - [`game`]: the match: four seats, the real-time record, transfers, the outcome.
//! - [`san`]: SAN as the record writes it (written once, when a ply is recorded).

pub mod game;
pub mod position;
pub mod preset;
pub mod san;
pub mod text;

pub use game::{ClaimOutcome, EndReason, Match, MatchResult, PlayError, Ply, PlyMeta, Seat, Team};
pub use position::{
    Applied, ApplyError, BoardState, IllegalReason, Legality, RESERVE_ROLES, Reserve, rank_number,
    with_promotion,
};
pub use preset::{
    BoardCount, DropMate, EventRules, IllegalMoveRule, MateRule, NextGameRule, Penalty,
    PresetError, PromotedPawnMarking, Promotion, RulesPreset, Scoring, StalemateRule, Tiebreak,
    TimeControl, WhiteRule,
};
