//! What the arbiter knows of one physical board, in parts: the link (`LinkStatus`), what
//! the board shows and its recent history (`SensedBoard`), the clock and its calibration
//! (`BoardClock`), how the record's pieces may look (`Appearance`), the presses being
//! judged and what earlier ones left behind (`Presses`), and the anomaly monitor's memory
//! (`MonitorState`).

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use shakmaty::{Bitboard, Board, ByColor, Color, Square};

use crate::dgt::{
    ClockSide, ClockTimes, Fields, Orientation, PieceCode, detect_orientation, field_to_square,
};
use crate::rules::BoardState;
use crate::sensing::{
    Anomaly, CLOCK_MESSAGE_LAG_MS, Cell, Cells, Expect, Snapshot, Tokens, expected,
};
use crate::{BoardId, Millis};

/// How long the arbiter waits for what, per board (from the device profile: Bluetooth
/// boards scan at half speed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timing {
    /// The board's full scan period (USB ~250 ms, Bluetooth ~500 ms).
    #[serde(default = "default_scan_ms")]
    pub scan_ms: u64,
    /// After a press message, wait this long before judging: the press reaches the PC at
    /// least ~50 ms after the lever, a change on the board is reported within one scan, so
    /// a scan period after the message everything placed before the press has been seen.
    pub settle_ms: u64,
    /// How long an unclear press may wait for more evidence before the TD is told.
    pub max_wait_ms: u64,
    /// Without a clock: how long a position must stand still to count as a move.
    pub stable_ms: u64,
    /// A piece of the side that just moved, on the wrong square this long: `displaced`.
    pub displaced_ms: u64,
    /// A drop seen before the partner's capture that feeds it is reported: grace period.
    pub drop_grace_ms: u64,
    /// A token the board cannot name, this long: `unexplained`.
    pub unexplained_ms: u64,
}

impl Timing {
    /// Timing for a board whose full scan takes `scan_period_ms`.
    #[must_use]
    pub fn for_scan_period(scan_period_ms: u64) -> Timing {
        Timing {
            scan_ms: scan_period_ms,
            settle_ms: scan_period_ms + 50,
            max_wait_ms: 2500 + 2 * scan_period_ms,
            stable_ms: 1000 + 2 * scan_period_ms,
            displaced_ms: 1500 + 2 * scan_period_ms,
            drop_grace_ms: 2500,
            unexplained_ms: 1500 + 2 * scan_period_ms,
        }
    }
}

fn default_scan_ms() -> u64 {
    250
}

impl Default for Timing {
    fn default() -> Self {
        Timing::for_scan_period(250)
    }
}

/// The link to the board as the TD sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkStatus {
    pub connected: bool,
    pub port: Option<String>,
    pub serial: Option<String>,
    pub version: Option<(u8, u8)>,
    /// Why it was lost, while it is.
    pub lost_because: Option<String>,
    /// How many times it was lost during the match.
    pub losses: u32,
}

/// A press waiting to be judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingPress {
    pub by: Color,
    /// When the press message arrived.
    pub t_msg: Millis,
    /// The presser's clock after the move (ms), as the press message showed it.
    pub clock_ms: Option<u64>,
    /// When to judge; `None` once judged inconclusively (then every new snapshot retries).
    pub decide_at: Option<Millis>,
    /// When to stop waiting and tell the TD.
    pub give_up_at: Millis,
    /// Presses the clock did not show before this one (both players pressed between two
    /// polls of the clock): the plies since the last commit may be more than one or two.
    pub missed: u8,
    /// Judged provisionally: the opponent's reply will show which reading it is.
    pub awaits_reply: bool,
    /// Judged ambiguous, waiting for the board to say more.
    pub ambiguous: bool,
    /// The board shows the presser's pieces moved, and no reading explains them (the
    /// opponent's drop taken at once before the scan showed it): the opponent's next
    /// press, read with this one and the press before that showed nothing, may.
    pub moved_unread: bool,
    /// The opponent's next press has come: the opponent's move is that press's, so no
    /// reading of this one may take it as pressed unseen (unless the clock says so).
    pub answered: Option<Millis>,
}

/// A press that showed no move, told to the TD at `tell_at` unless a later commit on the
/// board accounts for it (a move hidden by a fast reply shows only when the reply's press
/// is judged).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnexplainedPress {
    pub by: Color,
    /// When the press message came.
    pub t_msg: Millis,
    /// The presser's clock after the move, as the press message showed it.
    pub clock_ms: Option<u64>,
    pub tell_at: Millis,
}

