//! The match folder: one folder per match holding every file of it, owned by one type.
//!
//! ```text
//! matches/20261121-143005/
//!   match.journal   every input, written before it is applied (header first)
//!   match.capture   the boards' raw bytes (tandem capture v1)
//!   boards.ron      which boards it is played on (for resuming)
//!   alerts.jsonl    every alert raised, the stable JSON lines
//!   match.bpgn      the record as it stands (kept current by the arbiter thread)
//!   closed          once the match is closed (not offered for resuming)
//! ```
//! The window, `tandem station` and simulated play all make their folders here, so a match
//! folder holds the same files whoever ran the match.

use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::Context as _;

use crate::arbiter::journal::{self, JournalHeader};
use crate::arbiter::{Alert, Input};
use crate::device::capture::CaptureWriter;
use crate::device::profile::Station;

pub const JOURNAL: &str = "match.journal";
pub const CAPTURE: &str = "match.capture";
/// Every alert raised, as the stable JSON lines (README: "Alerts").
pub const ALERTS: &str = "alerts.jsonl";
/// The boards the match is played on, as a station file.
pub const BOARDS: &str = "boards.ron";
pub const BPGN: &str = "match.bpgn";
pub const CLOSED: &str = "closed";

/// A match's folder and the files in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchFolder {
    dir: PathBuf,
}

/// The files a running match appends to.
pub struct FolderWriters {
    pub journal: JournalWriter,
    pub alerts: AlertLog,
    pub capture: CaptureWriter,
}

impl MatchFolder {
    /// The folder at `dir` (nothing is read or created).
    #[must_use]
    pub fn at(dir: &Path) -> MatchFolder {
        MatchFolder {
            dir: dir.to_path_buf(),
        }
    }

    /// Creates a new match in `dir`: the journal with its header (on disk before anything
    /// else happens), an empty capture and alert log, and `boards.ron` when the boards are
    /// known. Refuses a folder that already holds a journal.
    pub fn create(
        dir: &Path,
        header: &JournalHeader,
        boards: Option<&Station>,
    ) -> anyhow::Result<(MatchFolder, FolderWriters)> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let folder = MatchFolder::at(dir);
        let journal_path = folder.path(JOURNAL);
        let mut file = OpenOptions::new()
            .create_new(true)
            .append(true)
            .open(&journal_path)
            .with_context(|| format!("creating {}", journal_path.display()))?;
        file.write_all(journal::header_lines(header).as_bytes())
            .and_then(|()| file.sync_data())
            .with_context(|| format!("writing {}", journal_path.display()))?;
        if let Some(station) = boards {
            folder.write_boards(station)?;
        }
        let capture_path = folder.path(CAPTURE);
        let capture = CaptureWriter::create(&capture_path)
            .with_context(|| format!("creating {}", capture_path.display()))?;
        let alerts = AlertLog::create(&folder.path(ALERTS), &[]);
        Ok((
            folder,
            FolderWriters {
                journal: JournalWriter { file },
                alerts,
                capture,
            },
        ))
    }

    /// Opens an unfinished match to carry on: a journal record torn by a power cut is cut
    /// off so that new lines start on a fresh line, the alert log is rebuilt from
    /// `raised` (what replaying the journal raised: an alert of the last input before a
    /// crash may never have reached the log), and the capture is appended to.
    pub fn reopen(&self, torn_tail: bool, raised: &[Alert]) -> anyhow::Result<FolderWriters> {
        let journal_path = self.path(JOURNAL);
        if torn_tail {
            let text = std::fs::read_to_string(&journal_path)
                .with_context(|| format!("reading {}", journal_path.display()))?;
            let keep = text.rfind('\n').map_or(0, |i| i + 1);
            let f = OpenOptions::new()
                .write(true)
                .open(&journal_path)
                .with_context(|| format!("opening {}", journal_path.display()))?;
            f.set_len(keep as u64)
                .with_context(|| format!("cutting the torn end of {}", journal_path.display()))?;
        }
        let file = OpenOptions::new()
            .append(true)
            .open(&journal_path)
            .with_context(|| format!("opening {}", journal_path.display()))?;
        let capture_path = self.path(CAPTURE);
        let capture = CaptureWriter::append(&capture_path)
            .with_context(|| format!("opening {}", capture_path.display()))?;
        Ok(FolderWriters {
            journal: JournalWriter { file },
            alerts: AlertLog::create(&self.path(ALERTS), raised),
            capture,
        })
    }

    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// One of the folder's files by name (`folder.path(JOURNAL)`).
    #[must_use]
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// The boards the match was played on (`boards.ron`), if the folder has them.
    pub fn boards(&self) -> anyhow::Result<Option<Station>> {
        let path = self.path(BOARDS);
        if !path.is_file() {
            return Ok(None);
        }
        Ok(Some(Station::load(&path)?))
    }

    pub fn write_boards(&self, station: &Station) -> anyhow::Result<()> {
        let text = ron::ser::to_string_pretty(station, ron::ser::PrettyConfig::new())
            .context("writing the boards as RON")?;
        let path = self.path(BOARDS);
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
    }

    /// Replaces `match.bpgn` whole (written beside it, then renamed over it, so a reader
    /// never sees half a file).
    pub fn write_bpgn(&self, text: &str) -> std::io::Result<()> {
        let tmp = self.path("match.bpgn.tmp");
        std::fs::write(&tmp, text)?;
        std::fs::rename(&tmp, self.path(BPGN))
    }

    /// Marks the match closed (not to be offered for resumption).
    pub fn mark_closed(&self) -> std::io::Result<()> {
        std::fs::write(self.path(CLOSED), b"closed\n")
    }

    #[must_use]
    pub fn is_closed(&self) -> bool {
        self.path(CLOSED).exists()
    }
}

