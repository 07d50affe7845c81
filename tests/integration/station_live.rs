//! The live station end to end, in real time: two virtual boards on pseudo-terminals, the
//! production serial workers, the arbiter thread with its journal, and the demo's hands.

#![allow(clippy::unwrap_used)] // tests may unwrap

use std::time::{Duration, Instant};

use tandem::arbiter::ArbiterConfig;
use tandem::rules::RulesPreset;

use crate::common::live::{
    assert_whole_match_folder, demo_session, header, match_folders, temp_dir,
};

#[test]
fn demo_match_is_followed_live_and_journaled() {
    let dir = temp_dir("live");
    let rules = RulesPreset::built_in("uscf-bughouse");
    let (boards, session) =
        demo_session(&dir, 7, header(ArbiterConfig::new(rules.clone()), "test"));
    let mut player = boards.play(rules, 11, tandem::station::demo::GAME_PLIES);
    let deadline = Instant::now() + Duration::from_secs(40);
    while Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(200));
        let view = session.view();
        if view
            .record
            .iter()
            .filter(|p| p.ply.board == tandem::BoardId::A)
            .count()
            >= 6
            && view
                .record
                .iter()
                .filter(|p| p.ply.board == tandem::BoardId::B)
                .count()
                >= 6
        {
            break;
        }
    }
    player.stop();
    // Let the last press be judged before comparing with the journal: the journal takes
    // each input before the arbiter applies it and publishes the view, so the two agree
    // once the arbiter is idle.
    let live = || -> Vec<String> {
        session
            .view()
            .record
            .iter()
            .map(|p| p.san.clone())
            .collect()
    };
    let journaled = || -> Vec<String> {
        let replayed = session.replayed().unwrap();
        replayed
            .game()
            .record()
            .iter()
            .map(|p| p.san.clone())
            .collect()
    };
    let settled = Instant::now() + Duration::from_secs(15);
    std::thread::sleep(Duration::from_secs(4));
    while live() != journaled() && Instant::now() < settled {
        std::thread::sleep(Duration::from_millis(200));
    }
    let view = session.view();
    eprintln!(
        "{} plies: {:?}",
        view.record.len(),
        view.record
            .iter()
            .map(|p| p.san.clone())
            .collect::<Vec<_>>()
    );
    for a in &view.alerts {
        eprintln!("{}", a.json_line());
    }
    assert!(view.record.len() >= 12, "too few moves seen live");
    for b in &view.boards {
        assert!(b.link.connected, "board {} not connected", b.id);
        assert!(b.started, "board {} never saw the start position", b.id);
    }
    // The journal replays to the same record.
    let replayed = session.replayed().unwrap();
    let live: Vec<String> = view.record.iter().map(|p| p.san.clone()).collect();
    let again: Vec<String> = replayed
        .game()
        .record()
        .iter()
        .map(|p| p.san.clone())
        .collect();
    assert_eq!(live, again);
    // Every alert raised is in the match's alert log, in the stable JSON-lines form.
    let log = std::fs::read_to_string(dir.join("match").join("alerts.jsonl")).unwrap();
    let logged: Vec<&str> = log.lines().collect();
    let raised: Vec<String> = view.alerts.iter().map(|a| a.json_line()).collect();
    assert!(logged.len() >= raised.len(), "{logged:?}\n{raised:?}");
    assert_eq!(logged[..raised.len()], raised[..]);
    session.stop(true);
}

