//! A live match: the board workers, the arbiter thread running the match's
//! [`MatchRunner`], and what the screens read (views, BPGN, problems).
//!
//! ```text
//! board workers ──BoardEvent──┐  (bounded channel, blocking send: nothing dropped)
//! TD (UI) ───────TdAction─────┤
//! clock buttons, keys ─Press──┤
//!                             ▼
//!        arbiter thread: MatchRunner::apply (journal line written, then applied;
//!                        alert log and match.bpgn kept current) → views
//!                             │  Arc<MatchView> + repaint waker
//!                             │  clock commands ──► the board's worker (sent, acked,
//!                             ▼                      the outcome back as a BoardEvent)
//!                     UI: console and projector
//!                             │  each new spectator view, down a channel (HallTap)
//!                             ▼
//!                     web server (its own delay line; never a lock the arbiter waits on)
//! ```

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime};

use anyhow::Context as _;
use crossbeam_channel::{Receiver, Sender, bounded, select};

use crate::ByBoard;
use crate::Millis;
use crate::arbiter::journal::JournalHeader;
use crate::arbiter::spectator::SpectatorView;
use crate::arbiter::view::MatchView;
use crate::arbiter::{BoardEvent, Input, Output, TdAction};
use crate::device::capture::{CaptureSink, CaptureWriter};
use crate::device::worker::ClockOrder;
use crate::device::worker::{WorkerConfig, WorkerHandle, spawn_board_worker};
use crate::rules::Seat;

use super::folder::{MatchFolder, unfinished_summary};
use super::recording::{Recording, Source};
use super::runner::{LiveFiles, MatchRunner};
use super::views::Views;
use super::{BoardPlan, HallTap, Waker, station_of};

/// What the screens and the arbiter thread share.
struct Shared {
    views: Mutex<Views>,
    bpgn: Mutex<Arc<str>>,
    stop: AtomicBool,
    /// Mark the folder closed when the thread ends.
    close: AtomicBool,
    problem: Mutex<Option<String>>,
}

/// A running match.
pub struct Session {
    shared: Arc<Shared>,
    td_tx: Sender<TdAction>,
    /// Presses and the clock buttons' news, with their own times.
    in_tx: Sender<Input>,
    /// The clock buttons' reader threads, if any.
    buttons: Option<super::buttons::ButtonsHandle>,
    tap_tx: Sender<HallTap>,
    thread: Option<JoinHandle<()>>,
    workers: Vec<WorkerHandle>,
    epoch: Instant,
    folder: MatchFolder,
    header: JournalHeader,
}

impl Session {
    /// Starts a new match in `dir`: its folder is created (journal with header, capture,
    /// alert log, `boards.ron`, `match.bpgn`), then the boards are connected.
    pub fn start(
        header: JournalHeader,
        boards: &[BoardPlan],
        dir: &Path,
        registry: Option<std::path::PathBuf>,
        waker: Waker,
    ) -> anyhow::Result<Session> {
        let mut header = header;
        header.capture = Some(super::folder::CAPTURE.to_owned());
        let station = station_of(boards);
        let (folder, writers) = MatchFolder::create(dir, &header, station.as_ref())?;
        let mut runner = MatchRunner::new(header.clone());
        runner.attach(LiveFiles {
            folder: folder.clone(),
            journal: writers.journal,
            alerts: writers.alerts,
        });
        Self::launch(
            runner,
            writers.capture,
            boards,
            registry,
            waker,
            Instant::now(),
        )
    }

