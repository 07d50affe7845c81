//! An evening in the window: the event station (or its demo) as the app's live
//! business, the TD's overview, a click into one match's console, and the projector's
//! grid, single match or standings.
//!
//! No-spoiler rules, as for a single match: the hall sees only each match's
//! [`SpectatorView`](crate::arbiter::spectator::SpectatorView) behind the broadcast delay;
//! a match cannot be closed (its tile leaves the grid) before its result has reached the
//! hall; the hall's standings leave out any result the hall has not seen yet.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use egui::ViewportCommand;

use super::{Live, Screen, TandemApp, next_repaint, next_repaint_hall};
use crate::Millis;
use crate::event::{GameRef, Outcome};
use crate::station::demo::event::{EventDemo, create_demo_event};
use crate::station::event::folder::unfinished_events;
use crate::station::event::{EventStation, LiveMatch};
use crate::ui::console::Console;
use crate::ui::overview::{self, Overview, OverviewMatch, OverviewRequest};
use crate::ui::projector_grid::{self, GridTile, HallChoice};
use crate::ui::source::MatchSource;
use crate::ui::{projector, standings};

/// How long between rounds the demo leaves the standings up.
const DEMO_BETWEEN_ROUNDS: Duration = Duration::from_secs(30);

/// The evening the window runs.
pub(in crate::ui) struct EventLive {
    run: EventRun,
    /// The match whose console is open.
    selected: Option<GameRef>,
    pub(super) hall: HallChoice,
    /// Open alerts across all matches last seen (more: ask for the TD's attention).
    alerts_seen: usize,
    registry: Option<PathBuf>,
}

enum EventRun {
    Station(Box<EventStation>),
    Demo(Box<EventDemo>),
}

impl EventLive {
    pub(super) fn station(&self) -> &EventStation {
        match &self.run {
            EventRun::Station(s) => s,
            EventRun::Demo(d) => d.station(),
        }
    }

    fn station_mut(&mut self) -> &mut EventStation {
        match &mut self.run {
            EventRun::Station(s) => s,
            EventRun::Demo(d) => d.station_mut(),
        }
    }

    pub(super) fn is_demo(&self) -> bool {
        matches!(self.run, EventRun::Demo(_))
    }

    /// The selected match's session, for the console.
    pub(super) fn source(&self) -> Option<&dyn MatchSource> {
        let g = self.selected?;
        self.station()
            .live_match(g)
            .map(|m| m.session() as &dyn MatchSource)
    }

    /// Stops every match (left to be resumed) and, for the demo, its boards.
    pub(super) fn stop(self) {
        match self.run {
            EventRun::Station(s) => s.stop(),
            EventRun::Demo(d) => d.stop(),
        }
        if let Some(r) = self.registry {
            std::fs::remove_dir_all(r).ok();
        }
    }

    /// Points of the pairing's games before `g`, for (side A, side B) of `g`.
    fn earlier(&self, g: GameRef) -> [f32; 2] {
        let e = self.station().event();
        let scoring = e.preset().scoring;
        let (Some(p), Some([a, b])) = (e.pairing(g.round, g.pairing), e.sides(g)) else {
            return [0.0; 2];
        };
        let mut pts = [0.0, 0.0];
        for game in p.games.iter().take(usize::from(g.game).saturating_sub(1)) {
            if let Some(r) = &game.result {
                for (i, t) in [a, b].into_iter().enumerate() {
                    pts[i] += match r.outcome_for(t) {
                        Outcome::Win => scoring.win,
                        Outcome::Draw => scoring.draw,
                        Outcome::Loss => scoring.loss,
                    };
                }
            }
        }
        pts
    }

    fn teams(&self, g: GameRef) -> [String; 2] {
        let e = self.station().event();
        e.sides(g)
            .map_or_else(Default::default, |[a, b]| [e.team_name(a), e.team_name(b)])
    }
}

impl TandemApp {
    /// Opens the event in `dir` (resuming every game in play), as a demo on virtual
    /// boards when asked.
    pub(super) fn open_event(&mut self, dir: &Path, demo: bool) -> anyhow::Result<()> {
        self.stop_live();
        let registry = demo.then(|| {
            std::env::temp_dir().join(format!("tandem-event-demo-{}", std::process::id()))
        });
        let mut station = EventStation::open(dir, registry.clone(), self.waker.clone())?;
        let resumed = station.live().len();
        let run = match &registry {
            Some(reg) => {
                // Closed once the hall has seen the result (and a little more).
                let delay = u64::from(self.projector.delay_s);
                station.set_close_after(Some(Duration::from_secs(10.max(delay + 5))));
                EventRun::Demo(Box::new(EventDemo::start(
                    station,
                    reg,
                    self.opts.seed,
                    if self.opts.demo_plies == 0 {
                        crate::station::demo::GAME_PLIES
                    } else {
                        self.opts.demo_plies
                    },
                    DEMO_BETWEEN_ROUNDS,
                )?))
            }
            None => EventRun::Station(Box::new(station)),
        };
        self.live = Some(Live::Event(Box::new(EventLive {
            run,
            selected: None,
            hall: self.opts.hall.unwrap_or_default(),
            alerts_seen: 0,
            registry,
        })));
        self.screen = Screen::Overview;
        if resumed > 0 && !demo {
            self.message = Some(format!(
                "Resumed the evening in {}: {resumed} match(es) in play, from their journals",
                dir.display()
            ));
        }
        Ok(())
    }

