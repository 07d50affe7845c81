//! The demo of an evening: an event whose tables are virtual boards (two a table, found
//! by serial number like real ones), each with the demo's hands, playing round after
//! round live: each game started on its table, played, given its result (by the hands'
//! game, or adjudicated as the single demo does), closed a while later; the next round
//! paired once the round is over and the standings have been up for a moment.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context as _;

use super::hands::{DemoBoards, DemoPlayer};
use crate::arbiter::TdAction;
use crate::event::{ByeScore, Event, Format, GameRef, Setup, Table, TableClocks};
use crate::rules::RulesPreset;
use crate::station::event::simulate::simulated_teams;
use crate::station::event::{EventFolder, EventNews, EventStation, virtual_tables};
use crate::station::folder::{date_and_time_now, stamp_now};

/// Demo evenings kept (a demo left running night after night would fill the disk).
const KEEP_DEMO_EVENTS: usize = 4;

/// Keeps the newest `keep` demo evenings in `events`, removing older ones.
fn prune_demo_events(events: &Path, keep: usize) {
    let Ok(entries) = std::fs::read_dir(events) else {
        return;
    };
    let mut dirs: Vec<(std::time::SystemTime, PathBuf)> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("demo-"))
        })
        .filter_map(|p| Some((std::fs::metadata(&p).and_then(|m| m.modified()).ok()?, p)))
        .collect();
    dirs.sort_by_key(|d| std::cmp::Reverse(d.0));
    for (_, d) in dirs.into_iter().skip(keep.saturating_sub(1)) {
        std::fs::remove_dir_all(d).ok();
    }
}

/// How long after the hands stop a game it gets its result (its last presses judged).
const ADJUDICATION: Duration = Duration::from_secs(3);

/// One table's boards and hands.
struct TableHands {
    boards: DemoBoards,
    player: DemoPlayer,
    /// The game the hands were let play, and how many games they had finished then.
    game: Option<GameRef>,
    finished_before: u64,
    adjudicate_at: Option<Instant>,
}

/// An event played live on virtual boards.
pub struct EventDemo {
    station: EventStation,
    tables: Vec<TableHands>,
    /// How long the standings stay up between rounds.
    between_rounds: Duration,
    round_over_at: Option<Instant>,
    /// Games resumed from a journal that no hands can carry on: adjudicated.
    orphans: Vec<(GameRef, Instant)>,
}

/// A new demo event in `<root>/events/demo-<date-time>`: `teams` teams of the demo's
/// players, a table of virtual boards for each pairing, a round robin.
pub fn create_demo_event(root: &Path, rules: &str, teams: usize) -> anyhow::Result<PathBuf> {
    let preset = RulesPreset::load(rules).map_err(anyhow::Error::msg)?;
    let setup = Setup {
        name: "Tandem club night (demo)".to_owned(),
        site: "Tandem demo".to_owned(),
        date: date_and_time_now().0,
        rules: rules.to_owned(),
        time_control: preset.time_control,
        format: Format::RoundRobin { cycles: 1 },
        bye: ByeScore::Win,
    };
    let size = usize::from(preset.event.team_size);
    let mut event = Event::new(setup, preset);
    for t in simulated_teams(teams, size, 1) {
        event.add_team(t)?;
    }
    // The demo's DGT3000s are driven, as a club with them would: Tandem sets each match's
    // clocks up and starts them together.
    event.tables = virtual_tables((teams / 2).max(1))
        .into_iter()
        .map(|t| Table {
            clocks: TableClocks::Drive,
            ..t
        })
        .collect();
    let events = crate::station::event::folder::events_root(root);
    prune_demo_events(&events, KEEP_DEMO_EVENTS);
    let dir = events.join(format!("demo-{}", stamp_now()));
    EventFolder::create(&dir, &event)?;
    Ok(dir)
}

impl EventDemo {
    /// Virtual boards for every table of the station's event (published in `registry`,
    /// which the station's sessions must search), with hands waiting to be let play.
    pub fn start(
        station: EventStation,
        registry: &Path,
        seed: u64,
        game_plies: usize,
        between_rounds: Duration,
    ) -> anyhow::Result<EventDemo> {
        let rules = station.event().preset().clone();
        let mut tables = Vec::new();
        for (i, t) in station.event().tables.iter().enumerate() {
            let boards = DemoBoards::spawn_serials(
                Some(registry.to_path_buf()),
                seed.wrapping_add(100 * i as u64),
                [&t.a, &t.b],
            )
            .with_context(|| format!("starting the virtual boards of table {}", i + 1))?;
            let player =
                boards.play_on_request(rules.clone(), seed.wrapping_add(i as u64), game_plies);
            tables.push(TableHands {
                boards,
                player,
                game: None,
                finished_before: 0,
                adjudicate_at: None,
            });
        }
        let orphans = station
            .live()
            .iter()
            .map(|m| (m.game(), Instant::now() + ADJUDICATION))
            .collect();
        Ok(EventDemo {
            station,
            tables,
            between_rounds,
            round_over_at: None,
            orphans,
        })
    }

