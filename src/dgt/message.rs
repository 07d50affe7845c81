//! Board → PC messages (reference §1.4) and their encoding (the board side, used by the
//! virtual board).

use serde::{Deserialize, Serialize};

use super::clock::{self, Bwtime, ClockAck, ClockTimes};
use super::fields::Fields;
use super::piece::PieceCode;

/// Message ids as sent (MSB set).
pub mod id {
    pub const BOARD_DUMP: u8 = 0x86;
    pub const BWTIME: u8 = 0x8d;
    pub const FIELD_UPDATE: u8 = 0x8e;
    pub const EE_MOVES: u8 = 0x8f;
    pub const BUSADRES: u8 = 0x90;
    pub const SERIALNR: u8 = 0x91;
    pub const TRADEMARK: u8 = 0x92;
    pub const VERSION: u8 = 0x93;
    pub const BATTERY_STATUS: u8 = 0xa0;
    pub const LONG_SERIALNR: u8 = 0xa2;
}

/// The longest message a board sends: EE_MOVES, 0x2000-0x100 payload bytes plus header.
pub const MAX_MESSAGE_LEN: usize = 0x2000 - 0x100 + 3;

/// The battery report of Bluetooth boards. The layout is only partly documented (and the
/// header contradicts itself on its length), so the raw payload is kept.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BatteryStatus {
    /// Charge in percent; `None` when the board says "not available" (0x7f).
    pub percent: Option<u8>,
    pub raw: Vec<u8>,
}

impl BatteryStatus {
    #[must_use]
    pub fn from_raw(raw: Vec<u8>) -> Self {
        let percent = raw.first().copied().filter(|&p| p <= 100);
        BatteryStatus { percent, raw }
    }
}

/// One message from the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Message {
    /// 0x86: all 64 fields, in the board's numbering.
    BoardDump(Fields),
    /// 0x8E: one field changed (`code` empty = the field became empty).
    FieldUpdate { field: u8, code: PieceCode },
    /// 0x8D with times.
    Clock(ClockTimes),
    /// 0x8D carrying a clock ack.
    ClockAck(ClockAck),
    /// 0x8D with an all-zero payload: a Bluetooth-board quirk, to be ignored.
    ClockEmpty,
    /// 0x91: five ASCII digits.
    SerialNumber(String),
    /// 0xA2: ten ASCII digits.
    LongSerialNumber(String),
    /// 0x93.
    Version { major: u8, minor: u8 },
    /// 0x90: two 7-bit halves.
    BusAddress(u16),
    /// 0x92: ASCII text.
    Trademark(String),
    /// 0xA0.
    Battery(BatteryStatus),
    /// 0x8F: the board's EEPROM log, raw.
    EeMoves { bytes: Vec<u8> },
    /// A known message whose content is impossible (a field past 63, clock digits that are
    /// no BCD or hours past 9): kept raw, never trusted.
    Malformed { id: u8, payload: Vec<u8> },
    /// A well-framed message with an id this decoder does not know (`id` as sent, MSB set),
    /// skipped by its length.
    Unknown { id: u8, len: usize },
    /// Bytes skipped while resynchronising (stray bytes, truncated or impossible messages).
    Garbage { bytes: usize },
}

impl Message {
    /// The snake-case kind name, as in JSON output.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Message::BoardDump(_) => "board_dump",
            Message::FieldUpdate { .. } => "field_update",
            Message::Clock(_) => "clock",
            Message::ClockAck(_) => "clock_ack",
            Message::ClockEmpty => "clock_empty",
            Message::SerialNumber(_) => "serial",
            Message::LongSerialNumber(_) => "long_serial",
            Message::Version { .. } => "version",
            Message::BusAddress(_) => "bus_address",
            Message::Trademark(_) => "trademark",
            Message::Battery(_) => "battery",
            Message::EeMoves { .. } => "ee_moves",
            Message::Malformed { .. } => "malformed",
            Message::Unknown { .. } => "unknown",
            Message::Garbage { .. } => "garbage",
        }
    }
}

/// The total length a message with this id must have, when it is fixed.
#[must_use]
pub fn fixed_len(id: u8) -> Option<usize> {
    match id {
        id::BOARD_DUMP => Some(67),
        id::BWTIME => Some(10),
        id::FIELD_UPDATE | id::BUSADRES | id::VERSION => Some(5),
        id::SERIALNR => Some(8),
        id::LONG_SERIALNR => Some(13),
        _ => None,
    }
}

/// Can a message with this id have this total length (header included)?
#[must_use]
pub fn plausible_len(id: u8, len: usize) -> bool {
    if !(3..=MAX_MESSAGE_LEN).contains(&len) {
        return false;
    }
    match (fixed_len(id), id) {
        (Some(n), _) => len == n,
        (None, id::TRADEMARK) => len <= 3 + 512,
        (None, id::BATTERY_STATUS) => len <= 3 + 32,
        _ => true,
    }
}

