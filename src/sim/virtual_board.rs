//! The virtual board in real time on a pseudo-terminal: a thread owns the emulator and the
//! master end of a pty pair; the PC side opens the slave path (`/dev/pts/N`) exactly as it
//! opens `/dev/ttyUSB0`. Each board publishes itself in the registry under its serial number.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, bounded};
use serialport::{SerialPort as _, TTYPort};

use crate::Millis;

use super::emulator::{BoardEmulator, EmulatorConfig, PhysicalAction, PhysicalPiece};
use crate::device::registry;

type Inspect = Box<dyn FnOnce(&BoardEmulator) + Send>;
type Mutate = Box<dyn FnOnce(&mut BoardEmulator) + Send>;

/// Clock commands the board received, each with the moment it arrived (for measuring
/// how far apart two boards' commands reach them).
type Received = Arc<Mutex<Vec<(Instant, crate::dgt::ClockCommand)>>>;

enum Ctl {
    Act(PhysicalAction, Sender<Option<PhysicalPiece>>),
    Inspect(Inspect),
    Mutate(Mutate),
    Unplug(Sender<()>),
    Replug(Sender<std::io::Result<String>>),
    Shutdown,
}

/// Starting virtual boards.
pub struct VirtualBoard;

impl VirtualBoard {
    /// A virtual board published in the default registry.
    pub fn spawn(cfg: EmulatorConfig, seed: u64) -> std::io::Result<VirtualBoardHandle> {
        Self::spawn_in(cfg, seed, None)
    }

    /// A virtual board published in `registry_dir` (default: [`registry::default_dir`]).
    pub fn spawn_in(
        cfg: EmulatorConfig,
        seed: u64,
        registry_dir: Option<PathBuf>,
    ) -> std::io::Result<VirtualBoardHandle> {
        let dir = registry_dir.unwrap_or_else(registry::default_dir);
        let serial = cfg.serial.clone();
        let (master, slave, path) = new_pty()?;
        registry::publish(&dir, &serial, Path::new(&path))?;
        let shared_path = Arc::new(Mutex::new(path.clone()));
        let received: Received = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = bounded(64);
        let mut driver = Driver {
            emu: BoardEmulator::new(cfg, seed),
            start: Instant::now(),
            master: Some(master),
            slave: Some(slave),
            path: shared_path.clone(),
            dir: dir.clone(),
            serial: serial.clone(),
            received: received.clone(),
        };
        let thread = std::thread::Builder::new()
            .name(format!("virtual-{serial}"))
            .spawn(move || driver.run(&rx))?;
        Ok(VirtualBoardHandle {
            ctl: tx,
            received,
            path: shared_path,
            serial,
            thread: Some(thread),
        })
    }
}

fn new_pty() -> std::io::Result<(TTYPort, TTYPort, String)> {
    let (mut master, slave) = TTYPort::pair().map_err(std::io::Error::from)?;
    let path = slave
        .name()
        .ok_or_else(|| std::io::Error::other("pty without a name"))?;
    master
        .set_timeout(Duration::from_millis(5))
        .map_err(std::io::Error::from)?;
    Ok((master, slave, path))
}

/// Controls a running virtual board. Dropping it shuts the board down.
#[derive(Debug)]
pub struct VirtualBoardHandle {
    ctl: Sender<Ctl>,
    received: Received,
    path: Arc<Mutex<String>>,
    serial: String,
    thread: Option<JoinHandle<()>>,
}

impl VirtualBoardHandle {
    /// The pseudo-terminal to open (changes on replug).
    #[must_use]
    pub fn path(&self) -> String {
        self.path
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    #[must_use]
    pub fn serial(&self) -> &str {
        &self.serial
    }

    /// Applies a physical action now; returns what left the board.
    pub fn act(&self, action: PhysicalAction) -> Option<PhysicalPiece> {
        let (tx, rx) = bounded(1);
        self.ctl.send(Ctl::Act(action, tx)).ok()?;
        rx.recv().ok().flatten()
    }

    /// Looks at the emulator (e.g. its sensed fields) from the driver thread.
    pub fn inspect<R: Send + 'static>(
        &self,
        f: impl FnOnce(&BoardEmulator) -> R + Send + 'static,
    ) -> Option<R> {
        let (tx, rx) = bounded(1);
        let job: Inspect = Box::new(move |emu| {
            let _ = tx.send(f(emu));
        });
        self.ctl.send(Ctl::Inspect(job)).ok()?;
        rx.recv().ok()
    }

    /// Changes the emulator from the driver thread (e.g. a clock fault to inject).
    pub fn with_emulator(&self, f: impl FnOnce(&mut BoardEmulator) + Send + 'static) {
        let _ = self.ctl.send(Ctl::Mutate(Box::new(f)));
    }

