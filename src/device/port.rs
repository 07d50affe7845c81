//! Opening serial ports the one way production does, finding candidate ports, and probing
//! a port for a DGT board.

use std::path::Path;
use std::time::{Duration, Instant};

use serialport::SerialPort;

use crate::dgt::{Command, Decoder, Message};

use super::link::Identity;
use super::profile::DeviceProfile;
use super::registry;

/// Why a port could not be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeviceError {
    #[error("port {port} is busy (another program has it open?)")]
    PortBusy { port: String },
    #[error("port {port} not found (unplugged?)")]
    NotFound { port: String },
    #[error("no permission to open {port} (is the user in the dialout group?)")]
    PermissionDenied { port: String },
    #[error("cannot open {port}: {reason}")]
    Open { port: String, reason: String },
    #[error("no board with serial number {serial} found")]
    NoBoard { serial: String },
}

/// Opens `path` as production does: 8N1 at the profile's baud rate, no flow control,
/// exclusive, the profile's read timeout; stale input is discarded.
pub fn open_port(path: &str, profile: &DeviceProfile) -> Result<Box<dyn SerialPort>, DeviceError> {
    let port = serialport::new(path, profile.baud)
        .data_bits(serialport::DataBits::Eight)
        .parity(serialport::Parity::None)
        .stop_bits(serialport::StopBits::One)
        .flow_control(serialport::FlowControl::None)
        .timeout(Duration::from_millis(profile.read_timeout_ms))
        .open()
        .map_err(|e| map_open_error(path, &e))?;
    let _ = port.clear(serialport::ClearBuffer::Input);
    Ok(port)
}

fn map_open_error(path: &str, e: &serialport::Error) -> DeviceError {
    let port = path.to_string();
    let text = e.to_string();
    match e.kind() {
        // EBUSY (TIOCEXCL held) and a failed flock both come back as NoDevice.
        serialport::ErrorKind::NoDevice
            if text.contains("exclusive") || text.contains("busy") || text.contains("lock") =>
        {
            DeviceError::PortBusy { port }
        }
        serialport::ErrorKind::Io(std::io::ErrorKind::NotFound) => DeviceError::NotFound { port },
        serialport::ErrorKind::NoDevice if !Path::new(path).exists() => {
            DeviceError::NotFound { port }
        }
        serialport::ErrorKind::Io(std::io::ErrorKind::PermissionDenied) => {
            DeviceError::PermissionDenied { port }
        }
        _ => DeviceError::Open { port, reason: text },
    }
}

/// Where a candidate port came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PortSource {
    /// A virtual board's registry entry (named by its serial number).
    Registry { serial: String },
    /// `/dev/serial/by-id/…`.
    ById { name: String },
    /// The system's port list.
    Enumerated(PortInfo),
}

/// What the system knows about a port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortInfo {
    pub kind: String,
    pub vid_pid: Option<(u16, u16)>,
    pub serial_number: Option<String>,
    pub manufacturer: Option<String>,
    pub product: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LikelyPort {
    pub path: String,
    pub source: PortSource,
}

/// Ports a board might be on: virtual boards first (the one named `prefer` first of all),
/// then `/dev/serial/by-id`, then every enumerated port. `all`: also ports that are
/// unlikely to be boards (built-in `ttyS*` and the like), for `tandem ports`.
#[must_use]
pub fn likely_ports(registry_dir: &Path, prefer: Option<&str>, all: bool) -> Vec<LikelyPort> {
    let mut out: Vec<LikelyPort> = Vec::new();
    let mut reg = registry::list(registry_dir);
    reg.sort_by_key(|(s, _)| Some(s.as_str()) != prefer);
    for (serial, target) in reg {
        out.push(LikelyPort {
            path: target.display().to_string(),
            source: PortSource::Registry { serial },
        });
    }
    if let Ok(entries) = std::fs::read_dir("/dev/serial/by-id") {
        let mut by_id: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        by_id.sort();
        for p in by_id {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if let Ok(real) = std::fs::canonicalize(&p) {
                out.push(LikelyPort {
                    path: real.display().to_string(),
                    source: PortSource::ById { name },
                });
            }
        }
    }
    for p in serialport::available_ports().unwrap_or_default() {
        let (kind, usb) = match &p.port_type {
            serialport::SerialPortType::UsbPort(u) => ("usb", Some(u.clone())),
            serialport::SerialPortType::BluetoothPort => ("bluetooth", None),
            serialport::SerialPortType::PciPort => ("pci", None),
            serialport::SerialPortType::Unknown => ("unknown", None),
        };
        let likely = usb.is_some() || kind == "bluetooth" || p.port_name.contains("rfcomm");
        if !likely && !all {
            continue;
        }
        out.push(LikelyPort {
            path: p.port_name.clone(),
            source: PortSource::Enumerated(PortInfo {
                kind: kind.to_string(),
                vid_pid: usb.as_ref().map(|u| (u.vid, u.pid)),
                serial_number: usb.as_ref().and_then(|u| u.serial_number.clone()),
                manufacturer: usb.as_ref().and_then(|u| u.manufacturer.clone()),
                product: usb.as_ref().and_then(|u| u.product.clone()),
            }),
        });
    }
    // One entry per device path (a by-id link and the enumeration name the same port).
    let mut seen = std::collections::HashSet::new();
    out.retain(|c| seen.insert(c.path.clone()));
    out
}

