//! The arbiter: the deterministic core of Tandem.
//!
//! Timestamped inputs in (board messages per board, ticks, TD actions), committed moves,
//! alerts and the outcome out. No wall clock, no I/O: live play, `tandem replay`, crash
//! recovery (replaying the journal) and the tests all drive this one state machine, and
//! the same inputs always give the same outputs.
//!
//! Waiting is done with deadlines: a decision that falls due at time `d` is taken when the
//! first input with a time `>= d` arrives, *before* that input is applied, using only what
//! was known at `d`. Live play sends [`Input::Tick`]s so deadlines fire on time; a replay
//! without ticks reaches the same decisions.

pub mod alert;
mod board_input;
pub mod clocks;
mod debts;
pub mod input;
pub mod journal;
mod monitor;
mod own_clock;
mod press;
pub mod spectator;
mod taken_drops;
mod td;
pub mod track;
mod twins;
mod unseen_step;
pub mod view;

use shakmaty::{Color, Role, Square};

pub use alert::{Alert, AlertBook, AlertKind, AlertState, HiddenOption, PlyRef, Subject};
pub use clocks::{ClockOrder, ClockPlan, PausedBy};
pub use input::{BoardEvent, BoardEventKind, ClockOutcome, Input, Offence, TdAction};
pub use own_clock::OwnClock;
pub use td::Refusal;
pub use track::{LinkStatus, ResultSignal, Timing, Track};

use crate::rules::{BoardState, Match, MatchResult, Penalty, RulesPreset, Seat};
use crate::{BoardId, ByBoard, Millis};

/// How the arbiter is set up for a match.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ArbiterConfig {
    pub rules: RulesPreset,
    /// Players by seat: WhiteA, BlackA, WhiteB, BlackB.
    pub players: [String; 4],
    /// Per board; journaled as the list `[A, B]`.
    pub timing: ByBoard<Timing>,
    /// Who keeps each board's time (journals without it: the DGT clocks, read only).
    #[serde(default)]
    pub clocks: ByBoard<ClockPlan>,
    /// No console to restart play (a headless station): a driven clock's play/pause button
    /// pressed during a pause restarts both clocks, as it stopped them.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub clock_button_resumes: bool,
}

impl ArbiterConfig {
    #[must_use]
    pub fn new(rules: RulesPreset) -> ArbiterConfig {
        ArbiterConfig {
            rules,
            players: [
                "WhiteA".into(),
                "BlackA".into(),
                "WhiteB".into(),
                "BlackB".into(),
            ],
            timing: ByBoard::default(),
            clocks: ByBoard::default(),
            clock_button_resumes: false,
        }
    }
}

/// What came out of an input.
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    /// A ply was added to the record.
    Committed {
        ply: PlyRef,
    },
    /// The record was edited (a correction, a late capture moved before its drop).
    RecordChanged,
    AlertRaised(Alert),
    AlertCleared {
        id: u64,
    },
    MatchEnded(MatchResult),
    /// The players showed the DGT result signal on a board (kings in the centre).
    ResultSignal {
        board: BoardId,
        signal: Option<track::ResultSignal>,
    },
    /// A TD action that could not be carried out, and why; nothing was changed.
    Refused {
        action: TdAction,
        reason: Refusal,
    },
    /// A command for a board's clock: the station sends it (a replay never does) and
    /// reports what became of it as an input.
    Clock(ClockOrder),
}

/// A penalty given by the TD, for the escalation ladders and the record.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PenaltyRecord {
    pub t_ms: Millis,
    pub seat: Seat,
    pub offence: Offence,
    pub penalty: Penalty,
}

/// The arbiter of one match.
#[derive(Clone, Debug)]
pub struct Arbiter {
    config: ArbiterConfig,
    game: Match,
    /// What is known of each physical board.
    tracks: ByBoard<Track>,
    alerts: AlertBook,
    /// Drops recorded before the capture on the partner board that supplies them.
    drop_debts: Vec<debts::DropDebt>,
    /// Drops taken at once whose kind the record guessed (the partner board may tell).
    taken_drops: Vec<taken_drops::TakenDrop>,
    /// Promotions whose pair with the reply the board could not tell from its twin, both
    /// legal only once the TD names the piece: asked then (see `twins`).
    twins_waiting: Vec<PlyRef>,
    penalties: Vec<PenaltyRecord>,
    now: Millis,
    /// What the input being handled produced so far.
    outputs: Vec<Output>,
    result_announced: bool,
    inputs: u64,
    /// Why the TD's last action could not be carried out, for the console to say so.
    td_refusal: Option<String>,
    /// Both boards' clocks as one: pause, commands to driven clocks, Tandem's own clocks.
    clocks: clocks::Clocks,
}

