//! The simulator: everything that stands in for the hall when there is no hall. A pure,
//! seeded board emulator (scan order, late and bunched clock messages, lying pawns), a
//! simulated board behind the real link code in simulated time, a real-time virtual board
//! on a pseudo-terminal, the players' hands, the table that runs them, and the test TD.
//! Used by the demo, `tandem emulate`, `tandem bench` and the tests; the production path
//! never needs it.

pub mod board;
pub mod emulator;
pub mod performer;
pub mod table;
pub mod td;
pub mod virtual_board;

pub use board::{SimBoard, SimOutput};
pub use emulator::{
    BoardEmulator, BoardMode, ClockConfig, ClockFault, ClockModel, EmulatorConfig, PhysicalAction,
    PhysicalPiece,
};
pub use virtual_board::{VirtualBoard, VirtualBoardHandle};
