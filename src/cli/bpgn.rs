//! `tandem bpgn check FILE...`.

use std::path::PathBuf;
use std::process::ExitCode;

pub fn check(_files: &[PathBuf], _rules: &str) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`tandem bpgn check` is not built yet")
}