    /// Resumes the unfinished match in `dir`: the journal is replayed through the runner (a
    /// torn last record is cut off), then the match goes on live, appending to the same
    /// files; match time carries on from the journal's last input.
    pub fn resume(
        dir: &Path,
        boards: &[BoardPlan],
        registry: Option<std::path::PathBuf>,
        waker: Waker,
    ) -> anyhow::Result<Session> {
        let folder = MatchFolder::at(dir);
        let journal = folder.path(super::folder::JOURNAL);
        let text = std::fs::read_to_string(&journal)
            .with_context(|| format!("reading {}", journal.display()))?;
        let recording = Recording::from_journal(&text)
            .map_err(|e| anyhow::anyhow!("{}:{e}", journal.display()))?;
        let torn_tail = matches!(recording.source, Source::Journal { torn_tail: true });
        let mut runner = MatchRunner::new(recording.header.clone());
        let mut raised = Vec::new();
        runner.replay(&recording.inputs, |_, out| {
            raised.extend(out.iter().filter_map(|o| match o {
                Output::AlertRaised(a) => Some(a.clone()),
                _ => None,
            }));
        });
        let writers = folder.reopen(torn_tail, &raised)?;
        runner.attach(LiveFiles {
            folder,
            journal: writers.journal,
            alerts: writers.alerts,
        });
        let epoch = Instant::now()
            .checked_sub(Duration::from_millis(runner.last_t_ms() + 1))
            .unwrap_or_else(Instant::now);
        Self::launch(runner, writers.capture, boards, registry, waker, epoch)
    }

    fn launch(
        runner: MatchRunner,
        capture: CaptureWriter,
        boards: &[BoardPlan],
        registry: Option<std::path::PathBuf>,
        waker: Waker,
        epoch: Instant,
    ) -> anyhow::Result<Session> {
        let folder = runner
            .folder()
            .cloned()
            .context("a live match needs its folder")?;
        let header = runner.header().clone();
        let shared = Arc::new(Shared {
            views: Mutex::new(Views::new(runner.arbiter().view())),
            bpgn: Mutex::new(Arc::from(runner.bpgn())),
            stop: AtomicBool::new(false),
            close: AtomicBool::new(false),
            problem: Mutex::new(None),
        });
        let capture = CaptureSink::new(capture);
        let (dev_tx, dev_rx) = bounded::<BoardEvent>(1024);
        let (td_tx, td_rx) = bounded::<TdAction>(64);
        let (in_tx, in_rx) = bounded::<Input>(256);
        let (tap_tx, tap_rx) = bounded::<HallTap>(8);
        let mut workers = Vec::new();
        let mut orders: ByBoard<Option<Sender<ClockOrder>>> = ByBoard::default();
        for plan in boards {
            let cfg = WorkerConfig {
                board: plan.board,
                port: plan.port.clone(),
                profile: plan.profile.clone(),
                registry_dir: registry.clone(),
            };
            let w = waker.clone();
            let worker = spawn_board_worker(
                cfg,
                epoch,
                dev_tx.clone(),
                Arc::new(move || w()),
                Some(capture.clone()),
            );
            orders[plan.board] = Some(worker.clock_orders());
            workers.push(worker);
        }
        drop(dev_tx);
        let thread_shared = shared.clone();
        let thread = std::thread::Builder::new()
            .name("arbiter".into())
            .spawn(move || {
                let channels = Channels {
                    dev_rx,
                    td_rx,
                    in_rx,
                    orders,
                    taps: tap_rx,
                };
                arbiter_loop(runner, &channels, &thread_shared, &waker, epoch);
            })
            .context("starting the arbiter thread")?;
        Ok(Session {
            shared,
            td_tx,
            in_tx,
            buttons: None,
            tap_tx,
            thread: Some(thread),
            workers,
            epoch,
            folder,
            header,
        })
    }

    /// The view of the match now.
    #[must_use]
    pub fn view(&self) -> Arc<MatchView> {
        self.shared
            .views
            .lock()
            .map_or_else(|p| p.into_inner().latest(), |v| v.latest())
    }

    /// What the hall may see, `delay_ms` behind live (the broadcast delay).
    #[must_use]
    pub fn hall_view(&self, delay_ms: Millis) -> Arc<SpectatorView> {
        let now = self.now_ms();
        self.shared.views.lock().map_or_else(
            |p| p.into_inner().for_hall(now, delay_ms),
            |v| v.for_hall(now, delay_ms),
        )
    }

    /// A TD decision; it is journaled and applied on the arbiter thread.
    pub fn td(&self, action: TdAction) {
        if self
            .td_tx
            .send_timeout(action, Duration::from_secs(1))
            .is_err()
        {
            set_problem(
                &self.shared,
                "the arbiter did not take the TD action (stopped?)",
            );
        }
    }

