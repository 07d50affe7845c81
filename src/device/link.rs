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

use crate::dgt::{Command, Decoder, Message};
use crate::{BoardId, Millis};

use super::profile::{DeviceProfile, UpdateMode};
use crate::arbiter::{BoardEvent, BoardEventKind};

/// Timing of the link, usually taken from a [`DeviceProfile`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkConfig {
    pub keepalive_ms: u64,
    pub silence_timeout_ms: u64,
    pub answer_timeout_ms: u64,
    pub update_mode: UpdateMode,
}

impl From<&DeviceProfile> for LinkConfig {
    fn from(p: &DeviceProfile) -> Self {
        LinkConfig {
            keepalive_ms: p.keepalive_ms,
            silence_timeout_ms: p.silence_timeout_ms,
            answer_timeout_ms: p.answer_timeout_ms,
            update_mode: p.update_mode,
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
            (LinkPhase::Connected, m) => {
                out.events.push(self.event(now, BoardEventKind::Message(m)));
            }
            (LinkPhase::Idle | LinkPhase::Lost(_), _) => {}
        }
        out
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
            }
            LinkPhase::Idle | LinkPhase::Lost(_) => {}
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
}
