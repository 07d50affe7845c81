//! One board of a bughouse match: the position the players actually have.
//!
//! Over the board an illegal move stands until it is claimed, so a board must be able to
//! hold positions shakmaty refuses (the mover's own king left in check, a pawn dropped on
//! the back rank) and reserves that went below zero (a drop seen before the partner's
//! capture that feeds it). The truth is therefore kept in a raw [`Setup`] plus our own
//! reserves; a shakmaty [`Crazyhouse`] is built from it when first asked for after a change
//! (lazily: the sensing plays many candidate moves whose positions are never analysed) and
//! used for legality, mate and SAN whenever the position is analysable.

use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};
use shakmaty::{
    Bitboard, Board, ByColor, ByRole, CastlingMode, Color, EnPassantMode, FromSetup, Move, Piece,
    Position, PositionError, Rank, Role, Setup, Square, attacks, variant::Crazyhouse,
};

use super::preset::{DropMate, MateRule, Promotion, RulesPreset};

/// The droppable roles, in reserve display order.
pub const RESERVE_ROLES: [Role; 5] = [
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

/// Pieces in hand of one player. Counts may go below zero for a while: a drop can be seen
/// before the partner's capture that supplies it is reported.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Reserve {
    pub pawn: i8,
    pub knight: i8,
    pub bishop: i8,
    pub rook: i8,
    pub queen: i8,
}

impl Reserve {
    #[must_use]
    pub fn get(&self, role: Role) -> i8 {
        match role {
            Role::Pawn => self.pawn,
            Role::Knight => self.knight,
            Role::Bishop => self.bishop,
            Role::Rook => self.rook,
            Role::Queen => self.queen,
            Role::King => 0,
        }
    }

    /// Adds `n` (may be negative). Kings never enter a reserve.
    pub fn add(&mut self, role: Role, n: i8) {
        let slot = match role {
            Role::Pawn => &mut self.pawn,
            Role::Knight => &mut self.knight,
            Role::Bishop => &mut self.bishop,
            Role::Rook => &mut self.rook,
            Role::Queen => &mut self.queen,
            Role::King => return,
        };
        *slot = slot.saturating_add(n);
    }

    /// `(role, count)` for every role with a non-zero count, queen first.
    pub fn entries(&self) -> impl Iterator<Item = (Role, i8)> + '_ {
        RESERVE_ROLES
            .iter()
            .map(|&r| (r, self.get(r)))
            .filter(|&(_, n)| n != 0)
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries().next().is_none()
    }

    /// Counts clamped at zero, as shakmaty pockets.
    fn pocket(&self) -> ByRole<u8> {
        let c = |n: i8| u8::try_from(n.max(0)).unwrap_or(0);
        ByRole {
            pawn: c(self.pawn),
            knight: c(self.knight),
            bishop: c(self.bishop),
            rook: c(self.rook),
            queen: c(self.queen),
            king: 0,
        }
    }
}

/// Is a move legal, and if not, which rule does it break?
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Legality {
    Legal,
    Illegal(IllegalReason),
    /// The position is not analysable (it follows an illegal move that stood): the move
    /// is recorded as played, unjudged.
    Unjudged,
}

impl Legality {
    #[must_use]
    pub fn is_legal(&self) -> bool {
        matches!(self, Legality::Legal)
    }
}

/// The rule an illegal move breaks, in the players' words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum IllegalReason {
    /// The piece does not move that way (or the path is blocked).
    CannotMoveThere,
    /// The move leaves (or puts) the mover's own king in check.
    KingInCheck,
    /// Castling without the right (king or rook moved, a dropped rook), through or out of
    /// check, or across pieces.
    CastlingNotAllowed,
    /// A pawn reached the last rank without being promoted.
    MustPromote,
    /// Promotion to a piece these rules do not allow.
    PromotionNotAllowed,
    /// A drop of a piece the player does not have in reserve.
    NotInReserve,
    /// A pawn dropped outside the preset's pawn drop ranks.
    PawnDropRank,
    /// A piece dropped on a rank where this colour may not drop (Transfer Chess 4b iii).
    NoDropRank,
    /// A drop that gives mate where the rules forbid it (Transfer Chess 4b iv).
    DropMate,
    /// A drop onto an occupied square.
    SquareOccupied,
}

