//! What the device layer tells the core.

use serde::{Deserialize, Serialize};

use crate::dgt::Message;
use crate::{BoardId, Millis};

/// One report from a board, timestamped in ms since the match epoch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceEvent {
    pub board: BoardId,
    pub t_ms: Millis,
    pub kind: DeviceEventKind,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeviceEventKind {
    /// A message from the board (link-level replies such as keep-alive serial numbers are
    /// not passed on).
    Message(Message),
    /// The board answered the start-up sequence; a fresh dump follows.
    Connected {
        port: String,
        serial: Option<String>,
        version: Option<(u8, u8)>,
    },
    /// The board was lost (unplugged, silent, wrong board) or could not be opened.
    Disconnected { reason: String },
}