impl Arbiter {
    #[must_use]
    pub fn new(config: ArbiterConfig) -> Arbiter {
        let game = Match::new(config.rules.clone());
        let tracks = ByBoard::new_with(|b| {
            let mut t = Track::new(b, config.timing[b]);
            // Tandem's clock is a clock: presses commit moves, not a still board.
            t.clock.present = config.clocks[b] == ClockPlan::Tandem;
            t
        });
        let clocks = clocks::Clocks::new(config.clocks, &config.rules.time_control);
        Arbiter {
            config,
            game,
            tracks,
            alerts: AlertBook::default(),
            drop_debts: Vec::new(),
            taken_drops: Vec::new(),
            twins_waiting: Vec::new(),
            penalties: Vec::new(),
            now: 0,
            outputs: Vec::new(),
            result_announced: false,
            inputs: 0,
            td_refusal: None,
            clocks,
        }
    }

    #[must_use]
    pub fn config(&self) -> &ArbiterConfig {
        &self.config
    }

    #[must_use]
    pub fn game(&self) -> &Match {
        &self.game
    }

    #[must_use]
    pub fn alerts(&self) -> &AlertBook {
        &self.alerts
    }

    #[must_use]
    pub fn track(&self, board: BoardId) -> &Track {
        &self.tracks[board]
    }

    #[must_use]
    pub fn now(&self) -> Millis {
        self.now
    }

    #[must_use]
    pub fn penalties(&self) -> &[PenaltyRecord] {
        &self.penalties
    }

    /// Number of inputs handled (for recovery checks).
    #[must_use]
    pub fn inputs_handled(&self) -> u64 {
        self.inputs
    }

    /// Why the TD's last action was not carried out, if it was not.
    #[must_use]
    pub fn td_refusal(&self) -> Option<&str> {
        self.td_refusal.as_deref()
    }

    /// The player's name in a seat.
    #[must_use]
    pub fn player(&self, seat: Seat) -> &str {
        &self.config.players[seat.index()]
    }

    /// Applies one input. Deadlines that fell due before it are handled first.
    pub fn handle(&mut self, input: &Input) -> Vec<Output> {
        self.inputs += 1;
        let t = input.t_ms().max(self.now);
        self.advance_to(t);
        self.now = t;
        match input {
            Input::Board(ev) => self.on_device(ev),
            Input::Tick { .. } => {}
            Input::Td { action, .. } => self.on_td(action),
            Input::Press { seat, .. } => self.on_button_press(*seat),
            Input::Buttons {
                connected, detail, ..
            } => self.buttons_report(*connected, detail),
        }
        self.fire_due();
        self.check_result();
        std::mem::take(&mut self.outputs)
    }

    /// Runs every deadline up to `t` (used at the end of a replay).
    pub fn finish_at(&mut self, t: Millis) -> Vec<Output> {
        let t = t.max(self.now);
        self.advance_to(t);
        self.now = t;
        self.fire_due();
        self.check_result();
        std::mem::take(&mut self.outputs)
    }

    /// The next time something falls due without any input.
    #[must_use]
    pub fn next_deadline(&self) -> Option<Millis> {
        let mut next: Option<Millis> = None;
        let mut consider = |t: Millis| next = Some(next.map_or(t, |n: Millis| n.min(t)));
        for track in &self.tracks {
            if let Some(p) = &track.presses.pending {
                if let Some(d) = p.decide_at {
                    consider(d);
                }
                consider(p.give_up_at);
            }
            // A displaced piece waits for the press being judged, which may read it as a
            // move (the monitor looks again after a commit).
            if track.presses.pending.is_none()
                && let Some(t) = track.monitor.displaced.next_due(track.timing.displaced_ms)
            {
                consider(t);
            }
            if track.presses.pending.is_none()
                && let Some(t) = track.monitor.extra.next_due(track.timing.displaced_ms)
            {
                consider(t);
            }
            if let Some(t) = track.monitor.unknown.next_due(track.timing.unexplained_ms) {
                consider(t);
            }
            // Not while a press is judged: its commit looks at the board again.
            if track.presses.pending.is_none()
                && let Some(t) = track.monitor.missing_recheck
            {
                consider(t);
            }
            if let Some(t) = self.stable_due(track) {
                consider(t);
            }
            // Not while a later press is judged: its reading may account for it.
            if let Some(press) = &track.presses.unexplained
                && !track.presses.judging_later()
            {
                consider(press.tell_at);
            }
        }
        for b in BoardId::BOTH {
            if let Some(t) = self.token_settle_due(b) {
                consider(t);
            }
        }
        for d in &self.drop_debts {
            consider(d.due);
        }
        if let Some(t) = self.own_flag_due() {
            consider(t);
        }
        next
    }

    fn advance_to(&mut self, t: Millis) {
        // Each round handles everything due at the earliest deadline; handlers always
        // clear or move their own deadline, and a guard bounds the loop regardless.
        for _ in 0..10_000 {
            match self.next_deadline() {
                Some(d) if d <= t => {
                    self.now = self.now.max(d);
                    self.fire_due();
                }
                _ => break,
            }
        }
    }

