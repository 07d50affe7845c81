//! The application: which match is live, the screens (set-up, console, replay), the
//! projector window, and the demo's loop.
//!
//! `logic` runs before every frame (and while the window is hidden): it notices link
//! changes, restarts the demo's match record when the demo's hands begin a new game, writes
//! the BPGN once a result stands, and schedules the next repaint. Nothing repaints on a
//! timer except a running clock (once per displayed second) and the projector's broadcast
//! delay; everything else repaints when the station's waker says something changed.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use egui::{RichText, ViewportBuilder, ViewportCommand, ViewportId};

use super::console::{self, Console, ConsoleRequest};
use super::pieces::PieceSet;
use super::replay::{self, Replay};
use super::setup::{self, BoardsChoice, SetupAction, SetupForm, Unfinished};
use super::source::MatchSource;
use super::{projector, text, theme};
use crate::arbiter::journal::JournalHeader;
use crate::arbiter::view::MatchView;
use crate::arbiter::{ArbiterConfig, TdAction, Timing};
use crate::device::profile::{PortSpec, Station, StationBoard};
use crate::rules::{EndReason, MatchResult, RulesPreset, Seat, Team};
use crate::station::demo::{DemoBoards, DemoPlayer};
use crate::station::{BoardPlan, Session, Waker, files};
use crate::{BoardId, Millis};

/// The projector's viewport.
#[must_use]
pub fn projector_id() -> ViewportId {
    ViewportId::from_hash_of("tandem-projector")
}

/// How the app was started (the command line, or a test).
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Where matches are kept (`files::data_dir()` unless given).
    pub data_dir: PathBuf,
    pub station: Option<PathBuf>,
    pub board_a: Option<String>,
    pub board_b: Option<String>,
    /// Device profile for `--board-a/--board-b`.
    pub profile: String,
    pub rules: Option<String>,
    /// With real boards: start the match at once instead of showing the set-up screen.
    pub start: bool,
    /// Player names (WhiteA, BlackA, WhiteB, BlackB) for the set-up form.
    pub players: Option<[String; 4]>,
    /// `--resume`: the newest unfinished match (`None`) or this folder.
    pub resume: Option<Option<PathBuf>>,
    /// Open the projector window at start.
    pub projector: bool,
    pub projector_monitor: Option<usize>,
    pub fullscreen: bool,
    pub delay_s: u32,
    pub seed: u64,
    /// Save `console.png` here once the app has run this long (ms).
    pub screenshots: Option<(PathBuf, Millis)>,
}

impl Options {
    fn has_boards(&self) -> bool {
        self.station.is_some() || self.board_a.is_some() || self.board_b.is_some()
    }
}

/// The projector's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProjectorSettings {
    pub open: bool,
    /// Borderless fullscreen on this monitor (winit's order).
    pub monitor: Option<usize>,
    pub fullscreen: bool,
    /// Broadcast delay in seconds.
    pub delay_s: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Screen {
    Console,
    Setup,
    Replay,
}

/// The demo's boards and hands, and the game of theirs the live record follows.
struct Demo {
    boards: DemoBoards,
    player: DemoPlayer,
    seen: u64,
    /// Games of the hands seen finished.
    finished: u64,
    /// When to give the stopped game its result (the last presses are judged first).
    adjudicate_at: Option<Millis>,
    registry: PathBuf,
    root: PathBuf,
}

/// The live match.
struct Live {
    source: Box<dyn MatchSource>,
    demo: Option<Demo>,
}

/// Games finished during this run, for the match score between the same teams.
#[derive(Default)]
struct Tally {
    games: Vec<([String; 2], [f32; 2])>,
}

/// A team as the set of its players' names (board and colour may change between games).
fn team_key(view: &MatchView, t: Team) -> String {
    let mut names: Vec<String> = t
        .seats()
        .iter()
        .map(|s| view.player(*s).trim().to_lowercase())
        .collect();
    names.sort();
    names.join(" & ")
}

impl Tally {
    fn add(&mut self, view: &MatchView) {
        if let Some(r) = &view.result {
            self.games.push((
                [team_key(view, Team::WhiteA), team_key(view, Team::BlackA)],
                r.score,
            ));
        }
    }

    /// Points of earlier games for (team WhiteA, team BlackA) of this view.
    fn earlier(&self, view: &MatchView) -> [f32; 2] {
        let keys = [team_key(view, Team::WhiteA), team_key(view, Team::BlackA)];
        let mut pts = [0.0, 0.0];
        for (k, s) in &self.games {
            if k[0] == keys[0] && k[1] == keys[1] {
                pts[0] += s[0];
                pts[1] += s[1];
            } else if k[0] == keys[1] && k[1] == keys[0] {
                pts[0] += s[1];
                pts[1] += s[0];
            }
        }
        pts
    }
}

