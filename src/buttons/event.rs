//! The kernel's `struct input_event`, as a Linux input device (`/dev/input/event*`) gives
//! it: on 64-bit Linux 24 bytes, `timeval` (i64 seconds, i64 microseconds), u16 type,
//! u16 code, i32 value, in the machine's byte order (little-endian on the PCs Tandem runs
//! on). Read from any [`Read`]: a device, or a pipe in the tests.

use std::io::Read;

/// Bytes of one record.
pub const RECORD_LEN: usize = 24;

/// Event types and values used here (linux/input-event-codes.h).
pub const EV_SYN: u16 = 0x00;
pub const EV_KEY: u16 = 0x01;
pub const EV_MSC: u16 = 0x04;
/// A key went down.
pub const KEY_PRESS: i32 = 1;
pub const KEY_RELEASE: i32 = 0;
pub const KEY_REPEAT: i32 = 2;

/// One input event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputEvent {
    pub sec: i64,
    pub usec: i64,
    pub kind: u16,
    pub code: u16,
    pub value: i32,
}

impl InputEvent {
    /// The event's time in ms since the Unix epoch (the kernel stamps it when the device
    /// reports it; negative or absurd times give 0).
    #[must_use]
    pub fn unix_ms(&self) -> u64 {
        let s = u64::try_from(self.sec).unwrap_or(0);
        let us = u64::try_from(self.usec.clamp(0, 999_999)).unwrap_or(0);
        s.saturating_mul(1000).saturating_add(us / 1000)
    }

    /// A key (or button) went down.
    #[must_use]
    pub fn is_press(&self) -> bool {
        self.kind == EV_KEY && self.value == KEY_PRESS
    }

    #[must_use]
    pub fn from_bytes(b: &[u8; RECORD_LEN]) -> InputEvent {
        let i64_at = |i: usize| {
            let mut x = [0u8; 8];
            x.copy_from_slice(&b[i..i + 8]);
            i64::from_le_bytes(x)
        };
        InputEvent {
            sec: i64_at(0),
            usec: i64_at(8),
            kind: u16::from_le_bytes([b[16], b[17]]),
            code: u16::from_le_bytes([b[18], b[19]]),
            value: i32::from_le_bytes([b[20], b[21], b[22], b[23]]),
        }
    }

    /// The bytes a device gives for this event.
    #[must_use]
    pub fn to_bytes(&self) -> [u8; RECORD_LEN] {
        let mut b = [0u8; RECORD_LEN];
        b[0..8].copy_from_slice(&self.sec.to_le_bytes());
        b[8..16].copy_from_slice(&self.usec.to_le_bytes());
        b[16..18].copy_from_slice(&self.kind.to_le_bytes());
        b[18..20].copy_from_slice(&self.code.to_le_bytes());
        b[20..24].copy_from_slice(&self.value.to_le_bytes());
        b
    }

    /// What a keyboard-like device sends for one press at `unix_ms`: the scan code
    /// (MSC_SCAN), the key down, a sync report; the release and its sync `hold_ms` later.
    #[must_use]
    pub fn press_sequence(code: u16, unix_ms: u64, hold_ms: u64) -> Vec<InputEvent> {
        let at = |ms: u64, kind: u16, code: u16, value: i32| InputEvent {
            sec: i64::try_from(ms / 1000).unwrap_or(i64::MAX),
            usec: i64::try_from(ms % 1000 * 1000).unwrap_or(0),
            kind,
            code,
            value,
        };
        let up = unix_ms + hold_ms;
        vec![
            at(unix_ms, EV_MSC, 4, 0x7_0000 + i32::from(code)),
            at(unix_ms, EV_KEY, code, KEY_PRESS),
            at(unix_ms, EV_SYN, 0, 0),
            at(up, EV_MSC, 4, 0x7_0000 + i32::from(code)),
            at(up, EV_KEY, code, KEY_RELEASE),
            at(up, EV_SYN, 0, 0),
        ]
    }
}

/// Whole records out of a byte stream read in any chunks.
#[derive(Debug)]
pub struct EventReader<R> {
    inner: R,
    buf: Vec<u8>,
}

/// What one read gave.
#[derive(Debug)]
pub enum Read1 {
    Events(Vec<InputEvent>),
    /// Nothing yet (a non-blocking device with nothing to say).
    Nothing,
    /// The stream ended (a pipe closed, a device unplugged).
    End,
}

impl<R: Read> EventReader<R> {
    pub fn new(inner: R) -> EventReader<R> {
        EventReader {
            inner,
            buf: Vec::with_capacity(RECORD_LEN * 16),
        }
    }

    /// Reads what is there (blocking as the stream does) and returns the whole records.
    pub fn read(&mut self) -> std::io::Result<Read1> {
        let mut chunk = [0u8; RECORD_LEN * 16];
        let n = match self.inner.read(&mut chunk) {
            Ok(0) => return Ok(Read1::End),
            Ok(n) => n,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::Interrupted
                ) =>
            {
                return Ok(Read1::Nothing);
            }
            // An unplugged device reads as "no such device".
            Err(e) if e.raw_os_error() == Some(19) => return Ok(Read1::End),
            Err(e) => return Err(e),
        };
        self.buf
            .extend_from_slice(chunk.get(..n).unwrap_or_default());
        let whole = self.buf.len() / RECORD_LEN * RECORD_LEN;
        let events = self.buf[..whole]
            .chunks_exact(RECORD_LEN)
            .filter_map(|c| <&[u8; RECORD_LEN]>::try_from(c).ok())
            .map(InputEvent::from_bytes)
            .collect();
        self.buf.drain(..whole);
        Ok(Read1::Events(events))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_in_any_chunking() {
        let events = InputEvent::press_sequence(30, 1_700_000_000_123, 80);
        let bytes: Vec<u8> = events.iter().flat_map(InputEvent::to_bytes).collect();
        assert_eq!(bytes.len(), 6 * RECORD_LEN);
        // The key-down record, byte for byte: 1700000000 s, 123000 µs, EV_KEY, 30, 1.
        let down = &bytes[RECORD_LEN..2 * RECORD_LEN];
        assert_eq!(&down[0..8], &1_700_000_000i64.to_le_bytes());
        assert_eq!(&down[8..16], &123_000i64.to_le_bytes());
        assert_eq!(&down[16..24], &[1, 0, 30, 0, 1, 0, 0, 0]);
        struct Dribble(Vec<u8>, usize);
        impl Read for Dribble {
            fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
                let n = self.1.min(out.len()).min(self.0.len());
                out[..n].copy_from_slice(&self.0[..n]);
                self.0.drain(..n);
                Ok(n)
            }
        }
        for step in [1, 5, 24, 25, 1000] {
            let mut r = EventReader::new(Dribble(bytes.clone(), step));
            let mut got = Vec::new();
            loop {
                match r.read().unwrap() {
                    Read1::Events(e) => got.extend(e),
                    Read1::Nothing => {}
                    Read1::End => break,
                }
            }
            assert_eq!(got, events, "chunks of {step}");
        }
        assert!(events[1].is_press() && !events[4].is_press());
        assert_eq!(events[1].unix_ms(), 1_700_000_000_123);
    }
}
