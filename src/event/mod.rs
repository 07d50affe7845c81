//! A club evening: teams, rounds, pairings, results and standings. Pure: no I/O, no
//! clock; the station keeps it in the event folder (`event.ron`) and feeds it each
//! finished match's result.
//!
//! - [`Event`]: the set-up, the teams, the tables (board pairs) and the rounds played.
//! - [`pairing`]: round robin (Berger tables) and Swiss by teams.
//! - [`colours`]: who plays White in each game, by the preset's rule.
//! - [`standings`]: game points by the preset's scoring, then its tiebreaks.
//! - [`file`]: `event.ron` as text (read with positions, written whole).
//! - [`export`]: `standings.csv` and the printable `standings.html`.
//!
//! A *pairing* is two teams meeting in a round; it plays as many *games* as the preset
//! says (a game is one bughouse match: both boards, one match folder). The team named
//! first in a pairing takes side A in its first game: White on board A (its partner Black
//! on board B).

pub mod colours;
pub mod export;
pub mod file;
pub mod pairing;
pub mod standings;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::rules::{MatchResult, RulesPreset, Seat, Team as Side, TimeControl};

pub use standings::Standing;

/// A team's number on the pairing sheet (1, 2, ...), in the order the teams were entered.
/// (Read by [`file`], which checks the number against the teams there are.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct TeamId(pub u16);

impl TeamId {
    /// Index into [`Event::teams`].
    #[must_use]
    pub fn index(self) -> usize {
        usize::from(self.0).saturating_sub(1)
    }

    #[must_use]
    pub fn from_index(i: usize) -> TeamId {
        TeamId(u16::try_from(i + 1).unwrap_or(u16::MAX))
    }
}

impl fmt::Display for TeamId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub name: String,
    #[serde(default)]
    pub rating: Option<u16>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Team {
    pub name: String,
    /// In the team's order: under a fixed team order the first keeps board A.
    pub players: Vec<Player>,
}

impl Team {
    /// The team's rating for seeding: the mean of its players' ratings, if all have one.
    #[must_use]
    pub fn rating(&self) -> Option<u32> {
        let ratings: Option<Vec<u32>> = self
            .players
            .iter()
            .map(|p| p.rating.map(u32::from))
            .collect();
        let r = ratings?;
        let n = u32::try_from(r.len()).ok().filter(|n| *n > 0)?;
        Some(r.iter().sum::<u32>() / n)
    }

    /// The player's name, or `?` if the team has no such player.
    #[must_use]
    pub fn player(&self, i: usize) -> &str {
        self.players.get(i).map_or("?", |p| p.name.as_str())
    }
}

/// How the teams meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Format {
    /// Every team meets every other team `cycles` times (2: a double round robin, the
    /// sides reversed the second time).
    RoundRobin { cycles: u8 },
    /// Swiss by teams: each round pairs teams level on points where it can, never twice
    /// the same two teams, balancing sides.
    Swiss { rounds: u16 },
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Format::RoundRobin { cycles: 1 } => write!(f, "round robin"),
            Format::RoundRobin { cycles: 2 } => write!(f, "double round robin"),
            Format::RoundRobin { cycles } => write!(f, "round robin ×{cycles}"),
            Format::Swiss { rounds } => write!(f, "Swiss, {rounds} rounds"),
        }
    }
}

/// What a bye is worth, as the TD sets it: each game of a pairing scored as this result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ByeScore {
    Win,
    Draw,
    Loss,
}

/// One pair of boards a match is played on: board A and board B, each a DGT serial number
/// or a port (as a station file names them), with the device profile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table {
    pub a: String,
    pub b: String,
    #[serde(default = "default_profile")]
    pub profile: String,
}

fn default_profile() -> String {
    "dgt-usb".to_owned()
}

/// The event as the TD set it up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub name: String,
    #[serde(default)]
    pub site: String,
    /// `YYYY.MM.DD`.
    #[serde(default)]
    pub date: String,
    /// The rules preset: a built-in name or a path.
    pub rules: String,
    pub time_control: TimeControl,
    pub format: Format,
    pub bye: ByeScore,
}

