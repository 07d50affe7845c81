//! The match: two boards, four seats, the real-time record and the outcome.
//!
//! The record (plies in real-time order across both boards) is the source of truth; the
//! boards are a fold over it. Appending is incremental; a correction (a TD fixing a move,
//! a late capture moved before the drop it fed) edits the record and folds it again.

use serde::{Deserialize, Serialize};
use shakmaty::{Color, Move, Role, Square};

use super::position::{Applied, ApplyError, BoardState, Legality};
use super::preset::{BoardCount, RulesPreset, SimultaneousMatesRule, StalemateRule};
use crate::{BoardId, Millis};

/// How much later than the end of the game a press on the other board may be reported and
/// still count (the clock's message reaches the PC up to about a second after the lever).
pub const LATE_PRESS_MS: Millis = 1200;

/// A player's chair: a board and a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Seat {
    pub board: BoardId,
    #[serde(with = "super::text::color")]
    pub color: Color,
}

impl Seat {
    pub const ALL: [Seat; 4] = [
        Seat::new(BoardId::A, Color::White),
        Seat::new(BoardId::A, Color::Black),
        Seat::new(BoardId::B, Color::White),
        Seat::new(BoardId::B, Color::Black),
    ];

    #[must_use]
    pub const fn new(board: BoardId, color: Color) -> Seat {
        Seat { board, color }
    }

    /// Partners sit on different boards with opposite colours.
    #[must_use]
    pub fn partner(self) -> Seat {
        Seat::new(self.board.other(), !self.color)
    }

    #[must_use]
    pub fn opponent(self) -> Seat {
        Seat::new(self.board, !self.color)
    }

    #[must_use]
    pub fn team(self) -> Team {
        match (self.board, self.color) {
            (BoardId::A, Color::White) | (BoardId::B, Color::Black) => Team::WhiteA,
            (BoardId::A, Color::Black) | (BoardId::B, Color::White) => Team::BlackA,
        }
    }

    /// BPGN seat letter: `A` white on A, `a` black on A, `B`, `b`.
    #[must_use]
    pub fn letter(self) -> char {
        match (self.board, self.color) {
            (BoardId::A, Color::White) => 'A',
            (BoardId::A, Color::Black) => 'a',
            (BoardId::B, Color::White) => 'B',
            (BoardId::B, Color::Black) => 'b',
        }
    }

    /// The BPGN tag name of the seat's player (`WhiteA`).
    #[must_use]
    pub fn tag(self) -> &'static str {
        match (self.board, self.color) {
            (BoardId::A, Color::White) => "WhiteA",
            (BoardId::A, Color::Black) => "BlackA",
            (BoardId::B, Color::White) => "WhiteB",
            (BoardId::B, Color::Black) => "BlackB",
        }
    }

    #[must_use]
    pub fn index(self) -> usize {
        self.board.index() * 2 + usize::from(self.color.is_black())
    }
}

/// A team, named after the player it has on board A.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Team {
    /// WhiteA and BlackB.
    WhiteA,
    /// BlackA and WhiteB.
    BlackA,
}

impl Team {
    #[must_use]
    pub fn other(self) -> Team {
        match self {
            Team::WhiteA => Team::BlackA,
            Team::BlackA => Team::WhiteA,
        }
    }

    /// The team's two seats, board A first.
    #[must_use]
    pub fn seats(self) -> [Seat; 2] {
        match self {
            Team::WhiteA => [
                Seat::new(BoardId::A, Color::White),
                Seat::new(BoardId::B, Color::Black),
            ],
            Team::BlackA => [
                Seat::new(BoardId::A, Color::Black),
                Seat::new(BoardId::B, Color::White),
            ],
        }
    }
}

/// Extra facts about a ply, supplied by whoever saw it played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlyMeta {
    /// Match time of the move (the clock press).
    pub t_ms: Option<Millis>,
    /// The mover's clock after the move, in ms.
    pub clock_ms: Option<u64>,
    /// A note for the record (written as a BPGN comment).
    pub comment: Option<String>,
}

