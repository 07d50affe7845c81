//! PC → board commands (reference §1.3) and clock commands through the board (§1.7).
//!
//! Bootloader and EEPROM-writing commands (0x4E, 0x50–0x54) are deliberately not offered.

use serde::{Deserialize, Serialize};

pub mod byte {
    pub const RESET: u8 = 0x40;
    pub const SEND_CLOCK: u8 = 0x41;
    pub const SEND_BOARD: u8 = 0x42;
    pub const UPDATE: u8 = 0x43;
    pub const UPDATE_BOARD: u8 = 0x44;
    pub const SERIAL_NUMBER: u8 = 0x45;
    pub const BUS_ADDRESS: u8 = 0x46;
    pub const TRADEMARK: u8 = 0x47;
    pub const EE_MOVES: u8 = 0x49;
    pub const UPDATE_NICE: u8 = 0x4b;
    pub const BATTERY: u8 = 0x4c;
    pub const VERSION: u8 = 0x4d;
    pub const LONG_SERIAL_NUMBER: u8 = 0x55;
    pub const CLOCK_MESSAGE: u8 = 0x2b;
    /// DGT_CMD_CLOCK_START_MESSAGE, first byte inside the clock wrapper.
    pub const CLOCK_START: u8 = 0x03;
    pub const CLOCK_END: u8 = 0x00;
}

/// The flags byte of set-and-run (reference §1.7).
pub mod run_flags {
    /// The left side counts down.
    pub const LEFT_RUNS: u8 = 0x01;
    /// The right side counts down.
    pub const RIGHT_RUNS: u8 = 0x02;
    /// Both stand still.
    pub const PAUSE: u8 = 0x04;
    /// A lever press hands the running time to the other side.
    pub const TOGGLE_ON_LEVER: u8 = 0x08;
}

/// A clock time for set-and-run: hours, minutes, seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Hms {
    pub h: u8,
    pub m: u8,
    pub s: u8,
}

impl Hms {
    #[must_use]
    pub fn from_ms(ms: u64) -> Self {
        let secs = (ms / 1000).min(9 * 3600 + 59 * 60 + 59);
        Hms {
            h: (secs / 3600) as u8,
            m: (secs / 60 % 60) as u8,
            s: (secs % 60) as u8,
        }
    }

    #[must_use]
    pub fn to_ms(self) -> u64 {
        (u64::from(self.h) * 3600 + u64::from(self.m) * 60 + u64::from(self.s)) * 1000
    }
}

/// A command for the clock, sent inside the 0x2B wrapper `2B size 03 cmd … 00`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClockCommand {
    /// 0x01: the XL's 7-segment display, bytes C B A F E D as sent.
    Display {
        segments: [u8; 6],
        icons: u8,
        beep: bool,
    },
    /// 0x02: icon bytes i0..i3 and the special byte.
    Icons { icons: [u8; 5] },
    /// 0x03: back to the time display.
    End,
    /// 0x08.
    Button,
    /// 0x09: the clock answers with its version (detects a clock).
    Version,
    /// 0x0A: set times and run. Plain binary h/m/s (as picochess sends them); flags 0x01
    /// left counts down, 0x02 right counts down, 0x04 pause, 0x08 toggle on lever.
    SetAndRun { left: Hms, right: Hms, flags: u8 },
    /// 0x0B: beep `n` × 64 ms.
    Beep { n: u8 },
    /// 0x0C: eight characters on a DGT3000.
    Ascii { text: [u8; 8], beep: u8 },
}

impl ClockCommand {
    /// Eight characters for a DGT3000's display, centred, cut to eight.
    #[must_use]
    pub fn ascii(text: &str) -> ClockCommand {
        let mut bytes = [b' '; 8];
        let t: Vec<u8> = text
            .chars()
            .filter(char::is_ascii)
            .map(|c| c as u8)
            .take(8)
            .collect();
        let pad = (8 - t.len()) / 2;
        for (slot, b) in bytes.iter_mut().skip(pad).zip(t) {
            *slot = b;
        }
        ClockCommand::Ascii {
            text: bytes,
            beep: 0,
        }
    }