/// A game of a pairing, by numbers from 1: round, pairing in the round, game of the
/// pairing. Written `2.3` (round 2, pairing 3, game 1) or `2.3.2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameRef {
    pub round: u16,
    pub pairing: u16,
    pub game: u8,
}

impl GameRef {
    /// The pairing this game belongs to, as `round.pairing`.
    #[must_use]
    pub fn pairing_label(&self) -> String {
        format!("{}.{}", self.round, self.pairing)
    }
}

impl fmt::Display for GameRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.game <= 1 {
            write!(f, "{}.{}", self.round, self.pairing)
        } else {
            write!(f, "{}.{}.{}", self.round, self.pairing, self.game)
        }
    }
}

impl std::str::FromStr for GameRef {
    type Err = String;

    fn from_str(s: &str) -> Result<GameRef, String> {
        let parts: Vec<&str> = s.trim().split('.').collect();
        let num = |p: &str| p.parse::<u16>().ok().filter(|n| *n > 0);
        let bad = || format!("{s:?} is not a game: write round.pairing or round.pairing.game");
        match parts.as_slice() {
            [r, p] => Ok(GameRef {
                round: num(r).ok_or_else(bad)?,
                pairing: num(p).ok_or_else(bad)?,
                game: 1,
            }),
            [r, p, g] => Ok(GameRef {
                round: num(r).ok_or_else(bad)?,
                pairing: num(p).ok_or_else(bad)?,
                game: num(g).and_then(|g| u8::try_from(g).ok()).ok_or_else(bad)?,
            }),
            _ => Err(bad()),
        }
    }
}

/// How a game ended, for the event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ResultKind {
    /// Played to a result (a win, or a draw when there is no winner).
    Played,
    /// One team forfeits (absent, no clock, ...): the other wins.
    Forfeit,
    /// Both teams lose (US Chess 5: no clock on either side).
    DoubleForfeit,
}

/// A game's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameResult {
    /// The winning team; none for a draw or a double forfeit.
    pub winner: Option<TeamId>,
    pub kind: ResultKind,
    /// Entered or corrected by the TD, not taken from the match's record.
    #[serde(default)]
    pub by_td: bool,
    /// How it ended (`Ada checkmated`), or the TD's note.
    #[serde(default)]
    pub note: String,
}

impl GameResult {
    #[must_use]
    pub fn win(winner: TeamId, note: &str) -> GameResult {
        GameResult {
            winner: Some(winner),
            kind: ResultKind::Played,
            by_td: false,
            note: note.to_owned(),
        }
    }

    #[must_use]
    pub fn draw(note: &str) -> GameResult {
        GameResult {
            winner: None,
            kind: ResultKind::Played,
            by_td: false,
            note: note.to_owned(),
        }
    }

    /// `team` wins: its opponent forfeits.
    #[must_use]
    pub fn forfeit_win(team: TeamId) -> GameResult {
        GameResult {
            winner: Some(team),
            kind: ResultKind::Forfeit,
            by_td: true,
            note: "forfeit".to_owned(),
        }
    }

    #[must_use]
    pub fn double_forfeit() -> GameResult {
        GameResult {
            winner: None,
            kind: ResultKind::DoubleForfeit,
            by_td: true,
            note: "double forfeit".to_owned(),
        }
    }

    /// What `team` scored, as win, draw or loss.
    #[must_use]
    pub fn outcome_for(&self, team: TeamId) -> Outcome {
        match (self.kind, self.winner) {
            (ResultKind::DoubleForfeit, _) => Outcome::Loss,
            (_, None) => Outcome::Draw,
            (_, Some(w)) if w == team => Outcome::Win,
            (_, Some(_)) => Outcome::Loss,
        }
    }
}