/// One move or drop in the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    pub board: BoardId,
    pub color: Color,
    /// Full-move number on its board.
    pub number: u32,
    /// The move as played (legal or not). Under removal rules a pawn move onto the last
    /// rank without a promotion piece is Transfer Chess's removal.
    pub mv: Move,
    /// SAN (with `+`/`#`, `P@e3` for pawn drops); illegal moves in long form (`Bc1c3`).
    pub san: String,
    pub legality: Legality,
    /// What this ply sent to the partner board: the captured piece (demoted).
    pub passed: Option<Role>,
    /// Transfer Chess 4c: the pawn was removed and credited to the diagonal opponent.
    pub removed_pawn: bool,
    /// A drop the TD was told no capture supplies (an extra piece): it took nothing from
    /// the reserve, so the next piece of that kind the partner sends is the dropper's.
    pub extra_piece: bool,
    pub meta: PlyMeta,
}

impl Ply {
    #[must_use]
    pub fn seat(&self) -> Seat {
        Seat::new(self.board, self.color)
    }

    #[must_use]
    pub fn gives_mate(&self) -> bool {
        self.san.ends_with('#')
    }
}

/// Why the match ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EndReason {
    Checkmate {
        loser: Seat,
    },
    /// Mates on both boards at once (Transfer Chess 7d: a draw).
    SimultaneousMates,
    Stalemate {
        board: BoardId,
    },
    Resignation {
        seat: Seat,
    },
    /// A flag fall claimed against `seat`.
    Flag {
        seat: Seat,
    },
    /// A flag fell but the claimant has no mating material (blitz 10a4): a draw.
    FlagWithoutMatingMaterial {
        seat: Seat,
    },
    BothFlags {
        board: BoardId,
    },
    DrawAgreed,
    Forfeit {
        seat: Seat,
        why: String,
    },
    /// An illegal move by `seat` was claimed (and the rules make that a loss).
    IllegalMoveClaimed {
        seat: Seat,
    },
    /// Anything else the TD rules.
    TdDecision {
        winner_text: String,
    },
}

/// The end of the match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchResult {
    /// `None` for a draw.
    pub winner: Option<Team>,
    pub reason: EndReason,
    pub t_ms: Option<Millis>,
}

impl MatchResult {
    /// The board where the match was decided, when there is one.
    #[must_use]
    pub fn board(&self) -> Option<BoardId> {
        match &self.reason {
            EndReason::Checkmate { loser: s }
            | EndReason::Resignation { seat: s }
            | EndReason::Flag { seat: s }
            | EndReason::FlagWithoutMatingMaterial { seat: s }
            | EndReason::Forfeit { seat: s, .. }
            | EndReason::IllegalMoveClaimed { seat: s } => Some(s.board),
            EndReason::Stalemate { board } | EndReason::BothFlags { board } => Some(*board),
            _ => None,
        }
    }

    /// Points for `team` under the preset's scoring.
    #[must_use]
    pub fn score(&self, team: Team, rules: &RulesPreset) -> f32 {
        match self.winner {
            None => rules.scoring.draw,
            Some(w) if w == team => rules.scoring.win,
            Some(_) => rules.scoring.loss,
        }
    }