/// The Tandem app: TD console in the main window, projector in a second one.
pub struct TandemApp {
    opts: Options,
    waker: Waker,
    pieces: Option<PieceSet>,
    live: Option<Live>,
    screen: Screen,
    pub console: Console,
    setup: SetupForm,
    unfinished: Vec<Unfinished>,
    resume_prompt: bool,
    replay: Option<Replay>,
    pub projector: ProjectorSettings,
    monitors: Vec<String>,
    tally: Tally,
    /// An error to show the TD (a match that would not start, a file that would not open).
    pub message: Option<String>,
    shots_taken: bool,
}

impl TandemApp {
    /// The app as the command line starts it: a demo out of the box, the set-up screen
    /// for real boards, or straight back into an unfinished match with `--resume`.
    #[must_use]
    pub fn new(ctx: &egui::Context, opts: Options, monitors: Vec<String>) -> TandemApp {
        let mut app = Self::bare(ctx, opts, monitors);
        app.unfinished = files::unfinished(&app.opts.data_dir)
            .iter()
            .take(5)
            .map(|d| Unfinished::read(d))
            .collect();
        if let Some(which) = app.opts.resume.clone() {
            let dir = which.or_else(|| app.unfinished.first().map(|u| u.dir.clone()));
            match dir {
                Some(dir) => {
                    if let Err(e) = app.resume(&dir) {
                        app.message = Some(format!("{e:#}"));
                        app.screen = Screen::Setup;
                    }
                }
                None => {
                    app.message = Some("No unfinished match to resume".to_owned());
                    app.screen = Screen::Setup;
                }
            }
            return app;
        }
        app.resume_prompt = !app.unfinished.is_empty();
        if app.opts.has_boards() {
            app.setup.boards = if app.opts.station.is_some() {
                BoardsChoice::Station
            } else {
                BoardsChoice::Ports
            };
            app.screen = Screen::Setup;
            if app.opts.start
                && let Err(e) = app.start_from_form()
            {
                app.setup.error = Some(format!("{e:#}"));
            }
        } else {
            if app.opts.players.is_none() {
                app.setup.names = demo_names();
            }
            app.setup.event = "Tandem demo".to_owned();
            if let Err(e) = app.start_from_form() {
                app.message = Some(format!("The demo could not start: {e:#}"));
                app.screen = Screen::Setup;
            }
        }
        app
    }

    /// The app showing a given match (tests, embedding).
    #[must_use]
    pub fn with_source(ctx: &egui::Context, source: Box<dyn MatchSource>, opts: Options) -> Self {
        let mut app = Self::bare(ctx, opts, Vec::new());
        app.live = Some(Live { source, demo: None });
        app.screen = Screen::Console;
        app
    }

    fn bare(ctx: &egui::Context, opts: Options, monitors: Vec<String>) -> TandemApp {
        let waker_ctx = ctx.clone();
        // A burst of board messages (a move is reported square by square over a scan)
        // becomes one frame; a tenth of a second is not noticed.
        let waker: Waker =
            Arc::new(move || waker_ctx.request_repaint_after(Duration::from_millis(100)));
        let mut setup = SetupForm::new(opts.rules.as_deref().unwrap_or(RulesPreset::DEFAULT_NAME));
        if let Some(s) = &opts.station {
            setup.station = s.display().to_string();
        }
        setup.port_a = opts.board_a.clone().unwrap_or_default();
        setup.port_b = opts.board_b.clone().unwrap_or_default();
        if !opts.profile.is_empty() {
            setup.profile.clone_from(&opts.profile);
        }
        if let Some(names) = &opts.players {
            setup.names.clone_from(names);
        }
        let projector = ProjectorSettings {
            open: opts.projector,
            monitor: opts.projector_monitor,
            fullscreen: opts.fullscreen,
            delay_s: opts.delay_s,
        };
        style(ctx);
        TandemApp {
            pieces: PieceSet::load(ctx),
            waker,
            live: None,
            screen: Screen::Setup,
            console: Console::default(),
            setup,
            unfinished: Vec::new(),
            resume_prompt: false,
            replay: None,
            projector,
            monitors,
            tally: Tally::default(),
            message: None,
            shots_taken: false,
            opts,
        }
    }

