//! `tandem replay`.

use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct ReplayArgs {}

pub fn run(_args: ReplayArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`tandem replay` is not built yet")
}