/// `tandem station` with no boards plays the demo game after game, as the window does,
/// and each game leaves a whole match folder whose `match.bpgn` is what `tandem replay`
/// of its journal writes.
#[test]
fn the_headless_demo_plays_game_after_game_into_whole_folders() {
    let dir = temp_dir("headless-games");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tandem"))
        .args([
            "station",
            "--demo-plies",
            "3",
            "--demo-games",
            "2",
            "--seconds",
            "120",
        ])
        .arg("--data-dir")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let started: Vec<&str> = lines
        .iter()
        .filter(|v| v["event"] == "started")
        .filter_map(|v| v["dir"].as_str())
        .collect();
    assert_eq!(started.len(), 2, "two games, two folders: {lines:?}");
    let ends = lines.iter().filter(|v| v["kind"] == "game_end").count();
    assert_eq!(ends, 2, "each game given its result: {lines:?}");
    let folders = match_folders(&dir.join("demo"));
    assert_eq!(
        folders
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>(),
        started,
        "the folders the station announced"
    );
    for f in &folders {
        assert_whole_match_folder(f);
        let bpgn = std::fs::read_to_string(f.join("match.bpgn")).unwrap();
        assert!(bpgn.contains("[Event \"Tandem demo\"]"), "{bpgn}");
        assert!(
            !bpgn.contains("[Result \"*\"]"),
            "a game without its result:\n{bpgn}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A match played on simulated boards in simulated time leaves the same folder as a live
/// one (what `tandem event simulate` builds on), given its result by the TD at the table.
#[test]
fn a_simulated_match_leaves_a_whole_folder() {
    use tandem::station::simulated::{SimulatedPlay, play_match};
    let dir = temp_dir("simulated-match");
    let rules = RulesPreset::built_in("uscf-bughouse");
    let runner = play_match(
        header(ArbiterConfig::new(rules), "Simulated"),
        Some(&dir.join("m")),
        &SimulatedPlay::demo(3, 20),
        |_, _, _| {},
    )
    .unwrap();
    let game = runner.arbiter().game();
    assert!(game.result().is_some(), "no result");
    assert!(game.record().len() >= 30, "{} plies", game.record().len());
    assert_whole_match_folder(&dir.join("m"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_headless_station_starts_driven_clocks_itself_and_the_play_button_pauses_and_restarts() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    use tandem::dgt::ClockButton;
    use tandem::sim::VirtualBoard;
    use tandem::sim::emulator::PhysicalAction;

    let rules = tandem::rules::RulesPreset::built_in("uscf-bughouse");
    let [ca, cb] = crate::common::clocks::configs(&rules, true);
    let reg = temp_dir("headless-drive-boards");
    let a = VirtualBoard::spawn_in(ca, 1, Some(reg.clone())).unwrap();
    let b = VirtualBoard::spawn_in(cb, 2, Some(reg.clone())).unwrap();
    // The players have set the pieces up.
    for vb in [&a, &b] {
        vb.act(PhysicalAction::SetUpStart);
    }
    let dir = temp_dir("headless-drive");
    // Stopped however the test ends.
    struct Station(std::process::Child);
    impl Drop for Station {
        fn drop(&mut self) {
            self.0.kill().ok();
            self.0.wait().ok();
        }
    }
    let _station = Station(
        Command::new(env!("CARGO_BIN_EXE_tandem"))
            .args(["station", "--board-a", &a.path(), "--board-b", &b.path()])
            .args([
                "--profile",
                "virtual",
                "--clocks",
                "drive",
                "--seconds",
                "60",
            ])
            .arg("--data-dir")
            .arg(&dir)
            .stdout(Stdio::null())
            .spawn()
            .unwrap(),
    );
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
    // Nobody at a console: Tandem sets both clocks up and starts them itself.
    wait("both clocks started", &|| runs(&a) && runs(&b));
    // A player stops play with the play/pause button: both clocks stop...
    a.act(PhysicalAction::ClockButton(ClockButton::Run));
    wait("both clocks stopped", &|| !runs(&a) && !runs(&b));
    // ...and the button (of either clock) restarts both.
    b.act(PhysicalAction::ClockButton(ClockButton::Run));
    wait("both clocks running again", &|| runs(&a) && runs(&b));
    a.shutdown();
    b.shutdown();
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_dir_all(&reg).ok();
}
