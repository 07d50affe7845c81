//! Device profiles (`devices/*.ron`) and the station file mapping boards A and B to ports.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::BoardId;

/// Which update mode the start-up sequence ends with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum UpdateMode {
    /// 0x4B: field updates, clock only when it changed (what every driver uses).
    UpdateNice,
    /// 0x43: field updates, clock at least every second.
    Update,
    /// 0x44: field updates only, no clock.
    UpdateBoard,
}

/// How to talk to one kind of board, and the sensing facts the arbiter needs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DeviceProfile {
    pub name: String,
    pub baud: u32,
    /// Serial read timeout; a timeout is just "idle".
    pub read_timeout_ms: u64,
    /// Serial-number request interval while connected.
    pub keepalive_ms: u64,
    /// No byte for this long means the board is lost.
    pub silence_timeout_ms: u64,
    /// How often to look for a lost board.
    pub reconnect_poll_ms: u64,
    /// How long to wait for an answer during the start-up sequence before retrying or
    /// falling back (long serial → short serial).
    pub answer_timeout_ms: u64,
    pub update_mode: UpdateMode,
    /// Time for one full scan of the 64 fields (USB ~250, Bluetooth ~500).
    pub scan_period_ms: u64,
    /// Worst delay between a lever press and its message reaching the PC.
    pub clock_latency_ms: u64,
    /// How long to wait for a clock command's ack before sending it again ("usually
    /// within one or two seconds").
    pub clock_ack_timeout_ms: u64,
}

impl Default for DeviceProfile {
    fn default() -> Self {
        DeviceProfile {
            name: "dgt-usb".into(),
            baud: 9600,
            read_timeout_ms: 50,
            keepalive_ms: 1000,
            silence_timeout_ms: 3000,
            reconnect_poll_ms: 1000,
            answer_timeout_ms: 600,
            update_mode: UpdateMode::UpdateNice,
            scan_period_ms: 250,
            clock_latency_ms: 1000,
            clock_ack_timeout_ms: 2000,
        }
    }
}

const BUILT_IN: [(&str, &str); 3] = [
    ("dgt-usb", include_str!("../../devices/dgt-usb.ron")),
    (
        "dgt-bluetooth",
        include_str!("../../devices/dgt-bluetooth.ron"),
    ),
    ("virtual", include_str!("../../devices/virtual.ron")),
];

/// A config file that could not be used. Displays as `FILE:LINE:COL: reason`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("{file}:{line}:{col}: {reason}")]
    Syntax {
        file: String,
        line: usize,
        col: usize,
        reason: String,
    },
    #[error("{file}: {reason}")]
    Invalid { file: String, reason: String },
    #[error("{file}: {reason}")]
    Io { file: String, reason: String },
}

fn parse_ron<T: for<'de> Deserialize<'de>>(file: &str, text: &str) -> Result<T, ConfigError> {
    ron::from_str(text).map_err(|e| ConfigError::Syntax {
        file: file.to_string(),
        line: e.span.start.line,
        col: e.span.start.col,
        reason: e.code.to_string(),
    })
}

fn read(path: &Path) -> Result<String, ConfigError> {
    std::fs::read_to_string(path).map_err(|e| ConfigError::Io {
        file: path.display().to_string(),
        reason: e.to_string(),
    })
}

impl DeviceProfile {
    /// Names of the profiles built into the binary.
    #[must_use]
    pub fn built_in_names() -> Vec<&'static str> {
        BUILT_IN.iter().map(|(n, _)| *n).collect()
    }

    /// A built-in profile by name.
    pub fn built_in(name: &str) -> Option<Result<DeviceProfile, ConfigError>> {
        BUILT_IN
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(n, text)| Self::parse(&format!("<built-in {n}>"), text))
    }

    /// Parses profile text; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<DeviceProfile, ConfigError> {
        let p: DeviceProfile = parse_ron(file, text)?;
        p.check(file)?;
        Ok(p)
    }

    pub fn load_file(path: &Path) -> Result<DeviceProfile, ConfigError> {
        Self::parse(&path.display().to_string(), &read(path)?)
    }

    /// A built-in name (`dgt-usb`, `dgt-bluetooth`, `virtual`) or a path to a RON file.
    pub fn load(name_or_path: &str) -> Result<DeviceProfile, ConfigError> {
        match Self::built_in(name_or_path) {
            Some(p) => p,
            None => Self::load_file(Path::new(name_or_path)),
        }
    }

    fn check(&self, file: &str) -> Result<(), ConfigError> {
        let bad = |reason: &str| {
            Err(ConfigError::Invalid {
                file: file.to_string(),
                reason: reason.to_string(),
            })
        };
        if self.baud == 0 {
            return bad("baud must be positive");
        }
        if self.read_timeout_ms == 0 || self.read_timeout_ms > 1000 {
            return bad("read_timeout_ms must be 1..=1000");
        }
        if self.silence_timeout_ms <= self.keepalive_ms {
            return bad("silence_timeout_ms must be longer than keepalive_ms");
        }
        Ok(())
    }
}

