//! The virtual DGT board: pure, explicit time, deterministic from a seed.
//!
//! It is meant to be as unkind as a real board (reference §1.8, §2.1, §2.3):
//! - the board scans fields 0..63 continuously, one full scan per `scan_period_ms`
//!   (jittered per scan); a field is *sampled when the scan reaches it* and a FIELD_UPDATE
//!   is sent when the sample differs from the last one. So changes arrive in scan order,
//!   not in the order they were made; a lift and re-place within one pass is never seen; a
//!   slide reports whichever squares the scan caught; a piece put straight onto its victim
//!   never shows the square empty;
//! - the board learns of a lever press only at its next clock poll (`clock_poll_ms`, plus
//!   an occasional late message), so a press can reach the PC before the last placement
//!   was reported, or after the reply has begun;
//! - a pawn laid on its side is most likely seen as empty (`lying_pawn_flicker`);
//! - the serial line carries 9600 baud: every byte takes ≈1.04 ms.
//!
//! The board starts idle (no field updates until the PC sets an update mode), answers the
//! commands of reference §1.3, and reports the clock as real BWTIME messages.

use std::collections::{BTreeMap, VecDeque};

use shakmaty::{Board, Color, Piece, Square};

use crate::Millis;
use crate::dgt::clock::ClockReading;
use crate::dgt::command::{ClockCommand, Command, CommandDecoder, CommandEvent, run_flags};
use crate::dgt::{
    BatteryStatus, ClockAck, ClockSide, ClockTimes, Fields, Message, Orientation, PieceCode,
    encode_message, field_to_square,
};
use crate::util::SplitMix64;

/// Microseconds one byte (start + 8 data + stop bits) takes at 9600 baud.
pub const BYTE_US: u64 = 1042;

/// Which clock stands beside the board, as far as the PC can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockModel {
    /// A DGT3000: takes set-and-run (it then counts as the PC says: "mode 23", no
    /// increment or delay of its own) and eight characters of text.
    Dgt3000,
    /// An older clock (a DGT XL in one of its playing modes): it refuses set-and-run
    /// ("not in mode 23") and has no text display; it is only read.
    Older,
}

/// A chess clock plugged into the board.
#[derive(Clone, Debug, PartialEq)]
pub struct ClockConfig {
    /// Which lever is White's: clocks may stand on either side.
    pub white_side: ClockSide,
    pub base_ms: u64,
    /// Fischer increment, added to the presser's time (a DGT clock also shows it at start).
    pub increment_ms: u64,
    /// Simple (US) delay: the first `delay_ms` of each turn do not count.
    pub delay_ms: u64,
    pub model: ClockModel,
}

impl Default for ClockConfig {
    fn default() -> Self {
        ClockConfig {
            white_side: ClockSide::Left,
            base_ms: 5 * 60_000,
            increment_ms: 0,
            delay_ms: 0,
            model: ClockModel::Dgt3000,
        }
    }
}

/// A fault to inject into the clock's answers (the tests of refused and lost commands).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockFault {
    /// The next `n` commands are answered with an error ack (ack0 0x40).
    Refuse(u32),
    /// The next `n` commands get no answer at all.
    Ignore(u32),
}

#[derive(Clone, Debug, PartialEq)]
pub struct EmulatorConfig {
    /// The 5-digit serial number; the 10-digit one is derived (`30` + 8 digits).
    pub serial: String,
    pub version: (u8, u8),
    pub orientation: Orientation,
    /// Min and max duration of one full scan.
    pub scan_period_ms: (u64, u64),
    /// `None`: no clock plugged in (BWTIME says "no clock").
    pub clock: Option<ClockConfig>,
    /// The board polls the clock every (min, max) ms.
    pub clock_poll_ms: (u64, u64),
    /// Chance that a clock message is held back by an extra `clock_late_ms`.
    pub clock_late_chance: f64,
    pub clock_late_ms: (u64, u64),
    /// Chance that a scan sees a piece lying on its side as standing instead of empty.
    pub lying_pawn_flicker: f64,
    /// Battery charge for 0x4C (Bluetooth boards); `None`: no answer (USB boards).
    pub battery_percent: Option<u8>,
    /// Bluetooth boards: a poll that carries a clock ack carries no times (reference §1.7:
    /// "may return the ack instead of a clock update").
    pub ack_replaces_times: bool,
}

