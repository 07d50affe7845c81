//! `tandem station`: the live station without a window (a server in the corner of the
//! playing hall, a CI run, a recovery check). The same session as the app — serial
//! workers, arbiter thread, the match folder — printing each recorded move and each alert
//! as a JSON line on standard output. With no boards it plays the demo, game after game,
//! as the window does. `--web ADDR` serves the spectators' page and feeds.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context as _;

use crate::BoardId;
use crate::arbiter::view::MatchView;
use crate::arbiter::{ArbiterConfig, TdAction};
use crate::device::profile::{PortSpec, Station};
use crate::rules::RulesPreset;
use crate::station::demo::{self, DemoNews, DemoStation, ready_to_start};
use crate::station::{BoardPlan, MatchFolder, Session, Waker, folder, new_header};
use crate::web::FIRST_MATCH;

#[derive(clap::Args, Debug)]
pub struct StationArgs {
    #[command(flatten)]
    pub boards: super::BoardArgs,
    /// Rules preset name or path.
    #[arg(long, default_value = RulesPreset::DEFAULT_NAME)]
    pub rules: String,
    /// Where matches are kept (default: the data folder).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// Resume an unfinished match: its folder, or `latest`.
    #[arg(long)]
    pub resume: Option<String>,
    /// Stop after this many seconds (default: run until killed).
    #[arg(long)]
    pub seconds: Option<u64>,
    /// Seed of the demo's hands (with no boards given, a demo plays on virtual boards).
    #[arg(long, default_value_t = 1)]
    pub demo_seed: u64,
    /// The demo's hands stop each game after this many plies a board (a quick look at
    /// game after game).
    #[arg(long, default_value_t = demo::GAME_PLIES)]
    pub demo_plies: usize,
    /// Stop once the demo has played this many games (each given its result).
    #[arg(long)]
    pub demo_games: Option<u64>,
    #[command(flatten)]
    pub clocks: super::ClockArgs,
    /// Serve the spectators' page and feeds on this address (`0.0.0.0:8080`, or a port
    /// alone for every network address); off unless given.
    #[arg(long, value_name = "ADDR", value_parser = crate::web::parse_addr)]
    pub web: Option<std::net::SocketAddr>,
    /// Broadcast delay of the web page, in seconds (as the projector's).
    #[arg(long, default_value_t = 0)]
    pub delay: u32,
}

