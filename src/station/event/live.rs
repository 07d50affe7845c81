//! Several matches live at once on one station: an evening's round.
//!
//! ```text
//!            EventStation (event.ron, standings, event.bpgn)
//!            │ start_game: event.ron names the game's folder first, then
//!            ▼
//!   Session 1.1 ── boards of table 1 (by serial) ── arbiter thread ── rounds/1/match-1/
//!   Session 1.2 ── boards of table 2 (by serial) ── arbiter thread ── rounds/1/match-2/
//!   ...      each its own workers, channel, journal and folder: a board lost in one
//!            match is that match's business only
//!            │ follow: each match's result into the event (a result withdrawn in the
//!            ▼ console is taken back), standings and BPGN rewritten
//! ```
//! After a crash or a power cut, [`EventStation::open`] resumes the event and every game
//! that was in play from its journal, on the boards its `boards.ron` names.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context as _;

use crate::Millis;
use crate::arbiter::spectator::SpectatorView;
use crate::arbiter::view::MatchView;
use crate::event::{Event, EventError, GameRef, GameResult, Recorded, export};
use crate::rules::{MatchResult, Team as Side};
use crate::station::folder::{JOURNAL, MatchFolder};
use crate::station::recording::Recording;
use crate::station::runner::MatchRunner;
use crate::station::{BoardPlan, Session, Waker};

use super::folder::EventLock;
use super::{EventFolder, game_header, table_plans};

/// One game being played live.
pub struct LiveMatch {
    game: GameRef,
    table: Option<usize>,
    session: Session,
    /// The match's result as last recorded into the event: the winning side and how.
    recorded: Option<(Option<Side>, String)>,
    /// When that result came (the station's clock), for closing the match after a while.
    decided_at: Option<Instant>,
}

impl LiveMatch {
    #[must_use]
    pub fn game(&self) -> GameRef {
        self.game
    }

    /// The table it is played on (index into the event's tables).
    #[must_use]
    pub fn table(&self) -> Option<usize> {
        self.table
    }

    #[must_use]
    pub fn session(&self) -> &Session {
        &self.session
    }

    #[must_use]
    pub fn view(&self) -> Arc<MatchView> {
        self.session.view()
    }

    /// What the hall may see of it, `delay_ms` behind live.
    #[must_use]
    pub fn hall_view(&self, delay_ms: Millis) -> Arc<SpectatorView> {
        self.session.hall_view(delay_ms)
    }
}

/// What changed at the station, for whoever follows it (the headless run prints it).
#[derive(Clone, Debug, PartialEq)]
pub enum EventNews {
    /// A game began on its boards in `dir`.
    Started { game: GameRef, dir: PathBuf },
    /// A game in play was resumed from its journal.
    Resumed { game: GameRef, dir: PathBuf },
    /// A game's result was recorded (`text`: `1-0 Ada checkmated`, read for side A).
    Result { game: GameRef, text: String },
    /// A result was withdrawn in the match: the game is in play again.
    Withdrawn { game: GameRef },
    /// A finished game's match was closed; its boards are free.
    Closed { game: GameRef },
    /// A round was paired.
    Paired { round: u16 },
}

/// The event at this station, with its games in play.
pub struct EventStation {
    folder: EventFolder,
    event: Event,
    live: Vec<LiveMatch>,
    registry: Option<PathBuf>,
    waker: Waker,
    /// Close a match this long after its result (`None`: the TD closes it).
    close_after: Option<Duration>,
    /// A TD at a console starts and restarts driven clocks (else the station does).
    console: bool,
    /// Games whose clocks the station started (once each).
    clocks_started: Vec<GameRef>,
    news: Vec<EventNews>,
    /// This station has the event open (another is refused).
    _lock: EventLock,
}

