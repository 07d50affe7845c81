//! `tandem` / `tandem run`: the TD console and projector.

use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug, Default)]
pub struct RunArgs {
    /// Station file (RON) mapping boards A and B to ports or serial numbers.
    #[arg(long)]
    pub station: Option<PathBuf>,
    /// Serial port (or DGT serial number) of board A.
    #[arg(long)]
    pub board_a: Option<String>,
    /// Serial port (or DGT serial number) of board B.
    #[arg(long)]
    pub board_b: Option<String>,
    /// Rules preset name or path.
    #[arg(long)]
    pub rules: Option<String>,
}

pub fn run(_args: RunArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("the app is not built yet")
}
