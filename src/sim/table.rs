//! A bughouse table in simulated time: two virtual boards on simulated serial links (the
//! production decoder and link code), and a rehearsal that plays a match on them with a
//! player's hands at every seat.
//!
//! The rehearsal keeps the *truth*: the match as it physically happened, each ply applied
//! at the moment its clock was pressed and chosen from the reserves its player actually
//! had when starting to move. Tests compare what the arbiter reconstructs with it; the
//! benchmark and the demo use the same machinery.

use shakmaty::{Bitboard, Color, Move, Role, Square};

use super::board::{SimBoard, SimOutput};
use super::emulator::{EmulatorConfig, PhysicalAction, PhysicalPiece};
use super::performer::{Hands, Performance, Style};
use crate::arbiter::BoardEvent;
use crate::device::capture::CaptureChunk;
use crate::rules::{BoardState, Match, PlyMeta, Promotion, RulesPreset, Seat};
use crate::util::SplitMix64;
use crate::{BoardId, Millis};

/// Two (or one) virtual boards on simulated links.
#[derive(Clone, Debug)]
pub struct SimTable {
    boards: Vec<SimBoard>,
}

impl SimTable {
    /// Boards A (and B) with the start position set up at t = 0.
    #[must_use]
    pub fn new(configs: &[EmulatorConfig], seed: u64) -> SimTable {
        let boards = configs
            .iter()
            .zip(BoardId::BOTH)
            .enumerate()
            .map(|(i, (cfg, id))| {
                let mut b = SimBoard::new(id, cfg.clone(), seed.wrapping_add(i as u64 * 7919));
                b.schedule(0, PhysicalAction::SetUpStart);
                b
            })
            .collect();
        SimTable { boards }
    }

    #[must_use]
    pub fn board(&self, id: BoardId) -> Option<&SimBoard> {
        self.boards.get(id.index())
    }

    pub fn board_mut(&mut self, id: BoardId) -> Option<&mut SimBoard> {
        self.boards.get_mut(id.index())
    }

    #[must_use]
    pub fn ids(&self) -> Vec<BoardId> {
        self.boards.iter().map(SimBoard::board).collect()
    }

    /// What stands on a square of a board right now.
    #[must_use]
    pub fn physical(&self, id: BoardId, sq: Square) -> Option<PhysicalPiece> {
        self.board(id).and_then(|b| b.emulator().physical(sq))
    }

    pub fn schedule(&mut self, id: BoardId, actions: &[(Millis, PhysicalAction)]) {
        if let Some(b) = self.board_mut(id) {
            for (t, a) in actions {
                b.schedule(*t, a.clone());
            }
        }
    }

    /// A clock command for a board's clock, through its link.
    pub fn clock_command(&mut self, id: BoardId, order: u64, command: crate::dgt::ClockCommand) {
        if let Some(b) = self.board_mut(id) {
            b.clock_command(order, command);
        }
    }

    /// Runs every board up to `t`; outputs of both boards merged in time order.
    pub fn run_until(&mut self, t: Millis) -> Vec<SimOutput> {
        let mut all: Vec<(Millis, usize, SimOutput)> = Vec::new();
        for (i, b) in self.boards.iter_mut().enumerate() {
            for o in b.run_until(t) {
                all.push((output_time(&o), i, o));
            }
        }
        all.sort_by_key(|(t, i, _)| (*t, *i));
        all.into_iter().map(|(_, _, o)| o).collect()
    }
}

fn output_time(o: &SimOutput) -> Millis {
    match o {
        SimOutput::Chunk(c) => c.t_ms,
        SimOutput::Event(e) => e.t_ms,
    }
}

/// How the rehearsal picks moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chooser {
    /// Any legal move, drops a little less likely (there are so many of them).
    Random,
    /// A bias toward natural play: captures of valuable pieces, checks, drops near the
    /// enemy king, development.
    Natural,
}

