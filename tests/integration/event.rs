//! A club evening: a whole event played on simulated boards by `tandem event simulate`
//! leaves the event folder a live evening leaves, every game's match folder as a single
//! match's, results that are the matches' own; the TD's commands (create, teams, pair,
//! results, corrections, standings); a hand-edited event file refused with its position.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

use tandem::event::{Event, GameRef, ResultKind, export};
use tandem::station::event::EventFolder;
use tandem::station::event::simulate::{play_event, simulated_teams};
use tandem::station::event::virtual_tables;
use tandem::station::folder as files;
use tandem::station::simulated::SimulatedPlay;
use tandem::station::{MatchRunner, Recording};

fn tandem() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tandem"))
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tandem-event-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn run(args: &[&str], data: &Path) -> (bool, String, String) {
    let out = tandem()
        .args(args)
        .arg("--data-dir")
        .arg(data)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The match's result as its own journal gives it, replayed through the runner.
fn replayed_result(dir: &Path) -> tandem::rules::MatchResult {
    let text = std::fs::read_to_string(dir.join(files::JOURNAL)).unwrap();
    let rec = Recording::from_journal(&text).unwrap();
    let mut runner = MatchRunner::new(rec.header);
    runner.replay(&rec.inputs, |_, _| {});
    runner.arbiter().game().result().cloned().unwrap()
}

#[test]
fn an_event_of_four_teams_is_played_end_to_end_on_simulated_boards() {
    let data = temp("simulate");
    let (ok, out, err) = run(
        &[
            "event",
            "simulate",
            "evening",
            "--teams",
            "4",
            "--rules",
            "uscf-bughouse",
            "--plies",
            "24",
            "--seed",
            "7",
        ],
        &data,
    );
    assert!(ok, "{out}\n{err}");
    let dir = data.join("events").join("evening");
    assert_eq!(out.lines().last(), Some(dir.to_str().unwrap()), "{out}");
    let folder = EventFolder::at(&dir);
    let event = folder.load().unwrap();
    assert!(event.finished());
    assert_eq!(event.rounds.len(), 3, "a round robin of 4 teams");
    let games = event.games();
    assert_eq!(
        games.len(),
        6,
        "every pair of teams once, one game a pairing"
    );
    for (g, pairing, game) in &games {
        let name = game.folder.as_deref().unwrap();
        assert_eq!(name, format!("rounds/{}/match-{}", g.round, g.pairing));
        let mdir = dir.join(name);
        for f in [
            files::JOURNAL,
            files::CAPTURE,
            files::BOARDS,
            files::ALERTS,
            files::BPGN,
            files::CLOSED,
        ] {
            assert!(mdir.join(f).is_file(), "{g}: {f} missing");
        }
        // The boards are the table's.
        let table = &event.tables[pairing.table.unwrap()];
        let boards = std::fs::read_to_string(mdir.join(files::BOARDS)).unwrap();
        assert!(
            boards.contains(&table.a) && boards.contains(&table.b),
            "{boards}"
        );
        // The event's result is the match's own.
        let result = game.result.as_ref().unwrap();
        assert_eq!(result.kind, ResultKind::Played);
        let from_match = event
            .result_of_match(*g, &replayed_result(&mdir), &result.note)
            .unwrap();
        assert_eq!(result.winner, from_match.winner, "{g}");
        // The match's BPGN names the game's round and its players as the pairing seats them.
        let bpgn = std::fs::read_to_string(mdir.join(files::BPGN)).unwrap();
        assert!(bpgn.contains(&format!("[Round \"{g}\"]")), "{bpgn}");
        let players = event.players(*g);
        assert!(
            bpgn.contains(&format!("[WhiteA \"{}\"]", players[0])),
            "{bpgn}"
        );
        assert!(
            bpgn.contains(&format!("[BlackB \"{}\"]", players[3])),
            "{bpgn}"
        );
    }
    // Standings: what the folder says is what the event computes.
    assert_eq!(
        std::fs::read_to_string(dir.join("standings.csv")).unwrap(),
        export::standings_csv(&event)
    );
    let total: f64 = event.standings().iter().map(|s| s.points).sum();
    assert_eq!(total, 6.0, "a point a game");
    assert!(
        std::fs::read_to_string(dir.join("standings.html"))
            .unwrap()
            .contains("<table>")
    );
    // All the evening's games as one BPGN file, which reads back.
    let all = dir.join("event.bpgn");
    let text = std::fs::read_to_string(&all).unwrap();
    assert_eq!(text.matches("[Event ").count(), 6);
    let check = tandem().args(["bpgn", "check"]).arg(&all).output().unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&check.stdout).lines().count(), 6);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn two_games_a_pairing_follow_the_colour_rule_on_simulated_boards() {
    let data = temp("corrected");
    let rules = tandem::rules::RulesPreset::built_in("club-bughouse-corrected");
    let setup = tandem::event::Setup {
        name: "Corrected".into(),
        site: String::new(),
        date: String::new(),
        rules: "club-bughouse-corrected".into(),
        time_control: rules.time_control,
        format: tandem::event::Format::RoundRobin { cycles: 1 },
        bye: tandem::event::ByeScore::Win,
    };
    let mut event = Event::new(setup, rules);
    for t in simulated_teams(3, 2, 1) {
        event.add_team(t).unwrap();
    }
    event.tables = virtual_tables(1);
    let folder = EventFolder::create(&data, &event).unwrap();
    play_event(&folder, &mut event, &SimulatedPlay::demo(3, 20), |_, _| {}).unwrap();
    assert_eq!(
        event.rounds.len(),
        3,
        "three teams: three rounds, a bye each"
    );
    for round in &event.rounds {
        assert_eq!(round.byes.len(), 1);
        let p = &round.pairings[0];
        assert_eq!(p.games.len(), 2, "two games against each other team");
        let (g1, g2) = (&p.games[0], &p.games[1]);
        if let Some(w) = g1.result.as_ref().unwrap().winner {
            let slot = p.slot(w).unwrap();
            assert_ne!(
                g1.white[slot], g2.white[slot],
                "the winning team switches colour"
            );
        }
        assert_eq!(
            g2.folder.as_deref().map(|f| f.ends_with("-game-2")),
            Some(true)
        );
    }
    // Byes score a win each (the TD's setting): 3 teams × (bye 2 + 4 games) points.
    let total: f64 = event.standings().iter().map(|s| s.points).sum();
    assert_eq!(total, 3.0 * 2.0 + 6.0);
    assert_eq!(folder.load().unwrap(), event, "event.ron holds it all");
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn the_td_runs_an_evening_from_the_command_line() {
    let data = temp("cli");
    let ok = |args: &[&str]| {
        let (ok, out, err) = run(args, &data);
        assert!(ok, "{args:?}\n{out}\n{err}");
        out
    };
    ok(&[
        "event",
        "create",
        "club",
        "--rules",
        "uscf-bughouse",
        "--time",
        "5+0",
        "--table",
        "10001,10002",
        "--profile",
        "virtual",
    ]);
    ok(&[
        "event",
        "add-team",
        "club",
        "Knights",
        "Ada:1800",
        "Boris:1700",
    ]);
    ok(&["event", "add-team", "club", "Rooks", "Chen", "Dana"]);
    let out = ok(&["event", "add-team", "club", "Pawns", "Emil", "Fay"]);
    assert_eq!(out.trim(), "team 3: Pawns");
    let (refused, _, err) = run(&["event", "add-team", "club", "Solo", "Gus"], &data);
    assert!(!refused && err.contains("2 player(s)"), "{err}");
    let out = ok(&["event", "pair", "club"]);
    assert!(out.contains("table 1 (boards 10001 and 10002)"), "{out}");
    assert!(out.contains("bye:"), "three teams: a bye\n{out}");
    assert!(
        out.contains("chooses who plays White"),
        "the team decides (US Chess 3)\n{out}"
    );
    let (refused, _, err) = run(&["event", "pair", "club"], &data);
    assert!(!refused && err.contains("without a result"), "{err}");
    // Round 1: a forfeit, then the TD corrects it to a win over the board.
    let dir = data.join("events/club");
    let event = EventFolder::at(&dir).load().unwrap();
    let g = GameRef {
        round: 1,
        pairing: 1,
        game: 1,
    };
    let [a, b] = event.sides(g).unwrap();
    ok(&["event", "white", "club", "1.1", &a.0.to_string(), "2"]);
    let event = EventFolder::at(&dir).load().unwrap();
    assert_eq!(
        event.players(g)[0],
        event.team(a).unwrap().players[1].name,
        "WhiteA"
    );
    ok(&["event", "result", "club", "1.1", "-+"]);
    let event = EventFolder::at(&dir).load().unwrap();
    let first = event.standings()[0].clone();
    assert!(first.team == b || event.round(1).unwrap().byes.contains(&first.team));
    let out = ok(&["event", "result", "club", "1.1", "1-0"]);
    assert!(out.contains("corrected"), "{out}");
    let csv = ok(&["event", "standings", "club", "--csv"]);
    let winner_line = csv
        .lines()
        .find(|l| l.contains(&format!(",{},", a.0)))
        .unwrap();
    assert!(
        winner_line.contains(",1,1,1,0,0,"),
        "team {a}: 1 point, 1 game, 1 win\n{csv}"
    );
    // The next round is paired after the correction; a game of round 1 cannot be
    // entered twice as a different game, nor one that does not exist.
    ok(&["event", "pair", "club"]);
    let (refused, _, _) = run(&["event", "result", "club", "9.9", "1-0"], &data);
    assert!(!refused);
    let show = ok(&["event", "show", "club"]);
    assert!(
        show.contains("Round 2") && show.contains("Standings"),
        "{show}"
    );

    // A hand edit gone wrong: a team number no team has, refused with FILE:LINE:COL.
    let path = dir.join("event.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let bad = text.replacen("second: ", "second: 1", 1);
    std::fs::write(&path, &bad).unwrap();
    let (refused, _, err) = run(&["event", "standings", "club"], &data);
    assert!(!refused);
    let line = bad[..bad.find("second: 1").unwrap()].matches('\n').count() + 1;
    let prefix = format!("{}:{line}:", path.display());
    assert!(err.contains(&prefix) && err.contains("no team"), "{err}");
    let _ = std::fs::remove_dir_all(&data);
}

/// Follows the demo until `done` holds, or fails after `secs` seconds.
fn follow_until(
    demo: &mut tandem::station::demo::event::EventDemo,
    secs: u64,
    what: &str,
    mut done: impl FnMut(&tandem::station::demo::event::EventDemo) -> bool,
) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while !done(demo) {
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        demo.follow().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

#[test]
fn a_board_lost_in_one_match_leaves_the_other_match_alone() {
    use tandem::BoardId;
    use tandem::arbiter::AlertKind;
    use tandem::station::demo::event::{EventDemo, create_demo_event};
    use tandem::station::event::EventStation;

    let data = temp("board-lost");
    let registry = data.join("registry");
    let dir = create_demo_event(&data, "uscf-bughouse", 4).unwrap();
    let station =
        EventStation::open(&dir, Some(registry.clone()), std::sync::Arc::new(|| {})).unwrap();
    let mut demo =
        EventDemo::start(station, &registry, 5, 60, std::time::Duration::from_secs(1)).unwrap();
    let plies = |d: &EventDemo, table: usize| {
        d.station()
            .live()
            .iter()
            .find(|m| m.table() == Some(table))
            .map_or(0, |m| m.view().record.len())
    };
    follow_until(&mut demo, 90, "both matches under way", |d| {
        d.station().live().len() == 2 && plies(d, 0) >= 4 && plies(d, 1) >= 4
    });
    let view_of = |d: &EventDemo, table: usize| {
        d.station()
            .live()
            .iter()
            .find(|m| m.table() == Some(table))
            .unwrap()
            .view()
    };
    // The demo's DGT3000s are driven: Tandem set up and started both clocks of each match.
    for table in 0..2 {
        assert!(view_of(&demo, table).clocks.started, "table {}", table + 1);
        for b in BoardId::BOTH {
            let board = demo.boards(table).unwrap().handle(b).unwrap();
            assert!(board.inspect(|e| e.clock_in_pc_mode()).unwrap());
        }
    }
    let lost = demo.boards(0).unwrap().handle(BoardId::A).unwrap();
    lost.unplug();
    follow_until(&mut demo, 30, "table 1's board A seen lost", |d| {
        !view_of(d, 0).boards[0].link.connected
    });
    let before = plies(&demo, 1);
    follow_until(&mut demo, 60, "the other match playing on", |d| {
        plies(d, 1) >= before + 4
    });
    let other = view_of(&demo, 1);
    assert!(
        other.boards.iter().all(|b| b.link.connected),
        "the other match's boards stay"
    );
    assert!(
        other
            .alerts
            .iter()
            .all(|a| a.kind != AlertKind::Disconnected),
        "no loss in the other match: {:?}",
        other.alerts
    );
    let first = view_of(&demo, 0);
    assert!(
        first
            .alerts
            .iter()
            .any(|a| a.kind == AlertKind::Disconnected && a.is_open())
    );
    demo.boards(0)
        .unwrap()
        .handle(BoardId::A)
        .unwrap()
        .replug()
        .unwrap();
    follow_until(&mut demo, 30, "table 1's board A found again", |d| {
        view_of(d, 0).boards[0].link.connected
    });
    demo.stop();
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn an_event_open_at_a_station_refuses_changes_from_elsewhere() {
    use tandem::station::event::EventStation;
    let data = temp("lock");
    let ok = |args: &[&str]| {
        let (ok, out, err) = run(args, &data);
        assert!(ok, "{args:?}\n{out}\n{err}");
    };
    ok(&["event", "create", "club", "--rules", "uscf-bughouse"]);
    ok(&["event", "add-team", "club", "Knights", "Ada", "Boris"]);
    ok(&["event", "add-team", "club", "Rooks", "Chen", "Dana"]);
    let dir = data.join("events/club");
    let station = EventStation::open(
        &dir,
        Some(data.join("registry")),
        std::sync::Arc::new(|| {}),
    )
    .unwrap();
    let (changed, _, err) = run(&["event", "pair", "club"], &data);
    assert!(!changed && err.contains("open in another Tandem"), "{err}");
    let (read, out, _) = run(&["event", "standings", "club"], &data);
    assert!(read && out.contains("Knights"), "reading is fine: {out}");
    // Once the station stops, changes go through.
    station.stop();
    ok(&["event", "pair", "club"]);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_table_with_driven_clocks_is_started_by_the_station_without_a_console() {
    use std::time::{Duration, Instant};
    use tandem::dgt::ClockButton;
    use tandem::sim::VirtualBoard;
    use tandem::sim::emulator::PhysicalAction;

    let rules = tandem::rules::RulesPreset::built_in("uscf-bughouse");
    let [ca, cb] = crate::common::clocks::configs(&rules, true);
    let data = temp("driven-table");
    let reg = data.join("boards");
    let a = VirtualBoard::spawn_in(ca, 1, Some(reg.clone())).unwrap();
    let b = VirtualBoard::spawn_in(cb, 2, Some(reg.clone())).unwrap();
    for vb in [&a, &b] {
        vb.act(PhysicalAction::SetUpStart);
    }
    let table = format!("{},{}", a.path(), b.path());
    let create = [
        "event",
        "create",
        "night",
        "--table",
        &table,
        "--profile",
        "virtual",
        "--clocks",
        "drive",
    ];
    let (ok, out, err) = run(&create, &data);
    assert!(ok, "{out}\n{err}");
    for (team, players) in [("Knights", ["Ada", "Boris"]), ("Rooks", ["Chen", "Dana"])] {
        let (ok, out, err) = run(
            &["event", "add-team", "night", team, players[0], players[1]],
            &data,
        );
        assert!(ok, "{out}\n{err}");
    }
    let (ok, out, err) = run(&["event", "pair", "night"], &data);
    assert!(ok, "{out}\n{err}");
    let station = tandem()
        .args(["event", "run", "night", "--seconds", "60", "--data-dir"])
        .arg(&data)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Stopped however the test ends.
    struct Station(std::process::Child);
    impl Drop for Station {
        fn drop(&mut self) {
            self.0.kill().ok();
            self.0.wait().ok();
        }
    }
    let _station = Station(station);
    let runs = |vb: &tandem::sim::VirtualBoardHandle| {
        vb.inspect(|e| e.clock_times().is_some_and(|t| t.running.is_some()))
            .unwrap_or(false)
    };
    let wait = |what: &str, done: &dyn Fn() -> bool| {
        let end = Instant::now() + Duration::from_secs(20);
        while !done() {
            assert!(Instant::now() < end, "{what}");
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    // Nobody at a console: the station sets both clocks up and starts them together.
    wait("both clocks started", &|| runs(&a) && runs(&b));
    b.act(PhysicalAction::ClockButton(ClockButton::Run));
    wait("both clocks stopped", &|| !runs(&a) && !runs(&b));
    a.act(PhysicalAction::ClockButton(ClockButton::Run));
    wait("both clocks running again", &|| runs(&a) && runs(&b));
    a.shutdown();
    b.shutdown();
}
