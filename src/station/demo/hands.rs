//! The demo's boards and hands: two virtual DGT boards on pseudo-terminals, connected
//! through the real serial code, with bughouse played on them by four pairs of (virtual)
//! hands in real time: natural-looking moves, captures passed across, drops, a promotion,
//! a knocked piece put back, human-like noise. When a game ends the boards are set up
//! again.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use shakmaty::Square;

use crate::device::profile::{DeviceProfile, PortSpec};
use crate::rules::RulesPreset;
use crate::sim::emulator::{ClockConfig, EmulatorConfig, PhysicalAction, PhysicalPiece};
use crate::sim::performer::Style;
use crate::sim::table::{Chooser, Rehearsal, Table};
use crate::sim::virtual_board::{VirtualBoard, VirtualBoardHandle};
use crate::station::BoardPlan;
use crate::{BoardId, Millis};

/// How long the hands wait between two games before setting up the pieces again.
const PAUSE_BETWEEN_GAMES: Duration = Duration::from_secs(6);

/// Two virtual boards, on pseudo-terminals, as a TD would plug in two real ones.
pub struct DemoBoards {
    boards: Arc<Vec<VirtualBoardHandle>>,
}

impl DemoBoards {
    /// Starts the boards (board B turned 180° with its clock on the right, as boards are
    /// often set up) and publishes them in the registry.
    pub fn spawn(registry: Option<PathBuf>, seed: u64) -> std::io::Result<DemoBoards> {
        Self::spawn_serials(registry, seed, ["10001", "10002"])
    }

    /// [`Self::spawn`] with the boards' serial numbers (a table of an event's demo).
    pub fn spawn_serials(
        registry: Option<PathBuf>,
        seed: u64,
        serials: [&str; 2],
    ) -> std::io::Result<DemoBoards> {
        let tc = ClockConfig {
            base_ms: 5 * 60_000,
            ..ClockConfig::default()
        };
        let a = EmulatorConfig {
            serial: serials[0].into(),
            clock: Some(tc.clone()),
            ..EmulatorConfig::default()
        };
        let b = EmulatorConfig {
            serial: serials[1].into(),
            orientation: crate::dgt::Orientation::Rotated,
            clock: Some(ClockConfig {
                white_side: crate::dgt::ClockSide::Right,
                ..tc
            }),
            ..EmulatorConfig::default()
        };
        let mut boards = Vec::new();
        for (i, cfg) in [a, b].into_iter().enumerate() {
            boards.push(VirtualBoard::spawn_in(
                cfg,
                seed.wrapping_add(i as u64),
                registry.clone(),
            )?);
        }
        Ok(DemoBoards {
            boards: Arc::new(boards),
        })
    }

    /// How the station connects to them: by serial number, through the production worker,
    /// as it finds real boards, so an unplugged board is found again on its new path.
    #[must_use]
    pub fn plans(&self) -> Vec<BoardPlan> {
        let profile = DeviceProfile::built_in("virtual")
            .and_then(Result::ok)
            .unwrap_or_default();
        self.boards
            .iter()
            .zip(BoardId::BOTH)
            .map(|(h, board)| BoardPlan {
                board,
                port: PortSpec::Serial(h.serial().to_owned()),
                profile_name: "virtual".to_owned(),
                profile: profile.clone(),
            })
            .collect()
    }

    #[must_use]
    pub fn handle(&self, board: BoardId) -> Option<&VirtualBoardHandle> {
        self.boards.get(board.index())
    }

    /// Plays games on the boards until stopped, each stopped by the hands after
    /// `max_plies` plies a board (unless it ends sooner). The players set and start the
    /// clocks (Black presses).
    #[must_use]
    pub fn play(&self, rules: RulesPreset, seed: u64, max_plies: usize) -> DemoPlayer {
        self.play_with(rules, seed, max_plies, false, u64::MAX)
    }

    /// Like [`Self::play`], but the clocks are Tandem's to set up and start: the hands
    /// set the pieces up and wait until both clocks run (if they never do, after
    /// [`WAIT_FOR_START`], they set and start the clocks themselves).
    #[must_use]
    pub fn play_on_tandems_start(
        &self,
        rules: RulesPreset,
        seed: u64,
        max_plies: usize,
    ) -> DemoPlayer {
        self.play_with(rules, seed, max_plies, true, u64::MAX)
    }

    /// Like [`Self::play_on_tandems_start`], but the hands set up a game only when allowed
    /// to ([`DemoPlayer::allow_next_game`]): an event's table waits for its next pairing.
    #[must_use]
    pub fn play_on_request(&self, rules: RulesPreset, seed: u64, max_plies: usize) -> DemoPlayer {
        self.play_with(rules, seed, max_plies, true, 0)
    }