impl IllegalReason {
    /// The rule, as a comment for the record and the TD.
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            IllegalReason::CannotMoveThere => "the piece cannot move there",
            IllegalReason::KingInCheck => "leaves the king in check",
            IllegalReason::CastlingNotAllowed => "castling not allowed",
            IllegalReason::MustPromote => "a pawn on the last rank must be promoted",
            IllegalReason::PromotionNotAllowed => "promotion to that piece not allowed",
            IllegalReason::NotInReserve => "piece not in reserve",
            IllegalReason::PawnDropRank => "pawn dropped outside the allowed ranks",
            IllegalReason::NoDropRank => "no piece may be dropped on that rank",
            IllegalReason::DropMate => "a drop may not give mate",
            IllegalReason::SquareOccupied => "drop onto an occupied square",
        }
    }
}

/// What a move did that matters beyond its board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// The piece captured, as it goes to the partner: a captured promoted piece is a pawn.
    pub captured: Option<Role>,
    /// Transfer Chess 4c: the mover's pawn reached the last rank and was removed; it is
    /// deemed captured by the opponent.
    pub removed_pawn: bool,
}

/// Why a move cannot be applied at all (as opposed to being illegal but playable).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApplyError {
    #[error("no {0:?} of the side to move on the from-square")]
    NoSuchPiece(Role),
    #[error("the king cannot be captured (that is a claim)")]
    KingCapture,
    #[error("a move onto a square held by the mover's own piece")]
    OwnPiece,
    #[error("a king cannot be dropped")]
    KingDrop,
}

/// One board: position and both players' reserves.
#[derive(Clone, Debug)]
pub struct BoardState {
    /// The truth: pieces, promoted pieces, side to move, castling rights (carried forward,
    /// never rebuilt), en passant square, move counters. `pockets` is unused (see reserves).
    setup: Setup,
    reserves: ByColor<Reserve>,
    /// shakmaty's view, when the position is analysable; built on first use after a
    /// change (validating a setup costs more than playing a move on it).
    analysis: OnceLock<Option<Crazyhouse>>,
    /// shakmaty's legal moves of `analysis`, generated on first use: the sensing asks for
    /// the moves of the committed board again for every snapshot of every judgement, and
    /// generating them (drops on every empty square) costs far more than reading a list.
    /// Shared on clone: a board is cloned more often than its moves are asked for.
    legal: OnceLock<Arc<[Move]>>,
}

impl Default for BoardState {
    fn default() -> Self {
        Self::start()
    }
}

impl PartialEq for BoardState {
    fn eq(&self, other: &Self) -> bool {
        self.setup == other.setup && self.reserves == other.reserves
    }
}

impl BoardState {
    /// The standard start position with empty reserves.
    #[must_use]
    pub fn start() -> Self {
        Self::from_setup(Setup::default(), ByColor::default())
    }

    /// A board from a setup (pockets in the setup, if any, become the reserves unless
    /// `reserves` says otherwise) — for tests and positions read from FEN.
    #[must_use]
    pub fn from_setup(mut setup: Setup, reserves: ByColor<Reserve>) -> Self {
        let reserves = match setup.pockets.take() {
            Some(p) if reserves == ByColor::default() => ByColor {
                white: reserve_from_pocket(&p.white),
                black: reserve_from_pocket(&p.black),
            },
            _ => reserves,
        };
        BoardState {
            setup,
            reserves,
            analysis: OnceLock::new(),
            legal: OnceLock::new(),
        }
    }

    /// Parses a crazyhouse FEN (`[...]` pockets, `~` promoted pieces).
    pub fn from_fen(fen: &str) -> Result<Self, shakmaty::fen::ParseFenError> {
        let fen: shakmaty::fen::Fen = fen.parse()?;
        Ok(Self::from_setup(fen.into_setup(), ByColor::default()))
    }

    /// Forgets the analysis after a change; it is built again when asked for.
    fn rebuild(&mut self) {
        self.analysis = OnceLock::new();
        self.legal = OnceLock::new();
    }

    /// shakmaty's legal moves (before the preset's filters), worked out once per position.
    fn all_legal(&self) -> Option<&[Move]> {
        let pos = self.analysed()?;
        Some(
            self.legal
                .get_or_init(|| pos.legal_moves().as_slice().into()),
        )
    }

    fn analysed(&self) -> Option<&Crazyhouse> {
        self.analysis
            .get_or_init(|| analysable(&self.setup, &self.reserves))
            .as_ref()
    }