    /// A short name for the TD ("set-and-run", "text").
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            ClockCommand::Display { .. } => "display",
            ClockCommand::Icons { .. } => "icons",
            ClockCommand::End => "end",
            ClockCommand::Button => "button",
            ClockCommand::Version => "version",
            ClockCommand::SetAndRun { .. } => "set-and-run",
            ClockCommand::Beep { .. } => "beep",
            ClockCommand::Ascii { .. } => "text",
        }
    }

    #[must_use]
    pub fn code(&self) -> u8 {
        match self {
            ClockCommand::Display { .. } => 0x01,
            ClockCommand::Icons { .. } => 0x02,
            ClockCommand::End => 0x03,
            ClockCommand::Button => 0x08,
            ClockCommand::Version => 0x09,
            ClockCommand::SetAndRun { .. } => 0x0a,
            ClockCommand::Beep { .. } => 0x0b,
            ClockCommand::Ascii { .. } => 0x0c,
        }
    }

    /// Content between the command byte and the final 0x00.
    fn content(&self) -> Vec<u8> {
        match self {
            ClockCommand::Display {
                segments,
                icons,
                beep,
            } => {
                let mut v = segments.to_vec();
                v.push(*icons);
                v.push(if *beep { 0x03 } else { 0x01 });
                v
            }
            ClockCommand::Icons { icons } => {
                let mut v = icons.to_vec();
                v.extend([0, 0, 0]);
                v
            }
            ClockCommand::End | ClockCommand::Button | ClockCommand::Version => Vec::new(),
            ClockCommand::SetAndRun { left, right, flags } => {
                vec![left.h, left.m, left.s, right.h, right.m, right.s, *flags]
            }
            ClockCommand::Beep { n } => vec![*n],
            ClockCommand::Ascii { text, beep } => {
                let mut v = text.to_vec();
                v.push(*beep);
                v
            }
        }
    }

    /// Parses `cmd content…` (the bytes between 0x03 and the final 0x00).
    fn parse(cmd: u8, c: &[u8]) -> Option<ClockCommand> {
        Some(match (cmd, c) {
            (0x01, [c0, c1, c2, c3, c4, c5, icons, beep]) => ClockCommand::Display {
                segments: [*c0, *c1, *c2, *c3, *c4, *c5],
                icons: *icons,
                beep: *beep == 0x03,
            },
            (0x02, [i0, i1, i2, i3, sp, 0, 0, 0]) => ClockCommand::Icons {
                icons: [*i0, *i1, *i2, *i3, *sp],
            },
            (0x03, []) => ClockCommand::End,
            (0x08, []) => ClockCommand::Button,
            (0x09, []) => ClockCommand::Version,
            (0x0a, [lh, lm, ls, rh, rm, rs, flags]) => ClockCommand::SetAndRun {
                left: Hms {
                    h: *lh,
                    m: *lm,
                    s: *ls,
                },
                right: Hms {
                    h: *rh,
                    m: *rm,
                    s: *rs,
                },
                flags: *flags,
            },
            (0x0b, [n]) => ClockCommand::Beep { n: *n },
            (0x0c, c) => {
                let (text, beep) = c.split_first_chunk::<8>()?;
                match beep {
                    [b] => ClockCommand::Ascii {
                        text: *text,
                        beep: *b,
                    },
                    _ => return None,
                }
            }
            _ => return None,
        })
    }
}

/// A PC → board command.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// 0x40: to IDLE, cancels any update mode; no reply.
    Reset,
    /// 0x41: one BWTIME.
    SendClock,
    /// 0x42: one board dump; the mode is unchanged.
    SendBoard,
    /// 0x43: field updates and BWTIME at least every second.
    Update,
    /// 0x44: field updates only.
    UpdateBoard,
    /// 0x45: the 5-digit serial number.
    SerialNumber,
    /// 0x46.
    BusAddress,
    /// 0x47.
    Trademark,
    /// 0x49: read the EEPROM log (~8 KB, ~8 s at 9600 baud); reading only.
    EeMoves,
    /// 0x4B: field updates, BWTIME only when the time info changed.
    UpdateNice,
    /// 0x4C: Bluetooth boards.
    Battery,
    /// 0x4D.
    Version,
    /// 0x55: the 10-digit serial number.
    LongSerialNumber,
    /// 0x2B wrapper.
    Clock(ClockCommand),
}

