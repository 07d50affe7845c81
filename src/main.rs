//! The `tandem` binary: a thin clap front over the library.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

// The arbiter makes and drops many small readings per field update: mimalloc serves them
// faster than the system allocator (see the README's Speed).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser, Debug)]
#[command(
    name = "tandem",
    version,
    about = "Over-the-board bughouse on DGT e-boards"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<CliCommand>,
    #[command(flatten)]
    run: tandem::cli::app::RunArgs,
}

#[derive(Subcommand, Debug)]
enum CliCommand {
    /// Start the TD console and projector (the default: with no boards given, a demo match
    /// on two virtual boards).
    Run(tandem::cli::app::RunArgs),
    /// BPGN files: check that they replay legally, or convert them for other tools.
    Bpgn {
        #[command(subcommand)]
        command: BpgnCommand,
    },
    /// Print every decoded DGT message of a capture file as JSON lines.
    Decode {
        /// A `tandem capture v1` file.
        capture: PathBuf,
    },
    /// Run a capture (or a journal) through the arbiter and write the BPGN and the alerts.
    Replay(tandem::cli::replay::ReplayArgs),
    /// List serial ports and which of them answers as a DGT board.
    Ports(tandem::cli::ports::PortsArgs),
    /// Start two virtual DGT boards on pseudo-terminals and print their paths.
    Emulate(tandem::cli::emulate::EmulateArgs),
    /// Measure replay throughput and clock-press-to-commit latency.
    Bench(tandem::cli::bench::BenchArgs),
    /// The live station without a window: moves and alerts as JSON lines (a demo on
    /// virtual boards when no boards are given).
    Station(tandem::cli::station::StationArgs),
    /// A club evening: create an event, add teams, pair rounds, enter results, print the
    /// standings, run a round live, or simulate a whole event.
    Event(tandem::cli::event::EventArgs),
}

#[derive(Subcommand, Debug)]
enum BpgnCommand {
    /// Replay each game through the rules; print one line per game, or the first bad move.
    Check {
        /// BPGN files to check.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Rules preset name (e.g. `uscf-bughouse`) or path to a preset RON file.
        #[arg(long, default_value = "uscf-bughouse")]
        rules: String,
    },
    /// Write every game of a BPGN file in another tool's dialect, to stdout.
    Convert {
        /// A BPGN file (Tandem's, FICS/BughouseDB's, ...).
        file: PathBuf,
        /// The dialect to write.
        #[arg(long, value_enum)]
        to: tandem::cli::bpgn::Dialect,
        /// Rules preset name (e.g. `uscf-bughouse`) or path to a preset RON file.
        #[arg(long, default_value = "uscf-bughouse")]
        rules: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => tandem::cli::app::run(cli.run),
        Some(CliCommand::Run(args)) => tandem::cli::app::run(args),
        Some(CliCommand::Bpgn {
            command: BpgnCommand::Check { files, rules },
        }) => tandem::cli::bpgn::check(&files, &rules),
        Some(CliCommand::Bpgn {
            command: BpgnCommand::Convert { file, to, rules },
        }) => tandem::cli::bpgn::convert(&file, to, &rules),
        Some(CliCommand::Decode { capture }) => tandem::cli::decode::run(&capture),
        Some(CliCommand::Replay(args)) => tandem::cli::replay::run(args),
        Some(CliCommand::Ports(args)) => tandem::cli::ports::run(args),
        Some(CliCommand::Emulate(args)) => tandem::cli::emulate::run(args),
        Some(CliCommand::Bench(args)) => tandem::cli::bench::run(args),
        Some(CliCommand::Station(args)) => tandem::cli::station::run(args),
        Some(CliCommand::Event(args)) => tandem::cli::event::run(args),
    };
    match result {
        Ok(code) => code,
        // Its reader closed stdout (`tandem bench | head`): it has what it wanted.
        Err(err) if tandem::cli::closed_stdout(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("tandem: {err:#}");
            ExitCode::FAILURE
        }
    }
}
