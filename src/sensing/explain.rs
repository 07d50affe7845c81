//! Explaining what differs between the record and the sensors.
//!
//! After a player (the *mover*) completes a move, the board may still differ from the
//! record: the opponent may already be partway through the reply (a piece in hand, a
//! victim lifted, the reply completed before the press message arrived), or something is
//! wrong (a piece knocked onto another square, a piece gone, a piece nothing explains).
//! [`explain`] sorts the differences into "the opponent partway through one move", which
//! costs little, and anomalies, which cost much; the sensing compares candidate moves by
//! that cost.

use shakmaty::{Bitboard, Board, Color, Piece, Rank, Role, Square, attacks};

use super::cells::{Cell, Cells, Expect};
use crate::rules::Reserve;

/// Cost of one square explained as the opponent's move in progress.
pub const IN_PROGRESS_COST: u32 = 1;
/// Cost of one anomaly (a displaced pair counts once).
pub const ANOMALY_COST: u32 = 10;

/// Something on the board that no move in progress explains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Anomaly {
    /// A piece that belongs on `from` stands on `to`.
    Displaced {
        piece: Piece,
        from: Square,
        to: Square,
    },
    /// A piece the record has on `square` is not on the board.
    Missing { piece: Piece, square: Square },
    /// A piece on `square` that the record does not explain (`found` is the sensed cell).
    Unexplained { square: Square, found: Cell },
}

impl Anomaly {
    /// The square the anomaly is reported on (where a displaced piece belongs).
    #[must_use]
    pub fn square(&self) -> Square {
        match *self {
            Anomaly::Displaced { from, .. } => from,
            Anomaly::Missing { square, .. } | Anomaly::Unexplained { square, .. } => square,
        }
    }

    /// The colour concerned, when there is one.
    #[must_use]
    pub fn color(&self) -> Option<Color> {
        match *self {
            Anomaly::Displaced { piece, .. } | Anomaly::Missing { piece, .. } => Some(piece.color),
            Anomaly::Unexplained { found, .. } => found.color(),
        }
    }
}

/// The differences between record and board, explained.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Residual {
    pub cost: u32,
    /// Squares explained as the opponent partway through one move.
    pub in_progress: Bitboard,
    pub anomalies: Vec<Anomaly>,
}

impl Residual {
    #[must_use]
    pub fn is_exact(&self) -> bool {
        self.cost == 0
    }
}

#[derive(Clone, Copy, Debug)]
enum Diff {
    /// The mover's piece expected, nothing seen.
    MoverMissing(Piece),
    /// The mover's piece expected, an opponent piece seen: captured in progress/done.
    OppOnMover(Piece),
    /// An opponent piece expected, nothing seen.
    OppLifted(Piece),
    /// Expected empty, an opponent piece seen.
    OppPlaced(Piece),
    /// Expected empty, a mover's piece seen.
    MoverExtra(Piece),
    /// Anything else: a different piece of the expected side, a mover's piece on an
    /// opponent's square, an unknown token.
    Odd(Cell),
}

/// Explains `cells` against `expect` when `mover` has just completed a move: the other
/// side may be partway through exactly one move (or castling); anything beyond is an
/// anomaly.
#[must_use]
pub fn explain(expect: &Expect, cells: &Cells, mover: Color) -> Residual {
    explain_with(expect, cells, mover, None)
}

/// Like [`explain`], knowing the opponent's reserve: a piece of theirs appearing with no
/// piece lifted is then a drop only if they hold that piece (or a piece of that kind could
/// be coming from a square not reported yet).
#[must_use]
pub fn explain_with(
    expect: &Expect,
    cells: &Cells,
    mover: Color,
    opp_reserve: Option<&Reserve>,
) -> Residual {
    explain_before(expect, cells, mover, opp_reserve, Bitboard::EMPTY)
}

