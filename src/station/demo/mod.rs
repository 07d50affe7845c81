//! The demo: a match played game after game on two virtual boards by virtual hands, for
//! the window out of the box and for `tandem station` with no boards alike. Tandem drives
//! both boards' DGT3000s: each new match sets them up (paused, "READY"), and once both
//! are set up and the pieces stand, the demo's TD starts both together; the hands wait
//! for that. When the hands stop a game (their move limit), the demo gives it a result as
//! a TD would; when they set up the next game, a new match folder is started. Old demo
//! folders are pruned.

pub mod event;
mod hands;

pub use hands::{DemoBoards, DemoPlayer};

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context as _;

use super::{Session, Waker, folder};
use crate::Millis;
use crate::arbiter::TdAction;
use crate::arbiter::journal::JournalHeader;
use crate::arbiter::view::MatchView;
use crate::rules::{EndReason, MatchResult, Seat};

/// Demo match folders start with this (`matches/demo-20261121-143005`).
pub const FOLDER_PREFIX: &str = "demo-";

/// How many plies a board the hands play before stopping a game (it may end sooner).
pub const GAME_PLIES: usize = 60;

/// How many demo folders are kept.
const KEEP_FOLDERS: usize = 8;

/// How long after the hands stop a game the demo gives it its result: the last presses
/// are judged first (settle time plus a late clock message).
const ADJUDICATION_MS: Millis = 3000;

/// What changed when the demo was followed.
#[derive(Clone, Debug)]
pub enum DemoNews {
    /// A game ended and the next one began in a new folder; the last view of the old one.
    NextGame { finished: Arc<MatchView> },
}

/// The demo running: boards, hands and the match of the game being played.
pub struct DemoStation {
    boards: DemoBoards,
    player: DemoPlayer,
    session: Option<Session>,
    template: JournalHeader,
    root: PathBuf,
    registry: PathBuf,
    waker: Waker,
    /// Games of the hands seen begun and finished.
    seen: u64,
    finished: u64,
    /// When to give the stopped game its result.
    adjudicate_at: Option<Millis>,
    /// The clocks of this game's match were started.
    clocks_started: bool,
}

impl DemoStation {
    /// Starts the virtual boards (published in `registry`), the first match in
    /// `root/matches/demo-…` with `template`'s set-up, event and site (date, time and the
    /// boards' timing are the demo's own), and the hands, who stop each game after
    /// `game_plies` plies a board ([`GAME_PLIES`] makes a full game).
    pub fn start(
        root: &Path,
        registry: &Path,
        template: JournalHeader,
        seed: u64,
        game_plies: usize,
        waker: Waker,
    ) -> anyhow::Result<DemoStation> {
        folder::prune(root, FOLDER_PREFIX, KEEP_FOLDERS);
        let boards = DemoBoards::spawn(Some(registry.to_path_buf()), seed)
            .context("starting the demo's virtual boards")?;
        let session = Self::new_session(&boards, root, registry, &template, &waker)?;
        let player = boards.play_on_tandems_start(template.config.rules.clone(), seed, game_plies);
        Ok(DemoStation {
            boards,
            player,
            session: Some(session),
            template,
            root: root.to_path_buf(),
            registry: registry.to_path_buf(),
            waker,
            seen: 0,
            finished: 0,
            adjudicate_at: None,
            clocks_started: false,
        })
    }

    fn new_session(
        boards: &DemoBoards,
        root: &Path,
        registry: &Path,
        header: &JournalHeader,
        waker: &Waker,
    ) -> anyhow::Result<Session> {
        let plans = boards.plans();
        let mut config = header.config.clone();
        // Part of the demo: both DGT3000s driven by Tandem.
        config.clocks = crate::ByBoard {
            a: crate::arbiter::ClockPlan::Drive,
            b: crate::arbiter::ClockPlan::Drive,
        };
        let header = super::new_header(config, &header.event, &header.site, &plans);
        let dir = folder::new_match_dir(root, FOLDER_PREFIX);
        Session::start(
            header,
            &plans,
            &dir,
            Some(registry.to_path_buf()),
            waker.clone(),
        )
    }

