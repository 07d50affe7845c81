//! The readings of a press: the presser's legal moves and drops, illegal readings of what
//! the board shows, moves of a hidden promoted piece, and two or three plies when presses
//! were missed.

use super::*;

/// Every interpretation worth scoring for a press by `presser`.
pub(super) fn candidates(
    c: &Committed<'_>,
    presser: Color,
    diff: Bitboard,
    cells: &Cells,
    depth: Depth,
) -> Vec<Candidate> {
    let turn = c.state.turn();
    if presser == turn {
        if depth == Depth::Three {
            return three_ply(c, diff, cells);
        }
        let mut out = one_ply(c, presser, diff, cells);
        if depth == Depth::Long {
            // Two presses missed (both players pressed between two clock polls): three plies.
            out.extend(three_ply(c, diff, cells));
        }
        out
    } else {
        // The opponent's press was missed: the opponent moved, then the presser.
        two_ply(c, diff, cells)
    }
}

pub(super) fn one_ply(
    c: &Committed<'_>,
    mover: Color,
    diff: Bitboard,
    cells: &Cells,
) -> Vec<Candidate> {
    let legal = relevant_legal_moves(c.state, c.rules, c.tokens, diff, true);
    let physical: Vec<Move> = physical_moves(c, mover, diff, cells)
        .into_iter()
        .filter(|m| !legal.contains(m))
        .collect();
    let known = |m: Move, legal: bool| (m, legal.then_some(Legality::Legal));
    let from = Start::new(c.state, c.tokens, c.allowances);
    // Sized up front: a reading is large, and growing the vector would copy them all.
    let mut out = Vec::with_capacity(legal.len() + physical.len());
    let moves = legal
        .into_iter()
        .map(|m| known(m, true))
        .chain(physical.into_iter().map(|m| known(m, false)));
    for (m, legality) in moves {
        advance(&mut out, &from, c.rules, &[], m, legality);
    }
    out
}

/// The side to move moves, then the other side: a missed press in between.
pub(super) fn two_ply(c: &Committed<'_>, diff: Bitboard, cells: &Cells) -> Vec<Candidate> {
    deep_or_whole(diff, |keep| two_ply_where(c, diff, cells, keep))
}

fn two_ply_where(
    c: &Committed<'_>,
    diff: Bitboard,
    cells: &Cells,
    keep: &dyn Fn(Move) -> bool,
) -> Option<Vec<Candidate>> {
    let mut out = Vec::new();
    for m1 in relevant_legal_moves(c.state, c.rules, c.tokens, diff, true) {
        if !keep(m1) {
            continue;
        }
        let m1 = named_by_token(m1, cells, c.state.turn());
        let Some((state1, tokens1, allow1)) = step(c.state, c.rules, c.tokens, c.allowances, m1)
        else {
            continue;
        };
        let unseen = unseen_move(m1, diff);
        let at = (&state1, &tokens1, allow1.as_slice());
        last_plies(&mut out, at, c.rules, diff, !unseen, &[m1], keep);
        let before = (c.state, c.tokens, c.allowances);
        for (other, (s, t, a), replies) in
            unnamed_promotions(c.rules, before, m1, at, cells, diff, !unseen, keep)
        {
            let from = Start::new(&s, &t, &a);
            for m2 in replies {
                advance(
                    &mut out,
                    &from,
                    c.rules,
                    &[other],
                    m2,
                    Some(Legality::Legal),
                );
            }
        }
        if out.len() > MAX_DEEP_CANDIDATES {
            return None;
        }
    }
    Some(out)
}

/// A promotion read as a queen whose token names no piece (a pawn, or nothing seen): the
/// other pieces it may be, each with the board after it and the next plies that could
/// show (`keep`) legal only if it is that piece, not a queen nor one listed before it (a
/// queen checks where a knight does not). Only the plies a queen would rule out: the rest
/// read the queen, asked of the TD as before.
#[allow(clippy::too_many_arguments)]
fn unnamed_promotions(
    rules: &RulesPreset,
    before: (&BoardState, &Tokens, &[(Square, u16)]),
    m: Move,
    queen: (&BoardState, &Tokens, &[(Square, u16)]),
    cells: &Cells,
    diff: Bitboard,
    unseen: bool,
    keep: &dyn Fn(Move) -> bool,
) -> Vec<(Move, Stepped, Vec<Move>)> {
    let (state, tokens, allowances) = before;
    let Move::Normal {
        to,
        promotion: Some(Role::Queen),
        ..
    } = m
    else {
        return Vec::new();
    };
    if !promotion_role(cells.get(to), state.turn()).1 {
        return Vec::new();
    }
    let mut covered = relevant_legal_moves(queen.0, rules, queen.1, diff, unseen);
    let mut out = Vec::new();
    for piece in [Role::Knight, Role::Rook, Role::Bishop] {
        if !rules.promotion_roles.contains(&piece) {
            continue;
        }
        let other = with_promotion(m, Some(piece));
        let Some(stepped) = step(state, rules, tokens, allowances, other) else {
            continue;
        };
        let mut replies = relevant_legal_moves(&stepped.0, rules, &stepped.1, diff, unseen);
        replies.retain(|&r| keep(r) && !covered.contains(&r));
        if replies.is_empty() {
            continue;
        }
        covered.extend(replies.iter().copied());
        out.push((other, stepped, replies));
    }
    out
}