#[derive(Clone, Debug)]
enum Phase {
    /// The player on move starts at this time.
    Ready(Millis),
    /// A move is being performed; it is pressed at `press_at`.
    Moving {
        mv: Move,
        press_at: Millis,
    },
    /// No legal move (bughouse: waiting for a piece); look again at this time.
    Waiting(Millis),
    Done,
}

/// An anomaly injected into one ply of a rehearsal, for tests of the TD's alerts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Injection {
    /// With the move, the mover pockets one of its own pieces (never put back).
    Pocket,
    /// With the move, the mover puts an extra knight of its colour on an empty square.
    ExtraPiece,
    /// Right after the press, one of the mover's pieces is knocked onto an empty
    /// neighbouring square (and left there).
    Knock,
}

/// What an injection did: on which square the TD should be told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Injected {
    pub board: BoardId,
    pub what: Injection,
    /// The square the alert names: the pocketed piece's, the extra piece's, or the
    /// knocked piece's home.
    pub square: Square,
    /// Where the knocked piece landed.
    pub landed: Option<Square>,
    pub at: Millis,
}

/// Where a rehearsal plays: what stands on a board, and hands to act on it.
pub trait Table {
    /// What stands on a square of a board now.
    fn physical(&self, id: BoardId, sq: Square) -> Option<PhysicalPiece>;
    /// Actions to happen at the given times.
    fn schedule(&mut self, id: BoardId, actions: &[(Millis, PhysicalAction)]);
    /// The boards at this table.
    fn ids(&self) -> Vec<BoardId>;
}

impl Table for SimTable {
    fn physical(&self, id: BoardId, sq: Square) -> Option<PhysicalPiece> {
        SimTable::physical(self, id, sq)
    }

    fn schedule(&mut self, id: BoardId, actions: &[(Millis, PhysicalAction)]) {
        SimTable::schedule(self, id, actions);
    }

    fn ids(&self) -> Vec<BoardId> {
        SimTable::ids(self)
    }
}

/// A match played physically at a [`Table`] (simulated by default).
#[derive(Clone, Debug)]
pub struct Rehearsal<T: Table = SimTable> {
    pub truth: Match,
    pub table: T,
    hands: Vec<Hands>,
    rng: SplitMix64,
    phases: Vec<Phase>,
    chooser: Chooser,
    max_plies_per_board: usize,
    /// When the clocks were started.
    pub clock_start: Millis,
    /// Each ply as performed: board, move, press time.
    pub log: Vec<(BoardId, Move, Millis)>,
    /// Moves completed and pressed on another board just after the match ended (the hands
    /// were already moving): not in the truth, yet indistinguishable from a move pressed
    /// just before the end whose clock message came late.
    pub after_end: Vec<(BoardId, Move, Millis)>,
    now: Millis,
    /// Actions a seat performs at the start of its next turn (putting back a knocked
    /// piece, on its own time as the rules require), by seat index.
    chores: Vec<Vec<PhysicalAction>>,
    /// An anomaly to inject: board, the ply number on that board (0-based), what.
    inject: Option<(BoardId, usize, Injection)>,
    /// What the injection did, once done.
    pub injected: Option<Injected>,
}

impl Rehearsal<SimTable> {
    /// A match under `rules` on simulated boards configured by `configs` (one for a
    /// single-board preset, two for bughouse), every seat playing with `style`.
    #[must_use]
    pub fn new(
        rules: RulesPreset,
        configs: &[EmulatorConfig],
        style: &Style,
        chooser: Chooser,
        seed: u64,
    ) -> Rehearsal<SimTable> {
        let n = if rules.is_bughouse() { 2 } else { 1 };
        let configs = &configs[..n.min(configs.len())];
        let table = SimTable::new(configs, seed);
        Rehearsal::at(table, rules, style, chooser, seed, 1500)
    }

    /// Plays one event (a move starts, or a press is applied to the truth). Returns the
    /// simulation outputs up to that time, or `None` when the match is over.
    pub fn step(&mut self) -> Option<Vec<SimOutput>> {
        let t = self.next_time()?;
        // The table first: the player sees the board as it is at this moment.
        let out = self.table.run_until(t);
        self.advance();
        Some(out)
    }

