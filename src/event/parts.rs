//! The parts of an event: teams and players, the set-up, tables, rounds, pairings,
//! games and their results, as `event.ron` holds them.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::rules::TimeControl;

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
    /// Who runs the table's DGT3000 clocks (without it: the players, Tandem reads them).
    #[serde(default, skip_serializing_if = "TableClocks::is_read")]
    pub clocks: TableClocks,
}

fn default_profile() -> String {
    "dgt-usb".to_owned()
}

/// Who runs a table's clocks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableClocks {
    /// The players set and start them; Tandem reads them.
    #[default]
    Read,
    /// Tandem drives both as one bughouse clock: set up, started together (by the TD, or
    /// by the station itself when it has no console), stopped and restarted together.
    Drive,
}

impl TableClocks {
    fn is_read(&self) -> bool {
        *self == TableClocks::Read
    }
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

pub(super) fn refused<T>(why: impl Into<String>) -> Result<T, EventError> {
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