/// One team's result in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// One game (one bughouse match) of a pairing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Game {
    /// The team on side A in this game: White on board A, its partner Black on board B.
    pub side_a: TeamId,
    /// Which player of each team plays White, the pairing's first team first.
    pub white: [u8; 2],
    /// Who decided `white`, for each team: the rule, or the team (still open, or
    /// entered by the TD).
    pub choice: [Choice; 2],
    /// The game's match folder, relative to the event folder, once it has started.
    #[serde(default)]
    pub folder: Option<String>,
    #[serde(default)]
    pub result: Option<GameResult>,
}

/// Who decides which player of a team plays White in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Choice {
    /// The preset's rule (a fixed board, the winners' switch).
    Rule,
    /// The team chooses and has not said yet: the TD is asked; until then the game shows
    /// the same colours as before (the first player White in a first game).
    Open,
    /// The team chose; the TD entered it.
    Chosen,
}

/// Two teams meeting in a round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pairing {
    /// Named first on the pairing sheet: side A in the first game.
    pub first: TeamId,
    pub second: TeamId,
    /// The boards it plays on: an index into [`Event::tables`] (`None`: no boards; the
    /// TD enters the results).
    #[serde(default)]
    pub table: Option<usize>,
    /// Its games so far; the next one is added when the one before has its result.
    pub games: Vec<Game>,
}

impl Pairing {
    #[must_use]
    pub fn teams(&self) -> [TeamId; 2] {
        [self.first, self.second]
    }

    #[must_use]
    pub fn has(&self, team: TeamId) -> bool {
        self.first == team || self.second == team
    }

    #[must_use]
    pub fn opponent(&self, team: TeamId) -> Option<TeamId> {
        if team == self.first {
            Some(self.second)
        } else if team == self.second {
            Some(self.first)
        } else {
            None
        }
    }

    /// 0 for the first team, 1 for the second.
    #[must_use]
    pub fn slot(&self, team: TeamId) -> Option<usize> {
        self.teams().iter().position(|t| *t == team)
    }
}

/// A round: its pairings and the teams with a bye.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Round {
    pub pairings: Vec<Pairing>,
    #[serde(default)]
    pub byes: Vec<TeamId>,
}

/// Who sits where in a game, by seat (WhiteA, BlackA, WhiteB, BlackB): the team and the
/// index of its player; the B seats are empty on one board.
pub type Lineup = [Option<(TeamId, usize)>; 4];

/// What went wrong with something the TD asked of the event. Nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EventError {
    #[error("{0}")]
    Refused(String),
}

fn refused<T>(why: impl Into<String>) -> Result<T, EventError> {
    Err(EventError::Refused(why.into()))
}

/// What recording a result changed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recorded {
    /// It replaced a result the game had.
    pub corrected: bool,
    /// The next game of the pairing was added (or, not yet started, its colours redone).
    pub next_game: Option<GameRef>,
    /// A later round not yet begun was paired again from the new standings.
    pub repaired_round: Option<u16>,
}

/// The whole event.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub setup: Setup,
    /// The preset, with the event's time control.
    preset: RulesPreset,
    pub teams: Vec<Team>,
    pub tables: Vec<Table>,
    pub rounds: Vec<Round>,
}

impl Event {
    /// A new event with no teams yet; `preset` is the one `setup.rules` names.
    #[must_use]
    pub fn new(setup: Setup, preset: RulesPreset) -> Event {
        Self::from_parts(setup, preset, Vec::new(), Vec::new(), Vec::new())
    }

    /// An event as recorded (the file's reader checks it first).
    #[must_use]
    pub fn from_parts(
        setup: Setup,
        mut preset: RulesPreset,
        teams: Vec<Team>,
        tables: Vec<Table>,
        rounds: Vec<Round>,
    ) -> Event {
        preset.time_control = setup.time_control;
        Event {
            setup,
            preset,
            teams,
            tables,
            rounds,
        }
    }

    /// The rules of every game (the preset, with the event's time control).
    #[must_use]
    pub fn preset(&self) -> &RulesPreset {
        &self.preset
    }