    /// Runs the whole match, then `tail_ms` more so every report arrives.
    pub fn run(&mut self, tail_ms: Millis) -> Vec<SimOutput> {
        let mut out = Vec::new();
        while let Some(batch) = self.step() {
            out.extend(batch);
        }
        out.extend(self.table.run_until(self.now + tail_ms));
        out
    }

    /// Raw bytes recorded so far, as a capture would hold them.
    #[must_use]
    pub fn chunks(outputs: &[SimOutput]) -> Vec<CaptureChunk> {
        outputs
            .iter()
            .filter_map(SimOutput::chunk)
            .cloned()
            .collect()
    }

    /// Device events in order.
    #[must_use]
    pub fn events(outputs: &[SimOutput]) -> Vec<BoardEvent> {
        outputs
            .iter()
            .filter_map(SimOutput::event)
            .cloned()
            .collect()
    }
}

impl<T: Table> Rehearsal<T> {
    /// A match at `table`; Black starts White's clock at `clock_start`.
    pub fn at(
        mut table: T,
        rules: RulesPreset,
        style: &Style,
        chooser: Chooser,
        seed: u64,
        clock_start: Millis,
    ) -> Rehearsal<T> {
        let n = if rules.is_bughouse() { 2 } else { 1 };
        for id in table.ids() {
            // Black starts White's clock (bughouse custom; harmless for blitz).
            table.schedule(
                id,
                &[(clock_start, PhysicalAction::PressClock { by: Color::Black })],
            );
        }
        let hands = (0..4)
            .map(|i| Hands::new(style.clone(), seed.wrapping_mul(31).wrapping_add(i)))
            .collect();
        Rehearsal {
            truth: Match::new(rules),
            table,
            hands,
            rng: SplitMix64::new(seed ^ 0x5eed),
            phases: vec![Phase::Ready(clock_start + 200); n],
            chooser,
            max_plies_per_board: 80,
            clock_start,
            log: Vec::new(),
            after_end: Vec::new(),
            now: 0,
            chores: vec![Vec::new(); 4],
            inject: None,
            injected: None,
        }
    }

    /// Injects an anomaly into the `ply`-th ply (0-based) on `board`; the match stops after
    /// that ply (the alert is what the test looks at).
    pub fn inject(&mut self, board: BoardId, ply: usize, what: Injection) {
        self.inject = Some((board, ply, what));
    }

    /// The move being performed on a board right now, and by whom.
    #[must_use]
    pub fn moving(&self, board: BoardId) -> Option<(Color, Move)> {
        match self.phases.get(board.index())? {
            Phase::Moving { mv, .. } => Some((self.truth.board(board).turn(), *mv)),
            _ => None,
        }
    }

    /// Actions `seat` performs at the start of its next turn, before its move.
    pub fn add_chore(&mut self, seat: Seat, actions: Vec<PhysicalAction>) {
        self.chores[seat.index()].extend(actions);
    }

    /// The time the table has reached.
    #[must_use]
    pub fn now(&self) -> Millis {
        self.now
    }

    /// Stops each board after this many plies.
    pub fn set_max_plies(&mut self, n: usize) {
        self.max_plies_per_board = n;
    }

    /// The hands of one seat (to change a player's style).
    pub fn hands_mut(&mut self, seat: Seat) -> &mut Hands {
        &mut self.hands[seat.index()]
    }

    /// The next time something happens at the table (a move starts or a clock press).
    fn next_event(&self) -> Option<(Millis, usize)> {
        self.phases
            .iter()
            .enumerate()
            .filter_map(|(i, p)| match p {
                Phase::Ready(t) | Phase::Waiting(t) => Some((*t, i)),
                Phase::Moving { press_at, .. } => Some((*press_at, i)),
                Phase::Done => None,
            })
            .min()
    }

    /// When the next event falls.
    #[must_use]
    pub fn next_time(&self) -> Option<Millis> {
        self.next_event().map(|(t, _)| t)
    }

