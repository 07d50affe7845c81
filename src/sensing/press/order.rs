//! When the board showed each landing: readings whose moves the scan order rules out.

use super::*;

/// Was every ply's piece seen on its landing square at some moment of the history, and
/// seen gone from the square it left (unless a later ply of the reading stands there
/// again)? A piece that never left cannot have moved: a pawn still on f6 took nothing on
/// g5.
pub(super) fn landings_seen(c: &Committed<'_>, cand: &Candidate, history: &[Snapshot]) -> bool {
    let mut color = c.state.turn();
    for (i, m) in cand.plies.iter().enumerate() {
        let sq = move_landing(*m);
        let seen = history
            .iter()
            .any(|s| s.cells.get(sq).color() == Some(color));
        if !seen {
            return false;
        }
        // `Move::from` is the king's square for castling.
        if let Some(from) = m.from() {
            let used_again = cand.plies[i + 1..]
                .iter()
                .any(|&n| touched(n).contains(from));
            let left = history
                .iter()
                .any(|s| s.cells.get(from).color() != Some(color));
            if !left && !used_again {
                return false;
            }
        }
        color = !color;
    }
    true
}

/// The fastest hands: the opponent's first lift of a reply comes at least this long after
/// the move it answers was set down (the lever, a glance, a hand's move).
pub(super) const REPLY_AFTER_LANDING_MS: Millis = PRESS_AFTER_LANDING_MS + HAND_MOVE_MS;

/// The fastest hand: a piece lifted and set down on another square takes at least this.
const HAND_MOVE_MS: Millis = 120;

/// The mover's pieces this reading takes as victims of the opponent's reply that were gone
/// before the move it answers was on the board. The reply starts after the press, so a
/// square it explains as the opponent's doing cannot have changed earlier than a scan
/// before the candidate's last landing first showed, and the lever and the opponent's
/// hand after it: such a piece is gone for another reason (an anomaly), not being taken.
pub(super) fn gone_before_move(
    c: &Committed<'_>,
    cand: &Candidate,
    r: &Residual,
    history: &[Snapshot],
    at: usize,
) -> Bitboard {
    if r.in_progress.is_empty() {
        return Bitboard::EMPTY;
    }
    let Some(last) = cand.plies.last() else {
        return Bitboard::EMPTY;
    };
    let mover_color = cand.last_mover(c.state.turn());
    let landing = move_landing(*last);
    // When a lying piece's landing first showed says nothing of when the reply could begin.
    if cand.last_ply_moves_lying_piece() {
        return Bitboard::EMPTY;
    }
    let Some(landed_at) = history
        .iter()
        .take(at + 1)
        .find(|s| s.cells.get(landing).color() == Some(mover_color))
        .map(|s| s.t_ms)
    else {
        return Bitboard::EMPTY;
    };
    let window_start = history.first().map_or(0, |s| s.t_ms);
    // Only the mover's own pieces taken as victims of the reply: the opponent's pieces may
    // have been off their squares since before (an earlier anomaly).
    r.in_progress
        .into_iter()
        .filter(|&sq| cand.expect.color(sq) == Some(mover_color))
        .filter(|&sq| {
            // When the square took the value it shows at this moment; a value it had since
            // the window began is older than this move altogether (an earlier anomaly).
            let since = value_since(history, at, sq);
            since > window_start && since + c.scan_ms < landed_at + REPLY_AFTER_LANDING_MS
        })
        .collect()
}

/// Did the plies' landings first appear in the order of the plies? Each landing counts
/// from when the square began to show the moved piece after the ply before landed: a piece
/// of that colour that stood there before and left (a pawn whose square a drop then took)
/// is no landing, and one standing there all along is a landing before the ply before.
pub(super) fn landings_in_order(c: &Committed<'_>, cand: &Candidate, history: &[Snapshot]) -> bool {
    let mut color = c.state.turn();
    let mut last = 0;
    for m in &cand.plies {
        let sq = move_landing(*m);
        let Some(at) = history
            .iter()
            .position(|s| s.t_ms >= last && shows_moved_piece(cand, sq, color, s.cells.get(sq)))
        else {
            return false;
        };
        let first = value_since(history, at, sq);
        if first < last {
            return false;
        }
        last = first;
        color = !color;
    }
    true
}

/// Did a ply of the reading first show on its landing square more than a scan after a
/// later ply's landing first showed? Each ply lands before the next begins (after the
/// press between them), and the board shows a landing within a scan: such a reading has
/// the moves in an order the board rules out (the dropper's next drop taken for the drop
/// the opponent captured before the scan saw it, say). Landings never shown, a promoted
/// pawn's or a hidden promoted piece's, are no evidence; nor is a landing a later ply of
/// the same colour lands on again (a drop taken on its square and the taker taken back by
/// a pawn): the piece of that colour shown there may be the later one. Nor is a piece of
/// that colour shown on a square only after the next ply's taker stood there. A landing
/// on a square an earlier ply left first shows once the square was seen left.
pub(super) fn lands_out_of_order(
    c: &Committed<'_>,
    cand: &Candidate,
    history: &[Snapshot],
) -> bool {
    if cand.plies.len() < 2 {
        return false;
    }
    let mut color = c.state.turn();
    let mut earliest_later = Millis::MAX;
    let mut shown: Vec<Option<Millis>> = Vec::with_capacity(cand.plies.len());
    for (i, m) in cand.plies.iter().enumerate() {
        let sq = move_landing(*m);
        // The same colour's later plies only: the other colour's piece is told apart.
        let landed_again = cand
            .plies
            .iter()
            .skip(i + 2)
            .step_by(2)
            .any(|&n| move_landing(n) == sq);
        let unseen = landed_again
            || is_promotion(*m)
            || cand.tokens.get(sq).is_some_and(Token::may_be_unseen);
        // The next ply takes it there (a drop taken at once): a piece of its colour the
        // board shows on the square only after the taker stood there is a later one (a
        // recapture under way), not this ply's landing.
        let taken_at = cand
            .plies
            .get(i + 1)
            .filter(|&&n| move_landing(n) == sq)
            .and_then(|_| first_shown(cand, sq, !color, history));
        // A square an earlier ply left (a rook back where it took from): what showed
        // there before it was left is that earlier piece, not this landing.
        let left = cand.plies[..i].iter().any(|&p| p.from() == Some(sq));
        let landed = || {
            let since = if left {
                history
                    .iter()
                    .position(|s| s.cells.get(sq).color() != Some(color))?
            } else {
                0
            };
            first_shown(cand, sq, color, &history[since..])
        };
        shown.push(
            (!unseen)
                .then(landed)
                .flatten()
                .filter(|&t| taken_at.is_none_or(|taken| t < taken)),
        );
        color = !color;
    }
    for t in shown.into_iter().rev().flatten() {
        if t > earliest_later.saturating_add(c.scan_ms) {
            return true;
        }
        earliest_later = earliest_later.min(t);
    }
    false
}

