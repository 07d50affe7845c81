//! `tandem station`: the live station without a window (a server in the corner of the
//! playing hall, a CI run, a recovery check). The same session as the app — serial
//! workers, arbiter thread, journal and capture — printing each recorded move and each
//! alert as a JSON line on standard output.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context as _;

use crate::BoardId;
use crate::arbiter::ArbiterConfig;
use crate::arbiter::journal::JournalHeader;
use crate::arbiter::view::MatchView;
use crate::device::profile::{DeviceProfile, PortSpec, Station};
use crate::rules::RulesPreset;
use crate::station::demo::DemoBoards;
use crate::station::{BoardPlan, Session, files};

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
}

pub fn run(args: StationArgs) -> anyhow::Result<ExitCode> {
    let root = args.data_dir.clone().unwrap_or_else(files::data_dir);
    let rules = RulesPreset::load(&args.rules).map_err(anyhow::Error::msg)?;
    let (plans, demo, registry) = boards(&args)?;
    let waker: Arc<dyn Fn() + Send + Sync> = Arc::new(|| {});
    let session = match &args.resume {
        Some(which) => {
            let dir = if which == "latest" {
                files::unfinished(&root)
                    .into_iter()
                    .next()
                    .with_context(|| format!("no unfinished match under {}", root.display()))?
            } else {
                PathBuf::from(which)
            };
            Session::resume(&dir, &plans, registry, waker)?
        }
        None => {
            let (date, time) = files::date_and_time_now();
            let header = JournalHeader {
                config: ArbiterConfig::new(rules.clone()),
                event: if demo.is_some() {
                    "Tandem demo".into()
                } else {
                    "Bughouse match".into()
                },
                site: "?".into(),
                date,
                time: Some(time),
                capture: None,
            };
            let dir = files::new_match_dir(&root, if demo.is_some() { "demo-" } else { "" });
            Session::start(header, &plans, &dir, registry, waker)?
        }
    };
    let mut out = std::io::stdout().lock();
    let view = session.view();
    let _ = writeln!(
        out,
        "{}",
        serde_json::json!({"event": "started", "dir": session.dir().display().to_string(), "plies": view.record.len()})
    );
    let _ = out.flush();
    // The demo's hands play only on a fresh match (a resumed match is played by people).
    let _player = demo
        .as_ref()
        .filter(|_| args.resume.is_none())
        .map(|d| d.play(rules.clone(), args.demo_seed));
    let start = Instant::now();
    let mut printed_plies = view.record.len();
    let mut printed_alerts = view.alerts.len();
    loop {
        std::thread::sleep(Duration::from_millis(100));
        let view = session.view();
        if print_news(&mut out, &view, &mut printed_plies, &mut printed_alerts).is_err() {
            break;
        }
        if args
            .seconds
            .is_some_and(|s| start.elapsed() >= Duration::from_secs(s))
        {
            break;
        }
    }
    session.stop(false);
    Ok(ExitCode::SUCCESS)
}

type Boards = (Vec<BoardPlan>, Option<DemoBoards>, Option<PathBuf>);

fn boards(args: &StationArgs) -> anyhow::Result<Boards> {
    let profile = DeviceProfile::load(&args.boards.profile).map_err(anyhow::Error::msg)?;
    if let Some(path) = &args.boards.station {
        let station = Station::load(path).map_err(anyhow::Error::msg)?;
        let plans = BoardPlan::for_station(&station).map_err(anyhow::Error::msg)?;
        return Ok((plans, None, None));
    }
    let given: Vec<(BoardId, &String)> = [
        (BoardId::A, &args.boards.board_a),
        (BoardId::B, &args.boards.board_b),
    ]
    .into_iter()
    .filter_map(|(b, p)| p.as_ref().map(|p| (b, p)))
    .collect();
    if !given.is_empty() {
        let plans = given
            .into_iter()
            .map(|(board, port)| BoardPlan {
                board,
                port: PortSpec::parse(port),
                profile: profile.clone(),
            })
            .collect();
        return Ok((plans, None, None));
    }
    if args.resume.is_some() {
        // Resuming with no boards named: the record is restored; boards join when named.
        return Ok((Vec::new(), None, None));
    }
    let registry = std::env::temp_dir().join(format!("tandem-station-{}", std::process::id()));
    let demo = DemoBoards::spawn(Some(registry.clone()), args.demo_seed)
        .context("starting the demo's virtual boards")?;
    Ok((demo.plans(), Some(demo), Some(registry)))
}

fn print_news(
    out: &mut impl std::io::Write,
    view: &MatchView,
    plies: &mut usize,
    alerts: &mut usize,
) -> std::io::Result<()> {
    for p in view.record.iter().skip(*plies) {
        writeln!(
            out,
            "{}",
            serde_json::json!({
                "event": "move",
                "t_ms": p.t_ms,
                "board": p.ply.board.letter().to_string(),
                "number": p.ply.number,
                "color": if p.ply.color.is_white() { "white" } else { "black" },
                "san": p.san,
                "clock_ms": p.clock_ms,
            })
        )?;
    }
    // A correction may shorten the record; print from where it stands.
    *plies = view.record.len();
    for a in view.alerts.iter().skip(*alerts) {
        writeln!(out, "{}", a.json_line())?;
    }
    *alerts = view.alerts.len();
    out.flush()
}