/// Like [`explain_with`], knowing that the squares `before` changed before the opponent's
/// move could begin (before the mover's move was on the board): a piece of the mover gone
/// from one of them is no victim of that move.
#[must_use]
pub fn explain_before(
    expect: &Expect,
    cells: &Cells,
    mover: Color,
    opp_reserve: Option<&Reserve>,
    before: Bitboard,
) -> Residual {
    let diff = expect.differences(cells);
    if diff.is_empty() {
        return Residual::default();
    }
    let opp = !mover;
    // At most 64 differences: kept on the stack (this runs for every field update).
    let mut buf = [(Square::A1, Diff::Odd(Cell::EMPTY)); 64];
    let mut n = 0;
    for sq in diff {
        let found = cells.get(sq);
        // A piece the record no longer has but the square may still show (a Transfer pawn
        // awaiting removal): anything else found there was set down on a square the
        // record has empty (the pawn was removed), never taken off the pawn.
        let (exp_color, exp_piece) = if expect.logical(sq).is_none() && !found.is_empty() {
            (None, None)
        } else {
            (expect.color(sq), expect_piece(expect, sq))
        };
        let d = match (found.to_piece(), exp_color) {
            (None, _) if found.is_unknown() => Diff::Odd(found),
            (None, Some(c)) => match exp_piece {
                Some(p) if c == mover => Diff::MoverMissing(p),
                Some(p) => Diff::OppLifted(p),
                None => Diff::Odd(found),
            },
            (None, None) => Diff::Odd(found),
            (Some(p), Some(c)) if c == mover && p.color == opp => Diff::OppOnMover(p),
            (Some(p), None) if p.color == opp => Diff::OppPlaced(p),
            (Some(p), None) => Diff::MoverExtra(p),
            (Some(p), Some(_)) => {
                // A piece where another piece was expected (different kind or colour).
                let _ = p;
                Diff::Odd(found)
            }
        };
        buf[n] = (sq, d);
        n += 1;
    }
    let diffs = &buf[..n];
    // Try every consistent "opponent partway through one move" and keep the cheapest
    // whole explanation (a knocked piece must not pass for a capture victim when pairing
    // it as displaced explains more).
    let board = expect.board();
    // Scored by cost alone first (no allocation: this is the arbiter's inner loop); the
    // anomalies are listed for the winner only.
    let mut best: Option<(u32, u32, u64)> = None;
    let not_victims = diffs
        .iter()
        .enumerate()
        .filter(|(_, (sq, _))| before.contains(*sq))
        .fold(0u64, |m, (i, _)| m | 1 << i);
    for_each_opponent_move(diffs, opp, board, opp_reserve, not_victims, |set| {
        let len = set.count_ones();
        let cost = len * IN_PROGRESS_COST + anomaly_cost(diffs, set, expect);
        let better = match best {
            None => true,
            Some((b_cost, b_len, _)) => {
                (cost, std::cmp::Reverse(len)) < (b_cost, std::cmp::Reverse(b_len))
            }
        };
        if better {
            best = Some((cost, len, set));
        }
    });
    let Some((cost, _, set)) = best else {
        return Residual::default();
    };
    let mut r = Residual::default();
    for i in bits(set) {
        r.cost += IN_PROGRESS_COST;
        r.in_progress.add(diffs[i].0);
    }
    collect_anomalies(diffs, set, expect, &mut r);
    debug_assert_eq!(r.cost, cost, "cost-only scoring agrees with the listing");
    r
}