    #[must_use]
    pub fn board(&self) -> &Board {
        &self.setup.board
    }

    /// Squares holding promoted pieces (they go back as pawns when captured).
    #[must_use]
    pub fn promoted(&self) -> Bitboard {
        self.setup.promoted & self.setup.board.occupied()
    }

    #[must_use]
    pub fn turn(&self) -> Color {
        self.setup.turn
    }

    #[must_use]
    pub fn reserve(&self, color: Color) -> &Reserve {
        self.reserves.get(color)
    }

    #[must_use]
    pub fn reserves(&self) -> &ByColor<Reserve> {
        &self.reserves
    }

    /// Puts `n` pieces of `role` into `color`'s reserve (negative to take them out).
    pub fn add_to_reserve(&mut self, color: Color, role: Role, n: i8) {
        self.reserves.get_mut(color).add(role, n);
        self.rebuild();
    }

    /// Castling rights as rook squares, carried forward from the start.
    #[must_use]
    pub fn castling_rights(&self) -> Bitboard {
        self.setup.castling_rights
    }

    #[must_use]
    pub fn ep_square(&self) -> Option<Square> {
        self.setup.ep_square
    }

    /// Full-move number (starts at 1, increments after Black moves).
    #[must_use]
    pub fn fullmoves(&self) -> u32 {
        self.setup.fullmoves.get()
    }

    /// shakmaty's position, when the board is analysable.
    #[must_use]
    pub fn analysis(&self) -> Option<&Crazyhouse> {
        self.analysed()
    }

    /// The setup (pockets filled from the reserves, clamped at zero).
    #[must_use]
    pub fn setup(&self) -> Setup {
        let mut s = self.setup.clone();
        s.pockets = Some(ByColor {
            white: self.reserves.white.pocket(),
            black: self.reserves.black.pocket(),
        });
        s
    }

    /// Crazyhouse FEN of the board with reserves and promoted pieces.
    #[must_use]
    pub fn fen(&self) -> String {
        match shakmaty::fen::Fen::try_from_setup(self.setup()) {
            Ok(fen) => fen.to_string(),
            Err(lossy) => lossy.ignore().to_string(),
        }
    }

    /// Is the side to move in check?
    #[must_use]
    pub fn is_check(&self) -> bool {
        match self.analysed() {
            Some(pos) => pos.is_check(),
            None => self.raw_is_check(self.turn()),
        }
    }

    fn raw_is_check(&self, color: Color) -> bool {
        let board = &self.setup.board;
        board.king_of(color).is_some_and(|king| {
            board
                .attacks_to(king, !color, board.occupied())
                .intersects(board.by_color(!color))
        })
    }

    /// Every legal move and drop for the side to move under `rules`.
    #[must_use]
    pub fn legal_moves(&self, rules: &RulesPreset) -> Vec<Move> {
        match (self.analysed(), self.all_legal()) {
            (Some(pos), Some(all)) => filter_moves(pos, rules, all.iter().copied(), true),
            _ => Vec::new(),
        }
    }

    /// The legal board moves that `keep` selects and the legal drops onto `drop_squares`,
    /// in the order of [`BoardState::legal_moves`]. The sensing asks for the few moves
    /// touching the squares the board shows changed: the drops are worked out for those
    /// squares only, not read out of every drop on every empty square.
    pub fn legal_moves_showing(
        &self,
        rules: &RulesPreset,
        keep: impl Fn(&Move) -> bool,
        drop_squares: Bitboard,
    ) -> Vec<Move> {
        let (Some(pos), Some(all)) = (self.analysed(), self.all_legal()) else {
            return Vec::new();
        };
        // shakmaty lists the board moves first, then the drops.
        let board_moves = all.partition_point(|m| !m.is_put());
        let drops = legal_drops(pos, drop_squares);
        debug_assert_eq!(
            drops,
            all[board_moves..]
                .iter()
                .copied()
                .filter(|m| drop_squares.contains(m.to()))
                .collect::<Vec<_>>()
        );
        let moves = all[..board_moves].iter().copied().filter(keep).chain(drops);
        filter_moves(pos, rules, moves, true)
    }