impl Command {
    /// The bytes to send.
    #[must_use]
    pub fn encode(&self) -> Vec<u8> {
        let b = match self {
            Command::Reset => byte::RESET,
            Command::SendClock => byte::SEND_CLOCK,
            Command::SendBoard => byte::SEND_BOARD,
            Command::Update => byte::UPDATE,
            Command::UpdateBoard => byte::UPDATE_BOARD,
            Command::SerialNumber => byte::SERIAL_NUMBER,
            Command::BusAddress => byte::BUS_ADDRESS,
            Command::Trademark => byte::TRADEMARK,
            Command::EeMoves => byte::EE_MOVES,
            Command::UpdateNice => byte::UPDATE_NICE,
            Command::Battery => byte::BATTERY,
            Command::Version => byte::VERSION,
            Command::LongSerialNumber => byte::LONG_SERIAL_NUMBER,
            Command::Clock(c) => {
                let content = c.content();
                // size counts from the 0x03 to the final 0x00.
                let size = (content.len() + 3) as u8;
                let mut v = vec![byte::CLOCK_MESSAGE, size, byte::CLOCK_START, c.code()];
                v.extend(content);
                v.push(byte::CLOCK_END);
                return v;
            }
        };
        vec![b]
    }

    fn from_byte(b: u8) -> Option<Command> {
        Some(match b {
            byte::RESET => Command::Reset,
            byte::SEND_CLOCK => Command::SendClock,
            byte::SEND_BOARD => Command::SendBoard,
            byte::UPDATE => Command::Update,
            byte::UPDATE_BOARD => Command::UpdateBoard,
            byte::SERIAL_NUMBER => Command::SerialNumber,
            byte::BUS_ADDRESS => Command::BusAddress,
            byte::TRADEMARK => Command::Trademark,
            byte::EE_MOVES => Command::EeMoves,
            byte::UPDATE_NICE => Command::UpdateNice,
            byte::BATTERY => Command::Battery,
            byte::VERSION => Command::Version,
            byte::LONG_SERIAL_NUMBER => Command::LongSerialNumber,
            _ => return None,
        })
    }
}

/// What the board makes of the bytes it receives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandEvent {
    Command(Command),
    /// Bytes that are no command this codec knows (a real board ignores them).
    Unknown(Vec<u8>),
}

/// Longest clock wrapper content accepted (the REV2 ASCII command is the longest known).
const MAX_CLOCK_SIZE: usize = 0x20;

/// PC → board byte stream into commands, as the board (the virtual one) reads it.
#[derive(Debug, Default, Clone)]
pub struct CommandDecoder {
    /// A clock wrapper being collected: `2B size …`.
    clock: Vec<u8>,
}