/// What [`collect_anomalies`] would charge for the differences not in `used`: every odd
/// square, and per piece the larger of its missing and its unexplained count (a missing
/// piece paired with the same piece elsewhere is one displaced piece).
fn anomaly_cost(diffs: &[(Square, Diff)], used: u64, expect: &Expect) -> u32 {
    let mut missing = [0u32; 12];
    let mut extra = [0u32; 12];
    let mut odd = 0u32;
    let slot = |p: Piece| p.color as usize * 6 + (p.role as usize - 1);
    for (i, &(sq, d)) in diffs.iter().enumerate() {
        if used & (1 << i) != 0 {
            continue;
        }
        match d {
            Diff::MoverMissing(p) | Diff::OppLifted(p) => missing[slot(p)] += 1,
            Diff::MoverExtra(p) | Diff::OppPlaced(p) => extra[slot(p)] += 1,
            Diff::OppOnMover(p) => {
                if let Some(mp) = expect_piece(expect, sq) {
                    missing[slot(mp)] += 1;
                }
                extra[slot(p)] += 1;
            }
            Diff::Odd(_) => odd += 1,
        }
    }
    let paired: u32 = missing.iter().zip(&extra).map(|(m, e)| *m.max(e)).sum();
    (odd + paired) * ANOMALY_COST
}

/// The pieces the record has on the board (a promoted piece as what it stands for).
#[must_use]
pub fn expected_board(expect: &Expect) -> Board {
    expect.board().clone()
}

/// The piece a square expects, taking a promoted piece's token as the piece it stands for
/// (and a piece allowed beyond the record, such as a Transfer pawn awaiting removal, as
/// itself).
fn expect_piece(expect: &Expect, sq: Square) -> Option<Piece> {
    expect.board().piece_at(sq)
}

/// Calls `f` with every set of differences (as a mask of their indices) that together can
/// be the opponent partway through one move, or castling; the empty set included. Sets
/// are masks and nothing is collected: this is the inner loop of every explanation.
fn for_each_opponent_move(
    diffs: &[(Square, Diff)],
    opp: Color,
    board: &Board,
    opp_reserve: Option<&Reserve>,
    not_victims: u64,
    mut f: impl FnMut(u64),
) {
    let lifted = mask_of(diffs, |d| matches!(d, Diff::OppLifted(_)));
    let placed = mask_of(diffs, |d| {
        matches!(d, Diff::OppPlaced(_) | Diff::OppOnMover(_))
    }) & !not_victims;
    let victims = mask_of(diffs, |d| matches!(d, Diff::MoverMissing(_))) & !not_victims;

    // Castling in progress: only king and rook lifted/placed, at most two of each, all on
    // the castler's back rank (a king slides along it to its square, a rook too; a king
    // set down on e6 is no castling, whatever else is lifted).
    let back = opp.backrank();
    let is_kr = |i: usize| match diffs[i] {
        (sq, Diff::OppLifted(p) | Diff::OppPlaced(p)) => {
            p.color == opp && matches!(p.role, Role::King | Role::Rook) && sq.rank() == back
        }
        _ => false,
    };
    let has_king = |i: usize| matches!(diffs[i].1, Diff::OppLifted(p) | Diff::OppPlaced(p) if p.role == Role::King);
    let kr_lifted = bits(lifted)
        .filter(|&i| is_kr(i))
        .fold(0u64, |m, i| m | 1 << i);
    let kr_placed = bits(placed)
        .filter(|&i| is_kr(i))
        .fold(0u64, |m, i| m | 1 << i);
    let (n_lifted, n_placed) = (kr_lifted.count_ones(), kr_placed.count_ones());
    if (n_lifted == 2 || n_placed == 2)
        && n_lifted <= 2
        && n_placed <= 2
        && bits(kr_lifted | kr_placed).any(has_king)
    {
        f(kr_lifted | kr_placed);
    }

    // One ordinary move: at most one piece lifted, one placed (possibly onto the mover's
    // piece), one victim lifted first; the placed kind must be the lifted kind (a pawn may
    // land on the last rank as anything: promotion).
    let opt = |m: u64| std::iter::once(None).chain(bits(m).map(Some));
    for l in opt(lifted) {
        for p in opt(placed) {
            if !kinds_fit(diffs, l, p) {
                continue;
            }
            for v in opt(victims) {
                if victim_fits(diffs, l, p, v)
                    && reach_fits(board, diffs, opp, l, p, v, opp_reserve)
                {
                    f([l, p, v]
                        .into_iter()
                        .flatten()
                        .fold(0u64, |m, i| m | 1 << i));
                }
            }
        }
    }
}