    /// Judges `m` for the side to move.
    #[must_use]
    pub fn judge(&self, rules: &RulesPreset, m: Move) -> Legality {
        let Some(pos) = self.analysed() else {
            return Legality::Unjudged;
        };
        let color = self.turn();
        if let Move::Put { role, to } = m {
            return judge_drop(self, rules, color, role, to);
        }
        let legal = is_legal_under(pos, rules, m);
        debug_assert_eq!(legal, self.legal_moves(rules).contains(&m), "{m:?}");
        if legal {
            return Legality::Legal;
        }
        Legality::Illegal(self.why_illegal(pos, rules, m))
    }

    fn why_illegal(&self, pos: &Crazyhouse, rules: &RulesPreset, m: Move) -> IllegalReason {
        if let Move::Castle { .. } = m {
            return IllegalReason::CastlingNotAllowed;
        }
        if let Move::Normal {
            role: Role::Pawn,
            to,
            promotion,
            ..
        } = m
            && to.rank() == (!pos.turn()).backrank()
        {
            match (rules.promotion, promotion) {
                (Promotion::Upgrade, None) => return IllegalReason::MustPromote,
                (Promotion::Upgrade, Some(r)) if !rules.promotion_roles.contains(&r) => {
                    return IllegalReason::PromotionNotAllowed;
                }
                (Promotion::Removal, Some(_)) => return IllegalReason::PromotionNotAllowed,
                _ => {}
            }
        }
        // Same move with the promotion the position would accept: is it geometric?
        let geometric = self
            .all_legal()
            .unwrap_or_default()
            .iter()
            .any(|lm| same_path(*lm, m))
            || pseudo_legal_path(&self.setup.board, pos.turn(), m, pos.maybe_ep_square());
        if geometric {
            IllegalReason::KingInCheck
        } else {
            IllegalReason::CannotMoveThere
        }
    }

    /// Is the side to move mated, by `rules`' definition of mate?
    #[must_use]
    pub fn is_mate(&self, rules: &RulesPreset) -> bool {
        match rules.mate {
            MateRule::ChessMate => self.is_check() && self.legal_moves_unfiltered(rules).is_empty(),
            MateRule::TrueMate => self.is_true_mate(rules),
        }
    }

    /// Mate even if the mated side had one of every piece in reserve (drops obeying the
    /// preset's drop ranks): a check a drop could block is not mate.
    #[must_use]
    pub fn is_true_mate(&self, rules: &RulesPreset) -> bool {
        if !self.is_check() {
            return false;
        }
        let mut probe = self.reserves;
        let turn = self.turn();
        let r = probe.get_mut(turn);
        for role in RESERVE_ROLES {
            if r.get(role) < 1 {
                r.add(role, 1 - r.get(role));
            }
        }
        match analysable(&self.setup, &probe) {
            Some(pos) => filter_moves(&pos, rules, pos.legal_moves().into_iter(), false).is_empty(),
            None => false,
        }
    }

    /// Ordinary chess mate with the reserves as they are.
    #[must_use]
    pub fn is_chess_mate(&self, rules: &RulesPreset) -> bool {
        self.is_check() && self.legal_moves_unfiltered(rules).is_empty()
    }

    /// No legal move and not in check.
    #[must_use]
    pub fn is_stalemate(&self, rules: &RulesPreset) -> bool {
        // Not in check with a piece in hand, a drop on any empty square is a move (a pawn
        // only on some ranks, so it is left to the move generator).
        let in_hand = self.reserves.get(self.turn());
        let piece_in_hand = RESERVE_ROLES
            .iter()
            .any(|&r| r != Role::Pawn && in_hand.get(r) > 0);
        if piece_in_hand && !self.is_check() && self.setup.board.occupied() != Bitboard::FULL {
            return false;
        }
        self.analysed().is_some()
            && !self.is_check()
            && self.legal_moves_unfiltered(rules).is_empty()
    }

    /// Legal moves without the drop-mate filter (a drop that mates still escapes or
    /// blocks; used when asking whether the side to move has any move at all).
    fn legal_moves_unfiltered(&self, rules: &RulesPreset) -> Vec<Move> {
        match (self.analysed(), self.all_legal()) {
            (Some(pos), Some(all)) => filter_moves(pos, rules, all.iter().copied(), false),
            _ => Vec::new(),
        }
    }