    #[must_use]
    pub fn is_done(&self) -> bool {
        self.next_event().is_none()
    }

    /// Handles the next event (a move starts, or a press is applied to the truth); returns
    /// its time, or `None` when the match is over.
    pub fn advance(&mut self) -> Option<Millis> {
        let (t, i) = self.next_event()?;
        self.now = t;
        let board = BoardId::BOTH[i];
        match self.phases[i].clone() {
            Phase::Ready(at) | Phase::Waiting(at) => self.start_move(board, at),
            Phase::Moving { mv, press_at } => self.press(board, mv, press_at),
            Phase::Done => {}
        }
        Some(t)
    }

    fn start_move(&mut self, board: BoardId, at: Millis) {
        let i = board.index();
        if self.truth.is_over() || self.truth.plies_on(board) >= self.max_plies_per_board {
            self.phases[i] = Phase::Done;
            return;
        }
        let state = self.truth.board(board).clone();
        let moves = state.legal_moves(self.truth.rules());
        if moves.is_empty() {
            // Bughouse: wait for a piece from the partner (or the match ends elsewhere).
            let other_live = self
                .phases
                .iter()
                .enumerate()
                .any(|(j, p)| j != i && !matches!(p, Phase::Done | Phase::Waiting(_)));
            self.phases[i] = if other_live {
                Phase::Waiting(at + 2000)
            } else {
                Phase::Done
            };
            return;
        }
        let mv = choose(&state, &moves, self.chooser, &mut self.rng);
        let mover = state.turn();
        let seat = Seat::new(board, mover);
        let mut at = at;
        let chores = std::mem::take(&mut self.chores[seat.index()]);
        if !chores.is_empty() {
            let mut t = at + 400;
            let timed: Vec<(Millis, PhysicalAction)> = chores
                .into_iter()
                .map(|a| {
                    t += 350;
                    (t, a)
                })
                .collect();
            self.table.schedule(board, &timed);
            at = t;
        }
        let removal = self.truth.rules().promotion == Promotion::Removal;
        let table = &self.table;
        let physical = |sq: Square| table.physical(board, sq);
        let mut perf: Performance =
            self.hands[seat.index()].perform(&physical, mover, mv, at, removal);
        if let Some((ib, iply, what)) = self.inject
            && ib == board
            && iply == self.truth.plies_on(board)
        {
            self.inject = None;
            // The move's squares and the path a sliding hand may touch down on.
            let busy = crate::sensing::touched(mv)
                | match mv {
                    Move::Normal { from, to, .. } => shakmaty::attacks::between(from, to),
                    _ => Bitboard::EMPTY,
                };
            // Not a piece that could have made the same move instead (two pawns that can
            // both take on f4, one of them pocketed): which one moved is for nobody to tell.
            let could_do_it: Bitboard = moves
                .iter()
                .filter(|m| m.to() == mv.to() && m.role() == mv.role())
                .filter_map(|m| m.from())
                .collect();
            let own: Vec<Square> = Square::ALL
                .iter()
                .copied()
                .filter(|&s| !busy.contains(s) && !could_do_it.contains(s))
                .filter(|&s| matches!(table.physical(board, s), Some(PhysicalPiece::Standing(p)) if p.color == mover && p.role != Role::King))
                .collect();
            let empty_near = |s: Square| {
                shakmaty::attacks::king_attacks(s)
                    .into_iter()
                    .find(|&n| !busy.contains(n) && table.physical(board, n).is_none())
            };
            let pick = own.get(self.rng.below(own.len().max(1))).copied();
            let done = match (what, pick) {
                (Injection::Pocket, Some(s)) => {
                    let t = perf.press_at.saturating_sub(150).max(at);
                    perf.actions.push((t, PhysicalAction::Lift { square: s }));
                    Some((s, None, t))
                }
                (Injection::ExtraPiece, _) => {
                    // Not where the mover's own knight could have gone instead: a knight
                    // landing on one of two squares it could reach (or a knight drop, or
                    // one that could have been) is ambiguous to any observer, and the test
                    // wants one right answer.
                    let rival = match mv {
                        _ if state.reserve(mover).knight > 0 => Bitboard::FULL,
                        Move::Put {
                            role: Role::Knight, ..
                        } => Bitboard::FULL,
                        Move::Normal {
                            role: Role::Knight,
                            from,
                            ..
                        } => shakmaty::attacks::knight_attacks(from),
                        _ => Bitboard::EMPTY,
                    };
                    // Nor where the mover's hand sets a piece down on the way (set down short
                    // of its square, or past it, and pushed on): two hands cannot put two
                    // pieces on one square.
                    let handled: Bitboard = perf
                        .actions
                        .iter()
                        .filter_map(|(_, a)| match *a {
                            PhysicalAction::Place { square, .. } => Some(square),
                            _ => None,
                        })
                        .collect();
                    let spots: Vec<Square> = Square::ALL
                        .iter()
                        .copied()
                        .filter(|&s| {
                            !(busy | handled).contains(s) && table.physical(board, s).is_none()
                        })
                        .filter(|&s| !rival.contains(s))
                        .collect();
                    spots
                        .get(self.rng.below(spots.len().max(1)))
                        .copied()
                        .map(|s| {
                            let t = perf.press_at.saturating_sub(150).max(at);
                            perf.actions.push((
                                t,
                                PhysicalAction::Place {
                                    square: s,
                                    piece: Role::Knight.of(mover),
                                },
                            ));
                            (s, None, t)
                        })
                }
                (Injection::Knock, Some(s)) => empty_near(s).map(|to| {
                    let t = perf.press_at + 300;
                    perf.actions
                        .push((t, PhysicalAction::Knock { from: s, to }));
                    (s, Some(to), t)
                }),
                _ => None,
            };
            perf.actions.sort_by_key(|(t, _)| *t);
            if let Some((square, landed, at)) = done {
                self.injected = Some(Injected {
                    board,
                    what,
                    square,
                    landed,
                    at,
                });
            }
            // The test looks at this ply's alert: the opponent's reply, then no more moves.
            self.max_plies_per_board = self.truth.plies_on(board) + 2;
        }
        self.table.schedule(board, &perf.actions);
        self.phases[i] = Phase::Moving {
            mv,
            press_at: perf.press_at,
        };
    }