/// The journal, appended to one input a line.
pub struct JournalWriter {
    file: File,
}

impl JournalWriter {
    /// Writes the input's line; `durable` also syncs it to disk (clock messages, connects
    /// and TD actions: what recovery cannot do without).
    pub fn append(&mut self, input: &Input, durable: bool) -> std::io::Result<()> {
        self.file
            .write_all(journal::input_line(input).as_bytes())
            .and_then(|()| {
                if durable {
                    self.file.sync_data()
                } else {
                    Ok(())
                }
            })
    }
}

/// `alerts.jsonl`. A log that cannot be written is given up (the match goes on: the
/// journal is what recovery needs, and the TD sees the alerts on the console).
pub struct AlertLog {
    file: Option<File>,
}

impl AlertLog {
    fn create(path: &Path, raised: &[Alert]) -> AlertLog {
        let file = File::create(path).ok().and_then(|mut f| {
            raised
                .iter()
                .try_for_each(|a| writeln!(f, "{}", a.json_line()))
                .ok()
                .map(|()| f)
        });
        AlertLog { file }
    }

    /// A log that writes nothing (a replay).
    #[must_use]
    pub fn none() -> AlertLog {
        AlertLog { file: None }
    }

    /// Appends one alert; `false` when the log could not be written (and is given up).
    pub fn append(&mut self, alert: &Alert) -> bool {
        let Some(f) = &mut self.file else {
            return true;
        };
        if writeln!(f, "{}", alert.json_line()).is_err() {
            self.file = None;
            return false;
        }
        true
    }
}

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
    let mut dirs: Vec<(SystemTime, PathBuf)> = match_dirs(root)
        .into_iter()
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

/// A one-line description of the match in `dir`, for the TD to recognise it: event, date,
/// players (team by team), rules; or why its journal cannot be read.
#[must_use]
pub fn unfinished_summary(dir: &Path) -> String {
    let path = dir.join(JOURNAL);
    match std::fs::read_to_string(&path) {
        Ok(text) => match journal::parse_journal(&text) {
            Ok(j) => {
                let h = &j.header;
                let p = &j.config.players;
                format!(
                    "{} · {} {} · {} & {} vs {} & {} · {}",
                    h.event,
                    h.date,
                    h.time.clone().unwrap_or_default(),
                    p[0],
                    p[3],
                    p[1],
                    p[2],
                    j.config.rules.title
                )
            }
            Err(e) => format!("unreadable journal {}:{e}", path.display()),
        },
        Err(e) => format!("unreadable journal {}: {e}", path.display()),
    }
}

/// Keeps the newest `keep` match folders whose names start with `prefix`, removing older
/// ones (a demo left running for an evening would otherwise fill the data folder).
pub fn prune(root: &Path, prefix: &str, keep: usize) {
    let mut dirs: Vec<(SystemTime, PathBuf)> = match_dirs(root)
        .into_iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
        })
        .filter_map(|p| {
            let t = std::fs::metadata(&p).and_then(|m| m.modified()).ok()?;
            Some((t, p))
        })
        .collect();
    dirs.sort_by_key(|d| std::cmp::Reverse(d.0));
    for (_, d) in dirs.into_iter().skip(keep) {
        std::fs::remove_dir_all(d).ok();
    }
}

fn match_dirs(root: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(root.join("matches"))
        .map(|entries| entries.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default()
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