    /// The clock commands the board has received, with the moment each arrived.
    #[must_use]
    pub fn clock_commands_received(&self) -> Vec<(Instant, crate::dgt::ClockCommand)> {
        self.received
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Pulls the cable: the pty master is dropped (the reader sees a hang-up) and the
    /// registry entry removed.
    pub fn unplug(&self) {
        let (tx, rx) = bounded(1);
        if self.ctl.send(Ctl::Unplug(tx)).is_ok() {
            let _ = rx.recv();
        }
    }

    /// Plugs the board back in on a fresh pty (new path, same identity and pieces; the board
    /// powers up idle). Returns the new path.
    pub fn replug(&self) -> std::io::Result<String> {
        let (tx, rx) = bounded(1);
        self.ctl
            .send(Ctl::Replug(tx))
            .map_err(|_| std::io::Error::other("virtual board stopped"))?;
        rx.recv()
            .map_err(|_| std::io::Error::other("virtual board stopped"))?
    }

    /// Stops the board and removes its registry entry.
    pub fn shutdown(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        let _ = self.ctl.send(Ctl::Shutdown);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for VirtualBoardHandle {
    fn drop(&mut self) {
        self.stop();
    }
}

struct Driver {
    emu: BoardEmulator,
    start: Instant,
    master: Option<TTYPort>,
    /// Kept open so the pts stays usable while the PC side reopens it.
    slave: Option<TTYPort>,
    path: Arc<Mutex<String>>,
    dir: PathBuf,
    serial: String,
    received: Received,
}

/// The receive log keeps this many commands (the newest).
const RECEIVED_KEPT: usize = 1000;

impl Driver {
    fn now(&self) -> Millis {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn current_path(&self) -> String {
        self.path
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn unplug(&mut self) {
        let now = self.now();
        self.master = None;
        self.slave = None;
        registry::unpublish(&self.dir, &self.serial, Path::new(&self.current_path()));
        // Powerless: whatever it was sending is lost.
        self.emu.power_cycle(now);
    }

    fn replug(&mut self) -> std::io::Result<String> {
        let old = self.current_path();
        self.unplug();
        // Like a replugged USB device, come back under a new name: the kernel would
        // otherwise hand out the number just freed.
        let mut held = Vec::new();
        let (master, slave, path) = loop {
            let (m, s, p) = new_pty()?;
            if p != old || held.len() >= 4 {
                break (m, s, p);
            }
            held.push((m, s));
        };
        drop(held);
        self.emu.power_cycle(self.now());
        self.master = Some(master);
        self.slave = Some(slave);
        *self.path.lock().unwrap_or_else(PoisonError::into_inner) = path.clone();
        registry::publish(&self.dir, &self.serial, Path::new(&path))?;
        Ok(path)
    }

    /// Handles one control message; false when the board is to stop.
    fn handle(&mut self, c: Ctl) -> bool {
        match c {
            Ctl::Act(a, reply) => {
                let now = self.now();
                let _ = reply.send(self.emu.act(now, a));
            }
            Ctl::Inspect(f) => f(&self.emu),
            Ctl::Mutate(f) => f(&mut self.emu),
            Ctl::Unplug(reply) => {
                self.unplug();
                let _ = reply.send(());
            }
            Ctl::Replug(reply) => {
                let _ = reply.send(self.replug());
            }
            Ctl::Shutdown => {
                self.unplug();
                return false;
            }
        }
        true
    }

    fn run(&mut self, ctl: &Receiver<Ctl>) {
        let mut buf = [0u8; 256];
        loop {
            while let Ok(c) = ctl.try_recv() {
                if !self.handle(c) {
                    return;
                }
            }
            let now = self.now();
            self.emu.advance_to(now);
            let out = self.emu.take_output();
            let Some(master) = self.master.as_mut() else {
                // Unplugged: nothing to do but wait for the next control message.
                match ctl.recv_timeout(Duration::from_millis(20)) {
                    Ok(c) => {
                        if !self.handle(c) {
                            return;
                        }
                    }
                    Err(crossbeam_channel::RecvTimeoutError::Disconnected) => return,
                    Err(crossbeam_channel::RecvTimeoutError::Timeout) => {}
                }
                continue;
            };
            for (_, bytes) in out {
                // Nobody reading: a real UART sends into the void, so bytes that do not fit
                // are dropped rather than blocking the board.
                let _ = master.write_all(&bytes);
            }
            // Reading doubles as the pause between steps (the master's timeout is 5 ms).
            match master.read(&mut buf) {
                Ok(n) if n > 0 => {
                    let arrived = Instant::now();
                    let t = self.now();
                    let before = self.emu.clock_log().len();
                    self.emu
                        .receive_from_pc(t, buf.get(..n).unwrap_or_default());
                    let new: Vec<_> = self
                        .emu
                        .clock_log()
                        .iter()
                        .skip(before)
                        .map(|(_, c)| (arrived, c.clone()))
                        .collect();
                    if !new.is_empty() {
                        let mut log = self.received.lock().unwrap_or_else(PoisonError::into_inner);
                        log.extend(new);
                        let excess = log.len().saturating_sub(RECEIVED_KEPT);
                        log.drain(..excess);
                    }
                }
                Ok(_) | Err(_) => {
                    if ctl.is_empty() {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                }
            }
        }
    }
}