    /// Does `color` have mating material by US Chess blitz 9c: a pawn, a rook, a queen,
    /// or two minor pieces (except two knights against a lone king)?
    #[must_use]
    pub fn has_mating_material(&self, color: Color) -> bool {
        let board = &self.setup.board;
        let ours = board.by_color(color);
        if (ours & (board.pawns() | board.rooks() | board.queens())).any() {
            return true;
        }
        let knights = (ours & board.knights()).count();
        let bishops = (ours & board.bishops()).count();
        if knights + bishops < 2 {
            return false;
        }
        let opponent_bare = (board.by_color(!color) & !board.kings()).is_empty();
        !(bishops == 0 && knights == 2 && opponent_bare)
    }

    /// Plays `m` for the side to move, legal or not, as the players did it. Returns what
    /// the move captured (demoted) for the caller to pass on.
    pub fn apply(&mut self, m: Move, promotion: Promotion) -> Result<Applied, ApplyError> {
        let color = self.setup.turn;
        let moved = move_pieces(
            &mut self.setup.board,
            &mut self.setup.promoted,
            color,
            m,
            promotion,
        )?;
        self.setup.castling_rights &= !moved.castling_lost;
        if let Move::Put { role, .. } = m {
            self.reserves.get_mut(color).add(role, -1);
        }
        self.setup.ep_square = moved.ep_square;
        self.setup.halfmoves = if moved.zeroing {
            0
        } else {
            self.setup.halfmoves.saturating_add(1)
        };
        if color.is_black() {
            self.setup.fullmoves = self.setup.fullmoves.saturating_add(1);
        }
        self.setup.turn = !color;
        self.rebuild();
        Ok(moved.applied)
    }

    /// The pieces and the promoted squares after `m` (see [`BoardState::apply`]), nothing
    /// else of the position: what the sensors will show. The sensing works this out for
    /// every reading of every press, and plays on from few of them.
    pub fn pieces_after(
        &self,
        m: Move,
        promotion: Promotion,
    ) -> Result<(Board, Bitboard), ApplyError> {
        let mut board = self.setup.board.clone();
        let mut promoted = self.setup.promoted;
        move_pieces(&mut board, &mut promoted, self.setup.turn, m, promotion)?;
        let promoted = promoted & board.occupied();
        Ok((board, promoted))
    }

    /// The board after `m` (see [`BoardState::apply`]), leaving this one as it was. Cheaper
    /// than cloning and applying: the analysis of this position is not copied, since the
    /// new one must be built afresh anyway.
    pub fn played(
        &self,
        m: Move,
        promotion: Promotion,
    ) -> Result<(BoardState, Applied), ApplyError> {
        let mut next = BoardState {
            setup: self.setup.clone(),
            reserves: self.reserves,
            analysis: OnceLock::new(),
            legal: OnceLock::new(),
        };
        let applied = next.apply(m, promotion)?;
        Ok((next, applied))
    }

    /// Hands the move to the other side without a move (used by the TD to correct the
    /// side to move, e.g. after a takeback).
    pub fn set_turn(&mut self, color: Color) {
        self.setup.turn = color;
        self.setup.ep_square = None;
        self.rebuild();
    }
}

fn reserve_from_pocket(p: &ByRole<u8>) -> Reserve {
    let c = |n: u8| i8::try_from(n).unwrap_or(i8::MAX);
    Reserve {
        pawn: c(p.pawn),
        knight: c(p.knight),
        bishop: c(p.bishop),
        rook: c(p.rook),
        queen: c(p.queen),
    }
}

/// What moving the pieces did besides the board: for [`BoardState::apply`].
struct Moved {
    applied: Applied,
    ep_square: Option<Square>,
    /// The move resets the fifty-move count (a capture, a pawn move, a pawn drop).
    zeroing: bool,
    /// Castling rights the move ends (its king moved, a rook's home square touched).
    castling_lost: Bitboard,
}

