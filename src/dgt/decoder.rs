//! The incremental board → PC decoder (framing of reference §1.2).
//!
//! A byte with the MSB set always starts a message: whatever was being collected is given
//! up as garbage. Lengths are checked against what the id allows before any payload is
//! collected, so an impossible header can neither swallow the messages that follow nor
//! make the decoder hold more than [`MAX_MESSAGE_LEN`](super::MAX_MESSAGE_LEN) bytes.

use super::message::{self, Message};

/// Board → PC byte stream into [`Message`]s. Feed bytes in any chunking.
#[derive(Debug, Default, Clone)]
pub struct Decoder {
    /// The message being collected (header included); empty between messages.
    frame: Vec<u8>,
    /// Total length announced by the header, once read.
    expected: Option<usize>,
    /// Bytes skipped and not yet reported.
    garbage: usize,
}

impl Decoder {
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Decodes `bytes`, appending complete messages to `out`. Skipped bytes are reported as
    /// one `Garbage` just before the next message start (or by [`Decoder::finish`]).
    pub fn push(&mut self, bytes: &[u8], out: &mut Vec<Message>) {
        for &b in bytes {
            self.push_byte(b, out);
        }
    }

    /// Convenience form of [`Decoder::push`].
    #[must_use]
    pub fn decode(&mut self, bytes: &[u8]) -> Vec<Message> {
        let mut out = Vec::new();
        self.push(bytes, &mut out);
        out
    }

    /// End of stream: reports an unfinished message or trailing skipped bytes as garbage.
    pub fn finish(&mut self, out: &mut Vec<Message>) {
        self.abandon_frame();
        self.flush_garbage(out);
    }

    /// Bytes held for an unfinished message (for tests of the memory bound).
    #[must_use]
    pub fn pending(&self) -> usize {
        self.frame.len()
    }

    fn abandon_frame(&mut self) {
        self.garbage += self.frame.len();
        self.frame.clear();
        self.expected = None;
    }

    fn flush_garbage(&mut self, out: &mut Vec<Message>) {
        if self.garbage > 0 {
            out.push(Message::Garbage {
                bytes: self.garbage,
            });
            self.garbage = 0;
        }
    }

    fn push_byte(&mut self, b: u8, out: &mut Vec<Message>) {
        if b & 0x80 != 0 {
            // A message start: a truncated message before it is garbage.
            self.abandon_frame();
            self.flush_garbage(out);
            self.frame.push(b);
            return;
        }
        let Some(&id) = self.frame.first() else {
            self.garbage += 1;
            return;
        };
        self.frame.push(b);
        if self.frame.len() == 3 {
            let len = match self.frame.as_slice() {
                [_, hi, lo] => (usize::from(*hi) << 7) | usize::from(*lo),
                _ => 0,
            };
            if !message::plausible_len(id, len) {
                // Not a header after all: skip it and wait for the next message start.
                self.abandon_frame();
                return;
            }
            self.expected = Some(len);
        }
        if let Some(len) = self.expected
            && self.frame.len() >= len
        {
            out.push(message::decode_frame(&self.frame));
            self.frame.clear();
            self.expected = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dgt::{Fields, Orientation, PieceCode, encode_message};
    use shakmaty::Board;

    #[test]
    fn three_byte_message_completes_at_its_header() {
        let mut d = Decoder::new();
        assert_eq!(
            d.decode(&[0xc5, 0x00, 0x03]),
            vec![Message::Unknown { id: 0xc5, len: 3 }]
        );
    }

    #[test]
    fn impossible_lengths_are_garbage() {
        let mut d = Decoder::new();
        // A field update announcing 6 bytes, a dump announcing 2, an unknown id past the cap.
        let mut out = d.decode(&[0x8e, 0x00, 0x06, 0x34, 0x00, 0x00]);
        out.extend(d.decode(&[0x86, 0x00, 0x02, 0xc0, 0x7f, 0x7f, 0x01]));
        out.extend(d.decode(&[0x8e, 0x00, 0x05, 0x34, 0x00]));
        assert_eq!(
            out,
            vec![
                Message::Garbage { bytes: 6 },
                Message::Garbage { bytes: 3 },
                Message::Garbage { bytes: 4 },
                Message::FieldUpdate {
                    field: 0x34,
                    code: PieceCode::EMPTY
                },
            ]
        );
    }

    #[test]
    fn memory_stays_bounded() {
        let mut d = Decoder::new();
        let mut out = Vec::new();
        // EE_MOVES at the cap, then far more data bytes than it announced.
        d.push(&[0x8f, 0x3d, 0x7f], &mut out);
        for _ in 0..100 {
            d.push(&[0x55; 1000], &mut out);
            assert!(d.pending() <= crate::dgt::MAX_MESSAGE_LEN);
        }
        assert!(matches!(out.first(), Some(Message::EeMoves { .. })));
    }

    #[test]
    fn dump_round_trip() {
        let f = Fields::from_board(&Board::new(), Orientation::Normal);
        let bytes = encode_message(&Message::BoardDump(f));
        assert_eq!(bytes.len(), 67);
        let mut d = Decoder::new();
        assert_eq!(d.decode(&bytes), vec![Message::BoardDump(f)]);
    }
}
