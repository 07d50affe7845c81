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
mod parts;
pub mod standings;

use crate::rules::{MatchResult, RulesPreset, Seat, Team as Side};

pub use parts::{
    ByeScore, Choice, EventError, Format, Game, GameRef, GameResult, Lineup, Outcome, Pairing,
    Player, Recorded, ResultKind, Round, Setup, Table, TableClocks, Team, TeamId,
};
pub use standings::Standing;

use parts::refused;

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

    /// Puts a pairing on table `table`; the pairing of the round that had it (not begun)
    /// takes this one's table in exchange.
    pub fn assign_table(&mut self, round: u16, p: u16, table: usize) -> Result<(), EventError> {
        let holder = self.round(round).and_then(|r| {
            r.pairings
                .iter()
                .position(|x| x.table == Some(table))
                .and_then(|i| u16::try_from(i + 1).ok())
        });
        match holder {
            Some(q) if q == p => Ok(()),
            Some(q) => self.swap_tables(round, p, q),
            None => self.set_table(round, p, Some(table)),
        }
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

    /// Takes back the start of a game whose match could not begin (its folder was never
    /// made): it waits to be started again.
    pub fn unstart_game(&mut self, g: GameRef) -> Result<(), EventError> {
        match self.game(g) {
            Some(game) if game.result.is_none() && game.folder.is_some() => {}
            _ => return refused(format!("game {g} is not begun without a result")),
        }
        if let Some(game) = self.game_mut(g) {
            game.folder = None;
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
        self.result_of_winner(g, result.winner, note)
    }

    /// The event's result for a match won by `winner` (a side of the match; `None`: a
    /// draw), with how it ended.
    #[must_use]
    pub fn result_of_winner(
        &self,
        g: GameRef,
        winner: Option<Side>,
        note: &str,
    ) -> Option<GameResult> {
        let [a, b] = self.sides(g)?;
        Some(match winner {
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

    /// Takes a game's result back (the TD withdrew it in the match): refused once the
    /// pairing's next game has begun; a next game not begun is taken back with it.
    pub fn withdraw_result(&mut self, g: GameRef) -> Result<(), EventError> {
        let Some(pairing) = self.pairing(g.round, g.pairing) else {
            return refused(format!("there is no pairing {}", g.pairing_label()));
        };
        let idx = usize::from(g.game);
        if pairing.games.get(idx..).is_some_and(|later| {
            later
                .iter()
                .any(|x| x.folder.is_some() || x.result.is_some())
        }) {
            return refused(format!(
                "the next game of pairing {} has begun: correct the result instead",
                g.pairing_label()
            ));
        }
        if self.game(g).is_none() {
            return refused(format!("game {g} is not paired"));
        }
        if let Some(pairing) = self.pairing_mut(g.round, g.pairing) {
            pairing.games.truncate(idx);
        }
        if let Some(game) = self.game_mut(g) {
            game.result = None;
        }
        Ok(())
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