/// Moves the pieces of `m` by `color` on `board` (and its `promoted` squares), legal or
/// not; nothing is changed if it cannot be played at all.
fn move_pieces(
    board: &mut Board,
    promoted: &mut Bitboard,
    color: Color,
    m: Move,
    promotion: Promotion,
) -> Result<Moved, ApplyError> {
    let mut applied = Applied::default();
    let mut ep_square = None;
    let mut zeroing = false;
    let mut castling_lost = Bitboard::EMPTY;
    match m {
        Move::Normal {
            role,
            from,
            to,
            promotion: promote_to,
            ..
        } => {
            let mover = board.piece_at(from);
            if mover != Some(role.of(color)) {
                return Err(ApplyError::NoSuchPiece(role));
            }
            applied.captured = taken_on(board, *promoted, color, to)?;
            zeroing = applied.captured.is_some();
            if role == Role::Pawn {
                zeroing = true;
                let double =
                    (color.is_white() && from.rank() == Rank::Second && to.rank() == Rank::Fourth)
                        || (color.is_black()
                            && from.rank() == Rank::Seventh
                            && to.rank() == Rank::Fifth);
                if double && from.file() == to.file() {
                    ep_square = from.offset(if color.is_white() { 8 } else { -8 });
                }
            }
            if role == Role::King {
                castling_lost |= Bitboard::from_rank(color.backrank());
            }
            // Any move from or onto a rook's home square ends castling with that rook.
            castling_lost.add(from);
            castling_lost.add(to);
            let was_promoted = promoted.contains(from);
            promoted.discard(from);
            promoted.discard(to);
            board.discard_piece_at(from);
            let reaches_last = role == Role::Pawn && to.rank() == (!color).backrank();
            if reaches_last && promotion == Promotion::Removal && promote_to.is_none() {
                // Transfer Chess 4c: the pawn is removed at once.
                board.discard_piece_at(to);
                applied.removed_pawn = true;
            } else {
                let lands_as = promote_to.unwrap_or(role);
                board.set_piece_at(to, lands_as.of(color));
                promoted.set(to, was_promoted || promote_to.is_some());
            }
        }
        Move::EnPassant { from, to } => {
            if board.piece_at(from) != Some(color.pawn()) {
                return Err(ApplyError::NoSuchPiece(Role::Pawn));
            }
            let victim = Square::from_coords(to.file(), from.rank());
            if board.piece_at(victim) == Some((!color).pawn()) {
                board.discard_piece_at(victim);
                applied.captured = Some(Role::Pawn);
            }
            board.discard_piece_at(from);
            board.set_piece_at(to, color.pawn());
            zeroing = true;
        }
        Move::Castle { king, rook } => {
            if board.piece_at(king) != Some(color.king()) {
                return Err(ApplyError::NoSuchPiece(Role::King));
            }
            if board.piece_at(rook) != Some(color.rook()) {
                return Err(ApplyError::NoSuchPiece(Role::Rook));
            }
            let side = shakmaty::CastlingSide::from_queen_side(rook < king);
            board.discard_piece_at(king);
            board.discard_piece_at(rook);
            promoted.discard(rook);
            board.set_piece_at(
                Square::from_coords(side.rook_to_file(), rook.rank()),
                color.rook(),
            );
            board.set_piece_at(
                Square::from_coords(side.king_to_file(), king.rank()),
                color.king(),
            );
            castling_lost |= Bitboard::from_rank(color.backrank());
        }
        Move::Put { role, to } => {
            if role == Role::King {
                return Err(ApplyError::KingDrop);
            }
            // A piece standing there is physically impossible in a legal game; swept
            // off, it counts as captured so that no material is lost from the match.
            applied.captured = taken_on(board, *promoted, color, to)?;
            board.set_piece_at(to, role.of(color));
            promoted.discard(to);
            // A rook dropped on its home square never castles.
            castling_lost.add(to);
            zeroing = role == Role::Pawn;
        }
    }
    Ok(Moved {
        applied,
        ep_square,
        zeroing,
        castling_lost,
    })
}

/// What `color` takes by landing on `to`: nothing, or the piece standing there (a promoted
/// one as the pawn it goes back as); never an own piece or a king.
fn taken_on(
    board: &Board,
    promoted: Bitboard,
    color: Color,
    to: Square,
) -> Result<Option<Role>, ApplyError> {
    match board.piece_at(to) {
        Some(p) if p.color == color => Err(ApplyError::OwnPiece),
        Some(p) if p.role == Role::King => Err(ApplyError::KingCapture),
        Some(_) if promoted.contains(to) => Ok(Some(Role::Pawn)),
        Some(p) => Ok(Some(p.role)),
        None => Ok(None),
    }
}