impl EventStation {
    /// Opens the event in `dir` and resumes every game that was in play: from its
    /// journal, on the boards its `boards.ron` names (a game whose folder was named but
    /// never made is started; one closed whose result never reached `event.ron` has it
    /// recorded from its journal).
    pub fn open(
        dir: &Path,
        registry: Option<PathBuf>,
        waker: Waker,
    ) -> anyhow::Result<EventStation> {
        let folder = EventFolder::at(dir);
        let event = folder.load()?;
        let lock = folder.lock()?;
        let mut station = EventStation {
            folder,
            event,
            live: Vec::new(),
            registry,
            waker,
            close_after: None,
            console: true,
            clocks_started: Vec::new(),
            news: Vec::new(),
            _lock: lock,
        };
        for g in station.event.games_in_play() {
            station.resume_game(g)?;
        }
        station.save()?;
        Ok(station)
    }

    fn resume_game(&mut self, g: GameRef) -> anyhow::Result<()> {
        let mf = self
            .folder
            .match_folder(&self.event, g)
            .context("a game in play has its folder")?;
        let table = self.event.pairing(g.round, g.pairing).and_then(|p| p.table);
        if !mf.path(JOURNAL).is_file() {
            // Named in event.ron, never made (a power cut in between): start it now.
            let plans = self.plans(table)?;
            let header = game_header(&self.event, g, &plans, self.console);
            let session = Session::start(
                header,
                &plans,
                mf.dir(),
                self.registry.clone(),
                self.waker.clone(),
            )?;
            self.news.push(EventNews::Started {
                game: g,
                dir: mf.dir().to_path_buf(),
            });
            self.live.push(LiveMatch {
                game: g,
                table,
                session,
                recorded: None,
                decided_at: None,
            });
            return Ok(());
        }
        if mf.is_closed() {
            // Closed, its result lost on the way to event.ron: taken from its journal.
            if let Some((result, players)) = replayed_result(&mf)? {
                let note = result.describe(&|seat| players[seat.index()].clone());
                self.record_winner(g, result.winner, &note)?;
            }
            return Ok(());
        }
        let plans = match mf.boards()? {
            Some(station) => BoardPlan::for_station(&station).map_err(anyhow::Error::msg)?,
            None => self.plans(table)?,
        };
        let session = Session::resume(mf.dir(), &plans, self.registry.clone(), self.waker.clone())
            .with_context(|| format!("resuming game {g}"))?;
        self.news.push(EventNews::Resumed {
            game: g,
            dir: mf.dir().to_path_buf(),
        });
        self.live.push(LiveMatch {
            game: g,
            table,
            session,
            recorded: None,
            decided_at: None,
        });
        Ok(())
    }

    fn plans(&self, table: Option<usize>) -> anyhow::Result<Vec<BoardPlan>> {
        match table.and_then(|t| self.event.tables.get(t)) {
            Some(t) => table_plans(t),
            None => Ok(Vec::new()),
        }
    }

    /// Closes each match this long after its result (a headless evening, the demo).
    pub fn set_close_after(&mut self, after: Option<Duration>) {
        self.close_after = after;
    }

    /// No TD at a console (`tandem event run`): matches on tables with driven clocks are
    /// started by [`EventStation::start_ready_clocks`], and a pause ends with a clock's
    /// play/pause button.
    pub fn set_without_console(&mut self) {
        self.console = false;
    }

    /// Without a console: starts both clocks of each match whose driven clocks are set up
    /// and whose boards show the start position.
    pub fn start_ready_clocks(&mut self) {
        if self.console {
            return;
        }
        self.start_clocks_where_ready();
    }

    /// Starts both clocks of each match whose driven clocks are set up and whose boards
    /// show the start position, once a match (the TD's part, done by a demo).
    pub fn start_clocks_where_ready(&mut self) {
        for m in &mut self.live {
            if !self.clocks_started.contains(&m.game)
                && crate::station::demo::ready_to_start(&m.session.view())
            {
                self.clocks_started.push(m.game);
                m.session.td(crate::arbiter::TdAction::StartClocks);
            }
        }
    }

    #[must_use]
    pub fn event(&self) -> &Event {
        &self.event
    }

    #[must_use]
    pub fn folder(&self) -> &EventFolder {
        &self.folder
    }

