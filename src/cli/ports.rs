//! `tandem ports`.

use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct PortsArgs {}

pub fn run(_args: PortsArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`tandem ports` is not built yet")
}