    /// The live match's view, if there is one.
    #[must_use]
    pub fn view(&self) -> Option<Arc<MatchView>> {
        self.live.as_ref().map(|l| l.source.view())
    }

    // ----------------------------------------------------------------------------------
    // Starting and stopping matches

    fn stop_live(&mut self) {
        if let Some(live) = self.live.take() {
            self.tally.add(&live.source.view());
            live.source.stop(true);
            // The demo's hands and boards stop when dropped (after the workers let go).
            drop(live.demo);
        }
        self.console = Console::default();
    }

    fn header(&self, rules: RulesPreset, boards: &[BoardPlan]) -> JournalHeader {
        let mut config = ArbiterConfig::new(rules);
        for (i, name) in self.setup.names.iter().enumerate() {
            if !name.trim().is_empty() {
                config.players[i] = name.trim().to_owned();
            }
        }
        for p in boards {
            config.timing[p.board] = Timing::for_scan_period(p.profile.scan_period_ms);
        }
        let (date, time) = files::date_and_time_now();
        JournalHeader {
            config,
            event: self.setup.event.clone(),
            site: self.setup.site.clone(),
            date,
            time: Some(time),
            capture: None,
        }
    }

    /// Starts the match the set-up form describes (stopping the one running).
    fn start_from_form(&mut self) -> anyhow::Result<()> {
        let rules = self.setup.preset().map_err(anyhow::Error::msg)?;
        match self.setup.boards {
            BoardsChoice::Demo => {
                self.stop_live();
                let root = self.opts.data_dir.join("demo");
                prune_demo_matches(&root, 8);
                let registry =
                    std::env::temp_dir().join(format!("tandem-demo-{}", std::process::id()));
                let boards = DemoBoards::spawn(Some(registry.clone()), self.opts.seed)
                    .context("starting the virtual boards")?;
                let plans = boards.plans();
                let header = self.header(rules.clone(), &plans);
                let dir = files::new_match_dir(&root, "demo-");
                let session = Session::start(
                    header,
                    &plans,
                    &dir,
                    Some(registry.clone()),
                    self.waker.clone(),
                )?;
                let player = boards.play(rules, self.opts.seed);
                self.live = Some(Live {
                    source: Box::new(session),
                    demo: Some(Demo {
                        boards,
                        player,
                        seen: 0,
                        finished: 0,
                        adjudicate_at: None,
                        registry,
                        root,
                    }),
                });
            }
            BoardsChoice::Station | BoardsChoice::Ports => {
                let station = self.form_station()?;
                let plans = BoardPlan::for_station(&station)?;
                self.stop_live();
                let header = self.header(rules, &plans);
                let dir = files::new_match_dir(&self.opts.data_dir, "");
                let session = Session::start(header, &plans, &dir, None, self.waker.clone())?;
                // Kept beside the journal so that a resume finds the same boards.
                if let Ok(text) =
                    ron::ser::to_string_pretty(&station, ron::ser::PrettyConfig::new())
                {
                    std::fs::write(dir.join(BOARDS_FILE), text).ok();
                }
                self.live = Some(Live {
                    source: Box::new(session),
                    demo: None,
                });
            }
        }
        self.screen = Screen::Console;
        self.message = None;
        Ok(())
    }

    fn form_station(&self) -> anyhow::Result<Station> {
        match self.setup.boards {
            BoardsChoice::Station => {
                let path = self.setup.station.trim();
                anyhow::ensure!(!path.is_empty(), "give the station file");
                Ok(Station::load(Path::new(path))?)
            }
            _ => {
                let mut boards = Vec::new();
                for (b, port) in [
                    (BoardId::A, &self.setup.port_a),
                    (BoardId::B, &self.setup.port_b),
                ] {
                    if port.trim().is_empty() {
                        continue;
                    }
                    boards.push(StationBoard {
                        board: b,
                        port: PortSpec::parse(port.trim()),
                        profile: self.setup.profile.clone(),
                    });
                }
                anyhow::ensure!(!boards.is_empty(), "give the port of board A (and B)");
                Ok(Station { boards })
            }
        }
    }

