//! `tandem replay CAPTURE|JOURNAL [--rules PRESET_OR_PATH] [--bpgn OUT] [--alerts OUT.jsonl]`:
//! runs a recording through the arbiter exactly as live play would and writes the match's
//! BPGN (stdout without `--bpgn`) and the alerts as JSON lines.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;

use crate::arbiter::{ArbiterConfig, Output};
use crate::device::capture::read_capture;
use crate::notation::{BpgnHeader, write_bpgn};
use crate::rules::{RulesPreset, Seat};

#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// A `tandem capture v1` file (or a Tandem journal).
    pub recording: PathBuf,
    /// Rules preset name or path to a preset RON file.
    #[arg(long, default_value = RulesPreset::DEFAULT_NAME)]
    pub rules: String,
    /// Write the BPGN here instead of standard output.
    #[arg(long)]
    pub bpgn: Option<PathBuf>,
    /// Write the alerts here, one JSON object per line.
    #[arg(long)]
    pub alerts: Option<PathBuf>,
}

pub fn run(args: ReplayArgs) -> anyhow::Result<ExitCode> {
    let text = match std::fs::read_to_string(&args.recording) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{}: {e}", args.recording.display());
            return Ok(ExitCode::FAILURE);
        }
    };
    let (cfg, events) = if crate::arbiter::journal::is_journal(&text) {
        match crate::arbiter::journal::parse_journal(&text) {
            Ok(j) => (j.config, j.inputs),
            Err(e) => {
                eprintln!("{}:{e}", args.recording.display());
                return Ok(ExitCode::FAILURE);
            }
        }
    } else {
        let chunks = match read_capture(&args.recording) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("{e}");
                return Ok(ExitCode::FAILURE);
            }
        };
        let rules = RulesPreset::load(&args.rules).map_err(anyhow::Error::msg)?;
        let events = crate::replay::capture_events(&chunks)
            .into_iter()
            .map(crate::arbiter::Input::Board)
            .collect();
        (ArbiterConfig::new(rules), events)
    };
    let mut alert_lines = Vec::new();
    let arb = crate::replay::run_inputs(cfg, &events, |o| {
        if let Output::AlertRaised(a) = o {
            alert_lines.push(a.json_line());
        }
    });
    let mut header = BpgnHeader {
        event: format!("Tandem replay of {}", args.recording.display()),
        site: "?".into(),
        ..BpgnHeader::default()
    };
    for seat in Seat::ALL {
        header.set_player(seat, arb.player(seat));
    }
    let bpgn = write_bpgn(arb.game(), &header);
    match &args.bpgn {
        Some(path) => {
            std::fs::write(path, &bpgn).with_context(|| format!("writing {}", path.display()))?
        }
        None => {
            let mut out = std::io::stdout().lock();
            // A closed pipe (`| head`) is not an error worth a message.
            if out.write_all(bpgn.as_bytes()).is_err() {
                return Ok(ExitCode::SUCCESS);
            }
        }
    }
    if let Some(path) = &args.alerts {
        let mut text = alert_lines.join("\n");
        if !text.is_empty() {
            text.push('\n');
        }
        std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}
