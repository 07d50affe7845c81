//! The live station end to end, in real time: two virtual boards on pseudo-terminals, the
//! production serial workers, the arbiter thread with its journal, and the demo's hands.

#![allow(clippy::unwrap_used)] // tests may unwrap

use std::time::{Duration, Instant};

use tandem::arbiter::ArbiterConfig;
use tandem::rules::RulesPreset;

use crate::common::live::{demo_session, header, temp_dir};

#[test]
fn demo_match_is_followed_live_and_journaled() {
    let dir = temp_dir("live");
    let rules = RulesPreset::built_in("uscf-bughouse");
    let (boards, session) =
        demo_session(&dir, 7, header(ArbiterConfig::new(rules.clone()), "test"));
    let mut player = boards.play(rules, 11);
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
    // Let the last press be judged before comparing with the journal.
    std::thread::sleep(Duration::from_secs(4));
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