/// A ply recorded ahead of its own press message (a deeper reading took it at an earlier
/// press while the clock's messages came late and bunched): that press may still arrive
/// until `until`, and is then accounted for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OwedPress {
    pub color: Color,
    pub until: Millis,
}

/// A move committed without a clock, because the board stood still: a press that confirms
/// it soon after is not judged again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StableCommit {
    pub t_ms: Millis,
    pub mover: Color,
}

/// How the record's pieces may look on this board beyond their plain selves: the tokens
/// standing for promoted pieces, and extra cells tolerated on squares (a Transfer pawn
/// awaiting removal).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Appearance {
    pub tokens: Tokens,
    pub allowances: Vec<(Square, u16)>,
}

/// What was known just before the last ply committed on a board, so that the next press
/// can read that ply again in hindsight (a reply that only makes sense after another
/// reading of the move it answers).
#[derive(Clone, Debug)]
pub struct BeforeLastPly {
    pub ply: crate::arbiter::PlyRef,
    pub appearance: Appearance,
    /// The snapshots that decided it.
    pub window: Vec<Snapshot>,
    /// When its press message came (when it was committed, if no press showed it).
    pub pressed_at: crate::Millis,
}

impl BeforeLastPly {
    /// The snapshots since before the ply, through `later` (the board's history since).
    #[must_use]
    pub fn history_with(&self, later: &[Snapshot]) -> Vec<Snapshot> {
        let mut history = self.window.clone();
        let tail = history.last().map_or(0, |s| s.t_ms);
        history.extend(later.iter().filter(|s| s.t_ms > tail).copied());
        history
    }
}

/// Upper bound on snapshots kept between two commits (a long think with many adjustments
/// must not grow memory without bound; the oldest are dropped first).
const MAX_HISTORY: usize = 2048;

/// What the board shows and its recent history.
#[derive(Clone, Debug)]
pub struct SensedBoard {
    /// The last board state in the board's own numbering.
    pub raw: Fields,
    pub have_raw: bool,
    pub orientation: Option<Orientation>,
    /// The start position has been seen: moves count from here.
    pub started: bool,
    pub cells: Cells,
    /// Snapshots since the last commit, oldest first; the first is the committed base.
    pub history: Vec<Snapshot>,
    pub last_change: Millis,
    /// When each square's sensed cell last changed (a1 = 0).
    pub changed_at: [Millis; 64],
    /// A (re)connection happened: the next dump must be reconciled with the record.
    pub reconcile_next_dump: bool,
    /// Both kings stand on the centre squares: the players' result signal (DGT
    /// convention), offered to the TD, never applied by itself.
    pub result_signal: Option<ResultSignal>,
}

/// A clock reading and when it came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockReading {
    pub at: Millis,
    pub times: ClockTimes,
}

/// The board's clock and its calibration.
#[derive(Clone, Debug, Default)]
pub struct BoardClock {
    /// The last reading (also a "no clock" reading).
    pub reading: Option<ClockReading>,
    pub present: bool,
    /// Which clock side is White's (calibrated from the side that runs first).
    pub white_side: Option<ClockSide>,
    pub running: Option<ClockSide>,
    /// A fallen flag was told to the TD.
    pub flag_reported: ByColor<bool>,
}

/// The presses of a board: the one being judged and what earlier ones left behind.
#[derive(Clone, Debug, Default)]
pub struct Presses {
    pub pending: Option<PendingPress>,
    /// The next press, come while `pending` was still being judged: it waits its turn.
    pub queued: Option<PendingPress>,
    /// An ambiguous press the opponent's next press may settle: judged together with it.
    pub carried: Option<PendingPress>,
    pub unexplained: Option<UnexplainedPress>,
    pub owed: Vec<OwedPress>,
    /// For reading the last ply again in hindsight.
    pub before_last: Option<BeforeLastPly>,
    /// The last move committed without a clock (stability), for replacement by a press.
    pub last_stable_commit: Option<StableCommit>,
    /// The stable position was judged at this change time already.
    pub stable_judged: Option<Millis>,
    /// When the last recorded ply's piece first showed on its square, if the board showed
    /// it since the commit before.
    pub last_landing: Option<Millis>,
    /// The last ply, a pawn's first step never shown landing: the reply may be a capture
    /// that reads it either way (`unseen_step`).
    pub unseen_step: Option<UnseenStep>,
}

