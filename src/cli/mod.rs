//! The subcommands of the `tandem` binary, one file each. Each returns the process exit
//! code; errors that end the command come back as `anyhow::Error` and print as one line.

pub mod app;
pub mod bench;
pub mod bpgn;
pub mod decode;
pub mod emulate;
pub mod ports;
pub mod replay;
pub mod station;