impl Default for EmulatorConfig {
    fn default() -> Self {
        EmulatorConfig {
            serial: "12345".into(),
            version: (1, 2),
            orientation: Orientation::Normal,
            scan_period_ms: (200, 250),
            clock: Some(ClockConfig::default()),
            clock_poll_ms: (300, 500),
            clock_late_chance: 0.1,
            clock_late_ms: (200, 600),
            lying_pawn_flicker: 0.05,
            battery_percent: None,
            ack_replaces_times: false,
        }
    }
}

impl EmulatorConfig {
    /// A Bluetooth board: half-speed scans, the clock polled only 2-3 times a second.
    #[must_use]
    pub fn bluetooth() -> Self {
        EmulatorConfig {
            scan_period_ms: (400, 500),
            clock_poll_ms: (330, 500),
            clock_late_chance: 0.2,
            clock_late_ms: (200, 700),
            battery_percent: Some(85),
            ack_replaces_times: true,
            ..Self::default()
        }
    }

    #[must_use]
    pub fn long_serial(&self) -> String {
        format!("30{:0>8}", self.serial)
    }
}

/// What stands (or lies) on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhysicalPiece {
    Standing(Piece),
    /// Laid on its side (the promotion convention): the sensor most likely sees nothing.
    Lying(Piece),
}

impl PhysicalPiece {
    #[must_use]
    pub fn piece(self) -> Piece {
        match self {
            PhysicalPiece::Standing(p) | PhysicalPiece::Lying(p) => p,
        }
    }
}

/// What the players do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PhysicalAction {
    /// Pieces placed as in `Board` (everything else cleared), e.g. before the game.
    SetUp(Board),
    SetUpStart,
    /// The piece leaves the square (in hand or off the board).
    Lift {
        square: Square,
    },
    /// `piece` taken off the square if it still stands (or lies) there: the opponent
    /// removing a pawn that reached the last rank (Transfer Chess) after its own move may
    /// already have swept it off, and then must not lift the piece that did.
    Remove {
        square: Square,
        piece: Piece,
    },
    /// A piece set down; an occupant is swept off ("mover put straight onto the victim").
    Place {
        square: Square,
        piece: Piece,
    },
    /// The piece on the square is laid on its side.
    LayDown {
        square: Square,
    },
    /// A piece knocked onto another square (off the board if that one is occupied).
    Knock {
        from: Square,
        to: Square,
    },
    /// That player's lever goes down: their time stops, the opponent's runs. The first press
    /// by Black starts White's time.
    PressClock {
        by: Color,
    },
    StartClock,
    PauseClock,
    /// New times (the clock stops, lever high on White's side, flags cleared).
    SetClock {
        white_ms: u64,
        black_ms: u64,
    },
    /// One of the DGT3000's five buttons (the play/pause button is `Run`). The clock
    /// reports it as an auto-ack; `Run` also stops or restarts its time, as on the clock
    /// itself.
    ClockButton(crate::dgt::ClockButton),
}

/// The board's update mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardMode {
    Idle,
    Update,
    UpdateBoard,
    UpdateNice,
}

/// The clock's own state (what its display shows, to the millisecond).
#[derive(Clone, Debug)]
struct ClockSim {
    cfg: ClockConfig,
    /// Remaining ms, left then right.
    remaining: [u64; 2],
    /// The side whose lever is high (runs when ticking).
    run_side: ClockSide,
    ticking: bool,
    started: bool,
    flagged: [bool; 2],
    delay_left: u64,
    at: Millis,
    /// Set-and-run was accepted: the clock counts as the PC says (mode 23), adding no
    /// increment or delay of its own.
    pc_mode: bool,
    /// In PC mode: a lever press hands the time to the other side (flag 0x08).
    toggle_on_lever: bool,
    /// Text on the display (DGT3000 ASCII), until the next set-and-run.
    text: Option<String>,
}