    #[must_use]
    pub fn station(&self) -> &EventStation {
        &self.station
    }

    pub fn station_mut(&mut self) -> &mut EventStation {
        &mut self.station
    }

    /// The virtual boards of a table.
    #[must_use]
    pub fn boards(&self, table: usize) -> Option<&DemoBoards> {
        self.tables.get(table).map(|t| &t.boards)
    }

    /// Runs the evening on: results, adjudications, closing, the next games and rounds.
    /// Call it a few times a second.
    pub fn follow(&mut self) -> anyhow::Result<Vec<EventNews>> {
        let mut news = self.station.follow()?;
        self.adjudicate();
        // Hands whose game was closed are free again.
        for t in &mut self.tables {
            if t.game.is_some_and(|g| self.station.live_match(g).is_none()) {
                t.game = None;
                t.adjudicate_at = None;
            }
        }
        let event = self.station.event();
        let round_over = event
            .current_round()
            .is_none_or(|r| event.round_complete(r))
            && self.station.live().is_empty();
        if round_over && !event.finished() {
            let due = *self.round_over_at.get_or_insert_with(Instant::now);
            if event.rounds.is_empty() || due.elapsed() >= self.between_rounds {
                self.round_over_at = None;
                self.station.pair_next_round()?;
            }
        }
        self.start_ready()?;
        // The demo's TD starts each match's clocks once they are set up.
        self.station.start_clocks_where_ready();
        news.extend(self.station.follow()?);
        Ok(news)
    }

    /// When the next round will be paired, if the standings are up between rounds.
    #[must_use]
    pub fn next_round_in(&self) -> Option<Duration> {
        self.round_over_at
            .map(|t| self.between_rounds.saturating_sub(t.elapsed()))
    }

    fn start_ready(&mut self) -> anyhow::Result<()> {
        for g in self.station.event().ready_games() {
            let event = self.station.event();
            let Some(table) = event.pairing(g.round, g.pairing).and_then(|p| p.table) else {
                continue;
            };
            let pairing_live = self
                .station
                .live()
                .iter()
                .any(|m| m.game().round == g.round && m.game().pairing == g.pairing);
            if self.station.table_busy(table) || pairing_live {
                continue;
            }
            let Some(hands) = self.tables.get_mut(table) else {
                continue;
            };
            if hands.game.is_some() {
                continue;
            }
            // The hands set the pieces up, then the match connects to the boards.
            hands.finished_before = hands.player.games_finished();
            hands.player.allow_next_game();
            hands.game = Some(g);
            self.station.start_game(g)?;
        }
        Ok(())
    }

    /// A game the hands stopped (their move limit) gets its result as the single demo's
    /// does; a resumed game no hands carry on is adjudicated likewise.
    fn adjudicate(&mut self) {
        let now = Instant::now();
        let mut due: Vec<GameRef> = Vec::new();
        for t in &mut self.tables {
            let Some(g) = t.game else { continue };
            if t.player.games_finished() > t.finished_before && t.adjudicate_at.is_none() {
                t.adjudicate_at = Some(now + ADJUDICATION);
            }
            if t.adjudicate_at.is_some_and(|a| now >= a) {
                t.adjudicate_at = None;
                t.finished_before = t.player.games_finished();
                due.push(g);
            }
        }
        self.orphans.retain(|(g, at)| {
            if now >= *at {
                due.push(*g);
                false
            } else {
                true
            }
        });
        for g in due {
            if let Some(m) = self.station.live_match(g) {
                let view = m.view();
                if view.result.is_none() {
                    m.session().td(TdAction::DeclareResult {
                        result: super::adjudication(&view),
                    });
                }
            }
        }
    }

    /// Stops the hands and the boards; matches in play are left to be resumed.
    pub fn stop(self) {
        let EventDemo {
            station, tables, ..
        } = self;
        for mut t in tables {
            t.player.stop();
        }
        station.stop();
    }
}