    /// Picks an unfinished match up where the journal stops.
    fn resume(&mut self, dir: &Path) -> anyhow::Result<()> {
        let station = if self.opts.has_boards() {
            self.form_station()?
        } else {
            let path = dir.join(BOARDS_FILE);
            Station::load(&path).map_err(|e| {
                anyhow::anyhow!(
                    "{e}; give the boards with --station or --board-a/--board-b to resume"
                )
            })?
        };
        let plans = BoardPlan::for_station(&station)?;
        self.stop_live();
        let session = Session::resume(dir, &plans, None, self.waker.clone())
            .with_context(|| format!("resuming {}", dir.display()))?;
        self.live = Some(Live {
            source: Box::new(session),
            demo: None,
        });
        self.screen = Screen::Console;
        self.resume_prompt = false;
        self.unfinished.retain(|u| u.dir != dir);
        Ok(())
    }

    /// The demo's hands stopped (after their move limit) or set up a new game: give the
    /// stopped game a result, as a TD would, and start a fresh record for the new one.
    fn follow_demo(&mut self) {
        let Some(live) = &mut self.live else { return };
        let Some(demo) = &mut live.demo else { return };
        let finished = demo.player.games_finished();
        let now = live.source.now_ms();
        if finished > demo.finished {
            demo.finished = finished;
            demo.adjudicate_at = Some(now + DEMO_ADJUDICATION_MS);
        }
        if demo.adjudicate_at.is_some_and(|t| now >= t) {
            demo.adjudicate_at = None;
            let view = live.source.view();
            if view.result.is_none() {
                live.source.td(TdAction::DeclareResult {
                    result: demo_adjudication(&view),
                });
            }
        }
        let started = demo.player.games_started();
        if started <= demo.seen {
            return;
        }
        let first = demo.seen == 0;
        demo.seen = started;
        if first {
            return;
        }
        let old = live.source.view();
        let rules = live.source.rules().clone();
        let event = live.source.event().to_owned();
        let plans = demo.boards.plans();
        let dir = files::new_match_dir(&demo.root, "demo-");
        let registry = demo.registry.clone();
        let mut header = self.header(rules, &plans);
        header.config.players.clone_from(&old.players);
        header.event = event;
        self.tally.add(&old);
        let Some(Live { source, demo }) = self.live.take() else {
            return;
        };
        source.stop(true);
        let restarted = Session::start(header, &plans, &dir, Some(registry), self.waker.clone());
        match restarted {
            Ok(session) => {
                self.live = Some(Live {
                    source: Box::new(session),
                    demo,
                });
                let names = self.console.names.clone();
                self.console = Console::default();
                self.console.names = names;
            }
            Err(e) => {
                self.message = Some(format!("The demo's next game could not start: {e:#}"));
                self.screen = Screen::Setup;
            }
        }
    }

    // ----------------------------------------------------------------------------------
    // Each frame

    /// Before each frame: follow the station, schedule the next repaint.
    pub fn logic(&mut self, ctx: &egui::Context) {
        self.follow_demo();
        let Some(live) = &self.live else { return };
        let view = live.source.view();
        let now = live.source.now_ms();
        if self.console.observe(&view, now) {
            ctx.send_viewport_cmd(ViewportCommand::RequestUserAttention(
                egui::UserAttentionType::Critical,
            ));
        }
        // The BPGN is written beside the journal as soon as a result stands.
        match (&view.result, live.source.dir()) {
            (Some(_), Some(dir)) if !self.console.auto_exported => {
                let path = dir.join("match.bpgn");
                self.console.export_note = Some(console::write_bpgn(live.source.as_ref(), &path));
                self.console.auto_exported = true;
            }
            (None, _) => self.console.auto_exported = false,
            _ => {}
        }
        let delay = Millis::from(self.projector.delay_s) * 1000;
        let mut next = next_repaint(&view, now);
        if self.projector.open && delay > 0 {
            let shown = live.source.delayed_view(delay);
            let later = next_repaint(&shown, now.saturating_sub(delay));
            // Delayed views fall due on their own: look again a few times a second.
            next = Some(next.map_or(250, |n| n.min(250)).min(later.unwrap_or(250)));
        }
        if live
            .demo
            .as_ref()
            .is_some_and(|d| d.adjudicate_at.is_some())
        {
            next = Some(next.map_or(500, |n| n.min(500)));
        }
        // Banners that count seconds (a board away) or fade (a board back).
        if self.console.notices.iter().any(|n| n.good)
            || view.boards.iter().any(|b| !b.link.connected)
        {
            next = Some(next.map_or(1000, |n| n.min(1000)));
        }
        if let Some(ms) = next {
            ctx.request_repaint_after(Duration::from_millis(ms));
        }
        self.take_screenshots(ctx);
    }

