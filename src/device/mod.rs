//! Everything between the serial wire and the core: serial workers with reconnect, the link
//! protocol, device profiles and the station file, capture files, and the virtual board
//! (a pure emulator, a simulated link in simulated time, and a real-time pty driver).
//! Serial I/O appears only here.

pub mod capture;
pub mod event;
pub mod link;
pub mod performer;
pub mod profile;

pub use capture::{
    CaptureChunk, CaptureError, CaptureSink, CaptureWriter, parse_capture, read_capture,
};
pub use event::{DeviceEvent, DeviceEventKind};
pub use link::{Identity, LinkConfig, LinkOutput, LinkSession, LinkState};
pub use profile::{ConfigError, DeviceProfile, PortSpec, Station, StationBoard, UpdateMode};
pub mod emulator;
pub use emulator::{BoardEmulator, BoardMode, ClockConfig, EmulatorConfig, PhysicalAction, Token};
pub mod sim;
pub mod table;
pub use sim::{SimBoard, SimOutput};
pub mod port;
pub mod registry;
pub use port::{DeviceError, Probe};
pub mod worker;
pub use worker::{WorkerConfig, WorkerHandle, spawn_board_worker};
pub mod virtual_board;
pub use virtual_board::{VirtualBoard, VirtualBoardHandle};
