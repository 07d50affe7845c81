//! The buttons file (`devices/buttons.example.ron`): which input device's which key is
//! whose clock press, and the keys in Tandem's window that stand in for them.

use std::path::Path;

use serde::{Deserialize, Serialize};
use shakmaty::Color;

use crate::BoardId;
use crate::device::profile::ConfigError;
use crate::rules::Seat;

/// A seat by its BPGN name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SeatName {
    WhiteA,
    BlackA,
    WhiteB,
    BlackB,
}

impl SeatName {
    #[must_use]
    pub fn seat(self) -> Seat {
        match self {
            SeatName::WhiteA => Seat::new(BoardId::A, Color::White),
            SeatName::BlackA => Seat::new(BoardId::A, Color::Black),
            SeatName::WhiteB => Seat::new(BoardId::B, Color::White),
            SeatName::BlackB => Seat::new(BoardId::B, Color::Black),
        }
    }
}

/// One key of a device and whose press it is. `key` is a Linux key name (`KEY_A`,
/// `KEY_F1`, `BTN_0`, `BTN_TRIGGER`, ...) or its number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyMap {
    pub key: String,
    pub seat: SeatName,
}

/// One input device: a foot switch, an arcade-button encoder, a spare keyboard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ButtonDevice {
    /// The device path; `/dev/input/by-id/...` names stay the same when it is plugged in
    /// again or into another socket.
    pub path: String,
    pub keys: Vec<KeyMap>,
}

/// A key in Tandem's window and whose press it is (an egui key name: `F1`, `F5`, ...).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WindowKey {
    pub key: String,
    pub seat: SeatName,
}

/// The buttons file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ButtonsFile {
    #[serde(default)]
    pub devices: Vec<ButtonDevice>,
    /// Keys in Tandem's windows that press a clock (function keys: they type nothing
    /// into a move being entered).
    #[serde(default = "default_window_keys")]
    pub window_keys: Vec<WindowKey>,
    /// The key that stops and restarts both clocks (default F9).
    #[serde(default = "default_pause_key")]
    pub pause_key: String,
}

fn default_pause_key() -> String {
    "F9".to_owned()
}

/// F1–F4: White A, Black A, White B, Black B.
#[must_use]
pub fn default_window_keys() -> Vec<WindowKey> {
    [
        ("F1", SeatName::WhiteA),
        ("F2", SeatName::BlackA),
        ("F3", SeatName::WhiteB),
        ("F4", SeatName::BlackB),
    ]
    .into_iter()
    .map(|(k, seat)| WindowKey {
        key: k.to_owned(),
        seat,
    })
    .collect()
}

impl Default for ButtonsFile {
    fn default() -> Self {
        ButtonsFile {
            devices: Vec::new(),
            window_keys: default_window_keys(),
            pause_key: default_pause_key(),
        }
    }
}

impl ButtonsFile {
    /// Parses the file's text; `file` names it in errors (`FILE:LINE:COL: reason`).
    pub fn parse(file: &str, text: &str) -> Result<ButtonsFile, ConfigError> {
        let f: ButtonsFile = ron::from_str(text).map_err(|e| ConfigError::Syntax {
            file: file.to_owned(),
            line: e.span.start.line,
            col: e.span.start.col,
            reason: e.code.to_string(),
        })?;
        for d in &f.devices {
            for k in &d.keys {
                if key_code(&k.key).is_none() {
                    return Err(ConfigError::Invalid {
                        file: file.to_owned(),
                        reason: format!("{}: unknown key `{}`", d.path, k.key),
                    });
                }
            }
        }
        Ok(f)
    }

    pub fn load(path: &Path) -> Result<ButtonsFile, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError::Io {
            file: path.display().to_string(),
            reason: e.to_string(),
        })?;
        Self::parse(&path.display().to_string(), &text)
    }

    /// The seats whose clocks Tandem keeps with these buttons.
    #[must_use]
    pub fn seats(&self) -> Vec<Seat> {
        let mut v: Vec<Seat> = self
            .devices
            .iter()
            .flat_map(|d| d.keys.iter().map(|k| k.seat.seat()))
            .chain(self.window_keys.iter().map(|k| k.seat.seat()))
            .collect();
        v.sort_by_key(|s| s.index());
        v.dedup();
        v
    }
}

