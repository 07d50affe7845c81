//! `tandem decode CAPTURE`.

use std::path::Path;
use std::process::ExitCode;

pub fn run(_capture: &Path) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`tandem decode` is not built yet")
}
