//! The bughouse clock: both boards' clocks as one. Tandem starts both together, stops
//! both and restarts both (Laws of Transfer Chess 7a/7b; the club texts: "either player
//! may stop both clocks while the tournament director is being summoned"), adds the
//! penalty minute of the texts' ladders, and lets the TD set any of the four times.
//!
//! Per board the clock is one of three ([`ClockPlan`]): the board's DGT clock read only
//! (the players set and start it), the board's DGT3000 driven by Tandem, or Tandem itself
//! (`own_clock.rs`: presses from USB buttons or keys). A DGT3000 is driven through its
//! board: the arbiter decides a command ([`Output::Clock`]), the station sends it through
//! the board's link (one at a time, waiting for the ack) and what became of it comes back
//! as an input (`BoardEventKind::ClockCommand`), so a pause, a penalty minute or a refused
//! command replays and resumes exactly; a replay sends nothing. Each change is checked
//! against the clock's next time message. Tandem reads a clock before it writes to it
//! (after a reconnect, it waits for a reading) and writes only times it read, or that the
//! TD asked for.
//!
//! In mode 23 (set-and-run) the clock counts down and adds nothing of its own, so Tandem
//! adds the preset's increment (and gives back a delay's unused seconds) after each press.

use serde::{Deserialize, Serialize};
use shakmaty::{ByColor, Color};

use super::own_clock::OwnClock;
use super::{AlertKind, Arbiter, ClockOutcome, Output, Subject};
use crate::dgt::command::{Hms, run_flags};
use crate::dgt::{ClockButton, ClockCommand, ClockSide, ClockTimes};
use crate::rules::Seat;
use crate::{BoardId, ByBoard, Millis};

mod driven;
mod view;

pub use view::{BoardClockView, ClocksView, PauseView};

/// Who keeps a board's time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockPlan {
    /// The board's DGT clock, read only: the players set and start it (as before).
    #[default]
    Read,
    /// The board's DGT3000, set, started, stopped and corrected by Tandem.
    Drive,
    /// Tandem is the clock: presses come from USB buttons or keys.
    Tandem,
}

impl ClockPlan {
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            ClockPlan::Read => "DGT clock, read only",
            ClockPlan::Drive => "DGT3000 driven by Tandem",
            ClockPlan::Tandem => "Tandem is the clock",
        }
    }
}

/// A command for a board's clock, decided by the arbiter; the station sends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockOrder {
    pub board: BoardId,
    /// Names the command in its outcome.
    pub id: u64,
    pub command: ClockCommand,
}

/// What a command was for (what to tell the TD if it fails).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    SetUp,
    /// Text on the display (cosmetic: a refusal is not worth an alert).
    Text,
    Start,
    Pause,
    Resume,
    /// Time added (a penalty minute) or set by the TD: the seat and its new time.
    SetTime {
        seat: Seat,
        ms: u64,
    },
    /// The increment (and a delay's unused seconds) after a press.
    Increment {
        seat: Seat,
        ms: u64,
    },
}

impl Purpose {
    fn words(self) -> &'static str {
        match self {
            Purpose::SetUp => "setting the clock up",
            Purpose::Text => "the text on the display",
            Purpose::Start => "the start",
            Purpose::Pause => "the pause",
            Purpose::Resume => "the restart",
            Purpose::SetTime { .. } => "the time change",
            Purpose::Increment { .. } => "the increment",
        }
    }
}

/// A command sent to a clock and not yet answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Order {
    pub id: u64,
    pub purpose: Purpose,
    /// The times it sets, for checking the clock's next reading (set-and-run only).
    pub sets: Option<Setting>,
}

/// Times a set-and-run writes: each side's time and which side runs (none: paused).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setting {
    pub left_ms: u64,
    pub right_ms: u64,
    pub running: Option<ClockSide>,
}

/// A setting the clock acknowledged, to be checked against its next reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Check {
    pub setting: Setting,
    pub purpose: Purpose,
    /// When the ack came.
    pub acked: Millis,
}

