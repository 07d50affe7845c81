//! The standings: game points by the preset's scoring, then its tiebreaks in order.
//!
//! - **Game points**: each game scored win / draw / loss as the preset says (1 / ½ / 0 in
//!   every text); a forfeit scores as a win for one team and a loss for the other, a
//!   double forfeit as a loss for both; a bye as every game of a pairing scored as the TD
//!   set the bye (a win, a draw or a loss).
//! - **Head-to-head**: among the teams level on game points, the game points each scored
//!   in the games between them, counted only when every two of them have met equally
//!   often (else it separates nobody).
//! - **Sonneborn-Berger**: over the games played (forfeits included, byes not), the
//!   points scored in the game times the opponent's game points, summed.
//! - **Wins**: games won, over the board or by forfeit (not byes).
//!
//! Teams level on everything share a place; they are listed by number.

use std::collections::HashMap;

use crate::rules::{Scoring, Tiebreak};

use super::{ByeScore, Event, Outcome, TeamId};

/// One team's line in the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// 1 for the first; teams level on everything share it.
    pub place: usize,
    /// This place is shared.
    pub shared: bool,
    pub team: TeamId,
    pub points: f64,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub byes: u32,
    /// The preset's tiebreaks in its order; `None` where one does not apply (head-to-head
    /// among teams that have not all met).
    pub tiebreaks: Vec<Option<f64>>,
}

/// A scored game between two teams, from `team`'s side.
#[derive(Clone, Copy, Debug)]
struct Scored {
    team: TeamId,
    opponent: TeamId,
    points: f64,
}

/// The standings after the first `rounds` rounds (all games with a result in them).
#[must_use]
pub fn standings_after(event: &Event, rounds: usize) -> Vec<Standing> {
    let scoring = event.preset().scoring;
    let per_pairing = f64::from(event.preset().event.games_per_pairing.max(1));
    let teams = event.team_ids();
    let mut scored: Vec<Scored> = Vec::new();
    let mut lines: HashMap<TeamId, Standing> = teams
        .iter()
        .map(|t| {
            (
                *t,
                Standing {
                    place: 0,
                    shared: false,
                    team: *t,
                    points: 0.0,
                    games: 0,
                    wins: 0,
                    draws: 0,
                    losses: 0,
                    byes: 0,
                    tiebreaks: Vec::new(),
                },
            )
        })
        .collect();
    for round in event.rounds.iter().take(rounds) {
        for p in &round.pairings {
            for game in &p.games {
                let Some(result) = &game.result else {
                    continue;
                };
                for (team, opponent) in [(p.first, p.second), (p.second, p.first)] {
                    let outcome = result.outcome_for(team);
                    let points = points_of(scoring, outcome);
                    scored.push(Scored {
                        team,
                        opponent,
                        points,
                    });
                    if let Some(line) = lines.get_mut(&team) {
                        line.points += points;
                        line.games += 1;
                        match outcome {
                            Outcome::Win => line.wins += 1,
                            Outcome::Draw => line.draws += 1,
                            Outcome::Loss => line.losses += 1,
                        }
                    }
                }
            }
        }
        for bye in &round.byes {
            if let Some(line) = lines.get_mut(bye) {
                let outcome = match event.setup.bye {
                    ByeScore::Win => Outcome::Win,
                    ByeScore::Draw => Outcome::Draw,
                    ByeScore::Loss => Outcome::Loss,
                };
                line.points += per_pairing * points_of(scoring, outcome);
                line.byes += 1;
            }
        }
    }
    let points: HashMap<TeamId, f64> = lines.iter().map(|(t, l)| (*t, l.points)).collect();
    let tiebreaks = &event.preset().event.tiebreaks;
    // Head-to-head is computed within each group level on points.
    let h2h = head_to_head(&teams, &points, &scored);
    for line in lines.values_mut() {
        line.tiebreaks = tiebreaks
            .iter()
            .map(|tb| match tb {
                Tiebreak::HeadToHead => h2h.get(&line.team).copied(),
                Tiebreak::SonnebornBerger => Some(
                    scored
                        .iter()
                        .filter(|s| s.team == line.team)
                        .map(|s| s.points * points.get(&s.opponent).copied().unwrap_or(0.0))
                        .sum(),
                ),
                Tiebreak::Wins => Some(f64::from(line.wins)),
            })
            .collect();
    }
    let mut table: Vec<Standing> = lines.into_values().collect();
    table.sort_by(|a, b| rank_order(a, b).then_with(|| a.team.cmp(&b.team)));
    // Places: a team shares the place of the one above when level on everything.
    for i in 0..table.len() {
        let place = if i > 0 && rank_order(&table[i - 1], &table[i]).is_eq() {
            table[i - 1].place
        } else {
            i + 1
        };
        table[i].place = place;
    }
    for i in 0..table.len() {
        let p = table[i].place;
        table[i].shared = table.iter().filter(|s| s.place == p).count() > 1;
    }
    table
}

fn points_of(scoring: Scoring, outcome: Outcome) -> f64 {
    f64::from(match outcome {
        Outcome::Win => scoring.win,
        Outcome::Draw => scoring.draw,
        Outcome::Loss => scoring.loss,
    })
}

/// Better first: more points, then each tiebreak higher (a tiebreak that does not apply
/// separates nobody).
fn rank_order(a: &Standing, b: &Standing) -> std::cmp::Ordering {
    b.points.total_cmp(&a.points).then_with(|| {
        a.tiebreaks
            .iter()
            .zip(&b.tiebreaks)
            .map(|(x, y)| match (x, y) {
                (Some(x), Some(y)) => y.total_cmp(x),
                _ => std::cmp::Ordering::Equal,
            })
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
    })
}

/// For each team level on points with others: its game points in the games among them,
/// if every two of them met equally often (at least once).
fn head_to_head(
    teams: &[TeamId],
    points: &HashMap<TeamId, f64>,
    scored: &[Scored],
) -> HashMap<TeamId, f64> {
    let mut out = HashMap::new();
    let mut groups: Vec<Vec<TeamId>> = Vec::new();
    for t in teams {
        let p = points.get(t).copied().unwrap_or(0.0);
        match groups.iter_mut().find(|g| {
            g.first()
                .and_then(|f| points.get(f))
                .is_some_and(|q| *q == p)
        }) {
            Some(g) => g.push(*t),
            None => groups.push(vec![*t]),
        }
    }
    for group in groups.into_iter().filter(|g| g.len() > 1) {
        let games_between = |a: TeamId, b: TeamId| {
            scored
                .iter()
                .filter(|s| s.team == a && s.opponent == b)
                .count()
        };
        let first = games_between(group[0], group[1]);
        let all_met_equally = first > 0
            && group.iter().enumerate().all(|(i, a)| {
                group
                    .iter()
                    .skip(i + 1)
                    .all(|b| games_between(*a, *b) == first)
            });
        if !all_met_equally {
            continue;
        }
        for t in &group {
            let mini: f64 = scored
                .iter()
                .filter(|s| s.team == *t && group.contains(&s.opponent))
                .map(|s| s.points)
                .sum();
            out.insert(*t, mini);
        }
    }
    out
}
