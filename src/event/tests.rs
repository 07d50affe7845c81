#![allow(clippy::unwrap_used)]

use std::collections::HashMap;

use super::*;
use crate::rules::RulesPreset;
use crate::util::SplitMix64;

fn setup(rules: &str, format: Format) -> Setup {
    let preset = RulesPreset::built_in(rules);
    Setup {
        name: "Club night".into(),
        site: String::new(),
        date: "2026.11.21".into(),
        rules: rules.into(),
        time_control: preset.time_control,
        format,
        bye: ByeScore::Win,
    }
}

fn event(rules: &str, format: Format, teams: usize) -> Event {
    let mut e = Event::new(setup(rules, format), RulesPreset::built_in(rules));
    let size = usize::from(e.preset().event.team_size);
    for i in 0..teams {
        let players = (0..size)
            .map(|p| Player {
                name: format!("P{}{}", i + 1, ["a", "b"][p]),
                rating: None,
            })
            .collect();
        e.add_team(Team {
            name: format!("Team {}", i + 1),
            players,
        })
        .unwrap();
    }
    e
}

fn rr(cycles: u8) -> Format {
    Format::RoundRobin { cycles }
}

/// Plays every ready game of the current round with `pick` choosing each result.
fn play_round(e: &mut Event, mut pick: impl FnMut(GameRef, TeamId, TeamId) -> GameResult) {
    let r = e.current_round().unwrap();
    while !e.round_complete(r) {
        let ready = e.ready_games();
        assert!(!ready.is_empty(), "round {r} is stuck");
        for g in ready {
            let [a, b] = e.sides(g).unwrap();
            let folder = e.folder_name(g);
            e.start_game(g, &folder).unwrap();
            e.record_result(g, pick(g, a, b)).unwrap();
        }
    }
}

fn random_result(rng: &mut SplitMix64, a: TeamId, b: TeamId) -> GameResult {
    match rng.below(5) {
        0 | 1 => GameResult::win(a, ""),
        2 | 3 => GameResult::win(b, ""),
        _ => GameResult::draw(""),
    }
}

fn meetings(e: &Event) -> HashMap<(TeamId, TeamId), usize> {
    let mut m = HashMap::new();
    for (_, p, _) in e.games() {
        let k = if p.first < p.second {
            (p.first, p.second)
        } else {
            (p.second, p.first)
        };
        *m.entry(k).or_insert(0) += 1;
    }
    m
}

fn assert_nobody_twice_in_a_round(e: &Event) {
    for (r, round) in e.rounds.iter().enumerate() {
        let mut seen = Vec::new();
        for t in round
            .pairings
            .iter()
            .flat_map(Pairing::teams)
            .chain(round.byes.iter().copied())
        {
            assert!(!seen.contains(&t), "round {}: team {t} twice", r + 1);
            seen.push(t);
        }
        assert_eq!(
            seen.len(),
            e.teams.len(),
            "round {}: every team placed",
            r + 1
        );
    }
}

#[test]
fn a_round_robin_meets_every_pair_as_often_as_the_preset_says() {
    for rules in ["uscf-bughouse", "club-bughouse-corrected"] {
        let per = usize::from(RulesPreset::built_in(rules).event.games_per_pairing);
        for n in 2..=9 {
            for cycles in [1u8, 2] {
                let mut e = event(rules, rr(cycles), n);
                let mut rng = SplitMix64::new(n as u64);
                while !e.finished() {
                    e.pair_next_round().unwrap();
                    play_round(&mut e, |_, a, b| random_result(&mut rng, a, b));
                }
                let rounds = usize::from(cycles) * (n + n % 2 - 1);
                assert_eq!(e.rounds.len(), rounds, "{rules} n={n}");
                let m = meetings(&e);
                assert_eq!(m.len(), n * (n - 1) / 2, "{rules} n={n}: every pair meets");
                for (pair, games) in &m {
                    assert_eq!(
                        *games,
                        usize::from(cycles) * per,
                        "{rules} n={n} cycles={cycles}: {pair:?}"
                    );
                }
                assert_nobody_twice_in_a_round(&e);
                // Odd numbers: one bye a round, each team one a cycle.
                let mut byes: HashMap<TeamId, usize> = HashMap::new();
                for r in &e.rounds {
                    assert_eq!(r.byes.len(), n % 2);
                    for b in &r.byes {
                        *byes.entry(*b).or_default() += 1;
                    }
                }
                if n % 2 == 1 {
                    assert!(byes.values().all(|c| *c == usize::from(cycles)), "{byes:?}");
                }
                // The next round is refused: the schedule is done.
                assert!(e.pair_next_round().is_err());
            }
        }
    }
}