    #[must_use]
    pub fn dir(&self) -> &Path {
        self.folder.dir()
    }

    /// The games being played, in order of round and pairing.
    #[must_use]
    pub fn live(&self) -> &[LiveMatch] {
        &self.live
    }

    #[must_use]
    pub fn live_match(&self, g: GameRef) -> Option<&LiveMatch> {
        self.live.iter().find(|m| m.game == g)
    }

    /// Is a table's pair of boards in use by a live match?
    #[must_use]
    pub fn table_busy(&self, table: usize) -> bool {
        self.live.iter().any(|m| m.table == Some(table))
    }

    /// The event as the hall may know it: results of live matches the hall has not yet
    /// seen (behind the broadcast delay `delay`) left out.
    #[must_use]
    pub fn hall_event(&self, delay: Millis) -> Event {
        let mut e = self.event.clone();
        for m in &self.live {
            if m.hall_view(delay).result.is_none() {
                e.withdraw_result(m.game()).ok();
            }
        }
        e
    }

    /// Starts a game on its table: `event.ron` names its folder first (so a crash from
    /// here on resumes it), then the match folder is made and the boards connected.
    pub fn start_game(&mut self, g: GameRef) -> anyhow::Result<()> {
        anyhow::ensure!(
            self.event.ready_games().contains(&g),
            "game {} is not ready to start",
            self.event.game_label(g)
        );
        let table = self
            .event
            .pairing(g.round, g.pairing)
            .and_then(|p| p.table)
            .with_context(|| {
                format!(
                    "game {} has no table: give it one",
                    self.event.game_label(g)
                )
            })?;
        anyhow::ensure!(
            !self.table_busy(table),
            "table {} is still in use",
            table + 1
        );
        let plans = self.plans(Some(table))?;
        let name = self.event.folder_name(g);
        self.event.start_game(g, &name)?;
        self.save()?;
        let dir = self.folder.dir().join(&name);
        let header = game_header(&self.event, g, &plans, self.console);
        let session = match Session::start(
            header,
            &plans,
            &dir,
            self.registry.clone(),
            self.waker.clone(),
        ) {
            Ok(s) => s,
            Err(e) => {
                // Not begun after all: the game waits to be started again.
                self.event.unstart_game(g).ok();
                self.save()?;
                return Err(e.context(format!("starting game {}", self.event.game_label(g))));
            }
        };
        self.news.push(EventNews::Started { game: g, dir });
        self.live.push(LiveMatch {
            game: g,
            table: Some(table),
            session,
            recorded: None,
            decided_at: None,
        });
        self.live.sort_by_key(|m| m.game);
        Ok(())
    }

    /// Starts every game ready to start whose table is free (a pairing's games one after
    /// another on its table). Returns those started.
    pub fn start_ready(&mut self) -> anyhow::Result<Vec<GameRef>> {
        let mut started = Vec::new();
        for g in self.event.ready_games() {
            let table = self.event.pairing(g.round, g.pairing).and_then(|p| p.table);
            let Some(table) = table else { continue };
            let pairing_live = self
                .live
                .iter()
                .any(|m| m.game.round == g.round && m.game.pairing == g.pairing);
            if self.table_busy(table) || pairing_live {
                continue;
            }
            self.start_game(g)?;
            started.push(g);
        }
        Ok(started)
    }

    /// Pairs the next round (refused while any game of this one is unfinished).
    pub fn pair_next_round(&mut self) -> anyhow::Result<u16> {
        let r = self.event.pair_next_round()?;
        self.save()?;
        self.news.push(EventNews::Paired { round: r });
        Ok(r)
    }

    /// Changes to the event the TD makes between games (tables, colours), written at once.
    pub fn edit(
        &mut self,
        change: impl FnOnce(&mut Event) -> Result<(), EventError>,
    ) -> anyhow::Result<()> {
        let mut e = self.event.clone();
        change(&mut e)?;
        self.event = e;
        self.save()
    }