fn idx(side: ClockSide) -> usize {
    match side {
        ClockSide::Left => 0,
        ClockSide::Right => 1,
    }
}

impl ClockSim {
    fn new(cfg: ClockConfig, t: Millis) -> Self {
        let start = cfg.base_ms + cfg.increment_ms;
        ClockSim {
            remaining: [start, start],
            run_side: cfg.white_side,
            ticking: false,
            started: false,
            flagged: [false; 2],
            delay_left: cfg.delay_ms,
            at: t,
            pc_mode: false,
            toggle_on_lever: false,
            text: None,
            cfg,
        }
    }

    fn side_of(&self, c: Color) -> ClockSide {
        match c {
            Color::White => self.cfg.white_side,
            Color::Black => self.cfg.white_side.other(),
        }
    }

    fn advance(&mut self, t: Millis) {
        if t <= self.at {
            return;
        }
        let mut dt = t - self.at;
        self.at = t;
        if !self.ticking {
            return;
        }
        let d = dt.min(self.delay_left);
        self.delay_left -= d;
        dt -= d;
        let i = idx(self.run_side);
        if let Some(r) = self.remaining.get_mut(i) {
            *r = r.saturating_sub(dt);
            if *r == 0 {
                // Flag: that side stays at zero and the clock is blocked.
                if let Some(f) = self.flagged.get_mut(i) {
                    *f = true;
                }
                self.ticking = false;
            }
        }
    }

    fn press(&mut self, t: Millis, by: Color) {
        self.advance(t);
        if self.flagged.iter().any(|&f| f) {
            return;
        }
        let side = self.side_of(by);
        if self.pc_mode {
            // Mode 23: the lever only hands the time over (when the PC asked for it), and
            // the clock adds nothing: increments and delays are the PC's business.
            if self.ticking && self.toggle_on_lever && self.run_side == side {
                self.run_side = side.other();
            }
            return;
        }
        if !self.started {
            self.started = true;
            self.ticking = true;
            self.run_side = side.other();
            self.delay_left = self.cfg.delay_ms;
            return;
        }
        if self.run_side != side {
            return; // that lever is already down
        }
        if self.ticking
            && let Some(r) = self.remaining.get_mut(idx(side))
        {
            *r += self.cfg.increment_ms;
        }
        self.run_side = side.other();
        self.delay_left = self.cfg.delay_ms;
    }

    fn reading(&self, side: ClockSide) -> ClockReading {
        let i = idx(side);
        let ms = self.remaining.get(i).copied().unwrap_or(0);
        let flag = self.flagged.get(i).copied().unwrap_or(false);
        ClockReading {
            // A countdown display shows the second it is in: 0:00 only at zero.
            seconds: u32::try_from(ms.div_ceil(1000)).unwrap_or(u32::MAX),
            flag_fallen: flag,
            flag_shown: flag,
            time_per_move: !self.pc_mode && (self.cfg.increment_ms > 0 || self.cfg.delay_ms > 0),
        }
    }

    fn times(&self) -> ClockTimes {
        ClockTimes::new(
            self.reading(ClockSide::Left),
            self.reading(ClockSide::Right),
            self.run_side,
            self.ticking,
        )
    }

    fn remaining_ms(&self, c: Color) -> u64 {
        self.remaining
            .get(idx(self.side_of(c)))
            .copied()
            .unwrap_or(0)
    }
}