/// Whether a driven clock takes commands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Control {
    /// Not read yet (or not since the board came back).
    Unread,
    /// It takes commands.
    Ready,
    /// It refused, or never answered, or there is none: Tandem only reads it.
    ReadOnly { why: String },
}

/// Something to do at a board's next clock reading (Tandem reads before it writes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deferred {
    Pause,
    Start,
    Resume,
}

/// The clock of one board as the controller knows it.
#[derive(Clone, Debug)]
pub struct BoardClocks {
    pub plan: ClockPlan,
    pub control: Control,
    /// Commands sent and not yet answered, oldest first.
    pub orders: Vec<Order>,
    /// A setting acknowledged and not yet seen on the clock.
    pub check: Option<Check>,
    /// The last thing worth telling about this clock (for the console).
    pub note: Option<String>,
    pub note_ok: bool,
    /// The board's clock was set up for this match.
    pub set_up: bool,
    /// The side that ran when play was stopped (it runs again on the restart).
    pub ran_before_pause: Option<ClockSide>,
    pub deferred: Option<Deferred>,
    /// During the pause the clock was seen stopped (so a clock seen running after that
    /// was restarted by hand, and is stopped again; one that refused to stop is not).
    pub seen_stopped: bool,
    /// When the running side last started (for a delay's unused seconds).
    pub turn_began: Option<Millis>,
    /// Tandem's own clock, when Tandem is the clock.
    pub own: Option<OwnClock>,
}

impl BoardClocks {
    fn new(plan: ClockPlan, own: Option<OwnClock>) -> BoardClocks {
        BoardClocks {
            plan,
            control: Control::Unread,
            orders: Vec::new(),
            check: None,
            note: None,
            note_ok: true,
            set_up: false,
            ran_before_pause: None,
            deferred: None,
            seen_stopped: false,
            turn_began: None,
            own,
        }
    }

    /// Tandem may write to this clock.
    #[must_use]
    pub fn driven(&self) -> bool {
        self.plan == ClockPlan::Drive && self.control == Control::Ready
    }
}

/// Why play is stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PausedBy {
    /// From the console.
    Td,
    /// With the play/pause button of that board's clock.
    ClockButton(BoardId),
}

/// Play is stopped on both boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pause {
    pub since: Millis,
    pub by: PausedBy,
}

/// The USB buttons' device, as last reported.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ButtonsLink {
    pub connected: bool,
    /// The device, or why it is not there.
    pub detail: String,
}

/// The match's clocks.
#[derive(Clone, Debug)]
pub struct Clocks {
    next_id: u64,
    /// The TD started the clocks (Tandem's or driven ones).
    pub started: bool,
    pub paused: Option<Pause>,
    pub boards: ByBoard<BoardClocks>,
    pub buttons: Option<ButtonsLink>,
}

impl Clocks {
    #[must_use]
    pub fn new(plans: ByBoard<ClockPlan>, base: &crate::rules::TimeControl) -> Clocks {
        Clocks {
            next_id: 1,
            started: false,
            paused: None,
            boards: ByBoard::new_with(|b| {
                let plan = plans[b];
                let own = (plan == ClockPlan::Tandem).then(|| OwnClock::new(base));
                BoardClocks::new(plan, own)
            }),
            buttons: None,
        }
    }
}

