//! Where matches are kept: one folder per match holding its journal, its capture and, once
//! the match is closed properly, a `closed` marker. A folder with a journal and no marker
//! is an unfinished match (a crash or a power cut) that Tandem offers to resume.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

pub const JOURNAL: &str = "match.journal";
pub const CAPTURE: &str = "match.capture";
/// Every alert raised, as the stable JSON lines (README: "Alerts").
pub const ALERTS: &str = "alerts.jsonl";
pub const CLOSED: &str = "closed";

/// The data folder: `$TANDEM_DATA_DIR`, else `$XDG_DATA_HOME/tandem`, else
/// `~/.local/share/tandem`, else `./tandem-data`.
#[must_use]
pub fn data_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("TANDEM_DATA_DIR") {
        return PathBuf::from(d);
    }
    if let Some(d) = std::env::var_os("XDG_DATA_HOME") {
        return PathBuf::from(d).join("tandem");
    }
    if let Some(h) = std::env::var_os("HOME") {
        return PathBuf::from(h).join(".local/share/tandem");
    }
    PathBuf::from("tandem-data")
}

/// A fresh folder name for a match started now (`matches/20261121-143005`, with a suffix
/// if that exists already).
#[must_use]
pub fn new_match_dir(root: &Path, prefix: &str) -> PathBuf {
    let base = root
        .join("matches")
        .join(format!("{prefix}{}", stamp_now()));
    let mut dir = base.clone();
    let mut n = 1;
    while dir.exists() {
        n += 1;
        dir = PathBuf::from(format!("{}-{n}", base.display()));
    }
    dir
}

/// Unfinished matches under `root`, newest first.
#[must_use]
pub fn unfinished(root: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root.join("matches")) else {
        return Vec::new();
    };
    let mut dirs: Vec<(SystemTime, PathBuf)> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join(JOURNAL).is_file() && !p.join(CLOSED).exists())
        .map(|p| {
            let t = std::fs::metadata(p.join(JOURNAL))
                .and_then(|m| m.modified())
                .unwrap_or(UNIX_EPOCH);
            (t, p)
        })
        .collect();
    dirs.sort_by_key(|d| std::cmp::Reverse(d.0));
    dirs.into_iter().map(|(_, p)| p).collect()
}

/// Marks a match closed (not to be offered for resumption).
pub fn mark_closed(dir: &Path) -> std::io::Result<()> {
    std::fs::write(dir.join(CLOSED), b"closed\n")
}

/// UTC date and time now, as `YYYYMMDD-HHMMSS`.
#[must_use]
pub fn stamp_now() -> String {
    let (y, mo, d, h, mi, s) = utc_now();
    format!("{y:04}{mo:02}{d:02}-{h:02}{mi:02}{s:02}")
}

/// UTC date now as `YYYY.MM.DD` (the BPGN Date tag) and time as `HH:MM:SS`.
#[must_use]
pub fn date_and_time_now() -> (String, String) {
    let (y, mo, d, h, mi, s) = utc_now();
    (
        format!("{y:04}.{mo:02}.{d:02}"),
        format!("{h:02}:{mi:02}:{s:02}"),
    )
}

fn utc_now() -> (i64, u32, u32, u32, u32, u32) {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0));
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    let c = |v: i64| u32::try_from(v).unwrap_or(0);
    (y, c(m), c(d), c(rem / 3600), c(rem / 60 % 60), c(rem % 60))
}
