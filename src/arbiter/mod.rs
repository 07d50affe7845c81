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
pub mod input;
pub mod journal;
pub mod track;
pub mod view;

use shakmaty::{Color, Move, Piece, Role, Square};

pub use alert::{Alert, AlertBook, AlertKind, AlertState, PlyRef, Subject};
pub use input::{BoardEvent, BoardEventKind, Input, Offence, TdAction};
use track::ClockReading;
pub use track::{LinkStatus, ResultSignal, Timing, Track};

use crate::dgt::{ClockSide, ClockTimes, Message};
use crate::rules::{
    BoardState, ClaimOutcome, IllegalReason, Legality, Match, MatchResult, Penalty, PlyMeta,
    RulesPreset, Seat,
};
use crate::sensing::{
    self, Anomaly, Candidate, Committed, Token, Verdict, explain, judge_press, judge_stable,
};
use crate::{BoardId, ByBoard, Millis};

/// How the arbiter is set up for a match.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ArbiterConfig {
    pub rules: RulesPreset,
    /// Players by seat: WhiteA, BlackA, WhiteB, BlackB.
    pub players: [String; 4],
    /// Per board; journaled as the list `[A, B]`.
    pub timing: ByBoard<Timing>,
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
}

/// A drop seen before the capture that supplies it: waiting for the partner board.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Debt {
    board: BoardId,
    color: Color,
    role: Role,
    ply: PlyRef,
    square: Square,
    due: Millis,
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
    cfg: ArbiterConfig,
    game: Match,
    boards: ByBoard<Track>,
    alerts: AlertBook,
    debts: Vec<Debt>,
    penalties: Vec<PenaltyRecord>,
    now: Millis,
    out: Vec<Output>,
    result_announced: bool,
    inputs: u64,
    /// Why the TD's last action could not be carried out (a move that does not parse or
    /// is not possible there), for the console to say so.
    td_refusal: Option<String>,
}

impl Arbiter {
    #[must_use]
    pub fn new(cfg: ArbiterConfig) -> Arbiter {
        let game = Match::new(cfg.rules.clone());
        let boards = ByBoard::new_with(|b| Track::new(b, cfg.timing[b]));
        Arbiter {
            cfg,
            game,
            boards,
            alerts: AlertBook::default(),
            debts: Vec::new(),
            penalties: Vec::new(),
            now: 0,
            out: Vec::new(),
            result_announced: false,
            inputs: 0,
            td_refusal: None,
        }
    }

