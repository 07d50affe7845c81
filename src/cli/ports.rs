//! `tandem ports`: serial ports and virtual boards, and which of them answers as a DGT board.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use crate::device::port::{PortSource, Probe, likely_ports, probe_path};
use crate::device::{DeviceError, DeviceProfile, registry};

#[derive(clap::Args, Debug)]
pub struct PortsArgs {
    /// Only list; do not open the ports to ask who is there.
    #[arg(long)]
    pub no_probe: bool,
    /// Virtual-board registry to list (default: as `tandem emulate`).
    #[arg(long)]
    pub registry: Option<PathBuf>,
    /// How long to wait for each port's answer, in ms.
    #[arg(long, default_value_t = 600)]
    pub timeout_ms: u64,
}

pub fn run(args: PortsArgs) -> anyhow::Result<ExitCode> {
    let dir = args.registry.clone().unwrap_or_else(registry::default_dir);
    let profile = DeviceProfile::default();
    let list = likely_ports(&dir, None, true);
    if list.is_empty() {
        outln!("no serial ports found (virtual boards: {})", dir.display());
    }
    for c in list {
        let what = match &c.source {
            PortSource::Registry { serial } => format!("virtual board, serial {serial}"),
            PortSource::ById { name } => format!("by-id {name}"),
            PortSource::Enumerated(info) => {
                let mut parts = vec![info.kind.clone()];
                if let Some((vid, pid)) = info.vid_pid {
                    parts.push(format!("{vid:04x}:{pid:04x}"));
                }
                if let Some(s) = &info.serial_number {
                    parts.push(format!("usb-serial {s}"));
                }
                parts.extend(info.manufacturer.clone());
                parts.extend(info.product.clone());
                parts.join(" ")
            }
        };
        let answer = if args.no_probe {
            String::new()
        } else {
            let verdict =
                match probe_path(&c.path, &profile, Duration::from_millis(args.timeout_ms)) {
                    Probe::Dgt { identity, version } => {
                        let v = version
                            .map(|(a, b)| format!(", version {a}.{b:02}"))
                            .unwrap_or_default();
                        format!(
                            "DGT board, serial {}{v}",
                            identity.display().unwrap_or_default()
                        )
                    }
                    Probe::NotDgt => "no DGT answer".to_string(),
                    Probe::Failed(e @ DeviceError::PortBusy { .. }) => format!("busy: {e}"),
                    Probe::Failed(e) => e.to_string(),
                };
            format!("  -> {verdict}")
        };
        outln!("{}  ({what}){answer}", c.path);
    }
    Ok(ExitCode::SUCCESS)
}