/// When the board first showed each ply of a reading begin and land: its piece gone from
/// its square and its victim from the square it takes (only squares no earlier ply of the
/// reading touches, so the record tells what stood there), and its piece on its landing
/// square (not a promotion's or a hidden promoted piece's landing, which may show
/// nothing; where a piece of the same colour stood there before, a victim taken back at
/// once, only once the square showed something else).
struct PlyTimes {
    departed: Option<Millis>,
    victim_gone: Option<Millis>,
    landed: Option<Millis>,
}

/// The square a capture takes its victim from (beside the landing, en passant).
fn captured_square(m: Move) -> Option<Square> {
    match m {
        Move::Normal {
            capture: Some(_),
            to,
            ..
        } => Some(to),
        Move::EnPassant { from, to } => Some(Square::from_coords(to.file(), from.rank())),
        _ => None,
    }
}

fn ply_times(
    c: &Committed<'_>,
    before: &Expect,
    cand: &Candidate,
    history: &[Snapshot],
) -> arrayvec::ArrayVec<PlyTimes, 3> {
    let mut color = c.state.turn();
    let mut touched_before = Bitboard::EMPTY;
    let mut times = arrayvec::ArrayVec::new();
    let gone = |sq: Option<Square>, touched_before: Bitboard| {
        sq.filter(|&sq| !touched_before.contains(sq))
            .and_then(|sq| first_gone(before, history, sq))
            .map(|i| history[i].t_ms)
    };
    for &m in cand.plies.iter().take(3) {
        let sq = move_landing(m);
        let victim = captured_square(m);
        let unseen = is_promotion(m) || cand.tokens.get(sq).is_some_and(Token::may_be_unseen);
        let anew = if before.color(sq) == Some(color) {
            history
                .iter()
                .position(|s| s.cells.get(sq).color() != Some(color))
        } else {
            Some(0)
        };
        times.push(PlyTimes {
            departed: gone(m.from(), touched_before),
            victim_gone: gone(victim, touched_before),
            landed: anew
                .filter(|_| !unseen)
                .and_then(|i| first_shown(cand, sq, color, &history[i..])),
        });
        touched_before |= touched(m);
        color = !color;
    }
    times
}

/// Does the board show the reading's plies out of their order: a ply's piece leaving, or
/// a capture's victim, at a moment no play in that order allows (see the two checks
/// below)? Each ply's times are worked out once for both.
pub(super) fn plies_out_of_order(
    c: &Committed<'_>,
    before: &Expect,
    cand: &Candidate,
    history: &[Snapshot],
) -> bool {
    if cand.plies.len() < 2 {
        return false;
    }
    let times = ply_times(c, before, cand, history);
    departs_out_of_order(c, &times) || taken_before_the_ply_before_landed(c, cand, &times)
}

/// Did a ply's piece first show gone from its square more than a scan after a later ply's
/// landing first showed? A piece leaves before it lands, its press comes after, and the
/// next ply only then: the board reports the lift within a scan of it, so before the next
/// landing's report and a scan. Such a reading joins a move made later (the dropper's
/// next move, its piece lifted only after the reply stood) to an earlier press (a drop
/// taken at once, which the board never showed).
fn departs_out_of_order(c: &Committed<'_>, times: &[PlyTimes]) -> bool {
    times.iter().enumerate().any(|(i, ply)| {
        ply.departed.is_some_and(|gone| {
            times[i + 1..]
                .iter()
                .filter_map(|later| later.landed)
                .any(|landed| gone > landed + c.scan_ms)
        })
    })
}

/// Did a ply's capture begin (the piece it takes first shown gone) more than a scan before
/// the ply before it first showed landing? A capture begins after the press that ends the
/// ply before, and the board reports a landing within a scan of it and a lift no later
/// than it: such a reading takes a piece before the move it answers stood (a pawn pushed
/// e3-e4 and a bishop then going to e3, read as a pawn dropped on e4 and the bishop taking
/// on e3, the square that emptied before e4 filled). Only the victim: a ply's own piece
/// shown gone that early is left to the other rules (no case of it seen, and where the
/// record has gone wrong, `--no-td`, ruling such readings out sent the bench's worst
/// match down a path four times as costly).
fn taken_before_the_ply_before_landed(
    c: &Committed<'_>,
    cand: &Candidate,
    times: &[PlyTimes],
) -> bool {
    times.windows(2).enumerate().any(|(i, pair)| {
        // A landing square a later ply lands on or leaves again shows that ply's doing
        // too (a drop never seen, taken at once and taken back): no evidence.
        let landing = move_landing(cand.plies[i]);
        if cand.plies[i + 1..]
            .iter()
            .any(|&m| touched(m).contains(landing))
        {
            return false;
        }
        let (Some(landed), Some(taken)) = (pair[0].landed, pair[1].victim_gone) else {
            return false;
        };
        // Shown gone before the landing showed: the pass that showed it gone had passed the
        // landing square a moment before, still without the piece. The landing came after
        // that, and the victim's lift, the lever and a glance later still: if the scan
        // went from one square to the other faster than that, no play in this order shows
        // so (a knight dropped on c3, scanned a few fields before b5, and the knight on b5
        // already shown gone: no `N@c3 Nxb5`, but the knight's own `Nc3`).
        taken + c.scan_ms < landed
            || captured_square(cand.plies[i + 1]).is_some_and(|victim| {
                taken_too_soon_to_answer(
                    (c.scan_order, c.scan_ms),
                    (landing, landed),
                    (victim, taken),
                )
            })
    })
}

/// Was the victim on `victim`, first shown gone at `taken`, shown so before the landing on
/// `landing` it would answer first showed (at `landed`), by a pass that had passed the
/// landing square, still empty, less than a reply's lever and glance before? Then the
/// victim left too soon to be taken in answer to that landing. The board scans in
/// `scan_order` (if known), a pass taking `scan_ms`.
pub(super) fn taken_too_soon_to_answer(
    (scan_order, scan_ms): (Option<Orientation>, Millis),
    (landing, landed): (Square, Millis),
    (victim, taken): (Square, Millis),
) -> bool {
    taken < landed
        && scan_time(scan_order, scan_ms, landing, victim)
            .is_some_and(|ms| ms < REPLY_AFTER_LANDING_MS)
}

/// Did a ply of the reading first show on its landing square only after `deadline`? (A
/// landing never shown is no evidence either way: a piece captured before the scan passed.
/// Nor is a promoted pawn's or a hidden promoted piece's: laid on its side, it shows
/// nothing, or now and then a pawn.)
pub(super) fn lands_late(
    c: &Committed<'_>,
    cand: &Candidate,
    history: &[Snapshot],
    deadline: Millis,
) -> bool {
    let mut color = c.state.turn();
    for m in &cand.plies {
        let sq = move_landing(*m);
        let unseen = is_promotion(*m) || cand.tokens.get(sq).is_some_and(Token::may_be_unseen);
        // A landing the window's first snapshot already shows was down when the last
        // commit was decided (its press judged late, say): when it first showed is unknown,
        // no evidence that it came after this press.
        if !unseen
            && history
                .iter()
                .position(|s| s.cells.get(sq).color() == Some(color))
                .is_some_and(|i| i > 0 && history[i].t_ms > deadline)
        {
            return true;
        }
        color = !color;
    }
    false
}

