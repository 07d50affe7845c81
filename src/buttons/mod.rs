//! The clock buttons: Linux input devices (`/dev/input/event*`: foot switches,
//! arcade-button encoders, a spare keyboard) whose keys are the players' clock presses
//! when Tandem is the clock. Outside the pure core, beside `device`:
//! - `event`: the kernel's `input_event` records read from any `Read` (a device, or a
//!   pipe in the tests, fed the very bytes a device gives);
//! - `file`: the buttons file mapping each device's keys to seats (`devices/`);
//! - `presses`: events to presses at their own time (no releases, repeats or bounce);
//! - `device` (Linux): a device opened and grabbed for Tandem alone, so its keys never
//!   type into the console.
//!
//! The station runs one reading thread per device and finds an unplugged one again
//! (`station::buttons`).

#[cfg(target_os = "linux")]
pub mod device;
pub mod event;
pub mod file;
pub mod presses;

pub use event::{EventReader, InputEvent, Read1};
pub use file::{ButtonDevice, ButtonsFile, KeyMap, SeatName, WindowKey};
pub use presses::{ButtonPress, PressMap};
