//! A real input device, grabbed (EVIOCGRAB, through the `evdev` crate) so that its key
//! presses reach Tandem alone and never type into a window. The raw `input_event` bytes
//! are then read from a duplicate of the grabbing descriptor (the grab belongs to the
//! open file both share), by the same reader the tests feed through a pipe.

use std::fs::File;
use std::os::fd::AsFd;

/// An open, grabbed device: read its events from `file`; the grab ends when it is dropped.
pub struct Grabbed {
    /// Holds the grab.
    _device: evdev::Device,
    pub file: File,
    pub name: String,
}

/// Opens `path`, grabs it and sets it non-blocking (so a reading thread can stop).
pub fn open_grabbed(path: &str) -> std::io::Result<Grabbed> {
    let mut device = evdev::Device::open(path)?;
    device.grab()?;
    device.set_nonblocking(true)?;
    let fd = device.as_fd().try_clone_to_owned()?;
    let name = device.name().unwrap_or("input device").to_owned();
    Ok(Grabbed {
        _device: device,
        file: File::from(fd),
        name,
    })
}