    #[must_use]
    pub fn config(&self) -> &ArbiterConfig {
        &self.cfg
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
        &self.boards[board]
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
        &self.cfg.players[seat.index()]
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
        }
        self.fire_due();
        self.check_result();
        std::mem::take(&mut self.out)
    }

    /// Runs every deadline up to `t` (used at the end of a replay).
    pub fn finish_at(&mut self, t: Millis) -> Vec<Output> {
        let t = t.max(self.now);
        self.advance_to(t);
        self.now = t;
        self.fire_due();
        self.check_result();
        std::mem::take(&mut self.out)
    }

    /// The next time something falls due without any input.
    #[must_use]
    pub fn next_deadline(&self) -> Option<Millis> {
        let mut next: Option<Millis> = None;
        let mut consider = |t: Millis| next = Some(next.map_or(t, |n: Millis| n.min(t)));
        for track in &self.boards {
            if let Some(p) = &track.presses.pending {
                if let Some(d) = p.decide_at {
                    consider(d);
                }
                consider(p.give_up_at);
            }
            if let Some(t) = track.monitor.displaced.next_due(track.timing.displaced_ms) {
                consider(t);
            }
            if let Some(t) = track.monitor.unknown.next_due(track.timing.unexplained_ms) {
                consider(t);
            }
            if let Some(t) = self.stable_due(track) {
                consider(t);
            }
            if let Some(press) = &track.presses.unexplained {
                consider(press.tell_at);
            }
        }
        for d in &self.debts {
            consider(d.due);
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
            let due_press = self.boards[b]
                .presses
                .pending
                .as_ref()
                .map(|p| (p.decide_at.is_some_and(|d| d <= now), p.give_up_at <= now));
            match due_press {
                Some((_, true)) => self.decide_press(b, true),
                Some((true, false)) => self.decide_press(b, false),
                _ => {}
            }
            if self.stable_due(&self.boards[b]).is_some_and(|d| d <= now) {
                self.decide_stable(b);
            }
            if let Some(track::UnexplainedPress { by, tell_at, .. }) =
                self.boards[b].presses.unexplained
                && tell_at <= now
            {
                self.boards[b].presses.unexplained = None;
                self.raise(
                    b,
                    AlertKind::NoMovePress,
                    None,
                    format!(
                        "{} pressed the clock on board {b} without a move",
                        color_name(by)
                    ),
                    Subject::Seat(Seat::new(b, by)),
                );
            }
            self.fire_monitor_timers(b);
        }
        let due: Vec<Debt> = self
            .debts
            .iter()
            .filter(|d| d.due <= now)
            .cloned()
            .collect();
        self.debts.retain(|d| d.due > now);
        for d in due {
            self.raise(
                d.board,
                AlertKind::Unexplained,
                Some(d.square),
                format!(
                    "drop of a {} on {}: not in {}'s reserve, and nothing captured on board {} supplies it",
                    role_name(d.role),
                    d.square,
                    color_name(d.color),
                    d.board.other()
                ),
                Subject::Ply(d.ply),
            );
        }
    }

    // ----------------------------------------------------------------------------------
    // Board messages

    fn on_device(&mut self, ev: &BoardEvent) {
        let b = ev.board;
        if !self.game.board_ids().contains(&b) {
            return;
        }
        match &ev.kind {
            BoardEventKind::Connected {
                port,
                serial,
                version,
            } => {
                let track = &mut self.boards[b];
                let was_lost = track.link.lost_because.is_some();
                track.link.connected = true;
                track.link.port = Some(port.clone());
                track.link.serial.clone_from(serial);
                track.link.version = *version;
                track.link.lost_because = None;
                track.sensed.reconcile_next_dump = track.sensed.started;
                // Presses made while the board was away are not replayed: the fresh dump
                // shows their moves; the next clock message only tells who runs now.
                track.clock.running = None;
                if was_lost {
                    self.clear(b, AlertKind::Disconnected, None);
                }
            }
            BoardEventKind::Disconnected { reason } => {
                let track = &mut self.boards[b];
                let was_connected = track.link.connected || track.link.lost_because.is_none();
                track.link.connected = false;
                track.link.lost_because = Some(reason.clone());
                if was_connected {
                    track.link.losses += 1;
                    self.raise(
                        b,
                        AlertKind::Disconnected,
                        None,
                        format!("board {b} lost: {reason}"),
                        Subject::None,
                    );
                }
            }
            BoardEventKind::Message(msg) => self.on_message(b, msg),
        }
    }

    fn on_message(&mut self, b: BoardId, msg: &Message) {
        match msg {
            Message::BoardDump(fields) => {
                let track = &mut self.boards[b];
                track.sensed.raw = *fields;
                track.sensed.have_raw = true;
                self.on_raw_changed(b, true);
            }
            Message::FieldUpdate { field, code } => {
                let track = &mut self.boards[b];
                if *field > 63 {
                    return;
                }
                track.sensed.raw.set(*field, *code);
                self.on_raw_changed(b, false);
            }
            Message::Clock(times) => self.on_clock(b, times),
            _ => {}
        }
    }

    fn on_raw_changed(&mut self, b: BoardId, is_dump: bool) {
        let now = self.now;
        let track = &mut self.boards[b];
        if !track.sensed.started {
            if track.sensed.try_start()
                && let Some(o) = track.sensed.orientation
            {
                track.sensed.cells = track::SensedBoard::cells_from_raw(&track.sensed.raw, o);
                track.sensed.history.clear();
                track.sensed.push_snapshot(now);
            }
            return;
        }
        let Some(o) = track.sensed.orientation else {
            return;
        };
        let cells = track::SensedBoard::cells_from_raw(&track.sensed.raw, o);
        if cells == track.sensed.cells && !(is_dump && track.sensed.reconcile_next_dump) {
            return;
        }
        for sq in shakmaty::Square::ALL {
            if cells.get(sq) != track.sensed.cells.get(sq) {
                track.sensed.changed_at[sq.to_usize()] = now;
            }
        }
        track.sensed.cells = cells;
        track.sensed.push_snapshot(now);
        track.presses.stable_judged = None;
        if is_dump && track.sensed.reconcile_next_dump {
            track.sensed.reconcile_next_dump = false;
            self.reconcile_after_reconnect(b);
        }
        if self.boards[b]
            .presses
            .pending
            .as_ref()
            .is_some_and(|p| p.decide_at.is_none())
        {
            self.decide_press(b, false);
        }
        self.monitor(b);
    }

    fn on_clock(&mut self, b: BoardId, times: &ClockTimes) {
        let now = self.now;
        let track = &mut self.boards[b];
        if times.no_clock {
            track.clock.present = false;
            track.clock.reading = Some(ClockReading {
                at: now,
                times: *times,
            });
            return;
        }
        track.clock.present = true;
        let previous = track.clock.running;
        let previous_times = track.clock.reading.map(|r| r.times);
        track.clock.reading = Some(ClockReading {
            at: now,
            times: *times,
        });
        track.clock.running = times.running;
        if track.clock.white_side.is_none()
            && let Some(side) = times.running
        {
            // The first side to run is White's (bughouse: Black starts White's clock).
            track.clock.white_side = Some(side);
        }
        self.check_flags(b, times);
        match (previous, times.running) {
            (Some(a), Some(c)) if a != c => {
                if let Some(by) = self.boards[b].clock.color_of(a) {
                    let clock_ms = Some(u64::from(times.side(a).seconds) * 1000);
                    self.on_press(b, by, clock_ms, 0);
                }
            }
            (Some(a), Some(c)) if a == c => {
                // The same side runs as at the last poll, yet the other side's time changed:
                // it ran in between, so both players pressed between two polls. The last
                // press was by the other side.
                let other = a.other();
                let changed = previous_times
                    .is_some_and(|p| p.side(other).seconds != times.side(other).seconds);
                if changed && let Some(by) = self.boards[b].clock.color_of(other) {
                    let clock_ms = Some(u64::from(times.side(other).seconds) * 1000);
                    self.on_press(b, by, clock_ms, 1);
                }
            }
            _ => {}
        }
    }

    fn check_flags(&mut self, b: BoardId, times: &ClockTimes) {
        if self.game.is_over() || !self.boards[b].sensed.started {
            return;
        }
        for side in [ClockSide::Left, ClockSide::Right] {
            let reading = times.side(side);
            let fallen = reading.flag() || (reading.seconds == 0 && times.running == Some(side));
            if !fallen {
                continue;
            }
            let Some(color) = self.boards[b].clock.color_of(side) else {
                continue;
            };
            if self.boards[b].clock.flag_reported[color] {
                continue;
            }
            self.boards[b].clock.flag_reported[color] = true;
            let seat = Seat::new(b, color);
            self.raise(
                b,
                AlertKind::Flag,
                None,
                format!(
                    "{} ({}) flag fell on board {b}",
                    self.player(seat),
                    color_name(color)
                ),
                Subject::Seat(seat),
            );
        }
    }

    fn on_press(&mut self, b: BoardId, by: Color, clock_ms: Option<u64>, missed: u8) {
        let now = self.now;
        // A press judged earlier is decided now with what is known.
        if self.boards[b].presses.pending.is_some() {
            self.decide_press(b, true);
        }
        let track = &mut self.boards[b];
        if !track.sensed.started {
            return;
        }
        // A move committed a moment ago on stability, confirmed by its press.
        if let Some(stable) = track.presses.last_stable_commit.take()
            && stable.mover == by
            && now.saturating_sub(stable.t_ms) <= track.timing.max_wait_ms
        {
            return;
        }
        track.presses.pending = Some(track::PendingPress {
            by,
            t_msg: now,
            clock_ms,
            decide_at: Some(now + track.timing.settle_ms),
            give_up_at: now + track.timing.settle_ms + track.timing.max_wait_ms,
            missed,
        });
    }

    // ----------------------------------------------------------------------------------
    // Judging presses

    fn committed<'a>(&'a self, b: BoardId) -> Committed<'a> {
        let track = &self.boards[b];
        Committed {
            state: self.game.board(b),
            rules: self.game.rules(),
            tokens: &track.appearance.tokens,
            allowances: &track.appearance.allowances,
            scan_ms: track.timing.scan_ms,
        }
    }

    fn decide_press(&mut self, b: BoardId, final_call: bool) {
        let Some(pending) = self.boards[b].presses.pending.clone() else {
            return;
        };
        if self.game.declared().is_some() || self.boards[b].sensed.result_signal.is_some() {
            self.boards[b].presses.pending = None;
            return;
        }
        let now = self.now;
        self.settle_tokens(b);
        let history: Vec<sensing::Snapshot> = self.boards[b]
            .sensed
            .history
            .iter()
            .filter(|s| s.t_ms <= now)
            .copied()
            .collect();
        let mut by = pending.by;
        let deep = pending.missed > 0;
        let mut verdict = judge_press(&self.committed(b), by, &history, deep);
        // The first press of a board also calibrates the clock: if only the other colour
        // moved, the clock sides were the other way round.
        if self.game.plies_on(b) == 0
            && matches!(verdict, Verdict::Nothing { .. })
            && let alt @ Verdict::Commit { .. } =
                judge_press(&self.committed(b), !by, &history, false)
        {
            let track = &mut self.boards[b];
            track.clock.white_side = track.clock.white_side.map(ClockSide::other);
            by = !by;
            verdict = alt;
        }
        // Only an illegal reading for this press? Read it again together with the ply it
        // answers: a fully legal pair that explains both moments as well corrects that ply.
        if let Some(v) = self.hindsight(b, by, &history, &verdict) {
            verdict = v;
        }
        match verdict {
            Verdict::Commit {
                candidate,
                snapshot,
                ..
            } => {
                self.boards[b].presses.pending = None;
                // Plies before the presser's last one had no press of their own seen; their
                // press messages may still come, late and bunched.
                let owed_until = now + self.boards[b].timing.max_wait_ms;
                let mut color = self.game.board(b).turn();
                for _ in 1..candidate.plies.len() {
                    self.boards[b].presses.owed.push(track::OwedPress {
                        color,
                        until: owed_until,
                    });
                    color = !color;
                }
                let cells = history
                    .get(snapshot)
                    .map_or(self.boards[b].sensed.cells, |s| s.cells);
                let t_msg = pending.t_msg;
                self.commit(b, &candidate, &cells, t_msg, pending.clock_ms, final_call);
            }
            Verdict::Ambiguous { tied, .. } if hidden_only(&self.boards[b], &tied) => {
                self.boards[b].presses.pending = None;
                self.commit_hidden_guess(b, &tied, pending.t_msg, pending.clock_ms);
            }
            Verdict::Ambiguous { tied, residual } => {
                if final_call {
                    self.boards[b].presses.pending = None;
                    let squares: Vec<String> = squares_of(&residual);
                    let options: Vec<String> = tied
                        .iter()
                        .filter_map(|c| c.plies.last())
                        .map(|m| {
                            crate::rules::san::move_text(
                                self.game.board(b),
                                self.game.rules(),
                                *m,
                                &Legality::Legal,
                            )
                        })
                        .collect();
                    self.raise(
                        b,
                        AlertKind::Desync,
                        None,
                        format!(
                            "{} pressed but the board fits several moves ({}); squares: {}",
                            color_name(by),
                            options.join(", "),
                            squares.join(" ")
                        ),
                        Subject::None,
                    );
                } else if let Some(p) = &mut self.boards[b].presses.pending {
                    p.decide_at = None;
                }
            }
            Verdict::Nothing { baseline } => {
                let moved = baseline_shows_color(&baseline, by);
                // The press of a ply already recorded (taken with an earlier press while the
                // clock's messages were late): it is accounted for.
                let track = &mut self.boards[b];
                track.presses.owed.retain(|owed| owed.until >= now);
                if !moved && let Some(i) = track.presses.owed.iter().position(|o| o.color == by) {
                    track.presses.owed.remove(i);
                    track.presses.pending = None;
                    return;
                }
                if !moved || final_call {
                    self.boards[b].presses.pending = None;
                    self.report_nothing(b, by, &baseline, moved);
                } else if let Some(p) = &mut self.boards[b].presses.pending {
                    p.decide_at = None;
                }
            }
        }
    }

    /// Reads the last ply on `b` again together with this press. Returns the verdict for
    /// this press's ply after correcting the last one, when that is the better reading.
    fn hindsight(
        &mut self,
        b: BoardId,
        by: Color,
        history: &[sensing::Snapshot],
        verdict: &Verdict,
    ) -> Option<Verdict> {
        let Verdict::Commit {
            candidate,
            residual,
            ..
        } = verdict
        else {
            return None;
        };
        if candidate.irregular == 0 || candidate.plies.len() != 1 {
            return None;
        }
        let before = self.boards[b].presses.before_last.clone()?;
        let index = self.ply_index(before.ply)?;
        let last_on_board = self.game.record().iter().rposition(|p| p.board == b)?;
        if index != last_on_board || before.ply.color == by {
            return None;
        }
        let state = self.board_before(index, b);
        let mut window = before.window.clone();
        let tail = window.last().map_or(0, |s| s.t_ms);
        window.extend(history.iter().filter(|s| s.t_ms > tail).copied());
        let committed = Committed {
            state: &state,
            rules: self.game.rules(),
            tokens: &before.appearance.tokens,
            allowances: &before.appearance.allowances,
            scan_ms: self.boards[b].timing.scan_ms,
        };
        let Verdict::Commit {
            candidate: pair,
            residual: pr,
            snapshot,
        } = judge_press(&committed, by, &window, false)
        else {
            return None;
        };
        if pair.plies.len() != 2 || pair.irregular > 0 || pr.cost > residual.cost {
            return None;
        }
        let first = pair.plies[0];
        if self.game.replace_move(index, first).is_err() {
            return None;
        }
        self.out.push(Output::RecordChanged);
        let second = Candidate {
            plies: vec![pair.plies[1]],
            expect: pair.expect,
            tokens: pair.tokens.clone(),
            allowances: pair.allowances.clone(),
            irregular: 0,
            off_pattern: false,
            hidden_landing: pair.hidden_landing,
        };
        // The deciding moment, as an index into this press's own history.
        let decided_at = window.get(snapshot).map_or(0, |s| s.t_ms);
        let snapshot = history
            .iter()
            .position(|s| s.t_ms >= decided_at)
            .unwrap_or(history.len().saturating_sub(1));
        Some(Verdict::Commit {
            candidate: second,
            residual: pr,
            snapshot,
        })
    }

    fn report_nothing(&mut self, b: BoardId, by: Color, baseline: &sensing::Residual, moved: bool) {
        if !moved {
            // Told only if nothing accounts for it a little later: a move taken by a fast
            // reply before the board showed it is found when the reply's press is judged.
            let now = self.now;
            let track = &mut self.boards[b];
            track.presses.unexplained = Some(track::UnexplainedPress {
                by,
                t_msg: now,
                tell_at: now + track.timing.max_wait_ms,
            });
            return;
        }
        // Only pieces of the presser standing where the record has nothing (a piece from
        // nowhere in single-board chess, where it cannot be a drop): each is unexplained.
        let extras: Vec<(Square, sensing::Cell)> = baseline
            .anomalies
            .iter()
            .filter_map(|a| match *a {
                Anomaly::Unexplained { square, found }
                    if found.to_piece().is_some_and(|p| p.color == by) =>
                {
                    Some((square, found))
                }
                _ => None,
            })
            .collect();
        if baseline.in_progress.is_empty()
            && !extras.is_empty()
            && extras.len() == baseline.anomalies.len()
        {
            for (square, found) in extras {
                self.raise_unexplained(b, square, found);
            }
            return;
        }
        let squares = squares_of(baseline);
        self.raise(
            b,
            AlertKind::Desync,
            None,
            format!(
                "{} pressed but no move explains the board; squares that differ: {}",
                color_name(by),
                squares.join(" ")
            ),
            Subject::None,
        );
    }

    /// What stands on `square` (as the sensors see it) that no move explains.
    fn raise_unexplained(&mut self, b: BoardId, square: Square, found: sensing::Cell) {
        let what = found.to_piece().map_or_else(
            || "piece".to_owned(),
            |p| format!("{} {}", color_name(p.color), role_name(p.role)),
        );
        self.raise(
            b,
            AlertKind::Unexplained,
            Some(square),
            format!("{what} on {square} that no move explains"),
            Subject::None,
        );
    }

    fn raise_missing_piece(&mut self, b: BoardId, square: Square, piece: Piece) {
        self.raise(
            b,
            AlertKind::Missing,
            Some(square),
            format!(
                "{} {} missing from {square} (no move explains it; hidden?)",
                color_name(piece.color),
                role_name(piece.role)
            ),
            Subject::None,
        );
    }

    fn stable_due(&self, track: &Track) -> Option<Millis> {
        if track.clock.present || !track.sensed.started || track.presses.pending.is_some() {
            return None;
        }
        if track.presses.stable_judged == Some(track.sensed.last_change) {
            return None;
        }
        let base = track.sensed.history.first()?;
        if base.cells == track.sensed.cells {
            return None;
        }
        Some(track.sensed.last_change + track.timing.stable_ms)
    }

    fn decide_stable(&mut self, b: BoardId) {
        let now = self.now;
        let track = &self.boards[b];
        let last_change = track.sensed.last_change;
        let cells = track.sensed.cells;
        let found = judge_stable(&self.committed(b), &cells);
        self.boards[b].presses.stable_judged = Some(last_change);
        if let Some(candidate) = found {
            let mover = candidate_mover(self.game.board(b), &candidate);
            self.commit(b, &candidate, &cells, now, None, false);
            self.boards[b].presses.last_stable_commit =
                Some(track::StableCommit { t_ms: now, mover });
        }
    }

    /// Plays the candidate's plies into the record, updates tokens, raises the alerts the
    /// plies call for, and settles cross-board drops.
    fn commit(
        &mut self,
        b: BoardId,
        cand: &Candidate,
        cells: &sensing::Cells,
        t_msg: Millis,
        clock_ms: Option<u64>,
        forced: bool,
    ) {
        let n = cand.plies.len();
        // What was known before this ply, for reading it again in hindsight (single plies
        // judged at a press only).
        let track = &self.boards[b];
        let before_last = (n == 1).then(|| track::BeforeLastPly {
            ply: PlyRef {
                board: b,
                color: self.game.board(b).turn(),
                number: self.game.board(b).fullmoves(),
            },
            appearance: track.appearance.clone(),
            window: track.sensed.history.clone(),
        });
        self.boards[b].presses.before_last = before_last;
        // A press that showed no move is accounted for by the moves recorded now.
        self.boards[b].presses.unexplained = None;
        let mut refs = Vec::with_capacity(n);
        let mut promotions_to_confirm: Vec<(PlyRef, Square)> = Vec::new();
        for (i, &planned) in cand.plies.iter().enumerate() {
            let mover = self.game.board(b).turn();
            let (mv, confirm) = settle_promotion(planned, cells, mover);
            let last = i + 1 == n;
            let meta = PlyMeta {
                t_ms: Some(t_msg),
                clock_ms: if last { clock_ms } else { None },
                comment: None,
            };
            let number = self.game.board(b).fullmoves();
            let index = match self.game.play(b, mv, meta) {
                Ok(i) => i,
                Err(_) => return,
            };
            let ply = PlyRef {
                board: b,
                color: mover,
                number,
            };
            refs.push(ply);
            self.out.push(Output::Committed { ply });
            if confirm && let Move::Normal { to, .. } = mv {
                promotions_to_confirm.push((ply, to));
            }
            self.after_ply(b, index, ply);
        }
        // Tokens: the candidate's, with promotions settled from what the sensors show.
        let track = &mut self.boards[b];
        track.appearance.tokens = cand.tokens.clone();
        let unsettled: Vec<Square> = track
            .appearance
            .tokens
            .iter()
            .filter(|(_, t)| *t == Token::Unsettled)
            .map(|(s, _)| s)
            .collect();
        // A spare piece names itself at once; a pawn, upright or laid on its side, is told
        // apart by what the board keeps showing (see `settle_tokens`).
        for sq in unsettled {
            if let Token::Piece(r) = Token::settle(cells.get(sq)) {
                track.appearance.tokens.set(sq, Token::Piece(r));
            }
        }
        track
            .appearance
            .tokens
            .retain(self.game.board(b).promoted());
        track.appearance.allowances.clone_from(&cand.allowances);
        // The next press is judged from the snapshot that decided this one onwards.
        let decisive = track
            .sensed
            .history
            .iter()
            .rposition(|s| s.cells == *cells)
            .unwrap_or(track.sensed.history.len().saturating_sub(1));
        track.sensed.restart_history(decisive);
        for (ply, sq) in promotions_to_confirm {
            let token = self.boards[b].appearance.tokens.get(sq);
            let how = match token {
                Some(Token::Hidden) => "a pawn laid on its side",
                Some(Token::Pawn) => "a pawn",
                _ => "a pawn, upright or on its side",
            };
            self.raise(
                b,
                AlertKind::Promotion,
                Some(sq),
                format!("promoted pawn on {b}:{sq} ({how}) recorded as a queen: which piece?"),
                Subject::Ply(ply),
            );
        }
        self.after_commit_checks(b, forced, t_msg);
        let _ = refs;
    }

    /// Alerts and cross-board bookkeeping for one new ply at `index`.
    fn after_ply(&mut self, b: BoardId, index: usize, ply: PlyRef) {
        let Some(p) = self.game.record().get(index).cloned() else {
            return;
        };
        match &p.legality {
            Legality::Illegal(IllegalReason::NotInReserve) => {
                if let Move::Put { role, to } = p.mv {
                    let due = self.now + self.boards[b].timing.drop_grace_ms;
                    self.debts.push(Debt {
                        board: b,
                        color: p.color,
                        role,
                        ply,
                        square: to,
                        due,
                    });
                }
            }
            Legality::Illegal(reason) => {
                let seat = p.seat();
                self.raise(
                    b,
                    AlertKind::IllegalMove,
                    Some(p.mv.to()),
                    format!(
                        "{} {}{} by {} ({}): {}",
                        p.number,
                        if p.color.is_white() { "" } else { "... " },
                        p.san,
                        self.player(seat),
                        color_name(p.color),
                        reason.describe()
                    ),
                    Subject::Ply(ply),
                );
            }
            _ => {}
        }
        // A capture that feeds a drop seen earlier on the partner board: the capture came
        // first in reality, so it moves before the drop in the record.
        let supplied = if p.removed_pawn {
            Some((p.color, Role::Pawn))
        } else {
            p.passed.map(|r| (!p.color, r))
        };
        if let Some((color, role)) = supplied
            && let Some(pos) = self
                .debts
                .iter()
                .position(|d| d.board == b.other() && d.color == color && d.role == role)
        {
            let debt = self.debts.remove(pos);
            if let Some(drop_index) = self.ply_index(debt.ply)
                && drop_index < index
                && self.game.reorder(index, drop_index).is_ok()
            {
                self.out.push(Output::RecordChanged);
            }
        }
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

    /// A hidden promoted piece could have gone to several squares: record the first,
    /// tentatively, and ask the TD.
    fn commit_hidden_guess(
        &mut self,
        b: BoardId,
        tied: &[Candidate],
        t_msg: Millis,
        clock_ms: Option<u64>,
    ) {
        let Some(first) = tied.first() else {
            return;
        };
        let options: Vec<Square> = tied
            .iter()
            .filter_map(|c| c.plies.last())
            .map(|m| m.to())
            .collect();
        let listed: Vec<String> = options.iter().map(Square::to_string).collect();
        let from = first.plies.last().and_then(|m| m.from());
        let mover = self.game.board(b).turn();
        let number = self.game.board(b).fullmoves();
        let cells = self.boards[b].sensed.cells;
        self.commit(b, first, &cells, t_msg, clock_ms, false);
        let ply = PlyRef {
            board: b,
            color: mover,
            number,
        };
        self.raise(
            b,
            AlertKind::Promotion,
            from,
            format!(
                "{} pressed with no visible change: the promoted piece on {} (pawn on its side) may have moved to {}; recorded {} for now",
                color_name(mover),
                from.map_or_else(|| "?".to_owned(), |s| s.to_string()),
                listed.join(", "),
                listed.first().cloned().unwrap_or_default()
            ),
            Subject::HiddenMove { ply, options },
        );
    }

    /// After a reconnection: the fresh dump against the record. One or two plies made
    /// while the board was away are taken as moves; anything else is a desync.
    fn reconcile_after_reconnect(&mut self, b: BoardId) {
        let cells = self.boards[b].sensed.cells;
        let expect = self.committed(b).expect();
        let diff = expect.differences(&cells);
        if diff.is_empty() {
            self.clear(b, AlertKind::Desync, None);
            return;
        }
        if let Some(candidate) = judge_stable(&self.committed(b), &cells) {
            let now = self.now;
            self.commit(b, &candidate, &cells, now, None, false);
            return;
        }
        let squares: Vec<String> = diff.into_iter().map(|s| s.to_string()).collect();
        self.raise(
            b,
            AlertKind::Desync,
            None,
            format!(
                "board {b} back, but it differs from the record on {}",
                squares.join(" ")
            ),
            Subject::None,
        );
    }

    // ----------------------------------------------------------------------------------
    // The monitor: anomalies between presses

    fn mover_since_last_commit(&self, b: BoardId) -> Color {
        // The side that moved last (before the first move: Black, whose pieces stand still).
        !self.game.board(b).turn()
    }

    fn monitor(&mut self, b: BoardId) {
        let now = self.now;
        if !self.boards[b].sensed.started {
            return;
        }
        // The players' result signal: not a position, not an anomaly; the TD decides.
        let signal = track::ResultSignal::read(&self.boards[b].sensed.cells);
        let track = &mut self.boards[b];
        if signal != track.sensed.result_signal {
            track.sensed.result_signal = signal;
            if signal.is_some() {
                self.out.push(Output::ResultSignal { board: b, signal });
            }
        }
        if signal.is_some() {
            let track = &mut self.boards[b];
            track.monitor.displaced.clear();
            track.monitor.unknown.clear();
            track.presses.pending = None;
            return;
        }
        let mover = self.mover_since_last_commit(b);
        self.settle_tokens(b);
        let expect = self.committed(b).expect();
        let cells = self.boards[b].sensed.cells;
        let residual = explain(&expect, &cells, mover);
        let pressed = self.boards[b].presses.pending.is_some();
        // Displaced pieces of the side that just moved (not while its press is judged).
        // When the opponent also shows a complete move and the "displaced" piece went where
        // it could move, both players pressed between two polls of the clock: those are
        // moves, judged at the next press, not a knock.
        let board = sensing::explain::expected_board(&expect);
        let opponent_moved = residual.in_progress.count() >= 2;
        let displaced_now: Vec<Anomaly> = residual
            .anomalies
            .iter()
            .copied()
            .filter(|a| match *a {
                Anomaly::Displaced { piece, from, to } => {
                    piece.color == mover
                        && !pressed
                        && !(opponent_moved
                            && sensing::explain::can_reach(
                                &board,
                                from,
                                piece,
                                to,
                                board.piece_at(to).is_some(),
                            ))
                }
                _ => false,
            })
            .collect();
        let track = &mut self.boards[b];
        let gone = track.monitor.displaced.update(&displaced_now, now);
        // Tokens the board cannot name.
        let unknown_now: Vec<Square> = residual
            .anomalies
            .iter()
            .filter_map(|a| match a {
                Anomaly::Unexplained { square, found } if found.is_unknown() => Some(*square),
                _ => None,
            })
            .collect();
        let unknown_gone = track.monitor.unknown.update(&unknown_now, now);
        for a in gone {
            self.clear(b, AlertKind::Displaced, Some(a.square()));
        }
        for s in unknown_gone {
            self.clear(b, AlertKind::Unexplained, Some(s));
        }
        // Pieces back where they belong clear their missing/unexplained alerts; a board
        // that matches the record clears a desync.
        let diff = expect.differences(&cells);
        let open: Vec<(AlertKind, Option<Square>)> = self
            .alerts
            .open()
            .filter(|a| {
                a.board == b
                    && matches!(
                        a.kind,
                        AlertKind::Missing | AlertKind::Unexplained | AlertKind::Desync
                    )
            })
            .filter(|a| !matches!(a.subject, Subject::Ply(_)))
            .map(|a| (a.kind, a.square))
            .collect();
        for (kind, square) in open {
            let resolved = match (kind, square) {
                (AlertKind::Desync, _) => diff.is_empty(),
                (_, Some(sq)) => !diff.contains(sq),
                _ => false,
            };
            if resolved {
                self.clear(b, kind, square);
            }
        }
    }

    /// Settles the tokens of promoted pieces from what the board keeps showing: a spare
    /// piece at once; a pawn standing steadily for a full scan is an upright pawn; a square
    /// empty for two scans while its owner is not on move (so not lifting it to move) holds
    /// a pawn laid on its side. (A laid-down pawn now and then reads as a pawn for a scan,
    /// so one reading settles nothing.)
    fn settle_tokens(&mut self, b: BoardId) {
        let state = self.game.board(b);
        let turn = state.turn();
        let board = state.board().clone();
        let now = self.now;
        let track = &mut self.boards[b];
        let scan = track.timing.scan_ms;
        let unsettled: Vec<Square> = track
            .appearance
            .tokens
            .iter()
            .filter(|(_, t)| *t == Token::Unsettled)
            .map(|(s, _)| s)
            .collect();
        for sq in unsettled {
            let Some(owner) = board.piece_at(sq).map(|p| p.color) else {
                continue;
            };
            let seen = track.sensed.cells.get(sq);
            let steady = now.saturating_sub(track.sensed.changed_at[sq.to_usize()]);
            let token = match seen.to_piece() {
                Some(p) if p.color == owner && p.role != Role::Pawn => Some(Token::Piece(p.role)),
                Some(p) if p.color == owner && steady >= scan => Some(Token::Pawn),
                None if seen.is_empty() && owner != turn && steady >= 2 * scan => {
                    Some(Token::Hidden)
                }
                _ => None,
            };
            if let Some(t) = token {
                track.appearance.tokens.set(sq, t);
            }
        }
    }

    fn fire_monitor_timers(&mut self, b: BoardId) {
        let now = self.now;
        let timing = self.boards[b].timing;
        let track = &mut self.boards[b];
        let due = track.monitor.displaced.take_due(timing.displaced_ms, now);
        for a in due {
            if let Anomaly::Displaced { piece, from, to } = a {
                self.raise(
                    b,
                    AlertKind::Displaced,
                    Some(from),
                    format!(
                        "{} {} belongs on {from}, stands on {to}",
                        color_name(piece.color),
                        role_name(piece.role)
                    ),
                    Subject::Seat(Seat::new(b, piece.color)),
                );
            }
        }
        let due = self.boards[b]
            .monitor
            .unknown
            .take_due(timing.unexplained_ms, now);
        for s in due {
            self.raise(
                b,
                AlertKind::Unexplained,
                Some(s),
                format!("a piece the board cannot name stands on {s}"),
                Subject::None,
            );
        }
    }

    /// At a commit: pieces missing (or unexplained pieces standing) at this press and the
    /// one before, unexplained by the moves between, are reported.
    /// After a commit by the side that just moved: its own pieces gone (beyond a victim
    /// the opponent may be lifting) or standing where nothing explains them. Reported at
    /// once when the board is otherwise quiet; when the opponent is already moving (or has
    /// pressed, `forced`), the mover may be holding a piece for the next move, so only what
    /// is still wrong at the mover's next commit is reported.
    fn after_commit_checks(&mut self, b: BoardId, forced: bool, t_msg: Millis) {
        let mover = self.mover_since_last_commit(b);
        let expect = self.committed(b).expect();
        let cells = self.boards[b].sensed.cells;
        let residual = explain(&expect, &cells, mover);
        let quiet = !forced && residual.in_progress.is_empty();
        // The opponent's pieces gone since well before this press (more than a clock
        // latency before its message): not lifted for the opponent's next move, which
        // only began with this press, and no move of this press took them.
        let track = &self.boards[b];
        let long_ago = t_msg.saturating_sub(
            track
                .timing
                .max_wait_ms
                .saturating_sub(track.timing.scan_ms),
        );
        let gone_before: Vec<(Square, Piece)> = expect
            .differences(&cells)
            .into_iter()
            .filter(|&sq| cells.get(sq).is_empty() && !expect.allows_empty(sq))
            .filter_map(|sq| expect.logical(sq).map(|p| (sq, p)))
            .filter(|(sq, p)| p.color != mover && track.sensed.changed_at[sq.to_usize()] < long_ago)
            // A piece of that kind standing where the record has none is this piece moved
            // or displaced (its own alert), not a piece gone.
            .filter(|(_, p)| {
                !Square::ALL.iter().any(|&t| {
                    cells.get(t) == sensing::Cell::piece(*p) && !expect.allows(t, cells.get(t))
                })
            })
            .collect();
        // Likewise the opponent's pieces standing since well before this press where the
        // record has none (unless the same kind is gone elsewhere: displaced).
        let extra_before: Vec<(Square, Piece)> = expect
            .differences(&cells)
            .into_iter()
            .filter_map(|sq| cells.get(sq).to_piece().map(|p| (sq, p)))
            .filter(|(sq, p)| {
                p.color != mover
                    && expect.allows_empty(*sq)
                    && track.sensed.changed_at[sq.to_usize()] < long_ago
            })
            .filter(|(_, p)| {
                !Square::ALL
                    .iter()
                    .any(|&t| expect.logical(t) == Some(*p) && cells.get(t).is_empty())
            })
            .collect();
        for (square, piece) in extra_before {
            self.raise_unexplained(b, square, sensing::Cell::piece(piece));
        }
        for (square, piece) in gone_before {
            self.raise_missing_piece(b, square, piece);
        }
        let mut missing: Vec<(track::MissingAtCommit, Piece)> = Vec::new();
        let mut extra: Vec<track::ExtraAtCommit> = Vec::new();
        for a in &residual.anomalies {
            match *a {
                Anomaly::Missing { piece, square } if piece.color == mover => {
                    let expected = expect.mask(square);
                    missing.push((track::MissingAtCommit { square, expected }, piece));
                }
                Anomaly::Unexplained { square, found } if found.color() == Some(mover) => {
                    extra.push(track::ExtraAtCommit { square, found });
                }
                _ => {}
            }
        }
        let now = self.now;
        let track = &mut self.boards[b];
        // At once only what has stood for a full scan: a knocked or moved piece is two
        // reports up to a scan apart, and its first half alone looks like a gone or extra
        // piece.
        let scan = track.timing.scan_ms;
        let sensed = &track.sensed;
        let settled = |sq: Square| sensed.steady_for(sq, now) >= scan;
        let monitor = &mut track.monitor;
        let report_missing: Vec<(Square, Piece)> = missing
            .iter()
            .filter(|(m, _)| {
                (quiet && settled(m.square)) || monitor.missing_at_commit[mover].contains(m)
            })
            .map(|(m, p)| (m.square, *p))
            .collect();
        let report_extra: Vec<track::ExtraAtCommit> = extra
            .iter()
            .copied()
            .filter(|e| (quiet && settled(e.square)) || monitor.extra_at_commit[mover].contains(e))
            .collect();
        monitor.missing_at_commit[mover] = missing.iter().map(|(m, _)| *m).collect();
        monitor.extra_at_commit[mover] = extra;
        for (square, piece) in report_missing {
            self.raise_missing_piece(b, square, piece);
        }
        for e in report_extra {
            self.raise_unexplained(b, e.square, e.found);
        }
        self.monitor(b);
    }

    // ----------------------------------------------------------------------------------
    // TD actions

    fn on_td(&mut self, action: &TdAction) {
        let now = self.now;
        self.td_refusal = None;
        // A TD edit of the record: no reading again in hindsight over it.
        if matches!(
            action,
            TdAction::CorrectMove { .. }
                | TdAction::TakeBack { .. }
                | TdAction::AddMove { .. }
                | TdAction::ClaimIllegal { .. }
        ) {
            for t in &mut self.boards {
                t.presses.before_last = None;
            }
        }
        match action {
            TdAction::Dismiss { alert } => {
                self.alerts.resolve(*alert, now, "dismissed");
            }
            TdAction::LetStand { alert } => {
                if let Some(Subject::Ply(ply)) = self.alerts.get(*alert).map(|a| a.subject.clone())
                    && let Some(i) = self.ply_index(ply)
                {
                    let _ = self.game.set_comment(
                        i,
                        Some("TD: illegal move stands (not claimed in time)".into()),
                    );
                }
                self.alerts.resolve(*alert, now, "the move stands");
            }
            TdAction::SetPromotion { ply, role } => {
                let role = *role;
                if matches!(role, Role::King | Role::Pawn) {
                    return;
                }
                if let Some(i) = self.ply_index(*ply)
                    && let Some(p) = self.game.record().get(i)
                    && let Move::Normal {
                        role: r,
                        from,
                        capture,
                        to,
                        promotion: Some(_),
                    } = p.mv
                {
                    let mv = Move::Normal {
                        role: r,
                        from,
                        capture,
                        to,
                        promotion: Some(role),
                    };
                    if self.game.replace_move(i, mv).is_ok() {
                        self.out.push(Output::RecordChanged);
                        self.alerts.resolve_about_ply(
                            *ply,
                            now,
                            &format!("promoted to {}", role_name(role)),
                        );
                    }
                }
            }
            TdAction::ChooseHiddenMove { ply, to } => {
                let to = *to;
                if let Some(i) = self.ply_index(*ply)
                    && let Some(old) = self.game.record().get(i).map(|p| p.mv)
                    && let Some(from) = old.from()
                {
                    let state = &self.board_before(i, ply.board);
                    let mv = state
                        .legal_moves(self.game.rules())
                        .into_iter()
                        .find(|m| m.from() == Some(from) && m.to() == to);
                    if let Some(mv) = mv
                        && self.game.replace_move(i, mv).is_ok()
                    {
                        let track = &mut self.boards[ply.board];
                        if let Some(t) = track.appearance.tokens.remove(old.to()) {
                            track.appearance.tokens.set(to, t);
                        }
                        self.out.push(Output::RecordChanged);
                        self.alerts
                            .resolve_about_ply(*ply, now, &format!("went to {to}"));
                    }
                }
            }
            TdAction::ClaimIllegal { ply } => {
                if let Some(i) = self.ply_index(*ply)
                    && let Ok(outcome) = self.game.claim_illegal(i, Some(now))
                {
                    self.out.push(Output::RecordChanged);
                    let how = match outcome {
                        ClaimOutcome::Ended(_) => "claimed: the game is lost",
                        ClaimOutcome::TakenBack(_) => "claimed: the move is taken back",
                    };
                    self.alerts.resolve_about_ply(*ply, now, how);
                    if let ClaimOutcome::TakenBack(_) = outcome {
                        self.resync_tokens(ply.board);
                    }
                }
            }
            TdAction::CorrectMove { ply, mv } => {
                if let Some(i) = self.ply_index(*ply) {
                    let state = &self.board_before(i, ply.board);
                    match crate::notation::parse_move(state, self.game.rules(), mv) {
                        Ok(m) => match self.game.replace_move(i, m) {
                            Ok(_) => {
                                self.out.push(Output::RecordChanged);
                                self.alerts.resolve_about_ply(
                                    *ply,
                                    now,
                                    &format!("corrected to {mv}"),
                                );
                                self.resync_tokens(ply.board);
                            }
                            Err(e) => {
                                self.td_refusal =
                                    Some(format!("{mv} cannot replace that move: {e}"));
                            }
                        },
                        Err(e) => {
                            self.td_refusal = Some(format!("{mv} on board {}: {e}", ply.board));
                        }
                    }
                }
            }
            TdAction::AddMove { board, mv } => {
                let state = self.game.board(*board).clone();
                let parsed = crate::notation::parse_move(&state, self.game.rules(), mv);
                if let Err(e) = &parsed {
                    self.td_refusal = Some(format!("{mv} on board {board}: {e}"));
                }
                if let Ok(m) = parsed {
                    let number = state.fullmoves();
                    let color = state.turn();
                    let meta = PlyMeta {
                        t_ms: Some(now),
                        clock_ms: self.boards[*board].clock.reported_ms(color),
                        comment: Some("TD: move entered by hand".into()),
                    };
                    match self.game.play(*board, m, meta) {
                        Err(e) => self.td_refusal = Some(format!("{mv} on board {board}: {e}")),
                        Ok(i) => {
                            let ply = PlyRef {
                                board: *board,
                                color,
                                number,
                            };
                            self.out.push(Output::Committed { ply });
                            self.after_ply(*board, i, ply);
                            self.resync_tokens(*board);
                            let track = &mut self.boards[*board];
                            let last = track.sensed.history.len().saturating_sub(1);
                            track.sensed.restart_history(last);
                            self.monitor(*board);
                        }
                    }
                }
            }
            TdAction::TakeBack { ply } => {
                if let Some(i) = self.ply_index(*ply)
                    && self.game.remove(i).is_ok()
                {
                    self.out.push(Output::RecordChanged);
                    self.alerts.resolve_about_ply(*ply, now, "taken back");
                    self.resync_tokens(ply.board);
                    self.monitor(ply.board);
                }
            }
            TdAction::ClaimFlag { seat } => {
                let result = self.game.flag_result(*seat, Some(now));
                self.game.declare(result);
                let ids: Vec<u64> = self
                    .alerts
                    .open()
                    .filter(|a| a.kind == AlertKind::Flag && a.subject == Subject::Seat(*seat))
                    .map(|a| a.id)
                    .collect();
                for id in ids {
                    self.alerts.resolve(id, now, "flag claimed");
                }
            }
            TdAction::Penalize {
                seat,
                offence,
                penalty,
            } => {
                self.penalties.push(PenaltyRecord {
                    t_ms: now,
                    seat: *seat,
                    offence: *offence,
                    penalty: *penalty,
                });
                let text = match penalty {
                    Penalty::Warning => format!(
                        "TD: warning to {} ({})",
                        self.player(*seat),
                        offence.describe()
                    ),
                    Penalty::TimeToOpponent => format!(
                        "TD: {} s added to {}'s clock ({} by {})",
                        self.game.rules().penalties.time_penalty_ms / 1000,
                        self.player(seat.opponent()),
                        offence.describe(),
                        self.player(*seat)
                    ),
                    Penalty::Forfeit | Penalty::OpponentMayClaimWin => {
                        format!(
                            "TD: {} forfeits ({})",
                            self.player(*seat),
                            offence.describe()
                        )
                    }
                    Penalty::TdDecides => format!(
                        "TD: ruling on {} ({})",
                        self.player(*seat),
                        offence.describe()
                    ),
                };
                self.note_on_last_ply(seat.board, text.clone());
                if matches!(penalty, Penalty::Forfeit | Penalty::OpponentMayClaimWin) {
                    self.game.declare(MatchResult {
                        winner: Some(seat.opponent().team()),
                        reason: crate::rules::EndReason::Forfeit {
                            seat: *seat,
                            why: offence.describe().into(),
                        },
                        t_ms: Some(now),
                    });
                }
            }
            TdAction::DeclareResult { result } => {
                self.game.declare(result.clone());
            }
            TdAction::Undeclare => {
                self.game.undeclare();
                self.result_announced = self.game.is_over();
            }
            TdAction::SetPlayers { names } => {
                self.cfg.players.clone_from(names);
            }
        }
    }

    /// The number of earlier penalties for this seat and offence (for the ladder).
    #[must_use]
    pub fn offences(&self, seat: Seat, offence: Offence) -> usize {
        self.penalties
            .iter()
            .filter(|p| p.seat == seat && p.offence == offence)
            .count()
    }

    fn note_on_last_ply(&mut self, b: BoardId, text: String) {
        if let Some(i) = self.game.record().iter().rposition(|p| p.board == b) {
            let comment = match self
                .game
                .record()
                .get(i)
                .and_then(|p| p.meta.comment.clone())
            {
                Some(c) => format!("{c}; {text}"),
                None => text,
            };
            let _ = self.game.set_comment(i, Some(comment));
        }
    }

    /// After a record edit, keep only tokens of pieces that are still promoted, and move
    /// on from the current board as the new base.
    fn resync_tokens(&mut self, b: BoardId) {
        let promoted = self.game.board(b).promoted();
        let track = &mut self.boards[b];
        track.appearance.tokens.retain(promoted);
        for sq in promoted {
            if track.appearance.tokens.get(sq).is_none() {
                track
                    .appearance
                    .tokens
                    .set(sq, Token::settle(track.sensed.cells.get(sq)));
            }
        }
    }

    // ----------------------------------------------------------------------------------

    fn check_result(&mut self) {
        if self.result_announced {
            return;
        }
        if let Some(result) = self.game.result().cloned() {
            self.result_announced = true;
            let names = self.cfg.players.clone();
            let text = result.describe(&|s: Seat| names[s.index()].clone());
            let board = result.board().unwrap_or(BoardId::A);
            self.raise(board, AlertKind::GameEnd, None, text, Subject::None);
            self.out.push(Output::MatchEnded(result));
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
            self.out.push(Output::AlertRaised(a.clone()));
        }
    }

    fn clear(&mut self, b: BoardId, kind: AlertKind, square: Option<Square>) {
        let now = self.now;
        for id in self.alerts.clear(now, b, kind, square) {
            self.out.push(Output::AlertCleared { id });
        }
    }
}