/// shakmaty's legal drops onto `squares`, in its order (pieces square by square, then
/// pawns): onto an empty square, or between the king and a lone checker.
fn legal_drops(pos: &Crazyhouse, squares: Bitboard) -> Vec<Move> {
    let Some(pocket) = pos.pockets().map(|p| p.get(pos.turn())) else {
        return Vec::new();
    };
    let checkers = pos.checkers();
    let put = if checkers.is_empty() {
        !pos.board().occupied()
    } else {
        match (checkers.single_square(), pos.board().king_of(pos.turn())) {
            (Some(checker), Some(king)) => shakmaty::attacks::between(checker, king),
            _ => Bitboard::EMPTY,
        }
    };
    let targets = put & squares;
    let mut out = Vec::new();
    for to in targets {
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            if *pocket.get(role) > 0 {
                out.push(Move::Put { role, to });
            }
        }
    }
    if pocket.pawn > 0 {
        for to in targets & !Bitboard::BACKRANKS {
            out.push(Move::Put {
                role: Role::Pawn,
                to,
            });
        }
    }
    out
}

/// shakmaty's position for a setup and reserves, when one exists. Material beyond one
/// set is normal in bughouse; castling rights and en passant squares that no longer apply
/// are dropped from the analysis only (the setup keeps the truth). Pawns left on a back
/// rank by an illegal move cannot be analysed and are left out of the analysis.
fn analysable(setup: &Setup, reserves: &ByColor<Reserve>) -> Option<Crazyhouse> {
    let mut s = setup.clone();
    s.pockets = Some(ByColor {
        white: reserves.white.pocket(),
        black: reserves.black.pocket(),
    });
    let stray = s.board.pawns() & Bitboard::BACKRANKS;
    for sq in stray {
        s.board.discard_piece_at(sq);
    }
    Crazyhouse::from_setup(s, CastlingMode::Standard)
        .or_else(PositionError::ignore_too_much_material)
        .or_else(PositionError::ignore_invalid_castling_rights)
        .or_else(PositionError::ignore_invalid_ep_square)
        .or_else(PositionError::ignore_impossible_check)
        .ok()
}

/// Applies the preset's rules on top of shakmaty's crazyhouse moves: promotion pieces,
/// Transfer's pawn removal, drop ranks and (when `drop_mate_filter`) the drop-mate ban.
fn filter_moves(
    pos: &Crazyhouse,
    rules: &RulesPreset,
    moves: impl Iterator<Item = Move>,
    drop_mate_filter: bool,
) -> Vec<Move> {
    let color = pos.turn();
    let mut out = Vec::new();
    for m in moves {
        match m {
            Move::Put { role, to } => {
                if !rules.is_bughouse() {
                    continue;
                }
                if !rules.drop_rank_allowed(color, role, rank_number(to)) {
                    continue;
                }
                if drop_mate_filter
                    && rules.drop_mate == DropMate::Forbidden
                    && drop_gives_mate(pos, rules, m)
                {
                    continue;
                }
                out.push(m);
            }
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion: Some(p),
            } => match rules.promotion {
                Promotion::Upgrade => {
                    if rules.promotion_roles.contains(&p) {
                        out.push(m);
                    }
                }
                Promotion::Removal => {
                    // One removal move stands for all of shakmaty's promotion choices.
                    if p == Role::Queen {
                        out.push(Move::Normal {
                            role,
                            from,
                            capture,
                            to,
                            promotion: None,
                        });
                    }
                }
            },
            _ => out.push(m),
        }
    }
    out
}

/// Is the board move `m` among [`BoardState::legal_moves`]? Asked of shakmaty for this
/// one move rather than by generating every move (drops included): the sensing asks this
/// of every reading it considers.
fn is_legal_under(pos: &Crazyhouse, rules: &RulesPreset, m: Move) -> bool {
    match m {
        // A drop shakmaty allows, kept by the preset's drop rules.
        Move::Put { .. } => {
            pos.is_legal(m) && !filter_moves(pos, rules, std::iter::once(m), true).is_empty()
        }
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            let last_rank =
                role == Role::Pawn && to.rank() == pos.turn().fold_wb(Rank::Eighth, Rank::First);
            match (rules.promotion, promotion) {
                (Promotion::Upgrade, Some(p)) => {
                    rules.promotion_roles.contains(&p) && pos.is_legal(m)
                }
                // Under removal a promotion is written without a piece.
                (Promotion::Removal, Some(_)) => false,
                (Promotion::Removal, None) if last_rank => pos.is_legal(Move::Normal {
                    role,
                    from,
                    capture,
                    to,
                    promotion: Some(Role::Queen),
                }),
                _ => pos.is_legal(m),
            }
        }
        Move::EnPassant { .. } | Move::Castle { .. } => pos.is_legal(m),
    }
}