    #[must_use]
    pub fn team(&self, id: TeamId) -> Option<&Team> {
        self.teams.get(id.index())
    }

    /// The team's name, or `team N` if there is none.
    #[must_use]
    pub fn team_name(&self, id: TeamId) -> String {
        self.team(id)
            .map_or_else(|| format!("team {id}"), |t| t.name.clone())
    }

    #[must_use]
    pub fn team_ids(&self) -> Vec<TeamId> {
        (0..self.teams.len()).map(TeamId::from_index).collect()
    }

    /// Registers a team; refused once the first round is paired (no one joins or leaves
    /// after play begins), with the wrong number of players, or with a name already used.
    pub fn add_team(&mut self, team: Team) -> Result<TeamId, EventError> {
        if !self.rounds.is_empty() {
            return refused("teams cannot be added once the first round is paired");
        }
        let size = usize::from(self.preset.event.team_size);
        if team.players.len() != size {
            return refused(format!(
                "a team has {size} player(s) under {} ({} given)",
                self.preset.name,
                team.players.len()
            ));
        }
        if team.name.trim().is_empty() || team.players.iter().any(|p| p.name.trim().is_empty()) {
            return refused("team and player names cannot be empty");
        }
        if self
            .teams
            .iter()
            .any(|t| t.name.eq_ignore_ascii_case(team.name.trim()))
        {
            return refused(format!("there is already a team named {:?}", team.name));
        }
        if self.teams.len() >= usize::from(u16::MAX - 1) {
            return refused("too many teams");
        }
        self.teams.push(Team {
            name: team.name.trim().to_owned(),
            players: team.players,
        });
        Ok(TeamId::from_index(self.teams.len() - 1))
    }

    /// The round being played or last played (1-based), if any is paired.
    #[must_use]
    pub fn current_round(&self) -> Option<u16> {
        u16::try_from(self.rounds.len()).ok().filter(|n| *n > 0)
    }

    #[must_use]
    pub fn round(&self, n: u16) -> Option<&Round> {
        self.rounds.get(usize::from(n).checked_sub(1)?)
    }

    fn round_mut(&mut self, n: u16) -> Option<&mut Round> {
        self.rounds.get_mut(usize::from(n).checked_sub(1)?)
    }

    #[must_use]
    pub fn pairing(&self, round: u16, pairing: u16) -> Option<&Pairing> {
        self.round(round)?
            .pairings
            .get(usize::from(pairing).checked_sub(1)?)
    }

    fn pairing_mut(&mut self, round: u16, pairing: u16) -> Option<&mut Pairing> {
        self.round_mut(round)?
            .pairings
            .get_mut(usize::from(pairing).checked_sub(1)?)
    }

    #[must_use]
    pub fn game(&self, g: GameRef) -> Option<&Game> {
        self.pairing(g.round, g.pairing)?
            .games
            .get(usize::from(g.game).checked_sub(1)?)
    }

    fn game_mut(&mut self, g: GameRef) -> Option<&mut Game> {
        self.pairing_mut(g.round, g.pairing)?
            .games
            .get_mut(usize::from(g.game).checked_sub(1)?)
    }

    /// Every game of the event, in order (round, pairing, game).
    #[must_use]
    pub fn games(&self) -> Vec<(GameRef, &Pairing, &Game)> {
        let mut out = Vec::new();
        for (r, round) in self.rounds.iter().enumerate() {
            for (p, pairing) in round.pairings.iter().enumerate() {
                for (g, game) in pairing.games.iter().enumerate() {
                    out.push((
                        GameRef {
                            round: u16::try_from(r + 1).unwrap_or(u16::MAX),
                            pairing: u16::try_from(p + 1).unwrap_or(u16::MAX),
                            game: u8::try_from(g + 1).unwrap_or(u8::MAX),
                        },
                        pairing,
                        game,
                    ));
                }
            }
        }
        out
    }

