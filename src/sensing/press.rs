//! Judging a clock press: which move (or moves) did the board show around it?
//!
//! The press message reaches the PC late (the board polls the clock) and the board reports
//! a square only when its scan passes it, so "the position at the press" is a judgement
//! over the board's recent history: the latest snapshot in which exactly one candidate
//! explains what the board shows better than "nothing moved", allowing the opponent to be
//! partway through the reply.

use shakmaty::{Bitboard, CastlingSide, Color, Move, Piece, Rank, Role, Square};

use super::cells::{Cell, Cells, Expect, Token, Tokens, expected};
use super::explain::{Residual, explain};
use crate::Millis;
use crate::rules::{BoardState, Legality, Promotion, RulesPreset};

/// The board's sensed cells at one moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub t_ms: Millis,
    pub cells: Cells,
}

/// The committed state of one board, as the sensing needs it.
#[derive(Clone, Copy, Debug)]
pub struct Committed<'a> {
    pub state: &'a BoardState,
    pub rules: &'a RulesPreset,
    /// Tokens of the promoted pieces on this board.
    pub tokens: &'a Tokens,
    /// Extra cells allowed on squares (a Transfer pawn awaiting removal).
    pub allowances: &'a [(Square, u16)],
}

impl Committed<'_> {
    #[must_use]
    pub fn expect(&self) -> Expect {
        expected(
            self.state.board(),
            self.state.promoted(),
            self.tokens,
            self.allowances,
        )
    }
}

/// One interpretation: the plies played since the last commit (the last by the presser).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub plies: Vec<Move>,
    /// What the sensors should show after the plies.
    pub expect: Expect,
    /// Token of every promoted piece after the plies.
    pub tokens: Tokens,
    /// Cells allowed beyond the record after the plies (a removal square).
    pub allowances: Vec<(Square, u16)>,
    /// Plies that are not legal moves (illegal or unjudged), counted for preference.
    pub irregular: u8,
}

/// The verdict on a press.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// One interpretation stands out.
    Commit {
        candidate: Candidate,
        residual: Residual,
        /// Index of the snapshot that decided it.
        snapshot: usize,
    },
    /// Several interpretations explain the board equally well (e.g. a piece still in hand,
    /// a hidden promoted piece that could have gone to several squares).
    Ambiguous {
        tied: Vec<Candidate>,
        residual: Residual,
    },
    /// Nothing explains the board better than "nothing moved"; `baseline` is what differs.
    Nothing { baseline: Residual },
}

/// Judges a press by `presser` over `history` (oldest first, latest last).
#[must_use]
pub fn judge_press(c: &Committed<'_>, presser: Color, history: &[Snapshot]) -> Verdict {
    let base_expect = c.expect();
    let mut first_ambiguity: Option<(Vec<Candidate>, Residual)> = None;
    let mut latest_baseline: Option<Residual> = None;
    for (index, snap) in history.iter().enumerate().rev() {
        let baseline = explain(&base_expect, &snap.cells, presser);
        if latest_baseline.is_none() {
            latest_baseline = Some(baseline.clone());
        }
        if baseline.is_exact() && !has_hidden(c) {
            continue;
        }
        let diff = base_expect.differences(&snap.cells);
        let mut scored: Vec<(Candidate, Residual)> = candidates(c, presser, diff, &snap.cells)
            .into_iter()
            .map(|cand| {
                let r = explain(&cand.expect, &snap.cells, presser);
                (cand, r)
            })
            .filter(|(cand, r)| {
                r.cost < baseline.cost || (r.cost == baseline.cost && moves_hidden_piece(c, cand))
            })
            .collect();
        if scored.is_empty() {
            continue;
        }
        scored.sort_by_key(|(cand, r)| (r.cost, cand.plies.len(), cand.irregular));
        let best = (
            scored[0].1.cost,
            scored[0].0.plies.len(),
            scored[0].0.irregular,
        );
        let tied: Vec<(Candidate, Residual)> = scored
            .into_iter()
            .take_while(|(cand, r)| (r.cost, cand.plies.len(), cand.irregular) == best)
            .collect();
        if tied.len() == 1 {
            let Some((candidate, residual)) = tied.into_iter().next() else {
                continue;
            };
            // An earlier ambiguity is settled only if this candidate was among the tied.
            if let Some((prior, _)) = &first_ambiguity
                && !prior.iter().any(|p| p.plies == candidate.plies)
            {
                continue;
            }
            return Verdict::Commit {
                candidate,
                residual,
                snapshot: index,
            };
        }
        if first_ambiguity.is_none() {
            let residual = tied[0].1.clone();
            first_ambiguity = Some((tied.into_iter().map(|(c, _)| c).collect(), residual));
        }
    }
    match first_ambiguity {
        Some((tied, residual)) => Verdict::Ambiguous { tied, residual },
        None => Verdict::Nothing {
            baseline: latest_baseline.unwrap_or_default(),
        },
    }
}