/// When the reading's last ply (by `mover`) first showed landing, if it ever did.
pub(super) fn last_landing_shown(
    cand: &Candidate,
    mover: Color,
    history: &[Snapshot],
) -> Option<Millis> {
    let &last = cand.plies.last()?;
    first_shown(cand, move_landing(last), mover, history)
}

/// Did a piece of the opponent's stand where the record has none (its move landed whole)
/// from at least two passes of the scan before the reading's last landing first showed,
/// through that moment, having come within the history? Read so, the presser moved with
/// the opponent's move on the board: that move and its press came between, and the
/// presser's press before it, both unseen by the clock (a turn inside one of its
/// seconds), not a piece of the opponent's out and back during the presser's turn. So
/// too where the presser's last move landed on a piece of the opponent's that stood there
/// (`taken_where_it_stood`).
pub(super) fn opponent_stood_before_landing(
    c: &Committed<'_>,
    cand: &Candidate,
    presser: Color,
    history: &[Snapshot],
) -> bool {
    let Some(landed) = last_landing_shown(cand, presser, history) else {
        return false;
    };
    let Some(at) = history.iter().position(|s| s.t_ms == landed) else {
        return false;
    };
    let start = history.first().map_or(0, |s| s.t_ms);
    let snap = &history[at];
    // Where the reading has none of the opponent's pieces (it moves only the presser's:
    // the record has none there either), the reading's own expectation, already built.
    let elsewhere = cand.expect.differences(&snap.cells).into_iter().any(|sq| {
        let since = value_since(history, at, sq);
        snap.cells.get(sq).color() == Some(!presser)
            && since > start
            && since + 2 * c.scan_ms <= landed
    });
    elsewhere || taken_where_it_stood(c, cand, presser, history, at)
}

/// Did the presser's last landing square hold a piece of the opponent's where the record
/// has none, set down within the history and standing two passes of the scan, before the
/// presser's piece came? The presser took it there: the
/// opponent's move landed, and its press and the presser's before it went unseen. A
/// reading that moves onto the square without taking leaves that piece unexplained.
fn taken_where_it_stood(
    c: &Committed<'_>,
    cand: &Candidate,
    presser: Color,
    history: &[Snapshot],
    landed_at: usize,
) -> bool {
    let Some(&last) = cand.plies.last() else {
        return false;
    };
    let sq = move_landing(last);
    if c.state.board().color_at(sq) == Some(!presser) {
        return false;
    }
    let Some(end) = history[..landed_at]
        .iter()
        .rposition(|s| s.cells.get(sq).color() == Some(!presser))
    else {
        return false;
    };
    let since = value_since(history, end, sq);
    let gone = history.get(end + 1).map_or(since, |s| s.t_ms);
    since > history[0].t_ms && gone >= since + 2 * c.scan_ms
}

/// How long square `sq` kept a piece of `color` from `from` on (to the latest report if it
/// still does).
pub(super) fn stood_for(history: &[Snapshot], sq: Square, color: Color, from: Millis) -> Millis {
    let mut run = history.iter().skip_while(|s| s.t_ms < from);
    let Some(first) = run.next() else {
        return 0;
    };
    let end = run
        .find(|s| s.cells.get(sq).color() != Some(color))
        .or(history.last())
        .map_or(first.t_ms, |s| s.t_ms);
    end.saturating_sub(first.t_ms)
}

/// Since when square `sq` has shown, up to snapshot `at`, what it shows at `at` (the
/// first snapshot of that run; `at`'s own time if `at` is past the history).
pub(super) fn value_since(history: &[Snapshot], at: usize, sq: Square) -> Millis {
    let Some(snap) = history.get(at) else {
        return history.last().map_or(0, |s| s.t_ms);
    };
    history[..=at]
        .iter()
        .rev()
        .take_while(|s| s.cells.get(sq) == snap.cells.get(sq))
        .last()
        .map_or(snap.t_ms, |s| s.t_ms)
}

/// When the board first showed a ply's piece of `color` on its landing square `sq`: the
/// moved piece itself where the reading has it stand at the end (another piece of that
/// colour may have stood there before, or passed over the square).
pub(super) fn first_shown(
    cand: &Candidate,
    sq: Square,
    color: Color,
    history: &[Snapshot],
) -> Option<Millis> {
    history
        .iter()
        .find(|s| shows_moved_piece(cand, sq, color, s.cells.get(sq)))
        .map(|s| s.t_ms)
}

/// Does `cell` on a ply's landing square `sq` show that ply's piece of `color`: the
/// moved piece itself where the reading has it stand at the end, any of that colour where
/// a later ply moves it on?
fn shows_moved_piece(cand: &Candidate, sq: Square, color: Color, cell: Cell) -> bool {
    cell.color() == Some(color)
        && (cand.expect.color(sq) != Some(color) || cand.expect.allows(sq, cell))
}

/// Does a ply of the reading move a piece that stands back on its square at the end, its
/// landing never shown? A piece lifted and set back where it stood (touched, a move thought
/// over) made no move: had it moved, the board would have shown it where it landed, and a
/// piece taken there before the scan passed cannot come back. Plies whose squares a later
/// ply of the reading moves on are no evidence.
pub(super) fn set_back_unmoved(
    c: &Committed<'_>,
    before: &Expect,
    cand: &Candidate,
    history: &[Snapshot],
) -> bool {
    let Some(latest) = history.last() else {
        return false;
    };
    let mut color = c.state.turn();
    for (i, m) in cand.plies.iter().enumerate() {
        if let Move::Normal { from, to, .. } = *m {
            let squares = Bitboard::from_square(from).with(to);
            let moved_on = cand.plies[i + 1..]
                .iter()
                .any(|n| touched(*n).intersects(squares));
            let cell = latest.cells.get(from);
            let set_back = cell.color() == Some(color) && before.allows(from, cell);
            let landed = history
                .iter()
                .any(|s| s.cells.get(to).color() == Some(color));
            if !moved_on && set_back && !landed {
                return true;
            }
        }
        color = !color;
    }
    false
}

/// The first snapshot showing `sq` otherwise than the record allows: when the piece that
/// stood there first showed gone. (A piece laid on its side shows nothing leave: only
/// another piece set on its square shows here.)
fn first_gone(before: &Expect, history: &[Snapshot], sq: Square) -> Option<usize> {
    history
        .iter()
        .position(|s| !before.allows(sq, s.cells.get(sq)))
}