/// The readings of several plies `build` makes, keeping every ply that touches a
/// differing square; if those are too many (the opponent's next move under way adds its
/// squares, and each ply may then be any move touching any of them), only plies whose
/// every square differs (or a hidden piece's, which shows nothing): a piece the board
/// showed leaving and landing. Beyond that too, none: the board is in chaos.
fn deep_or_whole(
    diff: Bitboard,
    build: impl Fn(&dyn Fn(Move) -> bool) -> Option<Vec<Candidate>>,
) -> Vec<Candidate> {
    build(&|_| true)
        .or_else(|| build(&|m| unseen_move(m, diff) || (touched(m) & !diff).is_empty()))
        .unwrap_or_default()
}

/// A move that changes no differing square: a lying pawn (a hidden promoted piece)
/// moving where the sensors cannot see it. One such move per reading: every one of them
/// explains the board equally, and pairs of them would multiply the readings by the
/// square of its moves for nothing the board could ever tell apart.
pub(super) fn unseen_move(m: Move, diff: Bitboard) -> bool {
    !touched(m).intersects(diff)
}

/// Beyond this many readings of several plies, only plies the board showed whole are
/// read (`deep_or_whole`); beyond this many of those, the board is in chaos (pieces swept
/// off, a board being set up), not two players pressing quickly: no deep reading is tried,
/// so that no report from a board can stall the arbiter.
pub(super) const MAX_DEEP_CANDIDATES: usize = 1500;

/// How many (reading, moment) pairs one press may score by cost. An ordinary press scores
/// a few hundred.
pub(super) const MAX_READINGS_SCORED: usize = 3_000;

pub(super) fn three_ply(c: &Committed<'_>, diff: Bitboard, cells: &Cells) -> Vec<Candidate> {
    deep_or_whole(diff, |keep| three_ply_where(c, diff, cells, keep))
}

fn three_ply_where(
    c: &Committed<'_>,
    diff: Bitboard,
    cells: &Cells,
    keep: &dyn Fn(Move) -> bool,
) -> Option<Vec<Candidate>> {
    let mut out = Vec::new();
    for m1 in relevant_legal_moves(c.state, c.rules, c.tokens, diff, true) {
        if !keep(m1) {
            continue;
        }
        let m1 = named_by_token(m1, cells, c.state.turn());
        let Some((s1, t1, a1)) = step(c.state, c.rules, c.tokens, c.allowances, m1) else {
            continue;
        };
        let unseen1 = unseen_move(m1, diff);
        for m2 in relevant_legal_moves(&s1, c.rules, &t1, diff, !unseen1) {
            if !keep(m2) {
                continue;
            }
            let m2 = named_by_token(m2, cells, !c.state.turn());
            let Some((s2, t2, a2)) = step(&s1, c.rules, &t1, &a1, m2) else {
                continue;
            };
            let unseen2 = unseen1 || unseen_move(m2, diff);
            let at = (&s2, &t2, a2.as_slice());
            last_plies(&mut out, at, c.rules, diff, !unseen2, &[m1, m2], keep);
            let before = (&s1, &t1, a1.as_slice());
            for (other, (s, t, a), last) in
                unnamed_promotions(c.rules, before, m2, at, cells, diff, !unseen2, keep)
            {
                let from = Start::new(&s, &t, &a);
                for m3 in last {
                    advance(
                        &mut out,
                        &from,
                        c.rules,
                        &[m1, other],
                        m3,
                        Some(Legality::Legal),
                    );
                }
            }
            if out.len() > MAX_DEEP_CANDIDATES {
                return None;
            }
        }
        // The first ply an unnamed promotion whose piece the next ply tells.
        let before = (c.state, c.tokens, c.allowances);
        let queen = (&s1, &t1, a1.as_slice());
        for (other, (s, t, a), replies) in
            unnamed_promotions(c.rules, before, m1, queen, cells, diff, !unseen1, keep)
        {
            for m2 in replies {
                let Some((s2, t2, a2)) = step(&s, c.rules, &t, &a, m2) else {
                    continue;
                };
                let unseen2 = unseen1 || unseen_move(m2, diff);
                let at = (&s2, &t2, a2.as_slice());
                last_plies(&mut out, at, c.rules, diff, !unseen2, &[other, m2], keep);
            }
        }
        if out.len() > MAX_DEEP_CANDIDATES {
            return None;
        }
    }
    Some(out)
}