    /// The match of the game being played.
    #[must_use]
    pub fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }

    #[must_use]
    pub fn boards(&self) -> &DemoBoards {
        &self.boards
    }

    /// When the demo next needs following (a result to give), if sooner than a frame.
    #[must_use]
    pub fn adjudication_due(&self) -> Option<Millis> {
        self.adjudicate_at
    }

    /// Follows the hands; call it a few times a second. A game the hands stopped gets its
    /// result a moment later (the player furthest behind in material resigns, or a draw
    /// is agreed); a game the hands set up starts a new match folder with the same
    /// players and event.
    pub fn follow(&mut self) -> anyhow::Result<Option<DemoNews>> {
        let Some(session) = &self.session else {
            return Ok(None);
        };
        let now = session.now_ms();
        if !self.clocks_started && ready_to_start(&session.view()) {
            // The demo's TD starts both clocks together.
            self.clocks_started = true;
            session.td(TdAction::StartClocks);
        }
        let finished = self.player.games_finished();
        if finished > self.finished {
            self.finished = finished;
            self.adjudicate_at = Some(now + ADJUDICATION_MS);
        }
        if self.adjudicate_at.is_some_and(|t| now >= t) {
            self.adjudicate_at = None;
            let view = session.view();
            if view.result.is_none() {
                session.td(TdAction::DeclareResult {
                    result: adjudication(&view),
                });
            }
        }
        let started = self.player.games_started();
        if started <= self.seen {
            return Ok(None);
        }
        let first = self.seen == 0;
        self.seen = started;
        if first {
            return Ok(None);
        }
        // The hands set up the next game: close this match and start the next record.
        let Some(old) = self.session.take() else {
            return Ok(None);
        };
        let last = old.view();
        let mut header = self.template.clone();
        header.config.players.clone_from(&last.players);
        old.stop(true);
        folder::prune(&self.root, FOLDER_PREFIX, KEEP_FOLDERS);
        let session = Self::new_session(
            &self.boards,
            &self.root,
            &self.registry,
            &header,
            &self.waker,
        )
        .context("starting the demo's next game")?;
        self.session = Some(session);
        self.clocks_started = false;
        Ok(Some(DemoNews::NextGame { finished: last }))
    }

    /// Stops the hands, the match (closed: a demo is never offered for resuming) and the
    /// boards.
    pub fn stop(mut self) {
        self.player.stop();
        if let Some(s) = self.session.take() {
            s.stop(true);
        }
    }
}

impl Drop for DemoStation {
    fn drop(&mut self) {
        self.player.stop();
        if let Some(s) = self.session.take() {
            s.stop(true);
        }
    }
}

/// Both clocks set up by Tandem (nothing on its way to them) and both boards showing the
/// start position: the TD may start the clocks.
#[must_use]
pub fn ready_to_start(view: &MatchView) -> bool {
    !view.clocks.started
        && view.result.is_none()
        && view.record.is_empty()
        && !view.clocks.boards.is_empty()
        && view
            .clocks
            .boards
            .iter()
            .all(|c| c.in_hand && c.waiting == 0 && c.note.is_some())
        && view.boards.iter().all(|b| b.started && b.link.connected)
}

/// The demo's hands stop after a number of moves: the player furthest behind in material
/// (on the board and in hand) resigns; with material level everywhere, a draw is agreed.
#[must_use]
pub fn adjudication(view: &MatchView) -> MatchResult {
    let value = |r: shakmaty::Role| match r {
        shakmaty::Role::Pawn => 1,
        shakmaty::Role::Knight | shakmaty::Role::Bishop => 3,
        shakmaty::Role::Rook => 5,
        shakmaty::Role::Queen => 9,
        shakmaty::Role::King => 0,
    };
    let mut worst: Option<(i32, Seat)> = None;
    for b in &view.boards {
        let material = |c: shakmaty::Color| -> i32 {
            let on_board: i32 = b
                .pieces
                .iter()
                .flatten()
                .filter(|p| p.piece.color == c)
                .map(|p| value(p.piece.role))
                .sum();
            let in_hand: i32 = b
                .reserve(c)
                .entries()
                .map(|(r, n)| value(r) * i32::from(n.max(0)))
                .sum();
            on_board + in_hand
        };
        let white = material(shakmaty::Color::White);
        let black = material(shakmaty::Color::Black);
        let (deficit, loser) = if white < black {
            (black - white, shakmaty::Color::White)
        } else {
            (white - black, shakmaty::Color::Black)
        };
        if deficit > 0 && worst.is_none_or(|(d, _)| deficit > d) {
            worst = Some((deficit, Seat::new(b.id, loser)));
        }
    }
    match worst {
        Some((_, seat)) => MatchResult {
            winner: Some(seat.opponent().team()),
            reason: EndReason::Resignation { seat },
            t_ms: None,
        },
        None => MatchResult {
            winner: None,
            reason: EndReason::DrawAgreed,
            t_ms: None,
        },
    }
}

/// The demo's players.
#[must_use]
pub fn names() -> [String; 4] {
    ["Ada", "Boris", "Chen", "Dana"].map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BoardId;

    use crate::rules::Team;

    fn after(moves: &[(BoardId, &str)]) -> MatchView {
        crate::arbiter::after_moves(moves).view()
    }

    #[test]
    fn the_demo_adjudicates_by_material() {
        let level = after(&[(BoardId::A, "e4"), (BoardId::A, "e5")]);
        assert_eq!(adjudication(&level).reason, EndReason::DrawAgreed);
        // A knight for nothing on board A: Black A resigns, team WhiteA wins.
        let up = after(&[
            (BoardId::A, "Nf3"),
            (BoardId::A, "e5"),
            (BoardId::A, "Nxe5"),
            (BoardId::A, "Nf6"),
            (BoardId::A, "Nxf7"),
            (BoardId::A, "Kxf7"),
        ]);
        assert_eq!(up.record.len(), 6, "{:?}", up.record);
        let r = adjudication(&up);
        assert_eq!(r.winner, Some(Team::BlackA), "{r:?}");
        assert_eq!(
            r.reason,
            EndReason::Resignation {
                seat: Seat::new(BoardId::A, shakmaty::Color::White)
            }
        );
    }
}