/// Was a one-ply reading's piece lifted from its square more than a scan after its landing
/// first showed? A piece leaves before it lands, and the board reports both within a scan:
/// such a reading joins a landing with a later lift (a drop, then a piece knocked off its
/// square after the press) into a move nobody made. Where the scan passes the origin
/// after the landing (its fields in order, about 3 ms each), the lift shows in the very
/// pass that showed the landing: a few fields later, not a pass later.
pub(super) fn lifted_after_landing(
    c: &Committed<'_>,
    cand: &Candidate,
    history: &[Snapshot],
) -> bool {
    let [m] = cand.plies.as_slice() else {
        return false;
    };
    let Some(from) = m.from() else {
        return false;
    };
    let color = c.state.turn();
    let before = c.expect();
    let Some(landed) = first_shown(cand, move_landing(*m), color, history) else {
        return false;
    };
    let Some(lifted) = first_gone(&before, history, from).map(|i| history[i].t_ms) else {
        return false;
    };
    let landing = move_landing(*m);
    let same_pass = same_pass_reaches(c, landing, landed, from);
    if lifted > same_pass.map_or(landed + c.scan_ms, |t| t.min(landed + c.scan_ms)) {
        return true;
    }
    // Shown gone in that very pass: the pass before read the origin still occupied only
    // the rest of a scan before this one read the landing, too short for a hand to lift
    // the piece and set it down there (a drop, then a piece of that kind knocked).
    same_pass.is_some()
        && lifted >= landed
        && c.scan_order.is_some_and(|o| {
            let fields = u64::from(square_to_field(from, o) - square_to_field(landing, o));
            c.scan_ms * (64 - fields) / 64 < HAND_MOVE_MS
        })
}

/// When the pass of the scan that showed `landing` filled at `landed_at` reaches `sq`, if
/// the board's scan order is known and reaches `sq` after `landing`: that many fields on,
/// the reports of that pass queued on the wire a quarter of a scan at most.
pub(super) fn same_pass_reaches(
    c: &Committed<'_>,
    landing: Square,
    landed_at: Millis,
    sq: Square,
) -> Option<Millis> {
    c.scan_order
        .filter(|&o| square_to_field(sq, o) > square_to_field(landing, o))
        .and_then(|_| next_scan_reaches(c, landing, landed_at, sq))
}

/// Does the reading's last ply slide a piece (a bishop, rook or queen) on past where it
/// stood as the opponent's reply began? The reply's first lift comes a hand's move after
/// the landing (`REPLY_AFTER_LANDING_MS`), and the board reports each within a scan. So
/// the slide ended before the lift if the board showed the piece on a square along its
/// way (not yet landed) that late before the lift was reported, or showed the piece along
/// its way once the lift was reported and its landing only more than a scan after that
/// lift, less a hand's move. The piece stopped on its way, and what showed beyond is its
/// next move, slid on once the reply was under way (on a slow scan, `Bf6` read as `Be5`).
/// The reply is an opponent's piece the reading leaves on its square, lifted after the
/// moved piece left its own and set down since where its kind can go (not a piece
/// pocketed, nor knocked off its square).
pub(super) fn slid_past_its_stop(
    c: &Committed<'_>,
    cand: &Candidate,
    history: &[Snapshot],
) -> bool {
    let Some(&Move::Normal {
        role: role @ (Role::Bishop | Role::Rook | Role::Queen),
        from,
        to,
        promotion: None,
        ..
    }) = cand.plies.last()
    else {
        return false;
    };
    let way = shakmaty::attacks::between(from, to);
    let (Some(first), Some(latest)) = (history.first(), history.last()) else {
        return false;
    };
    if way.is_empty() {
        return false;
    }
    let mover = cand.last_mover(c.state.turn());
    let moved = Cell::piece(Piece { color: mover, role });
    // When the reply's piece was lifted: a piece of the opponent's gone from where the
    // reading leaves it, after the moved piece left its square (the reply comes after the
    // move), and set down since (a piece pocketed stays gone; one laid on its side shows
    // nothing where it stands).
    let Some(departed_at) = history
        .iter()
        .find(|s| s.cells.get(from) != moved)
        .map(|s| s.t_ms)
    else {
        return false;
    };
    let stray = cand.expect.differences(&latest.cells);
    let board = cand.expect.board();
    let lifts = board
        .by_color(!mover)
        .into_iter()
        .filter(|&sq| {
            let Some(piece) = board.piece_at(sq) else {
                return false;
            };
            // Set down where it can go: a piece knocked by the sliding hand lands where
            // its kind mostly cannot.
            let moved_there = |s: Square| {
                latest.cells.get(s) == Cell::piece(piece)
                    && can_reach(board, sq, piece, s, board.color_at(s) == Some(mover))
            };
            latest.cells.get(sq).is_empty()
                && !cand.expect.allows_empty(sq)
                && stray.into_iter().any(moved_there)
        })
        .map(|sq| value_since(history, history.len() - 1, sq))
        .filter(|&lifted_at| lifted_at > first.t_ms && lifted_at >= departed_at);
    let Some(lifted_at) = lifts.min() else {
        return false;
    };
    // A landing never shown (taken at once, or the piece still in hand): no later bound.
    let landed_at = first_shown(cand, to, mover, history);
    // The latest moment before its landing showed that the piece surely stood along its
    // way: a report of it there, or a scan before the report of it gone from there.
    let last_on_way = way
        .into_iter()
        .flat_map(|m| {
            history.iter().enumerate().filter_map(move |(i, s)| {
                let here = s.cells.get(m) == moved;
                let was = i > 0 && history[i - 1].cells.get(m) == moved;
                match (was, here) {
                    (false, true) => Some(s.t_ms),
                    (true, false) => Some(s.t_ms.saturating_sub(c.scan_ms)),
                    _ => None,
                }
            })
        })
        .filter(|&t| t >= departed_at && landed_at.is_none_or(|l| t < l))
        .max();
    let stood_then = last_on_way.is_some_and(|t| t + REPLY_AFTER_LANDING_MS > lifted_at);
    let landed_late = landed_at.is_some_and(|landed_at| {
        lifted_at + c.scan_ms < landed_at + REPLY_AFTER_LANDING_MS
            && history
                .iter()
                .filter(|s| (lifted_at..landed_at).contains(&s.t_ms))
                .any(|s| way.into_iter().any(|m| s.cells.get(m) == moved))
    });
    stood_then || landed_late
}

