//! The DGT wire protocol, pure: piece codes, the field numbering and orientation, board →
//! PC messages and their incremental decoder, PC → board commands, clock (BWTIME) decoding.
//! No I/O and no clock: bytes in, values out (reference `dgt-protocol.md` §1, §2).

pub mod clock;
pub mod command;
pub mod decoder;
pub mod fields;
pub mod hex;
pub mod message;
pub mod piece;

pub use clock::{ClockAck, ClockButton, ClockReading, ClockSide, ClockTimes};
pub use command::{ClockCommand, Command, CommandDecoder, CommandEvent};
pub use decoder::Decoder;
pub use fields::{Fields, Orientation, detect_orientation, field_to_square, square_to_field};
pub use message::{BatteryStatus, MAX_MESSAGE_LEN, Message, encode_message};
pub use piece::{PieceCode, UnknownPieceCode};