    /// Draws everything: the console (or set-up, or replay) and the projector window.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.top_bar(ui);
        if let Some(m) = self.message.clone() {
            egui::Panel::top("app-message").show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.label(RichText::new(m).color(theme::BAD).strong());
                    if ui.button("OK").clicked() {
                        self.message = None;
                    }
                });
            });
        }
        match self.screen {
            Screen::Setup => self.setup_screen(ui),
            Screen::Replay => {
                let close = match &mut self.replay {
                    Some(r) => replay::show(ui, r, self.pieces.as_ref()),
                    None => true,
                };
                if close {
                    self.replay = None;
                    self.screen = Screen::Console;
                }
            }
            Screen::Console => {
                let commands = match &self.live {
                    Some(live) => {
                        let view = live.source.view();
                        console::show(
                            ui,
                            &mut self.console,
                            live.source.as_ref(),
                            &view,
                            self.pieces.as_ref(),
                        )
                    }
                    None => {
                        self.screen = Screen::Setup;
                        Vec::new()
                    }
                };
                for c in commands {
                    self.request(c);
                }
            }
        }
        if self.resume_prompt {
            self.resume_modal(&ctx);
        }
        if self.projector.open {
            self.projector_window(&ctx);
        }
    }

    fn request(&mut self, c: ConsoleRequest) {
        match c {
            ConsoleRequest::NewMatch => {
                self.setup.error = None;
                self.screen = Screen::Setup;
            }
            ConsoleRequest::OpenReplay(path) => self.open_replay(&path),
        }
    }

    fn open_replay(&mut self, path: &Path) {
        match Replay::open(path, &self.setup.rules) {
            Ok(r) => {
                self.replay = Some(r);
                self.screen = Screen::Replay;
            }
            Err(e) => self.message = Some(format!("Replay: {e:#}")),
        }
    }

    fn top_bar(&mut self, ui: &mut egui::Ui) {
        egui::Panel::top("app-top").show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.label(
                    RichText::new("TANDEM")
                        .strong()
                        .size(18.0)
                        .color(theme::TEAM_WHITE_A),
                );
                if let Some(live) = &self.live {
                    let v = live.source.view();
                    let mut what = format!(
                        "{} · {} · {}",
                        live.source.event(),
                        v.rules_title,
                        time_control_words(&v)
                    );
                    if live.demo.is_some() {
                        what.push_str(" · demo on virtual boards");
                    }
                    ui.label(RichText::new(what).strong());
                    ui.label(format!(
                        "match time {}",
                        text::match_time(live.source.now_ms())
                    ));
                }
                ui.separator();
                for (screen, name) in [
                    (Screen::Console, "Console"),
                    (Screen::Setup, "New match"),
                    (Screen::Replay, "Replay"),
                ] {
                    let enabled = match screen {
                        Screen::Console => self.live.is_some(),
                        Screen::Replay => self.replay.is_some(),
                        Screen::Setup => true,
                    };
                    if ui
                        .add_enabled(
                            enabled,
                            egui::Button::selectable(self.screen == screen, name),
                        )
                        .clicked()
                    {
                        self.screen = screen;
                    }
                }
                ui.separator();
                ui.checkbox(&mut self.projector.open, "Projector");
                ui.menu_button("Projector settings", |ui| {
                    self.projector_settings(ui);
                });
            });
        });
    }

    fn projector_settings(&mut self, ui: &mut egui::Ui) {
        ui.checkbox(&mut self.projector.open, "Show the projector window");
        ui.checkbox(&mut self.projector.fullscreen, "Fullscreen");
        let selected = match self.projector.monitor {
            Some(i) => self
                .monitors
                .get(i)
                .cloned()
                .unwrap_or_else(|| format!("monitor {i}")),
            None => "this window's monitor".to_owned(),
        };
        egui::ComboBox::from_label("Monitor")
            .selected_text(selected)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut self.projector.monitor, None, "this window's monitor");
                let count = self.monitors.len().max(2);
                for i in 0..count {
                    let name = self
                        .monitors
                        .get(i)
                        .cloned()
                        .unwrap_or_else(|| format!("monitor {i}"));
                    ui.selectable_value(
                        &mut self.projector.monitor,
                        Some(i),
                        format!("{i}: {name} (fullscreen)"),
                    );
                }
            });
        ui.add(egui::Slider::new(&mut self.projector.delay_s, 0..=900).text("broadcast delay (s)"));
        ui.label(
            RichText::new("The projector never shows alerts, unruled illegal moves or flags.")
                .small(),
        );
    }

    fn setup_screen(&mut self, ui: &mut egui::Ui) {
        let can_cancel = self.live.is_some();
        // A real match without a result is in progress (a demo may be replaced at will).
        let in_progress = self
            .live
            .as_ref()
            .filter(|l| l.demo.is_none() && l.source.view().result.is_none())
            .map(|l| l.source.event().to_owned());
        let action = egui::CentralPanel::default()
            .show(ui, |ui| {
                setup::show(
                    ui,
                    &mut self.setup,
                    &self.unfinished,
                    can_cancel,
                    in_progress.as_deref(),
                )
            })
            .inner;
        match action {
            Some(SetupAction::Start) => {
                if let Err(e) = self.start_from_form() {
                    self.setup.error = Some(format!("{e:#}"));
                }
            }
            Some(SetupAction::Cancel) => self.screen = Screen::Console,
            Some(SetupAction::Resume(dir)) => {
                if let Err(e) = self.resume(&dir) {
                    self.setup.error = Some(format!("{e:#}"));
                }
            }
            Some(SetupAction::MarkFinished(dir)) => {
                if let Err(e) = files::mark_closed(&dir) {
                    self.setup.error = Some(format!("{}: {e}", dir.display()));
                }
                self.unfinished.retain(|u| u.dir != dir);
            }
            None => {}
        }
    }

    fn resume_modal(&mut self, ctx: &egui::Context) {
        let Some(first) = self.unfinished.first().cloned() else {
            self.resume_prompt = false;
            return;
        };
        let mut choice = None;
        egui::Modal::new(egui::Id::unique("resume-offer")).show(ctx, |ui| {
            ui.heading("An unfinished match was found");
            ui.label(&first.summary);
            ui.label(
                RichText::new(first.dir.display().to_string())
                    .small()
                    .weak(),
            );
            ui.label("It was not closed properly (a crash or a power cut?). Resume it?");
            ui.horizontal(|ui| {
                if ui.button("Resume it").clicked() {
                    choice = Some(1);
                }
                if ui.button("Mark it finished").clicked() {
                    choice = Some(2);
                }
                if ui.button("Not now").clicked() {
                    choice = Some(3);
                }
            });
        });
        match choice {
            Some(1) => {
                if let Err(e) = self.resume(&first.dir) {
                    self.message = Some(format!("{e:#}"));
                    self.resume_prompt = false;
                    self.setup.error = Some(format!("{e:#}"));
                    self.screen = Screen::Setup;
                }
            }
            Some(2) => {
                files::mark_closed(&first.dir).ok();
                self.unfinished.remove(0);
                self.resume_prompt = !self.unfinished.is_empty();
            }
            Some(3) => self.resume_prompt = false,
            _ => {}
        }
    }

    fn projector_window(&mut self, ctx: &egui::Context) {
        let mut builder = ViewportBuilder::default()
            .with_title("Tandem — projector")
            .with_inner_size([1280.0, 720.0])
            .with_min_inner_size([480.0, 270.0]);
        if let Some(m) = self.projector.monitor {
            builder = builder.with_monitor(m);
        } else if self.projector.fullscreen {
            builder = builder.with_fullscreen(true);
        }
        let delay = Millis::from(self.projector.delay_s) * 1000;
        let mut closed = false;
        ctx.show_viewport_immediate(projector_id(), builder, |ui, class| {
            if class == egui::ViewportClass::EmbeddedWindow {
                // Tests and single-window back ends: a window of its own inside the console.
                ui.set_min_size(egui::vec2(960.0, 540.0));
            }
            match &self.live {
                Some(live) => {
                    let now = live.source.now_ms();
                    let view = live.source.delayed_view(delay);
                    projector::show(
                        ui,
                        &projector::Projector {
                            view: &view,
                            clock_at: now.saturating_sub(delay),
                            pieces: self.pieces.as_ref(),
                            earlier: self.tally.earlier(&view),
                            event: live.source.event(),
                            delay_s: self.projector.delay_s,
                        },
                    );
                }
                None => {
                    let rect = ui.available_rect_before_wrap();
                    ui.painter()
                        .rect_filled(rect, 0.0, theme::PROJECTOR_BACKGROUND);
                    ui.centered_and_justified(|ui| {
                        ui.label(
                            RichText::new("Tandem")
                                .size(64.0)
                                .color(theme::PROJECTOR_DIM),
                        );
                    });
                }
            }
            if ui.input(|i| i.viewport().close_requested()) {
                closed = true;
            }
        });
        if closed {
            self.projector.open = false;
        }
    }

    /// A screenshot of the console for the README (`--screenshots DIR`) once the match
    /// has run a while; then the app carries on.
    fn take_screenshots(&mut self, ctx: &egui::Context) {
        let Some((dir, after)) = self.opts.screenshots.clone() else {
            return;
        };
        // By the app's running time (the demo's match records restart with each game).
        let uptime = (ctx.input(|i| i.time) * 1000.0) as Millis;
        if self.shots_taken || uptime < after {
            if !self.shots_taken {
                ctx.request_repaint_after(Duration::from_millis(500));
            }
            return;
        }
        self.shots_taken = true;
        std::fs::create_dir_all(&dir).ok();
        let console_path = dir.join("console.png");
        ctx.send_viewport_cmd(ViewportCommand::Screenshot(egui::ScreenshotCallback::new(
            move |img| save_png(&console_path, &img),
        )));
        // eframe takes screenshots of the root viewport only (not of immediate ones): the
        // projector is grabbed from the screen by `scripts/screenshots.sh`.
        ctx.request_repaint();
    }
}