/// The indices of the differences `f` selects, as a mask.
fn mask_of(diffs: &[(Square, Diff)], f: impl Fn(&Diff) -> bool) -> u64 {
    diffs
        .iter()
        .enumerate()
        .filter(|(_, (_, d))| f(d))
        .fold(0, |m, (i, _)| m | 1 << i)
}

/// The indices in a mask, lowest first.
fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        Some(i)
    })
}

fn kinds_fit(diffs: &[(Square, Diff)], lifted: Option<usize>, placed: Option<usize>) -> bool {
    let (Some(l), Some(p)) = (lifted, placed) else {
        // A lift alone (piece in hand), or a placement alone (a drop, or the new square
        // reported before the old one emptied): both fine.
        return true;
    };
    let Diff::OppLifted(lp) = diffs[l].1 else {
        return false;
    };
    let (placed_piece, to) = match diffs[p] {
        (sq, Diff::OppPlaced(pp) | Diff::OppOnMover(pp)) => (pp, sq),
        _ => return false,
    };
    if placed_piece.role == lp.role {
        return true;
    }
    // Promotion: a pawn lands on the last rank as a spare piece.
    lp.role == Role::Pawn && to.rank() == (!lp.color).backrank()
}

fn victim_fits(
    diffs: &[(Square, Diff)],
    lifted: Option<usize>,
    placed: Option<usize>,
    victim: Option<usize>,
) -> bool {
    let Some(v) = victim else {
        return true;
    };
    let Some(p) = placed else {
        // Victim lifted first, the capturing piece still on its square or in hand.
        return true;
    };
    // Victim on one square, capturer placed on another: only en passant does that.
    let (vsq, Diff::MoverMissing(vp)) = diffs[v] else {
        return false;
    };
    let (psq, Diff::OppPlaced(pp)) = diffs[p] else {
        return false;
    };
    let lifted_pawn =
        lifted.is_none_or(|l| matches!(diffs[l].1, Diff::OppLifted(lp) if lp.role == Role::Pawn));
    vp.role == Role::Pawn
        && pp.role == Role::Pawn
        && lifted_pawn
        && vsq.file() == psq.file()
        && vsq.rank().distance(psq.rank()) == 1
}

