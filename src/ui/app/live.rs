//! The live match: a match the TD set up or resumed (or a test's source), or the demo's
//! current game; starting, resuming and stopping it; and opening a recording for replay.

use std::path::Path;

use anyhow::Context as _;

use super::{Screen, TandemApp};
use crate::BoardId;
use crate::arbiter::ArbiterConfig;
use crate::arbiter::journal::JournalHeader;
use crate::device::profile::{PortSpec, Station, StationBoard};
use crate::rules::RulesPreset;
use crate::station::demo::{self, DemoNews, DemoStation};
use crate::station::{BoardPlan, MatchFolder, Session, folder, new_header};
use crate::ui::console::Console;
use crate::ui::replay::ReplayLoad;
use crate::ui::setup::BoardsChoice;
use crate::ui::source::MatchSource;

/// The live match: one the TD set up (or a test's source), or the demo's current game.
pub(super) enum Live {
    Match(Box<dyn MatchSource>),
    Demo(Box<DemoStation>),
    /// An evening: several matches; the console shows the one the TD opened.
    Event(Box<super::event::EventLive>),
}

impl Live {
    /// The match to show (the demo has one between two games only for a moment).
    pub(super) fn source(&self) -> Option<&dyn MatchSource> {
        match self {
            Live::Match(s) => Some(s.as_ref()),
            Live::Demo(d) => d.session().map(|s| s as &dyn MatchSource),
            Live::Event(e) => e.source(),
        }
    }

    pub(super) fn is_demo(&self) -> bool {
        match self {
            Live::Demo(_) => true,
            Live::Event(e) => e.is_demo(),
            Live::Match(_) => false,
        }
    }

    /// Stops the match; a demo's record is closed with it, a real match's only if asked.
    pub(super) fn stop(self, close: bool) {
        match self {
            Live::Match(s) => s.stop(close),
            Live::Demo(d) => d.stop(),
            // An evening's matches stay resumable; each is closed in the overview.
            Live::Event(e) => e.stop(),
        }
    }
}

impl TandemApp {
    // ----------------------------------------------------------------------------------
    // Starting and stopping matches

    pub(super) fn stop_live(&mut self) {
        if let Some(live) = self.live.take() {
            if let Some(source) = live.source() {
                self.tally.add(&source.view());
            }
            live.stop(true);
        }
        self.console = Console::default();
        self.console.keys = self.clock_keys();
    }

    /// The console's keys for the clocks: the buttons file's, else F9 and F1–F4.
    pub(super) fn clock_keys(&self) -> crate::ui::console::ClockKeys {
        self.opts
            .buttons
            .as_ref()
            .map(crate::ui::console::ClockKeys::from_file)
            .unwrap_or_default()
    }

    pub(super) fn header(&self, rules: RulesPreset, boards: &[BoardPlan]) -> JournalHeader {
        let mut config = ArbiterConfig::new(rules);
        config.clocks = crate::ByBoard {
            a: self.setup.clocks,
            b: self.setup.clocks,
        };
        for (i, name) in self.setup.names.iter().enumerate() {
            if !name.trim().is_empty() {
                config.players[i] = name.trim().to_owned();
            }
        }
        new_header(config, &self.setup.event, &self.setup.site, boards)
    }

    /// Starts the match the set-up form describes (stopping the one running).
    pub(super) fn start_from_form(&mut self) -> anyhow::Result<()> {
        let rules = self.setup.preset().map_err(anyhow::Error::msg)?;
        match self.setup.boards {
            BoardsChoice::Demo => {
                self.stop_live();
                let registry =
                    std::env::temp_dir().join(format!("tandem-demo-{}", std::process::id()));
                let demo = DemoStation::start(
                    &self.opts.data_dir.join("demo"),
                    &registry,
                    self.header(rules, &[]),
                    self.opts.seed,
                    demo::GAME_PLIES,
                    self.waker.clone(),
                )?;
                self.live = Some(Live::Demo(Box::new(demo)));
            }
            BoardsChoice::Station | BoardsChoice::Ports => {
                let station = self.form_station()?;
                let plans = BoardPlan::for_station(&station)?;
                self.stop_live();
                let header = self.header(rules, &plans);
                let dir = folder::new_match_dir(&self.opts.data_dir, "");
                let mut session = Session::start(header, &plans, &dir, None, self.waker.clone())?;
                if let Some(file) = &self.opts.buttons {
                    session.attach_buttons(file);
                }
                self.live = Some(Live::Match(Box::new(session)));
            }
        }
        self.screen = Screen::Console;
        self.message = None;
        Ok(())
    }

    pub(super) fn form_station(&self) -> anyhow::Result<Station> {
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
    pub(super) fn resume(&mut self, dir: &Path) -> anyhow::Result<()> {
        let station = if self.opts.has_boards() {
            self.form_station()?
        } else {
            MatchFolder::at(dir)
                .boards()
                .map_err(|e| {
                    anyhow::anyhow!(
                        "{e:#}; give the boards with --station or --board-a/--board-b to resume"
                    )
                })?
                .with_context(|| {
                    format!(
                        "{} does not say which boards it was played on; give them with \
                         --station or --board-a/--board-b to resume",
                        dir.display()
                    )
                })?
        };
        let plans = BoardPlan::for_station(&station)?;
        self.stop_live();
        let mut session = Session::resume(dir, &plans, None, self.waker.clone())
            .with_context(|| format!("resuming {}", dir.display()))?;
        if let Some(file) = &self.opts.buttons {
            session.attach_buttons(file);
        }
        self.live = Some(Live::Match(Box::new(session)));
        self.screen = Screen::Console;
        self.resume_prompt = false;
        self.unfinished.retain(|u| u.dir != dir);
        Ok(())
    }

    /// The demo gives a stopped game its result and starts a new match folder for the
    /// next game; the console starts afresh with it (the TD's names kept).
    pub(super) fn follow_demo(&mut self) {
        let Some(Live::Demo(demo)) = &mut self.live else {
            return;
        };
        match demo.follow() {
            Ok(Some(DemoNews::NextGame { finished })) => {
                self.tally.add(&finished);
                let names = self.console.names.clone();
                self.console = Console::default();
                self.console.names = names;
            }
            Ok(None) => {}
            Err(e) => {
                self.message = Some(format!("{e:#}"));
                self.screen = Screen::Setup;
            }
        }
    }

    /// Opens a recording read-only; it is loaded and run off the UI thread while the
    /// replay screen shows the progress.
    pub(super) fn open_replay(&mut self, path: &Path) {
        self.replay = None;
        self.replay_load = Some(ReplayLoad::start(
            path,
            &self.setup.rules,
            self.waker.clone(),
        ));
        self.screen = Screen::Replay;
    }

    /// A replay being opened: ready, or failed (said on the console).
    pub(super) fn follow_replay_load(&mut self) {
        let Some(result) = self.replay_load.as_ref().and_then(ReplayLoad::poll) else {
            return;
        };
        self.replay_load = None;
        match result {
            Ok(r) => {
                self.replay = Some(r);
                self.screen = Screen::Replay;
            }
            Err(e) => {
                self.message = Some(format!("Replay: {e:#}"));
                if self.replay.is_none() {
                    self.screen = Screen::Console;
                }
            }
        }
    }
}
