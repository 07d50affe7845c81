//! The clock as the board reports it: BWTIME times and status (reference §2.2–§2.4), and
//! clock acks (§1.7). Both travel in the same 7-byte payload of message 0x8D.

use serde::{Deserialize, Serialize};

/// A side of the clock as it stands ("left"/"right" seen from the front), not a colour:
/// clocks may stand on either side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ClockSide {
    Left,
    Right,
}

impl ClockSide {
    #[must_use]
    pub fn other(self) -> ClockSide {
        match self {
            ClockSide::Left => ClockSide::Right,
            ClockSide::Right => ClockSide::Left,
        }
    }

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ClockSide::Left => "left",
            ClockSide::Right => "right",
        }
    }
}

/// One side's display: whole seconds (0..=9:59:59) and the flag bits of its hours byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ClockReading {
    pub seconds: u32,
    /// D4: flag fallen, clock blocked at zero.
    pub flag_fallen: bool,
    /// D6: flag shown, the clock may still run (next period).
    pub flag_shown: bool,
    /// D5: time-per-move indicator (Fischer/Bronstein mode).
    pub time_per_move: bool,
}

impl ClockReading {
    #[must_use]
    pub fn new(seconds: u32) -> Self {
        ClockReading {
            seconds,
            ..Default::default()
        }
    }

    /// `h:mm:ss`.
    #[must_use]
    pub fn hms(&self) -> String {
        let s = self.seconds;
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    }

    /// Either flag bit.
    #[must_use]
    pub fn flag(&self) -> bool {
        self.flag_fallen || self.flag_shown
    }
}

// Status byte p6 bits.
pub const STATUS_RUNNING: u8 = 0x01;
pub const STATUS_LEVER_RIGHT: u8 = 0x02;
pub const STATUS_BATTERY_LOW: u8 = 0x04;
pub const STATUS_TURN_LEFT: u8 = 0x08;
pub const STATUS_TURN_RIGHT: u8 = 0x10;
pub const STATUS_NO_CLOCK: u8 = 0x20;

/// A BWTIME time message. `status` is the raw p6 byte; the other status fields are decoded
/// from it (D1 = lever high on the right, which with D0 means the right side runs —
/// the empirical decode of reference §2.3, not the header's D3/D4 text).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockTimes {
    pub left: ClockReading,
    pub right: ClockReading,
    pub running: Option<ClockSide>,
    pub lever_high: ClockSide,
    pub no_clock: bool,
    pub battery_low: bool,
    pub status: u8,
}

impl ClockTimes {
    /// Times with the status byte a real DGT clock sends: 0x08 stopped/lever high left,
    /// 0x09 left running, 0x12 stopped/lever high right, 0x13 right running.
    #[must_use]
    pub fn new(
        left: ClockReading,
        right: ClockReading,
        lever_high: ClockSide,
        running: bool,
    ) -> Self {
        let mut status = match lever_high {
            ClockSide::Left => STATUS_TURN_LEFT,
            ClockSide::Right => STATUS_LEVER_RIGHT | STATUS_TURN_RIGHT,
        };
        if running {
            status |= STATUS_RUNNING;
        }
        Self::from_parts(left, right, status)
    }

    /// What the board says when no clock is plugged in (D5 set, times zero).
    #[must_use]
    pub fn no_clock() -> Self {
        Self::from_parts(
            ClockReading::default(),
            ClockReading::default(),
            STATUS_NO_CLOCK,
        )
    }

    /// Times plus a raw status byte; the decoded status fields follow from `status`.
    #[must_use]
    pub fn from_parts(left: ClockReading, right: ClockReading, status: u8) -> Self {
        let lever_high = if status & STATUS_LEVER_RIGHT != 0 {
            ClockSide::Right
        } else {
            ClockSide::Left
        };
        ClockTimes {
            left,
            right,
            running: (status & STATUS_RUNNING != 0).then_some(lever_high),
            lever_high,
            no_clock: status & STATUS_NO_CLOCK != 0,
            battery_low: status & STATUS_BATTERY_LOW != 0,
            status,
        }
    }