/// The virtual board. Time only moves when the caller says so.
#[derive(Clone, Debug)]
pub struct BoardEmulator {
    cfg: EmulatorConfig,
    rng: SplitMix64,
    now: Millis,
    /// Physical state, by chess square (a1 = 0).
    physical: [Option<PhysicalPiece>; 64],
    /// What the last scan saw, in field numbering (what a dump reports).
    sensed: Fields,
    mode: BoardMode,
    scan_start: Millis,
    scan_period: u64,
    scan_field: u8,
    clock: Option<ClockSim>,
    next_poll: Millis,
    /// Clock info the board read at its last poll.
    polled: Option<ClockTimes>,
    last_clock_sent: Option<ClockTimes>,
    last_clock_sent_t: Millis,
    /// Clock messages waiting to be sent (late ones), with their send times.
    clock_out: VecDeque<(Millis, Message)>,
    /// Acks owed at the next poll.
    acks_owed: Vec<ClockAck>,
    /// Faults still to inject into the clock's answers.
    fault: Option<ClockFault>,
    /// Every clock command received, with its time (for measuring and for tests).
    clock_log: Vec<(Millis, ClockCommand)>,
    commands: CommandDecoder,
    /// Bytes on the wire: (µs the last byte leaves, bytes).
    wire: VecDeque<(u64, Vec<u8>)>,
    wire_free_us: u64,
    scheduled: BTreeMap<(Millis, u64), PhysicalAction>,
    seq: u64,
}

impl BoardEmulator {
    #[must_use]
    pub fn new(cfg: EmulatorConfig, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let scan_period = rng.range(cfg.scan_period_ms.0, cfg.scan_period_ms.1).max(1);
        let next_poll = rng.range(cfg.clock_poll_ms.0, cfg.clock_poll_ms.1);
        let clock = cfg.clock.clone().map(|c| ClockSim::new(c, 0));
        BoardEmulator {
            cfg,
            rng,
            now: 0,
            physical: [None; 64],
            sensed: Fields::empty(),
            mode: BoardMode::Idle,
            scan_start: 0,
            scan_period,
            scan_field: 0,
            clock,
            next_poll,
            polled: None,
            last_clock_sent: None,
            last_clock_sent_t: 0,
            clock_out: VecDeque::new(),
            acks_owed: Vec::new(),
            fault: None,
            clock_log: Vec::new(),
            commands: CommandDecoder::new(),
            wire: VecDeque::new(),
            wire_free_us: 0,
            scheduled: BTreeMap::new(),
            seq: 0,
        }
    }

    #[must_use]
    pub fn config(&self) -> &EmulatorConfig {
        &self.cfg
    }

    #[must_use]
    pub fn now(&self) -> Millis {
        self.now
    }

    /// What the last scan saw (what a dump would report), in field numbering.
    #[must_use]
    pub fn sensed(&self) -> &Fields {
        &self.sensed
    }

    #[must_use]
    pub fn physical(&self, sq: Square) -> Option<PhysicalPiece> {
        self.physical.get(usize::from(sq)).copied().flatten()
    }

    /// Pieces as they stand (lying ones included, as their piece).
    #[must_use]
    pub fn physical_board(&self) -> Board {
        let mut b = Board::empty();
        for sq in Square::ALL {
            if let Some(t) = self.physical(sq) {
                b.set_piece_at(sq, t.piece());
            }
        }
        b
    }

    #[must_use]
    pub fn mode(&self) -> BoardMode {
        self.mode
    }

    /// What the clock shows right now (not what the board has reported).
    #[must_use]
    pub fn clock_times(&self) -> Option<ClockTimes> {
        let mut c = self.clock.clone()?;
        c.advance(self.now);
        Some(c.times())
    }

    /// The text on the clock's display, if it shows text rather than times.
    #[must_use]
    pub fn clock_text(&self) -> Option<String> {
        self.clock.as_ref().and_then(|c| c.text.clone())
    }

    /// The clock counts as the PC says (it took a set-and-run: mode 23).
    #[must_use]
    pub fn clock_in_pc_mode(&self) -> bool {
        self.clock.as_ref().is_some_and(|c| c.pc_mode)
    }

    /// Every clock command the board passed to its clock, with the time it arrived.
    #[must_use]
    pub fn clock_log(&self) -> &[(Millis, ClockCommand)] {
        &self.clock_log
    }

    /// Makes the clock refuse or ignore its next commands.
    pub fn inject_clock_fault(&mut self, fault: ClockFault) {
        self.fault = Some(fault);
    }

