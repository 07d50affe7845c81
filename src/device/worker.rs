//! One thread per board: owns its serial port, runs the [`LinkSession`], records raw bytes,
//! reports [`BoardEvent`]s, sends the clock commands it is given (one at a time, waiting
//! for each ack), and finds the board again after an unplug.
//!
//! A second thread per open port only reads: the worker waits on the bytes it reads and
//! on clock commands at once, so a command leaves the moment it is given (the two
//! boards' start commands leave together) instead of after a read timeout.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, bounded, select};
use serialport::SerialPort;

use crate::{BoardId, Millis};

use super::capture::CaptureSink;
use super::link::{Identity, LinkConfig, LinkOutput, LinkSession};
use super::port::{self, DeviceError};
use super::profile::{DeviceProfile, PortSpec};
use super::registry;
use crate::arbiter::{BoardEvent, BoardEventKind, ClockOutcome};
use crate::dgt::ClockCommand;

/// A clock command for the board: its id (named again in the outcome) and the command.
pub type ClockOrder = (u64, ClockCommand);

#[derive(Clone, Debug)]
pub struct WorkerConfig {
    pub board: BoardId,
    pub port: PortSpec,
    pub profile: DeviceProfile,
    /// Virtual-board registry to search for `PortSpec::Serial` (default: [`registry::default_dir`]).
    pub registry_dir: Option<PathBuf>,
}

impl WorkerConfig {
    #[must_use]
    pub fn new(board: BoardId, port: PortSpec, profile: DeviceProfile) -> Self {
        WorkerConfig {
            board,
            port,
            profile,
            registry_dir: None,
        }
    }
}

/// The running worker.
#[derive(Debug)]
pub struct WorkerHandle {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    orders: Sender<ClockOrder>,
}

impl WorkerHandle {
    /// Where clock commands for this board go; what becomes of each comes back as a
    /// `ClockCommand` event.
    #[must_use]
    pub fn clock_orders(&self) -> Sender<ClockOrder> {
        self.orders.clone()
    }