impl CommandDecoder {
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&mut self, bytes: &[u8], out: &mut Vec<CommandEvent>) {
        for &b in bytes {
            self.push_byte(b, out);
        }
    }

    fn push_byte(&mut self, b: u8, out: &mut Vec<CommandEvent>) {
        if self.clock.is_empty() {
            if b == byte::CLOCK_MESSAGE {
                self.clock.push(b);
            } else {
                out.push(match Command::from_byte(b) {
                    Some(c) => CommandEvent::Command(c),
                    None => CommandEvent::Unknown(vec![b]),
                });
            }
            return;
        }
        self.clock.push(b);
        let size = match self.clock.get(1) {
            Some(&s) => usize::from(s),
            None => return,
        };
        if !(3..=MAX_CLOCK_SIZE).contains(&size) {
            out.push(CommandEvent::Unknown(std::mem::take(&mut self.clock)));
            return;
        }
        if self.clock.len() < size + 2 {
            return;
        }
        let wrapper = std::mem::take(&mut self.clock);
        let parsed = match wrapper.get(2..) {
            Some([byte::CLOCK_START, cmd, content @ .., byte::CLOCK_END]) => {
                ClockCommand::parse(*cmd, content)
            }
            _ => None,
        };
        out.push(match parsed {
            Some(c) => CommandEvent::Command(Command::Clock(c)),
            None => CommandEvent::Unknown(wrapper),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all() -> Vec<Command> {
        vec![
            Command::Reset,
            Command::SendClock,
            Command::SendBoard,
            Command::Update,
            Command::UpdateBoard,
            Command::SerialNumber,
            Command::BusAddress,
            Command::Trademark,
            Command::EeMoves,
            Command::UpdateNice,
            Command::Battery,
            Command::Version,
            Command::LongSerialNumber,
            Command::Clock(ClockCommand::Display {
                segments: [1, 2, 3, 4, 5, 6],
                icons: 7,
                beep: true,
            }),
            Command::Clock(ClockCommand::Icons {
                icons: [1, 2, 3, 4, 5],
            }),
            Command::Clock(ClockCommand::End),
            Command::Clock(ClockCommand::Button),
            Command::Clock(ClockCommand::Version),
            Command::Clock(ClockCommand::SetAndRun {
                left: Hms { h: 0, m: 5, s: 0 },
                right: Hms { h: 1, m: 2, s: 3 },
                flags: 0x09,
            }),
            Command::Clock(ClockCommand::Beep { n: 4 }),
            Command::Clock(ClockCommand::Ascii {
                text: *b"TANDEM  ",
                beep: 0,
            }),
        ]
    }

    #[test]
    fn bytes_as_documented() {
        assert_eq!(Command::Reset.encode(), [0x40]);
        assert_eq!(Command::UpdateNice.encode(), [0x4b]);
        assert_eq!(Command::LongSerialNumber.encode(), [0x55]);
        assert_eq!(
            Command::Clock(ClockCommand::Version).encode(),
            [0x2b, 0x03, 0x03, 0x09, 0x00]
        );
        assert_eq!(
            Command::Clock(ClockCommand::Beep { n: 2 }).encode(),
            [0x2b, 0x04, 0x03, 0x0b, 0x02, 0x00]
        );
        let d = Command::Clock(ClockCommand::Display {
            segments: [0; 6],
            icons: 0,
            beep: false,
        })
        .encode();
        assert_eq!((d.len(), d.get(1)), (13, Some(&0x0b)));
        let s = Command::Clock(ClockCommand::SetAndRun {
            left: Hms::default(),
            right: Hms::default(),
            flags: 0,
        })
        .encode();
        assert_eq!((s.len(), s.get(1)), (12, Some(&0x0a)));
        let i = Command::Clock(ClockCommand::Icons { icons: [0; 5] }).encode();
        assert_eq!((i.len(), i.get(1)), (13, Some(&0x0b)));
        let a = Command::Clock(ClockCommand::Ascii {
            text: [b' '; 8],
            beep: 0,
        })
        .encode();
        assert_eq!((a.len(), a.get(1)), (14, Some(&0x0c)));
    }

    #[test]
    fn decoder_round_trip_in_any_chunking() {
        let cmds = all();
        let bytes: Vec<u8> = cmds.iter().flat_map(Command::encode).collect();
        for chunk in [1, 2, 3, 7, bytes.len()] {
            let mut d = CommandDecoder::new();
            let mut out = Vec::new();
            for c in bytes.chunks(chunk) {
                d.push(c, &mut out);
            }
            let expected: Vec<CommandEvent> =
                cmds.iter().cloned().map(CommandEvent::Command).collect();
            assert_eq!(out, expected);
        }
    }

    #[test]
    fn unknown_bytes_and_bad_wrappers() {
        let mut d = CommandDecoder::new();
        let mut out = Vec::new();
        d.push(
            &[0x4e, 0x2b, 0x7f, 0x40, 0x2b, 0x03, 0x03, 0x77, 0x00],
            &mut out,
        );
        assert_eq!(
            out,
            vec![
                CommandEvent::Unknown(vec![0x4e]),
                CommandEvent::Unknown(vec![0x2b, 0x7f]),
                CommandEvent::Command(Command::Reset),
                CommandEvent::Unknown(vec![0x2b, 0x03, 0x03, 0x77, 0x00]),
            ]
        );
    }
}