    fn games_per_pairing(&self) -> usize {
        usize::from(self.preset.event.games_per_pairing.max(1))
    }

    /// Has every game of the pairing been played (or scored)?
    #[must_use]
    pub fn pairing_complete(&self, p: &Pairing) -> bool {
        p.games.len() >= self.games_per_pairing() && p.games.iter().all(|g| g.result.is_some())
    }

    /// Has every pairing of round `n` all its results?
    #[must_use]
    pub fn round_complete(&self, n: u16) -> bool {
        self.round(n)
            .is_some_and(|r| r.pairings.iter().all(|p| self.pairing_complete(p)))
    }

    /// Rounds in all, when the format fixes it.
    #[must_use]
    pub fn rounds_planned(&self) -> usize {
        match self.setup.format {
            Format::RoundRobin { cycles } => {
                let n = self.teams.len() + self.teams.len() % 2;
                usize::from(cycles) * n.saturating_sub(1)
            }
            Format::Swiss { rounds } => usize::from(rounds),
        }
    }

    /// Every round paired and played.
    #[must_use]
    pub fn finished(&self) -> bool {
        !self.rounds.is_empty()
            && self.rounds.len() >= self.rounds_planned()
            && self.current_round().is_some_and(|r| self.round_complete(r))
    }

    /// Pairs the next round: round robin from its schedule, Swiss from the standings.
    /// Refused while the round before has games without a result, or when the format's
    /// rounds are all played. Tables are given in order of the pairings (the best-placed
    /// pairing first); pairings beyond the tables get none.
    pub fn pair_next_round(&mut self) -> Result<u16, EventError> {
        if self.teams.len() < 2 {
            return refused("an event needs at least two teams");
        }
        if let Some(r) = self.current_round()
            && !self.round_complete(r)
        {
            return refused(format!("round {r} has games without a result"));
        }
        let k = self.rounds.len();
        if k >= self.rounds_planned() {
            return refused(format!(
                "all {} rounds of the {} are paired",
                self.rounds_planned(),
                self.setup.format
            ));
        }
        let round = self.paired_round(k)?;
        self.rounds.push(round);
        Ok(u16::try_from(self.rounds.len()).unwrap_or(u16::MAX))
    }

    /// The pairings of round `k` (0-based), as the format makes them.
    fn paired_round(&self, k: usize) -> Result<Round, EventError> {
        let (pairs, byes) = match self.setup.format {
            Format::RoundRobin { .. } => pairing::round_robin_round(self.teams.len(), k),
            Format::Swiss { .. } => {
                let history = pairing::History::of(self, k);
                let order = self.ranking_order(k);
                pairing::swiss_round(&order, &history)
                    .map_err(|e| EventError::Refused(e.to_string()))?
            }
        };
        // The best-placed pairing on the first table.
        let order = self.ranking_order(k);
        let place = |t: TeamId| order.iter().position(|o| *o == t).unwrap_or(usize::MAX);
        let mut pairs = pairs;
        pairs.sort_by_key(|(a, b)| place(*a).min(place(*b)));
        let pairings = pairs
            .into_iter()
            .enumerate()
            .map(|(i, (first, second))| Pairing {
                first,
                second,
                table: (i < self.tables.len()).then_some(i),
                games: vec![colours::first_game(&self.preset.event, first, second)],
            })
            .collect();
        Ok(Round { pairings, byes })
    }

    /// Teams in order of the standings after the first `rounds` rounds; before any
    /// result, by rating (teams without one after) and then by number.
    fn ranking_order(&self, rounds: usize) -> Vec<TeamId> {
        let table = standings::standings_after(self, rounds);
        let mut order: Vec<(usize, Option<u32>, TeamId)> = table
            .iter()
            .map(|s| (s.place, self.team(s.team).and_then(Team::rating), s.team))
            .collect();
        order.sort_by(|a, b| {
            a.0.cmp(&b.0)
                .then_with(|| b.1.cmp(&a.1))
                .then_with(|| a.2.cmp(&b.2))
        });
        order.into_iter().map(|o| o.2).collect()
    }

