//! Pairing the rounds.
//!
//! **Round robin** (Berger's scheme): with `n` teams (one more, a bye, when `n` is odd),
//! numbered from 0, team `n-1` is fixed and the others turn: in round `r` (0-based)
//! teams `i` and `j` (both below `n-1`) meet when `i + j ≡ r (mod n-1)`, and team `i`
//! meets team `n-1` when `2i ≡ r`. Every pair meets once a cycle, nobody twice in a
//! round; of `i < j`, `i` takes side A when `i + j` is odd, so every team has side A in
//! half its games (±1) and mostly alternates. A second cycle reverses the first's sides.
//!
//! **Swiss by teams**: teams in order of the standings; the bye (odd numbers) to the
//! lowest-placed team that has not had one; then each team in turn, from the top, is
//! paired with the opponent nearest in points it has not met, within a score group the
//! top half against the bottom half, backtracking when the teams left cannot all be
//! paired. A rematch is never made: if no pairing without one exists the round is
//! refused. Sides: the team that has had side A less often takes it; if level, the one
//! that had side B last; if still level, the higher-placed.

use std::collections::{HashMap, HashSet};

use super::{Event, TeamId};

/// What the Swiss needs to know of the rounds before: who met whom, sides and byes, and
/// the points (for score groups).
#[derive(Clone, Debug, Default)]
pub struct History {
    met: HashSet<(TeamId, TeamId)>,
    /// Per team: games on side A minus games on side B, and the side of its last game.
    sides: HashMap<TeamId, (i32, Option<bool>)>,
    byes: HashSet<TeamId>,
    /// Game points (in half points, for exact comparison).
    points: HashMap<TeamId, i64>,
}

impl History {
    /// The first `rounds` rounds of `event`.
    #[must_use]
    pub fn of(event: &Event, rounds: usize) -> History {
        let mut h = History::default();
        for round in event.rounds.iter().take(rounds) {
            for p in &round.pairings {
                h.met.insert(key(p.first, p.second));
                for game in &p.games {
                    let Some(other) = p.opponent(game.side_a) else {
                        continue;
                    };
                    h.add_side(game.side_a, true);
                    h.add_side(other, false);
                }
            }
            h.byes.extend(round.byes.iter().copied());
        }
        for s in super::standings::standings_after(event, rounds) {
            #[allow(clippy::cast_possible_truncation)]
            h.points.insert(s.team, (s.points * 4.0).round() as i64);
        }
        h
    }

    fn add_side(&mut self, team: TeamId, side_a: bool) {
        let e = self.sides.entry(team).or_insert((0, None));
        e.0 += if side_a { 1 } else { -1 };
        e.1 = Some(side_a);
    }

    #[must_use]
    pub fn have_met(&self, a: TeamId, b: TeamId) -> bool {
        self.met.contains(&key(a, b))
    }

    #[must_use]
    pub fn had_bye(&self, t: TeamId) -> bool {
        self.byes.contains(&t)
    }

    fn points(&self, t: TeamId) -> i64 {
        self.points.get(&t).copied().unwrap_or(0)
    }

    /// Which of two teams takes side A (the first of the pair returned).
    fn sides_for(&self, a: TeamId, b: TeamId) -> (TeamId, TeamId) {
        let (da, la) = self.sides.get(&a).copied().unwrap_or((0, None));
        let (db, lb) = self.sides.get(&b).copied().unwrap_or((0, None));
        if da != db {
            return if da < db { (a, b) } else { (b, a) };
        }
        match (la, lb) {
            (Some(false), Some(true)) => (a, b),
            (Some(true), Some(false)) => (b, a),
            // `a` is the higher-placed.
            _ => (a, b),
        }
    }
}

fn key(a: TeamId, b: TeamId) -> (TeamId, TeamId) {
    if a <= b { (a, b) } else { (b, a) }
}

