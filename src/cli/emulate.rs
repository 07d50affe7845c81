//! `tandem emulate`.

use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct EmulateArgs {}

pub fn run(_args: EmulateArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`tandem emulate` is not built yet")
}