/// The pawn's step waiting to see what the reply does: the ply, and the squares one and two
/// steps ahead of its start square (neither ever showed the pawn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnseenStep {
    pub ply: super::PlyRef,
    pub one: Square,
    pub two: Square,
}

impl Presses {
    /// A press is still being judged (pending, queued, or carried to be read with the
    /// next): a press that showed no move waits for it, since a reading of several plies
    /// (a drop captured before the board showed it, only the dropper's next move telling
    /// its kind) may account for it.
    pub fn judging_later(&self) -> bool {
        self.pending.is_some() || self.queued.is_some() || self.carried.is_some()
    }
}

/// Something the monitor saw, since when, and whether the TD was told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watched<T> {
    pub what: T,
    pub since: Millis,
    pub alerted: bool,
}

/// What the monitor keeps seeing, each told to the TD once it has stood long enough.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WatchList<T>(Vec<Watched<T>>);

impl<T> Default for WatchList<T> {
    fn default() -> Self {
        WatchList(Vec::new())
    }
}

impl<T: Copy + PartialEq> WatchList<T> {
    /// Keeps watching what is still `seen`, starts watching what is new from `now`, and
    /// returns what went away after the TD had been told (its alert clears).
    pub fn update(&mut self, seen: &[T], now: Millis) -> Vec<T> {
        let mut gone = Vec::new();
        self.0.retain(|w| {
            let keep = seen.contains(&w.what);
            if !keep && w.alerted {
                gone.push(w.what);
            }
            keep
        });
        for &what in seen {
            if !self.0.iter().any(|w| w.what == what) {
                self.0.push(Watched {
                    what,
                    since: now,
                    alerted: false,
                });
            }
        }
        gone
    }

    /// When the next one not yet told falls due, told after `delay`.
    #[must_use]
    pub fn next_due(&self, delay: Millis) -> Option<Millis> {
        self.0
            .iter()
            .filter(|w| !w.alerted)
            .map(|w| w.since + delay)
            .min()
    }

    /// Those that have stood `delay` by `now` and were not told yet, marked told.
    pub fn take_due(&mut self, delay: Millis, now: Millis) -> Vec<T> {
        let mut due = Vec::new();
        for w in &mut self.0 {
            if !w.alerted && w.since + delay <= now {
                w.alerted = true;
                due.push(w.what);
            }
        }
        due
    }

    pub fn clear(&mut self) {
        self.0.clear();
    }

    pub fn iter(&self) -> impl Iterator<Item = &Watched<T>> {
        self.0.iter()
    }
}

/// A piece missing at a commit: where, and the cells the record expected there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MissingAtCommit {
    pub square: Square,
    pub expected: u16,
}

/// A piece standing at a commit where the record has nothing that looks like it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtraAtCommit {
    pub square: Square,
    pub found: Cell,
}

/// The anomaly monitor's memory between presses.
#[derive(Clone, Debug, Default)]
pub struct MonitorState {
    /// Displaced pieces of the side that just moved.
    pub displaced: WatchList<Anomaly>,
    /// Tokens the board cannot name.
    pub unknown: WatchList<Square>,
    /// Pieces of the side that just moved standing where nothing explains them, set down
    /// after its press, the board otherwise quiet: told without waiting for a press.
    pub extra: WatchList<(Square, Cell)>,
    /// What was wrong with each colour's pieces at that colour's last commit (pieces
    /// gone, those the opponent may be lifting as victims included): what is still wrong
    /// at its next commit is reported.
    pub missing_at_commit: ByColor<Vec<MissingAtCommit>>,
    pub extra_at_commit: ByColor<Vec<ExtraAtCommit>>,
    /// When the mover's pieces found gone at a commit and not told then are looked at
    /// again: a scan after they went, on a quiet board; as long after the commit as a
    /// displaced piece may stand, for those the opponent may be lifting as victims and for
    /// the mover's own moved piece (the mover's next commit may be long in coming, or
    /// never come).
    pub missing_recheck: Option<Millis>,
    /// What the sensors should show on the committed board.
    pub committed_expect: ExpectCache,
    /// When the promoted pieces' tokens were last looked at (`settle_tokens`): a token the
    /// board names only by time passing (a square left empty) is looked at again when
    /// that time has passed, not only at the board's next report.
    pub tokens_looked_at: Millis,
}

