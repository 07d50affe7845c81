//! `tandem` / `tandem run`: the TD console and projector.
//!
//! With no boards given it opens on a demo match (two virtual boards played by the demo's
//! hands, through the real serial code); with a station file or `--board-a/--board-b` it
//! opens the set-up screen for real boards; `--resume` picks an unfinished match up.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::station::folder;
use crate::ui::projector_grid::HallChoice;
use crate::ui::{Options, TandemApp};

#[derive(clap::Args, Debug, Default)]
pub struct RunArgs {
    #[command(flatten)]
    pub boards: super::BoardArgs,
    /// Rules preset name or path.
    #[arg(long)]
    pub rules: Option<String>,
    /// With --station or --board-a/--board-b: start the match at once (no set-up screen).
    #[arg(long)]
    pub start: bool,
    /// Player names, "WhiteA,BlackA,WhiteB,BlackB".
    #[arg(long)]
    pub players: Option<String>,
    /// Where matches are kept (default: $TANDEM_DATA_DIR, else ~/.local/share/tandem).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// Resume an unfinished match: the newest one, or the match folder given.
    #[arg(long, num_args = 0..=1, default_missing_value = "")]
    pub resume: Option<PathBuf>,
    /// Do not open the projector window at start.
    #[arg(long)]
    pub no_projector: bool,
    /// Put the projector fullscreen on this monitor (0 = the first).
    #[arg(long)]
    pub projector_monitor: Option<usize>,
    /// Projector fullscreen on its current monitor.
    #[arg(long)]
    pub fullscreen: bool,
    /// Broadcast delay of the projector, in seconds.
    #[arg(long, default_value_t = 0)]
    pub delay: u32,
    /// Seed of the demo's hands.
    #[arg(long, default_value_t = 7)]
    pub seed: u64,
    /// Save a screenshot of the console as console.png in this folder once the app has
    /// run --screenshots-after seconds (scripts/screenshots.sh grabs the projector).
    #[arg(long)]
    pub screenshots: Option<PathBuf>,
    #[arg(long, default_value_t = 45)]
    pub screenshots_after: u64,
    /// With --screenshots: stop both clocks a moment before (the pictures of a pause).
    #[arg(long)]
    pub screenshots_paused: bool,
    #[command(flatten)]
    pub clocks: super::ClockArgs,
    /// Open an event (its name under the data folder's `events`, or its folder),
    /// resuming every game in play.
    #[arg(long)]
    pub event: Option<String>,
    /// An evening of this many teams on virtual boards (a table of two boards a pairing).
    #[arg(long)]
    pub event_demo: Option<usize>,
    /// What the projector shows during an evening: `auto` (the matches, the standings
    /// between rounds), `grid` or `standings`.
    #[arg(long)]
    pub hall: Option<String>,
    /// The demo evening's hands stop each game after this many plies a board.
    #[arg(long, default_value_t = crate::station::demo::GAME_PLIES)]
    pub demo_plies: usize,
    /// Serve the spectators' page and feeds on this address (`0.0.0.0:8080`, or a port
    /// alone for every network address); off unless given. The top bar shows the address
    /// and its QR code.
    #[arg(long, value_name = "ADDR", value_parser = crate::web::parse_addr)]
    pub web: Option<std::net::SocketAddr>,
}

pub fn run(args: RunArgs) -> anyhow::Result<ExitCode> {
    let opts = Options {
        data_dir: args.data_dir.clone().unwrap_or_else(folder::data_dir),
        station: args.boards.station.clone(),
        board_a: args.boards.board_a.clone(),
        board_b: args.boards.board_b.clone(),
        profile: args.boards.profile.clone(),
        rules: args.rules.clone(),
        start: args.start,
        players: args.players.as_deref().map(|p| {
            let mut names: [String; 4] = Default::default();
            for (slot, name) in names.iter_mut().zip(p.split(',')) {
                *slot = name.trim().to_owned();
            }
            names
        }),
        resume: args
            .resume
            .clone()
            .map(|p| (!p.as_os_str().is_empty()).then_some(p)),
        projector: !args.no_projector,
        projector_monitor: args.projector_monitor,
        fullscreen: args.fullscreen,
        delay_s: args.delay,
        seed: args.seed,
        screenshots: args
            .screenshots
            .clone()
            .map(|d| (d, args.screenshots_after * 1000)),
        screenshots_paused: args.screenshots_paused,
        clocks: Some(args.clocks.plan()),
        buttons: args.clocks.buttons_file()?,
        event: args.event.clone(),
        event_demo: args.event_demo,
        demo_plies: args.demo_plies,
        hall: match args.hall.as_deref() {
            None => None,
            Some("auto") => Some(HallChoice::Auto),
            Some("grid") => Some(HallChoice::Grid),
            Some("standings") => Some(HallChoice::Standings),
            Some(other) => anyhow::bail!("--hall {other}: auto, grid or standings"),
        },
        web: args.web,
    };
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Tandem — TD console")
            .with_app_id("tandem")
            .with_inner_size([1366.0, 820.0])
            .with_min_inner_size([960.0, 640.0]),
        ..Default::default()
    };
    eframe::run_native(
        "Tandem",
        native,
        Box::new(move |cc| {
            let monitors: Vec<String> = cc
                .winit_window()
                .map(|w| {
                    w.available_monitors()
                        .enumerate()
                        .map(|(i, m)| m.name().unwrap_or_else(|| format!("monitor {i}")))
                        .collect()
                })
                .unwrap_or_default();
            Ok(Box::new(TandemApp::new(&cc.egui_ctx, opts, monitors)))
        }),
    )
    .map_err(|e| {
        anyhow::anyhow!(
            "the window could not open: {e}\n(no display? `tandem station` runs the same live \
             station without a window; scripts/screenshots.sh runs the app under Xvfb)"
        )
    })?;
    Ok(ExitCode::SUCCESS)
}
