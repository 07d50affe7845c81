//! The application: which match is live, the screens (set-up, console, replay) and the
//! projector window.
//!
//! `logic` runs before every frame (and while the window is hidden): it notices link
//! changes, follows the station's demo (which starts a new match folder for each game),
//! and schedules the next repaint. Nothing repaints on a timer except a running clock
//! (once per displayed second), the projector's broadcast delay and a replay being opened;
//! everything else repaints when the station's waker says something changed. The match's
//! files (`match.bpgn` included) are the station's business, never the window's.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use egui::{RichText, ViewportCommand, ViewportId};

use super::console::{self, Console, ConsoleRequest};
use super::pieces::PieceSet;
use super::replay::{self, Replay, ReplayLoad};
use super::setup::{BoardsChoice, SetupForm, Unfinished};
use super::source::MatchSource;
use super::{text, theme};
use crate::Millis;
use crate::arbiter::spectator::SpectatorView;
use crate::arbiter::view::MatchView;
use crate::rules::RulesPreset;
use crate::station::demo::{self};
use crate::station::{Waker, folder};

mod chrome;
mod event;
mod live;
mod tally;
mod web;

use live::Live;
use tally::Tally;

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
    /// Who keeps the boards' time (`--clocks`); the set-up form starts with it.
    pub clocks: Option<crate::arbiter::ClockPlan>,
    /// `--screenshots-paused`: stop both clocks (and show the Clocks tab) a moment before
    /// the pictures, for the README's pictures of a pause.
    pub screenshots_paused: bool,
    /// The clock buttons file (`--buttons`): devices read when Tandem is the clock, and the
    /// console's keys for the clocks.
    pub buttons: Option<crate::buttons::ButtonsFile>,
    /// `--event`: open this event (a name under the data folder's `events`, or a folder).
    pub event: Option<String>,
    /// `--event-demo N`: an evening of N teams on virtual boards.
    pub event_demo: Option<usize>,
    /// What the projector shows during an evening, at start.
    pub hall: Option<crate::ui::projector_grid::HallChoice>,
    /// The demo evening's hands stop each game after this many plies a board (0: the
    /// demo's own number).
    pub demo_plies: usize,
    /// Serve the spectators' web page on this address.
    pub web: Option<std::net::SocketAddr>,
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
    /// An evening: every live match at a glance.
    Overview,
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
    /// A replay being opened.
    replay_load: Option<ReplayLoad>,
    pub projector: ProjectorSettings,
    monitors: Vec<String>,
    tally: Tally,
    /// An error to show the TD (a match that would not start, a file that would not open).
    pub message: Option<String>,
    shots_taken: bool,
    /// `--screenshots-paused`: play was stopped for the pictures.
    shots_paused: bool,
    /// The spectators' web server (`--web`).
    web: Option<crate::web::WebServer>,
}

impl TandemApp {
    /// The app as the command line starts it: a demo out of the box, the set-up screen
    /// for real boards, or straight back into an unfinished match with `--resume`.
    #[must_use]
    pub fn new(ctx: &egui::Context, opts: Options, monitors: Vec<String>) -> TandemApp {
        let mut app = Self::bare(ctx, opts, monitors);
        if app.start_event_if_any() {
            return app;
        }
        app.unfinished = folder::unfinished(&app.opts.data_dir)
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
                app.setup.names = demo::names();
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
        app.live = Some(Live::Match(source));
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
        if let Some(plan) = opts.clocks {
            setup.clocks = plan;
        }
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
        let mut app = TandemApp {
            pieces: PieceSet::load(ctx),
            waker,
            live: None,
            screen: Screen::Setup,
            console: Console::with_keys(
                opts.buttons
                    .as_ref()
                    .map(console::ClockKeys::from_file)
                    .unwrap_or_default(),
            ),
            setup,
            unfinished: Vec::new(),
            resume_prompt: false,
            replay: None,
            replay_load: None,
            projector,
            monitors,
            tally: Tally::default(),
            message: None,
            shots_taken: false,
            shots_paused: false,
            web: None,
            opts,
        };
        app.start_web();
        app
    }

    /// The live match's view, if there is one.
    #[must_use]
    pub fn view(&self) -> Option<Arc<MatchView>> {
        self.live.as_ref().and_then(Live::source).map(|s| s.view())
    }

    // ----------------------------------------------------------------------------------
    // Each frame

    /// Before each frame: follow the station, schedule the next repaint.
    pub fn logic(&mut self, ctx: &egui::Context) {
        self.follow_demo();
        self.follow_event(ctx);
        self.follow_replay_load();
        self.follow_web();
        // Also during an evening, when no match's console is open.
        self.take_screenshots(ctx);
        let Some(live) = &self.live else { return };
        let Some(source) = live.source() else {
            return;
        };
        let view = source.view();
        let now = source.now_ms();
        if self.console.observe(&view, now) {
            ctx.send_viewport_cmd(ViewportCommand::RequestUserAttention(
                egui::UserAttentionType::Critical,
            ));
        }
        let delay = Millis::from(self.projector.delay_s) * 1000;
        let mut next = next_repaint(&view, now);
        if self.projector.open && delay > 0 {
            let shown = source.hall_view(delay);
            let later = next_repaint_hall(&shown, now.saturating_sub(delay));
            // Delayed views fall due on their own: look again a few times a second.
            next = Some(next.map_or(250, |n| n.min(250)).min(later.unwrap_or(250)));
        }
        if let Live::Demo(demo) = live
            && demo.adjudication_due().is_some()
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
            Screen::Overview => self.overview_screen(ui),
            Screen::Replay => {
                let close = match (&mut self.replay, &self.replay_load) {
                    (Some(r), _) => replay::show(ui, r, self.pieces.as_ref()),
                    (None, Some(load)) => {
                        let cancel = replay::show_loading(ui, load);
                        if cancel {
                            self.replay_load = None;
                        }
                        cancel
                    }
                    (None, None) => true,
                };
                if close {
                    self.replay = None;
                    self.screen = Screen::Console;
                }
            }
            Screen::Console => {
                let commands = match self.live.as_ref().map(Live::source) {
                    Some(Some(source)) => {
                        let view = source.view();
                        console::show(ui, &mut self.console, source, &view, self.pieces.as_ref())
                    }
                    // The demo between two games: the next one is a moment away.
                    Some(None) => Vec::new(),
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
            let decided = live.source().is_some_and(|s| s.view().result.is_some());
            live.stop(decided);
        }
    }
}

impl Drop for TandemApp {
    fn drop(&mut self) {
        if let Some(live) = self.live.take() {
            live.stop(false);
        }
    }
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

/// When the TD's display next changes by itself: the next second of a running clock.
fn next_repaint(view: &MatchView, now: Millis) -> Option<u64> {
    let running = view
        .boards
        .iter()
        .filter_map(|b| b.clock.running.and_then(|c| b.clock.remaining(c, now)));
    next_second(view.result.is_some(), running)
}

/// The same for what the hall sees.
fn next_repaint_hall(view: &SpectatorView, now: Millis) -> Option<u64> {
    let running = view
        .boards
        .iter()
        .filter_map(|b| b.clock.running.and_then(|c| b.clock.remaining(c, now)));
    next_second(view.result.is_some(), running)
}

/// Until the soonest running clock shows its next second (clocks stop with a result).
fn next_second(decided: bool, remaining: impl Iterator<Item = u64>) -> Option<u64> {
    if decided {
        return None;
    }
    remaining
        .filter(|&ms| ms > 0)
        .map(|ms| text::ms_to_next_second(ms) + 5)
        .min()
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