/// Can the opponent's move in progress really be made on this board: the lifted piece
/// able to reach the square where it was placed, or to capture the victim lifted first;
/// a victim lifted with no capturer seen yet attacked by some opponent piece?
fn reach_fits(
    board: &Board,
    diffs: &[(Square, Diff)],
    opp: Color,
    lifted: Option<usize>,
    placed: Option<usize>,
    victim: Option<usize>,
    opp_reserve: Option<&Reserve>,
) -> bool {
    let occupied = board.occupied();
    let attacked_by_opp = |sq: Square| {
        board
            .attacks_to(sq, opp, occupied)
            .intersects(board.by_color(opp))
    };
    match (lifted, placed, victim) {
        (Some(l), Some(p), _) => {
            let from = diffs[l].0;
            let Some(piece) = board.piece_at(from) else {
                return true;
            };
            let (to, onto_mover) = match diffs[p] {
                (sq, Diff::OppOnMover(_)) => (sq, true),
                (sq, _) => (sq, false),
            };
            if let Some(v) = victim {
                // En passant (victim_fits checked the victim and the landing, one behind
                // the other on a file): the capturer on its fifth rank beside the victim,
                // landing diagonally ahead of its own square.
                let fifth = if piece.color.is_white() {
                    Rank::Fifth
                } else {
                    Rank::Fourth
                };
                return piece.role == Role::Pawn
                    && from.rank() == fifth
                    && diffs[v].0.rank() == fifth
                    && attacks::pawn_attacks(piece.color, from).contains(to);
            }
            can_reach(board, from, piece, to, onto_mover)
        }
        (Some(l), None, Some(v)) => {
            let from = diffs[l].0;
            let to = diffs[v].0;
            let Some(piece) = board.piece_at(from) else {
                return true;
            };
            can_reach(board, from, piece, to, true)
                || (piece.role == Role::Pawn
                    && from.rank() == to.rank()
                    && from.file().distance(to.file()) == 1)
        }
        (None, None, Some(v)) => {
            let to = diffs[v].0;
            attacked_by_opp(to)
                || (board.piece_at(to).is_some_and(|p| p.role == Role::Pawn)
                    && [-1, 1].iter().any(|d| {
                        to.offset(*d)
                            .filter(|s| s.rank() == to.rank())
                            .is_some_and(|s| board.piece_at(s) == Some(opp.pawn()))
                    }))
        }
        (None, Some(p), None) => match diffs[p] {
            // Placed onto a mover's piece with no lift seen: the capturer's old square is
            // not reported yet, so some opponent piece of that kind must attack the square.
            (sq, Diff::OppOnMover(pp)) => {
                (board.attacks_to(sq, opp, occupied) & board.by_piece(pp)).any()
                    || pp.role == Role::Pawn
            }
            // Onto an empty square with no lift seen: a drop of a piece in hand, or a move
            // whose old square is not reported yet.
            (sq, Diff::OppPlaced(pp)) => {
                opp_reserve.is_none_or(|r| r.get(pp.role) > 0)
                    || board
                        .by_piece(pp)
                        .into_iter()
                        .any(|from| can_reach(board, from, pp, sq, false))
            }
            _ => true,
        },
        _ => true,
    }
}

/// Can `piece` on `from` go to `to` (capturing there when `capture`) on this board?
#[must_use]
pub fn can_reach(board: &Board, from: Square, piece: Piece, to: Square, capture: bool) -> bool {
    let occupied = board.occupied();
    if piece.role == Role::Pawn {
        if capture {
            return attacks::pawn_attacks(piece.color, from).contains(to);
        }
        let step: i32 = if piece.color.is_white() { 8 } else { -8 };
        let one = from.offset(step);
        let start = piece.color.relative_rank(Rank::Second);
        return one == Some(to)
            || (from.rank() == start
                && one.is_some_and(|o| !occupied.contains(o))
                && from.offset(2 * step) == Some(to))
            // A pawn capturing onto a square emptied a moment ago (victim already lifted).
            || attacks::pawn_attacks(piece.color, from).contains(to);
    }
    attacks::attacks(from, piece, occupied).contains(to)
}