    #[must_use]
    pub fn side(&self, side: ClockSide) -> &ClockReading {
        match side {
            ClockSide::Left => &self.left,
            ClockSide::Right => &self.right,
        }
    }
}

/// A clock ack, reconstructed from the BWTIME-shaped payload (§1.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockAck {
    pub ack0: u8,
    pub ack1: u8,
    pub ack2: u8,
    pub ack3: u8,
}

/// The five buttons of a DGT3000.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClockButton {
    Back,
    Plus,
    Run,
    Minus,
    Ok,
}

impl ClockButton {
    /// The code ack3 carries for this button.
    #[must_use]
    pub fn code(self) -> u8 {
        match self {
            ClockButton::Back => 0x31,
            ClockButton::Plus => 0x32,
            ClockButton::Run => 0x33,
            ClockButton::Minus => 0x34,
            ClockButton::Ok => 0x35,
        }
    }

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ClockButton::Back => "back",
            ClockButton::Plus => "plus",
            ClockButton::Run => "run",
            ClockButton::Minus => "minus",
            ClockButton::Ok => "ok",
        }
    }
}

impl ClockAck {
    /// ack0 0x10: the command was accepted.
    #[must_use]
    pub fn is_ok(&self) -> bool {
        self.ack0 == 0x10
    }

    /// ack0 0x40: the clock refused the command (e.g. SETNRUN outside mode 23).
    #[must_use]
    pub fn is_error(&self) -> bool {
        self.ack0 == 0x40
    }

    /// Sent by the clock on its own (ready, button, mode), not in answer to a command.
    #[must_use]
    pub fn is_auto(&self) -> bool {
        self.ack1 & 0x80 != 0
    }

    #[must_use]
    pub fn is_button(&self) -> bool {
        self.ack1 == 0x88
    }

    /// The button pressed, for a button ack with a single known button.
    #[must_use]
    pub fn button(&self) -> Option<ClockButton> {
        if !self.is_button() {
            return None;
        }
        match self.ack3 {
            0x31 => Some(ClockButton::Back),
            0x32 => Some(ClockButton::Plus),
            0x33 => Some(ClockButton::Run),
            0x34 => Some(ClockButton::Minus),
            0x35 => Some(ClockButton::Ok),
            _ => None,
        }
    }

    /// An auto-ack 0x90: the clock is not in mode 23, the mode in which it takes its times
    /// from the PC (an XL set to a playing mode refuses set-and-run this way).
    #[must_use]
    pub fn is_not_in_mode(&self) -> bool {
        self.ack1 == 0x90
    }

    /// The clock command (e.g. 0x09 version, 0x0a set-and-run) this ack answers.
    #[must_use]
    pub fn acked_command(&self) -> Option<u8> {
        (!self.is_auto()).then_some(self.ack1)
    }

    /// The clock's firmware version, for an ack of the version command.
    #[must_use]
    pub fn version(&self) -> Option<(u8, u8)> {
        (self.ack1 == 0x09).then_some((self.ack2 >> 4, self.ack2 & 0x0f))
    }

    /// The 7-byte payload that carries this ack (inverse of the reconstruction in §1.7; the
    /// low nibbles of p0 and p3 carry the 0x0a ack marker).
    #[must_use]
    pub fn to_payload(&self) -> [u8; 7] {
        let p0 = 0x0a | ((self.ack2 & 0x80) >> 3) | ((self.ack3 & 0x80) >> 2);
        let p3 = 0x0a | ((self.ack0 & 0x80) >> 3) | ((self.ack1 & 0x80) >> 2);
        [
            p0,
            self.ack0 & 0x7f,
            self.ack1 & 0x7f,
            p3,
            self.ack2 & 0x7f,
            self.ack3 & 0x7f,
            0,
        ]
    }