/// A Linux key code by name (`KEY_A`, `KEY_F1`, `KEY_SPACE`, `BTN_0`, `BTN_TRIGGER`, ...)
/// or number (`30`, `0x120`).
#[must_use]
pub fn key_code(name: &str) -> Option<u16> {
    let name = name.trim();
    if let Some(hex) = name.strip_prefix("0x") {
        return u16::from_str_radix(hex, 16).ok();
    }
    if let Ok(n) = name.parse::<u16>() {
        return Some(n);
    }
    const LETTERS: [(char, u16); 26] = [
        ('Q', 16),
        ('W', 17),
        ('E', 18),
        ('R', 19),
        ('T', 20),
        ('Y', 21),
        ('U', 22),
        ('I', 23),
        ('O', 24),
        ('P', 25),
        ('A', 30),
        ('S', 31),
        ('D', 32),
        ('F', 33),
        ('G', 34),
        ('H', 35),
        ('J', 36),
        ('K', 37),
        ('L', 38),
        ('Z', 44),
        ('X', 45),
        ('C', 46),
        ('V', 47),
        ('B', 48),
        ('N', 49),
        ('M', 50),
    ];
    if let Some(rest) = name.strip_prefix("KEY_") {
        let mut chars = rest.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            if let Some((_, code)) = LETTERS.iter().find(|(l, _)| *l == c) {
                return Some(*code);
            }
            if let Some(d) = c.to_digit(10) {
                return Some(if d == 0 { 11 } else { 1 + d as u16 });
            }
        }
        if let Some(n) = rest.strip_prefix('F').and_then(|n| n.parse::<u16>().ok()) {
            return match n {
                1..=10 => Some(58 + n),
                11 => Some(87),
                12 => Some(88),
                _ => None,
            };
        }
        return match rest {
            "SPACE" => Some(57),
            "ENTER" => Some(28),
            "LEFTCTRL" => Some(29),
            "LEFTSHIFT" => Some(42),
            "RIGHTSHIFT" => Some(54),
            "RIGHTCTRL" => Some(97),
            "UP" => Some(103),
            "LEFT" => Some(105),
            "RIGHT" => Some(106),
            "DOWN" => Some(108),
            _ => None,
        };
    }
    if let Some(rest) = name.strip_prefix("BTN_") {
        if let Ok(d) = rest.parse::<u16>()
            && d <= 9
        {
            return Some(0x100 + d);
        }
        return match rest {
            "LEFT" => Some(0x110),
            "RIGHT" => Some(0x111),
            "MIDDLE" => Some(0x112),
            "TRIGGER" => Some(0x120),
            "THUMB" => Some(0x121),
            "THUMB2" => Some(0x122),
            "TOP" => Some(0x123),
            "TOP2" => Some(0x124),
            "PINKIE" => Some(0x125),
            "BASE" => Some(0x126),
            "BASE2" => Some(0x127),
            "BASE3" => Some(0x128),
            "BASE4" => Some(0x129),
            _ => None,
        };
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_file_reads() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/devices/buttons.example.ron");
        let f = ButtonsFile::load(Path::new(path)).unwrap();
        assert_eq!(f.seats().len(), 4);
        assert!(!f.devices.is_empty());
        assert_eq!(f.pause_key, "F9");
    }

    #[test]
    fn key_names() {
        assert_eq!(key_code("KEY_A"), Some(30));
        assert_eq!(key_code("KEY_1"), Some(2));
        assert_eq!(key_code("KEY_0"), Some(11));
        assert_eq!(key_code("KEY_F1"), Some(59));
        assert_eq!(key_code("KEY_F12"), Some(88));
        assert_eq!(key_code("BTN_0"), Some(0x100));
        assert_eq!(key_code("BTN_TRIGGER"), Some(0x120));
        assert_eq!(key_code("0x120"), Some(0x120));
        assert_eq!(key_code("42"), Some(42));
        assert_eq!(key_code("KEY_NOPE"), None);
    }

    #[test]
    fn errors_name_the_place() {
        let e = ButtonsFile::parse("b.ron", "(\n devices: [\n  (path: 3)\n ]\n)").unwrap_err();
        assert!(e.to_string().starts_with("b.ron:3:"), "{e}");
        let e = ButtonsFile::parse(
            "b.ron",
            "(devices: [(path: \"/dev/x\", keys: [(key: \"KEY_WHAT\", seat: WhiteA)])])",
        )
        .unwrap_err();
        assert!(e.to_string().contains("KEY_WHAT"), "{e}");
        let f = ButtonsFile::parse("b.ron", "()").unwrap();
        assert_eq!(f.window_keys.len(), 4);
    }
}