/// Round `k` (0-based, counting every cycle) of a round robin of `teams` teams: the
/// pairs (side A first) and the team with the bye, if any.
#[must_use]
pub fn round_robin_round(teams: usize, k: usize) -> Paired {
    let n = teams + teams % 2;
    if n < 2 {
        return (Vec::new(), Vec::new());
    }
    let m = n - 1;
    let cycle = k / m;
    let r = k % m;
    let mut pairs = Vec::new();
    let mut byes = Vec::new();
    let mut push = |a: usize, b: usize| {
        // A team number at or past `teams` is the bye.
        if a >= teams {
            byes.push(TeamId::from_index(b));
        } else if b >= teams {
            byes.push(TeamId::from_index(a));
        } else if cycle.is_multiple_of(2) {
            pairs.push((TeamId::from_index(a), TeamId::from_index(b)));
        } else {
            pairs.push((TeamId::from_index(b), TeamId::from_index(a)));
        }
    };
    // The turning teams: i < j < m with i + j ≡ r.
    for i in 0..m {
        let j = (r + m - i % m) % m;
        if i < j {
            if (i + j) % 2 == 1 {
                push(i, j);
            } else {
                push(j, i);
            }
        }
    }
    // The fixed team meets i with 2i ≡ r; it takes side A in even rounds.
    let inv2 = m.div_ceil(2);
    let i = (r * inv2) % m;
    if r.is_multiple_of(2) {
        push(m, i);
    } else {
        push(i, m);
    }
    (pairs, byes)
}

/// Why a Swiss round could not be paired.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SwissError {
    #[error("no pairing of this round avoids a rematch: every remaining pairing repeats one")]
    NoPairing,
}

/// Most pairings tried before giving up (a round that cannot be paired is found out long
/// before on any club's number of teams).
const SEARCH_LIMIT: usize = 200_000;

/// A round's pairs (side A first) and the teams with a bye.
pub type Paired = (Vec<(TeamId, TeamId)>, Vec<TeamId>);

/// A Swiss round for the teams in `order` (placed best first): pairs (side A first) and
/// the bye, if any.
pub fn swiss_round(order: &[TeamId], history: &History) -> Result<Paired, SwissError> {
    let mut budget = SEARCH_LIMIT;
    if order.len() % 2 == 1 {
        // The bye to the lowest-placed team without one whose absence leaves a pairing.
        let mut candidates: Vec<TeamId> = order
            .iter()
            .rev()
            .copied()
            .filter(|t| !history.had_bye(*t))
            .collect();
        if candidates.is_empty() {
            candidates = order.iter().rev().copied().collect();
        }
        for bye in candidates {
            let rest: Vec<TeamId> = order.iter().copied().filter(|t| *t != bye).collect();
            if let Some(pairs) = pair_all(&rest, history, &mut budget) {
                return Ok((sided(pairs, history), vec![bye]));
            }
        }
        return Err(SwissError::NoPairing);
    }
    pair_all(order, history, &mut budget)
        .map(|pairs| (sided(pairs, history), Vec::new()))
        .ok_or(SwissError::NoPairing)
}

fn sided(pairs: Vec<(TeamId, TeamId)>, history: &History) -> Vec<(TeamId, TeamId)> {
    pairs
        .into_iter()
        .map(|(a, b)| history.sides_for(a, b))
        .collect()
}

/// Pairs every team of `left` (in order of placing), or `None`.
fn pair_all(
    left: &[TeamId],
    history: &History,
    budget: &mut usize,
) -> Option<Vec<(TeamId, TeamId)>> {
    let Some((&top, rest)) = left.split_first() else {
        return Some(Vec::new());
    };
    for opponent in preferred_opponents(top, rest, history) {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let remaining: Vec<TeamId> = rest.iter().copied().filter(|t| *t != opponent).collect();
        if let Some(mut pairs) = pair_all(&remaining, history, budget) {
            pairs.insert(0, (top, opponent));
            return Some(pairs);
        }
    }
    None
}

/// `top`'s possible opponents among `rest`, best first: never one it has met; nearest in
/// points; within its own score group, the team half the group below it first (top half
/// against bottom half), then the others in order.
fn preferred_opponents(top: TeamId, rest: &[TeamId], history: &History) -> Vec<TeamId> {
    let pts = history.points(top);
    let group: Vec<TeamId> = rest
        .iter()
        .copied()
        .filter(|t| history.points(*t) == pts)
        .collect();
    // `top` heads its group (it is the highest placed left); its ideal opponent is the
    // first of the group's bottom half.
    let half = group.len().div_ceil(2);
    let mut candidates: Vec<(i64, usize, usize, TeamId)> = rest
        .iter()
        .enumerate()
        .filter(|(_, t)| !history.have_met(top, **t))
        .map(|(i, t)| {
            let gap = (history.points(*t) - pts).abs();
            let dutch = group
                .iter()
                .position(|g| g == t)
                .map_or(usize::MAX, |p| p.abs_diff(half.saturating_sub(1)));
            (gap, dutch, i, *t)
        })
        .collect();
    candidates.sort_unstable();
    candidates.into_iter().map(|c| c.3).collect()
}
