//! The clocks as the console shows them.

use super::*;

/// Play stopped, as the console shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PauseView {
    pub since: Millis,
    pub by: PausedBy,
    /// "stopped from the console", "stopped with board A's clock button".
    pub text: String,
}

/// One board's clock, as the console shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardClockView {
    pub board: BoardId,
    pub plan: ClockPlan,
    /// What Tandem can do with it: "driven", "read only: no clock", ...
    pub status: String,
    /// Tandem can write to it (driven and taking commands), or it is Tandem's own.
    pub in_hand: bool,
    /// Commands on their way.
    pub waiting: usize,
    /// The last thing worth telling (a change checked, a refusal, what to set by hand).
    pub note: Option<String>,
    pub note_ok: bool,
}

/// The clocks of the match, as the console shows them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClocksView {
    pub started: bool,
    pub paused: Option<PauseView>,
    pub boards: Vec<BoardClockView>,
    pub buttons: Option<ButtonsLink>,
}

impl ClocksView {
    /// Tandem can start, stop or set some clock.
    #[must_use]
    pub fn any_in_hand(&self) -> bool {
        self.boards.iter().any(|b| b.plan != ClockPlan::Read)
    }
}

impl Arbiter {
    /// The clocks as the console shows them.
    #[must_use]
    pub fn clocks_view(&self) -> ClocksView {
        let boards = self
            .game
            .board_ids()
            .iter()
            .map(|&b| {
                let c = &self.clocks.boards[b];
                let status = match (c.plan, &c.control) {
                    (ClockPlan::Read, _) => "DGT clock, read only".to_owned(),
                    (ClockPlan::Tandem, _) => "Tandem is the clock".to_owned(),
                    (ClockPlan::Drive, Control::Unread) => {
                        "DGT3000: waiting for a reading".to_owned()
                    }
                    (ClockPlan::Drive, Control::Ready) => "DGT3000 driven by Tandem".to_owned(),
                    (ClockPlan::Drive, Control::ReadOnly { why }) => format!("read only: {why}"),
                };
                BoardClockView {
                    board: b,
                    plan: c.plan,
                    status,
                    in_hand: c.plan == ClockPlan::Tandem || c.driven(),
                    waiting: c.orders.len(),
                    note: c.note.clone(),
                    note_ok: c.note_ok,
                }
            })
            .collect();
        ClocksView {
            started: self.clocks.started,
            paused: self.clocks.paused.map(|p| PauseView {
                since: p.since,
                by: p.by,
                text: match p.by {
                    PausedBy::Td => "stopped from the console".to_owned(),
                    PausedBy::ClockButton(b) => format!(
                        "stopped with the play/pause button of board {b}'s clock ({})",
                        self.player_names(b)
                    ),
                },
            }),
            boards,
            buttons: self.clocks.buttons.clone(),
        }
    }
}