    /// A clock press on Tandem's own clock now (a key in the window).
    pub fn press(&self, seat: Seat) {
        let input = Input::Press {
            t_ms: self.now_ms(),
            seat,
        };
        if self
            .in_tx
            .send_timeout(input, Duration::from_secs(1))
            .is_err()
        {
            set_problem(
                &self.shared,
                "the arbiter did not take the clock press (stopped?)",
            );
        }
    }

    /// `tap` is told every view the hall may see from now on, on the arbiter thread, after
    /// the views kept for the broadcast delay (oldest first). It must not block; the web
    /// server's tap sends each view down a channel, so a slow web client can never hold
    /// up the arbiter.
    pub fn tap_hall(&self, tap: HallTap) {
        if self
            .tap_tx
            .send_timeout(tap, Duration::from_secs(1))
            .is_err()
        {
            set_problem(
                &self.shared,
                "the arbiter did not take the hall's feed (stopped?)",
            );
        }
    }

    /// Reads the clock buttons of a buttons file (each device on its own thread, grabbed
    /// for Tandem alone, found again after an unplug); their presses go to the arbiter
    /// with the device's own times.
    pub fn attach_buttons(&mut self, file: &crate::buttons::ButtonsFile) {
        let epoch = SystemTime::now()
            .checked_sub(Duration::from_millis(self.now_ms()))
            .unwrap_or_else(SystemTime::now);
        self.buttons = Some(super::buttons::ButtonsHandle::spawn(
            file,
            epoch,
            self.in_tx.clone(),
        ));
    }