    fn fire_due(&mut self) {
        let now = self.now;
        for b in BoardId::BOTH {
            // The press due, then the one queued behind it if that is due too.
            for _ in 0..2 {
                self.promote_queued_press(b);
                let due_press = self.tracks[b]
                    .presses
                    .pending
                    .as_ref()
                    .map(|p| (p.decide_at.is_some_and(|d| d <= now), p.give_up_at <= now));
                match due_press {
                    Some((_, true)) => self.decide_press(b, true),
                    Some((true, false)) => self.decide_press(b, false),
                    _ => break,
                }
            }
            self.promote_queued_press(b);
            if self.stable_due(&self.tracks[b]).is_some_and(|d| d <= now) {
                self.decide_stable(b);
            }
            if self.token_settle_due(b).is_some_and(|d| d <= now) {
                self.settle_tokens(b);
            }
            self.tell_unexplained_press(b);
            self.fire_monitor_timers(b);
            self.recheck_missing(b);
        }
        self.fire_due_debts();
        self.fire_own_flags();
    }

    /// Board `b` as it stood before ply `index` of the record.
    fn board_before(&self, index: usize, b: BoardId) -> BoardState {
        let ByBoard { a, b: board_b } = ByBoard::from(self.game.boards_before(index));
        match b {
            BoardId::A => a,
            BoardId::B => board_b,
        }
    }

    /// The record index of a ply.
    #[must_use]
    pub fn ply_index(&self, ply: PlyRef) -> Option<usize> {
        self.game
            .record()
            .iter()
            .position(|p| p.board == ply.board && p.color == ply.color && p.number == ply.number)
    }

    /// The match has a result: the record is announced when this is first seen. An end
    /// the record no longer holds (the TD named a promoted piece that does not mate after
    /// all, or put a ply right) is withdrawn: its alert cleared, and the next end is
    /// announced again.
    fn check_result(&mut self) {
        if self.result_announced && !self.game.is_over() {
            self.result_announced = false;
            self.clear_where(|a| a.kind == AlertKind::GameEnd);
            return;
        }
        if self.result_announced {
            return;
        }
        if let Some(result) = self.game.result().cloned() {
            self.result_announced = true;
            let names = self.config.players.clone();
            let text = result.describe(&|s: Seat| names[s.index()].clone());
            let board = result.board().unwrap_or(BoardId::A);
            self.raise(board, AlertKind::GameEnd, None, text, Subject::None);
            self.outputs.push(Output::MatchEnded(result));
        }
    }

    fn raise(
        &mut self,
        b: BoardId,
        kind: AlertKind,
        square: Option<Square>,
        detail: String,
        subject: Subject,
    ) {
        let now = self.now;
        // After the end of the match (and the moment late presses may still arrive),
        // players put the pieces away: the board is no longer the TD's concern.
        let after_end = self
            .game
            .result()
            .and_then(|r| r.t_ms)
            .is_some_and(|end| now > end + crate::rules::game::LATE_PRESS_MS);
        let board_matter = matches!(
            kind,
            AlertKind::Displaced
                | AlertKind::Missing
                | AlertKind::Unexplained
                | AlertKind::Desync
                | AlertKind::NoMovePress
                | AlertKind::Flag
        );
        if after_end && board_matter {
            return;
        }
        if let Some(a) = self.alerts.raise(now, b, kind, square, detail, subject) {
            self.outputs.push(Output::AlertRaised(a.clone()));
        }
    }

    fn clear(&mut self, b: BoardId, kind: AlertKind, square: Option<Square>) {
        self.clear_where(|a| {
            a.board == b && a.kind == kind && (square.is_none() || a.square == square)
        });
    }

    /// Clears the open alerts `which` picks (the board resolved them), and says so.
    fn clear_where(&mut self, which: impl Fn(&Alert) -> bool) {
        let now = self.now;
        for id in self.alerts.clear_where(now, which) {
            self.outputs.push(Output::AlertCleared { id });
        }
    }
}

#[must_use]
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

#[must_use]
pub fn role_name(r: Role) -> &'static str {
    match r {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// An arbiter under `uscf-bughouse` after the TD entered `moves` by hand, one a
/// millisecond: for the unit tests of what is built on the arbiter's views.
#[cfg(test)]
pub(crate) fn after_moves(moves: &[(BoardId, &str)]) -> Arbiter {
    let mut arb = Arbiter::new(ArbiterConfig::new(RulesPreset::built_in("uscf-bughouse")));
    for (i, (board, mv)) in moves.iter().enumerate() {
        arb.handle(&Input::Td {
            t_ms: i as u64,
            action: TdAction::AddMove {
                board: *board,
                mv: (*mv).to_owned(),
            },
        });
    }
    arb
}