/// Judges a board without a clock: commits only an exact match for the side to move (one
/// ply, or that ply plus the opponent's reply) shown by the latest snapshot.
#[must_use]
pub fn judge_stable(c: &Committed<'_>, latest: &Cells) -> Option<Candidate> {
    let base_expect = c.expect();
    let diff = base_expect.differences(latest);
    if diff.is_empty() {
        return None;
    }
    let mover = c.state.turn();
    let mut exact: Vec<Candidate> = candidates(c, mover, diff, latest)
        .into_iter()
        .filter(|cand| cand.irregular == 0 && cand.expect.differences(latest).is_empty())
        .collect();
    if exact.is_empty() {
        // The opponent may have replied before the board was quiet: two plies.
        exact = two_ply(c, diff)
            .into_iter()
            .filter(|cand| cand.expect.differences(latest).is_empty())
            .collect();
    }
    if exact.len() == 1 { exact.pop() } else { None }
}

/// Does the candidate's last ply move a hidden promoted piece (a move the sensors cannot
/// see, which therefore never explains more than "nothing moved")?
fn moves_hidden_piece(c: &Committed<'_>, cand: &Candidate) -> bool {
    cand.plies.len() == 1
        && cand.plies[0]
            .from()
            .and_then(|f| c.tokens.get(f))
            .is_some_and(Token::is_hidden)
}

fn has_hidden(c: &Committed<'_>) -> bool {
    c.tokens.iter().any(|(_, t)| t.is_hidden())
}

/// Squares a move changes on the board.
#[must_use]
pub fn touched(m: Move) -> Bitboard {
    match m {
        Move::Normal { from, to, .. } => Bitboard::from_square(from).with(to),
        Move::EnPassant { from, to } => Bitboard::from_square(from)
            .with(to)
            .with(Square::from_coords(to.file(), from.rank())),
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_queen_side(rook < king);
            Bitboard::from_square(king)
                .with(rook)
                .with(Square::from_coords(side.king_to_file(), king.rank()))
                .with(Square::from_coords(side.rook_to_file(), rook.rank()))
        }
        Move::Put { to, .. } => Bitboard::from_square(to),
    }
}

/// Every interpretation worth scoring for a press by `presser`.
fn candidates(c: &Committed<'_>, presser: Color, diff: Bitboard, cells: &Cells) -> Vec<Candidate> {
    let turn = c.state.turn();
    if presser == turn {
        let mut out = one_ply(c, presser, diff, cells);
        if out.is_empty() {
            // Two presses missed (both players pressed between two clock polls): three plies.
            out = three_ply(c, diff);
        }
        out
    } else {
        // The opponent's press was missed: the opponent moved, then the presser.
        two_ply(c, diff)
    }
}

fn one_ply(c: &Committed<'_>, mover: Color, diff: Bitboard, cells: &Cells) -> Vec<Candidate> {
    let mut moves = relevant_legal_moves(c.state, c.rules, c.tokens, diff);
    for m in physical_moves(c, mover, diff, cells) {
        if !moves.contains(&m) {
            moves.push(m);
        }
    }
    moves
        .into_iter()
        .filter_map(|m| advance(c.state, c.rules, c.tokens, c.allowances, &[], m))
        .collect()
}