pub fn run(args: StationArgs) -> anyhow::Result<ExitCode> {
    let root = args.data_dir.clone().unwrap_or_else(folder::data_dir);
    let rules = RulesPreset::load(&args.rules).map_err(anyhow::Error::msg)?;
    let waker: Waker = Arc::new(|| {});
    let mut live = match (&args.resume, boards(&args)?) {
        (Some(which), plans) => {
            let dir = if which == "latest" {
                folder::unfinished(&root)
                    .into_iter()
                    .next()
                    .with_context(|| format!("no unfinished match under {}", root.display()))?
            } else {
                PathBuf::from(which)
            };
            // Resuming with no boards named: those it was played on, if its folder says.
            let plans = match plans {
                Some(p) => p,
                None => match MatchFolder::at(&dir).boards()? {
                    Some(station) => {
                        BoardPlan::for_station(&station).map_err(anyhow::Error::msg)?
                    }
                    None => Vec::new(),
                },
            };
            let mut session = Session::resume(&dir, &plans, None, waker)?;
            if let Some(file) = args.clocks.buttons_file()? {
                session.attach_buttons(&file);
            }
            Live::Match(Box::new(session))
        }
        (None, Some(plans)) => {
            let mut config = ArbiterConfig::new(rules);
            let plan = args.clocks.plan();
            config.clocks = crate::ByBoard { a: plan, b: plan };
            // No console here: a clock's play/pause button restarts what it stopped.
            config.clock_button_resumes = true;
            let header = new_header(config, "Bughouse match", "?", &plans);
            let dir = folder::new_match_dir(&root, "");
            let mut session = Session::start(header, &plans, &dir, None, waker)?;
            if let Some(file) = args.clocks.buttons_file()? {
                session.attach_buttons(&file);
            }
            Live::Match(Box::new(session))
        }
        (None, None) => {
            // No boards: the demo, game after game on virtual boards.
            let registry =
                std::env::temp_dir().join(format!("tandem-station-{}", std::process::id()));
            let mut config = ArbiterConfig::new(rules);
            config.players = demo::names();
            let demo_root = root.join("demo");
            let header = new_header(config, "Tandem demo", "?", &[]);
            Live::Demo(Box::new(DemoStation::start(
                &demo_root,
                &registry,
                header,
                args.demo_seed,
                args.demo_plies,
                waker,
            )?))
        }
    };
    let mut out = std::io::stdout().lock();
    let web = super::start_web(args.web, args.delay, &mut out)?;
    let start = Instant::now();
    let mut news = News::default();
    let mut games_done = 0;
    let mut clocks_started = false;
    loop {
        if let Live::Demo(demo) = &mut live {
            match demo.follow() {
                Ok(Some(DemoNews::NextGame { .. })) => games_done += 1,
                Ok(None) => {}
                Err(e) => {
                    eprintln!("tandem: {e:#}");
                    break;
                }
            }
            // The last game counts once it has its result.
            let last_decided = demo.session().is_some_and(|s| s.view().result.is_some());
            if args
                .demo_games
                .is_some_and(|n| games_done + u64::from(last_decided) >= n)
            {
                // Its result is printed before the station stops.
                if let Some(session) = live.session() {
                    news.print(&mut out, session).ok();
                }
                break;
            }
        }
        // No console here to start the driven clocks: the station starts both together
        // once both are set up and both boards show the start position.
        if let Live::Match(session) = &live
            && !clocks_started
            && ready_to_start(&session.view())
        {
            clocks_started = true;
            session.td(TdAction::StartClocks);
        }
        if let Some(session) = live.session() {
            if let Some(web) = &web {
                web.show(FIRST_MATCH, session);
            }
            if news.print(&mut out, session).is_err() {
                break;
            }
        }
        if args
            .seconds
            .is_some_and(|s| start.elapsed() >= Duration::from_secs(s))
        {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    match live {
        Live::Match(session) => session.stop(false),
        Live::Demo(demo) => demo.stop(),
    }
    if let Some(web) = web {
        web.stop();
    }
    Ok(ExitCode::SUCCESS)
}

/// What the headless station runs.
enum Live {
    Match(Box<Session>),
    Demo(Box<DemoStation>),
}

impl Live {
    fn session(&self) -> Option<&Session> {
        match self {
            Live::Match(s) => Some(s),
            Live::Demo(d) => d.session(),
        }
    }
}

/// The boards given on the command line, if any.
fn boards(args: &StationArgs) -> anyhow::Result<Option<Vec<BoardPlan>>> {
    if let Some(path) = &args.boards.station {
        let station = Station::load(path).map_err(anyhow::Error::msg)?;
        let plans = BoardPlan::for_station(&station).map_err(anyhow::Error::msg)?;
        return Ok(Some(plans));
    }
    let given: Vec<(BoardId, &String)> = [
        (BoardId::A, &args.boards.board_a),
        (BoardId::B, &args.boards.board_b),
    ]
    .into_iter()
    .filter_map(|(b, p)| p.as_ref().map(|p| (b, p)))
    .collect();
    if given.is_empty() {
        return Ok(None);
    }
    given
        .into_iter()
        .map(|(board, port)| {
            BoardPlan::new(board, PortSpec::parse(port), &args.boards.profile)
                .map_err(anyhow::Error::msg)
        })
        .collect::<anyhow::Result<Vec<_>>>()
        .map(Some)
}

/// What has been printed of the match being followed.
#[derive(Default)]
struct News {
    dir: Option<PathBuf>,
    plies: usize,
    alerts: usize,
}

impl News {
    /// Prints `started` for a match not seen before, then its new moves and alerts.
    fn print(&mut self, out: &mut impl std::io::Write, session: &Session) -> std::io::Result<()> {
        let view = session.view();
        if self.dir.as_deref() != Some(session.dir()) {
            self.dir = Some(session.dir().to_path_buf());
            self.plies = view.record.len();
            self.alerts = view.alerts.len();
            writeln!(
                out,
                "{}",
                serde_json::json!({"event": "started", "dir": session.dir().display().to_string(), "plies": view.record.len()})
            )?;
        }
        print_news(out, &view, &mut self.plies, &mut self.alerts)
    }
}

fn print_news(
    out: &mut impl std::io::Write,
    view: &MatchView,
    plies: &mut usize,
    alerts: &mut usize,
) -> std::io::Result<()> {
    for p in view.record.iter().skip(*plies) {
        writeln!(out, "{}", super::move_line(p, None))?;
    }
    // A correction may shorten the record; print from where it stands.
    *plies = view.record.len();
    for a in view.alerts.iter().skip(*alerts) {
        writeln!(out, "{}", a.json_line())?;
    }
    *alerts = view.alerts.len();
    out.flush()
}