/// Did the opponent's piece this reading takes as the reply in progress land more than a
/// scan before the reading's own last landing first showed? A reply starts only after the
/// press, which comes after the landing: a reply already standing before the move it
/// answers was on the board answers an earlier move of the presser's, pressed unseen (the
/// presser moved, both pressed within one of the clock's seconds, and the presser moved
/// the same piece on).
pub(super) fn reply_landed_first(
    c: &Committed<'_>,
    cand: &Candidate,
    r: &Residual,
    history: &[Snapshot],
) -> bool {
    let (Some(last), Some(latest)) = (cand.plies.last(), history.last()) else {
        return false;
    };
    let mover = cand.last_mover(c.state.turn());
    let Some(landed_at) = first_shown(cand, move_landing(*last), mover, history) else {
        return false;
    };
    // An opponent's piece standing where the reading does not have it: the reply in
    // progress, or a whole move of the opponent's taken for a displaced piece (the
    // opponent's next move begun too, and only one move can be in progress).
    let displaced = r.anomalies.iter().filter_map(|a| match *a {
        Anomaly::Displaced { piece, to, .. } if piece.color == !mover => Some(to),
        _ => None,
    });
    r.in_progress
        .into_iter()
        .chain(displaced)
        .filter(|&sq| {
            let cell = latest.cells.get(sq);
            cell.color() == Some(!mover) && !cand.expect.allows(sq, cell)
        })
        .any(|sq| value_since(history, history.len() - 1, sq) + c.scan_ms < landed_at)
}

/// The opponent's piece that a reading's last ply takes, where the board never showed the
/// capturer on its square (a piece laid on its side, which the scan does not see): the
/// square it stood on, its cell, and the first snapshot without it. The square emptied is
/// then the capture's only sign, and it is just as well the opponent lifting that piece
/// (to reply, once the press is made; or to adjust it).
pub(super) fn unseen_capture(
    c: &Committed<'_>,
    cand: &Candidate,
    history: &[Snapshot],
) -> Option<(Square, Cell, usize)> {
    let &Move::Normal {
        capture: Some(_),
        to,
        ..
    } = cand.plies.last()?
    else {
        return None;
    };
    let mover = cand.last_mover(c.state.turn());
    // The piece as the board showed it when the press's window began (a promoted piece's
    // token, say), if the record has it there.
    let victim = history.first()?.cells.get(to);
    if victim.color() != Some(!mover) || !c.expect().allows(to, victim) {
        return None;
    }
    if history
        .iter()
        .any(|s| s.cells.get(to).color() == Some(mover))
    {
        return None;
    }
    let gone = history.iter().position(|s| s.cells.get(to) != victim)?;
    Some((to, victim, gone))
}

/// The fastest hands: the lever pressed at least this long after the capturer is set down
/// (and the victim left its square before that).
const PRESS_AFTER_LANDING_MS: Millis = 60;

/// Did the board show a reading's landing (reported at `shown_at`) too shortly before the
/// press message for its piece to have gone on from there before the lever? The scan saw
/// the piece there at `shown_at`; going on, being set down and the lever pressed take at
/// least `PRESS_AFTER_LANDING_MS`, and the press message comes no sooner after the lever
/// than a board report after its scan. A piece that went on anyway went on after the
/// press: the mover's next move, not this one (a rook set on h1, the lever pressed, and
/// moved back to g1 once the reply was under way). `deadline` is a scan after the press
/// message (see `judge_press_now`).
pub(super) fn stood_at_the_press(c: &Committed<'_>, shown_at: Millis, deadline: Millis) -> bool {
    shown_at + PRESS_AFTER_LANDING_MS > deadline.saturating_sub(c.scan_ms)
}

/// Does a reading's last ply take a piece unseen (see [`unseen_capture`]) whose square the
/// board showed empty too late for the move pressed? The victim leaves its square before
/// the capturer is set down, the lever comes after that, and the press message after the
/// lever; the board saw the victim still standing a scan before it reported the square
/// empty. So a square reported empty later than a scan after the message, less the
/// press's reach, was emptied after the press: the opponent lifting the piece to reply,
/// not the capture. `deadline` is a scan after the press message (see `judge_press_now`).
pub(super) fn victim_left_after_the_press(
    c: &Committed<'_>,
    cand: &Candidate,
    history: &[Snapshot],
    deadline: Millis,
) -> bool {
    unseen_capture(c, cand, history)
        .is_some_and(|(_, _, gone)| history[gone].t_ms + PRESS_AFTER_LANDING_MS > deadline)
}

/// Did a ply's piece first show gone from its square too late for the move pressed? A
/// piece leaves its square before it lands, and the lever comes after that; the board
/// reports the lift within a scan. So a square reported left later than a scan after the
/// press message, less the press's reach, was left after the press (a piece knocked or
/// adjusted once the lever was down), not in this move. Only squares no earlier ply of
/// the reading touches (the record tells what stood there), not a piece laid on its side
/// (it shows nothing leave), and not a lift the window's first snapshot already shows
/// (when it came is unknown). `deadline` is a scan after the press message (see
/// `judge_press_now`).
pub(super) fn departs_after_the_press(
    c: &Committed<'_>,
    before: &Expect,
    cand: &Candidate,
    history: &[Snapshot],
    deadline: Millis,
) -> bool {
    departs_late(c, before, cand, history, deadline, false)
}

/// The same for any reading, legal ones too, by a margin no pushed piece reaches: a ply's
/// piece first shown gone a whole scan later still, its landing not shown before (a pawn
/// pushed along the board may show on its new square while the old still reads it). The
/// piece was lifted after the press, for the presser's next move (a promoted piece laid
/// on its side moved unseen, and the pawn read as having stepped where it never showed).
pub(super) fn departs_long_after_the_press(
    c: &Committed<'_>,
    before: &Expect,
    cand: &Candidate,
    history: &[Snapshot],
    deadline: Millis,
) -> bool {
    departs_late(c, before, cand, history, deadline + c.scan_ms, true)
}

/// Did a ply's piece first show gone too late for `deadline` (see [`left_late`]), its
/// landing not shown before that if `unlanded`?
fn departs_late(
    c: &Committed<'_>,
    before: &Expect,
    cand: &Candidate,
    history: &[Snapshot],
    deadline: Millis,
    unlanded: bool,
) -> bool {
    let mut touched_before = Bitboard::EMPTY;
    let mut color = c.state.turn();
    cand.plies.iter().any(|&m| {
        let late = m
            .from()
            .and_then(|f| left_late(c, before, history, (f, touched_before), deadline))
            .is_some_and(|i| {
                !unlanded || first_shown(cand, move_landing(m), color, &history[..=i]).is_none()
            });
        touched_before |= touched(m);
        color = !color;
        late
    })
}

/// The snapshot that first showed a ply's piece gone from `from`, when it came too late
/// for `deadline` (a scan after a press message): the piece left after that press. Only a
/// square no earlier ply of the reading touches (`touched_before`: the record tells what
/// stood there), not a piece laid on its side (it shows nothing leave), and not a lift
/// the window's first snapshot already shows (when it came is unknown).
fn left_late(
    c: &Committed<'_>,
    before: &Expect,
    history: &[Snapshot],
    (from, touched_before): (Square, Bitboard),
    deadline: Millis,
) -> Option<usize> {
    if touched_before.contains(from) || c.tokens.get(from).is_some_and(Token::may_be_unseen) {
        return None;
    }
    first_gone(before, history, from)
        .filter(|&i| i > 0 && history[i].t_ms + PRESS_AFTER_LANDING_MS > deadline)
}

