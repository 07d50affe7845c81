//! `event.ron`: the event as text. Everything the evening decided is in it: the set-up,
//! the teams, the tables, every round's pairings, colours, match folders and results.
//!
//! ```text
//! (
//!     version: 1,
//!     setup: (name: "Club night", site: "", date: "2026.11.21", rules: "uscf-bughouse",
//!             time_control: (base_ms: 300000, increment_ms: 0, delay_ms: 0),
//!             format: RoundRobin(cycles: 1), bye: Win),
//!     teams: [(name: "Knights", players: [(name: "Ada", rating: Some(1500)), ...]), ...],
//!     tables: [(a: "10001", b: "10002", profile: "virtual"), ...],
//!     rounds: [(pairings: [(first: 1, second: 4, table: Some(0), games: [(side_a: 1,
//!               white: (0, 0), choice: (Chosen, Chosen), folder: Some("rounds/1/match-1"),
//!               result: Some((winner: Some(1), kind: Played, by_td: false,
//!               note: "Dana checkmated")))])], byes: [])],
//! )
//! ```
//! Teams are numbered from 1 in the order listed; a table is numbered from 0 here (table
//! `0` is the first). A file a hand edited badly is refused with `LINE:COL`: a syntax
//! error, an unknown field, a team number no team has, a team twice in a round, a
//! player or table that does not exist, a result for a team not in the pairing, more
//! games than the preset plays. Pure: text in, text out.

use std::cell::Cell;

use serde::{Deserialize, Deserializer, Serialize};

use crate::rules::RulesPreset;

use super::{Event, ResultKind, Round, Setup, Table, Team, TeamId};

/// The event's file in its folder.
pub const FILE_NAME: &str = "event.ron";

const VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct EventFile {
    version: u32,
    setup: Setup,
    #[serde(default)]
    teams: Vec<Team>,
    #[serde(default)]
    tables: Vec<Table>,
    #[serde(default)]
    rounds: Vec<CheckedRound>,
}

/// A round, checked against the rest of the file as it is read.
#[derive(Serialize)]
#[serde(transparent)]
struct CheckedRound(Round);

/// What a file is checked against while read (the second reading: team numbers, players,
/// tables, games a pairing).
#[derive(Clone, Copy, Debug)]
struct Limits {
    teams: u16,
    team_size: u8,
    games_per_pairing: u8,
    tables: usize,
}

thread_local! {
    static LIMITS: Cell<Option<Limits>> = const { Cell::new(None) };
}

/// A bad event file: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct FileError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// Reads an event file. `load_preset` loads the preset the set-up names (a name or a
/// path: the caller's business). A team number is checked where it is written; the other
/// checks at the end of the round they concern.
pub fn parse(
    text: &str,
    load_preset: impl Fn(&str) -> Result<RulesPreset, String>,
) -> Result<Event, FileError> {
    // First reading: the shape, and what the rest is checked against.
    let first = read(text, None)?;
    if first.version != VERSION {
        return Err(at_field(
            text,
            "version",
            format!(
                "event file version {} (this Tandem reads {VERSION})",
                first.version
            ),
        ));
    }
    let preset = load_preset(&first.setup.rules).map_err(|e| at_field(text, "rules", e))?;
    let limits = Limits {
        teams: u16::try_from(first.teams.len()).unwrap_or(u16::MAX),
        team_size: preset.event.team_size,
        games_per_pairing: preset.event.games_per_pairing,
        tables: first.tables.len(),
    };
    for (i, team) in first.teams.iter().enumerate() {
        if team.players.len() != usize::from(limits.team_size) {
            return Err(at_nth(
                text,
                "players",
                i,
                format!(
                    "team {} ({}) has {} player(s); {} plays teams of {}",
                    i + 1,
                    team.name,
                    team.players.len(),
                    preset.name,
                    limits.team_size
                ),
            ));
        }
    }
    // Second reading, checked as it goes.
    let file = read(text, Some(limits))?;
    Ok(Event::from_parts(
        file.setup,
        preset,
        file.teams,
        file.tables,
        file.rounds.into_iter().map(|r| r.0).collect(),
    ))
}

fn read(text: &str, limits: Option<Limits>) -> Result<EventFile, FileError> {
    LIMITS.with(|l| l.set(limits));
    let out = ron::from_str::<EventFile>(text).map_err(|e| FileError {
        line: e.span.start.line,
        column: e.span.start.col,
        message: e.code.to_string(),
    });
    LIMITS.with(|l| l.set(None));
    out
}