    #[must_use]
    pub fn from_payload(p: &[u8; 7]) -> Self {
        let [p0, p1, p2, p3, p4, p5, _] = *p;
        ClockAck {
            ack0: (p1 & 0x7f) | ((p3 << 3) & 0x80),
            ack1: (p2 & 0x7f) | ((p3 << 2) & 0x80),
            ack2: (p4 & 0x7f) | ((p0 << 3) & 0x80),
            ack3: (p5 & 0x7f) | ((p0 << 2) & 0x80),
        }
    }
}

/// What a BWTIME payload holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bwtime {
    Times(ClockTimes),
    Ack(ClockAck),
    /// All zero: the BT-board quirk, to be ignored.
    Empty,
    /// Out-of-range hours/BCD: kept raw, never trusted.
    Invalid,
}

/// Is this payload an ack rather than times (§1.7)?
#[must_use]
pub fn is_ack(p: &[u8; 7]) -> bool {
    (p[0] & 0x0f) == 0x0a || (p[3] & 0x0f) == 0x0a
}

fn bcd(b: u8) -> Option<u32> {
    let (tens, units) = (b >> 4, b & 0x0f);
    (tens <= 5 && units <= 9).then_some(u32::from(tens * 10 + units))
}

fn to_bcd(v: u32) -> u8 {
    // v < 60 by construction of the callers.
    let v = (v % 60) as u8;
    ((v / 10) << 4) | (v % 10)
}

fn reading(h: u8, m: u8, s: u8) -> Option<ClockReading> {
    let hours = h & 0x0f;
    if hours > 9 {
        return None;
    }
    Some(ClockReading {
        seconds: u32::from(hours) * 3600 + bcd(m)? * 60 + bcd(s)?,
        flag_fallen: h & 0x10 != 0,
        time_per_move: h & 0x20 != 0,
        flag_shown: h & 0x40 != 0,
    })
}

fn reading_bytes(r: &ClockReading) -> [u8; 3] {
    let secs = r.seconds.min(9 * 3600 + 59 * 60 + 59);
    let mut h = (secs / 3600) as u8;
    if r.flag_fallen {
        h |= 0x10;
    }
    if r.time_per_move {
        h |= 0x20;
    }
    if r.flag_shown {
        h |= 0x40;
    }
    [h, to_bcd(secs / 60 % 60), to_bcd(secs % 60)]
}

/// Decodes a BWTIME payload: p0..p2 the *right* side, p3..p5 the *left*, p6 status.
#[must_use]
pub fn decode_bwtime(p: &[u8; 7]) -> Bwtime {
    if p.iter().all(|&b| b == 0) {
        return Bwtime::Empty;
    }
    if is_ack(p) {
        return Bwtime::Ack(ClockAck::from_payload(p));
    }
    let [p0, p1, p2, p3, p4, p5, p6] = *p;
    match (reading(p0, p1, p2), reading(p3, p4, p5)) {
        (Some(right), Some(left)) => Bwtime::Times(ClockTimes::from_parts(left, right, p6)),
        _ => Bwtime::Invalid,
    }
}