    /// Remaining time of a player on the clock right now, in ms.
    #[must_use]
    pub fn clock_remaining_ms(&self, c: Color) -> Option<u64> {
        let mut clock = self.clock.clone()?;
        clock.advance(self.now);
        Some(clock.remaining_ms(c))
    }

    fn set_physical(&mut self, sq: Square, t: Option<PhysicalPiece>) -> Option<PhysicalPiece> {
        match self.physical.get_mut(usize::from(sq)) {
            Some(slot) => std::mem::replace(slot, t),
            None => None,
        }
    }

    /// Applies `action` at `t` (at `now` if `t` is in the past), after running the board up
    /// to `t`. Returns the token that left the board, if one did (lifted, swept off by a
    /// placement, knocked off).
    pub fn act(&mut self, t: Millis, action: PhysicalAction) -> Option<PhysicalPiece> {
        self.advance_to(t);
        self.apply(action)
    }

    /// Applies `action` when the board reaches `t`.
    pub fn schedule(&mut self, t: Millis, action: PhysicalAction) {
        self.seq += 1;
        self.scheduled.insert((t.max(self.now), self.seq), action);
    }

    /// A slide: the piece leaves `from` at `t0`, stands `step_ms` on each of `via`, and
    /// arrives on `to` (sweeping any occupant off). Scheduled; returns the arrival time.
    pub fn slide(
        &mut self,
        t0: Millis,
        from: Square,
        via: &[Square],
        to: Square,
        piece: Piece,
        step_ms: u64,
    ) -> Millis {
        let mut t = t0;
        let mut at = from;
        for &sq in via.iter().chain(std::iter::once(&to)) {
            self.schedule(t, PhysicalAction::Lift { square: at });
            self.schedule(t, PhysicalAction::Place { square: sq, piece });
            at = sq;
            t += step_ms;
        }
        t - step_ms
    }

    fn apply(&mut self, action: PhysicalAction) -> Option<PhysicalPiece> {
        let now = self.now;
        match action {
            PhysicalAction::SetUp(board) => {
                self.physical = [None; 64];
                for (sq, p) in board {
                    self.set_physical(sq, Some(PhysicalPiece::Standing(p)));
                }
                None
            }
            PhysicalAction::SetUpStart => self.apply(PhysicalAction::SetUp(Board::new())),
            PhysicalAction::Lift { square } => self.set_physical(square, None),
            PhysicalAction::Remove { square, piece } => {
                if self.physical(square).is_some_and(|t| t.piece() == piece) {
                    self.set_physical(square, None)
                } else {
                    None
                }
            }
            PhysicalAction::Place { square, piece } => {
                self.set_physical(square, Some(PhysicalPiece::Standing(piece)))
            }
            PhysicalAction::LayDown { square } => {
                let t = self.physical(square)?;
                self.set_physical(square, Some(PhysicalPiece::Lying(t.piece())));
                None
            }
            PhysicalAction::Knock { from, to } => {
                let t = self.set_physical(from, None)?;
                if self.physical(to).is_some() {
                    Some(t)
                } else {
                    self.set_physical(to, Some(t));
                    None
                }
            }
            PhysicalAction::PressClock { by } => {
                if let Some(c) = &mut self.clock {
                    c.press(now, by);
                }
                None
            }
            PhysicalAction::StartClock => {
                if let Some(c) = &mut self.clock {
                    c.advance(now);
                    if !c.flagged.iter().any(|&f| f) {
                        c.ticking = true;
                        c.started = true;
                    }
                }
                None
            }
            PhysicalAction::PauseClock => {
                if let Some(c) = &mut self.clock {
                    c.advance(now);
                    c.ticking = false;
                }
                None
            }
            PhysicalAction::ClockButton(button) => {
                if let Some(c) = &mut self.clock {
                    c.advance(now);
                    if button == crate::dgt::ClockButton::Run
                        && c.started
                        && !c.flagged.contains(&true)
                    {
                        c.ticking = !c.ticking;
                    }
                    // Buttons reach the PC as auto-acks, and only in the update modes.
                    if matches!(self.mode, BoardMode::Update | BoardMode::UpdateNice) {
                        self.acks_owed.push(ClockAck {
                            ack0: 0x10,
                            ack1: 0x88,
                            ack2: 0,
                            ack3: button.code(),
                        });
                    }
                }
                None
            }
            PhysicalAction::SetClock { white_ms, black_ms } => {
                if let Some(c) = &mut self.clock {
                    let mut fresh = ClockSim::new(c.cfg.clone(), now);
                    let (w, b) = (c.side_of(Color::White), c.side_of(Color::Black));
                    if let Some(r) = fresh.remaining.get_mut(idx(w)) {
                        *r = white_ms;
                    }
                    if let Some(r) = fresh.remaining.get_mut(idx(b)) {
                        *r = black_ms;
                    }
                    *c = fresh;
                }
                None
            }
        }
    }