/// The side to move moves, then the other side: a missed press in between.
fn two_ply(c: &Committed<'_>, diff: Bitboard) -> Vec<Candidate> {
    let mut out = Vec::new();
    for m1 in relevant_legal_moves(c.state, c.rules, c.tokens, diff) {
        let Some((state1, tokens1, allow1)) = step(c.state, c.rules, c.tokens, c.allowances, m1)
        else {
            continue;
        };
        for m2 in relevant_legal_moves(&state1, c.rules, &tokens1, diff) {
            if let Some(cand) = advance(&state1, c.rules, &tokens1, &allow1, &[m1], m2) {
                out.push(cand);
            }
        }
    }
    out
}

fn three_ply(c: &Committed<'_>, diff: Bitboard) -> Vec<Candidate> {
    let mut out = Vec::new();
    for m1 in relevant_legal_moves(c.state, c.rules, c.tokens, diff) {
        let Some((s1, t1, a1)) = step(c.state, c.rules, c.tokens, c.allowances, m1) else {
            continue;
        };
        for m2 in relevant_legal_moves(&s1, c.rules, &t1, diff) {
            let Some((s2, t2, a2)) = step(&s1, c.rules, &t1, &a1, m2) else {
                continue;
            };
            for m3 in relevant_legal_moves(&s2, c.rules, &t2, diff) {
                if let Some(cand) = advance(&s2, c.rules, &t2, &a2, &[m1, m2], m3) {
                    out.push(cand);
                }
            }
        }
    }
    out
}

/// Legal moves that could show on the board: touching a differing square, or moving a
/// hidden piece (whose moves show nothing). Promotions to several pieces collapse to one
/// (the piece is read from the token later).
fn relevant_legal_moves(
    state: &BoardState,
    rules: &RulesPreset,
    tokens: &Tokens,
    diff: Bitboard,
) -> Vec<Move> {
    let hidden: Bitboard = tokens
        .iter()
        .filter(|(_, t)| t.is_hidden())
        .fold(Bitboard::EMPTY, |b, (s, _)| b.with(s));
    state
        .legal_moves(rules)
        .into_iter()
        .filter(|&m| {
            let from_hidden = m.from().is_some_and(|f| hidden.contains(f));
            touched(m).intersects(diff) || from_hidden
        })
        .filter(|&m| !matches!(m, Move::Normal { promotion: Some(r), .. } if r != Role::Queen))
        .collect()
}

/// Moves read straight off the differences for the presser's pieces, legal or not: a
/// piece gone from one square and the same piece on another (a capture if an opponent
/// stood there), a piece appearing from nowhere (a drop), a king two squares along its
/// back rank with its rook (castling).
fn physical_moves(c: &Committed<'_>, mover: Color, diff: Bitboard, cells: &Cells) -> Vec<Move> {
    let board = c.state.board();
    let mut gone: Vec<(Square, Piece)> = Vec::new();
    let mut came: Vec<(Square, Piece)> = Vec::new();
    for sq in diff {
        if let Some(p) = board.piece_at(sq)
            && p.color == mover
            && cells.get(sq).to_piece() != Some(p)
        {
            gone.push((sq, p));
        }
        if let Some(p) = cells.get(sq).to_piece()
            && p.color == mover
            && board.piece_at(sq) != Some(p)
        {
            came.push((sq, p));
        }
    }
    let mut out = Vec::new();
    for &(from, piece) in &gone {
        for &(to, seen) in &came {
            if from == to {
                continue;
            }
            let capture = board
                .piece_at(to)
                .filter(|p| p.color != mover)
                .map(|p| p.role);
            let last_rank = to.rank() == (!mover).backrank();
            if piece.role == Role::Pawn && last_rank {
                // The promotion piece is read from the token at commit; one candidate
                // stands for every choice.
                let promotion = match c.rules.promotion {
                    Promotion::Removal => None,
                    Promotion::Upgrade => Some(Role::Queen),
                };
                let _ = seen;
                out.push(Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture,
                    to,
                    promotion,
                });
                continue;
            }
            if seen != piece {
                continue;
            }
            if piece.role == Role::King && from.rank() == to.rank() && from.distance(to) == 2 {
                let rook_file = if to > from {
                    shakmaty::File::H
                } else {
                    shakmaty::File::A
                };
                let rook = Square::from_coords(rook_file, from.rank());
                if board.piece_at(rook) == Some(mover.rook()) {
                    out.push(Move::Castle { king: from, rook });
                }
            }
            if piece.role == Role::Pawn && from.file() != to.file() && capture.is_none() {
                let victim = Square::from_coords(to.file(), from.rank());
                if board.piece_at(victim) == Some((!mover).pawn()) {
                    out.push(Move::EnPassant { from, to });
                }
            }
            out.push(Move::Normal {
                role: piece.role,
                from,
                capture,
                to,
                promotion: None,
            });
        }
    }
    if gone.is_empty() {
        for &(to, seen) in &came {
            if seen.role != Role::King && board.piece_at(to).is_none() {
                out.push(Move::Put {
                    role: seen.role,
                    to,
                });
            }
        }
    }
    out
}

