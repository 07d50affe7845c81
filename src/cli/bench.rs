//! `tandem bench`.

use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct BenchArgs {}

pub fn run(_args: BenchArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`tandem bench` is not built yet")
}
