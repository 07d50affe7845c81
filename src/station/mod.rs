//! The live station: board workers, the arbiter thread, the journal and the capture.
//!
//! ```text
//! board workers ──BoardEvent──┐  (bounded channel, blocking send: nothing dropped)
//! TD (UI) ────────TdAction─────┤
//!                              ▼
//!        arbiter thread: journal line written (and flushed) → Arbiter::handle → view
//!                              │  Arc<MatchView> + repaint waker
//!                              ▼
//!                      UI: console and projector
//! ```
//! Every input is journaled before it is applied; clock messages and TD actions are also
//! synced to disk. A station resumed from a journal replays it through a fresh arbiter
//! (the same state, since the arbiter is deterministic) and carries on appending.

pub mod demo;
pub mod files;

use std::collections::VecDeque;
use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use crossbeam_channel::{Receiver, Sender, bounded, select};

use crate::arbiter::journal::{self, JournalHeader};
use crate::arbiter::view::MatchView;
use crate::arbiter::{Arbiter, Input, Output, TdAction};
use crate::arbiter::{BoardEvent, BoardEventKind};
use crate::device::capture::{CaptureSink, CaptureWriter};
use crate::device::profile::{ConfigError, DeviceProfile, PortSpec, Station};
use crate::device::worker::{WorkerConfig, WorkerHandle, spawn_board_worker};
use crate::dgt::Message;
use crate::{BoardId, Millis};

/// Called whenever there is something new to draw.
pub type Waker = Arc<dyn Fn() + Send + Sync>;

/// One board to connect.
#[derive(Clone, Debug)]
pub struct BoardPlan {
    pub board: BoardId,
    pub port: PortSpec,
    pub profile: DeviceProfile,
}

impl BoardPlan {
    /// The boards of a station file, each with its device profile loaded.
    pub fn for_station(station: &Station) -> Result<Vec<BoardPlan>, ConfigError> {
        station
            .boards
            .iter()
            .map(|b| {
                Ok(BoardPlan {
                    board: b.board,
                    port: b.port.clone(),
                    profile: DeviceProfile::load(&b.profile)?,
                })
            })
            .collect()
    }
}

/// How long the projector may run behind live, at most (views kept for the delay).
pub const MAX_BROADCAST_DELAY_MS: Millis = 15 * 60_000;

/// What the UI and the arbiter thread share.
struct Shared {
    view: Mutex<Arc<MatchView>>,
    /// Views of the last minutes, oldest first, for the projector's broadcast delay.
    history: Mutex<VecDeque<Arc<MatchView>>>,
    stop: AtomicBool,
    problem: Mutex<Option<String>>,
}

/// A running match.
pub struct Session {
    shared: Arc<Shared>,
    td_tx: Sender<TdAction>,
    thread: Option<JoinHandle<()>>,
    workers: Vec<WorkerHandle>,
    epoch: Instant,
    dir: PathBuf,
    header: JournalHeader,
}

