//! Inputs to the arbiter: everything that can change the match, timestamped. Each is
//! journaled (serde JSON) before it is applied, so replaying the journal rebuilds the
//! match exactly.

use serde::{Deserialize, Serialize};

use shakmaty::{Role, Square};

use crate::dgt::Message;
use crate::rules::{MatchResult, Penalty, Seat};
use crate::{BoardId, Millis};

use super::alert::PlyRef;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Input {
    /// A report from a board (message, connect, disconnect). Journaled as `device`.
    #[serde(rename = "device")]
    Board(BoardEvent),
    /// Time passing with nothing else happening (lets waiting decisions fall due).
    Tick { t_ms: Millis },
    /// A decision of the tournament director.
    Td { t_ms: Millis, action: TdAction },
    /// A clock press on Tandem's own clock (a USB button, or a key in Tandem's window),
    /// at the press's own time.
    Press { t_ms: Millis, seat: Seat },
    /// The clock buttons' device came (`connected`) or went; `detail` names it or says why.
    Buttons {
        t_ms: Millis,
        connected: bool,
        detail: String,
    },
}

impl Input {
    #[must_use]
    pub fn t_ms(&self) -> Millis {
        match self {
            Input::Board(e) => e.t_ms,
            Input::Tick { t_ms }
            | Input::Td { t_ms, .. }
            | Input::Press { t_ms, .. }
            | Input::Buttons { t_ms, .. } => *t_ms,
        }
    }
}

/// What the TD can decide. Pieces and squares are typed and journaled as text (`Q`, `e4`);
/// a move is the text the TD typed (SAN or UCI), read against the position at the moment
/// it is applied, so a replay reads it exactly as live play did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TdAction {
    /// Seen, nothing to do (or: accept what the board shows).
    Dismiss { alert: u64 },
    /// The promoted pawn stands for this piece (journaled as `Q`, `R`, `B`, `N`).
    SetPromotion {
        ply: PlyRef,
        #[serde(with = "crate::rules::text::role")]
        role: Role,
    },
    /// The hidden promoted piece went to this square (journaled as `e4`); `from` names
    /// the piece when several lie on their side (journaled only then: journals written
    /// before it read as they always did).
    ChooseHiddenMove {
        ply: PlyRef,
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            with = "crate::rules::text::square_opt"
        )]
        from: Option<Square>,
        #[serde(with = "crate::rules::text::square")]
        to: Square,
    },
    /// The piece dropped in a drop taken at once, before the board saw it (journaled as
    /// `Q`): the players say which it was.
    SetDroppedPiece {
        ply: PlyRef,
        #[serde(with = "crate::rules::text::role")]
        role: Role,
    },
    /// The move at `ply` and the reply after it on its board were these two (SAN or
    /// UCI, separated by a space): the players say which of the pairs the board could
    /// not tell apart was played.
    ChoosePair { ply: PlyRef, moves: String },
    /// An illegal move was claimed by the opponent: the preset decides the consequence.
    ClaimIllegal { ply: PlyRef },
    /// An illegal move was not claimed in time: it stands.
    LetStand { alert: u64 },
    /// Replace a recorded move (a wrong reconstruction): SAN or UCI.
    CorrectMove { ply: PlyRef, mv: String },
    /// A move the sensing could not see (a desync resolved by hand), played now.
    AddMove { board: BoardId, mv: String },
    /// Remove a ply from the record (a takeback ruled by the TD).
    TakeBack { ply: PlyRef },
    /// A flag fall was claimed against `seat`.
    ClaimFlag { seat: Seat },
    /// A penalty for `seat` (the n-th offence of that kind follows the preset's ladder);
    /// `alert`, the alert that prompted it, is resolved with it (one ruling, one outcome).
    Penalize {
        seat: Seat,
        offence: Offence,
        penalty: Penalty,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        alert: Option<u64>,
    },
    /// End the match with this result (resignation, agreement, forfeit, TD decision).
    DeclareResult { result: MatchResult },
    /// Withdraw a declared result (its game-end alert goes with it).
    Undeclare,
    /// Names of the players (`WhiteA`, `BlackA`, `WhiteB`, `BlackB`).
    SetPlayers { names: [String; 4] },
    /// Both clocks start in the same moment (driven DGT3000s, or Tandem's own clocks).
    StartClocks,
    /// Play stops on both boards: both clocks stop; no press or flag is judged.
    PauseClocks,
    /// Play goes on on both boards.
    ResumeClocks,
    /// `seat`'s clock is set to `ms`.
    SetClock { seat: Seat, ms: u64 },
}

/// What a penalty is for (the texts' escalation ladders are per offence).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Offence {
    DisplacedPieces,
    KnockedClock,
    WrongHand,
    Other,
}

impl Offence {
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            Offence::DisplacedPieces => "displaced pieces",
            Offence::KnockedClock => "knocked over the clock",
            Offence::WrongHand => "pressed the clock with the other hand",
            Offence::Other => "conduct",
        }
    }
}

/// One report from a board, timestamped in ms since the match epoch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardEvent {
    pub board: BoardId,
    pub t_ms: Millis,
    pub kind: BoardEventKind,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoardEventKind {
    /// A message from the board (link-level replies such as keep-alive serial numbers are
    /// not passed on).
    Message(Message),
    /// The board answered the start-up sequence; a fresh dump follows.
    Connected {
        port: String,
        serial: Option<String>,
        version: Option<(u8, u8)>,
    },
    /// The board was lost (unplugged, silent, wrong board) or could not be opened.
    Disconnected { reason: String },
    /// What became of clock command `id`, which the arbiter asked for (the board's link
    /// sends one at a time and waits for the clock's ack).
    ClockCommand { id: u64, outcome: ClockOutcome },
}

/// What became of a clock command.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockOutcome {
    /// Written to the board (its first try).
    Sent,
    /// The clock acknowledged it.
    Done,
    /// The clock refused it (an error ack, or "not in mode 23").
    Refused { reason: String },
    /// No answer came (after every retry), or the board was not there to take it.
    Unanswered { reason: String },
}
