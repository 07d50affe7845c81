//! A whole event on simulated boards in simulated time (`tandem event simulate`): rounds
//! paired as the TD would pair them, each game played by the demo's hands on two
//! simulated boards through [`play_match`] (the production link code, the same runner and
//! match folder as live play), its result recorded from the match, the standings kept.
//! Hours of play take seconds and leave the event folder a live evening leaves.

use anyhow::Context as _;

use crate::event::{Choice, Event, GameRef, Player, Team};
use crate::station::simulated::{SimulatedPlay, play_match};
use crate::util::SplitMix64;

use super::{EventFolder, game_header, table_plans, virtual_tables};

/// What happened, for whoever follows the simulation.
#[derive(Clone, Debug)]
pub enum Progress {
    Paired { round: u16 },
    Played { game: GameRef, result: String },
}

/// Names for simulated teams and their players.
const TEAM_NAMES: [&str; 16] = [
    "Knights",
    "Rooks",
    "Bishops",
    "Queens",
    "Pawnstars",
    "Droppers",
    "Flaggers",
    "Forks",
    "Pins",
    "Skewers",
    "Gambits",
    "Castlers",
    "Zugzwang",
    "En Passant",
    "Tempo",
    "Fianchetto",
];
const PLAYER_NAMES: [&str; 32] = [
    "Ada", "Boris", "Chen", "Dana", "Emil", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea",
    "Mia", "Nils", "Olga", "Pia", "Quinn", "Rui", "Sol", "Tove", "Uma", "Vik", "Wen", "Xia", "Yan",
    "Zoe", "Abe", "Bea", "Cy", "Dex", "Eva", "Finn",
];

/// `n` teams for a simulated event, each of `size` players with a rating.
#[must_use]
pub fn simulated_teams(n: usize, size: usize, seed: u64) -> Vec<Team> {
    let mut rng = SplitMix64::new(seed);
    (0..n)
        .map(|i| {
            let name = match TEAM_NAMES.get(i) {
                Some(n) => (*n).to_owned(),
                None => format!("Team {}", i + 1),
            };
            let players = (0..size)
                .map(|p| {
                    let k = i * size + p;
                    let base = PLAYER_NAMES[k % PLAYER_NAMES.len()];
                    let name = if k < PLAYER_NAMES.len() {
                        base.to_owned()
                    } else {
                        format!("{base} {}", k / PLAYER_NAMES.len() + 1)
                    };
                    #[allow(clippy::cast_possible_truncation)]
                    let rating = 1200 + rng.below(1000) as u16;
                    Player {
                        name,
                        rating: Some(rating),
                    }
                })
                .collect();
            Team { name, players }
        })
        .collect()
}

/// Plays `event` to its end in `folder`: pairs each round, lets each team with a choice
/// of colours choose at random, plays every game on simulated boards (its table's serial
/// numbers, or a virtual table's), records each result, and keeps `event.ron`, the
/// standings and `event.bpgn` current after each step. `play` sets the hands (its seed is
/// varied game by game).
pub fn play_event(
    folder: &EventFolder,
    event: &mut Event,
    play: &SimulatedPlay,
    mut progress: impl FnMut(&Event, &Progress),
) -> anyhow::Result<()> {
    let mut rng = SplitMix64::new(play.seed ^ 0x5eed);
    let mut n = 0u64;
    while !event.finished() {
        if event
            .current_round()
            .is_none_or(|r| event.round_complete(r))
        {
            let round = event.pair_next_round()?;
            folder.save(event)?;
            progress(event, &Progress::Paired { round });
        }
        for g in event.ready_games() {
            n += 1;
            choose_at_random(event, g, &mut rng);
            let name = event.folder_name(g);
            event.start_game(g, &name)?;
            folder.save(event)?;
            let table = event
                .pairing(g.round, g.pairing)
                .and_then(|p| p.table)
                .and_then(|t| event.tables.get(t).cloned())
                .unwrap_or_else(|| virtual_tables(1).remove(0));
            let plans = table_plans(&table)?;
            let header = game_header(event, g, &plans, true);
            let players = header.config.players.clone();
            let game_play = SimulatedPlay {
                seed: play.seed.wrapping_add(n),
                serials: [table.a.clone(), table.b.clone()],
                ..play.clone()
            };
            let runner = play_match(
                header,
                Some(&folder.dir().join(&name)),
                &game_play,
                |_, _, _| {},
            )
            .with_context(|| format!("playing game {g}"))?;
            let result = runner
                .arbiter()
                .game()
                .result()
                .cloned()
                .context("a simulated match ends with a result")?;
            let note = result.describe(&|seat| players[seat.index()].clone());
            let recorded = event
                .result_of_match(g, &result, &note)
                .context("the game is in the event")?;
            event.record_result(g, recorded)?;
            folder.save(event)?;
            folder.write_bpgn(event)?;
            progress(
                event,
                &Progress::Played {
                    game: g,
                    result: note,
                },
            );
        }
    }
    folder.write_bpgn(event)
}

/// The teams that may choose who plays White do, at random.
fn choose_at_random(event: &mut Event, g: GameRef, rng: &mut SplitMix64) {
    let size = usize::from(event.preset().event.team_size);
    let Some(pairing) = event.pairing(g.round, g.pairing).cloned() else {
        return;
    };
    let Some(game) = event.game(g).cloned() else {
        return;
    };
    for (slot, team) in pairing.teams().into_iter().enumerate() {
        if game.choice[slot] == Choice::Open {
            let _ = event.choose_white(g, team, rng.below(size));
        }
    }
}
