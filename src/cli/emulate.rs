//! `tandem emulate`: two virtual DGT boards (A and B) on pseudo-terminals, set up for a
//! game, until Ctrl-C or end of standard input.

use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use crate::BoardId;
use crate::device::registry;
use crate::dgt::{ClockSide, Orientation};
use crate::sim::emulator::{ClockConfig, ClockModel, EmulatorConfig, PhysicalAction};
use crate::sim::{VirtualBoard, VirtualBoardHandle};

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Left,
    Right,
}

#[derive(clap::Args, Debug)]
pub struct EmulateArgs {
    /// Board A is turned 180° (Black on the connector side).
    #[arg(long)]
    pub rotated_a: bool,
    /// Board B is turned 180°.
    #[arg(long)]
    pub rotated_b: bool,
    /// Which clock lever is White's, on both boards.
    #[arg(long, value_enum, default_value = "left")]
    pub white_side: Side,
    /// Time control: minutes+increment seconds, e.g. `5+0` or `3+2`.
    #[arg(long, default_value = "5+0")]
    pub time: String,
    /// Simple delay in seconds per move.
    #[arg(long, default_value_t = 0)]
    pub delay: u64,
    /// No clock plugged into the boards.
    #[arg(long)]
    pub no_clock: bool,
    /// An older clock (a DGT XL in a playing mode): it refuses Tandem's set-and-run and is
    /// only read.
    #[arg(long)]
    pub older_clock: bool,
    /// Bluetooth timing (half-speed scans, slower clock polling).
    #[arg(long)]
    pub bluetooth: bool,
    #[arg(long, default_value = "10001")]
    pub serial_a: String,
    #[arg(long, default_value = "10002")]
    pub serial_b: String,
    /// Seed for the boards' randomness (scan jitter, clock latency).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Registry directory (default: $TANDEM_RUNTIME_DIR, else $XDG_RUNTIME_DIR/tandem/boards,
    /// else /tmp/tandem-$USER/boards).
    #[arg(long)]
    pub registry: Option<PathBuf>,
}

/// `5+3` → (300 000 ms, 3 000 ms).
fn parse_time(s: &str) -> anyhow::Result<(u64, u64)> {
    let (m, i) = s.split_once('+').unwrap_or((s, "0"));
    let minutes: f64 = m
        .trim()
        .parse()
        .with_context(|| format!("bad minutes in --time {s}"))?;
    let inc: u64 = i
        .trim()
        .parse()
        .with_context(|| format!("bad increment in --time {s}"))?;
    anyhow::ensure!(
        minutes.is_finite() && minutes > 0.0 && minutes <= 600.0,
        "--time {s}: minutes must be in 0..600"
    );
    Ok(((minutes * 60_000.0) as u64, inc * 1000))
}

pub fn config(args: &EmulateArgs, board: BoardId) -> anyhow::Result<EmulatorConfig> {
    let (base_ms, increment_ms) = parse_time(&args.time)?;
    let mut cfg = if args.bluetooth {
        EmulatorConfig::bluetooth()
    } else {
        EmulatorConfig::default()
    };
    let rotated = match board {
        BoardId::A => args.rotated_a,
        BoardId::B => args.rotated_b,
    };
    cfg.orientation = if rotated {
        Orientation::Rotated
    } else {
        Orientation::Normal
    };
    cfg.serial = match board {
        BoardId::A => args.serial_a.clone(),
        BoardId::B => args.serial_b.clone(),
    };
    anyhow::ensure!(
        cfg.serial.len() == 5 && cfg.serial.bytes().all(|b| b.is_ascii_digit()),
        "serial number `{}` must be 5 digits",
        cfg.serial
    );
    cfg.clock = (!args.no_clock).then_some(ClockConfig {
        white_side: match args.white_side {
            Side::Left => ClockSide::Left,
            Side::Right => ClockSide::Right,
        },
        base_ms,
        increment_ms,
        delay_ms: args.delay * 1000,
        model: if args.older_clock {
            ClockModel::Older
        } else {
            ClockModel::Dgt3000
        },
    });
    Ok(cfg)
}

/// Starts both boards with the start position set up.
pub fn start(args: &EmulateArgs) -> anyhow::Result<Vec<(BoardId, VirtualBoardHandle)>> {
    anyhow::ensure!(
        args.serial_a != args.serial_b,
        "boards A and B need distinct serial numbers"
    );
    let dir = args.registry.clone().unwrap_or_else(registry::default_dir);
    let mut boards = Vec::new();
    for (i, board) in BoardId::BOTH.into_iter().enumerate() {
        let cfg = config(args, board)?;
        let vb = VirtualBoard::spawn_in(cfg, args.seed.wrapping_add(i as u64), Some(dir.clone()))
            .with_context(|| format!("starting virtual board {board}"))?;
        vb.act(PhysicalAction::SetUpStart);
        boards.push((board, vb));
    }
    Ok(boards)
}

pub fn run(args: EmulateArgs) -> anyhow::Result<ExitCode> {
    let boards = start(&args)?;
    for (board, vb) in &boards {
        outln!("{board}: {} (serial {})", vb.path(), vb.serial());
    }
    let dir = args.registry.clone().unwrap_or_else(registry::default_dir);
    eprintln!(
        "registry: {}; open the paths above or use the serial numbers; Ctrl-C or end of input stops",
        dir.display()
    );
    // Stay up until stdin closes (Ctrl-D, or the parent goes away) or Ctrl-C kills us; the
    // registry tolerates the links a kill leaves behind.
    for line in std::io::stdin().lock().lines() {
        match line {
            Ok(l) if l.trim() == "q" => break,
            Ok(_) => {}
            Err(_) => break,
        }
    }
    for (_, vb) in boards {
        vb.shutdown();
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(parse_time("5+0").unwrap(), (300_000, 0));
        assert_eq!(parse_time("3+2").unwrap(), (180_000, 2000));
        assert_eq!(parse_time("1").unwrap(), (60_000, 0));
        assert!(parse_time("x+1").is_err());
        assert!(parse_time("0+1").is_err());
    }
}
