//! The link protocol with one board, pure (no I/O, no clock): start-up sequence, keep-alive,
//! silence detection and the identity check. The serial worker and the simulated link both
//! run this code, so the production path is the tested path.
//!
//! Start-up (reference §6 item 2): `0x40` reset + `0x4D` version; on the version, `0x55`
//! long serial; on its answer (or after `answer_timeout_ms` without one: old boards lack it)
//! `0x45` serial; then the identity is checked, `Connected` reported, and `0x42` (a fresh
//! dump) + the update mode (`0x4B` by default) sent. While connected, `0x45` every
//! `keepalive_ms` keeps the board talking; its answers must carry the same serial, and no
//! byte for `silence_timeout_ms` means the board is lost.

use std::collections::VecDeque;

use crate::dgt::{ClockAck, ClockCommand, Command, Decoder, Message};
use crate::{BoardId, Millis};

use super::profile::{DeviceProfile, UpdateMode};
use crate::arbiter::{BoardEvent, BoardEventKind, ClockOutcome};

/// Timing of the link, usually taken from a [`DeviceProfile`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkConfig {
    pub keepalive_ms: u64,
    pub silence_timeout_ms: u64,
    pub answer_timeout_ms: u64,
    pub update_mode: UpdateMode,
    /// How long to wait for a clock command's ack before sending it again.
    pub clock_ack_timeout_ms: u64,
    /// How many times a clock command is sent before it counts as unanswered (an error
    /// ack is also tried again, as picochess does).
    pub clock_attempts: u32,
}

impl From<&DeviceProfile> for LinkConfig {
    fn from(p: &DeviceProfile) -> Self {
        LinkConfig {
            keepalive_ms: p.keepalive_ms,
            silence_timeout_ms: p.silence_timeout_ms,
            answer_timeout_ms: p.answer_timeout_ms,
            update_mode: p.update_mode,
            clock_ack_timeout_ms: p.clock_ack_timeout_ms,
            clock_attempts: 2,
        }
    }
}

impl Default for LinkConfig {
    fn default() -> Self {
        LinkConfig::from(&DeviceProfile::default())
    }
}

/// Who a board is: its serial numbers as far as known.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Identity {
    /// The 5-digit serial (0x45).
    pub serial: Option<String>,
    /// The 10-digit serial (0x55), on boards that know it.
    pub long_serial: Option<String>,
}

impl Identity {
    /// The identity a user gives as one serial number (5 or 10 digits).
    #[must_use]
    pub fn from_serial(s: &str) -> Identity {
        if s.len() > 5 {
            Identity {
                serial: None,
                long_serial: Some(s.to_string()),
            }
        } else {
            Identity {
                serial: Some(s.to_string()),
                long_serial: None,
            }
        }
    }

