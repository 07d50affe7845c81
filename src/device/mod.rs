//! Everything between a real serial port and the core: serial workers with reconnect, the
//! link protocol, device profiles and the station file, capture files, and the registry
//! where boards are published by serial number. Serial I/O to boards appears only here
//! (the simulator's virtual boards live in [`crate::sim`]).

pub mod capture;
pub mod link;
pub mod port;
pub mod profile;
pub mod registry;
pub mod worker;

pub use capture::{
    CaptureChunk, CaptureError, CaptureSink, CaptureWriter, parse_capture, read_capture,
};
pub use link::{Identity, LinkConfig, LinkOutput, LinkPhase, LinkSession};
pub use port::{DeviceError, Probe};
pub use profile::{ConfigError, DeviceProfile, PortSpec, Station, StationBoard, UpdateMode};
pub use worker::{WorkerConfig, WorkerHandle, spawn_board_worker};