/// The payload of a time message (times above 9:59:59 are shown as 9:59:59).
#[must_use]
pub fn encode_times(t: &ClockTimes) -> [u8; 7] {
    let [r0, r1, r2] = reading_bytes(&t.right);
    let [l0, l1, l2] = reading_bytes(&t.left);
    [r0, r1, r2, l0, l1, l2, t.status & 0x7f]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_capture_statuses() {
        // From real-1.capture: 0:03:02 both, stopped lever left; then left running; right running.
        let p = [0x20, 0x03, 0x02, 0x20, 0x03, 0x02, 0x08];
        let Bwtime::Times(t) = decode_bwtime(&p) else {
            panic!()
        };
        assert_eq!(t.left.hms(), "0:03:02");
        assert!(t.left.time_per_move);
        assert_eq!(t.running, None);
        assert_eq!(t.lever_high, ClockSide::Left);
        let Bwtime::Times(t) = decode_bwtime(&[0x20, 0x03, 0x02, 0x20, 0x02, 0x59, 0x09]) else {
            panic!()
        };
        assert_eq!(t.running, Some(ClockSide::Left));
        assert_eq!(t.left.seconds, 179);
        assert_eq!(t.right.seconds, 182);
        let Bwtime::Times(t) = decode_bwtime(&[0x20, 0x03, 0x01, 0x20, 0x03, 0x01, 0x13]) else {
            panic!()
        };
        assert_eq!(t.running, Some(ClockSide::Right));
        let Bwtime::Times(t) = decode_bwtime(&[0x20, 0x03, 0x01, 0x20, 0x03, 0x01, 0x12]) else {
            panic!()
        };
        assert_eq!((t.running, t.lever_high), (None, ClockSide::Right));
    }

    #[test]
    fn constructed_statuses_match_the_real_clock() {
        let r = ClockReading::new(60);
        assert_eq!(ClockTimes::new(r, r, ClockSide::Left, false).status, 0x08);
        assert_eq!(ClockTimes::new(r, r, ClockSide::Left, true).status, 0x09);
        assert_eq!(ClockTimes::new(r, r, ClockSide::Right, false).status, 0x12);
        assert_eq!(ClockTimes::new(r, r, ClockSide::Right, true).status, 0x13);
        assert!(ClockTimes::no_clock().no_clock);
    }

    #[test]
    fn flags_and_no_clock() {
        let Bwtime::Times(t) = decode_bwtime(&[0x10, 0x00, 0x00, 0x51, 0x02, 0x03, 0x22]) else {
            panic!()
        };
        assert!(t.right.flag_fallen && !t.right.flag_shown);
        assert!(t.left.flag_shown && t.left.flag_fallen);
        assert_eq!(t.left.hms(), "1:02:03");
        assert!(t.no_clock);
        assert_eq!(encode_times(&t), [0x10, 0x00, 0x00, 0x51, 0x02, 0x03, 0x22]);
    }

    #[test]
    fn acks_are_told_apart_and_reconstructed() {
        // Button "OK": ack0 0x10, ack1 0x88, ack3 0x35.
        let ack = ClockAck {
            ack0: 0x10,
            ack1: 0x88,
            ack2: 0x00,
            ack3: 0x35,
        };
        let p = ack.to_payload();
        assert!(is_ack(&p));
        assert_eq!(decode_bwtime(&p), Bwtime::Ack(ack));
        assert_eq!(ack.button(), Some(ClockButton::Ok));
        let v = ClockAck {
            ack0: 0x10,
            ack1: 0x09,
            ack2: 0x21,
            ack3: 0,
        };
        assert_eq!(v.version(), Some((2, 1)));
        assert_eq!(v.acked_command(), Some(0x09));
        // High bits travel through p0/p3.
        let hi = ClockAck {
            ack0: 0x90,
            ack1: 0x81,
            ack2: 0xff,
            ack3: 0x80,
        };
        assert_eq!(decode_bwtime(&hi.to_payload()), Bwtime::Ack(hi));
        // p3 low nibble 0x0a alone also marks an ack.
        assert!(matches!(
            decode_bwtime(&[0x00, 0x10, 0x0a, 0x0a, 0, 0, 0]),
            Bwtime::Ack(_)
        ));
    }

    #[test]
    fn invalid_bcd_and_empty() {
        assert_eq!(decode_bwtime(&[0; 7]), Bwtime::Empty);
        assert_eq!(
            decode_bwtime(&[0x00, 0x60, 0x00, 0, 0, 0, 0x08]),
            Bwtime::Invalid
        );
        assert_eq!(
            decode_bwtime(&[0x00, 0x0b, 0x00, 0, 0, 0, 0x08]),
            Bwtime::Invalid
        );
        assert_eq!(
            decode_bwtime(&[0x0c, 0x00, 0x00, 0, 0, 0, 0x08]),
            Bwtime::Invalid
        );
    }
}