impl eframe::App for TandemApp {
    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        TandemApp::logic(self, ctx);
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    fn on_exit(&mut self) {
        // A demo record is finished with the app; a real match stays resumable unless a
        // result stands (closing the window is not the end of a match).
        if let Some(live) = self.live.take() {
            let close = live.demo.is_some() || live.source.view().result.is_some();
            live.source.stop(close);
        }
    }
}

impl Drop for TandemApp {
    fn drop(&mut self) {
        if let Some(live) = self.live.take() {
            let close = live.demo.is_some();
            live.source.stop(close);
        }
    }
}

/// How long after the demo's hands stop the demo gives the game its result: the last
/// presses are judged first (settle time plus a late clock message).
const DEMO_ADJUDICATION_MS: Millis = 3000;

/// The file beside a journal naming the boards it was played on (for resuming).
pub const BOARDS_FILE: &str = "boards.ron";

/// Keeps the newest `keep` demo records, removing older ones (a demo left running for an
/// evening would otherwise fill the data folder).
fn prune_demo_matches(root: &Path, keep: usize) {
    let Ok(entries) = std::fs::read_dir(root.join("matches")) else {
        return;
    };
    let mut dirs: Vec<(std::time::SystemTime, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let t = e.metadata().and_then(|m| m.modified()).ok()?;
            Some((t, e.path()))
        })
        .filter(|(_, p)| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("demo-"))
        })
        .collect();
    dirs.sort_by_key(|d| std::cmp::Reverse(d.0));
    for (_, d) in dirs.into_iter().skip(keep) {
        std::fs::remove_dir_all(d).ok();
    }
}