    fn press(&mut self, board: BoardId, mv: Move, press_at: Millis) {
        let i = board.index();
        let meta = PlyMeta {
            t_ms: Some(press_at),
            ..PlyMeta::default()
        };
        if self.truth.play(board, mv, meta).is_ok() {
            self.log.push((board, mv, press_at));
        }
        self.phases[i] = Phase::Ready(press_at);
        if self.truth.is_over() {
            for (j, p) in self.phases.iter_mut().enumerate() {
                if let Phase::Moving { mv, press_at } = *p {
                    // Already in the player's hand: the move is completed and pressed.
                    self.after_end.push((BoardId::BOTH[j], mv, press_at));
                }
                *p = Phase::Done;
            }
        }
    }
}

/// Picks a move: uniformly (drops damped), or with a bias toward natural play.
#[must_use]
pub fn choose(state: &BoardState, moves: &[Move], chooser: Chooser, rng: &mut SplitMix64) -> Move {
    let weights: Vec<u64> = moves
        .iter()
        .map(|&m| match chooser {
            Chooser::Random => {
                if matches!(m, Move::Put { .. }) {
                    1
                } else {
                    4
                }
            }
            Chooser::Natural => natural_weight(state, m),
        })
        .collect();
    let total: u64 = weights.iter().sum();
    let mut x = rng.next_u64() % total.max(1);
    for (m, w) in moves.iter().zip(&weights) {
        if x < *w {
            return *m;
        }
        x -= w;
    }
    moves[0]
}