    /// Asks the worker to stop (it closes its port within about one read timeout).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Stops the worker and waits for it.
    pub fn join(mut self) {
        self.stop();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Starts the worker thread `board-A` / `board-B`. Events go over the bounded channel with
/// a blocking send (none is ever dropped); `waker` is called after each batch; raw bytes go
/// to `capture` before they are decoded.
pub fn spawn_board_worker(
    cfg: WorkerConfig,
    epoch: Instant,
    events: Sender<BoardEvent>,
    waker: Arc<dyn Fn() + Send + Sync>,
    capture: Option<CaptureSink>,
) -> WorkerHandle {
    let stop = Arc::new(AtomicBool::new(false));
    let board = cfg.board;
    let fallback = events.clone();
    let (orders_tx, orders) = bounded::<ClockOrder>(64);
    let mut worker = Worker {
        registry_dir: cfg
            .registry_dir
            .clone()
            .unwrap_or_else(registry::default_dir),
        expected: match &cfg.port {
            PortSpec::Serial(s) => Some(Identity::from_serial(s)),
            PortSpec::Path(_) => None,
        },
        cfg,
        epoch,
        events,
        waker,
        capture,
        stop: stop.clone(),
        last_reported: None,
        orders,
    };
    let thread = std::thread::Builder::new()
        .name(format!("board-{board}"))
        .spawn(move || worker.run());
    let thread = match thread {
        Ok(t) => Some(t),
        Err(e) => {
            let _ = fallback.send(BoardEvent {
                board,
                t_ms: ms_since(epoch),
                kind: BoardEventKind::Disconnected {
                    reason: format!("cannot start the worker thread: {e}"),
                },
            });
            None
        }
    };
    WorkerHandle {
        stop,
        thread,
        orders: orders_tx,
    }
}

fn ms_since(epoch: Instant) -> Millis {
    u64::try_from(epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
}

struct Worker {
    cfg: WorkerConfig,
    registry_dir: PathBuf,
    /// The board this worker accepts: from the station file, or the first one it saw.
    expected: Option<Identity>,
    epoch: Instant,
    events: Sender<BoardEvent>,
    waker: Arc<dyn Fn() + Send + Sync>,
    capture: Option<CaptureSink>,
    stop: Arc<AtomicBool>,
    /// The last "not connected" reason told to the core, so that it is not repeated.
    last_reported: Option<String>,
    orders: Receiver<ClockOrder>,
}

/// What the reading thread saw.
enum Read {
    Bytes(Millis, Vec<u8>),
    /// The port ended: the reason.
    Ended(String),
}

enum SessionEnd {
    Stopped,
    /// The receiver is gone: nobody listens any more.
    Abandoned,
    Lost,
}

impl Worker {
    fn now(&self) -> Millis {
        ms_since(self.epoch)
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    /// Sends events (blocking); false if nobody listens any more.
    fn emit(&mut self, events: Vec<BoardEvent>) -> bool {
        if events.is_empty() {
            return true;
        }
        for e in events {
            match &e.kind {
                BoardEventKind::Connected { .. } => self.last_reported = None,
                BoardEventKind::Disconnected { reason } => {
                    self.last_reported = Some(reason.clone())
                }
                BoardEventKind::Message(_) | BoardEventKind::ClockCommand { .. } => {}
            }
            if self.events.send(e).is_err() {
                return false;
            }
        }
        (self.waker)();
        true
    }

    /// Tells the core why the board is not there, once per distinct reason.
    fn report(&mut self, reason: String) -> bool {
        if self.last_reported.as_deref() == Some(reason.as_str()) {
            return true;
        }
        let e = BoardEvent {
            board: self.cfg.board,
            t_ms: self.now(),
            kind: BoardEventKind::Disconnected { reason },
        };
        self.emit(vec![e])
    }

    fn run(&mut self) {
        while !self.stopped() {
            match self.open() {
                Ok((port, path)) => match self.session(port, path) {
                    SessionEnd::Stopped | SessionEnd::Abandoned => return,
                    SessionEnd::Lost => {}
                },
                Err(e) => {
                    if !self.report(e.to_string()) {
                        return;
                    }
                }
            }
            self.sleep(self.cfg.profile.reconnect_poll_ms);
        }
    }

    fn sleep(&mut self, ms: u64) {
        let until = Instant::now() + Duration::from_millis(ms);
        while !self.stopped() && Instant::now() < until {
            if let Ok(order) = self.orders.recv_timeout(Duration::from_millis(20)) {
                self.unanswered(order);
            }
        }
    }

    /// A clock command while no board is connected: it cannot be sent.
    fn unanswered(&mut self, (id, _): ClockOrder) {
        let e = BoardEvent {
            board: self.cfg.board,
            t_ms: self.now(),
            kind: BoardEventKind::ClockCommand {
                id,
                outcome: ClockOutcome::Unanswered {
                    reason: "the board is not connected".into(),
                },
            },
        };
        self.emit(vec![e]);
    }

    fn open(&self) -> Result<(Box<dyn SerialPort>, String), DeviceError> {
        match &self.cfg.port {
            PortSpec::Path(p) => Ok((port::open_port(p, &self.cfg.profile)?, p.clone())),
            PortSpec::Serial(s) => port::find_by_serial(s, &self.cfg.profile, &self.registry_dir),
        }
    }

    fn apply(&mut self, port: &mut dyn SerialPort, out: LinkOutput) -> Result<bool, String> {
        if !out.write.is_empty() {
            port.write_all(&out.write)
                .and_then(|()| port.flush())
                .map_err(|e| format!("write error: {e}"))?;
        }
        Ok(self.emit(out.events))
    }

    fn session(&mut self, mut port: Box<dyn SerialPort>, path: String) -> SessionEnd {
        let link_cfg = LinkConfig::from(&self.cfg.profile);
        let mut link = LinkSession::new(self.cfg.board, link_cfg, path, self.expected.clone());
        let reader = match Reader::start(port.as_ref(), self.epoch, self.cfg.board) {
            Ok(r) => r,
            Err(e) => {
                drop(port);
                return self.lost(LinkOutput::default(), format!("cannot read the port: {e}"));
            }
        };
        let mut out = link.start(self.now());
        let idle = Duration::from_millis(self.cfg.profile.read_timeout_ms.max(1));
        let mut orders = self.orders.clone();
        loop {
            if let Some(reason) = link.lost_reason() {
                // Close the port before telling anyone: while it is open the kernel may
                // give a replugged device another name.
                let reason = reason.to_string();
                reader.stop();
                drop(port);
                return self.lost(out, reason);
            }
            match self.apply(port.as_mut(), std::mem::take(&mut out)) {
                Ok(true) => {}
                Ok(false) => return SessionEnd::Abandoned,
                Err(reason) => {
                    out = link.lose(self.now(), &reason);
                    continue;
                }
            }
            if link.is_connected() && self.expected.is_none() {
                // From now on only this board is accepted here.
                self.expected = Some(link.identity().clone());
            }
            if self.stopped() {
                reader.stop();
                return SessionEnd::Stopped;
            }
            out = select! {
                recv(reader.rx) -> r => match r {
                    Ok(Read::Bytes(t, bytes)) => {
                        if let Some(c) = &self.capture {
                            // A full disk must not stop the match: the capture is a record.
                            let _ = c.record(t, self.cfg.board, &bytes);
                        }
                        link.receive(t, &bytes)
                    }
                    Ok(Read::Ended(reason)) => link.lose(self.now(), &reason),
                    Err(_) => link.lose(self.now(), "the port reader stopped"),
                },
                recv(orders) -> o => match o {
                    Ok((id, command)) => link.clock_command(self.now(), id, command),
                    Err(_) => {
                        // Nobody gives commands any more.
                        orders = crossbeam_channel::never();
                        LinkOutput::default()
                    }
                },
                default(idle) => LinkOutput::default(),
            };
            let tick = link.tick(self.now());
            out.write.extend(tick.write);
            out.events.extend(tick.events);
        }
    }

    /// After the port is closed: passes on the session's last events (with its
    /// `Disconnected` if it had connected), or reports why it never connected.
    fn lost(&mut self, out: LinkOutput, reason: String) -> SessionEnd {
        let was_connected = out
            .events
            .iter()
            .any(|e| matches!(e.kind, BoardEventKind::Disconnected { .. }));
        if !self.emit(out.events) {
            return SessionEnd::Abandoned;
        }
        if !was_connected && !self.report(reason) {
            return SessionEnd::Abandoned;
        }
        SessionEnd::Lost
    }
}

/// The thread that reads one open port, timestamping each read as it returns.
struct Reader {
    rx: Receiver<Read>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Reader {
    fn start(port: &dyn SerialPort, epoch: Instant, board: BoardId) -> std::io::Result<Reader> {
        let mut port = port.try_clone().map_err(std::io::Error::from)?;
        let (tx, rx) = bounded::<Read>(256);
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::Builder::new()
            .name(format!("board-{board}-read"))
            .spawn(move || {
                let mut buf = vec![0u8; 4096];
                while !flag.load(Ordering::SeqCst) {
                    let read = match port.read(&mut buf) {
                        Ok(0) => Read::Ended("port closed (board unplugged?)".into()),
                        Ok(n) => {
                            Read::Bytes(ms_since(epoch), buf.get(..n).unwrap_or_default().to_vec())
                        }
                        Err(e)
                            if matches!(
                                e.kind(),
                                std::io::ErrorKind::TimedOut
                                    | std::io::ErrorKind::WouldBlock
                                    | std::io::ErrorKind::Interrupted
                            ) =>
                        {
                            continue;
                        }
                        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                            Read::Ended("board unplugged (hang-up)".into())
                        }
                        Err(e) => Read::Ended(format!("read error: {e}")),
                    };
                    let ended = matches!(read, Read::Ended(_));
                    if tx.send(read).is_err() || ended {
                        return;
                    }
                }
            })?;
        Ok(Reader {
            rx,
            stop,
            thread: Some(thread),
        })
    }

    /// Stops the thread and waits for it (it closes its copy of the port within a read
    /// timeout).
    fn stop(mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // A full channel must not keep the reader waiting.
        while self.rx.try_recv().is_ok() {}
        if let Some(t) = self.thread.take() {
            while !t.is_finished() {
                while self.rx.try_recv().is_ok() {}
                std::thread::sleep(Duration::from_millis(5));
            }
            let _ = t.join();
        }
    }
}