    /// The instant of match time 0 (match time is ms since then).
    #[must_use]
    pub fn epoch(&self) -> Instant {
        self.epoch
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

    /// The match's folder.
    #[must_use]
    pub fn folder(&self) -> &MatchFolder {
        &self.folder
    }

    /// The folder holding this match's files.
    #[must_use]
    pub fn dir(&self) -> &Path {
        self.folder.dir()
    }

    #[must_use]
    pub fn header(&self) -> &JournalHeader {
        &self.header
    }

    /// The match's BPGN as it stands (the text of `match.bpgn`).
    #[must_use]
    pub fn bpgn(&self) -> Arc<str> {
        self.shared
            .bpgn
            .lock()
            .map_or_else(|p| p.into_inner().clone(), |b| b.clone())
    }

    /// The match replayed from its own journal, through the same loader and runner as a
    /// resume (what a restart would see).
    #[must_use]
    pub fn replayed(&self) -> Option<crate::arbiter::Arbiter> {
        let text = std::fs::read_to_string(self.folder.path(super::folder::JOURNAL)).ok()?;
        let recording = Recording::from_journal(&text).ok()?;
        let mut runner = MatchRunner::new(recording.header);
        runner.replay(&recording.inputs, |_, _| {});
        Some(runner.into_arbiter())
    }

    /// A one-line description of the match, as the resume offer shows it.
    #[must_use]
    pub fn summary(&self) -> String {
        unfinished_summary(self.folder.dir())
    }

    /// Stops the workers and the arbiter thread; `close` marks the match finished (a
    /// closed match is not offered for resuming). `match.bpgn` is left as `tandem replay`
    /// of the journal writes it.
    pub fn stop(mut self, close: bool) {
        self.shutdown(close);
    }

    fn shutdown(&mut self, close: bool) {
        if let Some(b) = self.buttons.take() {
            b.stop();
        }
        for w in self.workers.drain(..) {
            w.join();
        }
        self.shared.close.store(close, Ordering::SeqCst);
        self.shared.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // Dropped without `stop`: leave the match resumable.
        self.shutdown(false);
    }
}

fn set_problem(shared: &Shared, text: &str) {
    if let Ok(mut p) = shared.problem.lock() {
        *p = Some(text.to_owned());
    }
}

/// What the arbiter thread listens to, and where clock commands go.
struct Channels {
    dev_rx: Receiver<BoardEvent>,
    td_rx: Receiver<TdAction>,
    in_rx: Receiver<Input>,
    orders: ByBoard<Option<Sender<ClockOrder>>>,
    /// New followers of the hall's views (the web server).
    taps: Receiver<HallTap>,
}

fn arbiter_loop(
    mut runner: MatchRunner,
    ch: &Channels,
    shared: &Shared,
    waker: &Waker,
    epoch: Instant,
) {
    let now_ms = || u64::try_from(epoch.elapsed().as_millis()).unwrap_or(u64::MAX);
    let mut dev_rx = ch.dev_rx.clone();
    let mut in_rx = ch.in_rx.clone();
    let mut bpgn_seen = runner.bpgn_revision();
    let mut hall_latest = shared.views.lock().ok().and_then(|v| v.hall_latest());
    let mut taps: Vec<HallTap> = Vec::new();
    // A new follower of the hall gets the views kept for the delay first.
    let add_tap = |tap: HallTap, taps: &mut Vec<HallTap>| {
        let history = shared
            .views
            .lock()
            .map(|v| v.hall_history())
            .unwrap_or_default();
        for v in &history {
            tap(v);
        }
        taps.push(tap);
    };
    while !shared.stop.load(Ordering::SeqCst) {
        let timeout = runner
            .arbiter()
            .next_deadline()
            .map_or(250, |d| d.saturating_sub(now_ms()))
            .clamp(1, 250);
        let input = select! {
            recv(dev_rx) -> ev => match ev {
                Ok(ev) => Some(Input::Board(ev)),
                Err(_) => { dev_rx = crossbeam_channel::never(); None }
            },
            recv(in_rx) -> i => match i {
                Ok(i) => Some(i),
                Err(_) => { in_rx = crossbeam_channel::never(); None }
            },
            recv(ch.td_rx) -> a => a.ok().map(|action| Input::Td { t_ms: now_ms(), action }),
            recv(ch.taps) -> t => {
                if let Ok(t) = t {
                    add_tap(t, &mut taps);
                }
                None
            },
            default(Duration::from_millis(timeout)) => None,
        };
        let input = match input {
            Some(i) => i,
            None => match runner.arbiter().next_deadline() {
                Some(d) if d <= now_ms() => Input::Tick { t_ms: now_ms() },
                _ => continue,
            },
        };
        let outputs = runner.apply(&input);
        send_clock_orders(&outputs, &ch.orders, shared);
        if let Some(p) = runner.problem() {
            set_problem(shared, p);
        }
        if runner.bpgn_revision() != bpgn_seen {
            bpgn_seen = runner.bpgn_revision();
            let text: Arc<str> = Arc::from(runner.bpgn());
            if let Ok(mut b) = shared.bpgn.lock() {
                *b = text;
            }
        }
        let changed = !outputs.is_empty() || !matches!(input, Input::Tick { .. });
        if changed {
            // Built before the lock is taken: the screens never wait on the arbiter.
            let view = runner.arbiter().view();
            let hall = SpectatorView::of(&view, hall_latest.as_deref());
            let mut hall_changed = false;
            if let Ok(mut v) = shared.views.lock() {
                hall_changed = v.push(view, hall);
                hall_latest = v.hall_latest();
            }
            waker();
            // Outside the lock; each tap only sends down a channel.
            if hall_changed && let Some(h) = &hall_latest {
                for tap in &taps {
                    tap(h);
                }
            }
        }
    }
    runner.close(shared.close.load(Ordering::SeqCst));
}

/// The arbiter's clock commands go to their boards' workers at once (both boards' start
/// commands in the same moment). A board without a worker never answers: the arbiter
/// is told so like any unanswered command.
fn send_clock_orders(
    outputs: &[Output],
    orders: &ByBoard<Option<Sender<ClockOrder>>>,
    shared: &Shared,
) {
    for o in outputs {
        if let Output::Clock(order) = o {
            let sent = orders[order.board]
                .as_ref()
                .is_some_and(|tx| tx.try_send((order.id, order.command.clone())).is_ok());
            if !sent {
                set_problem(
                    shared,
                    &format!(
                        "a command for board {}'s clock could not be handed to its worker",
                        order.board
                    ),
                );
            }
        }
    }
}