    fn sample_time(&self) -> Millis {
        self.scan_start + self.scan_period * u64::from(self.scan_field) / 64
    }

    /// The field the scan samples next, and when.
    #[must_use]
    pub fn next_scan(&self) -> (u8, Millis) {
        (self.scan_field, self.sample_time())
    }

    /// The next time the board has something to do (a scan sample at the latest).
    #[must_use]
    pub fn next_wakeup(&self) -> Millis {
        let mut t = self.sample_time().min(self.next_poll);
        if let Some((ct, _)) = self.clock_out.front() {
            t = t.min(*ct);
        }
        if let Some(((st, _), _)) = self.scheduled.first_key_value() {
            t = t.min(*st);
        }
        if let Some((us, _)) = self.wire.front() {
            t = t.min(us.div_ceil(1000));
        }
        t.max(self.now)
    }

    /// Runs scans, clock polls and scheduled actions up to and including `t`.
    pub fn advance_to(&mut self, t: Millis) {
        loop {
            let sched = self.scheduled.first_key_value().map(|((st, _), _)| *st);
            let clock_msg = self.clock_out.front().map(|(ct, _)| *ct);
            let sample = self.sample_time();
            let poll = self.next_poll;
            let next = [sched, clock_msg, Some(sample), Some(poll)]
                .into_iter()
                .flatten()
                .min()
                .unwrap_or(t);
            if next > t {
                break;
            }
            self.now = self.now.max(next);
            if sched == Some(next) {
                if let Some((_, action)) = self.scheduled.pop_first() {
                    self.apply(action);
                }
            } else if clock_msg == Some(next) {
                if let Some((ct, m)) = self.clock_out.pop_front() {
                    self.send(ct, &m);
                }
            } else if poll == next {
                self.poll_clock(next);
            } else {
                self.sample(next);
            }
        }
        self.now = self.now.max(t);
    }

    fn sample(&mut self, t: Millis) {
        let field = self.scan_field;
        let code =
            match field_to_square(field, self.cfg.orientation).and_then(|sq| self.physical(sq)) {
                None => PieceCode::EMPTY,
                Some(PhysicalPiece::Standing(p)) => PieceCode::from_piece(Some(p)),
                Some(PhysicalPiece::Lying(p)) => {
                    if self.rng.chance(self.cfg.lying_pawn_flicker) {
                        PieceCode::from_piece(Some(p))
                    } else {
                        PieceCode::EMPTY
                    }
                }
            };
        if code != self.sensed.get(field) {
            self.sensed.set(field, code);
            if self.mode != BoardMode::Idle {
                self.send(t, &Message::FieldUpdate { field, code });
            }
        }
        self.scan_field += 1;
        if self.scan_field >= 64 {
            self.scan_field = 0;
            self.scan_start += self.scan_period;
            self.scan_period = self
                .rng
                .range(self.cfg.scan_period_ms.0, self.cfg.scan_period_ms.1)
                .max(1);
        }
    }

    fn read_clock(&mut self, t: Millis) -> ClockTimes {
        match &mut self.clock {
            Some(c) => {
                c.advance(t);
                c.times()
            }
            None => ClockTimes::no_clock(),
        }
    }

