//! Alerts for the TD and the alert book.
//!
//! The JSON-lines form (`{"t_ms":…, "board":"A", "kind":…, "square":"e4", "detail":"…"}`)
//! is a stable interface other tools read; see DESIGN.md "Interfaces".

use serde::{Deserialize, Serialize};
use shakmaty::{Role, Square};

use crate::rules::Seat;
use crate::{BoardId, Millis};

/// The alert vocabulary (stable: other tools match on these names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AlertKind {
    Displaced,
    Missing,
    Unexplained,
    IllegalMove,
    Promotion,
    NoMovePress,
    Flag,
    Desync,
    Disconnected,
    GameEnd,
    /// The clocks: a command a clock refused or never answered, a clock that did not take
    /// a change, play stopped with a clock's button, the clock buttons gone.
    Clock,
    /// A move the board could not show, told apart only by the players: which one was it
    /// (a pawn's step never shown landing, taken at once by a pawn: one step and a capture,
    /// or two steps and en passant; a drop taken at once: which piece was dropped)?
    UnseenMove,
}

impl AlertKind {
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            AlertKind::Displaced => "displaced",
            AlertKind::Missing => "missing",
            AlertKind::Unexplained => "unexplained",
            AlertKind::IllegalMove => "illegal_move",
            AlertKind::Promotion => "promotion",
            AlertKind::NoMovePress => "no_move_press",
            AlertKind::Flag => "flag",
            AlertKind::Desync => "desync",
            AlertKind::Disconnected => "disconnected",
            AlertKind::GameEnd => "game_end",
            AlertKind::Clock => "clock",
            AlertKind::UnseenMove => "unseen_move",
        }
    }

    /// Spectators may see this kind before the TD rules on it (rules texts: nobody but the
    /// players may point at illegal moves or fallen flags).
    #[must_use]
    pub fn is_public(self) -> bool {
        matches!(self, AlertKind::GameEnd)
    }
}

/// A ply, named in a way that survives reordering across boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlyRef {
    pub board: BoardId,
    #[serde(with = "crate::rules::text::color")]
    pub color: shakmaty::Color,
    /// Full-move number on its board.
    pub number: u32,
}

/// A move a piece that could not be seen moving may have made: from where, to where.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HiddenOption {
    #[serde(with = "crate::rules::text::square")]
    pub from: Square,
    #[serde(with = "crate::rules::text::square")]
    pub to: Square,
}

impl HiddenOption {
    /// As the TD reads it: `c3`, or `a1 to c3` where several pieces may have moved.
    #[must_use]
    pub fn text(self, with_from: bool) -> String {
        if with_from {
            format!("{} to {}", self.from, self.to)
        } else {
            self.to.to_string()
        }
    }
}

