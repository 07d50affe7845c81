//! Nothing lost: the live station killed with SIGKILL in the middle of a match is offered
//! for resumption and comes back in the state it had — every move it had printed, every
//! alert — from its journal; `tandem replay` reads that journal too.

#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use tandem::station::{Session, folder as files};

fn tandem() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tandem"))
}

#[test]
fn killed_mid_match_the_station_resumes_where_it_was() {
    let root = std::env::temp_dir().join(format!("tandem-recovery-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let mut child = tandem()
        .args(["station", "--data-dir"])
        .arg(&root)
        .args(["--demo-seed", "4"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = crossbeam_channel::unbounded();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut dir = None;
    let mut printed_moves: Vec<(String, String)> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(90);
    while printed_moves.len() < 12 && Instant::now() < deadline {
        let Ok(line) = rx.recv_timeout(Duration::from_secs(30)) else {
            break;
        };
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        match v["event"].as_str() {
            Some("started") => dir = v["dir"].as_str().map(std::path::PathBuf::from),
            Some("move") => printed_moves.push((
                v["board"].as_str().unwrap().to_owned(),
                v["san"].as_str().unwrap().to_owned(),
            )),
            _ => {}
        }
    }
    // SIGKILL: no chance to flush anything beyond what the journal already holds.
    child.kill().unwrap();
    child.wait().unwrap();
    let dir = dir.expect("the station said where the match is kept");
    assert!(
        printed_moves.len() >= 12,
        "the demo played too little: {printed_moves:?}"
    );

    // Offered for resumption (the demo keeps its matches in the data folder's `demo`).
    let demo_root = root.join("demo");
    assert_eq!(files::unfinished(&demo_root).first(), Some(&dir));

    // Resumed (no boards attached): every move printed before the kill is there, in order.
    let session = Session::resume(&dir, &[], None, std::sync::Arc::new(|| {})).unwrap();
    let view = session.view();
    let restored: Vec<(String, String)> = view
        .record
        .iter()
        .map(|p| (p.ply.board.letter().to_string(), p.san.clone()))
        .collect();
    assert!(
        restored.len() >= printed_moves.len(),
        "restored {restored:?}\nprinted {printed_moves:?}"
    );
    assert_eq!(
        restored[..printed_moves.len()],
        printed_moves[..],
        "restored state differs"
    );
    // At most the input being applied at the kill is extra (it was journaled first).
    assert!(
        restored.len() <= printed_moves.len() + 2,
        "{restored:?} vs {printed_moves:?}"
    );
    // The alert log is rebuilt from the journal: every alert the resumed match knows.
    let log = std::fs::read_to_string(dir.join(files::ALERTS)).unwrap();
    let raised: Vec<String> = view.alerts.iter().map(|a| a.json_line()).collect();
    let logged: Vec<&str> = log.lines().collect();
    assert!(logged.len() >= raised.len(), "{logged:?}\n{raised:?}");
    assert_eq!(logged[..raised.len()], raised[..]);
    session.stop(false);

    // `tandem replay` reads the journal and writes the same moves.
    let out = tandem()
        .arg("replay")
        .arg(dir.join(files::JOURNAL))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bpgn = String::from_utf8(out.stdout).unwrap();
    for (_, san) in &printed_moves {
        assert!(bpgn.contains(san.as_str()), "{san} missing from\n{bpgn}");
    }

    // And the station itself resumes it on request.
    let out = tandem()
        .args([
            "station",
            "--resume",
            "latest",
            "--seconds",
            "1",
            "--data-dir",
        ])
        .arg(&demo_root)
        .output()
        .unwrap();
    let first = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned();
    let v: serde_json::Value = serde_json::from_str(&first).unwrap();
    assert_eq!(v["event"], "started");
    // A press still waiting to be judged at the kill may be judged (and journaled) as the
    // resumed session stops: the station then resumes with that ply too.
    let plies = v["plies"].as_u64().unwrap() as usize;
    assert!(
        (restored.len()..=restored.len() + 1).contains(&plies),
        "{plies} plies resumed, {} restored",
        restored.len()
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn killed_mid_round_the_event_resumes_every_match_in_play() {
    use std::collections::HashMap;
    use tandem::station::event::{EventFolder, EventNews, EventStation, folder as event_files};

    let root = std::env::temp_dir().join(format!("tandem-event-recovery-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let mut child = tandem()
        .args([
            "event",
            "run",
            "--demo",
            "--teams",
            "4",
            "--close-after",
            "600",
            "--data-dir",
        ])
        .arg(&root)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = crossbeam_channel::unbounded();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut event_dir = None;
    let mut started: HashMap<String, std::path::PathBuf> = HashMap::new();
    let mut moves: HashMap<String, Vec<(String, String)>> = HashMap::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    let enough = |m: &HashMap<String, Vec<(String, String)>>| {
        m.len() == 2 && m.values().all(|v| v.len() >= 8)
    };
    while !enough(&moves) && Instant::now() < deadline {
        let Ok(line) = rx.recv_timeout(Duration::from_secs(30)) else {
            break;
        };
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        let game = v["game"].as_str().unwrap_or_default().to_owned();
        match v["event"].as_str() {
            Some("event") => event_dir = v["dir"].as_str().map(std::path::PathBuf::from),
            Some("started") => {
                started.insert(game, v["dir"].as_str().unwrap().into());
            }
            Some("move") => moves.entry(game).or_default().push((
                v["board"].as_str().unwrap().to_owned(),
                v["san"].as_str().unwrap().to_owned(),
            )),
            _ => {}
        }
    }
    // SIGKILL with two matches in play.
    child.kill().unwrap();
    child.wait().unwrap();
    let _ =
        std::fs::remove_dir_all(std::env::temp_dir().join(format!("tandem-event-{}", child.id())));
    let dir = event_dir.expect("the run said where the event is");
    assert!(enough(&moves), "too little play: {moves:?}");
    assert_eq!(started.len(), 2, "{started:?}");

    // The event knows both games are in play, and is offered for resuming.
    let event = EventFolder::at(&dir).load().unwrap();
    assert_eq!(event.games_in_play().len(), 2);
    assert_eq!(event_files::unfinished_events(&root).first(), Some(&dir));

    // Resumed (its virtual boards died with it: nothing to connect to): both matches come
    // back from their journals with every move printed before the kill.
    let registry = root.join("no-boards");
    let mut station = EventStation::open(&dir, Some(registry), std::sync::Arc::new(|| {})).unwrap();
    assert_eq!(station.live().len(), 2);
    let news = station.follow().unwrap();
    assert_eq!(
        news.iter()
            .filter(|n| matches!(n, EventNews::Resumed { .. }))
            .count(),
        2,
        "{news:?}"
    );
    for m in station.live() {
        let label = station.event().game_label(m.game());
        assert_eq!(m.session().dir(), started[&label].as_path());
        let restored: Vec<(String, String)> = m
            .view()
            .record
            .iter()
            .map(|p| (p.ply.board.letter().to_string(), p.san.clone()))
            .collect();
        let printed = &moves[&label];
        assert!(
            restored.len() >= printed.len(),
            "{label}: {restored:?} vs {printed:?}"
        );
        assert_eq!(&restored[..printed.len()], &printed[..], "{label}");
        assert!(m.view().result.is_none());
    }
    station.stop();
    // Stopped again without a result: still in play, still resumable.
    assert_eq!(
        EventFolder::at(&dir).load().unwrap().games_in_play().len(),
        2
    );
    let _ = std::fs::remove_dir_all(&root);
}