/// Did a reading's first ply by `by` (a player whose press since the last commit showed
/// no move) leave its square too late for that press (`deadline`, a scan after its
/// message)? That player's first move since was made before that lever, and the board
/// reports a lift within a scan; a square first shown left later was left after the press:
/// the player's next move begun (a king lifted while the opponent took a drop the board
/// never showed), not the move pressed. Not the reading's last ply (the press judged),
/// and only a ply whose landing the board had not shown by then: a piece pushed along the
/// board may show on its new square while the old still reads it (real-johan's pawn). See
/// [`left_late`] for the squares that tell.
pub(super) fn left_after_its_press(
    c: &Committed<'_>,
    before: &Expect,
    cand: &Candidate,
    history: &[Snapshot],
    (by, deadline): (Color, Millis),
) -> bool {
    let at = usize::from(c.state.turn() != by);
    if at + 1 >= cand.plies.len() {
        return false;
    }
    let m = cand.plies[at];
    let Some(from) = m.from() else {
        return false;
    };
    let touched_before = cand.plies[..at]
        .iter()
        .fold(Bitboard::EMPTY, |t, &p| t | touched(p));
    left_late(c, before, history, (from, touched_before), deadline)
        .is_some_and(|i| first_shown(cand, move_landing(m), by, &history[..=i]).is_none())
}

/// The fastest hands: from the last lift of a capture, the capturer set down, the lever
/// pressed, and the opponent's reply dropped from the hand onto the board take at least
/// this long (a hand's move, a press, a glance, a hand's move).
const CAPTURE_PRESS_AND_DROP_MS: Millis = 450;

/// Did the piece a reading takes unseen (see [`unseen_capture`]) show again within a scan
/// and a hand's move of leaving its square: set back on it, or standing where it could go
/// from there? A piece taken leaves the board; one lifted by its owner lands again, and
/// the board shows it. Not when another piece could be the one seen: another piece of
/// that kind left its square since, or the opponent holds that kind in hand and it stands
/// on a square that was empty (a drop) — unless it stood there too soon after the square
/// emptied for the capture, its press and a drop in reply to have come between.
pub(super) fn victim_moved_on(c: &Committed<'_>, cand: &Candidate, history: &[Snapshot]) -> bool {
    let Some((sq, victim, gone)) = unseen_capture(c, cand, history) else {
        return false;
    };
    let base = c.expect();
    let Some(piece) = base.board().piece_at(sq) else {
        return false;
    };
    let dropped_maybe = victim
        .to_piece()
        .is_some_and(|p| c.state.reserve(p.color).get(p.role) > 0);
    let other_left = Square::ALL.into_iter().any(|o| {
        o != sq
            && history[0].cells.get(o) == victim
            && history[gone..].iter().any(|s| s.cells.get(o) != victim)
    });
    if other_left {
        return false;
    }
    // The board the owner moves it on: the capturer's square left (seen or not).
    let mut board = base.board().clone();
    if let Some(from) = cand.plies.last().and_then(|m| m.from()) {
        board.discard_piece_at(from);
    }
    let window_end = history[gone].t_ms + c.scan_ms + CAPTURE_GESTURE_MS;
    // A landing may be reported before the lift (the scan reaches it first): a scan early.
    let earliest = history[gone].t_ms.saturating_sub(c.scan_ms);
    history[gone..]
        .iter()
        .enumerate()
        .take_while(|(_, s)| s.t_ms <= window_end)
        .any(|(j, s)| {
            s.cells.get(sq) == victim
                || Square::ALL.into_iter().any(|x| {
                    // When the piece was first shown there, in its latest run.
                    let shown = || {
                        history[..=gone + j]
                            .iter()
                            .rev()
                            .take_while(|h| h.cells.get(x) == victim)
                            .last()
                            .map(|h| h.t_ms)
                    };
                    // The victim's square was still occupied a scan before it showed
                    // empty: a drop landing sooner after that answered no capture.
                    let too_soon_for_a_drop =
                        |t: Millis| t + c.scan_ms < history[gone].t_ms + CAPTURE_PRESS_AND_DROP_MS;
                    x != sq
                        && s.cells.get(x) == victim
                        && !base.allows(x, victim)
                        && can_reach(&board, sq, piece, x, board.piece_at(x).is_some())
                        && shown().is_some_and(|t| {
                            t >= earliest
                                && (board.piece_at(x).is_some()
                                    || !dropped_maybe
                                    || too_soon_for_a_drop(t))
                        })
                })
        })
}

/// Does a reading's last ply capture a piece whose square was already empty well before
/// the capturer left its own square, the capturer never seen on the victim's square (laid
/// on its side as it promoted, say)? The victim's lift and the capturer's are one movement
/// of the hand, a scan apart at most in the reports: a piece gone seconds before is gone
/// for another reason (pocketed), and the capture is the one landing on the square that
/// emptied with the capturer's lift.
pub(super) fn victim_gone_long_before(
    c: &Committed<'_>,
    cand: &Candidate,
    history: &[Snapshot],
) -> bool {
    let Some(&Move::Normal {
        capture: Some(_),
        from,
        to,
        ..
    }) = cand.plies.last()
    else {
        return false;
    };
    let mover = cand.last_mover(c.state.turn());
    if history
        .iter()
        .any(|s| s.cells.get(to).color() == Some(mover))
    {
        return false;
    }
    // Only a capture of a piece standing on the committed board, by a piece the board
    // showed on its square when the window began.
    let base = c.expect();
    let (Some(first), Some(victim)) = (history.first(), base.board().piece_at(to)) else {
        return false;
    };
    if victim.color == mover || !base.allows(from, first.cells.get(from)) {
        return false;
    }
    // When the victim's square first showed no piece of its colour (at the latest: the
    // window's start), and when the capturer first left its square.
    let Some(gone) = history
        .iter()
        .find(|s| s.cells.get(to).color() != Some(victim.color))
        .map(|s| s.t_ms)
    else {
        return false;
    };
    let Some(lifted) = history
        .iter()
        .find(|s| !base.allows(from, s.cells.get(from)))
        .map(|s| s.t_ms)
    else {
        return false;
    };
    lifted > gone + c.scan_ms + CAPTURE_GESTURE_MS
}