    /// Swaps the tables of two pairings of a round (neither may have a game started).
    pub fn swap_tables(&mut self, round: u16, p: u16, q: u16) -> Result<(), EventError> {
        for x in [p, q] {
            let Some(pairing) = self.pairing(round, x) else {
                return refused(format!("round {round} has no pairing {x}"));
            };
            if pairing.games.iter().any(|g| g.folder.is_some()) {
                return refused(format!("pairing {round}.{x} has begun on its boards"));
            }
        }
        let tp = self.pairing(round, p).and_then(|x| x.table);
        let tq = self.pairing(round, q).and_then(|x| x.table);
        if let Some(x) = self.pairing_mut(round, p) {
            x.table = tq;
        }
        if let Some(x) = self.pairing_mut(round, q) {
            x.table = tp;
        }
        Ok(())
    }

    /// Puts a pairing on table `table` (or none); refused once it has begun, or if another
    /// pairing of the round not yet finished has that table.
    pub fn set_table(
        &mut self,
        round: u16,
        p: u16,
        table: Option<usize>,
    ) -> Result<(), EventError> {
        let Some(pairing) = self.pairing(round, p) else {
            return refused(format!("round {round} has no pairing {p}"));
        };
        if pairing
            .games
            .iter()
            .any(|g| g.folder.is_some() && g.result.is_none())
        {
            return refused(format!("pairing {round}.{p} is being played on its boards"));
        }
        if let Some(t) = table {
            if t >= self.tables.len() {
                return refused(format!("there is no table {}", t + 1));
            }
            let busy = self.round(round).is_some_and(|r| {
                r.pairings.iter().enumerate().any(|(i, o)| {
                    i + 1 != usize::from(p) && o.table == Some(t) && !self.pairing_complete(o)
                })
            });
            if busy {
                return refused(format!("table {} has another pairing of the round", t + 1));
            }
        }
        if let Some(x) = self.pairing_mut(round, p) {
            x.table = table;
        }
        Ok(())
    }

    /// A team's choice of who plays White in a game, where the text lets the team choose
    /// (refused where the rule decides, or once the game has begun).
    pub fn choose_white(
        &mut self,
        g: GameRef,
        team: TeamId,
        player: usize,
    ) -> Result<(), EventError> {
        let size = usize::from(self.preset.event.team_size);
        let Some(pairing) = self.pairing(g.round, g.pairing) else {
            return refused(format!("there is no pairing {}", g.pairing_label()));
        };
        let Some(slot) = pairing.slot(team) else {
            return refused(format!(
                "team {team} does not play in pairing {}",
                g.pairing_label()
            ));
        };
        let Some(game) = self.game(g) else {
            return refused(format!("game {g} is not paired yet"));
        };
        if game.folder.is_some() || game.result.is_some() {
            return refused(format!("game {g} has begun: colours stand"));
        }
        if !colours::team_may_choose(game, slot) {
            return refused(format!(
                "under {} the rule decides who plays White here, not the team",
                self.preset.name
            ));
        }
        if player >= size {
            return refused(format!("a team has {size} player(s)"));
        }
        if let Some(game) = self.game_mut(g) {
            game.white[slot] = u8::try_from(player).unwrap_or(0);
            game.choice[slot] = Choice::Chosen;
        }
        Ok(())
    }

    /// The games that can start now: in the current round, each pairing's next game
    /// without a folder and without a result.
    #[must_use]
    pub fn ready_games(&self) -> Vec<GameRef> {
        let Some(r) = self.current_round() else {
            return Vec::new();
        };
        self.games()
            .into_iter()
            .filter(|(g, _, game)| g.round == r && game.folder.is_none() && game.result.is_none())
            .map(|(g, ..)| g)
            .collect()
    }

    /// Games begun on their boards and without a result yet.
    #[must_use]
    pub fn games_in_play(&self) -> Vec<GameRef> {
        self.games()
            .into_iter()
            .filter(|(_, _, game)| game.folder.is_some() && game.result.is_none())
            .map(|(g, ..)| g)
            .collect()
    }