/// Pairings a team had on side A minus those on side B (first games only: the pairing's
/// side).
fn side_balance(e: &Event, rounds: std::ops::Range<usize>) -> HashMap<TeamId, i32> {
    let mut d = HashMap::new();
    for round in &e.rounds[rounds] {
        for p in &round.pairings {
            *d.entry(p.first).or_insert(0) += 1;
            *d.entry(p.second).or_insert(0) -= 1;
        }
    }
    d
}

#[test]
fn round_robin_sides_are_balanced_and_reversed_in_the_second_cycle() {
    for n in 2..=14 {
        let mut e = event("uscf-bughouse", rr(2), n);
        while !e.finished() {
            e.pair_next_round().unwrap();
            play_round(&mut e, |_, a, _| GameResult::win(a, ""));
        }
        let m = n + n % 2 - 1;
        for (t, d) in side_balance(&e, 0..m) {
            assert!(
                d.abs() <= 1,
                "n={n}: team {t} has side A {d:+} in the first cycle"
            );
        }
        for k in 0..m {
            let first: Vec<(TeamId, TeamId)> = e.rounds[k]
                .pairings
                .iter()
                .map(|p| (p.first, p.second))
                .collect();
            let mut second: Vec<(TeamId, TeamId)> = e.rounds[k + m]
                .pairings
                .iter()
                .map(|p| (p.second, p.first))
                .collect();
            let mut first_sorted = first.clone();
            first_sorted.sort();
            second.sort();
            assert_eq!(
                first_sorted,
                second,
                "n={n} round {}: sides reversed",
                k + m + 1
            );
        }
    }
}

#[test]
fn the_winners_switch_colours_and_the_losers_choose() {
    // club-bughouse-corrected 2: two games a pairing.
    let mut e = event("club-bughouse-corrected", rr(1), 4);
    e.pair_next_round().unwrap();
    let g1 = GameRef {
        round: 1,
        pairing: 1,
        game: 1,
    };
    let p = e.pairing(1, 1).unwrap().clone();
    assert_eq!(
        p.games.len(),
        1,
        "the second game waits for the first's result"
    );
    // Game 1: each team decides; team 1 puts its second player on White.
    assert_eq!(e.game(g1).unwrap().choice, [Choice::Open; 2]);
    e.choose_white(g1, p.first, 1).unwrap();
    assert_eq!(
        e.players(g1)[0],
        e.team(p.first).unwrap().player(1),
        "WhiteA"
    );
    e.start_game(g1, "rounds/1/match-1-game-1").unwrap();
    assert!(
        e.choose_white(g1, p.second, 1).is_err(),
        "colours stand once begun"
    );
    // The first team wins game 1.
    let rec = e
        .record_result(g1, GameResult::win(p.first, "mate"))
        .unwrap();
    let g2 = rec.next_game.unwrap();
    assert_eq!(g2.game, 2);
    let game2 = e.game(g2).unwrap().clone();
    // Winners switch: the player who had White has Black.
    assert_eq!(game2.white[0], 0);
    assert_eq!(game2.choice[0], Choice::Rule);
    assert!(
        e.choose_white(g2, p.first, 1).is_err(),
        "the winners' switch is the rule's"
    );
    // Losers choose: shown unchanged until the TD enters their choice.
    assert_eq!(game2.white[1], 0);
    assert_eq!(game2.choice[1], Choice::Open);
    e.choose_white(g2, p.second, 1).unwrap();
    assert_eq!(e.game(g2).unwrap().white, [0, 1]);
    // The sides stay: the first team is still White on board A, now with its first player.
    assert_eq!(e.players(g2)[0], e.team(p.first).unwrap().player(0));
    assert_eq!(
        e.players(g2)[2],
        e.team(p.second).unwrap().player(1),
        "WhiteB"
    );
    // A correction of game 1 (the second team won after all) redoes game 2's colours.
    let rec = e
        .record_result(
            g1,
            GameResult {
                by_td: true,
                ..GameResult::win(p.second, "corrected")
            },
        )
        .unwrap();
    assert!(rec.corrected);
    let game2 = e.game(g2).unwrap();
    assert_eq!(
        game2.white,
        [1, 1],
        "now the second team switches (0 to 1); the first keeps its 1"
    );
    assert_eq!(game2.choice, [Choice::Open, Choice::Rule]);
}