    fn play_with(
        &self,
        rules: RulesPreset,
        seed: u64,
        max_plies: usize,
        tandem_starts: bool,
        allowed: u64,
    ) -> DemoPlayer {
        let allowed = Arc::new(AtomicU64::new(allowed));
        let permits = allowed.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let games = Arc::new(AtomicU64::new(0));
        let finished = Arc::new(AtomicU64::new(0));
        let boards = self.boards.clone();
        let flag = stop.clone();
        let counter = games.clone();
        let done = finished.clone();
        let thread = std::thread::Builder::new()
            .name("demo-hands".into())
            .spawn(move || {
                let mut seed = seed;
                while !flag.load(Ordering::SeqCst) {
                    if counter.load(Ordering::SeqCst) >= permits.load(Ordering::SeqCst) {
                        sleep_unless(&flag, Duration::from_millis(50));
                        continue;
                    }
                    // Counted before the pieces are set up, so that a watcher can start
                    // a fresh match record for the new game.
                    counter.fetch_add(1, Ordering::SeqCst);
                    play_one(
                        &boards,
                        rules.clone(),
                        seed,
                        max_plies,
                        &flag,
                        tandem_starts,
                    );
                    if !flag.load(Ordering::SeqCst) {
                        done.fetch_add(1, Ordering::SeqCst);
                    }
                    seed = seed.wrapping_add(1);
                    // A pause between matches, then the pieces are set up again.
                    if permits.load(Ordering::SeqCst) == u64::MAX {
                        sleep_unless(&flag, PAUSE_BETWEEN_GAMES);
                    }
                }
            })
            .ok();
        DemoPlayer {
            stop,
            games,
            finished,
            allowed,
            thread,
        }
    }
}

/// The demo's hands at work; stops when dropped.
pub struct DemoPlayer {
    stop: Arc<AtomicBool>,
    games: Arc<AtomicU64>,
    finished: Arc<AtomicU64>,
    /// Games the hands may begin.
    allowed: Arc<AtomicU64>,
    thread: Option<JoinHandle<()>>,
}

impl DemoPlayer {
    /// How many games the hands have begun (the pieces are set up for game `n` just after
    /// this turns `n`): the app starts a new match record when it grows.
    #[must_use]
    pub fn games_started(&self) -> u64 {
        self.games.load(Ordering::SeqCst)
    }

    /// How many games the hands have finished (by a result on the board, or by stopping
    /// after the move limit; a pause follows before the next one is set up).
    #[must_use]
    pub fn games_finished(&self) -> u64 {
        self.finished.load(Ordering::SeqCst)
    }

    /// Lets hands that play on request set up and play one more game.
    pub fn allow_next_game(&self) {
        let _ = self
            .allowed
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |a| {
                Some(a.saturating_add(1))
            });
    }

    pub fn stop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for DemoPlayer {
    fn drop(&mut self) {
        self.stop();
    }
}

fn sleep_unless(stop: &AtomicBool, d: Duration) {
    let end = Instant::now() + d;
    while !stop.load(Ordering::SeqCst) && Instant::now() < end {
        std::thread::sleep(
            Duration::from_millis(50).min(end.saturating_duration_since(Instant::now())),
        );
    }
}

/// The virtual boards as a rehearsal table in real time: actions wait in a queue until
/// their time comes.
struct RealTable {
    boards: Arc<Vec<VirtualBoardHandle>>,
    queue: BinaryHeap<Reverse<(Millis, u64, usize, ActionBox)>>,
    seq: u64,
}

/// A physical action with a total order (by insertion) for the queue.
#[derive(Clone, Debug)]
struct ActionBox(PhysicalAction);

impl PartialEq for ActionBox {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl Eq for ActionBox {}
impl PartialOrd for ActionBox {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for ActionBox {
    fn cmp(&self, _: &Self) -> std::cmp::Ordering {
        std::cmp::Ordering::Equal
    }
}

impl Table for RealTable {
    fn physical(&self, id: BoardId, sq: Square) -> Option<PhysicalPiece> {
        self.boards
            .get(id.index())?
            .inspect(move |emu| emu.physical(sq))
            .flatten()
    }

    fn schedule(&mut self, id: BoardId, actions: &[(Millis, PhysicalAction)]) {
        for (t, a) in actions {
            self.seq += 1;
            self.queue
                .push(Reverse((*t, self.seq, id.index(), ActionBox(a.clone()))));
        }
    }