fn drop_gives_mate(pos: &Crazyhouse, rules: &RulesPreset, m: Move) -> bool {
    let mut after = BoardState::from_setup(pos.to_setup(EnPassantMode::Always), ByColor::default());
    if after.apply(m, rules.promotion).is_err() {
        return false;
    }
    after.is_check() && after.is_mate(rules)
}

fn judge_drop(
    state: &BoardState,
    rules: &RulesPreset,
    color: Color,
    role: Role,
    to: Square,
) -> Legality {
    if state.board().piece_at(to).is_some() {
        return Legality::Illegal(IllegalReason::SquareOccupied);
    }
    if role == Role::Pawn && !rules.drop_rank_allowed(color, role, rank_number(to)) {
        return Legality::Illegal(IllegalReason::PawnDropRank);
    }
    if !rules.drop_rank_allowed(color, role, rank_number(to)) {
        return Legality::Illegal(IllegalReason::NoDropRank);
    }
    // Judge the drop as if the piece were in hand, then report a missing piece last:
    // a drop seen before the partner's capture is reported is only late, not illegal.
    let mut with_piece = state.clone();
    if state.reserve(color).get(role) < 1 {
        with_piece.add_to_reserve(color, role, 1 - state.reserve(color).get(role));
    }
    let Some(hpos) = with_piece.analysis() else {
        return Legality::Unjudged;
    };
    let m = Move::Put { role, to };
    // The one drop asked of shakmaty, not every move generated to look for it.
    if !hpos.is_legal(m) {
        return Legality::Illegal(IllegalReason::KingInCheck);
    }
    if rules.drop_mate == DropMate::Forbidden && drop_gives_mate(hpos, rules, m) {
        return Legality::Illegal(IllegalReason::DropMate);
    }
    if state.reserve(color).get(role) < 1 {
        return Legality::Illegal(IllegalReason::NotInReserve);
    }
    Legality::Legal
}

/// `m` promoting to `piece` (`None`: no promotion); a drop or castling as it is. The
/// reading, the record and the BPGN each name a promotion's piece on a move they have.
#[must_use]
pub fn with_promotion(m: Move, piece: Option<Role>) -> Move {
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            ..
        } => Move::Normal {
            role,
            from,
            capture,
            to,
            promotion: piece,
        },
        other => other,
    }
}

/// Rank 1..=8 of a square.
#[must_use]
pub fn rank_number(sq: Square) -> u8 {
    u8::from(sq.rank()) + 1
}

/// Same piece path (from, to), ignoring the promotion piece.
fn same_path(a: Move, b: Move) -> bool {
    a.from() == b.from() && a.to() == b.to() && a.role() == b.role()
}

/// Can the piece on `from` reach `to` by its movement rules on this board, ignoring
/// whose king is in check? Used only to name the rule an illegal move breaks.
fn pseudo_legal_path(board: &Board, color: Color, m: Move, ep: Option<Square>) -> bool {
    let (Some(from), to) = (m.from(), m.to()) else {
        return false;
    };
    let Some(piece) = board.piece_at(from) else {
        return false;
    };
    let occupied = board.occupied();
    let target_ok = board.color_at(to) != Some(color);
    match piece.role {
        Role::Pawn => {
            let forward: i32 = if color.is_white() { 8 } else { -8 };
            let one = from.offset(forward);
            let captures = attacks::pawn_attacks(color, from);
            if captures.contains(to) {
                return board.color_at(to) == Some(!color) || Some(to) == ep;
            }
            if Some(to) == one {
                return !occupied.contains(to);
            }
            let start = if color.is_white() {
                Rank::Second
            } else {
                Rank::Seventh
            };
            from.rank() == start
                && one.is_some_and(|o| !occupied.contains(o))
                && from.offset(2 * forward) == Some(to)
                && !occupied.contains(to)
        }
        Role::King => target_ok && attacks::king_attacks(from).contains(to),
        role => target_ok && attacks::attacks(from, role.of(color), occupied).contains(to),
    }
}

/// The piece on a square, if any (convenience for callers without shakmaty imports).
#[must_use]
pub fn piece_at(state: &BoardState, sq: Square) -> Option<Piece> {
    state.board().piece_at(sq)
}