#[test]
fn blitz_sides_swap_for_the_second_game() {
    let mut e = event("uscf-blitz", rr(1), 2);
    e.pair_next_round().unwrap();
    let g1 = e.ready_games()[0];
    let [a, b] = e.sides(g1).unwrap();
    assert_eq!(e.players(g1)[0], e.team(a).unwrap().player(0));
    assert_eq!(e.players(g1)[2], "-", "one board");
    e.start_game(g1, "x").unwrap();
    let g2 = e
        .record_result(g1, GameResult::draw(""))
        .unwrap()
        .next_game
        .unwrap();
    assert_eq!(
        e.sides(g2).unwrap(),
        [b, a],
        "blitz 2: one game with each colour"
    );
    assert!(e.choose_white(g2, a, 0).is_err());
}

#[test]
fn under_a_fixed_team_order_the_first_player_keeps_board_a() {
    let mut e = event("transfer-chess", rr(1), 5);
    let mut rng = SplitMix64::new(3);
    while !e.finished() {
        e.pair_next_round().unwrap();
        play_round(&mut e, |_, a, b| random_result(&mut rng, a, b));
    }
    for (g, p, _) in e.games() {
        let lineup = e.lineup(g).unwrap();
        for t in p.teams() {
            let on_a: Vec<usize> = lineup[..2]
                .iter()
                .flatten()
                .filter(|(team, _)| *team == t)
                .map(|(_, i)| *i)
                .collect();
            assert_eq!(
                on_a,
                vec![0],
                "game {g}: team {t}'s first player on board A"
            );
        }
    }
    let games: Vec<(GameRef, TeamId)> = e.games().iter().map(|(g, p, _)| (*g, p.first)).collect();
    for (g, first) in games {
        assert!(
            e.choose_white(g, first, 1).is_err(),
            "the side decides, not the team"
        );
    }
}

#[test]
fn a_swiss_never_pairs_a_rematch() {
    for (n, rounds, seed) in [
        (8, 7, 1),
        (8, 7, 2),
        (9, 8, 3),
        (10, 6, 4),
        (7, 6, 5),
        (12, 9, 6),
    ] {
        let mut e = event("uscf-bughouse", Format::Swiss { rounds }, n);
        let mut rng = SplitMix64::new(seed);
        while !e.finished() {
            e.pair_next_round().unwrap();
            play_round(&mut e, |_, a, b| random_result(&mut rng, a, b));
        }
        assert_eq!(e.rounds.len(), usize::from(rounds));
        for (pair, games) in meetings(&e) {
            assert_eq!(games, 1, "n={n} seed={seed}: {pair:?} met twice");
        }
        assert_nobody_twice_in_a_round(&e);
        let mut byes: Vec<TeamId> = e.rounds.iter().flat_map(|r| r.byes.clone()).collect();
        let all = byes.len();
        byes.sort();
        byes.dedup();
        assert_eq!(
            byes.len(),
            all,
            "n={n}: nobody has a second bye while others had none"
        );
        for (t, d) in side_balance(&e, 0..e.rounds.len()) {
            assert!(d.abs() <= 2, "n={n} seed={seed}: team {t} sides {d:+}");
        }
    }
    // Past the rounds a rematch-free pairing allows, the round is refused.
    let mut e = event("uscf-bughouse", Format::Swiss { rounds: 4 }, 4);
    for _ in 0..3 {
        e.pair_next_round().unwrap();
        play_round(&mut e, |_, a, _| GameResult::win(a, ""));
    }
    let err = e.pair_next_round().unwrap_err();
    assert!(err.to_string().contains("rematch"), "{err}");
    assert_eq!(e.rounds.len(), 3);
}