    fn ids(&self) -> Vec<BoardId> {
        BoardId::BOTH[..self.boards.len().min(2)].to_vec()
    }
}

/// How long the hands wait for Tandem to start the clocks before starting them as
/// players would.
pub const WAIT_FOR_START: Duration = Duration::from_secs(30);

/// Both boards' clocks run, started by the PC (set-and-run).
fn started_by_tandem(boards: &[VirtualBoardHandle]) -> bool {
    boards.iter().all(|h| {
        h.inspect(|e| e.clock_in_pc_mode() && e.clock_times().is_some_and(|t| t.running.is_some()))
            .unwrap_or(false)
    })
}

/// A clock shows that Tandem stopped play.
fn shows_paused(boards: &[VirtualBoardHandle]) -> bool {
    boards.iter().any(|h| {
        h.inspect(|e| e.clock_text().is_some_and(|t| t.trim() == "PAUSED"))
            .unwrap_or(false)
    })
}

fn play_one(
    boards: &Arc<Vec<VirtualBoardHandle>>,
    rules: RulesPreset,
    seed: u64,
    max_plies: usize,
    stop: &AtomicBool,
    tandem_starts: bool,
) {
    let start = Instant::now();
    // The game's own time: it stands still while play is stopped (below).
    let paused = std::cell::Cell::new(Duration::ZERO);
    let now = || {
        u64::try_from(start.elapsed().saturating_sub(paused.get()).as_millis()).unwrap_or(u64::MAX)
    };
    for h in boards.iter() {
        h.act(PhysicalAction::SetUpStart);
    }
    let mut players_start = !tandem_starts;
    if tandem_starts {
        // The TD starts both clocks once Tandem has set them up.
        let deadline = Instant::now() + WAIT_FOR_START;
        while !started_by_tandem(boards) {
            if stop.load(Ordering::SeqCst) {
                return;
            }
            if Instant::now() > deadline {
                players_start = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    if players_start {
        for h in boards.iter() {
            h.act(PhysicalAction::SetClock {
                white_ms: rules.time_control.base_ms,
                black_ms: rules.time_control.base_ms,
            });
        }
    }
    // Black starts White's clock (a press that changes nothing on a clock already
    // started by Tandem).
    let clock_start = if players_start { 2500 } else { now() + 100 };
    let table = RealTable {
        boards: boards.clone(),
        queue: BinaryHeap::new(),
        seq: 0,
    };
    let mut style = Style::blitz();
    // Spectators should be able to follow: a little slower than real blitz.
    style.think_ms = (700, 3500);
    let mut r = Rehearsal::at(table, rules, &style, Chooser::Natural, seed, clock_start);
    r.set_max_plies(max_plies);
    let mut knocked = false;
    loop {
        if stop.load(Ordering::SeqCst) {
            return;
        }
        // Play stopped (a clock says PAUSED): the players' hands rest until it resumes.
        if shows_paused(boards) {
            let resting = Instant::now();
            sleep_unless(stop, Duration::from_millis(50));
            paused.set(paused.get() + resting.elapsed());
            continue;
        }
        let next_action = r.table.queue.peek().map(|Reverse((t, ..))| *t);
        let next_event = r.next_time();
        let Some(next) = [next_action, next_event].into_iter().flatten().min() else {
            break;
        };
        let wait = next.saturating_sub(now());
        if wait > 0 {
            sleep_unless(stop, Duration::from_millis(wait.min(200)));
            continue;
        }
        if next_action == Some(next) {
            if let Some(Reverse((_, _, i, ActionBox(a)))) = r.table.queue.pop()
                && let Some(h) = boards.get(i)
            {
                h.act(a);
            }
        } else {
            r.advance();
            // A knocked piece: after a dozen moves on board A, while one player moves, a
            // piece of the other is knocked onto a neighbouring square; its owner puts it
            // back at the start of their next turn.
            if !knocked && r.truth.plies_on(BoardId::A) >= 12 {
                knocked = knock(&mut r, now());
            }
        }
    }
}

/// Knocks a piece of the player not on move on board A onto a neighbouring empty square,
/// away from the move being made (the TD sees `displaced`, cleared when the owner puts it
/// back on their own time). Returns whether it happened.
fn knock(r: &mut Rehearsal<RealTable>, now: Millis) -> bool {
    let Some((mover, mv)) = r.moving(BoardId::A) else {
        return false;
    };
    let busy = crate::sensing::touched(mv);
    let owner = !mover;
    let candidates: Vec<(Square, shakmaty::Piece)> = Square::ALL
        .iter()
        .filter(|s| !busy.contains(**s))
        .filter_map(|&s| match r.table.physical(BoardId::A, s) {
            Some(PhysicalPiece::Standing(p))
                if p.color == owner && p.role != shakmaty::Role::King =>
            {
                Some((s, p))
            }
            _ => None,
        })
        .collect();
    for (from, piece) in candidates.into_iter().rev() {
        let spot = shakmaty::attacks::king_attacks(from)
            .into_iter()
            .find(|&s| !busy.contains(s) && r.table.physical(BoardId::A, s).is_none());
        if let Some(to) = spot {
            r.table.schedule(
                BoardId::A,
                &[(now + 300, PhysicalAction::Knock { from, to })],
            );
            r.add_chore(
                crate::rules::Seat::new(BoardId::A, owner),
                vec![
                    PhysicalAction::Lift { square: to },
                    PhysicalAction::Place {
                        square: from,
                        piece,
                    },
                ],
            );
            return true;
        }
    }
    false
}
