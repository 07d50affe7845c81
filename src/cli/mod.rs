//! The subcommands of the `tandem` binary, one file each. Each returns the process exit
//! code; errors that end the command come back as `anyhow::Error` and print as one line.

pub mod app;
pub mod bench;
pub mod bpgn;
pub mod decode;
pub mod emulate;
pub mod event;
pub mod event_run;
pub mod ports;
pub mod replay;
pub mod station;

/// Which boards to play on, as the app and the headless station both take them.
#[derive(clap::Args, Debug, Default, Clone)]
pub struct BoardArgs {
    /// Station file (RON) mapping boards A and B to ports or serial numbers.
    #[arg(long)]
    pub station: Option<std::path::PathBuf>,
    /// Serial port (or DGT serial number) of board A.
    #[arg(long)]
    pub board_a: Option<String>,
    /// Serial port (or DGT serial number) of board B.
    #[arg(long)]
    pub board_b: Option<String>,
    /// Device profile for --board-a/--board-b (dgt-usb, dgt-bluetooth, virtual, or a path).
    #[arg(long, default_value = "dgt-usb")]
    pub profile: String,
}
