//! `tandem event run`: an evening's round live on this station without a window. Every
//! game in play is resumed from its journal (after a crash or a power cut), the round's
//! games start on their tables (boards found by serial number), each match's result goes
//! into the event, and a match is closed a while after its result, freeing its table for
//! the pairing's next game. It prints one JSON line for each thing that happens. With
//! `--demo` the tables are virtual boards with the demo's hands, and the rounds follow
//! one another to the end of the event.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::event::GameRef;
use crate::station::Waker;
use crate::station::demo::event::{EventDemo, create_demo_event};
use crate::station::event::folder as event_folder;
use crate::station::event::{EventNews, EventStation};

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The event (a name under `<data folder>/events/`, or its folder). None: the newest
    /// event with games in play (after a crash), or with `--demo` a new demo event.
    pub event: Option<String>,
    /// Virtual boards for every table, with the demo's hands playing round after round.
    #[arg(long)]
    pub demo: bool,
    /// Teams of a new demo event.
    #[arg(long, default_value_t = 4)]
    pub teams: usize,
    /// Rules of a new demo event.
    #[arg(long, default_value = crate::rules::RulesPreset::DEFAULT_NAME)]
    pub rules: String,
    /// Pair the next round as soon as one is over (always so with `--demo`).
    #[arg(long)]
    pub auto_pair: bool,
    /// Close a match this many seconds after its result.
    #[arg(long, default_value_t = 10)]
    pub close_after: u64,
    /// Seconds the standings stay up between rounds (`--demo`).
    #[arg(long, default_value_t = 20)]
    pub between_rounds: u64,
    /// Stop after this many seconds (matches in play are left to be resumed).
    #[arg(long)]
    pub seconds: Option<u64>,
    /// The demo's hands stop each game after this many plies a board.
    #[arg(long, default_value_t = crate::station::demo::GAME_PLIES)]
    pub demo_plies: usize,
    #[arg(long, default_value_t = 1)]
    pub demo_seed: u64,
    /// Serve the spectators' page and feeds on this address (every live match, the
    /// standings); off unless given.
    #[arg(long, value_name = "ADDR", value_parser = crate::web::parse_addr)]
    pub web: Option<std::net::SocketAddr>,
    /// Broadcast delay of the web page, in seconds.
    #[arg(long, default_value_t = 0)]
    pub delay: u32,
}

/// What runs the evening.
enum Runner {
    Station(Box<EventStation>),
    Demo(Box<EventDemo>),
}

impl Runner {
    fn station(&self) -> &EventStation {
        match self {
            Runner::Station(s) => s,
            Runner::Demo(d) => d.station(),
        }
    }
}