/// Where a board is plugged in.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PortSpec {
    /// A device path (`/dev/ttyUSB0`, `/dev/rfcomm0`, `/dev/pts/3`).
    Path(String),
    /// The board's DGT serial number (5 or 10 digits), looked for on every candidate port.
    Serial(String),
}

impl PortSpec {
    /// Command-line form: a path if it contains `/`, else a serial number.
    #[must_use]
    pub fn parse(s: &str) -> PortSpec {
        if s.contains('/') || s.starts_with("COM") {
            PortSpec::Path(s.to_string())
        } else {
            PortSpec::Serial(s.to_string())
        }
    }
}

impl std::fmt::Display for PortSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PortSpec::Path(p) => write!(f, "{p}"),
            PortSpec::Serial(s) => write!(f, "serial {s}"),
        }
    }
}

/// One board of a station.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StationBoard {
    pub board: BoardId,
    pub port: PortSpec,
    /// A built-in profile name or a path to a profile file.
    pub profile: String,
}

/// The station file: which port (or serial number) each board is on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Station {
    pub boards: Vec<StationBoard>,
}

impl Station {
    pub fn parse(file: &str, text: &str) -> Result<Station, ConfigError> {
        let s: Station = parse_ron(file, text)?;
        for b in BoardId::BOTH {
            let n = s.boards.iter().filter(|x| x.board == b).count();
            if n != 1 {
                return Err(ConfigError::Invalid {
                    file: file.to_string(),
                    reason: format!("board {b} must appear exactly once (found {n})"),
                });
            }
        }
        Ok(s)
    }

    pub fn load(path: &Path) -> Result<Station, ConfigError> {
        Self::parse(&path.display().to_string(), &read(path)?)
    }

    #[must_use]
    pub fn board(&self, b: BoardId) -> Option<&StationBoard> {
        self.boards.iter().find(|x| x.board == b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_profiles_load() {
        for name in DeviceProfile::built_in_names() {
            let p = DeviceProfile::load(name).unwrap();
            assert_eq!(p.name, name);
        }
        let bt = DeviceProfile::load("dgt-bluetooth").unwrap();
        let usb = DeviceProfile::load("dgt-usb").unwrap();
        assert!(bt.scan_period_ms >= 2 * usb.scan_period_ms - 50);
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/devices/");
        for f in ["dgt-usb.ron", "dgt-bluetooth.ron", "virtual.ron"] {
            DeviceProfile::load(&format!("{dir}{f}")).unwrap();
        }
        let st = Station::load(Path::new(&format!("{dir}station.example.ron"))).unwrap();
        assert!(st.board(BoardId::A).is_some() && st.board(BoardId::B).is_some());
    }

    #[test]
    fn broken_file_gets_line_and_column() {
        let text = "(\n    name: \"x\",\n    baud: nine,\n)\n";
        let e = DeviceProfile::parse("p.ron", text).unwrap_err();
        let ConfigError::Syntax { line, col, .. } = &e else {
            panic!("{e}")
        };
        assert_eq!((*line, *col), (3, 10));
        assert!(e.to_string().starts_with("p.ron:3:10: "), "{e}");
        let e = DeviceProfile::parse("p.ron", "(\n  nmae: \"x\",\n)").unwrap_err();
        assert!(e.to_string().starts_with("p.ron:2:"), "{e}");
        let e = Station::parse(
            "s.ron",
            "(boards: [(board: A, port: Path(\"/dev/x\"), profile: \"dgt-usb\")])",
        )
        .unwrap_err();
        assert!(e.to_string().contains("board B"), "{e}");
        let e = DeviceProfile::load("/nonexistent/profile.ron").unwrap_err();
        assert!(e.to_string().starts_with("/nonexistent/profile.ron: "));
    }

    #[test]
    fn port_spec_from_the_command_line() {
        assert_eq!(
            PortSpec::parse("/dev/ttyUSB0"),
            PortSpec::Path("/dev/ttyUSB0".into())
        );
        assert_eq!(PortSpec::parse("12345"), PortSpec::Serial("12345".into()));
    }
}