    /// At start: an evening named on the command line, a demo evening, or the newest
    /// evening with games in play (a crash, a power cut). Returns whether one opened.
    pub(super) fn start_event_if_any(&mut self) -> bool {
        let root = self.opts.data_dir.clone();
        let (dir, demo) = if let Some(name) = self.opts.event.clone() {
            (crate::station::event::folder::resolve(&name, &root), false)
        } else if let Some(teams) = self.opts.event_demo {
            let rules = self
                .opts
                .rules
                .clone()
                .unwrap_or_else(|| crate::rules::RulesPreset::DEFAULT_NAME.to_owned());
            match create_demo_event(&root.join("demo"), &rules, teams) {
                Ok(dir) => (dir, true),
                Err(e) => {
                    self.message = Some(format!("The demo evening could not start: {e:#}"));
                    return false;
                }
            }
        } else if self.opts.resume.is_none() && !self.opts.has_boards() {
            match unfinished_events(&root).into_iter().next() {
                Some(dir) => (dir, false),
                None => return false,
            }
        } else {
            return false;
        };
        if let Err(e) = self.open_event(&dir, demo) {
            self.message = Some(format!("{e:#}"));
            self.screen = Screen::Setup;
            return false;
        }
        true
    }

    /// Before each frame: the evening followed (results, closing, the demo's hands), the
    /// TD's attention asked for a new alert in any match, the next repaint scheduled for
    /// every clock on the overview and the projector.
    pub(super) fn follow_event(&mut self, ctx: &egui::Context) {
        let delay = Millis::from(self.projector.delay_s) * 1000;
        let Some(Live::Event(ev)) = &mut self.live else {
            return;
        };
        let followed = match &mut ev.run {
            EventRun::Station(s) => s.follow(),
            EventRun::Demo(d) => d.follow(),
        };
        if let Err(e) = followed {
            self.message = Some(format!("{e:#}"));
        }
        // The selected match closed: back to the overview.
        if ev.selected.is_some() && ev.source().is_none() {
            ev.selected = None;
            self.console = Console::default();
            if self.screen == Screen::Console {
                self.screen = Screen::Overview;
            }
        }
        if self.screen == Screen::Console && ev.selected.is_none() {
            self.screen = Screen::Overview;
        }
        let mut next: Option<u64> = None;
        let mut open = 0;
        for m in ev.station().live() {
            let view = m.view();
            let now = m.session().now_ms();
            open += view.open_alerts().count();
            next = min_some(next, next_repaint(&view, now));
            if self.projector.open {
                let hall = m.hall_view(delay);
                next = min_some(next, next_repaint_hall(&hall, now.saturating_sub(delay)));
            }
        }
        if open > ev.alerts_seen {
            ctx.send_viewport_cmd(ViewportCommand::RequestUserAttention(
                egui::UserAttentionType::Critical,
            ));
        }
        ev.alerts_seen = open;
        // The demo's hands and the closing of finished matches need following; delayed
        // views fall due on their own.
        if ev.is_demo() || (self.projector.open && delay > 0) {
            next = min_some(next, Some(500));
        }
        if !ev.station().live().is_empty() {
            next = min_some(next, Some(1000));
        }
        if let Some(ms) = next {
            ctx.request_repaint_after(Duration::from_millis(ms));
        }
    }

    /// The overview screen, and what the TD asked there.
    pub(super) fn overview_screen(&mut self, ui: &mut egui::Ui) {
        let delay = Millis::from(self.projector.delay_s) * 1000;
        let Some(Live::Event(ev)) = &self.live else {
            self.screen = Screen::Setup;
            return;
        };
        let matches: Vec<OverviewMatch> = ev
            .station()
            .live()
            .iter()
            .map(|m: &LiveMatch| OverviewMatch {
                game: m.game(),
                label: ev.station().event().game_label(m.game()),
                table: m.table(),
                teams: ev.teams(m.game()),
                view: m.view(),
                now: m.session().now_ms(),
            })
            .collect();
        let next_round_in = match &ev.run {
            EventRun::Demo(d) => d.next_round_in(),
            EventRun::Station(_) => None,
        };
        let requests = overview::show(
            ui,
            &Overview {
                event: ev.station().event(),
                matches: &matches,
                pieces: self.pieces.as_ref(),
                hall: ev.hall,
                next_round_in,
            },
        );
        for r in requests {
            if let Err(e) = self.overview_request(r, delay) {
                self.message = Some(format!("{e:#}"));
            }
        }
    }

