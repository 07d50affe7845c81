//! The subcommands of the `tandem` binary, one file each. Each returns the process exit
//! code; errors that end the command come back as `anyhow::Error` and print as one line.

// Before the subcommands' modules: they print with these.
/// `println!` for the subcommands: a stdout closed by its reader (`tandem bench | head`)
/// ends the command with an error that `main` lets go quietly, where `println!` panics.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)*)?;
    }};
}

/// `print!` for the subcommands (see `outln!`).
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout(), $($arg)*)?;
    }};
}

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

/// Did the command end because its stdout was closed (its reader went away, as `head`
/// does once it has its lines)? Nothing is wrong then: the command ends quietly.
#[must_use]
pub fn closed_stdout(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

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

/// Who keeps the boards' time, and the clock buttons.
#[derive(clap::Args, Debug, Default, Clone)]
pub struct ClockArgs {
    /// Who keeps the time: `drive` (the boards' DGT3000s, set up, started, paused and
    /// corrected by Tandem; an older clock or none falls back to reading), `read` (the
    /// DGT clocks read only), `tandem` (Tandem is the clock: USB buttons or keys).
    #[arg(long, value_enum, default_value = "drive")]
    pub clocks: ClocksArg,
    /// Clock buttons file (see devices/buttons.example.ron): input devices whose keys
    /// press the clocks when Tandem is the clock, and the window's keys.
    #[arg(long)]
    pub buttons: Option<std::path::PathBuf>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ClocksArg {
    #[default]
    Drive,
    Read,
    Tandem,
}

impl ClockArgs {
    #[must_use]
    pub fn plan(&self) -> crate::arbiter::ClockPlan {
        match self.clocks {
            ClocksArg::Drive => crate::arbiter::ClockPlan::Drive,
            ClocksArg::Read => crate::arbiter::ClockPlan::Read,
            ClocksArg::Tandem => crate::arbiter::ClockPlan::Tandem,
        }
    }

    /// The buttons file, read and checked.
    pub fn buttons_file(&self) -> anyhow::Result<Option<crate::buttons::ButtonsFile>> {
        self.buttons
            .as_deref()
            .map(crate::buttons::ButtonsFile::load)
            .transpose()
            .map_err(anyhow::Error::msg)
    }
}

/// The spectators' web server of a headless command (`--web ADDR`), announced as its
/// first JSON line (`{"event":"web","addr":…,"urls":[…]}`).
pub(crate) fn start_web(
    addr: Option<std::net::SocketAddr>,
    delay_s: u32,
    out: &mut impl std::io::Write,
) -> anyhow::Result<Option<crate::web::WebServer>> {
    use anyhow::Context as _;
    let Some(addr) = addr else { return Ok(None) };
    let server = crate::web::WebServer::start(addr, u64::from(delay_s) * 1000)
        .with_context(|| format!("the web server cannot listen on {addr}"))?;
    writeln!(
        out,
        "{}",
        serde_json::json!({"event": "web", "addr": server.addr().to_string(), "urls": server.urls()})
    )?;
    Ok(Some(server))
}

/// A committed ply as a headless command prints it (`game`: its match during an evening).
pub(crate) fn move_line(
    p: &crate::arbiter::view::PlyView,
    game: Option<&str>,
) -> serde_json::Value {
    let mut v = serde_json::json!({
        "event": "move",
        "t_ms": p.t_ms,
        "board": p.ply.board.letter().to_string(),
        "number": p.ply.number,
        "color": if p.ply.color.is_white() { "white" } else { "black" },
        "san": p.san,
        "clock_ms": p.clock_ms,
    });
    if let (Some(game), Some(map)) = (game, v.as_object_mut()) {
        map.insert("game".into(), game.into());
    }
    v
}

#[cfg(test)]
mod tests {
    use super::closed_stdout;

    #[test]
    fn a_closed_stdout_is_told_from_other_errors() {
        let pipe = std::io::Error::from(std::io::ErrorKind::BrokenPipe);
        let err = anyhow::Error::from(pipe).context("writing the report");
        assert!(closed_stdout(&err));
        let other = anyhow::Error::from(std::io::Error::from(std::io::ErrorKind::NotFound));
        assert!(!closed_stdout(&other));
        assert!(!closed_stdout(&anyhow::anyhow!("no such preset")));
    }
}