    /// The folder a game's match is kept in, relative to the event folder:
    /// `rounds/2/match-3` (`rounds/2/match-3-game-2` when a pairing plays several).
    #[must_use]
    pub fn folder_name(&self, g: GameRef) -> String {
        if self.games_per_pairing() > 1 {
            format!("rounds/{}/match-{}-game-{}", g.round, g.pairing, g.game)
        } else {
            format!("rounds/{}/match-{}", g.round, g.pairing)
        }
    }

    /// A game's name on sheets and in the BPGN's Round: `2.3`, or `2.3.1`, `2.3.2` when a
    /// pairing plays several games.
    #[must_use]
    pub fn game_label(&self, g: GameRef) -> String {
        if self.games_per_pairing() > 1 {
            format!("{}.{}.{}", g.round, g.pairing, g.game)
        } else {
            g.to_string()
        }
    }

    /// Marks a game begun in `folder`; open colour choices stand as shown.
    pub fn start_game(&mut self, g: GameRef, folder: &str) -> Result<(), EventError> {
        let Some(game) = self.game(g) else {
            return refused(format!("game {g} is not paired"));
        };
        if game.result.is_some() {
            return refused(format!("game {g} has a result"));
        }
        if game.folder.is_some() {
            return refused(format!("game {g} has begun already"));
        }
        if let Some(game) = self.game_mut(g) {
            game.folder = Some(folder.to_owned());
            // The players took their seats: an open choice is the one they made.
            for c in &mut game.choice {
                if *c == Choice::Open {
                    *c = Choice::Chosen;
                }
            }
        }
        Ok(())
    }

    /// Who sits where in a game.
    #[must_use]
    pub fn lineup(&self, g: GameRef) -> Option<Lineup> {
        let pairing = self.pairing(g.round, g.pairing)?;
        let game = self.game(g)?;
        Some(colours::lineup(
            usize::from(self.preset.event.team_size),
            pairing,
            game,
        ))
    }

    /// Player names by seat (WhiteA, BlackA, WhiteB, BlackB) for a game's match.
    #[must_use]
    pub fn players(&self, g: GameRef) -> [String; 4] {
        let lineup = self.lineup(g).unwrap_or([None; 4]);
        lineup.map(|s| match s {
            Some((team, i)) => self.team(team).map_or("?", |t| t.player(i)).to_owned(),
            None => "-".to_owned(),
        })
    }

    /// The team on each side of a game: `[side A, side B]` (side A: White on board A).
    #[must_use]
    pub fn sides(&self, g: GameRef) -> Option<[TeamId; 2]> {
        let pairing = self.pairing(g.round, g.pairing)?;
        let game = self.game(g)?;
        let other = pairing.opponent(game.side_a)?;
        Some([game.side_a, other])
    }

    /// A finished match's result as the event records it: the winning side's team.
    #[must_use]
    pub fn result_of_match(
        &self,
        g: GameRef,
        result: &MatchResult,
        note: &str,
    ) -> Option<GameResult> {
        let [a, b] = self.sides(g)?;
        Some(match result.winner {
            Some(Side::WhiteA) => GameResult::win(a, note),
            Some(Side::BlackA) => GameResult::win(b, note),
            None => GameResult::draw(note),
        })
    }