/// The committed board's expectation, kept with the record it was worked out from: the
/// monitor looks at the board after every field update, and the record changes only at
/// commits, the TD's corrections and tokens settling. The record is compared on each use
/// (a board and two short lists, far cheaper than working the expectation out again), so
/// no change of the record, wherever it comes from, can leave it stale.
#[derive(Clone, Debug, Default)]
pub struct ExpectCache(Option<(Recorded, Expect)>);

/// The record an expectation was worked out from: pieces, promoted pieces, appearance.
type Recorded = (Board, Bitboard, Appearance);

impl ExpectCache {
    /// The expectation of `state` with `appearance`, worked out again only if either changed.
    pub fn get(&mut self, state: &BoardState, appearance: &Appearance) -> &Expect {
        let fresh = |(board, promoted, seen): &Recorded| {
            board == state.board() && *promoted == state.promoted() && seen == appearance
        };
        if !self.0.as_ref().is_some_and(|(key, _)| fresh(key)) {
            self.0 = None;
        }
        let (_, expect) = self.0.get_or_insert_with(|| {
            let expect = expected(
                state.board(),
                state.promoted(),
                &appearance.tokens,
                &appearance.allowances,
            );
            let key = (state.board().clone(), state.promoted(), appearance.clone());
            (key, expect)
        });
        expect
    }
}

/// What the arbiter knows of one physical board.
#[derive(Clone, Debug)]
pub struct Track {
    pub id: BoardId,
    pub timing: Timing,
    pub link: LinkStatus,
    pub sensed: SensedBoard,
    pub clock: BoardClock,
    /// Tokens of promoted pieces and tolerated extra cells, as of the last commit.
    pub appearance: Appearance,
    pub presses: Presses,
    pub monitor: MonitorState,
}

/// The DGT/LiveChess result signal: both kings put on the four centre squares after a
/// game (every pair of those squares is adjacent, so no game position looks like it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ResultSignal {
    /// Kings on e4 and d5.
    WhiteWins,
    /// Kings on e5 and d4.
    BlackWins,
    /// Any other pair of centre squares.
    Draw,
}

impl ResultSignal {
    /// Reads the signal off the sensed cells, if both kings stand in the centre.
    #[must_use]
    pub fn read(cells: &Cells) -> Option<ResultSignal> {
        let centre = [Square::D4, Square::E4, Square::D5, Square::E5];
        // Read after every field update: most of the time no king stands in the centre,
        // and then there is no signal (both kings must stand there).
        let is_king = |s: Square| {
            cells
                .get(s)
                .to_piece()
                .is_some_and(|p| p.role == shakmaty::Role::King)
        };
        if !centre.iter().any(|&s| is_king(s)) {
            return None;
        }
        let kings: Vec<(Square, Color)> = Square::ALL
            .iter()
            .filter_map(|&s| {
                cells
                    .get(s)
                    .to_piece()
                    .filter(|p| p.role == shakmaty::Role::King)
                    .map(|p| (s, p.color))
            })
            .collect();
        let [(a, ca), (b, cb)] = kings.as_slice() else {
            return None;
        };
        if ca == cb || !centre.contains(a) || !centre.contains(b) {
            return None;
        }
        let pair = |x: Square, y: Square| (*a == x && *b == y) || (*a == y && *b == x);
        Some(if pair(Square::E4, Square::D5) {
            ResultSignal::WhiteWins
        } else if pair(Square::E5, Square::D4) {
            ResultSignal::BlackWins
        } else {
            ResultSignal::Draw
        })
    }
}

impl Track {
    #[must_use]
    pub fn new(id: BoardId, timing: Timing) -> Track {
        Track {
            id,
            timing,
            link: LinkStatus::default(),
            sensed: SensedBoard::new(),
            clock: BoardClock::default(),
            appearance: Appearance::default(),
            presses: Presses::default(),
            monitor: MonitorState::default(),
        }
    }
}

impl SensedBoard {
    #[must_use]
    pub fn new() -> SensedBoard {
        SensedBoard {
            raw: Fields::empty(),
            have_raw: false,
            orientation: None,
            started: false,
            cells: Cells::default(),
            history: Vec::new(),
            last_change: 0,
            changed_at: [0; 64],
            reconcile_next_dump: false,
            result_signal: None,
        }
    }