/// What a probe found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Probe {
    Dgt {
        identity: Identity,
        version: Option<(u8, u8)>,
    },
    /// Opened, but nothing that looks like a DGT board answered.
    NotDgt,
    Failed(DeviceError),
}

/// Asks an open port "who are you" (reset, version, long serial, serial) and reads answers
/// for at most `timeout`. Leaves the board idle.
pub fn probe(port: &mut dyn SerialPort, timeout: Duration) -> Probe {
    let mut ask = Command::Reset.encode();
    for c in [
        Command::Version,
        Command::LongSerialNumber,
        Command::SerialNumber,
    ] {
        ask.extend(c.encode());
    }
    if port.write_all(&ask).and_then(|()| port.flush()).is_err() {
        return Probe::NotDgt;
    }
    let deadline = Instant::now() + timeout;
    let mut dec = Decoder::new();
    let mut identity = Identity::default();
    let mut version = None;
    let mut buf = [0u8; 256];
    let mut serial_at: Option<Instant> = None;
    while Instant::now() < deadline {
        // Old boards have no long serial: do not wait long for it once the short one came.
        if serial_at.is_some_and(|t| t.elapsed() > Duration::from_millis(150)) {
            break;
        }
        match port.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                for m in dec.decode(buf.get(..n).unwrap_or_default()) {
                    match m {
                        Message::Version { major, minor } => version = Some((major, minor)),
                        Message::SerialNumber(s) => {
                            identity.serial = Some(s);
                            serial_at = Some(Instant::now());
                        }
                        Message::LongSerialNumber(s) => identity.long_serial = Some(s),
                        _ => {}
                    }
                }
                if identity.serial.is_some() && identity.long_serial.is_some() && version.is_some()
                {
                    break;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
            Err(_) => break,
        }
    }
    if identity.display().is_some() {
        Probe::Dgt { identity, version }
    } else {
        Probe::NotDgt
    }
}

/// Opens and probes `path` (closing it again).
#[must_use]
pub fn probe_path(path: &str, profile: &DeviceProfile, timeout: Duration) -> Probe {
    match open_port(path, profile) {
        Ok(mut p) => probe(p.as_mut(), timeout),
        Err(e) => Probe::Failed(e),
    }
}

/// Looks for the board answering to `serial` on every candidate; returns it open.
pub fn find_by_serial(
    serial: &str,
    profile: &DeviceProfile,
    registry_dir: &Path,
) -> Result<(Box<dyn SerialPort>, String), DeviceError> {
    let timeout = Duration::from_millis(profile.answer_timeout_ms.max(300));
    // The port at `path`, open, if the board on it answers to `serial`.
    let ask = |path: &str| -> Result<Option<Box<dyn SerialPort>>, DeviceError> {
        let mut port = open_port(path, profile)?;
        let ours = matches!(probe(port.as_mut(), timeout),
            Probe::Dgt { identity, .. } if identity.answers_to(serial));
        Ok(ours.then_some(port))
    };
    let mut busy: Vec<String> = Vec::new();
    for c in likely_ports(registry_dir, Some(serial), false) {
        match ask(&c.path) {
            Ok(Some(port)) => return Ok((port, c.path)),
            // The other board's worker may be asking this port who it is right now.
            Err(DeviceError::PortBusy { .. }) => busy.push(c.path),
            Ok(None) | Err(_) => {} // another board, gone, or not ours to open
        }
    }
    // Ports that were busy are asked again once the other worker's probe is over (at most
    // a probe's timeout), so that two boards starting together do not miss each other. (A
    // port busy because the other board is connected on it stays busy: one more try.)
    if !busy.is_empty() {
        std::thread::sleep(timeout);
        for path in busy {
            if let Ok(Some(port)) = ask(&path) {
                return Ok((port, path));
            }
        }
    }
    Err(DeviceError::NoBoard {
        serial: serial.to_string(),
    })
}

/// A port that answered as a DGT board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundBoard {
    pub path: String,
    /// The number it answers to (long serial if known): naming the board by it keeps
    /// boards A and B apart whichever USB socket they end up in.
    pub serial: String,
    pub version: Option<(u8, u8)>,
}

/// Probes every likely port (virtual boards in `registry_dir` included) and returns the DGT
/// boards that answered, and the ports that could not be asked (busy, refused) with why.
#[must_use]
pub fn find_boards(
    registry_dir: &Path,
    profile: &DeviceProfile,
    timeout: Duration,
) -> (Vec<FoundBoard>, Vec<(String, String)>) {
    let mut found = Vec::new();
    let mut failed = Vec::new();
    for c in likely_ports(registry_dir, None, false) {
        match probe_path(&c.path, profile, timeout) {
            Probe::Dgt { identity, version } => {
                if let Some(serial) = identity.display()
                    && !found.iter().any(|f: &FoundBoard| f.serial == serial)
                {
                    found.push(FoundBoard {
                        path: c.path,
                        serial,
                        version,
                    });
                }
            }
            Probe::NotDgt => {}
            Probe::Failed(e) => failed.push((c.path, e.to_string())),
        }
    }
    (found, failed)
}