    /// Records a game's result: from its finished match, or from the TD (a forfeit, a
    /// result entered by hand, a correction). A result replacing another is a
    /// correction: the standings follow, the pairing's next game (if not begun) gets its
    /// colours again, and a later round not yet begun is paired again.
    pub fn record_result(
        &mut self,
        g: GameRef,
        result: GameResult,
    ) -> Result<Recorded, EventError> {
        let Some(pairing) = self.pairing(g.round, g.pairing) else {
            return refused(format!("there is no pairing {}", g.pairing_label()));
        };
        if let Some(w) = result.winner
            && !pairing.has(w)
        {
            return refused(format!(
                "team {w} does not play in pairing {}",
                g.pairing_label()
            ));
        }
        if result.kind == ResultKind::Forfeit && result.winner.is_none() {
            return refused("a forfeit names the team that wins it");
        }
        let Some(game) = self.game(g) else {
            return refused(format!("game {g} is not paired yet"));
        };
        let corrected = game.result.is_some();
        if game.result.as_ref() == Some(&result) {
            return Ok(Recorded::default());
        }
        if let Some(game) = self.game_mut(g) {
            game.result = Some(result);
        }
        let mut recorded = Recorded {
            corrected,
            ..Recorded::default()
        };
        recorded.next_game = self.follow_pairing(g);
        if corrected {
            recorded.repaired_round = self.repair_later_round(g.round)?;
        }
        Ok(recorded)
    }

    /// After a game's result: the pairing's next game, added or (not begun) recoloured.
    fn follow_pairing(&mut self, g: GameRef) -> Option<GameRef> {
        let rules = self.preset.event.clone();
        let per = self.games_per_pairing();
        let pairing = self.pairing(g.round, g.pairing)?;
        let idx = usize::from(g.game);
        if idx >= per {
            return None;
        }
        let before = pairing.games.get(idx - 1)?;
        let next = colours::next_game(&rules, pairing, before)?;
        let next_ref = GameRef {
            game: g.game + 1,
            ..g
        };
        let pairing = self.pairing_mut(g.round, g.pairing)?;
        match pairing.games.get_mut(idx) {
            None => pairing.games.push(next),
            Some(existing) if existing.folder.is_none() && existing.result.is_none() => {
                *existing = next;
            }
            Some(_) => return None,
        }
        Some(next_ref)
    }

    /// A corrected result in round `round` changes the standings a Swiss round after it
    /// was paired from: if that round has not begun, it is paired again.
    fn repair_later_round(&mut self, round: u16) -> Result<Option<u16>, EventError> {
        if !matches!(self.setup.format, Format::Swiss { .. }) {
            return Ok(None);
        }
        let k = usize::from(round);
        if self.rounds.len() != k + 1 {
            return Ok(None);
        }
        let begun = self.rounds[k].pairings.iter().any(|p| {
            p.games
                .iter()
                .any(|g| g.folder.is_some() || g.result.is_some())
        });
        if begun {
            return Ok(None);
        }
        self.rounds.pop();
        match self.paired_round(k) {
            Ok(r) => {
                self.rounds.push(r);
                Ok(Some(u16::try_from(k + 1).unwrap_or(u16::MAX)))
            }
            // Cannot be paired again (no rematch-free pairing): leave it unpaired.
            Err(_) => Ok(None),
        }
    }

    /// Takes back the last round while none of its games has begun (the TD paired too
    /// early, or wants to change teams' tables wholesale).
    pub fn unpair_last_round(&mut self) -> Result<u16, EventError> {
        let Some(r) = self.current_round() else {
            return refused("no round is paired");
        };
        let begun = self.round(r).is_some_and(|x| {
            x.pairings.iter().any(|p| {
                p.games
                    .iter()
                    .any(|g| g.folder.is_some() || g.result.is_some())
            })
        });
        if begun {
            return refused(format!("round {r} has begun"));
        }
        self.rounds.pop();
        Ok(r)
    }

    /// The standings now.
    #[must_use]
    pub fn standings(&self) -> Vec<Standing> {
        standings::standings_after(self, self.rounds.len())
    }

    /// The seat a player of `team` has in a game, if they play in it.
    #[must_use]
    pub fn seat_of(&self, g: GameRef, team: TeamId, player: usize) -> Option<Seat> {
        let lineup = self.lineup(g)?;
        Seat::ALL
            .into_iter()
            .zip(lineup)
            .find(|(_, s)| *s == Some((team, player)))
            .map(|(seat, _)| seat)
    }
}

#[cfg(test)]
mod tests;