/// A board after one more ply: state, tokens, allowances.
type Stepped = (BoardState, Tokens, Vec<(Square, u16)>);

/// The state, tokens and allowances after `m`, or `None` if `m` cannot be played at all.
fn step(
    state: &BoardState,
    rules: &RulesPreset,
    tokens: &Tokens,
    allowances: &[(Square, u16)],
    m: Move,
) -> Option<Stepped> {
    let mover = state.turn();
    let mut next = state.clone();
    next.apply(m, rules.promotion).ok()?;
    let mut t = tokens.clone();
    let mut allow: Vec<(Square, u16)> = allowances
        .iter()
        .copied()
        .filter(|(sq, _)| !touched(m).contains(*sq))
        .collect();
    match m {
        Move::Normal {
            from,
            to,
            promotion,
            role,
            ..
        } if role == Role::Pawn
            || promotion.is_some()
            || t.get(from).is_some()
            || t.get(to).is_some() =>
        {
            let moving = t.remove(from);
            t.remove(to);
            if promotion.is_some() {
                t.set(to, Token::Unsettled);
            } else if let Some(tok) = moving {
                t.set(to, tok);
            } else if role == Role::Pawn
                && rules.promotion == Promotion::Removal
                && to.rank() == (!mover).backrank()
            {
                // Transfer 4c: the pawn is removed by the opponent, so for a while it may
                // still stand on the last rank.
                allow.push((to, Cell::piece(mover.pawn()).bit()));
            }
        }
        Move::Normal { to, .. } | Move::Put { to, .. } => {
            t.remove(to);
        }
        _ => {}
    }
    t.retain(next.promoted());
    Some((next, t, allow))
}

fn advance(
    state: &BoardState,
    rules: &RulesPreset,
    tokens: &Tokens,
    allowances: &[(Square, u16)],
    before: &[Move],
    m: Move,
) -> Option<Candidate> {
    let legal = state.judge(rules, m);
    let (next, t, allow) = step(state, rules, tokens, allowances, m)?;
    let expect = expected(next.board(), next.promoted(), &t, &allow);
    let mut plies = before.to_vec();
    plies.push(m);
    Some(Candidate {
        plies,
        expect,
        tokens: t,
        allowances: allow,
        irregular: u8::from(legal != Legality::Legal),
    })
}

/// The promotion piece a sensed token stands for: a spare piece of a kind names it; a
/// pawn, a pawn laid down (nothing seen) or anything else means a queen until the TD says.
#[must_use]
pub fn promotion_role(token: Cell, mover: Color) -> (Role, bool) {
    match token.to_piece() {
        Some(p)
            if p.color == mover
                && matches!(
                    p.role,
                    Role::Queen | Role::Rook | Role::Bishop | Role::Knight
                ) =>
        {
            (p.role, false)
        }
        _ => (Role::Queen, true),
    }
}

/// Is `m` a pawn reaching the last rank under upgrade rules (a promotion)?
#[must_use]
pub fn is_promotion(m: Move) -> bool {
    matches!(
        m,
        Move::Normal {
            promotion: Some(_),
            ..
        }
    )
}

/// The last rank for a colour's pawns.
#[must_use]
pub fn last_rank(c: Color) -> Rank {
    (!c).backrank()
}
