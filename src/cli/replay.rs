//! `tandem replay CAPTURE|JOURNAL [--rules PRESET_OR_PATH] [--bpgn OUT] [--alerts OUT.jsonl]`:
//! runs a recording through the arbiter exactly as live play would and writes the match's
//! BPGN (stdout without `--bpgn`) and the alerts as JSON lines. The BPGN of a journal
//! keeps the match's own event, site, date and time (a capture's are unknown: `?`), and
//! equals the `match.bpgn` the station left in the match's folder.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;

use crate::arbiter::Output;
use crate::rules::RulesPreset;
use crate::station::{MatchRunner, Recording};

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
    let recording = match Recording::load(&args.recording, &args.rules) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e:#}");
            return Ok(ExitCode::FAILURE);
        }
    };
    let mut runner = MatchRunner::new(recording.header.clone());
    let mut alert_lines = Vec::new();
    let mut keep = |out: &[Output]| {
        for o in out {
            if let Output::AlertRaised(a) = o {
                alert_lines.push(a.json_line());
            }
        }
    };
    runner.replay(&recording.inputs, |_, out| keep(out));
    let tail = runner.finish();
    keep(&tail);
    let bpgn = runner.bpgn();
    match &args.bpgn {
        Some(path) => {
            std::fs::write(path, bpgn).with_context(|| format!("writing {}", path.display()))?
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