    fn overview_request(&mut self, r: OverviewRequest, delay: Millis) -> anyhow::Result<()> {
        let Some(Live::Event(ev)) = &mut self.live else {
            return Ok(());
        };
        match r {
            OverviewRequest::Open(g) => {
                if ev.selected != Some(g) {
                    self.console = Console::default();
                }
                ev.selected = Some(g);
                self.screen = Screen::Console;
            }
            OverviewRequest::Close(g) => {
                let seen = ev
                    .station()
                    .live_match(g)
                    .is_some_and(|m| m.hall_view(delay).result.is_some());
                anyhow::ensure!(
                    seen,
                    "the hall has not seen this result yet (broadcast delay): close it in a moment"
                );
                ev.station_mut().close_game(g)?;
            }
            OverviewRequest::Start(g) => ev.station_mut().start_game(g)?,
            OverviewRequest::StartClocks(g) => {
                if let Some(m) = ev.station().live_match(g) {
                    m.session().td(crate::arbiter::TdAction::StartClocks);
                }
            }
            OverviewRequest::StartAll => {
                ev.station_mut().start_ready()?;
            }
            OverviewRequest::Table {
                round,
                pairing,
                table,
            } => ev
                .station_mut()
                .edit(|e| e.assign_table(round, pairing, table))?,
            OverviewRequest::PairNextRound => {
                ev.station_mut().pair_next_round()?;
            }
            OverviewRequest::Hall(h) => ev.hall = h,
            OverviewRequest::ChooseWhite { game, team, player } => {
                ev.station_mut()
                    .edit(|e| e.choose_white(game, team, player))?;
            }
        }
        Ok(())
    }

    /// The projector during an evening.
    pub(super) fn event_projector(&self, ui: &mut egui::Ui, ev: &EventLive) {
        let delay = Millis::from(self.projector.delay_s) * 1000;
        let st = ev.station();
        let e = st.event();
        let live = st.live();
        let choice = match ev.hall {
            HallChoice::Auto if live.is_empty() => HallChoice::Standings,
            HallChoice::Auto => HallChoice::Grid,
            HallChoice::One(g) if st.live_match(g).is_none() => HallChoice::Grid,
            h => h,
        };
        match choice {
            HallChoice::Standings => {
                let hall = ev.station().hall_event(delay);
                let heading = match hall.current_round() {
                    Some(r) if hall.round_complete(r) => {
                        format!("{} · standings after round {r}", e.setup.name)
                    }
                    Some(r) => format!("{} · standings during round {r}", e.setup.name),
                    None => format!("{} · teams", e.setup.name),
                };
                standings::show_hall(ui, &hall, &heading);
            }
            HallChoice::One(g) => {
                if let Some(m) = st.live_match(g) {
                    let now = m.session().now_ms();
                    let view = m.hall_view(delay);
                    let title = format!("{} · match {}", e.setup.name, e.game_label(g));
                    projector::show(
                        ui,
                        &projector::Projector {
                            view: &view,
                            clock_at: now.saturating_sub(delay),
                            pieces: self.pieces.as_ref(),
                            earlier: ev.earlier(g),
                            event: &title,
                            delay_s: self.projector.delay_s,
                        },
                    );
                }
            }
            HallChoice::Grid | HallChoice::Auto => {
                let views: Vec<(GameRef, Arc<_>, Millis)> = live
                    .iter()
                    .map(|m| {
                        let now = m.session().now_ms();
                        (m.game(), m.hall_view(delay), now.saturating_sub(delay))
                    })
                    .collect();
                let tiles: Vec<GridTile<'_>> = views
                    .iter()
                    .map(|(g, view, at)| GridTile {
                        label: e.game_label(*g),
                        teams: ev.teams(*g),
                        view,
                        clock_at: *at,
                        earlier: ev.earlier(*g),
                    })
                    .collect();
                let mut heading = match e.current_round() {
                    Some(r) => format!("{} · round {r}", e.setup.name),
                    None => e.setup.name.clone(),
                };
                if self.projector.delay_s > 0 {
                    heading.push_str(&format!(" · {} s broadcast delay", self.projector.delay_s));
                }
                projector_grid::show_grid(ui, &tiles, &heading, self.pieces.as_ref());
            }
        }
    }
}

fn min_some(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}