pub fn run(args: &RunArgs, root: &std::path::Path) -> anyhow::Result<ExitCode> {
    let dir = match (&args.event, args.demo) {
        (Some(e), _) => event_folder::resolve(e, root),
        (None, demo) => match event_folder::unfinished_events(root).into_iter().next() {
            Some(dir) if !demo => dir,
            _ if demo => create_demo_event(root, &args.rules, args.teams)?,
            _ => anyhow::bail!("no event has games in play: name the event to run (or --demo)"),
        },
    };
    let waker: Waker = Arc::new(|| {});
    // A demo's virtual boards are published where only this station looks for them.
    let registry = args
        .demo
        .then(|| std::env::temp_dir().join(format!("tandem-event-{}", std::process::id())));
    let mut station = EventStation::open(&dir, registry.clone(), waker)?;
    station.set_close_after(Some(Duration::from_secs(args.close_after)));
    station.set_without_console();
    let mut out = std::io::stdout().lock();
    let mut runner = match &registry {
        Some(reg) => Runner::Demo(Box::new(EventDemo::start(
            station,
            reg,
            args.demo_seed,
            args.demo_plies,
            Duration::from_secs(args.between_rounds),
        )?)),
        None => {
            if station.event().rounds.is_empty() && args.auto_pair {
                station.pair_next_round()?;
            }
            Runner::Station(Box::new(station))
        }
    };
    print_line(
        &mut out,
        &serde_json::json!({"event": "event", "dir": dir.display().to_string()}),
    )?;
    let delay = u64::from(args.delay) * 1000;
    let web = super::start_web(args.web, args.delay, &mut out)?;
    let start = Instant::now();
    let mut printed: Vec<(GameRef, usize, usize)> = Vec::new();
    let result = loop {
        let news = match &mut runner {
            Runner::Demo(d) => d.follow(),
            Runner::Station(s) => follow_station(s, args.auto_pair),
        };
        let news = match news {
            Ok(n) => n,
            Err(e) => break Err(e),
        };
        for n in &news {
            print_news(&mut out, runner.station(), n)?;
        }
        print_moves(&mut out, runner.station(), &mut printed)?;
        let st = runner.station();
        if let Some(web) = &web {
            web.show_evening(st.live(), &st.hall_event(delay));
        }
        let e = st.event();
        let round_done =
            e.current_round().is_none_or(|r| e.round_complete(r)) && st.live().is_empty();
        let demo = matches!(runner, Runner::Demo(_));
        if round_done && (e.finished() || (!demo && !args.auto_pair)) {
            print_line(
                &mut out,
                &serde_json::json!({"event": "round_over", "finished": e.finished()}),
            )?;
            break Ok(());
        }
        if args
            .seconds
            .is_some_and(|s| start.elapsed() >= Duration::from_secs(s))
        {
            break Ok(());
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    match runner {
        Runner::Station(s) => s.stop(),
        Runner::Demo(d) => d.stop(),
    }
    if let Some(web) = web {
        web.stop();
    }
    if let Some(reg) = registry {
        std::fs::remove_dir_all(reg).ok();
    }
    result.map(|()| ExitCode::SUCCESS)
}

fn follow_station(s: &mut EventStation, auto_pair: bool) -> anyhow::Result<Vec<EventNews>> {
    let mut news = s.follow()?;
    let e = s.event();
    if auto_pair
        && !e.finished()
        && e.current_round().is_none_or(|r| e.round_complete(r))
        && s.live().is_empty()
    {
        s.pair_next_round()?;
    }
    s.start_ready()?;
    s.start_ready_clocks();
    news.extend(s.follow()?);
    Ok(news)
}

fn print_line(out: &mut impl std::io::Write, v: &serde_json::Value) -> anyhow::Result<()> {
    writeln!(out, "{v}")?;
    out.flush()?;
    Ok(())
}

fn print_news(
    out: &mut impl std::io::Write,
    station: &EventStation,
    news: &EventNews,
) -> anyhow::Result<()> {
    let label = |g: &GameRef| station.event().game_label(*g);
    let v = match news {
        EventNews::Started { game, dir } => {
            serde_json::json!({"event": "started", "game": label(game), "dir": dir.display().to_string()})
        }
        EventNews::Resumed { game, dir } => {
            serde_json::json!({"event": "resumed", "game": label(game), "dir": dir.display().to_string()})
        }
        EventNews::Result { game, text } => {
            serde_json::json!({"event": "result", "game": label(game), "result": text})
        }
        EventNews::Withdrawn { game } => {
            serde_json::json!({"event": "withdrawn", "game": label(game)})
        }
        EventNews::Closed { game } => serde_json::json!({"event": "closed", "game": label(game)}),
        EventNews::Paired { round } => serde_json::json!({"event": "paired", "round": round}),
    };
    print_line(out, &v)
}

/// Each live match's new moves and alerts, named by game.
fn print_moves(
    out: &mut impl std::io::Write,
    station: &EventStation,
    printed: &mut Vec<(GameRef, usize, usize)>,
) -> anyhow::Result<()> {
    for m in station.live() {
        let g = m.game();
        let view = m.view();
        let i = match printed.iter().position(|p| p.0 == g) {
            Some(i) => i,
            None => {
                printed.push((g, 0, 0));
                printed.len() - 1
            }
        };
        let label = station.event().game_label(g);
        for p in view.record.iter().skip(printed[i].1) {
            writeln!(out, "{}", super::move_line(p, Some(&label)))?;
        }
        printed[i].1 = view.record.len();
        for a in view.alerts.iter().skip(printed[i].2) {
            let mut v: serde_json::Value = serde_json::from_str(&a.json_line())?;
            v["game"] = serde_json::Value::String(label.clone());
            writeln!(out, "{v}")?;
        }
        printed[i].2 = view.alerts.len();
    }
    out.flush()?;
    Ok(())
}