    /// A one-line description naming the player (e.g. "BlackB checkmated"), for the
    /// termination comment, given the players' names by seat.
    #[must_use]
    pub fn describe(&self, name: &dyn Fn(Seat) -> String) -> String {
        match &self.reason {
            EndReason::Checkmate { loser } => format!("{} checkmated", name(*loser)),
            EndReason::SimultaneousMates => "Checkmates on both boards at once: draw".into(),
            EndReason::Stalemate { board } => format!("Stalemate on board {board}: draw"),
            EndReason::Resignation { seat } => format!("{} resigns", name(*seat)),
            EndReason::Flag { seat } => format!("{} forfeits on time", name(*seat)),
            EndReason::FlagWithoutMatingMaterial { seat } => format!(
                "{} ran out of time but {} has no mating material: draw",
                name(*seat),
                name(seat.opponent())
            ),
            EndReason::BothFlags { board } => format!("Both flags fell on board {board}: draw"),
            EndReason::DrawAgreed => "Draw by agreement".into(),
            EndReason::Forfeit { seat, why } => format!("{} forfeits ({why})", name(*seat)),
            EndReason::IllegalMoveClaimed { seat } => {
                format!("{} loses by an illegal move, claimed", name(*seat))
            }
            EndReason::TdDecision { winner_text } => winner_text.clone(),
        }
    }
}

/// What an illegal-move claim led to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClaimOutcome {
    /// The match ended (loss-on-claim rules).
    Ended(MatchResult),
    /// The move was taken back; the offender plays again (correction rules).
    TakenBack(Ply),
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("the match is over")]
    MatchOver,
    #[error("this rules preset has a single board (A)")]
    NoSuchBoard,
    #[error(transparent)]
    Apply(#[from] ApplyError),
    #[error("ply {index} can no longer be played after the correction: {error}")]
    Replay { index: usize, error: ApplyError },
    #[error("no ply {0} in the record")]
    NoSuchPly(usize),
}

/// A bughouse (or single-board) match under one rules preset.
#[derive(Clone, Debug)]
pub struct Match {
    rules: RulesPreset,
    start: [BoardState; 2],
    boards: [BoardState; 2],
    record: Vec<Ply>,
    /// A mate, stalemate or simultaneous mates seen on the boards.
    board_result: Option<MatchResult>,
    /// A result the TD declared (resignation, flag claim, ...), which ends the match too.
    declared: Option<MatchResult>,
}

impl Match {
    #[must_use]
    pub fn new(rules: RulesPreset) -> Match {
        Self::with_start(rules, [BoardState::start(), BoardState::start()])
    }

    /// A match from given start positions (tests, set-up positions).
    #[must_use]
    pub fn with_start(rules: RulesPreset, start: [BoardState; 2]) -> Match {
        Match {
            rules,
            boards: start.clone(),
            start,
            record: Vec::new(),
            board_result: None,
            declared: None,
        }
    }

    #[must_use]
    pub fn rules(&self) -> &RulesPreset {
        &self.rules
    }

    #[must_use]
    pub fn board(&self, id: BoardId) -> &BoardState {
        &self.boards[id.index()]
    }

    #[must_use]
    pub fn start_position(&self, id: BoardId) -> &BoardState {
        &self.start[id.index()]
    }