/// The demo's hands stop after a number of moves: the player furthest behind in material
/// (on the board and in hand) resigns; with material level everywhere, a draw is agreed.
fn demo_adjudication(view: &MatchView) -> MatchResult {
    let value = |r: shakmaty::Role| match r {
        shakmaty::Role::Pawn => 1,
        shakmaty::Role::Knight | shakmaty::Role::Bishop => 3,
        shakmaty::Role::Rook => 5,
        shakmaty::Role::Queen => 9,
        shakmaty::Role::King => 0,
    };
    let mut worst: Option<(i32, Seat)> = None;
    for b in &view.boards {
        let material = |c: shakmaty::Color| -> i32 {
            let on_board: i32 = b
                .pieces
                .iter()
                .flatten()
                .filter(|p| p.piece.color == c)
                .map(|p| value(p.piece.role))
                .sum();
            let in_hand: i32 = b
                .reserve(c)
                .entries()
                .map(|(r, n)| value(r) * i32::from(n.max(0)))
                .sum();
            on_board + in_hand
        };
        let white = material(shakmaty::Color::White);
        let black = material(shakmaty::Color::Black);
        let (deficit, loser) = if white < black {
            (black - white, shakmaty::Color::White)
        } else {
            (white - black, shakmaty::Color::Black)
        };
        if deficit > 0 && worst.is_none_or(|(d, _)| deficit > d) {
            worst = Some((deficit, Seat::new(b.id, loser)));
        }
    }
    match worst {
        Some((_, seat)) => MatchResult {
            winner: Some(seat.opponent().team()),
            reason: EndReason::Resignation { seat },
            t_ms: None,
        },
        None => MatchResult {
            winner: None,
            reason: EndReason::DrawAgreed,
            t_ms: None,
        },
    }
}

fn demo_names() -> [String; 4] {
    ["Ada", "Boris", "Chen", "Dana"].map(str::to_owned)
}