    fn poll_clock(&mut self, t: Millis) {
        self.next_poll = t + self
            .rng
            .range(self.cfg.clock_poll_ms.0, self.cfg.clock_poll_ms.1)
            .max(1);
        let times = self.read_clock(t);
        self.polled = Some(times);
        let reporting = matches!(self.mode, BoardMode::Update | BoardMode::UpdateNice);
        let acks = std::mem::take(&mut self.acks_owed);
        if !reporting {
            return;
        }
        let changed = self.last_clock_sent != Some(times);
        let due =
            self.mode == BoardMode::Update && t.saturating_sub(self.last_clock_sent_t) >= 1000;
        let ack_only = self.cfg.ack_replaces_times && !acks.is_empty();
        let mut msgs: Vec<Message> = acks.into_iter().map(Message::ClockAck).collect();
        if (changed || due) && !ack_only {
            self.last_clock_sent = Some(times);
            self.last_clock_sent_t = t;
            msgs.push(Message::Clock(times));
        }
        for m in msgs {
            let mut send_t = t;
            if self.rng.chance(self.cfg.clock_late_chance) {
                send_t += self
                    .rng
                    .range(self.cfg.clock_late_ms.0, self.cfg.clock_late_ms.1);
            }
            // Messages leave in the order the board read them.
            if let Some((last, _)) = self.clock_out.back() {
                send_t = send_t.max(*last);
            }
            self.clock_out.push_back((send_t, m));
        }
    }

    fn send(&mut self, t: Millis, m: &Message) {
        let bytes = encode_message(m);
        let start = (t * 1000).max(self.wire_free_us);
        let done = start + BYTE_US * bytes.len() as u64;
        self.wire_free_us = done;
        self.wire.push_back((done, bytes));
    }

    /// Messages whose last byte has left the wire by now, with that time (ms, rounded up).
    pub fn take_output(&mut self) -> Vec<(Millis, Vec<u8>)> {
        let now_us = self.now * 1000;
        let mut out = Vec::new();
        while let Some((done, _)) = self.wire.front() {
            if *done > now_us {
                break;
            }
            if let Some((done, bytes)) = self.wire.pop_front() {
                out.push((done.div_ceil(1000), bytes));
            }
        }
        out
    }

    /// The board loses power (USB unplugged): bytes in flight are lost and it comes back
    /// idle. The pieces and the (battery-powered) clock stay as they are.
    pub fn power_cycle(&mut self, t: Millis) {
        self.advance_to(t);
        self.mode = BoardMode::Idle;
        self.wire.clear();
        self.wire_free_us = self.now * 1000;
        self.clock_out.clear();
        self.acks_owed.clear();
        self.last_clock_sent = None;
        self.commands = CommandDecoder::new();
    }

    /// Bytes from the PC at `t`.
    pub fn receive_from_pc(&mut self, t: Millis, bytes: &[u8]) {
        self.advance_to(t);
        let t = self.now;
        let mut cmds = Vec::new();
        self.commands.push(bytes, &mut cmds);
        for c in cmds {
            if let CommandEvent::Command(c) = c {
                self.command(t, c);
            }
        }
    }

    fn set_mode(&mut self, mode: BoardMode) {
        self.mode = mode;
        // The first poll in a clock mode reports the clock.
        self.last_clock_sent = None;
    }

