//! The TD console: both boards with their links, clocks, reserves and move lists; the
//! alert queue with a one-click resolution for each alert; results, penalties, players
//! and the BPGN export.
//!
//! Every decision goes to the arbiter as a [`TdAction`] through the [`MatchSource`]; the
//! console keeps no match state of its own, only what the TD is typing or choosing.
//!
//! One file a panel, each with its `show`:
//! - `banners`: full-width lines over everything: a board not connected, a problem with
//!   the journal, notices (a board back, a penalty to set on the clock).
//! - `boards`: the two boards as the players sit, each with its link line, players,
//!   reserves, clocks and the "board matches the record" line.
//! - `moves`: a board's move list, the correction or take-back of a picked move, a move
//!   the sensors missed.
//! - `alerts`: the alert queue, each alert with its resolutions; results the players
//!   show with their kings.
//! - `clocks`: start, pause and resume both clocks (always in sight, and a key), and the
//!   Clocks tab: who keeps each board's time, what the clocks answered, times to set.
//! - `result`, `penalties`, `players`, `export`: the tabs under the alert queue.
//! - `parts`: what several panels draw alike (a card, a labelled field).

mod alerts;
mod banners;
mod boards;
mod clocks;
mod export;
mod moves;
mod parts;
mod penalties;
mod players;
mod result;

use std::path::PathBuf;

use egui::{ScrollArea, Ui};

pub use self::clocks::ClockKeys;
pub use self::export::write_bpgn;
use super::pieces::PieceSet;
use super::source::MatchSource;
use super::text;
use crate::Millis;
use crate::arbiter::view::MatchView;
use crate::arbiter::{PlyRef, TdAction};
use crate::rules::Seat;

/// How long a notice (a board back, a penalty to set on the clock) stays up, match time.
const NOTICE_MS: Millis = 15_000;

/// Tabs under the alert queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Clocks,
    Result,
    Penalties,
    Players,
    Export,
}

/// A note for the TD that is not an alert of the arbiter: a board back, a clock to set.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub at_ms: Millis,
    pub text: String,
    pub good: bool,
}

/// A decision waiting for the TD's confirmation (results are not one slip away).
#[derive(Clone, Debug, PartialEq)]
pub struct Confirm {
    pub question: String,
    pub action: TdAction,
}

/// What the console asks of the app.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConsoleRequest {
    NewMatch,
    OpenReplay(PathBuf),
}

/// What the TD is doing in the console (no match state: that is the arbiter's).
pub struct Console {
    pub tab: Tab,
    /// The ply the TD picked in a move list.
    pub selected: Option<PlyRef>,
    pub correction: String,
    /// "Add a move" text per board (a move the sensors missed).
    pub add_move: [String; 2],
    pub save_as: String,
    pub export_note: Option<String>,
    pub confirm: Option<Confirm>,
    pub forfeit_why: String,
    /// Names being edited (applied with one click).
    pub names: [String; 4],
    names_from: Option<[String; 4]>,
    pub replay_path: String,
    pub notices: Vec<Notice>,
    /// The link state last seen per board, to notice changes, and when it was lost.
    links: [Option<bool>; 2],
    lost_at: [Option<Millis>; 2],
    /// Times being typed for the four clocks (by seat).
    pub set_times: [String; 4],
    /// The keys for the clocks.
    pub keys: ClockKeys,
}

impl Default for Console {
    fn default() -> Self {
        Console {
            tab: Tab::Result,
            selected: None,
            correction: String::new(),
            add_move: [String::new(), String::new()],
            save_as: String::new(),
            export_note: None,
            confirm: None,
            forfeit_why: "arrived late".to_owned(),
            names: Default::default(),
            names_from: None,
            replay_path: String::new(),
            notices: Vec::new(),
            links: [None, None],
            lost_at: [None, None],
            set_times: Default::default(),
            keys: ClockKeys::default(),
        }
    }
}

impl Console {
    /// A fresh console with these keys for the clocks.
    #[must_use]
    pub fn with_keys(keys: ClockKeys) -> Console {
        Console {
            keys,
            ..Console::default()
        }
    }