    /// Could `self` and `other` be the same board (no known number differs)?
    #[must_use]
    pub fn compatible(&self, other: &Identity) -> bool {
        let same = |a: &Option<String>, b: &Option<String>| match (a, b) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        };
        same(&self.serial, &other.serial) && same(&self.long_serial, &other.long_serial)
    }

    /// Does this board answer to serial number `s` (short or long)?
    #[must_use]
    pub fn answers_to(&self, s: &str) -> bool {
        self.serial.as_deref() == Some(s) || self.long_serial.as_deref() == Some(s)
    }

    /// The name to show: the long serial if known, else the short one.
    #[must_use]
    pub fn display(&self) -> Option<String> {
        self.long_serial.clone().or_else(|| self.serial.clone())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandshakeStep {
    Version,
    LongSerial,
    Serial,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkPhase {
    Idle,
    Handshake(HandshakeStep),
    Connected,
    /// The session is over; the reason says why. A new session is needed.
    Lost(String),
}

/// Bytes to write to the board and events for the core.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkOutput {
    pub write: Vec<u8>,
    pub events: Vec<BoardEvent>,
}

impl LinkOutput {
    fn append(&mut self, other: LinkOutput) {
        self.write.extend(other.write);
        self.events.extend(other.events);
    }
}

/// One connection attempt with one board, from the first byte written to its loss.
#[derive(Debug, Clone)]
pub struct LinkSession {
    board: BoardId,
    cfg: LinkConfig,
    port: String,
    decoder: Decoder,
    state: LinkPhase,
    /// When the command of the current handshake step was (re)sent.
    step_sent: Millis,
    started: Millis,
    last_rx: Option<Millis>,
    last_keepalive: Millis,
    version: Option<(u8, u8)>,
    found: Identity,
    expected: Option<Identity>,
    /// Clock commands waiting their turn (one at a time: reference §1.7).
    clock_queue: VecDeque<(u64, ClockCommand)>,
    clock_in_flight: Option<InFlight>,
}

/// The clock command on its way, waiting for its ack.
#[derive(Debug, Clone)]
struct InFlight {
    id: u64,
    command: ClockCommand,
    sent_at: Millis,
    attempts: u32,
}

impl LinkSession {
    /// `expected`: the identity the board must have (from the station file, or the serial
    /// first seen on this worker); a board answering otherwise is not accepted.
    #[must_use]
    pub fn new(
        board: BoardId,
        cfg: LinkConfig,
        port: impl Into<String>,
        expected: Option<Identity>,
    ) -> Self {
        LinkSession {
            board,
            cfg,
            port: port.into(),
            decoder: Decoder::new(),
            state: LinkPhase::Idle,
            step_sent: 0,
            started: 0,
            last_rx: None,
            last_keepalive: 0,
            version: None,
            found: Identity::default(),
            expected,
            clock_queue: VecDeque::new(),
            clock_in_flight: None,
        }
    }

    #[must_use]
    pub fn state(&self) -> &LinkPhase {
        &self.state
    }

    #[must_use]
    pub fn is_connected(&self) -> bool {
        self.state == LinkPhase::Connected
    }

    #[must_use]
    pub fn lost_reason(&self) -> Option<&str> {
        match &self.state {
            LinkPhase::Lost(r) => Some(r),
            _ => None,
        }
    }

    /// The serial numbers this board gave in this session.
    #[must_use]
    pub fn identity(&self) -> &Identity {
        &self.found
    }

    #[must_use]
    pub fn version(&self) -> Option<(u8, u8)> {
        self.version
    }

    fn event(&self, t_ms: Millis, kind: BoardEventKind) -> BoardEvent {
        BoardEvent {
            board: self.board,
            t_ms,
            kind,
        }
    }

    /// Begins the start-up sequence (reset + version request).
    pub fn start(&mut self, now: Millis) -> LinkOutput {
        self.decoder = Decoder::new();
        self.started = now;
        self.step_sent = now;
        self.state = LinkPhase::Handshake(HandshakeStep::Version);
        let mut write = Command::Reset.encode();
        write.extend(Command::Version.encode());
        LinkOutput {
            write,
            events: Vec::new(),
        }
    }

    /// Ends the session from outside (the port failed). Reports `Disconnected` if the board
    /// had been connected.
    pub fn lose(&mut self, now: Millis, reason: &str) -> LinkOutput {
        let mut out = LinkOutput::default();
        let waiting: Vec<u64> = self
            .clock_in_flight
            .take()
            .map(|f| f.id)
            .into_iter()
            .chain(self.clock_queue.drain(..).map(|(id, _)| id))
            .collect();
        for id in waiting {
            out.events.push(self.event(
                now,
                BoardEventKind::ClockCommand {
                    id,
                    outcome: ClockOutcome::Unanswered {
                        reason: format!("the board was lost ({reason})"),
                    },
                },
            ));
        }
        if self.is_connected() {
            out.events.push(self.event(
                now,
                BoardEventKind::Disconnected {
                    reason: reason.to_string(),
                },
            ));
        }
        if !matches!(self.state, LinkPhase::Lost(_)) {
            self.state = LinkPhase::Lost(reason.to_string());
        }
        out
    }

    /// Bytes received at `now`.
    pub fn receive(&mut self, now: Millis, bytes: &[u8]) -> LinkOutput {
        let mut out = LinkOutput::default();
        if matches!(self.state, LinkPhase::Lost(_) | LinkPhase::Idle) || bytes.is_empty() {
            return out;
        }
        self.last_rx = Some(now);
        let mut msgs = Vec::new();
        self.decoder.push(bytes, &mut msgs);
        for m in msgs {
            out.append(self.handle(now, m));
            if matches!(self.state, LinkPhase::Lost(_)) {
                break;
            }
        }
        out
    }

    fn check_identity(&mut self, now: Millis) -> Option<LinkOutput> {
        let expected = self.expected.as_ref()?;
        if expected.compatible(&self.found) {
            return None;
        }
        let reason = format!(
            "wrong board on {}: serial {}, expected {}",
            self.port,
            self.found.display().unwrap_or_else(|| "?".into()),
            expected.display().unwrap_or_else(|| "?".into()),
        );
        Some(self.lose(now, &reason))
    }

    fn handle(&mut self, now: Millis, m: Message) -> LinkOutput {
        let mut out = LinkOutput::default();
        match (&self.state, m) {
            (LinkPhase::Handshake(HandshakeStep::Version), Message::Version { major, minor }) => {
                self.version = Some((major, minor));
                self.state = LinkPhase::Handshake(HandshakeStep::LongSerial);
                self.step_sent = now;
                out.write = Command::LongSerialNumber.encode();
            }
            (LinkPhase::Handshake(HandshakeStep::LongSerial), Message::LongSerialNumber(s)) => {
                self.found.long_serial = Some(s);
                if let Some(lost) = self.check_identity(now) {
                    return lost;
                }
                self.state = LinkPhase::Handshake(HandshakeStep::Serial);
                self.step_sent = now;
                out.write = Command::SerialNumber.encode();
            }
            (LinkPhase::Handshake(HandshakeStep::Serial), Message::SerialNumber(s)) => {
                self.found.serial = Some(s);
                if let Some(lost) = self.check_identity(now) {
                    return lost;
                }
                self.state = LinkPhase::Connected;
                self.last_keepalive = now;
                out.events.push(self.event(
                    now,
                    BoardEventKind::Connected {
                        port: self.port.clone(),
                        serial: self.found.display(),
                        version: self.version,
                    },
                ));
                out.write = Command::SendBoard.encode();
                out.write.extend(
                    match self.cfg.update_mode {
                        UpdateMode::UpdateNice => Command::UpdateNice,
                        UpdateMode::Update => Command::Update,
                        UpdateMode::UpdateBoard => Command::UpdateBoard,
                    }
                    .encode(),
                );
            }
            // Before the board is known its messages are stale or foreign: dropped.
            (LinkPhase::Handshake(_), _) => {}
            (LinkPhase::Connected, Message::SerialNumber(s)) => {
                if self.found.serial.as_deref() != Some(s.as_str()) {
                    let reason = format!(
                        "board on {} changed: serial {s}, expected {}",
                        self.port,
                        self.found.serial.as_deref().unwrap_or("?")
                    );
                    return self.lose(now, &reason);
                }
            }
            // Link-level answers are not the core's business.
            (LinkPhase::Connected, Message::LongSerialNumber(_) | Message::Version { .. }) => {}
            (LinkPhase::Connected, Message::ClockAck(ack)) => {
                if let Some(answer) = self.clock_answer(now, &ack) {
                    return answer;
                }
                out.events
                    .push(self.event(now, BoardEventKind::Message(Message::ClockAck(ack))));
            }
            (LinkPhase::Connected, m) => {
                out.events.push(self.event(now, BoardEventKind::Message(m)));
            }
            (LinkPhase::Idle | LinkPhase::Lost(_), _) => {}
        }
        out
    }

    /// A clock command to send (`id` names it in the outcome events). Sent at once if no
    /// other is waiting for its ack, else queued; a board that is not connected, or is in
    /// a mode in which its clock never answers, gets none.
    pub fn clock_command(&mut self, now: Millis, id: u64, command: ClockCommand) -> LinkOutput {
        let refuse = |s: &Self, outcome: ClockOutcome| LinkOutput {
            write: Vec::new(),
            events: vec![s.event(now, BoardEventKind::ClockCommand { id, outcome })],
        };
        if !self.is_connected() {
            return refuse(
                self,
                ClockOutcome::Unanswered {
                    reason: "the board is not connected".into(),
                },
            );
        }
        if self.cfg.update_mode == UpdateMode::UpdateBoard {
            return refuse(
                self,
                ClockOutcome::Refused {
                    reason: "the board's update mode (0x44) gives no clock answers".into(),
                },
            );
        }
        self.clock_queue.push_back((id, command));
        self.pump_clock(now)
    }

    /// Clock commands queued or waiting for their ack.
    #[must_use]
    pub fn clock_busy(&self) -> usize {
        self.clock_queue.len() + usize::from(self.clock_in_flight.is_some())
    }

    /// Sends the next queued clock command when none is waiting for its ack.
    fn pump_clock(&mut self, now: Millis) -> LinkOutput {
        let mut out = LinkOutput::default();
        if self.clock_in_flight.is_some() {
            return out;
        }
        let Some((id, command)) = self.clock_queue.pop_front() else {
            return out;
        };
        out.write = Command::Clock(command.clone()).encode();
        out.events.push(self.event(
            now,
            BoardEventKind::ClockCommand {
                id,
                outcome: ClockOutcome::Sent,
            },
        ));
        self.clock_in_flight = Some(InFlight {
            id,
            command,
            sent_at: now,
            attempts: 1,
        });
        out
    }

    /// The clock command waiting for its ack is over: its outcome, then the next one.
    fn finish_clock(&mut self, now: Millis, outcome: ClockOutcome) -> LinkOutput {
        let mut out = LinkOutput::default();
        if let Some(f) = self.clock_in_flight.take() {
            out.events
                .push(self.event(now, BoardEventKind::ClockCommand { id: f.id, outcome }));
        }
        out.append(self.pump_clock(now));
        out
    }

    /// Sends the waiting command again, or gives it up after its last try.
    fn retry_clock(&mut self, now: Millis, give_up: ClockOutcome) -> LinkOutput {
        let attempts = self.cfg.clock_attempts.max(1);
        match &mut self.clock_in_flight {
            Some(f) if f.attempts < attempts => {
                f.attempts += 1;
                f.sent_at = now;
                LinkOutput {
                    write: Command::Clock(f.command.clone()).encode(),
                    events: Vec::new(),
                }
            }
            _ => self.finish_clock(now, give_up),
        }
    }

    /// An ack from the clock: the answer to the command in flight (swallowed, its outcome
    /// reported), or `None` for one the core must see (a button, or nothing waited).
    fn clock_answer(&mut self, now: Millis, ack: &ClockAck) -> Option<LinkOutput> {
        let code = self.clock_in_flight.as_ref()?.command.code();
        if ack.is_not_in_mode() {
            return Some(self.finish_clock(
                now,
                ClockOutcome::Refused {
                    reason:
                        "the clock is not in mode 23 (it does not take times from the PC)".into(),
                },
            ));
        }
        if ack.is_auto() {
            return None;
        }
        if ack.is_ok() && ack.ack1 == code {
            let set_times = self
                .clock_in_flight
                .as_ref()
                .is_some_and(|f| matches!(f.command, ClockCommand::SetAndRun { .. }));
            let mut out = self.finish_clock(now, ClockOutcome::Done);
            if set_times {
                // Times set: read them back at once (in update-nice mode the board sends
                // none when they happen to be what the clock showed already).
                out.write.extend(Command::SendClock.encode());
            }
            return Some(out);
        }
        if ack.is_ok() {
            // An ack of something else (a command of an earlier session): not ours.
            return None;
        }
        Some(self.retry_clock(
            now,
            ClockOutcome::Refused {
                reason: format!(
                    "the clock answered with an error (ack {:02x} {:02x})",
                    ack.ack0, ack.ack1
                ),
            },
        ))
    }

    fn clock_timeout(&mut self, now: Millis) -> LinkOutput {
        let due = self
            .clock_in_flight
            .as_ref()
            .is_some_and(|f| now.saturating_sub(f.sent_at) >= self.cfg.clock_ack_timeout_ms);
        if !due {
            return LinkOutput::default();
        }
        let tries = self.cfg.clock_attempts.max(1);
        self.retry_clock(
            now,
            ClockOutcome::Unanswered {
                reason: format!("no answer from the clock after {tries} tries"),
            },
        )
    }

    /// Time passes: retries, keep-alive, silence.
    pub fn tick(&mut self, now: Millis) -> LinkOutput {
        let mut out = LinkOutput::default();
        let since_rx = now.saturating_sub(self.last_rx.unwrap_or(self.started));
        match self.state.clone() {
            LinkPhase::Handshake(step) => {
                if now.saturating_sub(self.started) > self.cfg.silence_timeout_ms.max(1) {
                    let reason = if self.last_rx.is_none() {
                        format!(
                            "no answer on {} (not a DGT board, or switched off?)",
                            self.port
                        )
                    } else {
                        format!("no complete start-up answer on {}", self.port)
                    };
                    return self.lose(now, &reason);
                }
                if now.saturating_sub(self.step_sent) >= self.cfg.answer_timeout_ms {
                    self.step_sent = now;
                    match step {
                        HandshakeStep::Version => {
                            out.write = Command::Reset.encode();
                            out.write.extend(Command::Version.encode());
                        }
                        // Old boards do not know the long serial: fall back.
                        HandshakeStep::LongSerial => {
                            self.state = LinkPhase::Handshake(HandshakeStep::Serial);
                            out.write = Command::SerialNumber.encode();
                        }
                        HandshakeStep::Serial => out.write = Command::SerialNumber.encode(),
                    }
                }
            }
            LinkPhase::Connected => {
                if since_rx > self.cfg.silence_timeout_ms {
                    let reason = format!("no data from the board for {} ms", since_rx);
                    return self.lose(now, &reason);
                }
                if now.saturating_sub(self.last_keepalive) >= self.cfg.keepalive_ms {
                    self.last_keepalive = now;
                    out.write = Command::SerialNumber.encode();
                }
                out.append(self.clock_timeout(now));
            }
            LinkPhase::Idle | LinkPhase::Lost(_) => {}
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dgt::ClockAck;
    use crate::dgt::{Fields, encode_message};

    fn msg(m: Message) -> Vec<u8> {
        encode_message(&m)
    }

    fn session(expected: Option<Identity>) -> LinkSession {
        LinkSession::new(BoardId::A, LinkConfig::default(), "/dev/x", expected)
    }

    #[test]
    fn start_up_sequence() {
        let mut s = session(None);
        assert_eq!(s.start(0).write, [0x40, 0x4d]);
        let o = s.receive(5, &msg(Message::Version { major: 1, minor: 2 }));
        assert_eq!(o.write, [0x55]);
        let o = s.receive(10, &msg(Message::LongSerialNumber("0000012345".into())));
        assert_eq!(o.write, [0x45]);
        let o = s.receive(15, &msg(Message::SerialNumber("12345".into())));
        assert_eq!(o.write, [0x42, 0x4b]);
        assert_eq!(
            o.events,
            vec![BoardEvent {
                board: BoardId::A,
                t_ms: 15,
                kind: BoardEventKind::Connected {
                    port: "/dev/x".into(),
                    serial: Some("0000012345".into()),
                    version: Some((1, 2))
                }
            }]
        );
        let o = s.receive(20, &msg(Message::BoardDump(Fields::empty())));
        assert_eq!(o.events.len(), 1);
        // Keep-alive after a second, its answer swallowed.
        assert_eq!(s.tick(500).write, Vec::<u8>::new());
        assert_eq!(s.tick(1015).write, [0x45]);
        assert!(
            s.receive(1020, &msg(Message::SerialNumber("12345".into())))
                .events
                .is_empty()
        );
        // Silence.
        assert!(s.tick(3000).events.is_empty());
        let o = s.tick(4100);
        assert!(matches!(
            o.events.as_slice(),
            [BoardEvent {
                kind: BoardEventKind::Disconnected { .. },
                ..
            }]
        ));
        assert!(s.lost_reason().is_some());
    }

    #[test]
    fn old_board_without_long_serial_and_retries() {
        let mut s = session(None);
        s.start(0);
        // No answer: reset + version again.
        assert_eq!(s.tick(600).write, [0x40, 0x4d]);
        s.receive(650, &msg(Message::Version { major: 1, minor: 0 }));
        assert_eq!(s.tick(1300).write, [0x45]);
        let o = s.receive(1310, &msg(Message::SerialNumber("54321".into())));
        assert!(s.is_connected());
        assert!(
            matches!(&o.events[0].kind, BoardEventKind::Connected { serial: Some(x), .. } if x == "54321")
        );
    }

    #[test]
    fn silent_port_is_not_a_board() {
        let mut s = session(None);
        s.start(0);
        let o = s.tick(3100);
        assert!(o.events.is_empty(), "never connected: nothing to report");
        assert!(s.lost_reason().unwrap().contains("no answer"));
    }

    #[test]
    fn wrong_board_is_refused() {
        let mut s = session(Some(Identity::from_serial("12345")));
        s.start(0);
        s.receive(5, &msg(Message::Version { major: 1, minor: 2 }));
        s.receive(10, &msg(Message::LongSerialNumber("0000099999".into())));
        let o = s.receive(15, &msg(Message::SerialNumber("99999".into())));
        assert!(o.events.is_empty());
        assert!(s.lost_reason().unwrap().contains("wrong board"));
    }

    #[test]
    fn serial_change_while_connected_is_a_loss() {
        let mut s = session(None);
        s.start(0);
        s.receive(5, &msg(Message::Version { major: 1, minor: 2 }));
        s.tick(700);
        s.receive(710, &msg(Message::SerialNumber("11111".into())));
        assert!(s.is_connected());
        let o = s.receive(900, &msg(Message::SerialNumber("22222".into())));
        assert!(
            matches!(&o.events[0].kind, BoardEventKind::Disconnected { reason } if reason.contains("22222"))
        );
    }

    fn connected() -> LinkSession {
        let mut s = session(None);
        s.start(0);
        s.receive(5, &msg(Message::Version { major: 1, minor: 2 }));
        s.tick(700);
        s.receive(710, &msg(Message::SerialNumber("11111".into())));
        assert!(s.is_connected());
        s
    }

    fn outcomes(o: &LinkOutput) -> Vec<(u64, ClockOutcome)> {
        o.events
            .iter()
            .filter_map(|e| match &e.kind {
                BoardEventKind::ClockCommand { id, outcome } => Some((*id, outcome.clone())),
                _ => None,
            })
            .collect()
    }

    fn ack(ack0: u8, ack1: u8, ack3: u8) -> Vec<u8> {
        msg(Message::ClockAck(ClockAck {
            ack0,
            ack1,
            ack2: 0,
            ack3,
        }))
    }

    #[test]
    fn clock_commands_one_at_a_time_acked_retried_refused() {
        let mut s = connected();
        let o = s.clock_command(800, 1, ClockCommand::ascii("READY"));
        assert_eq!(o.write.first(), Some(&0x2b));
        assert_eq!(outcomes(&o), vec![(1, ClockOutcome::Sent)]);
        // The second waits for the first's ack.
        let o = s.clock_command(810, 2, ClockCommand::Beep { n: 1 });
        assert!(o.write.is_empty() && o.events.is_empty());
        // A button press meanwhile is the core's business.
        let o = s.receive(900, &ack(0x10, 0x88, 0x33));
        assert!(
            matches!(&o.events[0].kind, BoardEventKind::Message(Message::ClockAck(a)) if a.button() == Some(crate::dgt::ClockButton::Run))
        );
        let o = s.receive(1000, &ack(0x10, 0x0c, 0));
        assert_eq!(
            outcomes(&o),
            vec![(1, ClockOutcome::Done), (2, ClockOutcome::Sent)]
        );
        assert_eq!(o.write, [0x2b, 0x04, 0x03, 0x0b, 0x01, 0x00]);
        // An error is tried once more, then refused.
        let o = s.receive(1100, &ack(0x40, 0x0b, 0));
        assert_eq!(o.write, [0x2b, 0x04, 0x03, 0x0b, 0x01, 0x00]);
        let o = s.receive(1200, &ack(0x40, 0x0b, 0));
        assert!(matches!(
            outcomes(&o).as_slice(),
            [(2, ClockOutcome::Refused { .. })]
        ));
        // "Not in mode 23" is a refusal at once.
        s.clock_command(1300, 3, ClockCommand::Version);
        let o = s.receive(1400, &ack(0x10, 0x90, 0));
        assert!(
            matches!(outcomes(&o).as_slice(), [(3, ClockOutcome::Refused { reason })] if reason.contains("mode 23"))
        );
        // No answer: sent again after the timeout, then given up.
        s.clock_command(1500, 4, ClockCommand::End);
        s.receive(2000, &msg(Message::SerialNumber("11111".into())));
        let o = s.tick(3500);
        assert!(
            o.write.ends_with(&[0x2b, 0x03, 0x03, 0x03, 0x00]),
            "{:?}",
            o.write
        );
        s.receive(4000, &msg(Message::SerialNumber("11111".into())));
        let o = s.tick(5500);
        assert!(matches!(
            outcomes(&o).as_slice(),
            [(4, ClockOutcome::Unanswered { .. })]
        ));
        // Lost with the link: what waits is unanswered.
        s.clock_command(5600, 5, ClockCommand::End);
        let o = s.lose(5700, "unplugged");
        assert!(matches!(
            outcomes(&o).as_slice(),
            [(5, ClockOutcome::Unanswered { .. })]
        ));
        let o = s.clock_command(5800, 6, ClockCommand::End);
        assert!(matches!(
            outcomes(&o).as_slice(),
            [(6, ClockOutcome::Unanswered { .. })]
        ));
    }
}
