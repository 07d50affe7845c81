//! Helpers for the live tests: real-time virtual boards on pseudo-terminals and a station
//! session on them.

use std::path::{Path, PathBuf};

use tandem::arbiter::ArbiterConfig;
use tandem::arbiter::journal::JournalHeader;
use tandem::station::Session;
use tandem::station::demo::DemoBoards;

/// A fresh, empty folder for one test (per process, so test binaries never share one).
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tandem-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// A match header for a test match.
pub fn header(config: ArbiterConfig, event: &str) -> JournalHeader {
    JournalHeader {
        config,
        event: event.into(),
        site: "here".into(),
        date: "2026.11.21".into(),
        time: None,
        capture: None,
        round: String::new(),
        teams: None,
    }
}

/// The demo's two virtual boards (in `dir/registry`) and a live session on them, its
/// match kept in `dir/match`.
pub fn demo_session(dir: &Path, seed: u64, header: JournalHeader) -> (DemoBoards, Session) {
    let registry = dir.join("registry");
    let boards = DemoBoards::spawn(Some(registry.clone()), seed).expect("virtual boards");
    let session = Session::start(
        header,
        &boards.plans(),
        &dir.join("match"),
        Some(registry),
        std::sync::Arc::new(|| {}),
    )
    .expect("session");
    (boards, session)
}

/// Every file of a match folder is there (the same whoever ran the match: the window,
/// `tandem station`, simulated play), and its `match.bpgn` is byte for byte what
/// `tandem replay match.journal` writes.
pub fn assert_whole_match_folder(dir: &Path) {
    use tandem::station::folder::{ALERTS, BOARDS, BPGN, CAPTURE, CLOSED, JOURNAL};
    for name in [JOURNAL, CAPTURE, BOARDS, ALERTS, BPGN, CLOSED] {
        assert!(dir.join(name).is_file(), "{} has no {name}", dir.display());
    }
    let kept = std::fs::read_to_string(dir.join(BPGN)).expect("match.bpgn");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tandem"))
        .arg("replay")
        .arg(dir.join(JOURNAL))
        .output()
        .expect("tandem replay");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let replayed = String::from_utf8(out.stdout).expect("UTF-8 BPGN");
    assert_eq!(
        kept, replayed,
        "match.bpgn differs from tandem replay of the journal"
    );
}

/// The match folders under `root` (`root/matches/*`), oldest first.
pub fn match_folders(root: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("matches"))
        .map(|entries| entries.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    dirs.sort();
    dirs
}