/// The promotion piece is read from the token on the promotion square: a spare piece names
/// it; a pawn or nothing visible means a queen until the TD says otherwise.
fn settle_promotion(m: Move, cells: &sensing::Cells, mover: Color) -> (Move, bool) {
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion: Some(_),
        } => {
            let (piece, confirm) = sensing::press::promotion_role(cells.get(to), mover);
            (
                Move::Normal {
                    role,
                    from,
                    capture,
                    to,
                    promotion: Some(piece),
                },
                confirm,
            )
        }
        other => (other, false),
    }
}

fn hidden_only(track: &Track, tied: &[Candidate]) -> bool {
    !tied.is_empty()
        && tied.iter().all(|c| {
            c.plies.len() == 1
                && c.plies[0]
                    .from()
                    .and_then(|f| track.appearance.tokens.get(f))
                    .is_some_and(Token::may_be_unseen)
        })
}

fn candidate_mover(state: &BoardState, cand: &Candidate) -> Color {
    if cand.plies.len() % 2 == 1 {
        state.turn()
    } else {
        !state.turn()
    }
}

fn baseline_shows_color(baseline: &sensing::Residual, color: Color) -> bool {
    baseline.anomalies.iter().any(|a| a.color() == Some(color))
}

fn squares_of(r: &sensing::Residual) -> Vec<String> {
    let mut v: Vec<String> = r.in_progress.into_iter().map(|s| s.to_string()).collect();
    for a in &r.anomalies {
        match *a {
            Anomaly::Displaced { from, to, .. } => {
                v.push(from.to_string());
                v.push(to.to_string());
            }
            _ => v.push(a.square().to_string()),
        }
    }
    v.sort();
    v.dedup();
    v
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