#[test]
fn a_swiss_pairs_within_score_groups() {
    let mut e = event("uscf-bughouse", Format::Swiss { rounds: 3 }, 8);
    e.pair_next_round().unwrap();
    // Round 1 top half against bottom half: 1-5, 2-6, 3-7, 4-8 (any sides).
    let mut r1: Vec<(u16, u16)> = e.rounds[0]
        .pairings
        .iter()
        .map(|p| (p.first.0.min(p.second.0), p.first.0.max(p.second.0)))
        .collect();
    r1.sort_unstable();
    assert_eq!(r1, vec![(1, 5), (2, 6), (3, 7), (4, 8)]);
    // The lower-numbered team wins each.
    play_round(&mut e, |_, a, b| GameResult::win(a.min(b), ""));
    e.pair_next_round().unwrap();
    let winners = [TeamId(1), TeamId(2), TeamId(3), TeamId(4)];
    for p in &e.rounds[1].pairings {
        assert_eq!(
            winners.contains(&p.first),
            winners.contains(&p.second),
            "winners meet winners: {p:?}"
        );
    }
}

#[test]
fn a_swiss_with_ratings_seeds_the_strongest_first() {
    let mut e = event("uscf-bughouse", Format::Swiss { rounds: 3 }, 0);
    for (name, r) in [("Low", 1200), ("High", 2000), ("Mid", 1600), ("Top", 2200)] {
        e.add_team(Team {
            name: name.into(),
            players: vec![
                Player {
                    name: format!("{name}1"),
                    rating: Some(r),
                },
                Player {
                    name: format!("{name}2"),
                    rating: Some(r),
                },
            ],
        })
        .unwrap();
    }
    e.pair_next_round().unwrap();
    // Order Top(4), High(2), Mid(3), Low(1): Top meets Mid, High meets Low.
    let p = &e.rounds[0].pairings[0];
    assert!(p.has(TeamId(4)) && p.has(TeamId(3)), "{p:?}");
    assert_eq!(p.table, None, "no tables set up");
}

/// Four teams, one game a pairing; the results of a whole round robin by hand.
fn known_event() -> Event {
    let mut e = event("uscf-bughouse", rr(1), 4);
    // Round by round, each pairing's result (winner team number, 0 for a draw).
    let mut results: HashMap<(u16, u16), u16> = HashMap::new();
    // 1 beats 2, 3 beats 1, 1 draws 4, 2 beats 3, 2 beats 4, 3 draws 4.
    for (a, b, w) in [
        (1, 2, 1),
        (1, 3, 3),
        (1, 4, 0),
        (2, 3, 2),
        (2, 4, 2),
        (3, 4, 0),
    ] {
        results.insert((a, b), w);
        results.insert((b, a), w);
    }
    while !e.finished() {
        e.pair_next_round().unwrap();
        play_round(&mut e, |_, a, b| match results[&(a.0, b.0)] {
            0 => GameResult::draw(""),
            w => GameResult::win(TeamId(w), ""),
        });
    }
    e
}

#[test]
fn standings_and_tiebreaks_from_known_results() {
    let e = known_event();
    let s = e.standings();
    let line = |t: u16| s.iter().find(|x| x.team == TeamId(t)).unwrap().clone();
    // Points: 1: W D L = 1.5; 2: L W W = 2; 3: W L D = 1.5; 4: D L D = 1.
    assert_eq!(line(2).points, 2.0);
    assert_eq!(line(1).points, 1.5);
    assert_eq!(line(3).points, 1.5);
    assert_eq!(line(4).points, 1.0);
    // 1 and 3 are level; 3 beat 1: head-to-head 1 to 0.
    assert_eq!(line(3).tiebreaks[0], Some(1.0));
    assert_eq!(line(1).tiebreaks[0], Some(0.0));
    assert_eq!(line(2).tiebreaks[0], None, "nobody level with team 2");
    // Sonneborn-Berger: 1 beat 2 (2) + drew 4 (½·1) = 2.5; 3 beat 1 (1.5) + drew 4 = 2.
    assert_eq!(line(1).tiebreaks[1], Some(2.5));
    assert_eq!(line(3).tiebreaks[1], Some(2.0));
    assert_eq!(line(2).tiebreaks[2], Some(2.0), "wins");
    let order: Vec<u16> = s.iter().map(|x| x.team.0).collect();
    // Head-to-head before Sonneborn-Berger: 3 above 1.
    assert_eq!(order, vec![2, 3, 1, 4]);
    assert_eq!(
        s.iter().map(|x| x.place).collect::<Vec<_>>(),
        vec![1, 2, 3, 4]
    );
}