/// Did the mover's pieces change from what `expect` has (a reading the board showed at
/// snapshot `shown`) only once the opponent's reply was under way, by snapshot `at`? The
/// reply begins after the press, and a correction of the move comes before it: a
/// correction shows within a scan of being made, so before the reply's first report and a
/// scan. Changes of the mover's that first showed later, the reply standing by then, are
/// the mover's next move (the piece moved on after the reply), not this one's.
pub(super) fn moved_after_reply(
    c: &Committed<'_>,
    expect: &Expect,
    mover: Color,
    history: &[Snapshot],
    shown: usize,
    at: usize,
) -> bool {
    let Some(snap) = history.get(at) else {
        return false;
    };
    let opp = !mover;
    if shown > at || !reply_landed(expect, &snap.cells, opp) {
        return false;
    }
    // What the board shows off the reading at `at`.
    let off = expect.differences(&snap.cells);
    // An opponent's piece of a kind the reading took from the opponent, who holds none in
    // reserve, is no reply: the piece the reading took is still standing, and the reading
    // is wrong (a capture on c7 shown, both squares clear, as a capture on b6 and the
    // pawn taking back from c7: then "a queen" on c7).
    let (before, after) = (c.state.board(), expect.board());
    let standing = |p: Piece| {
        Square::ALL
            .into_iter()
            .filter(|&sq| snap.cells.get(sq) == Cell::piece(p))
            .count()
    };
    // More of it standing than the reading leaves: not the same kind moving on (a pawn
    // taking back a pawn is a reply).
    let ghost = |p: Piece| {
        p.color == opp
            && c.state.reserve(opp).get(p.role) <= 0
            && after.by_piece(p).count() < before.by_piece(p).count()
            && standing(p) > after.by_piece(p).count()
    };
    if off
        .into_iter()
        .filter_map(|sq| snap.cells.get(sq).to_piece())
        .filter(|p| p.color == opp)
        .all(ghost)
    {
        return false;
    }
    // The mover's pieces the reply took: an opponent's piece stands there by now. Their
    // lift is the reply's (a victim is often lifted first), not the mover's doing.
    let taken: Bitboard = off
        .into_iter()
        .filter(|&sq| expect.color(sq) == Some(mover) && snap.cells.get(sq).color() == Some(opp))
        .collect();
    // When the first of the mover's changes from the reading showed (none: nothing moved).
    let Some(moved_on) = (off & !taken)
        .into_iter()
        .filter(|&sq| snap.cells.get(sq).color() == Some(mover) || expect.color(sq) == Some(mover))
        .map(|sq| value_since(history, at, sq))
        .min()
    else {
        return false;
    };
    // The reply's first report: an opponent's piece off its square, or standing anew, or
    // the victim it took lifted; and the squares it showed so.
    let began = history[shown..=at].iter().find_map(|s| {
        let replied: Bitboard = expect
            .differences(&s.cells)
            .into_iter()
            .filter(|&sq| {
                expect.color(sq) == Some(opp)
                    || s.cells.get(sq).color() == Some(opp)
                    || taken.contains(sq)
            })
            .collect();
        replied.any().then_some((s.t_ms, replied))
    });
    let Some((began, replied)) = began else {
        return false;
    };
    if moved_on > began + c.scan_ms {
        return true;
    }
    // The scan last reported the piece on the reading's landing at `seen` (a board reports
    // a square when it changes: what a snapshot shows may be older than the snapshot).
    // Had it gone on to another landing before the press, that landing came after `seen`,
    // and a reply's first lift comes at least a lever, a glance and a hand's move after
    // the landing it answers: a reply begun less than that after `seen` (and before the
    // piece moved on) answered this reading, and the piece moved on after it (a rook set
    // on f1, the lever, the knight lifted at once, the rook back to g1 once it was down).
    let seen = off
        .into_iter()
        .filter(|&sq| expect.color(sq) == Some(mover))
        .map(|sq| value_since(history, shown, sq))
        .max();
    if moved_on > began && seen.is_some_and(|t| t < began && began < t + REPLY_AFTER_LANDING_MS) {
        return true;
    }
    // The reading stood on two passes of the scan or more (no slide's trail, which shows
    // for one) and the reply had landed before the mover's piece moved on: a correction
    // would have had to come before the press, and the press and the whole reply within
    // a scan of it.
    let landed = history[shown..=at]
        .iter()
        .find(|s| reply_landed(expect, &s.cells, opp))
        .map(|s| s.t_ms);
    let stood = history.get(shown).map(|s| s.t_ms);
    if matches!((landed, stood), (Some(l), Some(s))
        if l < moved_on && moved_on > s + c.scan_ms + 60)
    {
        return true;
    }
    // A piece of the mover's standing where the reading has none, first reported more
    // than a scan after the reply's first report, was set down after the reply began
    // (the board reports a change within a scan of it): the move pressed was complete
    // before the lever, so that landing is the mover's next move, whenever its piece was
    // lifted (a rook lifted as the reply began, set down after it). So was one first
    // reported later than the pass that showed the reply could have shown it, where the
    // scan reaches its square after the reply's: that pass found it empty, after the
    // reply's piece had left (a bishop shown on its way back 490 ms after the reply's
    // first report, on a board scanning in 450).
    let standing: Bitboard = (off & !taken)
        .into_iter()
        .filter(|&sq| snap.cells.get(sq).color() == Some(mover))
        .collect();
    standing.any()
        && standing.into_iter().all(|sq| {
            let t = value_since(history, at, sq);
            t > began + c.scan_ms
                || replied
                    .into_iter()
                    .filter_map(|r| same_pass_reaches(c, r, began, sq))
                    .any(|pass| t > pass)
        })
}

/// Did the reading's one move's piece, once it left its square, stand on another square
/// it could have gone to (off its way to where the reading lands it, or on it: a slide
/// does not wait out a whole move of the opponent's) while the opponent lifted a piece and
/// set it down where that piece can go? Set down there, it made its move there, pressed;
/// the opponent answered; what the reading takes for the move is that piece's next one,
/// its press still to come (`Qa5 Ne5 Qxe5` read as `Qe5`, `Bf5 g4 Bxg4` as `Bg4`, the
/// press message a second late from a Bluetooth board).
pub(super) fn moved_on_after_the_reply(
    c: &Committed<'_>,
    before: &Expect,
    cand: &Candidate,
    history: &[Snapshot],
    shown_off: Bitboard,
) -> bool {
    let [
        Move::Normal {
            role,
            from,
            to,
            promotion: None,
            ..
        },
    ] = *cand.plies.as_slice()
    else {
        return false;
    };
    // A promoted piece looks like a pawn: where it could stop, the board cannot tell.
    if c.state.promoted().contains(from) {
        return false;
    }
    let mover = c.state.turn();
    let piece = Piece { color: mover, role };
    let moved = Cell::piece(piece);
    let board = before.board();
    // Empty squares the piece could have gone to. A pawn's only stop is the single step
    // of its double step: a pawn that stood there through a whole move of the opponent's
    // was pushed one step and pressed, and pushed again after the reply (`d6 Nf3 d5`, two
    // press messages lost, read as `d5`).
    let stops = if role == Role::Pawn {
        // Between a pawn's squares: only a double step has one.
        shakmaty::attacks::between(from, to) & !board.occupied()
    } else {
        shakmaty::attacks::attacks(from, piece, board.occupied())
            & !board.occupied()
            & !Bitboard::from_square(to)
    };
    if stops.is_empty() || !before.allows(from, moved) {
        return false;
    }
    // The reply lifted a piece of the opponent's: its square shown off the record.
    let lifts = shown_off & board.by_color(!mover);
    let stops = stops & shown_off;
    if stops.is_empty() || lifts.is_empty() {
        return false;
    }
    let landed_at = first_shown(cand, to, mover, history).unwrap_or(Millis::MAX);
    // The stop may show before the square left does (the scan passes it first).
    for (i, s) in history
        .iter()
        .enumerate()
        .take_while(|(_, s)| s.t_ms < landed_at)
    {
        for sq in stops {
            // The first snapshot of the piece's stand there.
            let first = i == 0 || history[i - 1].cells.get(sq) != moved;
            if s.cells.get(sq) == moved
                && first
                && answered_during_stop(c, before, history, i, (from, sq), (piece, lifts))
            {
                return true;
            }
        }
    }
    false
}