/// Lists the anomalies among the differences not in `used` (a mask of their indices).
fn collect_anomalies(diffs: &[(Square, Diff)], used: u64, expect: &Expect, r: &mut Residual) {
    let mut missing: Vec<(Square, Piece)> = Vec::new();
    let mut extra: Vec<(Square, Piece)> = Vec::new();
    for (i, &(sq, d)) in diffs.iter().enumerate() {
        if used & (1 << i) != 0 {
            continue;
        }
        match d {
            Diff::MoverMissing(p) | Diff::OppLifted(p) => missing.push((sq, p)),
            Diff::MoverExtra(p) | Diff::OppPlaced(p) => extra.push((sq, p)),
            Diff::OppOnMover(p) => {
                // An opponent piece on the mover's square beyond the one move explained:
                // the mover's piece is gone and an opponent piece is unexplained.
                if let Some(mp) = expect_piece(expect, sq) {
                    missing.push((sq, mp));
                }
                extra.push((sq, p));
            }
            Diff::Odd(found) => {
                r.anomalies.push(Anomaly::Unexplained { square: sq, found });
                r.cost += ANOMALY_COST;
            }
        }
    }
    // Pair a missing piece with the same piece standing elsewhere: displaced.
    let mut extra_used = vec![false; extra.len()];
    for (from, piece) in missing {
        let pair = extra
            .iter()
            .enumerate()
            .filter(|(j, (to, p))| !extra_used[*j] && *p == piece && *to != from)
            .min_by_key(|(_, (to, _))| from.distance(*to));
        if let Some((j, &(to, _))) = pair {
            extra_used[j] = true;
            r.anomalies.push(Anomaly::Displaced { piece, from, to });
        } else {
            r.anomalies.push(Anomaly::Missing {
                piece,
                square: from,
            });
        }
        r.cost += ANOMALY_COST;
    }
    for (j, (sq, p)) in extra.into_iter().enumerate() {
        if !extra_used[j] {
            r.anomalies.push(Anomaly::Unexplained {
                square: sq,
                found: Cell::piece(p),
            });
            r.cost += ANOMALY_COST;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sensing::cells::{Tokens, expected};
    use shakmaty::Board;

    fn cells_after(moves: &[(&str, Option<char>)]) -> Cells {
        let mut cells = Cells::from_board(&Board::default());
        for (sq, p) in moves {
            let sq: Square = sq.parse().unwrap();
            cells.set(sq, Cell::from_piece(p.and_then(Piece::from_char)));
        }
        cells
    }

    fn start_after(moves: &[(&str, Option<char>)]) -> Expect {
        let cells = cells_after(moves);
        let mut board = Board::empty();
        for sq in Square::ALL {
            if let Some(p) = cells.get(sq).to_piece() {
                board.set_piece_at(sq, p);
            }
        }
        expected(&board, Bitboard::EMPTY, &Tokens::default(), &[])
    }

    #[test]
    fn exact_position_costs_nothing() {
        let e = start_after(&[("e2", None), ("e4", Some('P'))]);
        let c = cells_after(&[("e2", None), ("e4", Some('P'))]);
        assert!(explain(&e, &c, Color::White).is_exact());
    }

    #[test]
    fn opponent_reply_in_progress_is_cheap() {
        // After 1. e4, Black has lifted the e7 pawn.
        let e = start_after(&[("e2", None), ("e4", Some('P'))]);
        let c = cells_after(&[("e2", None), ("e4", Some('P')), ("e7", None)]);
        let r = explain(&e, &c, Color::White);
        assert_eq!(r.cost, 1);
        assert!(r.anomalies.is_empty());
        // ...and completed it before the press message arrived.
        let c = cells_after(&[
            ("e2", None),
            ("e4", Some('P')),
            ("e7", None),
            ("e5", Some('p')),
        ]);
        assert_eq!(explain(&e, &c, Color::White).cost, 2);
    }

    #[test]
    fn capture_in_any_order_is_in_progress() {
        // After 1. e4 d5: White to capture on d5. Mover = Black (just moved).
        let e = start_after(&[
            ("e2", None),
            ("e4", Some('P')),
            ("d7", None),
            ("d5", Some('p')),
        ]);
        // Victim lifted first.
        let c = cells_after(&[("e2", None), ("e4", Some('P')), ("d7", None), ("d5", None)]);
        let r = explain(&e, &c, Color::Black);
        assert_eq!((r.cost, r.anomalies.len()), (1, 0));
        // Mover placed straight onto the victim.
        let c = cells_after(&[("e2", None), ("e4", None), ("d7", None), ("d5", Some('P'))]);
        let r = explain(&e, &c, Color::Black);
        assert_eq!((r.cost, r.anomalies.len()), (2, 0));
    }

    #[test]
    fn en_passant_in_progress_is_cheap_and_a_pawn_set_behind_its_victim_is_not() {
        // Black has just played d7-d5 beside White's pawn on e5: White takes en passant.
        let e = start_after(&[
            ("e2", None),
            ("e5", Some('P')),
            ("d7", None),
            ("d5", Some('p')),
        ]);
        let c = cells_after(&[("e2", None), ("d7", None), ("d6", Some('P'))]);
        let r = explain(&e, &c, Color::Black);
        assert_eq!((r.cost, r.anomalies.len()), (3, 0));
        // Black's pawn has come to c4 beside White's on d4. White's pawn shows on c3,
        // behind c4 emptied: that is no capture a pawn on d4 makes (it takes ahead, on
        // c5 or e5), so not White's move in progress but a knocked pawn.
        let e = start_after(&[
            ("d2", None),
            ("d4", Some('P')),
            ("c7", None),
            ("c4", Some('p')),
        ]);
        let c = cells_after(&[("d2", None), ("c3", Some('P')), ("c7", None)]);
        let r = explain(&e, &c, Color::Black);
        assert!(r.cost >= ANOMALY_COST, "{r:?}");
    }

    #[test]
    fn knocked_piece_of_the_mover_is_displaced() {
        // After 1. Nf3, the knight is knocked onto h4 during Black's time.
        let e = start_after(&[("g1", None), ("f3", Some('N'))]);
        let c = cells_after(&[("g1", None), ("h4", Some('N'))]);
        let r = explain(&e, &c, Color::White);
        assert_eq!(
            r.anomalies,
            vec![Anomaly::Displaced {
                piece: Piece::from_char('N').unwrap(),
                from: "f3".parse().unwrap(),
                to: "h4".parse().unwrap()
            }]
        );
    }

    #[test]
    fn two_opponent_moves_are_not_one_move_in_progress() {
        let e = start_after(&[]);
        let c = cells_after(&[
            ("e7", None),
            ("e5", Some('p')),
            ("d7", None),
            ("d5", Some('p')),
        ]);
        let r = explain(&e, &c, Color::White);
        assert!(r.cost >= ANOMALY_COST, "{r:?}");
    }

    #[test]
    fn opponent_castling_in_progress_is_cheap() {
        let e = start_after(&[("f8", None), ("g8", None)]);
        let c = cells_after(&[("f8", None), ("g8", Some('k')), ("e8", None), ("h8", None)]);
        let r = explain(&e, &c, Color::White);
        assert_eq!((r.cost, r.anomalies.len()), (3, 0));
    }

    #[test]
    fn a_king_set_down_off_its_back_rank_is_no_castling_in_progress() {
        // Black's king and rook lifted, the king set down on e6: no castling puts it
        // there, so the rook's lift (or the king's) is left to explain.
        let e = start_after(&[]);
        let c = cells_after(&[("e8", None), ("h8", None), ("e6", Some('k'))]);
        let r = explain(&e, &c, Color::White);
        assert!(r.cost >= ANOMALY_COST, "{r:?}");
        // Along the back rank it is castling under way (the king sliding through f8).
        let e = start_after(&[("f8", None), ("g8", None)]);
        let c = cells_after(&[("f8", Some('k')), ("g8", None), ("e8", None), ("h8", None)]);
        let r = explain(&e, &c, Color::White);
        assert_eq!((r.cost, r.anomalies.len()), (3, 0));
    }

    /// Transfer Chess 4c: Black's pawn reached g1 and stands there until White removes it
    /// (the record has g1 empty, the pawn allowed). White removed it and dropped a knight
    /// there: White's move under way, not Black's pawn gone and a knight from nowhere.
    #[test]
    fn a_drop_where_a_transfer_pawn_awaited_removal_is_the_opponents_move() {
        let mut board = Board::default();
        board.discard_piece_at(Square::G1);
        board.discard_piece_at(Square::F7);
        let pawn = Cell::from_piece(Some(Color::Black.pawn()));
        let e = expected(
            &board,
            Bitboard::EMPTY,
            &Tokens::default(),
            &[(Square::G1, pawn.bit())],
        );
        let c = cells_after(&[("f7", None), ("g1", Some('N'))]);
        let r = explain(&e, &c, Color::Black);
        assert!(r.anomalies.is_empty(), "{r:?}");
        assert!(r.in_progress.contains(Square::G1));
    }
}