fn time_control_words(v: &MatchView) -> String {
    let tc = v.time_control;
    let mut s = format!("{} min", tc.base_ms as f64 / 60_000.0);
    if tc.increment_ms > 0 {
        s.push_str(&format!(" + {} s", tc.increment_ms / 1000));
    }
    if tc.delay_ms > 0 {
        s.push_str(&format!(" (delay {} s)", tc.delay_ms / 1000));
    }
    s
}

/// When the display next changes by itself: the next second of a running clock.
fn next_repaint(view: &MatchView, now: Millis) -> Option<u64> {
    if view.result.is_some() {
        return None;
    }
    view.boards
        .iter()
        .filter_map(|b| {
            let c = b.clock.running?;
            let ms = b.clock.remaining(c, now)?;
            (ms > 0).then(|| text::ms_to_next_second(ms) + 5)
        })
        .min()
}

fn save_png(path: &Path, img: &egui::ColorImage) {
    let [w, h] = img.size;
    let bytes: Vec<u8> = img.pixels.iter().flat_map(|c| c.to_array()).collect();
    if let Err(e) = image::save_buffer(
        path,
        &bytes,
        u32::try_from(w).unwrap_or(0),
        u32::try_from(h).unwrap_or(0),
        image::ExtendedColorType::Rgba8,
    ) {
        eprintln!("tandem: screenshot {}: {e}", path.display());
    }
}

/// Fonts a little larger than egui's defaults: the console is read standing up.
fn style(ctx: &egui::Context) {
    ctx.all_styles_mut(|s| {
        for (ts, font) in &mut s.text_styles {
            font.size = match ts {
                egui::TextStyle::Small => 11.0,
                egui::TextStyle::Body | egui::TextStyle::Button => 14.0,
                egui::TextStyle::Monospace => 14.0,
                egui::TextStyle::Heading => 20.0,
                egui::TextStyle::Name(_) => font.size,
            };
        }
        s.spacing.button_padding = egui::vec2(8.0, 4.0);
    });
    ctx.set_theme(egui::Theme::Dark);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arbiter::{Arbiter, Input};

    fn after(moves: &[(BoardId, &str)]) -> MatchView {
        let mut arb = Arbiter::new(ArbiterConfig::new(RulesPreset::built_in("uscf-bughouse")));
        for (i, (board, mv)) in moves.iter().enumerate() {
            arb.handle(&Input::Td {
                t_ms: i as u64,
                action: TdAction::AddMove {
                    board: *board,
                    mv: (*mv).to_owned(),
                },
            });
        }
        arb.view()
    }

    #[test]
    fn the_demo_adjudicates_by_material() {
        let level = after(&[(BoardId::A, "e4"), (BoardId::A, "e5")]);
        assert_eq!(demo_adjudication(&level).reason, EndReason::DrawAgreed);
        // A knight for nothing on board A: Black A resigns, team WhiteA wins.
        let up = after(&[
            (BoardId::A, "Nf3"),
            (BoardId::A, "e5"),
            (BoardId::A, "Nxe5"),
            (BoardId::A, "Nf6"),
            (BoardId::A, "Nxf7"),
            (BoardId::A, "Kxf7"),
        ]);
        assert_eq!(up.record.len(), 6, "{:?}", up.record);
        let r = demo_adjudication(&up);
        assert_eq!(r.winner, Some(Team::BlackA), "{r:?}");
        assert_eq!(
            r.reason,
            EndReason::Resignation {
                seat: Seat::new(BoardId::A, shakmaty::Color::White)
            }
        );
    }

    #[test]
    fn the_score_adds_up_games_between_the_same_teams() {
        let mut tally = Tally::default();
        let mut v = after(&[]);
        v.players = ["Ada", "Boris", "Chen", "Dana"].map(str::to_owned);
        v.result = Some(crate::arbiter::view::ResultView {
            text: "Boris resigns".into(),
            winner: Some(Team::WhiteA),
            score: [1.0, 0.0],
            token: "1-0",
        });
        tally.add(&v);
        // The next game with colours swapped: Boris and Chen are now team WhiteA.
        let mut w = after(&[]);
        w.players = ["Boris", "Ada", "Dana", "Chen"].map(str::to_owned);
        assert_eq!(tally.earlier(&w), [0.0, 1.0]);
        let mut other = after(&[]);
        other.players = ["Eve", "Fay", "Gus", "Hal"].map(str::to_owned);
        assert_eq!(tally.earlier(&other), [0.0, 0.0]);
    }
}