#[test]
fn teams_level_on_everything_share_a_place() {
    let mut e = event("uscf-bughouse", rr(1), 4);
    while !e.finished() {
        e.pair_next_round().unwrap();
        play_round(&mut e, |_, _, _| GameResult::draw(""));
    }
    let s = e.standings();
    assert!(
        s.iter()
            .all(|x| x.place == 1 && x.shared && x.points == 1.5)
    );
    assert_eq!(
        s.iter().map(|x| x.team.0).collect::<Vec<_>>(),
        vec![1, 2, 3, 4],
        "listed by number"
    );
}

#[test]
fn a_corrected_result_reranks() {
    let mut e = known_event();
    assert_eq!(e.standings()[0].team, TeamId(2));
    // The TD finds team 4 won its game against team 2, not lost it.
    let g = e
        .games()
        .into_iter()
        .find(|(_, p, _)| p.has(TeamId(2)) && p.has(TeamId(4)))
        .map(|(g, ..)| g)
        .unwrap();
    let rec = e
        .record_result(
            g,
            GameResult {
                by_td: true,
                ..GameResult::win(TeamId(4), "corrected")
            },
        )
        .unwrap();
    assert!(rec.corrected);
    let s = e.standings();
    // Now 1: 1.5, 2: 1, 3: 1.5, 4: 2.
    assert_eq!(s[0].team, TeamId(4));
    assert_eq!(s[0].points, 2.0);
    let two = s.iter().find(|x| x.team == TeamId(2)).unwrap();
    assert_eq!((two.points, two.place), (1.0, 4));
    // Sonneborn-Berger follows the new points: 1 beat 2 (now 1) + drew 4 (½·2) = 2.
    let one = s.iter().find(|x| x.team == TeamId(1)).unwrap();
    assert_eq!(one.tiebreaks[1], Some(2.0));
}

#[test]
fn a_correction_pairs_a_swiss_round_not_yet_begun_again() {
    let mut e = event("uscf-bughouse", Format::Swiss { rounds: 3 }, 4);
    e.pair_next_round().unwrap();
    // 1-3 and 2-4: the first-numbered wins.
    play_round(&mut e, |_, a, b| GameResult::win(a.min(b), ""));
    e.pair_next_round().unwrap();
    let round2 = e.rounds[1].clone();
    // Winners 1 and 2 meet.
    assert!(
        round2
            .pairings
            .iter()
            .any(|p| p.has(TeamId(1)) && p.has(TeamId(2)))
    );
    // Correction: 3 beat 1.
    let g = GameRef {
        round: 1,
        pairing: 1,
        game: 1,
    };
    let p = e.pairing(1, 1).unwrap().clone();
    assert!(p.has(TeamId(1)));
    let rec = e
        .record_result(
            g,
            GameResult {
                by_td: true,
                ..GameResult::win(p.opponent(TeamId(1)).unwrap(), "")
            },
        )
        .unwrap();
    assert_eq!(rec.repaired_round, Some(2));
    assert!(
        e.rounds[1]
            .pairings
            .iter()
            .any(|p| p.has(TeamId(3)) && p.has(TeamId(2))),
        "the new winners meet: {:?}",
        e.rounds[1]
    );
}

#[test]
fn forfeits_byes_and_double_forfeits_score_as_set() {
    let mut e = event("uscf-bughouse", rr(1), 3);
    e.setup.bye = ByeScore::Draw;
    e.pair_next_round().unwrap();
    let bye = e.rounds[0].byes[0];
    let g = e.ready_games()[0];
    let [a, b] = e.sides(g).unwrap();
    assert!(
        e.record_result(
            g,
            GameResult {
                winner: None,
                kind: ResultKind::Forfeit,
                by_td: true,
                note: String::new()
            }
        )
        .is_err()
    );
    e.record_result(g, GameResult::forfeit_win(b)).unwrap();
    let s = e.standings();
    let line = |t: TeamId| s.iter().find(|x| x.team == t).unwrap().clone();
    assert_eq!(line(b).points, 1.0);
    assert_eq!(line(b).wins, 1);
    assert_eq!(line(a).points, 0.0);
    assert_eq!(
        (line(bye).points, line(bye).byes, line(bye).wins),
        (0.5, 1, 0)
    );
    e.record_result(g, GameResult::double_forfeit()).unwrap();
    let s = e.standings();
    assert!(
        s.iter()
            .filter(|x| x.team != bye)
            .all(|x| x.points == 0.0 && x.losses == 1)
    );
}

