//! The event folder: one folder an evening, holding every file of it.
//!
//! ```text
//! events/club-night/
//!   event.ron        teams, format, tables, pairings, colours, results (the event core's file)
//!   standings.csv    the standings, one line a team
//!   standings.html   the standings and every round, to print or show
//!   event.bpgn       all the evening's games, one after another
//!   rounds/1/match-1/   one match folder per game (journal, capture, boards, alerts,
//!   rounds/1/match-2/   match.bpgn, closed), exactly as a single match's
//! ```
//! Every file is written whole beside itself and renamed over the old one, so a power cut
//! leaves the old file or the new one, never half of one.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::event::{Event, GameRef, export, file};
use crate::rules::RulesPreset;
use crate::station::folder::{BPGN, MatchFolder};

pub use crate::event::file::FILE_NAME as EVENT_FILE;
pub const STANDINGS_CSV: &str = "standings.csv";
pub const STANDINGS_HTML: &str = "standings.html";
/// All the evening's games as one BPGN file.
pub const EVENT_BPGN: &str = "event.bpgn";

/// An event's folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventFolder {
    dir: PathBuf,
}

impl EventFolder {
    #[must_use]
    pub fn at(dir: &Path) -> EventFolder {
        EventFolder {
            dir: dir.to_path_buf(),
        }
    }

    /// Creates the folder for a new event and writes its files; refuses a folder that
    /// already holds an event.
    pub fn create(dir: &Path, event: &Event) -> anyhow::Result<EventFolder> {
        let folder = EventFolder::at(dir);
        if folder.event_file().exists() {
            anyhow::bail!("{} already holds an event", dir.display());
        }
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        folder.save(event)?;
        Ok(folder)
    }

    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    #[must_use]
    pub fn event_file(&self) -> PathBuf {
        self.dir.join(EVENT_FILE)
    }

    /// Is there an event here?
    #[must_use]
    pub fn exists(&self) -> bool {
        self.event_file().is_file()
    }

    /// Reads `event.ron`; a bad file is refused as `FILE:LINE:COL: reason`.
    pub fn load(&self) -> anyhow::Result<Event> {
        let path = self.event_file();
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        file::parse(&text, |rules| {
            RulesPreset::load(rules).map_err(|e| e.to_string())
        })
        .map_err(|e| anyhow::anyhow!("{}:{e}", path.display()))
    }

    /// Writes `event.ron`, `standings.csv` and `standings.html`.
    pub fn save(&self, event: &Event) -> anyhow::Result<()> {
        write_atomically(&self.event_file(), file::to_text(event).as_bytes())?;
        write_atomically(
            &self.dir.join(STANDINGS_CSV),
            export::standings_csv(event).as_bytes(),
        )?;
        write_atomically(
            &self.dir.join(STANDINGS_HTML),
            export::standings_html(event).as_bytes(),
        )
    }

    /// Writes `event.bpgn`: each game's `match.bpgn`, in order of round, pairing and game
    /// (games not begun, or without a record, are left out).
    pub fn write_bpgn(&self, event: &Event) -> anyhow::Result<()> {
        let mut all = String::new();
        for (_, _, game) in event.games() {
            let Some(name) = &game.folder else {
                continue;
            };
            let Ok(text) = std::fs::read_to_string(self.dir.join(name).join(BPGN)) else {
                continue;
            };
            if !all.is_empty() {
                all.push('\n');
            }
            all.push_str(text.trim_end());
            all.push('\n');
        }
        write_atomically(&self.dir.join(EVENT_BPGN), all.as_bytes())
    }

    /// The match folder of a game that has begun.
    #[must_use]
    pub fn match_folder(&self, event: &Event, g: GameRef) -> Option<MatchFolder> {
        let name = event.game(g)?.folder.as_ref()?;
        Some(MatchFolder::at(&self.dir.join(name)))
    }
}

/// The mark that a Tandem has the event open (its process id): one station writes an
/// event at a time.
pub const LOCK: &str = "event.lock";

/// An event held open by this process; the mark is removed when dropped. A mark left by
/// a process that is gone (a crash) is taken over.
#[derive(Debug)]
pub struct EventLock {
    path: PathBuf,
}

impl Drop for EventLock {
    fn drop(&mut self) {
        std::fs::remove_file(&self.path).ok();
    }
}

impl EventFolder {
    /// Refuses if another live Tandem has the event open.
    pub fn check_unlocked(&self) -> anyhow::Result<()> {
        let path = self.dir.join(LOCK);
        let Ok(text) = std::fs::read_to_string(&path) else {
            return Ok(());
        };
        let pid: u32 = text.trim().parse().unwrap_or(0);
        let alive =
            pid != 0 && pid != std::process::id() && Path::new(&format!("/proc/{pid}")).exists();
        anyhow::ensure!(
            !alive,
            "{} is open in another Tandem (process {pid}): change it there, or stop that one \
             (if no Tandem runs, remove {})",
            self.dir.display(),
            path.display()
        );
        Ok(())
    }

    /// Marks the event open by this process (refused if another live one has it).
    pub fn lock(&self) -> anyhow::Result<EventLock> {
        self.check_unlocked()?;
        let path = self.dir.join(LOCK);
        write_atomically(&path, format!("{}\n", std::process::id()).as_bytes())?;
        Ok(EventLock { path })
    }
}

/// Writes a file whole: beside it first, synced, then renamed over it.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_data()?;
        std::fs::rename(&tmp, path)
    };
    write().with_context(|| format!("writing {}", path.display()))
}

/// Where events are kept: `<data folder>/events`.
#[must_use]
pub fn events_root(data_dir: &Path) -> PathBuf {
    data_dir.join("events")
}

/// An event named on the command line: a folder path (one holding `event.ron`, or one
/// written with a `/`), else a name under `<data folder>/events/`.
#[must_use]
pub fn resolve(name_or_path: &str, data_dir: &Path) -> PathBuf {
    let path = Path::new(name_or_path);
    if path.join(EVENT_FILE).is_file() || name_or_path.contains(std::path::MAIN_SEPARATOR) {
        return path.to_path_buf();
    }
    events_root(data_dir).join(name_or_path)
}

/// Events under `<data folder>/events` with games still in play (a crash, a power cut,
/// the window closed mid-round), newest `event.ron` first.
#[must_use]
pub fn unfinished_events(data_dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(events_root(data_dir)) else {
        return Vec::new();
    };
    let mut found: Vec<(std::time::SystemTime, PathBuf)> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join(EVENT_FILE).is_file())
        .filter(|p| {
            EventFolder::at(p)
                .load()
                .is_ok_and(|e| !e.games_in_play().is_empty())
        })
        .map(|p| {
            let t = std::fs::metadata(p.join(EVENT_FILE))
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            (t, p)
        })
        .collect();
    found.sort_by_key(|f| std::cmp::Reverse(f.0));
    found.into_iter().map(|f| f.1).collect()
}
