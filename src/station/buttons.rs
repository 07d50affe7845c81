//! The clock buttons' reading threads: one per device of the buttons file. Each opens and
//! grabs its device, turns its events into presses at their own time and hands them to
//! the arbiter thread; an unplugged device is reported (loud on the console) and looked
//! for again every second.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crossbeam_channel::Sender;

use crate::Millis;
use crate::arbiter::Input;
use crate::buttons::{ButtonDevice, ButtonPress, ButtonsFile, EventReader, PressMap, Read1};

/// How often an absent device is looked for.
const RETRY: Duration = Duration::from_secs(1);

/// A press stamped this far from the moment it is read is taken at the moment it is read
/// (the real-time clock jumped, or the events were stamped on another clock).
const STAMP_TRUST_MS: Millis = 5000;

/// The running reading threads.
pub struct ButtonsHandle {
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

impl ButtonsHandle {
    /// One thread per device; `epoch` is match time 0 on the real-time clock.
    #[must_use]
    pub fn spawn(
        file: &ButtonsFile,
        epoch: SystemTime,
        to_arbiter: Sender<Input>,
    ) -> ButtonsHandle {
        let stop = Arc::new(AtomicBool::new(false));
        let epoch_ms = epoch
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(0));
        let threads = file
            .devices
            .iter()
            .filter_map(|device| {
                let device = device.clone();
                let stop = stop.clone();
                let tx = to_arbiter.clone();
                std::thread::Builder::new()
                    .name("clock-buttons".into())
                    .spawn(move || watch(&device, epoch_ms, &tx, &stop))
                    .ok()
            })
            .collect();
        ButtonsHandle { stop, threads }
    }

    /// Stops the threads (each within a poll of its device) and waits for them.
    pub fn stop(self) {
        self.stop.store(true, Ordering::SeqCst);
        for t in self.threads {
            let _ = t.join();
        }
    }
}

fn unix_ms_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(0))
}

/// Reads whatever `reader` has and hands each press to `emit`. `Ok(false)` when the
/// stream ended (the device was unplugged), `Ok(true)` when it may have more.
pub fn pump<R: std::io::Read>(
    reader: &mut EventReader<R>,
    map: &mut PressMap,
    mut emit: impl FnMut(ButtonPress),
) -> Result<bool, String> {
    match reader.read().map_err(|e| e.to_string())? {
        Read1::Events(events) => {
            for e in &events {
                if let Some(p) = map.press(e) {
                    emit(p);
                }
            }
            Ok(true)
        }
        Read1::Nothing => Ok(true),
        Read1::End => Ok(false),
    }
}

fn report(tx: &Sender<Input>, epoch_ms: u64, connected: bool, detail: String) -> bool {
    tx.send(Input::Buttons {
        t_ms: unix_ms_now().saturating_sub(epoch_ms),
        connected,
        detail,
    })
    .is_ok()
}

/// One device, for as long as the station runs.
fn watch(device: &ButtonDevice, epoch_ms: u64, tx: &Sender<Input>, stop: &AtomicBool) {
    let mut reported_absent: Option<String> = None;
    while !stop.load(Ordering::SeqCst) {
        match open(&device.path) {
            Ok(grabbed) => {
                let name = format!("{} on {}", grabbed.name, device.path);
                if !report(tx, epoch_ms, true, name) {
                    return;
                }
                // The grab ends when `grabbed` goes, after the last read.
                let why = read_presses(&grabbed.file, device, epoch_ms, tx, stop);
                drop(grabbed);
                match why {
                    None => return,
                    Some(why) => {
                        if !report(tx, epoch_ms, false, format!("{}: {why}", device.path)) {
                            return;
                        }
                        reported_absent = Some(why);
                    }
                }
            }
            Err(e) => {
                let why = format!("{}: {e}", device.path);
                if reported_absent.as_deref() != Some(why.as_str()) {
                    if !report(tx, epoch_ms, false, why.clone()) {
                        return;
                    }
                    reported_absent = Some(why);
                }
            }
        }
        let until = std::time::Instant::now() + RETRY;
        while !stop.load(Ordering::SeqCst) && std::time::Instant::now() < until {
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// Reads presses until the device goes (the reason) or the station stops (`None`).
fn read_presses(
    file: &std::fs::File,
    device: &ButtonDevice,
    epoch_ms: u64,
    tx: &Sender<Input>,
    stop: &AtomicBool,
) -> Option<String> {
    let mut reader = EventReader::new(file);
    let mut map = PressMap::new(device, epoch_ms);
    while !stop.load(Ordering::SeqCst) {
        let mut gone = false;
        let mut sent = true;
        let result = pump(&mut reader, &mut map, |p| {
            let now = unix_ms_now().saturating_sub(epoch_ms);
            // The press's own time, unless the stamp cannot be right.
            let t_ms = if p.t_ms.abs_diff(now) > STAMP_TRUST_MS {
                now
            } else {
                p.t_ms
            };
            sent &= tx.send(Input::Press { t_ms, seat: p.seat }).is_ok();
        });
        if !sent {
            return None;
        }
        match result {
            Ok(true) => {}
            Ok(false) => gone = true,
            Err(e) => return Some(e),
        }
        if gone {
            return Some("unplugged".into());
        }
        // The device is non-blocking: wait a little between empty reads (a press's time
        // is its own stamp, so this adds nothing to it).
        std::thread::sleep(Duration::from_millis(5));
    }
    None
}

#[cfg(target_os = "linux")]
fn open(path: &str) -> std::io::Result<crate::buttons::device::Grabbed> {
    crate::buttons::device::open_grabbed(path)
}

#[cfg(not(target_os = "linux"))]
struct Unsupported {
    file: std::fs::File,
    name: String,
}

#[cfg(not(target_os = "linux"))]
fn open(_path: &str) -> std::io::Result<Unsupported> {
    Err(std::io::Error::other(
        "clock buttons need Linux input devices",
    ))
}