    /// Cells from the raw fields, with the board's orientation.
    #[must_use]
    pub fn cells_from_raw(raw: &Fields, o: Orientation) -> Cells {
        // Looked up, not worked out, as this runs for every field update: the cell of each
        // code, and for each orientation the square of each field.
        type Tables = ([Cell; 256], [[Option<Square>; 64]; 2]);
        static TABLES: OnceLock<Tables> = OnceLock::new();
        let (cell_of_code, squares) = TABLES.get_or_init(|| {
            let squares = |o| {
                std::array::from_fn(|f| u8::try_from(f).ok().and_then(|f| field_to_square(f, o)))
            };
            (
                std::array::from_fn(|c| {
                    u8::try_from(c).map_or(Cell::UNKNOWN, |c| cell_of(PieceCode(c)))
                }),
                [squares(Orientation::Normal), squares(Orientation::Rotated)],
            )
        });
        let squares = &squares[usize::from(o == Orientation::Rotated)];
        let mut cells = Cells::default();
        for (sq, code) in squares.iter().zip(raw.codes()) {
            if let Some(sq) = *sq {
                cells.set(sq, cell_of_code[usize::from(code.0)]);
            }
        }
        cells
    }

    /// Detects the start position (either way round) if not started yet.
    pub fn try_start(&mut self) -> bool {
        if self.started {
            return false;
        }
        match detect_orientation(&self.raw) {
            Some(o) => {
                self.orientation = Some(o);
                self.started = true;
                true
            }
            None => false,
        }
    }

    pub fn push_snapshot(&mut self, t_ms: Millis) {
        self.history.push(Snapshot {
            t_ms,
            cells: self.cells,
        });
        if self.history.len() > MAX_HISTORY {
            let excess = self.history.len() - MAX_HISTORY;
            self.history.drain(1..=excess);
        }
        self.last_change = t_ms;
    }

    /// Keeps the snapshots from `index` on (after a commit decided by that snapshot).
    pub fn restart_history(&mut self, index: usize) {
        let keep = index.min(self.history.len().saturating_sub(1));
        self.history.drain(..keep);
        if self.history.is_empty() {
            self.history.push(Snapshot {
                t_ms: self.last_change,
                cells: self.cells,
            });
        }
    }

    /// How long the cell on `sq` has stood unchanged at `now`.
    #[must_use]
    pub fn steady_for(&self, sq: Square, now: Millis) -> Millis {
        now.saturating_sub(self.changed_at[sq.to_usize()])
    }
}

impl Default for SensedBoard {
    fn default() -> Self {
        SensedBoard::new()
    }
}

impl BoardClock {
    /// The colour whose time runs on `side`, once calibrated.
    #[must_use]
    pub fn color_of(&self, side: ClockSide) -> Option<Color> {
        self.white_side.map(|w| {
            if w == side {
                Color::White
            } else {
                Color::Black
            }
        })
    }

    /// The clock side of `color`, once calibrated.
    #[must_use]
    pub fn side_of(&self, color: Color) -> Option<ClockSide> {
        self.white_side
            .map(|w| if color == Color::White { w } else { w.other() })
    }

    /// The time `color` surely has left at `now` by this clock: `None` when the clock
    /// cannot tell (none, not calibrated, no reading) or the flag is down or may be.
    #[must_use]
    pub fn surely_left_ms(&self, color: Color, now: Millis) -> Option<u64> {
        if !self.present || self.flag_reported[color] {
            return None;
        }
        let reading = self.reading.as_ref()?;
        let side = self.side_of(color)?;
        let shown = reading.times.side(side);
        if reading.times.no_clock || shown.flag() {
            return None;
        }
        let mut left = u64::from(shown.seconds) * 1000;
        if reading.times.running == Some(side) {
            // Counting down since the reading, which reached the PC up to a poll late.
            left = left.checked_sub(now.saturating_sub(reading.at) + CLOCK_MESSAGE_LAG_MS)?;
        }
        (left > 0).then_some(left)
    }

    /// Remaining ms for a colour, as last reported (whole seconds).
    #[must_use]
    pub fn reported_ms(&self, color: Color) -> Option<u64> {
        let reading = self.reading.as_ref()?;
        let side = self.side_of(color)?;
        Some(u64::from(reading.times.side(side).seconds) * 1000)
    }
}

/// A DGT piece code as a sensed cell (codes that are no chess piece are unknown tokens).
#[must_use]
pub fn cell_of(code: PieceCode) -> Cell {
    match code.piece() {
        Ok(p) => Cell::from_piece(p),
        Err(_) => Cell::UNKNOWN,
    }
}