    fn command(&mut self, t: Millis, c: Command) {
        match c {
            Command::Reset => self.set_mode(BoardMode::Idle),
            Command::SendClock => {
                let times = match self.polled {
                    Some(p) => p,
                    None => self.read_clock(t),
                };
                self.send(t, &Message::Clock(times));
            }
            Command::SendBoard => {
                let dump = Message::BoardDump(self.sensed);
                self.send(t, &dump);
            }
            Command::Update => self.set_mode(BoardMode::Update),
            Command::UpdateBoard => self.set_mode(BoardMode::UpdateBoard),
            Command::UpdateNice => self.set_mode(BoardMode::UpdateNice),
            Command::SerialNumber => {
                let m = Message::SerialNumber(self.cfg.serial.clone());
                self.send(t, &m);
            }
            Command::LongSerialNumber => {
                let m = Message::LongSerialNumber(self.cfg.long_serial());
                self.send(t, &m);
            }
            Command::BusAddress => {
                let n = self.cfg.serial.parse::<u32>().unwrap_or(0) % 0x4000;
                self.send(t, &Message::BusAddress(n as u16));
            }
            Command::Trademark => {
                let m = Message::Trademark(format!(
                    "Digital Game Technology\r\nTandem virtual board\r\nserial no: {}",
                    self.cfg.serial
                ));
                self.send(t, &m);
            }
            Command::EeMoves => {
                // EE_POWERUP then EE_EOF: an empty log.
                self.send(
                    t,
                    &Message::EeMoves {
                        bytes: vec![0x6a, 0x6b],
                    },
                );
            }
            Command::Battery => {
                if let Some(p) = self.cfg.battery_percent {
                    let raw = vec![p, 0x7f, 0x7f, 0, 0, 0, 0, 0, 0];
                    self.send(t, &Message::Battery(BatteryStatus::from_raw(raw)));
                }
            }
            Command::Version => {
                let (major, minor) = self.cfg.version;
                self.send(t, &Message::Version { major, minor });
            }
            Command::Clock(cc) => self.clock_command(t, &cc),
        }
    }

    fn clock_command(&mut self, t: Millis, cc: &ClockCommand) {
        let Some(clock) = &mut self.clock else {
            return; // nobody to answer
        };
        self.clock_log.push((t, cc.clone()));
        let reporting = matches!(self.mode, BoardMode::Update | BoardMode::UpdateNice);
        let code = cc.code();
        let ok = ClockAck {
            ack0: 0x10,
            ack1: code,
            ack2: 0,
            ack3: 0,
        };
        let error = ClockAck { ack0: 0x40, ..ok };
        match self.fault {
            Some(ClockFault::Ignore(n)) => {
                self.fault = (n > 1).then_some(ClockFault::Ignore(n - 1));
                return;
            }
            Some(ClockFault::Refuse(n)) => {
                self.fault = (n > 1).then_some(ClockFault::Refuse(n - 1));
                if reporting {
                    self.acks_owed.push(error);
                }
                return;
            }
            None => {}
        }
        let model = clock.cfg.model;
        let ack = match (cc, model) {
            (ClockCommand::Version, ClockModel::Dgt3000) => ClockAck { ack2: 0x21, ..ok },
            (ClockCommand::Version, ClockModel::Older) => ClockAck { ack2: 0x11, ..ok },
            (ClockCommand::SetAndRun { .. }, ClockModel::Older) => ClockAck {
                ack0: 0x10,
                ack1: 0x90,
                ack2: 0,
                ack3: 0,
            },
            (ClockCommand::Ascii { .. }, ClockModel::Older) => error,
            (ClockCommand::SetAndRun { left, right, flags }, ClockModel::Dgt3000) => {
                clock.advance(t);
                clock.remaining = [left.to_ms(), right.to_ms()];
                clock.flagged = [false; 2];
                clock.started = true;
                clock.pc_mode = true;
                clock.delay_left = 0;
                clock.text = None;
                clock.toggle_on_lever = flags & run_flags::TOGGLE_ON_LEVER != 0;
                if flags & run_flags::LEFT_RUNS != 0 {
                    clock.run_side = ClockSide::Left;
                } else if flags & run_flags::RIGHT_RUNS != 0 {
                    clock.run_side = ClockSide::Right;
                }
                clock.ticking = flags & run_flags::PAUSE == 0
                    && flags & (run_flags::LEFT_RUNS | run_flags::RIGHT_RUNS) != 0;
                ok
            }
            (ClockCommand::Ascii { text, .. }, ClockModel::Dgt3000) => {
                clock.text = Some(text.iter().map(|&b| char::from(b & 0x7f)).collect());
                ok
            }
            (ClockCommand::End, _) => {
                clock.text = None;
                ok
            }
            _ => ok,
        };
        // The clock answers through the board's next poll, only in the update modes.
        if reporting {
            self.acks_owed.push(ack);
        }
    }
}