/// Seconds as the clock shows them, `m:ss`.
#[must_use]
pub fn mss(ms: u64) -> String {
    let s = ms.div_ceil(1000);
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// How far a clock may read from what was set and still count as taking it: the clock
/// shows whole seconds, and a reading reaches the PC up to a poll late.
const CHECK_SLACK_MS: u64 = 1500;

impl Arbiter {
    /// Is play stopped on both boards?
    #[must_use]
    pub fn paused(&self) -> bool {
        self.clocks.paused.is_some()
    }

    #[must_use]
    pub fn clocks(&self) -> &Clocks {
        &self.clocks
    }

    /// Tandem keeps this board's time.
    pub(super) fn tandem_clock(&self, b: BoardId) -> bool {
        self.clocks.boards[b].plan == ClockPlan::Tandem
    }

    fn order(
        &mut self,
        b: BoardId,
        command: ClockCommand,
        purpose: Purpose,
        sets: Option<Setting>,
    ) {
        let id = self.clocks.next_id;
        self.clocks.next_id += 1;
        self.clocks.boards[b]
            .orders
            .push(Order { id, purpose, sets });
        self.outputs.push(Output::Clock(ClockOrder {
            board: b,
            id,
            command,
        }));
    }

    fn set_and_run(&mut self, b: BoardId, setting: Setting, purpose: Purpose) {
        let flags = match setting.running {
            Some(ClockSide::Left) => run_flags::LEFT_RUNS | run_flags::TOGGLE_ON_LEVER,
            Some(ClockSide::Right) => run_flags::RIGHT_RUNS | run_flags::TOGGLE_ON_LEVER,
            None => run_flags::PAUSE,
        };
        let command = ClockCommand::SetAndRun {
            left: Hms::from_ms(setting.left_ms),
            right: Hms::from_ms(setting.right_ms),
            flags,
        };
        self.order(b, command, purpose, Some(setting));
    }

    fn clock_note(&mut self, b: BoardId, text: String, ok: bool) {
        let c = &mut self.clocks.boards[b];
        c.note = Some(text);
        c.note_ok = ok;
    }

    fn clock_alert(&mut self, b: BoardId, text: String) {
        self.clock_note(b, text.clone(), false);
        self.raise(b, AlertKind::Clock, None, text, Subject::None);
    }

    /// The times the board's clock shows now, by side, as well as Tandem can tell: the last
    /// reading, the running side counted down since (the reading is up to a poll old).
    fn times_now(&self, b: BoardId) -> Option<(u64, u64, Option<ClockSide>, ClockSide)> {
        let reading = self.tracks[b].clock.reading?;
        let t = reading.times;
        if t.no_clock {
            return None;
        }
        let elapsed = self.now.saturating_sub(reading.at);
        let ms = |side: ClockSide| {
            let shown = u64::from(t.side(side).seconds) * 1000;
            if t.running == Some(side) {
                shown.saturating_sub(elapsed)
            } else {
                shown
            }
        };
        Some((
            ms(ClockSide::Left),
            ms(ClockSide::Right),
            t.running,
            t.lever_high,
        ))
    }

    fn player_names(&self, b: BoardId) -> String {
        format!(
            "{} – {}",
            self.player(Seat::new(b, Color::White)),
            self.player(Seat::new(b, Color::Black))
        )
    }

    // ---- the TD's actions -------------------------------------------------------------

    /// Both clocks start in the same moment (White's time on each board).
    pub(super) fn start_clocks(&mut self) -> Result<(), super::Refusal> {
        if self.game.is_over() {
            return Err(super::Refusal::MatchOver);
        }
        if self.clocks.started {
            return Err(super::Refusal::ClocksStarted);
        }
        if !self
            .game
            .board_ids()
            .iter()
            .any(|&b| self.clocks.boards[b].plan != ClockPlan::Read)
        {
            return Err(super::Refusal::ClocksReadOnly);
        }
        self.clocks.started = true;
        self.clocks.paused = None;
        let now = self.now;
        for b in self.game.board_ids().to_vec() {
            match self.clocks.boards[b].plan {
                ClockPlan::Tandem => {
                    if let Some(own) = &mut self.clocks.boards[b].own {
                        own.start(now);
                    }
                }
                ClockPlan::Drive => self.drive(b, Deferred::Start),
                ClockPlan::Read => {
                    self.clock_note(
                        b,
                        format!("board {b}'s clock is read only: start it by hand"),
                        false,
                    );
                }
            }
        }
        Ok(())
    }

    /// Play stops on both boards.
    pub(super) fn pause_clocks(&mut self, by: PausedBy) -> Result<(), super::Refusal> {
        if self.game.is_over() {
            return Err(super::Refusal::MatchOver);
        }
        if self.clocks.paused.is_some() {
            return Err(super::Refusal::AlreadyPaused);
        }
        let now = self.now;
        self.clocks.paused = Some(Pause { since: now, by });
        for b in self.game.board_ids().to_vec() {
            let running = self.tracks[b].clock.running;
            let c = &mut self.clocks.boards[b];
            match c.plan {
                ClockPlan::Tandem => {
                    if let Some(own) = &mut c.own {
                        own.pause(now);
                    }
                }
                ClockPlan::Drive => {
                    c.ran_before_pause = running;
                    c.seen_stopped = false;
                    if by == PausedBy::ClockButton(b) {
                        // That clock stopped itself: its next reading says where.
                        c.deferred = Some(Deferred::Pause);
                    } else {
                        self.drive(b, Deferred::Pause);
                    }
                }
                ClockPlan::Read => self.clock_note(
                    b,
                    format!("board {b}'s clock is read only: stop it by hand"),
                    false,
                ),
            }
        }
        Ok(())
    }

    /// Play goes on on both boards, in the same moment.
    pub(super) fn resume_clocks(&mut self) -> Result<(), super::Refusal> {
        if self.clocks.paused.is_none() {
            return Err(super::Refusal::NotPaused);
        }
        if self.game.is_over() {
            return Err(super::Refusal::MatchOver);
        }
        self.clocks.paused = None;
        let now = self.now;
        for b in self.game.board_ids().to_vec() {
            match self.clocks.boards[b].plan {
                ClockPlan::Tandem => {
                    if let Some(own) = &mut self.clocks.boards[b].own {
                        own.resume(now);
                    }
                }
                ClockPlan::Drive => self.drive(b, Deferred::Resume),
                ClockPlan::Read => self.clock_note(
                    b,
                    format!("board {b}'s clock is read only: restart it by hand"),
                    false,
                ),
            }
        }
        Ok(())
    }

    /// `ms` more (a penalty minute) or exactly `ms` on `seat`'s clock.
    pub(super) fn change_clock(
        &mut self,
        seat: Seat,
        ms: u64,
        add: bool,
    ) -> Result<(), super::Refusal> {
        if !self.game.board_ids().contains(&seat.board) {
            return Err(super::Refusal::NoSuchBoard { board: seat.board });
        }
        let b = seat.board;
        let now = self.now;
        match self.clocks.boards[b].plan {
            ClockPlan::Tandem => {
                if let Some(own) = &mut self.clocks.boards[b].own {
                    let new = if add {
                        own.remaining(seat.color, now) + ms
                    } else {
                        ms
                    };
                    own.set(seat.color, new, now);
                    self.tracks[b].clock.flag_reported[seat.color] = false;
                    let text = format!("{}'s clock set to {}", self.player(seat), mss(new));
                    self.clock_note(b, text, true);
                }
                Ok(())
            }
            ClockPlan::Drive if self.clocks.boards[b].driven() => {
                let Some(side) = self.tracks[b].clock.side_of(seat.color) else {
                    return Err(super::Refusal::ClockSidesUnknown { board: b });
                };
                let Some((left, right, running, _)) = self.times_now(b) else {
                    return Err(super::Refusal::ClockNotRead { board: b });
                };
                let current = if side == ClockSide::Left { left } else { right };
                let new = if add { current + ms } else { ms };
                let (left_ms, right_ms) = match side {
                    ClockSide::Left => (new, right),
                    ClockSide::Right => (left, new),
                };
                let running = if self.paused() { None } else { running };
                self.set_and_run(
                    b,
                    Setting {
                        left_ms,
                        right_ms,
                        running,
                    },
                    Purpose::SetTime { seat, ms: new },
                );
                Ok(())
            }
            ClockPlan::Drive | ClockPlan::Read => {
                // The TD sets it by hand; the console says what.
                let current = self.tracks[b].clock.reported_ms(seat.color);
                let text = match (add, current) {
                    (true, Some(c)) => format!(
                        "set {}'s clock by hand: {} (+{})",
                        self.player(seat),
                        mss(c + ms),
                        mss(ms)
                    ),
                    (true, None) => {
                        format!("add {} to {}'s clock by hand", mss(ms), self.player(seat))
                    }
                    (false, _) => {
                        format!("set {}'s clock by hand to {}", self.player(seat), mss(ms))
                    }
                };
                self.clock_note(b, text, false);
                Ok(())
            }
        }
    }
}