/// What an alert is about, for its one-click resolutions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Subject {
    None,
    /// A recorded ply (illegal move, promotion piece to confirm, drop not in reserve).
    Ply(PlyRef),
    /// A promoted piece that could not be seen moving: the ply recorded tentatively and
    /// the moves it could have been (several pieces may lie on their side, and two of them
    /// may reach the same square).
    HiddenMove {
        ply: PlyRef,
        options: Vec<HiddenOption>,
    },
    /// A drop taken at once, before the board saw it: the ply recorded with the likeliest
    /// kind, and the kinds in the dropper's hand that fit the board as well.
    TakenDrop {
        ply: PlyRef,
        #[serde(with = "crate::rules::text::roles")]
        kinds: Vec<Role>,
    },
    /// A move (`ply`) and its reply (`reply`) the board cannot tell from another pair
    /// that leaves every square the same (a piece moved and the reply landing where it
    /// stood, or a piece dropped and the reply taking there): each option is both plies
    /// in SAN, the recorded one first.
    Pairs {
        ply: PlyRef,
        reply: PlyRef,
        options: Vec<String>,
    },
    /// A player (flag).
    Seat(Seat),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AlertState {
    Open,
    /// Resolved by the board itself (a displaced piece put back, a board reconnected).
    Cleared {
        t_ms: Millis,
    },
    /// Resolved by the TD.
    Resolved {
        t_ms: Millis,
        how: String,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Alert {
    pub id: u64,
    pub t_ms: Millis,
    pub board: BoardId,
    pub kind: AlertKind,
    #[serde(with = "crate::rules::text::square_opt")]
    pub square: Option<Square>,
    pub detail: String,
    pub subject: Subject,
    pub state: AlertState,
}

impl Alert {
    #[must_use]
    pub fn is_open(&self) -> bool {
        matches!(self.state, AlertState::Open)
    }

    /// The stable JSON-lines form.
    #[must_use]
    pub fn json_line(&self) -> String {
        let mut obj = serde_json::Map::new();
        obj.insert("t_ms".into(), self.t_ms.into());
        obj.insert("board".into(), self.board.letter().to_string().into());
        obj.insert("kind".into(), self.kind.name().into());
        if let Some(sq) = self.square {
            obj.insert("square".into(), sq.to_string().into());
        }
        obj.insert("detail".into(), self.detail.clone().into());
        serde_json::Value::Object(obj).to_string()
    }
}

/// Every alert of the match, open or not, in the order raised.
#[derive(Clone, Debug, Default)]
pub struct AlertBook {
    alerts: Vec<Alert>,
    next_id: u64,
}

impl AlertBook {
    /// Raises an alert unless the same one (board, kind, square) is already open. Returns
    /// the new alert.
    pub fn raise(
        &mut self,
        t_ms: Millis,
        board: BoardId,
        kind: AlertKind,
        square: Option<Square>,
        detail: String,
        subject: Subject,
    ) -> Option<&Alert> {
        if self.alerts.iter().any(|a| {
            a.is_open()
                && a.board == board
                && a.kind == kind
                && a.square == square
                && a.subject == subject
        }) {
            return None;
        }
        self.next_id += 1;
        self.alerts.push(Alert {
            id: self.next_id,
            t_ms,
            board,
            kind,
            square,
            detail,
            subject,
            state: AlertState::Open,
        });
        self.alerts.last()
    }

    /// Clears open alerts of this kind on this board and square (the board resolved it).
    pub fn clear(
        &mut self,
        t_ms: Millis,
        board: BoardId,
        kind: AlertKind,
        square: Option<Square>,
    ) -> Vec<u64> {
        self.clear_where(t_ms, |a| {
            a.board == board && a.kind == kind && (square.is_none() || a.square == square)
        })
    }

    /// Clears the open alerts `which` picks (the board resolved them).
    pub fn clear_where(&mut self, t_ms: Millis, which: impl Fn(&Alert) -> bool) -> Vec<u64> {
        let mut cleared = Vec::new();
        for a in &mut self.alerts {
            if a.is_open() && which(a) {
                a.state = AlertState::Cleared { t_ms };
                cleared.push(a.id);
            }
        }
        cleared
    }

    /// Marks an alert resolved by the TD.
    pub fn resolve(&mut self, id: u64, t_ms: Millis, how: &str) -> bool {
        match self.alerts.iter_mut().find(|a| a.id == id) {
            Some(a) if a.is_open() => {
                a.state = AlertState::Resolved {
                    t_ms,
                    how: how.to_owned(),
                };
                true
            }
            _ => false,
        }
    }

    #[must_use]
    pub fn get(&self, id: u64) -> Option<&Alert> {
        self.alerts.iter().find(|a| a.id == id)
    }

    #[must_use]
    pub fn all(&self) -> &[Alert] {
        &self.alerts
    }

    pub fn open(&self) -> impl Iterator<Item = &Alert> {
        self.alerts.iter().filter(|a| a.is_open())
    }

    #[must_use]
    pub fn is_open(&self, board: BoardId, kind: AlertKind, square: Option<Square>) -> bool {
        self.alerts.iter().any(|a| {
            a.is_open()
                && a.board == board
                && a.kind == kind
                && (square.is_none() || a.square == square)
        })
    }

    /// Open alerts about a ply (e.g. after the TD corrected it).
    pub fn resolve_about_ply(&mut self, ply: PlyRef, t_ms: Millis, how: &str) -> Vec<u64> {
        let mut ids = Vec::new();
        for a in &mut self.alerts {
            let about = match &a.subject {
                Subject::Ply(p) => *p == ply,
                Subject::HiddenMove { ply: p, .. } | Subject::TakenDrop { ply: p, .. } => *p == ply,
                // A pair's question is about its reply too: a correction of it answers.
                Subject::Pairs { ply: p, reply, .. } => *p == ply || *reply == ply,
                _ => false,
            };
            if about && a.is_open() {
                a.state = AlertState::Resolved {
                    t_ms,
                    how: how.to_owned(),
                };
                ids.push(a.id);
            }
        }
        ids
    }
}
