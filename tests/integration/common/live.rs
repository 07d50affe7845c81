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