/// Was the piece's stop reported left (at `left_stop`, if it was) later than the scan,
/// having shown the reply's lift from `sq` at `lifted_at`, next reaches the stop? A stop
/// shown left there may have been left before the reply's hand came: no sign the piece
/// stood while the reply was made. So in the same pass where the scan reaches the stop
/// after `sq` (a bishop sliding a6-d3 shown on c4 for one pass, then a queen's one step
/// e5-f5 and c4 left, all in the next pass of a Bluetooth board), and in the next pass
/// where it reaches the stop first: the pass that showed the lift had shown the piece
/// there earlier, and the lift came at any time in the scan before it (a queen's slide
/// d8-c8-d7 shown on c8, then the reply's lift on d1 in that pass and c8 left in the
/// next).
fn left_on_a_later_pass(
    c: &Committed<'_>,
    (sq, lifted_at): (Square, Millis),
    stop: Square,
    left_stop: Option<Millis>,
) -> bool {
    left_stop.is_none_or(|left| next_scan_reaches(c, sq, lifted_at, stop).is_none_or(|t| left > t))
}

/// When the scan, having passed `sq` at `at`, next reaches `stop` (later in that pass, or
/// in the next), if the board's scan order is known: the reports of that pass queued on
/// the wire a quarter of a scan at most.
fn next_scan_reaches(c: &Committed<'_>, sq: Square, at: Millis, stop: Square) -> Option<Millis> {
    scan_from_to(c, sq, stop).map(|ms| at + ms + c.scan_ms / 4)
}

/// How long the scan takes from `from` on to `to` (on to the next pass if `to` comes
/// first in its order), at the slowest, if the board's scan order is known.
fn scan_from_to(c: &Committed<'_>, from: Square, to: Square) -> Option<Millis> {
    scan_time(c.scan_order, c.scan_ms, from, to)
}

/// The same for a board scanning in `order` (if known), a pass taking `scan_ms`.
fn scan_time(
    order: Option<Orientation>,
    scan_ms: Millis,
    from: Square,
    to: Square,
) -> Option<Millis> {
    order.map(|o| {
        let fields = (i16::from(square_to_field(to, o)) - i16::from(square_to_field(from, o)))
            .rem_euclid(64)
            .unsigned_abs();
        scan_ms * u64::from(fields) / 64
    })
}

/// While square `stop` kept showing the mover's `piece` (come from `from`) from snapshot
/// `at` on, did a piece of the opponent's leave its square in the record (one of `lifts`,
/// reported after the stop showed, or at most a scan before: the scan may pass the lifted
/// square first) and come down where its kind can go, both reported while the piece still
/// stood on the stop?
fn answered_during_stop(
    c: &Committed<'_>,
    before: &Expect,
    history: &[Snapshot],
    at: usize,
    (from, stop): (Square, Square),
    (piece, lifts): (Piece, Bitboard),
) -> bool {
    let moved = Cell::piece(piece);
    let record = before.board();
    let theirs = record.by_color(!piece.color);
    // The reply lifted and set down while the piece still stood on the stop: a lift
    // alone may be reported in the same pass as the piece gone on (the scan passing the
    // lifted square first), a whole move of the opponent's not where the piece rested
    // there (a quick step may be, beside a piece sliding through: see `rested`).
    let end = history[at + 1..]
        .iter()
        .position(|s| s.cells.get(stop) != moved)
        .map_or(history.len(), |n| at + 1 + n);
    let run = &history[at + 1..end];
    let left_stop = history.get(end).map(|s| s.t_ms);
    let shown_at = history[at].t_ms;
    // Shown there for longer than a scan: on two passes at least, set down and resting,
    // no slide passing through. A piece shown for less may have been there for one pass
    // only, on its way: then only a reply the board shows came while it stood counts
    // (its lift shown before the scan next passed the stop, or its set-down too soon
    // after the stop showed to answer a landing further on).
    let rested = left_stop.is_none_or(|left| left > shown_at + c.scan_ms);
    for sq in lifts {
        let Some(lifted) = record.piece_at(sq) else {
            continue;
        };
        let cell = Cell::piece(lifted);
        // Lifted just before the stop showed: when the lift was reported.
        let lifted_just_before = history[at]
            .cells
            .get(sq)
            .is_empty()
            .then(|| value_since(history, at, sq))
            .filter(|&since| since > history[0].t_ms && since + c.scan_ms >= shown_at);
        let lift = if let Some(since) = lifted_just_before {
            Some((0, since))
        } else if history[at].cells.get(sq) == cell {
            run.iter()
                .position(|s| s.cells.get(sq).is_empty())
                .map(|i| (i, run[i].t_ms))
        } else {
            None
        };
        let Some((i, lifted_at)) = lift else {
            continue;
        };
        // Where it can go with the piece on the stop.
        let mut board = record.clone();
        board.discard_piece_at(from);
        board.set_piece_at(stop, piece);
        // When the board first showed it set down (it may show before the lift, the scan
        // passing its square first).
        let set_down = run[i..].iter().enumerate().find_map(|(j, h)| {
            (h.cells.of_color(!piece.color) & !theirs)
                .into_iter()
                .find(|&to| {
                    h.cells.get(to) == cell
                        && can_reach(
                            &board,
                            sq,
                            lifted,
                            to,
                            board.color_at(to) == Some(piece.color),
                        )
                })
                .map(|to| value_since(history, at + 1 + i + j, to))
        });
        // Set down sooner after the stop showed than a reply to a landing further on
        // could be (the piece gone on after that report, the fastest reply's lift and
        // a hand's move): it answered the piece standing there.
        if set_down.is_some_and(|t| {
            rested
                || t < shown_at + REPLY_AFTER_LANDING_MS + HAND_MOVE_MS
                || left_on_a_later_pass(c, (sq, lifted_at), stop, left_stop)
        }) {
            return true;
        }
    }
    false
}