    /// Notices link changes (a loud banner for the TD) and keeps the name fields in step
    /// with the arbiter. Returns whether a board was just lost (the app asks the window
    /// system for attention).
    pub fn observe(&mut self, view: &MatchView, now: Millis) -> bool {
        let mut lost = false;
        for b in &view.boards {
            let i = b.id.index();
            let was = self.links[i];
            let is = b.link.connected;
            match (was, is) {
                // While it is away a standing banner says so (see `banners`).
                (Some(true), false) => {
                    lost = true;
                    self.lost_at[i] = Some(now);
                }
                // Back after a loss (the first connection of a match is no news).
                (Some(false), true) => {
                    if let Some(t) = self.lost_at[i].take() {
                        self.notice(
                            now,
                            format!(
                                "Board {} is back after {}",
                                b.id,
                                text::duration_words(now.saturating_sub(t))
                            ),
                            true,
                        );
                    }
                }
                _ => {}
            }
            self.links[i] = Some(is);
        }
        // Good news fades; instructions (a clock to set) stay until the TD clicks OK.
        self.notices
            .retain(|n| !n.good || now.saturating_sub(n.at_ms) < NOTICE_MS);
        if self.names_from.as_ref() != Some(&view.players) {
            self.names.clone_from(&view.players);
            self.names_from = Some(view.players.clone());
        }
        lost
    }

    fn notice(&mut self, now: Millis, text: String, good: bool) {
        self.notices.push(Notice {
            at_ms: now,
            text,
            good,
        });
    }

    /// Puts a decision before the TD for confirmation, on the Result tab where the
    /// question is shown.
    fn ask(&mut self, question: String, action: TdAction) {
        self.confirm = Some(Confirm { question, action });
        self.tab = Tab::Result;
    }
}

/// What every panel reads in a frame: the match as the arbiter sees it, where the TD's
/// decisions go, and match time.
struct Desk<'a> {
    source: &'a dyn MatchSource,
    view: &'a MatchView,
    now: Millis,
    pieces: Option<&'a PieceSet>,
}

impl Desk<'_> {
    /// The seats of the boards in this match, board A first.
    fn seats(&self) -> impl Iterator<Item = Seat> + '_ {
        Seat::ALL
            .into_iter()
            .filter(|s| self.view.board(s.board).is_some())
    }
}

/// The whole console, inside `ui` (the app puts its own top bar above).
pub fn show(
    ui: &mut Ui,
    console: &mut Console,
    source: &dyn MatchSource,
    view: &MatchView,
    pieces: Option<&PieceSet>,
) -> Vec<ConsoleRequest> {
    let desk = Desk {
        source,
        view,
        now: source.now_ms(),
        pieces,
    };
    let mut requests = Vec::new();
    clocks::keys(ui, console, &desk);
    banners::show(ui, console, &desk);
    egui::Panel::right("td-side")
        .resizable(true)
        .default_size(440.0)
        .min_size(360.0)
        .show(ui, |ui| {
            side_panel(ui, console, &desk, &mut requests);
        });
    egui::CentralPanel::default().show(ui, |ui| {
        boards::show(ui, console, &desk);
    });
    requests
}

/// The alert queue over the tabs.
fn side_panel(
    ui: &mut Ui,
    console: &mut Console,
    desk: &Desk<'_>,
    requests: &mut Vec<ConsoleRequest>,
) {
    clocks::strip(ui, console, desk);
    alerts::show(ui, console, desk);
    ui.separator();
    ui.horizontal(|ui| {
        for (tab, name) in [
            (Tab::Result, "Result"),
            (Tab::Clocks, "Clocks"),
            (Tab::Penalties, "Penalties"),
            (Tab::Players, "Players"),
            (Tab::Export, "Export"),
        ] {
            ui.selectable_value(&mut console.tab, tab, name);
        }
    });
    ui.separator();
    ScrollArea::vertical()
        .id_salt("tabs")
        .auto_shrink([false, false])
        .show(ui, |ui| match console.tab {
            Tab::Result => result::show(ui, console, desk),
            Tab::Clocks => clocks::show(ui, console, desk),
            Tab::Penalties => penalties::show(ui, console, desk),
            Tab::Players => players::show(ui, console, desk),
            Tab::Export => export::show(ui, console, desk, requests),
        });
}