fn ascii(payload: &[u8]) -> String {
    payload.iter().map(|&b| char::from(b & 0x7f)).collect()
}

/// Turns a complete, well-framed message (header included, length already checked with
/// [`plausible_len`]) into a [`Message`].
#[must_use]
pub fn decode_frame(frame: &[u8]) -> Message {
    let (Some(&id), Some(payload)) = (frame.first(), frame.get(3..)) else {
        return Message::Garbage { bytes: frame.len() };
    };
    let malformed = || Message::Malformed {
        id,
        payload: payload.to_vec(),
    };
    match id {
        id::BOARD_DUMP => Fields::from_bytes(payload).map_or_else(malformed, Message::BoardDump),
        id::FIELD_UPDATE => match *payload {
            [field, code] if field <= 63 => Message::FieldUpdate {
                field,
                code: PieceCode(code),
            },
            _ => malformed(),
        },
        id::BWTIME => {
            let Ok(p) = <[u8; 7]>::try_from(payload) else {
                return malformed();
            };
            match clock::decode_bwtime(&p) {
                Bwtime::Times(times) => Message::Clock(times),
                Bwtime::Ack(ack) => Message::ClockAck(ack),
                Bwtime::Empty => Message::ClockEmpty,
                Bwtime::Invalid => malformed(),
            }
        }
        id::SERIALNR => Message::SerialNumber(ascii(payload)),
        id::LONG_SERIALNR => Message::LongSerialNumber(ascii(payload)),
        id::TRADEMARK => Message::Trademark(ascii(payload)),
        id::VERSION => match *payload {
            [major, minor] => Message::Version { major, minor },
            _ => malformed(),
        },
        id::BUSADRES => match *payload {
            [hi, lo] => Message::BusAddress((u16::from(hi & 0x7f) << 7) | u16::from(lo & 0x7f)),
            _ => malformed(),
        },
        id::BATTERY_STATUS => Message::Battery(BatteryStatus::from_raw(payload.to_vec())),
        id::EE_MOVES => Message::EeMoves {
            bytes: payload.to_vec(),
        },
        _ => Message::Unknown {
            id,
            len: frame.len(),
        },
    }
}

fn frame(id: u8, payload: &[u8]) -> Vec<u8> {
    let len = (payload.len() + 3).min(0x3fff);
    let mut v = Vec::with_capacity(len);
    v.push(id);
    v.push(((len >> 7) & 0x7f) as u8);
    v.push((len & 0x7f) as u8);
    // Data bytes never carry the MSB on the wire.
    v.extend(payload.iter().take(len - 3).map(|b| b & 0x7f));
    v
}

fn ascii_bytes(s: &str) -> Vec<u8> {
    s.chars().map(|c| (u32::from(c) & 0x7f) as u8).collect()
}

/// The bytes a board sends for `m`: the exact inverse of the decoder for every message the
/// decoder produces from valid input. `Unknown` is sent as its header and zero bytes,
/// `Garbage { bytes }` as that many zero bytes (which decode as garbage again).
#[must_use]
pub fn encode_message(m: &Message) -> Vec<u8> {
    match m {
        Message::BoardDump(fields) => frame(id::BOARD_DUMP, &fields.to_bytes()),
        Message::FieldUpdate { field, code } => frame(id::FIELD_UPDATE, &[*field, code.0]),
        Message::Clock(times) => frame(id::BWTIME, &clock::encode_times(times)),
        Message::ClockAck(ack) => frame(id::BWTIME, &ack.to_payload()),
        Message::ClockEmpty => frame(id::BWTIME, &[0; 7]),
        Message::SerialNumber(value) => frame(id::SERIALNR, &ascii_bytes(value)),
        Message::LongSerialNumber(value) => frame(id::LONG_SERIALNR, &ascii_bytes(value)),
        Message::Version { major, minor } => frame(id::VERSION, &[*major, *minor]),
        Message::BusAddress(value) => frame(
            id::BUSADRES,
            &[((value >> 7) & 0x7f) as u8, (value & 0x7f) as u8],
        ),
        Message::Trademark(value) => frame(id::TRADEMARK, &ascii_bytes(value)),
        Message::Battery(status) => frame(id::BATTERY_STATUS, &status.raw),
        Message::EeMoves { bytes } => frame(id::EE_MOVES, bytes),
        Message::Malformed { id, payload } => frame(*id, payload),
        Message::Unknown { id, len } => frame(*id | 0x80, &vec![0; len.saturating_sub(3)]),
        Message::Garbage { bytes } => vec![0; *bytes],
    }
}