fn value(r: Role) -> u64 {
    match r {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

fn natural_weight(state: &BoardState, m: Move) -> u64 {
    let mover = state.turn();
    let enemy_king = state.board().king_of(!mover);
    let near_king = |sq: Square| enemy_king.is_some_and(|k| k.distance(sq) <= 2);
    let mut w = 4;
    match m {
        Move::Normal {
            capture: Some(c),
            role,
            ..
        } => {
            w += 20 * value(c) + if value(c) >= value(role) { 30 } else { 0 };
        }
        Move::EnPassant { .. } => w += 20,
        Move::Castle { .. } => w += 40,
        Move::Put { to, role } => {
            w = if near_king(to) {
                6 + 2 * value(role)
            } else {
                1
            };
        }
        Move::Normal {
            role,
            from,
            to,
            promotion,
            ..
        } => {
            if promotion.is_some() {
                w += 200;
            }
            // Development: minor pieces off the back rank, central pawns.
            let home = mover.backrank();
            if matches!(role, Role::Knight | Role::Bishop) && from.rank() == home {
                w += 12;
            }
            if role == Role::Pawn && matches!(to.file(), shakmaty::File::D | shakmaty::File::E) {
                w += 6;
            }
            if role == Role::King {
                w = 1;
            }
        }
    }
    // Checks are popular in bughouse.
    let mut after = state.clone();
    if after.apply(m, Promotion::Upgrade).is_ok() && after.is_check() {
        w += 25;
    }
    w
}

/// The colour of a seat's pieces, for tests: which side pressed.
#[must_use]
pub fn mover_of(state: &BoardState) -> Color {
    state.turn()
}

/// Performs a known game on a simulated table: each ply `(board, move, press_at)` is made by
/// the hands of its seat so that its clock press falls at `press_at` (or as soon after as the
/// player's turn and the hands allow), with the physical noise of `style`. The plies must be
/// in real-time order and legal in turn. Returns the simulation outputs (events and raw
/// bytes), ending `tail_ms` after the last press.
pub fn perform_script(
    table: &mut SimTable,
    rules: &RulesPreset,
    style: &Style,
    seed: u64,
    plies: &[(BoardId, Move, Millis)],
    tail_ms: Millis,
) -> Vec<SimOutput> {
    let mut out = Vec::new();
    let mut truth = Match::new(rules.clone());
    let mut hands: Vec<Hands> = (0..4)
        .map(|i| Hands::new(style.clone(), seed.wrapping_mul(131).wrapping_add(i)))
        .collect();
    let removal = rules.promotion == Promotion::Removal;
    // Black starts White's clock on each board.
    let clock_start = plies
        .first()
        .map_or(1000, |p| p.2.saturating_sub(3000).max(1000));
    for id in table.ids() {
        table.schedule(
            id,
            &[(clock_start, PhysicalAction::PressClock { by: Color::Black })],
        );
    }
    let mut last_press = [clock_start + 100; 2];
    let mut last = 0;
    for &(board, mv, want) in plies {
        let i = board.index();
        let turn_start = last_press[i];
        let mover = truth.board(board).turn();
        let seat = Seat::new(board, mover);
        // Plan the move from the start of the turn, then slide it so its press falls when
        // the record says (never before the turn began).
        out.extend(table.run_until(turn_start));
        let physical = |sq: Square| table.physical(board, sq);
        let trial = hands[seat.index()].perform(&physical, mover, mv, turn_start, removal);
        let first = trial.actions.first().map_or(trial.press_at, |a| a.0);
        let shift = want.saturating_sub(trial.press_at).min(u64::MAX / 2);
        let shift = if first + shift < turn_start { 0 } else { shift };
        let actions: Vec<(Millis, PhysicalAction)> = trial
            .actions
            .iter()
            .map(|(t, a)| (t + shift, a.clone()))
            .collect();
        let press_at = trial.press_at + shift;
        table.schedule(board, &actions);
        let meta = crate::rules::PlyMeta {
            t_ms: Some(press_at),
            ..crate::rules::PlyMeta::default()
        };
        if truth.play(board, mv, meta).is_err() {
            break;
        }
        last_press[i] = press_at;
        last = last.max(press_at);
    }
    out.extend(table.run_until(last + tail_ms));
    out
}