/// The event as its file's text.
#[must_use]
pub fn to_text(event: &Event) -> String {
    let file = EventFile {
        version: VERSION,
        setup: event.setup.clone(),
        teams: event.teams.clone(),
        tables: event.tables.clone(),
        rounds: event.rounds.iter().cloned().map(CheckedRound).collect(),
    };
    let config = ron::ser::PrettyConfig::new()
        .compact_arrays(true)
        .indentor("  ".to_owned());
    let body = ron::ser::to_string_pretty(&file, config)
        .unwrap_or_else(|e| format!("// this event could not be written: {e}\n"));
    format!(
        "// Tandem event: {}. Teams are numbered from 1 as listed, tables from 0.\n{body}\n",
        event.setup.name.replace('\n', " ")
    )
}

/// A position for a field's value (`rules: "x"`), for errors found after reading.
fn at_field(text: &str, field: &str, message: String) -> FileError {
    at_nth(text, field, 0, message)
}

/// The `n`-th occurrence of `field:` in the text (outside comments is good enough: the
/// writer puts none there), or the start of the file.
fn at_nth(text: &str, field: &str, n: usize, message: String) -> FileError {
    let needle = format!("{field}:");
    let offset = text.match_indices(&needle).nth(n).map_or(0, |(i, _)| i);
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rfind('\n').map_or(offset, |nl| offset - nl - 1) + 1;
    FileError {
        line,
        column,
        message,
    }
}

impl<'de> Deserialize<'de> for TeamId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<TeamId, D::Error> {
        let n = u16::deserialize(d)?;
        if n == 0 {
            return Err(serde::de::Error::custom(
                "teams are numbered from 1 (team 0 does not exist)",
            ));
        }
        if let Some(l) = LIMITS.with(Cell::get)
            && n > l.teams
        {
            return Err(serde::de::Error::custom(format!(
                "there is no team {n}: the event has {} team(s)",
                l.teams
            )));
        }
        Ok(TeamId(n))
    }
}

impl<'de> Deserialize<'de> for CheckedRound {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CheckedRound, D::Error> {
        let round = Round::deserialize(d)?;
        if let Some(limits) = LIMITS.with(Cell::get) {
            check_round(&round, limits).map_err(serde::de::Error::custom)?;
        }
        Ok(CheckedRound(round))
    }
}

/// What a round must be to be played.
fn check_round(round: &Round, limits: Limits) -> Result<(), String> {
    let mut seen: Vec<TeamId> = Vec::new();
    for (i, p) in round.pairings.iter().enumerate() {
        let label = i + 1;
        if p.first == p.second {
            return Err(format!(
                "pairing {label}: team {} is paired with itself",
                p.first
            ));
        }
        for t in p.teams() {
            if seen.contains(&t) {
                return Err(format!(
                    "pairing {label}: team {t} plays twice in the round"
                ));
            }
            seen.push(t);
        }
        if let Some(t) = p.table
            && t >= limits.tables
        {
            return Err(format!(
                "pairing {label}: there is no table {t} (the event has {}, numbered from 0)",
                limits.tables
            ));
        }
        if p.games.len() > usize::from(limits.games_per_pairing) {
            return Err(format!(
                "pairing {label}: {} games, but a pairing plays {}",
                p.games.len(),
                limits.games_per_pairing
            ));
        }
        for (g, game) in p.games.iter().enumerate() {
            let label = format!("pairing {label}, game {}", g + 1);
            if !p.has(game.side_a) {
                return Err(format!(
                    "{label}: side_a is team {}, not in the pairing",
                    game.side_a
                ));
            }
            if game.white.iter().any(|w| *w >= limits.team_size) {
                return Err(format!(
                    "{label}: white names player {} of a team of {}",
                    game.white.iter().max().copied().unwrap_or(0),
                    limits.team_size
                ));
            }
            if let Some(r) = &game.result {
                if let Some(w) = r.winner
                    && !p.has(w)
                {
                    return Err(format!(
                        "{label}: the winner, team {w}, is not in the pairing"
                    ));
                }
                if r.kind == ResultKind::Forfeit && r.winner.is_none() {
                    return Err(format!("{label}: a forfeit names the team that wins it"));
                }
            }
            if g + 1 < p.games.len() && game.result.is_none() {
                return Err(format!(
                    "{label}: a later game is recorded before this one's result"
                ));
            }
        }
    }
    for t in &round.byes {
        if seen.contains(t) {
            return Err(format!(
                "team {t} has a bye and a pairing in the same round"
            ));
        }
        seen.push(*t);
    }
    Ok(())
}