/// A promotion read among the legal moves stands for every piece, as a queen, and its
/// piece is read from the token at commit. Before another ply of the same reading, though,
/// the piece decides what that ply may do (a queen checks where a rook does not): a spare
/// piece of another kind standing on the promotion square names it there.
fn named_by_token(m: Move, cells: &Cells, mover: Color) -> Move {
    match m {
        Move::Normal {
            to,
            promotion: Some(_),
            ..
        } => match promotion_role(cells.get(to), mover) {
            (named, false) => with_promotion(m, Some(named)),
            _ => m,
        },
        _ => m,
    }
}

/// The readings `before`, then each legal move that could show on the board (`unseen`:
/// or one the sensors cannot see, a hidden promoted piece's) from the board `at` (state,
/// tokens, allowances) they lead to.
fn last_plies(
    out: &mut Vec<Candidate>,
    at: (&BoardState, &Tokens, &[(Square, u16)]),
    rules: &RulesPreset,
    diff: Bitboard,
    unseen: bool,
    before: &[Move],
    keep: &dyn Fn(Move) -> bool,
) {
    let (state, tokens, allowances) = at;
    let mut moves = relevant_legal_moves(state, rules, tokens, diff, unseen);
    moves.retain(|&m| keep(m));
    // Most boards after a first ply offer nothing that shows: no expectation worked out.
    if moves.is_empty() {
        return;
    }
    let from = Start::new(state, tokens, allowances);
    out.reserve(moves.len());
    for m in moves {
        advance(out, &from, rules, before, m, Some(Legality::Legal));
    }
}

/// Legal moves that could show on the board: touching a differing square, or moving a
/// hidden piece (whose moves show nothing). Promotions to several pieces collapse to one
/// (the piece is read from the token later).
pub(super) fn relevant_legal_moves(
    state: &BoardState,
    rules: &RulesPreset,
    tokens: &Tokens,
    diff: Bitboard,
    unseen: bool,
) -> Vec<Move> {
    let hidden: Bitboard = tokens
        .iter()
        .filter(|(_, t)| t.may_be_unseen())
        .fold(Bitboard::EMPTY, |b, (s, _)| b.with(s));
    // A drop shows only on its square (a hidden piece is never dropped).
    let keep = |&m: &Move| {
        let shows = match m {
            Move::Normal {
                promotion: Some(r), ..
            } if r != Role::Queen => return false,
            Move::Normal { from, to, .. } => diff.contains(from) || diff.contains(to),
            _ => touched(m).intersects(diff),
        };
        shows || (unseen && m.from().is_some_and(|f| hidden.contains(f)))
    };
    state.legal_moves_showing(rules, keep, diff)
}

