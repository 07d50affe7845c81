//! Who plays White in each game of a pairing, as the preset's text says.
//!
//! In a bughouse match each team has one player of each colour: the team on side A has
//! White on board A and Black on board B, the other team Black on board A and White on
//! board B. So a game is set by its side (which team is on side A) and, for each team,
//! which of its players plays White. The preset's [`WhiteRule`] says who decides the
//! latter; its [`NextGameRule`] how a pairing's later games follow from the one before.

use crate::rules::{EventRules, NextGameRule, WhiteRule};

use super::{Choice, Game, Lineup, Outcome, Pairing, TeamId};

/// A pairing's first game: the first team on side A; White picked by the rule (or, where
/// the team decides, its first player shown until the TD enters the team's choice).
#[must_use]
pub fn first_game(rules: &EventRules, first: TeamId, _second: TeamId) -> Game {
    let mut game = Game {
        side_a: first,
        white: [0, 0],
        choice: [Choice::Rule; 2],
        folder: None,
        result: None,
    };
    apply_white_rule(rules, &mut game, first, [0, 0]);
    game
}

/// The game after `before` (which has its result), by the preset's rule. `None` if the
/// rule cannot be applied (no result yet).
#[must_use]
pub fn next_game(rules: &EventRules, pairing: &Pairing, before: &Game) -> Option<Game> {
    let result = before.result.as_ref()?;
    let other = pairing.opponent(before.side_a)?;
    let mut game = Game {
        side_a: before.side_a,
        white: before.white,
        choice: [Choice::Rule; 2],
        folder: None,
        result: None,
    };
    match rules.next_game {
        NextGameRule::SameRule => apply_white_rule(rules, &mut game, pairing.first, before.white),
        NextGameRule::SidesSwap => {
            game.side_a = other;
            apply_white_rule(rules, &mut game, pairing.first, before.white);
        }
        NextGameRule::WinnerSwitchesLoserChooses => {
            for (slot, team) in pairing.teams().into_iter().enumerate() {
                match result.outcome_for(team) {
                    // The winners switch: their White player plays Black.
                    Outcome::Win => {
                        game.white[slot] = 1 - before.white[slot].min(1);
                        game.choice[slot] = Choice::Rule;
                    }
                    // The losers (and, after a draw, both teams) choose: the same
                    // colours are shown until the TD enters the choice.
                    Outcome::Loss | Outcome::Draw => {
                        game.white[slot] = before.white[slot];
                        game.choice[slot] = Choice::Open;
                    }
                }
            }
        }
    }
    Some(game)
}

/// May the team in `slot` choose who plays White in `game`?
#[must_use]
pub fn team_may_choose(game: &Game, slot: usize) -> bool {
    game.choice.get(slot).is_some_and(|c| *c != Choice::Rule)
}

fn apply_white_rule(rules: &EventRules, game: &mut Game, first: TeamId, shown: [u8; 2]) {
    match rules.white {
        WhiteRule::TeamDecides => {
            game.white = shown;
            game.choice = [Choice::Open; 2];
        }
        WhiteRule::BySide => {
            // A team's first player keeps board A: White there on side A; on the other
            // side Black there, and the partner White on board B.
            let first_on_a = game.side_a == first;
            game.white = if rules.team_size <= 1 {
                [0, 0]
            } else {
                [u8::from(!first_on_a), u8::from(first_on_a)]
            };
            game.choice = [Choice::Rule; 2];
        }
    }
}

/// Who sits where: side A's White player on WhiteA, its partner on BlackB; the other
/// team's White player on WhiteB, its partner on BlackA. A team of one plays board A.
#[must_use]
pub fn lineup(team_size: usize, pairing: &Pairing, game: &Game) -> Lineup {
    let a = game.side_a;
    let Some(b) = pairing.opponent(a) else {
        return [None; 4];
    };
    let white_of = |t: TeamId| {
        pairing
            .slot(t)
            .and_then(|s| game.white.get(s))
            .map_or(0, |w| usize::from(*w))
    };
    if team_size <= 1 {
        return [Some((a, 0)), Some((b, 0)), None, None];
    }
    let (wa, wb) = (white_of(a).min(1), white_of(b).min(1));
    [
        Some((a, wa)),
        Some((b, 1 - wb)),
        Some((b, wb)),
        Some((a, 1 - wa)),
    ]
}