impl Session {
    /// Starts a new match in `dir` (journal and capture are created there).
    pub fn start(
        header: JournalHeader,
        boards: &[BoardPlan],
        dir: &Path,
        registry: Option<PathBuf>,
        waker: Waker,
    ) -> anyhow::Result<Session> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let journal_path = dir.join(files::JOURNAL);
        let capture_path = dir.join(files::CAPTURE);
        let mut header = header;
        header.capture = Some(files::CAPTURE.to_owned());
        let mut journal = OpenOptions::new()
            .create_new(true)
            .append(true)
            .open(&journal_path)
            .with_context(|| format!("creating {}", journal_path.display()))?;
        journal
            .write_all(journal::header_lines(&header).as_bytes())
            .and_then(|()| journal.sync_data())
            .with_context(|| format!("writing {}", journal_path.display()))?;
        let capture = CaptureWriter::create(&capture_path)
            .with_context(|| format!("creating {}", capture_path.display()))?;
        let arbiter = Arbiter::new(header.config.clone());
        let alerts = alert_log(dir, &[]);
        Self::launch(
            header,
            arbiter,
            journal,
            alerts,
            CaptureSink::new(capture),
            boards,
            dir,
            registry,
            waker,
            Instant::now(),
        )
    }

    /// Resumes the unfinished match journaled in `dir`: the journal is replayed (a torn
    /// last record is cut off), then the match goes on live, appending to the same files.
    pub fn resume(
        dir: &Path,
        boards: &[BoardPlan],
        registry: Option<PathBuf>,
        waker: Waker,
    ) -> anyhow::Result<Session> {
        let journal_path = dir.join(files::JOURNAL);
        let text = std::fs::read_to_string(&journal_path)
            .with_context(|| format!("reading {}", journal_path.display()))?;
        let parsed = journal::parse_journal(&text)
            .map_err(|e| anyhow::anyhow!("{}:{e}", journal_path.display()))?;
        if parsed.torn_tail {
            // Cut the torn record so that appended lines start on a fresh line.
            let keep = text.rfind('\n').map_or(0, |i| i + 1);
            let f = OpenOptions::new().write(true).open(&journal_path)?;
            f.set_len(keep as u64)?;
        }
        let mut arbiter = Arbiter::new(parsed.config.clone());
        let mut last = 0;
        let mut raised = Vec::new();
        for input in &parsed.inputs {
            last = last.max(input.t_ms());
            raised.extend(arbiter.handle(input).into_iter().filter_map(|o| match o {
                Output::AlertRaised(a) => Some(a),
                _ => None,
            }));
        }
        // The alert log is rebuilt from the journal: an alert of the last input before a
        // crash may never have reached it.
        let alerts = alert_log(dir, &raised);
        let journal = OpenOptions::new().append(true).open(&journal_path)?;
        let capture_path = dir.join(files::CAPTURE);
        let capture = CaptureWriter::append(&capture_path)
            .with_context(|| format!("opening {}", capture_path.display()))?;
        // Match time carries on from the journal's last input.
        let epoch = Instant::now()
            .checked_sub(Duration::from_millis(last + 1))
            .unwrap_or_else(Instant::now);
        Self::launch(
            parsed.header,
            arbiter,
            journal,
            alerts,
            CaptureSink::new(capture),
            boards,
            dir,
            registry,
            waker,
            epoch,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn launch(
        header: JournalHeader,
        arbiter: Arbiter,
        journal: File,
        alerts: Option<File>,
        capture: CaptureSink,
        boards: &[BoardPlan],
        dir: &Path,
        registry: Option<PathBuf>,
        waker: Waker,
        epoch: Instant,
    ) -> anyhow::Result<Session> {
        let shared = Arc::new(Shared {
            view: Mutex::new(Arc::new(arbiter.view())),
            history: Mutex::new(VecDeque::new()),
            stop: AtomicBool::new(false),
            problem: Mutex::new(None),
        });
        let (dev_tx, dev_rx) = bounded::<BoardEvent>(1024);
        let (td_tx, td_rx) = bounded::<TdAction>(64);
        let mut workers = Vec::new();
        for plan in boards {
            let cfg = WorkerConfig {
                board: plan.board,
                port: plan.port.clone(),
                profile: plan.profile.clone(),
                registry_dir: registry.clone(),
            };
            let w = waker.clone();
            workers.push(spawn_board_worker(
                cfg,
                epoch,
                dev_tx.clone(),
                Arc::new(move || w()),
                Some(capture.clone()),
            ));
        }
        drop(dev_tx);
        let thread_shared = shared.clone();
        let thread = std::thread::Builder::new()
            .name("arbiter".into())
            .spawn(move || {
                arbiter_loop(
                    arbiter,
                    journal,
                    alerts,
                    &dev_rx,
                    &td_rx,
                    &thread_shared,
                    &waker,
                    epoch,
                )
            })
            .context("starting the arbiter thread")?;
        Ok(Session {
            shared,
            td_tx,
            thread: Some(thread),
            workers,
            epoch,
            dir: dir.to_path_buf(),
            header,
        })
    }

    /// The view of the match now.
    #[must_use]
    pub fn view(&self) -> Arc<MatchView> {
        self.shared
            .view
            .lock()
            .map_or_else(|p| p.into_inner().clone(), |v| v.clone())
    }

    /// The latest view at least `delay_ms` old (the projector's broadcast delay).
    #[must_use]
    pub fn delayed_view(&self, delay_ms: Millis) -> Arc<MatchView> {
        if delay_ms == 0 {
            return self.view();
        }
        let cutoff = self.now_ms().saturating_sub(delay_ms);
        let history = self
            .shared
            .history
            .lock()
            .map_or_else(|p| p.into_inner().clone(), |h| h.clone());
        history
            .iter()
            .rev()
            .find(|v| v.t_ms <= cutoff)
            .cloned()
            .or_else(|| history.front().cloned())
            .unwrap_or_else(|| self.view())
    }

    /// A TD decision; it is journaled and applied on the arbiter thread.
    pub fn td(&self, action: TdAction) {
        if self
            .td_tx
            .send_timeout(action, Duration::from_secs(1))
            .is_err()
        {
            self.set_problem("the arbiter did not take the TD action (stopped?)");
        }
    }

    /// Match time now (ms since the match epoch).
    #[must_use]
    pub fn now_ms(&self) -> Millis {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// A problem the TD must know about (the journal could not be written, ...).
    #[must_use]
    pub fn problem(&self) -> Option<String> {
        self.shared.problem.lock().ok().and_then(|p| p.clone())
    }

    fn set_problem(&self, text: &str) {
        if let Ok(mut p) = self.shared.problem.lock() {
            *p = Some(text.to_owned());
        }
    }

    /// The folder holding this match's journal and capture.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    #[must_use]
    pub fn header(&self) -> &JournalHeader {
        &self.header
    }

    /// The match's BPGN as it stands.
    #[must_use]
    pub fn bpgn(&self) -> String {
        let view = self.view();
        let mut h = crate::notation::BpgnHeader {
            event: self.header.event.clone(),
            site: self.header.site.clone(),
            date: self.header.date.clone(),
            time: self.header.time.clone(),
            ..Default::default()
        };
        h.players.clone_from(&view.players);
        // The arbiter's record is the truth; rebuild it from the journal for the writer.
        match self.replayed() {
            Some(arb) => crate::notation::write_bpgn(arb.game(), &h),
            None => String::new(),
        }
    }

    /// The match replayed from its own journal (what a restart would see).
    #[must_use]
    pub fn replayed(&self) -> Option<Arbiter> {
        let text = std::fs::read_to_string(self.dir.join(files::JOURNAL)).ok()?;
        let j = journal::parse_journal(&text).ok()?;
        let mut arb = Arbiter::new(j.config);
        for input in &j.inputs {
            arb.handle(input);
        }
        Some(arb)
    }

    /// Stops the workers and the arbiter thread; marks the match closed unless `keep_open`
    /// (a closed match is not offered for resumption).
    pub fn stop(mut self, close: bool) {
        self.shutdown(close);
    }

    fn shutdown(&mut self, close: bool) {
        for w in self.workers.drain(..) {
            w.join();
        }
        self.shared.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        if close {
            let _ = files::mark_closed(&self.dir);
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // Dropped without `stop`: leave the match resumable.
        self.shutdown(false);
    }
}

/// Creates the match's alert log afresh with `raised` in it. `None` when it cannot be
/// written (the match goes on: the journal is what recovery needs, and the TD sees the
/// alerts on the console).
fn alert_log(dir: &Path, raised: &[crate::arbiter::Alert]) -> Option<File> {
    let mut f = File::create(dir.join(files::ALERTS)).ok()?;
    for a in raised {
        writeln!(f, "{}", a.json_line()).ok()?;
    }
    Some(f)
}

#[allow(clippy::too_many_arguments)]
fn arbiter_loop(
    mut arbiter: Arbiter,
    mut journal: File,
    mut alerts: Option<File>,
    dev_rx: &Receiver<BoardEvent>,
    td_rx: &Receiver<TdAction>,
    shared: &Shared,
    waker: &Waker,
    epoch: Instant,
) {
    let now_ms = || u64::try_from(epoch.elapsed().as_millis()).unwrap_or(u64::MAX);
    let mut devices_open = true;
    while !shared.stop.load(Ordering::SeqCst) {
        let timeout = arbiter
            .next_deadline()
            .map_or(250, |d| d.saturating_sub(now_ms()))
            .clamp(1, 250);
        let input = if devices_open {
            select! {
                recv(dev_rx) -> ev => match ev {
                    Ok(ev) => Some(Input::Board(ev)),
                    Err(_) => { devices_open = false; None }
                },
                recv(td_rx) -> a => a.ok().map(|action| Input::Td { t_ms: now_ms(), action }),
                default(Duration::from_millis(timeout)) => None,
            }
        } else {
            td_rx
                .recv_timeout(Duration::from_millis(timeout))
                .ok()
                .map(|action| Input::Td {
                    t_ms: now_ms(),
                    action,
                })
        };
        let input = match input {
            Some(i) => i,
            None => match arbiter.next_deadline() {
                Some(d) if d <= now_ms() => Input::Tick { t_ms: now_ms() },
                _ => continue,
            },
        };
        let durable = matches!(
            &input,
            Input::Td { .. }
                | Input::Board(BoardEvent {
                    kind: BoardEventKind::Message(Message::Clock(_))
                        | BoardEventKind::Connected { .. }
                        | BoardEventKind::Disconnected { .. },
                    ..
                })
        );
        // Journal first: an input is never applied unless it is on disk (or the TD knows).
        let line = journal::input_line(&input);
        let written = journal
            .write_all(line.as_bytes())
            .and_then(|()| if durable { journal.sync_data() } else { Ok(()) });
        if let Err(e) = written
            && let Ok(mut p) = shared.problem.lock()
        {
            *p = Some(format!("the journal cannot be written: {e}"));
        }
        let outputs = arbiter.handle(&input);
        if let Some(f) = &mut alerts {
            for o in &outputs {
                if let Output::AlertRaised(a) = o
                    && writeln!(f, "{}", a.json_line()).is_err()
                {
                    if let Ok(mut p) = shared.problem.lock() {
                        *p = Some(format!("the alert log {} cannot be written", files::ALERTS));
                    }
                    alerts = None;
                    break;
                }
            }
        }
        let changed = !outputs.is_empty() || !matches!(input, Input::Tick { .. });
        if changed {
            publish(&arbiter, shared, &outputs);
            waker();
        }
    }
}

fn publish(arbiter: &Arbiter, shared: &Shared, _outputs: &[Output]) {
    let view = Arc::new(arbiter.view());
    if let Ok(mut h) = shared.history.lock() {
        h.push_back(view.clone());
        let cutoff = view.t_ms.saturating_sub(MAX_BROADCAST_DELAY_MS);
        while h.front().is_some_and(|v| v.t_ms < cutoff) || h.len() > 20_000 {
            h.pop_front();
        }
    }
    if let Ok(mut v) = shared.view.lock() {
        *v = view;
    }
}