/// Moves read straight off the differences for the presser's pieces, legal or not: a
/// piece gone from one square and the same piece on another (a capture if an opponent
/// stood there), a piece appearing from nowhere (a drop), a king two squares along its
/// back rank with its rook (castling).
pub(super) fn physical_moves(
    c: &Committed<'_>,
    mover: Color,
    diff: Bitboard,
    cells: &Cells,
) -> Vec<Move> {
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
            // En passant only in its own shape: one file across, one rank forward (an
            // irregular pawn move two files over would take a pawn that no capture could).
            let ahead = if mover.is_white() { 1 } else { -1 };
            let ep_shaped = from.file().distance(to.file()) == 1
                && i32::from(to.rank()) - i32::from(from.rank()) == ahead;
            if piece.role == Role::Pawn && ep_shaped && capture.is_none() {
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
    // A piece from nowhere is a drop only where there are reserves: in single-board chess
    // it is an unexplained piece, never a move.
    if gone.is_empty() && c.rules.is_bughouse() {
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
pub(super) type Stepped = (BoardState, Tokens, Vec<(Square, u16)>);

/// The state, tokens and allowances after `m`, or `None` if `m` cannot be played at all.
pub(super) fn step(
    state: &BoardState,
    rules: &RulesPreset,
    tokens: &Tokens,
    allowances: &[(Square, u16)],
    m: Move,
) -> Option<Stepped> {
    let (next, _) = state.played(m, rules.promotion).ok()?;
    let (t, allow) = marks_after(state.turn(), rules, tokens, allowances, m, next.promoted());
    Some((next, t, allow))
}

/// The tokens and allowances after `mover` played `m`, the promoted squares then being
/// `promoted`.
fn marks_after(
    mover: Color,
    rules: &RulesPreset,
    tokens: &Tokens,
    allowances: &[(Square, u16)],
    m: Move,
    promoted: Bitboard,
) -> (Tokens, Vec<(Square, u16)>) {
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
    t.retain(promoted);
    (t, allow)
}

/// A board the readings start from: state, tokens, allowances, and what the sensors should
/// show on it (each reading's expectation is worked out from it, square by square).
pub(super) struct Start<'a> {
    state: &'a BoardState,
    tokens: &'a Tokens,
    allowances: &'a [(Square, u16)],
    expect: Expect,
}

impl<'a> Start<'a> {
    pub(super) fn new(
        state: &'a BoardState,
        tokens: &'a Tokens,
        allowances: &'a [(Square, u16)],
    ) -> Start<'a> {
        Start {
            state,
            tokens,
            allowances,
            expect: expected(state.board(), state.promoted(), tokens, allowances),
        }
    }
}

/// The reading `before` then `m` from the board `from`, added to `out` unless `m` cannot
/// be played at all. Built where it is kept: a reading is large, and passing it back
/// would copy it again on its way into the vector.
pub(super) fn advance(
    out: &mut Vec<Candidate>,
    from: &Start<'_>,
    rules: &RulesPreset,
    before: &[Move],
    m: Move,
    known: Option<Legality>,
) {
    let Start {
        state,
        tokens,
        allowances,
        expect: ref base,
    } = *from;
    // Moves generated as legal need no judging again (for a drop, judging asks whether it
    // mates, which is dear).
    let legal = known.unwrap_or_else(|| state.judge(rules, m));
    // Only the pieces after the move: the rest of the position is never asked of a
    // reading's last ply.
    let Ok((board, promoted)) = state.pieces_after(m, rules.promotion) else {
        return;
    };
    let (t, allow) = marks_after(state.turn(), rules, tokens, allowances, m, promoted);
    let expect = expected_after(
        base,
        (state.board(), state.promoted(), tokens, allowances),
        (&board, promoted, &t, &allow),
    );
    // At most two plies before (three-ply readings): they fit.
    let plies: Plies = before.iter().copied().chain([m]).collect();
    let off_pattern = plies.iter().rev().enumerate().any(|(i, p)| {
        let color = if i % 2 == 0 {
            state.turn()
        } else {
            !state.turn()
        };
        !on_pattern(*p, color)
    });
    let hidden_landing = t.get(move_landing(m)).is_some_and(Token::is_hidden);
    out.push(Candidate {
        plies,
        expect,
        tokens: t,
        allowances: allow,
        irregular: u8::from(legal != Legality::Legal),
        off_pattern,
        hidden_landing,
    });
}

/// Could a piece of this kind go from `from` to `to` on an empty board?
/// A pawn goes diagonally only to capture: onto an empty square that is no pattern of its
/// (en passant is a move of its own).
pub(super) fn on_pattern(m: Move, color: Color) -> bool {
    let Move::Normal {
        role,
        from,
        to,
        capture,
        ..
    } = m
    else {
        return true;
    };
    use shakmaty::attacks;
    match role {
        Role::Pawn => {
            let forward = if color == Color::White { 1 } else { -1 };
            let step = i32::from(to.rank()) - i32::from(from.rank());
            let double_from = if color == Color::White {
                Rank::Second
            } else {
                Rank::Seventh
            };
            (capture.is_some() && attacks::pawn_attacks(color, from).contains(to))
                || (from.file() == to.file()
                    && (step == forward || (step == 2 * forward && from.rank() == double_from)))
        }
        Role::Knight => attacks::knight_attacks(from).contains(to),
        Role::King => attacks::king_attacks(from).contains(to),
        Role::Bishop => attacks::bishop_attacks(from, Bitboard::EMPTY).contains(to),
        Role::Rook => attacks::rook_attacks(from, Bitboard::EMPTY).contains(to),
        Role::Queen => attacks::queen_attacks(from, Bitboard::EMPTY).contains(to),
    }
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