    /// A result the TD enters for a game not being played live (a forfeit, a game
    /// played without boards, a correction after its match was closed). A live game's
    /// result comes from its match: the TD rules there.
    pub fn record_result(&mut self, g: GameRef, result: GameResult) -> anyhow::Result<Recorded> {
        anyhow::ensure!(
            self.live_match(g).is_none(),
            "game {} is being played: give its result in its console",
            self.event.game_label(g)
        );
        let rec = self.event.record_result(g, result)?;
        self.news.push(EventNews::Result {
            game: g,
            text: export::result_text(&self.event, g),
        });
        self.save()?;
        Ok(rec)
    }

    /// Closes a finished game's match (its folder marked closed, its boards free).
    pub fn close_game(&mut self, g: GameRef) -> anyhow::Result<()> {
        let i = self
            .live
            .iter()
            .position(|m| m.game == g)
            .with_context(|| format!("game {} is not being played", self.event.game_label(g)))?;
        anyhow::ensure!(
            self.live[i].view().result.is_some(),
            "game {} has no result yet",
            self.event.game_label(g)
        );
        // Its last word first: the result as the match has it now.
        self.follow_results()?;
        let m = self.live.remove(i);
        m.session.stop(true);
        self.news.push(EventNews::Closed { game: g });
        self.folder.write_bpgn(&self.event)?;
        Ok(())
    }

    /// Follows the matches: each result (or withdrawn result) into the event, matches
    /// closed once their time after the result is up. Returns what changed since the
    /// last call.
    pub fn follow(&mut self) -> anyhow::Result<Vec<EventNews>> {
        self.follow_results()?;
        if let Some(after) = self.close_after {
            let due: Vec<GameRef> = self
                .live
                .iter()
                .filter(|m| m.decided_at.is_some_and(|t| t.elapsed() >= after))
                .map(|m| m.game)
                .collect();
            for g in due {
                self.close_game(g)?;
            }
        }
        Ok(std::mem::take(&mut self.news))
    }

    fn follow_results(&mut self) -> anyhow::Result<()> {
        let mut changed = false;
        for i in 0..self.live.len() {
            let view = self.live[i].view();
            let result = view.result.as_ref().map(|r| (r.winner, r.text.clone()));
            if result == self.live[i].recorded {
                continue;
            }
            let g = self.live[i].game;
            match &result {
                Some((winner, text)) => self.record_winner(g, *winner, text)?,
                None => {
                    self.event.withdraw_result(g)?;
                    self.news.push(EventNews::Withdrawn { game: g });
                }
            }
            self.live[i].decided_at = result.as_ref().map(|_| Instant::now());
            self.live[i].recorded = result;
            changed = true;
        }
        if changed {
            self.save()?;
            self.folder.write_bpgn(&self.event)?;
        }
        Ok(())
    }

    fn record_winner(
        &mut self,
        g: GameRef,
        winner: Option<Side>,
        note: &str,
    ) -> anyhow::Result<()> {
        let r = self
            .event
            .result_of_winner(g, winner, note)
            .context("the game is in the event")?;
        self.event.record_result(g, r)?;
        self.news.push(EventNews::Result {
            game: g,
            text: format!("{} {note}", export::result_text(&self.event, g)),
        });
        Ok(())
    }

    fn save(&self) -> anyhow::Result<()> {
        self.folder.save(&self.event)
    }

    /// Stops every match, leaving those unfinished to be resumed.
    pub fn stop(mut self) {
        for m in self.live.drain(..) {
            m.session.stop(false);
        }
    }
}

/// The result a closed match's journal gives, with its players.
fn replayed_result(mf: &MatchFolder) -> anyhow::Result<Option<(MatchResult, [String; 4])>> {
    let path = mf.path(JOURNAL);
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let rec =
        Recording::from_journal(&text).map_err(|e| anyhow::anyhow!("{}:{e}", path.display()))?;
    let mut runner = MatchRunner::new(rec.header);
    runner.replay(&rec.inputs, |_, _| {});
    let players = runner.arbiter().view().players;
    Ok(runner
        .arbiter()
        .game()
        .result()
        .cloned()
        .map(|r| (r, players)))
}