    /// The boards in play: both for bughouse, A alone for a single-board preset.
    #[must_use]
    pub fn board_ids(&self) -> &'static [BoardId] {
        match self.rules.boards {
            BoardCount::Bughouse => &BoardId::BOTH,
            BoardCount::Single => &[BoardId::A],
        }
    }

    #[must_use]
    pub fn record(&self) -> &[Ply] {
        &self.record
    }

    /// The end of the match, if it has ended: a declared result wins over the boards'.
    #[must_use]
    pub fn result(&self) -> Option<&MatchResult> {
        self.declared.as_ref().or(self.board_result.as_ref())
    }

    #[must_use]
    pub fn is_over(&self) -> bool {
        self.result().is_some()
    }

    /// Plies played on one board.
    #[must_use]
    pub fn plies_on(&self, board: BoardId) -> usize {
        self.record.iter().filter(|p| p.board == board).count()
    }

    /// Plays a move or drop on `board` for its side to move, legal or not, and passes
    /// captures to the partner. Returns the index of the new ply.
    pub fn play(&mut self, board: BoardId, mv: Move, meta: PlyMeta) -> Result<usize, PlayError> {
        self.play_judged(board, mv, meta, None)
    }

    /// [`Match::play`] for a move already judged on this very position (`Some`: the
    /// sensing read it among the legal moves), which is then not judged again.
    pub fn play_judged(
        &mut self,
        board: BoardId,
        mv: Move,
        meta: PlyMeta,
        legality: Option<Legality>,
    ) -> Result<usize, PlayError> {
        if !self.board_ids().contains(&board) {
            return Err(PlayError::NoSuchBoard);
        }
        if !self.accepts_play_on(board, meta.t_ms) {
            return Err(PlayError::MatchOver);
        }
        let ply = self.apply_ply(board, mv, meta, false, legality)?;
        self.record.push(ply);
        let index = self.record.len() - 1;
        self.update_board_result(index);
        Ok(index)
    }

    /// Can a ply on `board` pressed at `t_ms` still be recorded? After a mate, the other
    /// board may still complete a simultaneous mate inside the preset's window (Transfer
    /// Chess 7d).
    #[must_use]
    pub fn accepts_play_on(&self, board: BoardId, t_ms: Option<Millis>) -> bool {
        if self.declared.is_some() {
            return false;
        }
        let Some(result) = &self.board_result else {
            return true;
        };
        // A move on the other board pressed before the game ended may be reported a little
        // after it (the clock's message is late); so may a simultaneous mate (Transfer 7d).
        let window = match self.rules.simultaneous_mates {
            SimultaneousMatesRule::Draw => self.rules.simultaneous_window_ms.max(LATE_PRESS_MS),
            SimultaneousMatesRule::FirstRecorded => LATE_PRESS_MS,
        };
        result.board() != Some(board)
            && match (result.t_ms, t_ms) {
                (Some(end), Some(t)) => t <= end + window,
                _ => false,
            }
    }

    fn apply_ply(
        &mut self,
        board: BoardId,
        mv: Move,
        meta: PlyMeta,
        extra_piece: bool,
        legality: Option<Legality>,
    ) -> Result<Ply, PlayError> {
        let rules = &self.rules;
        let state = &self.boards[board.index()];
        let color = state.turn();
        let number = state.fullmoves();
        debug_assert!(
            legality
                .as_ref()
                .is_none_or(|l| *l == state.judge(rules, mv)),
            "{mv:?}"
        );
        let legality = legality.unwrap_or_else(|| state.judge(rules, mv));
        let text = crate::rules::san::move_text(state, rules, mv, &legality);
        let (after, applied) = played(state, mv, rules.promotion, extra_piece)?;
        let suffix = crate::rules::san::suffix(&after, rules);
        self.boards[board.index()] = after;
        if rules.boards == BoardCount::Bughouse {
            self.pass_on(board, color, applied);
        }
        Ok(Ply {
            board,
            color,
            number,
            mv,
            san: format!("{text}{suffix}"),
            legality,
            passed: applied.captured,
            removed_pawn: applied.removed_pawn,
            extra_piece: extra_piece && matches!(mv, Move::Put { .. }),
            meta,
        })
    }

    fn update_board_result(&mut self, index: usize) {
        let Some(ply) = self.record.get(index) else {
            return;
        };
        let board = ply.board;
        let t_ms = ply.meta.t_ms;
        let mover = ply.seat();
        let state = &self.boards[board.index()];
        // The SAN's `#` was judged on this very position with these rules: not again.
        if ply.gives_mate() {
            let mate = MatchResult {
                winner: Some(mover.team()),
                reason: EndReason::Checkmate {
                    loser: mover.opponent(),
                },
                t_ms,
            };
            self.board_result = Some(match &self.board_result {
                Some(first) if matches!(first.reason, EndReason::Checkmate { .. }) => {
                    // Both boards mated inside the window: Transfer Chess 7d.
                    if first.winner == mate.winner
                        || self.rules.simultaneous_mates != SimultaneousMatesRule::Draw
                    {
                        first.clone()
                    } else {
                        MatchResult {
                            winner: None,
                            reason: EndReason::SimultaneousMates,
                            t_ms,
                        }
                    }
                }
                _ => mate,
            });
        } else if self.board_result.is_none()
            && self.rules.stalemate == StalemateRule::Draw
            && state.is_stalemate(&self.rules)
        {
            self.board_result = Some(MatchResult {
                winner: None,
                reason: EndReason::Stalemate { board },
                t_ms,
            });
        }
    }

    /// Ends the match with a result the TD declared.
    pub fn declare(&mut self, result: MatchResult) {
        self.declared = Some(result);
    }

    /// The result of a flag-fall claim against `flagged`, by the preset: a win for the
    /// claimant's team, or a draw when the claimant lacks mating material where that
    /// matters (blitz 9a3, 10a4).
    #[must_use]
    pub fn flag_result(&self, flagged: Seat, t_ms: Option<Millis>) -> MatchResult {
        let claimant = flagged.opponent();
        if self.rules.flag_needs_mating_material
            && !self
                .board(claimant.board)
                .has_mating_material(claimant.color)
        {
            return MatchResult {
                winner: None,
                reason: EndReason::FlagWithoutMatingMaterial { seat: flagged },
                t_ms,
            };
        }
        MatchResult {
            winner: Some(claimant.team()),
            reason: EndReason::Flag { seat: flagged },
            t_ms,
        }
    }

    /// The opponent claims the illegal ply `index`. Under loss-on-claim rules the
    /// offender's team loses (a draw if the claimant has no mating material, blitz 10a4);
    /// under correction rules the move is taken back and the offender plays again.
    pub fn claim_illegal(
        &mut self,
        index: usize,
        t_ms: Option<Millis>,
    ) -> Result<ClaimOutcome, PlayError> {
        let ply = self.record.get(index).ok_or(PlayError::NoSuchPly(index))?;
        let offender = ply.seat();
        match self.rules.illegal_move {
            super::preset::IllegalMoveRule::LossOnClaim => {
                let claimant = offender.opponent();
                let result = if self.rules.flag_needs_mating_material
                    && !self
                        .board(claimant.board)
                        .has_mating_material(claimant.color)
                {
                    MatchResult {
                        winner: None,
                        reason: EndReason::TdDecision {
                            winner_text:
                                "Illegal move claimed; the claimant has no mating material: draw"
                                    .into(),
                        },
                        t_ms,
                    }
                } else {
                    MatchResult {
                        winner: Some(claimant.team()),
                        reason: EndReason::IllegalMoveClaimed { seat: offender },
                        t_ms,
                    }
                };
                self.declare(result.clone());
                Ok(ClaimOutcome::Ended(result))
            }
            super::preset::IllegalMoveRule::Corrected => {
                let taken_back = self.remove(index)?;
                Ok(ClaimOutcome::TakenBack(taken_back))
            }
        }
    }

    /// Withdraws a declared result (the TD changed their mind).
    pub fn undeclare(&mut self) {
        self.declared = None;
    }

    /// The declared result, if any.
    #[must_use]
    pub fn declared(&self) -> Option<&MatchResult> {
        self.declared.as_ref()
    }

    /// Replaces the move of ply `index` and plays the rest of the record again.
    pub fn replace_move(&mut self, index: usize, mv: Move) -> Result<(), PlayError> {
        self.replace_moves(&[(index, mv)])
    }

    /// Replaces several recorded moves at once (`(index, move)`), playing the rest again
    /// once: two plies that only make sense together (a move and the reply that takes
    /// or does not take on its square).
    pub fn replace_moves(&mut self, changes: &[(usize, Move)]) -> Result<(), PlayError> {
        let mut record = self.record.clone();
        for &(index, mv) in changes {
            let ply = record.get_mut(index).ok_or(PlayError::NoSuchPly(index))?;
            ply.mv = mv;
            ply.extra_piece = false;
        }
        self.refold(record)
    }

    /// Marks the drop at `index` as an extra piece (the TD was told no capture supplies
    /// it): it takes nothing from the reserve, and the plies after it are judged again.
    pub fn mark_extra_piece(&mut self, index: usize) -> Result<(), PlayError> {
        let mut record = self.record.clone();
        let ply = record.get_mut(index).ok_or(PlayError::NoSuchPly(index))?;
        if !matches!(ply.mv, Move::Put { .. }) || ply.extra_piece {
            return Ok(());
        }
        ply.extra_piece = true;
        self.refold(record)
    }

    /// Replaces the comment of ply `index` (no replay needed).
    pub fn set_comment(&mut self, index: usize, comment: Option<String>) -> Result<(), PlayError> {
        let ply = self
            .record
            .get_mut(index)
            .ok_or(PlayError::NoSuchPly(index))?;
        ply.meta.comment = comment;
        Ok(())
    }

    /// Inserts a ply at `index` (before the ply now there) and plays the rest again.
    pub fn insert(
        &mut self,
        index: usize,
        board: BoardId,
        mv: Move,
        meta: PlyMeta,
    ) -> Result<(), PlayError> {
        if index > self.record.len() {
            return Err(PlayError::NoSuchPly(index));
        }
        let mut record = self.record.clone();
        record.insert(
            index,
            Ply {
                board,
                color: Color::White,
                number: 0,
                mv,
                san: String::new(),
                legality: Legality::Legal,
                passed: None,
                removed_pawn: false,
                extra_piece: false,
                meta,
            },
        );
        self.refold(record)
    }

    /// Removes ply `index` (a takeback ruled by the TD) and plays the rest again.
    pub fn remove(&mut self, index: usize) -> Result<Ply, PlayError> {
        let mut record = self.record.clone();
        if index >= record.len() {
            return Err(PlayError::NoSuchPly(index));
        }
        let removed = record.remove(index);
        self.refold(record)?;
        Ok(removed)
    }

    /// Moves ply `from` to position `to` in the real-time order (e.g. a capture reported
    /// late, moved before the drop it fed) and plays the record again.
    pub fn reorder(&mut self, from: usize, to: usize) -> Result<(), PlayError> {
        let mut record = self.record.clone();
        if from >= record.len() || to >= record.len() {
            return Err(PlayError::NoSuchPly(from.max(to)));
        }
        let ply = record.remove(from);
        record.insert(to, ply);
        self.refold(record)
    }

    /// Plays `record` from the start positions; on success it becomes the record.
    fn refold(&mut self, record: Vec<Ply>) -> Result<(), PlayError> {
        // The plies before the first one changed come out as they were: they are only
        // moved on the boards, not judged and written again. Not when a board result
        // stands: it may have come from one of them (it is never undone, so without one
        // now there was none after any of them either).
        let unchanged = if self.board_result.is_none() {
            record
                .iter()
                .zip(&self.record)
                .take_while(|(new, old)| {
                    new.board == old.board && new.mv == old.mv && new.extra_piece == old.extra_piece
                })
                .count()
        } else {
            0
        };
        let mut fresh = Match {
            rules: self.rules.clone(),
            boards: self.start.clone(),
            start: self.start.clone(),
            record: Vec::with_capacity(record.len()),
            board_result: None,
            declared: None,
        };
        for (index, old) in record.into_iter().enumerate() {
            if index < unchanged {
                fresh
                    .move_pieces(old.board, old.mv, old.extra_piece)
                    .map_err(|error| PlayError::Replay { index, error })?;
                fresh.record.push(old);
                continue;
            }
            // What a later move takes is what stands on its square now: a piece changed
            // earlier (a promotion's piece named by the TD, say) is the one taken. A pawn's
            // capture of a pawn, onto the square a two-step just passed (now empty), takes
            // en passant, and one recorded en passant onto a pawn's one-step takes the pawn
            // standing there: the TD told which step a pawn the board never showed landing
            // made. Irregular moves (a diagonal step with nothing taken, an en passant with
            // no two-step before it) stay as recorded.
            let state = fresh.board(old.board);
            let taken = |to: Square| {
                state
                    .board()
                    .piece_at(to)
                    .filter(|p| p.color != state.turn())
                    .map(|p| p.role)
            };
            let mv = match old.mv {
                Move::Normal {
                    role: Role::Pawn,
                    from,
                    to,
                    capture: Some(Role::Pawn),
                    promotion: None,
                } if from.file() != to.file()
                    && state.ep_square() == Some(to)
                    && taken(to).is_none() =>
                {
                    Move::EnPassant { from, to }
                }
                Move::EnPassant { from, to }
                    if state.ep_square() != Some(to) && taken(to) == Some(Role::Pawn) =>
                {
                    Move::Normal {
                        role: Role::Pawn,
                        from,
                        capture: Some(Role::Pawn),
                        to,
                        promotion: None,
                    }
                }
                Move::Normal {
                    role,
                    from,
                    to,
                    promotion,
                    ..
                } => Move::Normal {
                    role,
                    from,
                    capture: taken(to),
                    to,
                    promotion,
                },
                other => other,
            };
            let ply = fresh
                .apply_ply(old.board, mv, old.meta, old.extra_piece, None)
                .map_err(|e| match e {
                    PlayError::Apply(error) => PlayError::Replay { index, error },
                    other => other,
                })?;
            fresh.record.push(ply);
            fresh.update_board_result(index);
        }
        fresh.declared = self.declared.take();
        *self = fresh;
        Ok(())
    }

    /// The boards as they were before ply `index` (0 = the start).
    #[must_use]
    pub fn boards_before(&self, index: usize) -> [BoardState; 2] {
        let mut m = Match::with_start(self.rules.clone(), self.start.clone());
        for ply in self.record.iter().take(index) {
            // Every ply in the record was applied once: it applies again.
            let _ = m.move_pieces(ply.board, ply.mv, ply.extra_piece);
        }
        m.boards
    }

    /// Moves the pieces of a ply already judged and written (its board, and a capture to
    /// the partner's reserve), as [`Match::apply_ply`] does without judging or writing it.
    fn move_pieces(
        &mut self,
        board: BoardId,
        mv: Move,
        extra_piece: bool,
    ) -> Result<(), ApplyError> {
        let state = &self.boards[board.index()];
        let color = state.turn();
        let (after, applied) = played(state, mv, self.rules.promotion, extra_piece)?;
        self.boards[board.index()] = after;
        if self.rules.boards == BoardCount::Bughouse {
            self.pass_on(board, color, applied);
        }
        Ok(())
    }

    /// Passes what a move on `board` by `color` captured (or removed) to the partner.
    fn pass_on(&mut self, board: BoardId, color: Color, applied: Applied) {
        let partner = &mut self.boards[board.other().index()];
        if let Some(role) = applied.captured {
            // The captured piece goes to the capturer's partner, in the partner's colour.
            partner.add_to_reserve(!color, role, 1);
        }
        if applied.removed_pawn {
            // Transfer 4c iii: deemed captured by the opponent, passed to the opponent's
            // partner: the mover's diagonal opponent, who plays the mover's colour.
            partner.add_to_reserve(color, Role::Pawn, 1);
        }
    }
}

/// The board after `mv`; a drop of an extra piece is played as if the piece came from
/// outside the reserve (the reserve keeps what it had).
fn played(
    state: &BoardState,
    mv: Move,
    promotion: crate::rules::Promotion,
    extra_piece: bool,
) -> Result<(BoardState, Applied), ApplyError> {
    match mv {
        Move::Put { role, .. } if extra_piece => {
            let mut from_outside = state.clone();
            from_outside.add_to_reserve(state.turn(), role, 1);
            from_outside.played(mv, promotion)
        }
        _ => state.played(mv, promotion),
    }
}