#[test]
fn refusals_change_nothing() {
    let mut e = event("uscf-bughouse", rr(1), 3);
    let before = e.clone();
    assert!(
        e.add_team(Team {
            name: "Team 1".into(),
            players: vec![]
        })
        .is_err()
    );
    assert!(
        e.add_team(Team {
            name: "team 1".into(),
            players: vec![
                Player {
                    name: "x".into(),
                    rating: None
                },
                Player {
                    name: "y".into(),
                    rating: None
                }
            ]
        })
        .is_err(),
        "names are unique whatever the case"
    );
    assert_eq!(e, before);
    e.pair_next_round().unwrap();
    assert!(e.pair_next_round().is_err(), "round 1 has no results yet");
    let g = e.ready_games()[0];
    assert!(e.record_result(g, GameResult::win(TeamId(9), "")).is_err());
    assert!(
        e.add_team(Team {
            name: "Late".into(),
            players: vec![]
        })
        .is_err()
    );
    let bad = GameRef {
        round: 2,
        pairing: 1,
        game: 1,
    };
    assert!(e.start_game(bad, "x").is_err());
}

#[test]
fn tables_go_to_the_pairings_and_the_td_can_swap_them() {
    let mut e = event("uscf-bughouse", rr(1), 6);
    e.tables = (0..2)
        .map(|i| Table {
            a: format!("{}", 10001 + 2 * i),
            b: format!("{}", 10002 + 2 * i),
            profile: "virtual".into(),
            clocks: TableClocks::Read,
        })
        .collect();
    e.pair_next_round().unwrap();
    let tables: Vec<Option<usize>> = e.rounds[0].pairings.iter().map(|p| p.table).collect();
    assert_eq!(tables, vec![Some(0), Some(1), None]);
    e.swap_tables(1, 1, 3).unwrap();
    let tables: Vec<Option<usize>> = e.rounds[0].pairings.iter().map(|p| p.table).collect();
    assert_eq!(tables, vec![None, Some(1), Some(0)]);
    assert!(
        e.set_table(1, 1, Some(1)).is_err(),
        "table 1 is pairing 2's"
    );
    e.start_game(
        GameRef {
            round: 1,
            pairing: 2,
            game: 1,
        },
        "x",
    )
    .unwrap();
    assert!(e.swap_tables(1, 2, 3).is_err(), "pairing 2 has begun");
}

#[test]
fn game_refs_read_and_write() {
    let g: GameRef = "2.3".parse().unwrap();
    assert_eq!(
        g,
        GameRef {
            round: 2,
            pairing: 3,
            game: 1
        }
    );
    assert_eq!(g.to_string(), "2.3");
    let g: GameRef = "2.3.2".parse().unwrap();
    assert_eq!(g.to_string(), "2.3.2");
    for bad in ["", "2", "0.1", "a.b", "1.2.3.4", "1.-2"] {
        assert!(bad.parse::<GameRef>().is_err(), "{bad}");
    }
}

fn load(name: &str) -> Result<RulesPreset, String> {
    RulesPreset::load(name).map_err(|e| e.to_string())
}

#[test]
fn the_event_file_reads_back_what_was_written() {
    let mut e = known_event();
    e.tables.push(Table {
        a: "10001".into(),
        b: "10002".into(),
        profile: "virtual".into(),
        clocks: TableClocks::Read,
    });
    let text = file::to_text(&e);
    let back = file::parse(&text, load).unwrap();
    assert_eq!(back, e);
    assert_eq!(file::to_text(&back), text);
}

/// The position of `needle`'s `n`-th occurrence as (line, column), 1-based.
fn position(text: &str, needle: &str) -> (usize, usize) {
    let i = text.find(needle).unwrap();
    let line = text[..i].matches('\n').count() + 1;
    let col = i - text[..i].rfind('\n').map_or(0, |n| n + 1) + 1;
    (line, col)
}

