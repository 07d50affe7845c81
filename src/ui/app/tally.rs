//! The match score between the same teams across games of this run (the projector shows
//! it beside the game in play).

use crate::arbiter::view::MatchView;
use crate::rules::Team;
use crate::ui::text::Players;

/// Games finished during this run, for the match score between the same teams.
#[derive(Default)]
pub(super) struct Tally {
    games: Vec<([String; 2], [f32; 2])>,
}

/// A team as the set of its players' names (board and colour may change between games).
fn team_key(view: &impl Players, t: Team) -> String {
    let mut names: Vec<String> = t
        .seats()
        .iter()
        .map(|s| view.name(*s).trim().to_lowercase())
        .collect();
    names.sort();
    names.join(" & ")
}

impl Tally {
    pub(super) fn add(&mut self, view: &MatchView) {
        if let Some(r) = &view.result {
            self.games.push((
                [team_key(view, Team::WhiteA), team_key(view, Team::BlackA)],
                r.score,
            ));
        }
    }

    /// Points of earlier games for (team WhiteA, team BlackA) of this view.
    pub(super) fn earlier(&self, view: &impl Players) -> [f32; 2] {
        let keys = [team_key(view, Team::WhiteA), team_key(view, Team::BlackA)];
        let mut pts = [0.0, 0.0];
        for (k, s) in &self.games {
            if k[0] == keys[0] && k[1] == keys[1] {
                pts[0] += s[0];
                pts[1] += s[1];
            } else if k[0] == keys[1] && k[1] == keys[0] {
                pts[0] += s[1];
                pts[1] += s[0];
            }
        }
        pts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BoardId;

    fn after(moves: &[(BoardId, &str)]) -> MatchView {
        crate::arbiter::after_moves(moves).view()
    }

    #[test]
    fn the_score_adds_up_games_between_the_same_teams() {
        let mut tally = Tally::default();
        let mut v = after(&[]);
        v.players = ["Ada", "Boris", "Chen", "Dana"].map(str::to_owned);
        v.result = Some(crate::arbiter::view::ResultView {
            text: "Boris resigns".into(),
            winner: Some(Team::WhiteA),
            score: [1.0, 0.0],
            token: "1-0",
        });
        tally.add(&v);
        // The next game with colours swapped: Boris and Chen are now team WhiteA.
        let mut w = after(&[]);
        w.players = ["Boris", "Ada", "Dana", "Chen"].map(str::to_owned);
        assert_eq!(tally.earlier(&w), [0.0, 1.0]);
        let mut other = after(&[]);
        other.players = ["Eve", "Fay", "Gus", "Hal"].map(str::to_owned);
        assert_eq!(tally.earlier(&other), [0.0, 0.0]);
    }
}