#[test]
fn a_bad_event_file_is_refused_with_its_line_and_column() {
    let e = known_event();
    let text = file::to_text(&e);
    // A team number no team has, where it is written.
    let bad = text.replacen("first: 1,", "first: 7,", 1);
    let err = file::parse(&bad, load).unwrap_err();
    let (line, column) = position(&bad, "first: 7");
    assert_eq!(
        (err.line, err.column),
        (line, column + "first: ".len()),
        "{err}"
    );
    assert!(err.message.contains("no team 7"), "{err}");
    // A syntax error.
    let bad = text.replacen("teams: [", "teams: [[", 1);
    let err = file::parse(&bad, load).unwrap_err();
    assert!(err.line > 1, "{err}");
    // An unknown field.
    let bad = text.replacen("bye: Win", "bye: Win, prize: 100", 1);
    let err = file::parse(&bad, load).unwrap_err();
    assert_eq!(err.line, position(&bad, "prize").0, "{err}");
    // A team twice in a round: reported at the end of that round.
    let mut twice = e.clone();
    let first = twice.rounds[0].pairings[0].first;
    twice.rounds[0].byes.push(first);
    let bad = file::to_text(&twice);
    let err = file::parse(&bad, load).unwrap_err();
    assert!(err.message.contains("bye and a pairing"), "{err}");
    assert!(err.line > position(&bad, "rounds:").0, "{err}");
    // A preset that does not exist, at `rules`.
    let bad = text.replacen("rules: \"uscf-bughouse\"", "rules: \"no-such-rules\"", 1);
    let err = file::parse(&bad, load).unwrap_err();
    assert_eq!((err.line, err.column), position(&bad, "rules:"), "{err}");
    // A winner not in the pairing.
    let mut winner = e.clone();
    let p = &mut winner.rounds[0].pairings[0];
    let outsider = TeamId::from_index((0..4).find(|i| !p.has(TeamId::from_index(*i))).unwrap());
    p.games[0].result = Some(GameResult::win(outsider, ""));
    let err = file::parse(&file::to_text(&winner), load).unwrap_err();
    assert!(err.message.contains("not in the pairing"), "{err}");
    // A player index past the team's size.
    let mut player = e.clone();
    player.rounds[0].pairings[0].games[0].white = [2, 0];
    let err = file::parse(&file::to_text(&player), load).unwrap_err();
    assert!(err.message.contains("player 2"), "{err}");
    // A team with the wrong number of players, at its players.
    let mut size = e;
    size.teams[1].players.pop();
    let bad = file::to_text(&size);
    let err = file::parse(&bad, load).unwrap_err();
    assert!(err.message.contains("team 2"), "{err}");
    let second_players = bad.match_indices("players:").nth(1).unwrap().0;
    assert_eq!(
        err.line,
        bad[..second_players].matches('\n').count() + 1,
        "{err}"
    );
}

#[test]
fn the_standings_print_as_csv_and_html() {
    let e = known_event();
    let csv = export::standings_csv(&e);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "place,team,number,players,points,games,wins,draws,losses,byes,head-to-head,Sonneborn-Berger,wins"
    );
    assert_eq!(lines[1], "1,Team 2,2,P2a & P2b,2,3,2,0,1,0,,2.5,2");
    assert_eq!(lines[2], "2,Team 3,3,P3a & P3b,1.5,3,1,1,1,0,1,2,1");
    assert_eq!(lines.len(), 5);
    let html = export::standings_html(&e);
    assert!(html.contains("<h1>Club night</h1>"));
    assert!(html.contains("after round 3"));
    assert!(html.contains("<td>Team 2</td>"));
    assert!(html.contains("Round 3"));
    assert_eq!(html.matches("<tr><td class=\"n\">").count(), 4, "4 teams");
    assert_eq!(html.matches("<tr><td>").count(), 6, "6 games");
}

#[test]
#[ignore = "prints a file to look at"]
fn print_a_file() {
    println!("{}", file::to_text(&known_event()));
}

#[test]
fn a_result_withdrawn_in_the_match_is_taken_back_with_the_next_game() {
    let mut e = event("club-bughouse-corrected", rr(1), 2);
    e.pair_next_round().unwrap();
    let g1 = e.ready_games()[0];
    let [a, _] = e.sides(g1).unwrap();
    e.start_game(g1, "x").unwrap();
    let g2 = e
        .record_result(g1, GameResult::win(a, ""))
        .unwrap()
        .next_game
        .unwrap();
    e.withdraw_result(g1).unwrap();
    assert!(e.game(g1).unwrap().result.is_none());
    assert!(e.game(g2).is_none(), "the second game waits again");
    assert_eq!(e.games_in_play(), vec![g1]);
    // Once the next game has begun, a withdrawal is refused (a correction is the way).
    let g2 = e
        .record_result(g1, GameResult::win(a, ""))
        .unwrap()
        .next_game
        .unwrap();
    e.start_game(g2, "y").unwrap();
    assert!(e.withdraw_result(g1).is_err());
}
