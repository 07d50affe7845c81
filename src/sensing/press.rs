//! Judging a clock press: which move (or moves) did the board show around it?
//!
//! The press message reaches the PC late (the board polls the clock) and the board reports
//! a square only when its scan passes it, so "the position at the press" is a judgement
//! over the board's recent history: the latest snapshot in which exactly one candidate
//! explains what the board shows better than "nothing moved", allowing the opponent to be
//! partway through the reply.

use shakmaty::{Bitboard, CastlingSide, Color, Move, Piece, Rank, Role, Square};

use super::cells::{Cell, Cells, Expect, Token, Tokens, expected};
use super::explain::{Residual, explain_before, explain_with};
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
    /// The board's full scan period: both halves of one move are reported within it.
    pub scan_ms: u64,
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
    /// A ply moves a piece where its kind never goes, even on an empty board (a bishop
    /// changing square colour). Players do not do that; a misread scan can look like it.
    pub off_pattern: bool,
    /// The last ply lands a hidden promoted piece (a pawn on its side): nothing the
    /// sensors show can confirm it, so a visible reading is preferred.
    pub hidden_landing: bool,
}

/// The verdict on a press.
// One verdict per press, short-lived: boxing the candidate would buy nothing.
#[allow(clippy::large_enum_variant)]
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
    /// One interpretation stands for now, but the opponent's move may yet show another (a
    /// piece of the mover gone that the opponent may be taking): it is the one to commit
    /// if the board shows nothing more by `until` (`None`: the opponent has a capturing
    /// piece in hand, so until the final call).
    Provisional {
        candidate: Candidate,
        residual: Residual,
        snapshot: usize,
        until: Option<Millis>,
    },
}

/// Judges a press by `presser` whose message arrived at `pressed_at`, over `history`
/// (oldest first, latest last).
///
/// `missed_presses`: the clock showed that presses were missed (both players pressed
/// between two polls), so the plies since the last commit may go back further.
#[must_use]
pub fn judge_press(
    c: &Committed<'_>,
    presser: Color,
    history: &[Snapshot],
    missed_presses: bool,
    pressed_at: Millis,
) -> Verdict {
    // A move pressed at `pressed_at` was on the board before: its landing, if the board
    // ever showed it, showed within a scan of the press message (which comes after the
    // lever). A reading whose move first lands later takes the next move for this one.
    let deadline = pressed_at + c.scan_ms;
    let short = judge_at(c, presser, history, Depth::Short, deadline);
    if clean(&short) {
        return short;
    }
    // Both players may have pressed between two polls of the clock: look deeper. The
    // clock may show it (`missed_presses`), or not at all (a short turn leaves the whole
    // seconds unchanged); then the deeper reading must put right what the short one could
    // not — an illegal reading, or the mover's own pieces left unexplained — and not just
    // absorb the opponent's next move in progress.
    let long = judge_at(c, presser, history, Depth::Long, deadline);
    // The same plies in another order reach the same board (the presser's two moves may
    // swap): the board showed the order, by when each landing first appeared.
    let long = match long {
        Verdict::Ambiguous { tied, residual } => {
            let in_order: Vec<Candidate> = tied
                .into_iter()
                .filter(|k| landings_in_order(c, k, history))
                .collect();
            match <[Candidate; 1]>::try_from(in_order) {
                Ok([one]) => Verdict::Commit {
                    candidate: one,
                    residual,
                    snapshot: history.len().saturating_sub(1),
                },
                Err(rest) => Verdict::Ambiguous {
                    tied: rest,
                    residual,
                },
            }
        }
        other => other,
    };
    // A deeper reading claims moves nobody saw being pressed: each of its moves must at
    // least have been seen landing.
    let long = match long {
        Verdict::Commit { ref candidate, .. } if !landings_seen(c, candidate, history) => {
            Verdict::Nothing {
                baseline: Residual::default(),
            }
        }
        other => other,
    };
    let (
        Verdict::Commit {
            candidate: cl,
            residual: rl,
            ..
        },
        Some((cs, rs)),
    ) = (&long, committed_reading(&short))
    else {
        return if matches!(short, Verdict::Commit { .. } | Verdict::Provisional { .. })
            || !matches!(long, Verdict::Commit { .. })
        {
            short
        } else {
            long
        };
    };
    let mover_anomalies = |r: &Residual| {
        r.anomalies
            .iter()
            .filter(|a| a.color() == Some(presser))
            .count()
    };
    let better = rl.cost < rs.cost
        && (missed_presses
            || cl.irregular < cs.irregular
            || mover_anomalies(rl) < mover_anomalies(rs));
    if better { long } else { short }
}

/// Judges three presses together: `presser`'s (whose message came at `pressed_at`), the
/// opponent's before it, and `presser`'s before that, all three seen (the middle one
/// could not be told on its own: a drop captured before the board showed it, whose kind
/// only the dropper's next move tells). Readings of three plies only.
#[must_use]
pub fn judge_three_presses(
    c: &Committed<'_>,
    presser: Color,
    history: &[Snapshot],
    pressed_at: Millis,
) -> Verdict {
    if presser != c.state.turn() {
        return Verdict::Nothing {
            baseline: Residual::default(),
        };
    }
    judge_at(c, presser, history, Depth::Three, pressed_at + c.scan_ms)
}

/// Was every ply's piece seen on its landing square at some moment of the history?
fn landings_seen(c: &Committed<'_>, cand: &Candidate, history: &[Snapshot]) -> bool {
    let mut color = c.state.turn();
    for m in &cand.plies {
        let sq = move_landing(*m);
        let seen = history
            .iter()
            .any(|s| s.cells.get(sq).color() == Some(color));
        if !seen {
            return false;
        }
        color = !color;
    }
    true
}

/// The mover's pieces this reading takes as victims of the opponent's reply that were gone
/// before the move it answers was on the board. The reply starts after the press, so a
/// square it explains as the opponent's doing cannot have changed more than a scan before
/// the candidate's last landing first showed: such a piece is gone for another reason (an
/// anomaly), not being taken.
fn gone_before_move(
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
    let mover_color = if cand.plies.len() % 2 == 1 {
        c.state.turn()
    } else {
        !c.state.turn()
    };
    let landing = move_landing(*last);
    let Some(landed_at) = history
        .iter()
        .take(at + 1)
        .find(|s| s.cells.get(landing).color() == Some(mover_color))
        .map(|s| s.t_ms)
    else {
        return Bitboard::EMPTY;
    };
    let snap = &history[at];
    let window_start = history.first().map_or(0, |s| s.t_ms);
    // Only the mover's own pieces taken as victims of the reply: the opponent's pieces may
    // have been off their squares since before (an earlier anomaly).
    r.in_progress
        .into_iter()
        .filter(|&sq| cand.expect.color(sq) == Some(mover_color))
        .filter(|&sq| {
            // When the square took the value it shows at this moment; a value it had since
            // the window began is older than this move altogether (an earlier anomaly).
            let since = history[..=at]
                .iter()
                .rev()
                .take_while(|s| s.cells.get(sq) == snap.cells.get(sq))
                .last()
                .map_or(snap.t_ms, |s| s.t_ms);
            since > window_start && since + c.scan_ms < landed_at
        })
        .collect()
}

/// Did the plies' landings first appear in the order of the plies?
fn landings_in_order(c: &Committed<'_>, cand: &Candidate, history: &[Snapshot]) -> bool {
    let mut color = c.state.turn();
    let mut last = 0;
    for m in &cand.plies {
        let sq = move_landing(*m);
        let Some(first) = history
            .iter()
            .find(|s| s.cells.get(sq).color() == Some(color))
            .map(|s| s.t_ms)
        else {
            return false;
        };
        if first < last {
            return false;
        }
        last = first;
        color = !color;
    }
    true
}

fn committed_reading(v: &Verdict) -> Option<(&Candidate, &Residual)> {
    match v {
        Verdict::Commit {
            candidate,
            residual,
            ..
        } => Some((candidate, residual)),
        _ => None,
    }
}

/// How far back the plies since the last commit may reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Depth {
    /// The presser's move (or the opponent's and the presser's, when the opponent's press
    /// was missed).
    Short,
    /// Also the presser's, the opponent's and the presser's again (two presses missed).
    Long,
    /// Only the presser's, the opponent's and the presser's again (three presses known).
    Three,
}

fn clean(v: &Verdict) -> bool {
    matches!(v, Verdict::Commit { residual, .. } | Verdict::Provisional { residual, .. }
        if residual.cost < super::explain::ANOMALY_COST)
}

fn judge_at(
    c: &Committed<'_>,
    presser: Color,
    history: &[Snapshot],
    depth: Depth,
    deadline: Millis,
) -> Verdict {
    if let Some(v) = judge_by_evidence(c, presser, history, depth, deadline) {
        return v;
    }
    judge_by_cost(c, presser, history, depth, deadline)
}

/// Every reading worth scoring for a press, less those with a move that landed only after
/// the press could have shown it (`deadline`).
fn readings(
    c: &Committed<'_>,
    presser: Color,
    diff: Bitboard,
    cells: &Cells,
    depth: Depth,
    history: &[Snapshot],
    deadline: Millis,
) -> Vec<Candidate> {
    let mut cands = candidates(c, presser, diff, cells, depth);
    if history.last().is_some_and(|s| s.t_ms > deadline) {
        cands.retain(|k| !lands_late(c, k, history, deadline));
    }
    cands.retain(|k| !lands_out_of_order(c, k, history));
    cands
}

/// Did a ply of the reading first show on its landing square more than a scan after a
/// later ply's landing first showed? Each ply lands before the next begins (after the
/// press between them), and the board shows a landing within a scan: such a reading has
/// the moves in an order the board rules out (the dropper's next drop taken for the drop
/// the opponent captured before the scan saw it, say). Landings never shown, a promoted
/// pawn's or a hidden promoted piece's, are no evidence.
fn lands_out_of_order(c: &Committed<'_>, cand: &Candidate, history: &[Snapshot]) -> bool {
    if cand.plies.len() < 2 {
        return false;
    }
    let mut color = c.state.turn();
    let mut earliest_later = Millis::MAX;
    let mut shown: Vec<Option<Millis>> = Vec::with_capacity(cand.plies.len());
    for m in &cand.plies {
        let sq = move_landing(*m);
        let unseen = is_promotion(*m) || cand.tokens.get(sq).is_some_and(Token::may_be_unseen);
        shown.push(
            (!unseen)
                .then(|| {
                    history
                        .iter()
                        .find(|s| s.cells.get(sq).color() == Some(color))
                        .map(|s| s.t_ms)
                })
                .flatten(),
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

/// Did a ply of the reading first show on its landing square only after `deadline`? (A
/// landing never shown is no evidence either way: a piece captured before the scan passed.
/// Nor is a promoted pawn's or a hidden promoted piece's: laid on its side, it shows
/// nothing, or now and then a pawn.)
fn lands_late(c: &Committed<'_>, cand: &Candidate, history: &[Snapshot], deadline: Millis) -> bool {
    let mut color = c.state.turn();
    for m in &cand.plies {
        let sq = move_landing(*m);
        let unseen = is_promotion(*m) || cand.tokens.get(sq).is_some_and(Token::may_be_unseen);
        if !unseen
            && history
                .iter()
                .find(|s| s.cells.get(sq).color() == Some(color))
                .is_some_and(|s| s.t_ms > deadline)
        {
            return true;
        }
        color = !color;
    }
    false
}

/// The board showed exactly the result of one candidate at some moment: the latest such
/// moment wins, if what the board shows now still agrees with it (the opponent partway
/// through the reply, or an anomaly that no other candidate explains better).
///
/// This comes first because a cheaper explanation of the latest state can be wrong: with
/// the reply's mover and victim both in hand, "the bishop captured on a6 and was lifted
/// again" explains the board better than the bishop move the board actually showed.
fn judge_by_evidence(
    c: &Committed<'_>,
    presser: Color,
    history: &[Snapshot],
    depth: Depth,
    deadline: Millis,
) -> Option<Verdict> {
    let latest = history.last()?;
    let base_expect = c.expect();
    let mut union = Bitboard::EMPTY;
    for snap in history {
        union |= base_expect.differences(&snap.cells);
    }
    if union.is_empty() {
        return None;
    }
    let cands = readings(c, presser, union, &latest.cells, depth, history, deadline);
    if cands.is_empty() {
        return None;
    }
    // Follow the board in time order. A candidate shown exactly becomes the current
    // interpretation; a later one replaces it only if the current one stopped fitting
    // because of the mover's own pieces (a correction, a slide going further, castling
    // completed), not because the opponent began the reply.
    let mut current: Option<(usize, usize)> = None; // (candidate, snapshot)
    let mut current_since: Millis = 0;
    // A later reading the current one may yet give way to, once the reply shows.
    let mut undecided: Option<(usize, Option<Millis>)> = None;
    for (index, snap) in history.iter().enumerate() {
        // The one candidate shown exactly at this moment, if exactly one is.
        let mut exact = (0..cands.len()).filter(|&i| {
            cands[i].expect.matches(&snap.cells) && visibly_landed(&cands[i], &snap.cells)
        });
        let (Some(one), None) = (exact.next(), exact.next()) else {
            continue;
        };
        match current {
            None => {
                current = Some((one, index));
                current_since = snap.t_ms;
            }
            Some((cur, _)) if cur == one => current = Some((cur, index)),
            Some((cur, _)) => {
                let r = explain_with(
                    &cands[cur].expect,
                    &snap.cells,
                    presser,
                    Some(c.state.reserve(!presser)),
                );
                let (appeared, gone) = mover_changes(&cands[cur].expect, &snap.cells, presser);
                // ...unless the opponent stands there by now: the reply took it (a victim
                // lifted first), it did not leave for the other reading's move.
                let taken = gone
                    .into_iter()
                    .all(|sq| latest.cells.get(sq).color() == Some(!presser));
                let vanished = gone.any() && !taken;
                let more_regular = cands[one].irregular < cands[cur].irregular;
                let less_regular = cands[one].irregular > cands[cur].irregular;
                // A mover's piece standing somewhere new is the mover's doing (a correction,
                // a slide going on). A mover's piece gone may also be the opponent lifting a
                // victim: it only counts toward an equally regular reading, and only within
                // one scan of the reading it would complete (the lift of a move comes before
                // its placement, so their reports are at most a scan apart).
                let same_move = snap.t_ms.saturating_sub(current_since) <= c.scan_ms + 60;
                let switch = appeared
                    || more_regular
                    || (vanished && !less_regular && same_move)
                    || r.cost >= super::explain::ANOMALY_COST;
                // A switch on a piece gone alone, where the opponent has a piece in hand
                // that could be taking it and has not landed anywhere yet: which it was,
                // the reply will show.
                let takers = (switch
                    && !appeared
                    && !more_regular
                    && r.cost < super::explain::ANOMALY_COST
                    && !reply_landed(&cands[one].expect, &latest.cells, !presser))
                .then(|| takers_of(&cands[cur].expect, gone, &latest.cells, !presser))
                .flatten();
                // A capturer in hand: until the reply lands. One still standing: for a
                // scan, in which its lift would be reported.
                undecided = takers.map(|in_hand| {
                    let until = (!in_hand).then_some(snap.t_ms + c.scan_ms);
                    (one, until)
                });
                if switch && takers.is_none() {
                    current_since = snap.t_ms;
                    current = Some((one, index));
                }
            }
        }
    }
    let (cand, index) = current?;
    let one = &cands[cand];
    let now = explain_with(
        &one.expect,
        &latest.cells,
        presser,
        Some(c.state.reserve(!presser)),
    );
    if let Some((later, until)) = undecided {
        let candidate = cands[later].clone();
        let residual = explain_with(
            &candidate.expect,
            &latest.cells,
            presser,
            Some(c.state.reserve(!presser)),
        );
        let snapshot = history.len() - 1;
        return Some(Verdict::Provisional {
            candidate,
            residual,
            snapshot,
            until,
        });
    }
    // Only needed when the board has moved on since (computed then: they are dear).
    let baseline_cost = || {
        explain_with(
            &base_expect,
            &latest.cells,
            presser,
            Some(c.state.reserve(!presser)),
        )
        .cost
    };
    // Does a reading explain the board now at a cost of at most `limit`? One differing on
    // more squares than that cannot (each differing square costs at least one), so only
    // the few close ones are explained.
    let explains_within = |k: &Candidate, limit: u32| {
        k.expect.differences(&latest.cells).count() as u32 <= limit
            && explain_with(
                &k.expect,
                &latest.cells,
                presser,
                Some(c.state.reserve(!presser)),
            )
            .cost
                <= limit
    };
    // The board now is the shown move with the opponent partway through the reply: it
    // stands. With anomalies on top (a knocked piece), it stands if it still explains the
    // board better than no move and not far worse than any other reading.
    // Since it was shown, only pieces of the mover gone (a victim being taken, the next
    // move begun once the opponent pressed) and the opponent's doing: it stands.
    let (appeared_since, _) = mover_changes(&one.expect, &latest.cells, presser);
    let agrees = !appeared_since
        || now.cost < super::explain::ANOMALY_COST
        || (now.cost < baseline_cost()
            && !cands
                .iter()
                .any(|k| explains_within(k, now.cost - super::explain::ANOMALY_COST)));
    if !agrees {
        return None;
    }
    // An illegal reading seen first gives way to a legal one that explains the board now
    // at least as well (two pieces landing at once: which was the move is not for the scan
    // order to decide). A reading off its piece's pattern is as unlikely as an anomaly: a
    // legal one explaining the board with one anomaly less than that is better (a pawn
    // pocketed during the move of its neighbour looks, for one report, like that pawn
    // going diagonally to an empty square).
    let limit = if one.off_pattern {
        now.cost + super::explain::ANOMALY_COST - 1
    } else {
        now.cost
    };
    if one.irregular > 0
        && cands
            .iter()
            .any(|k| k.irregular < one.irregular && explains_within(k, limit))
    {
        return None;
    }
    Some(Verdict::Commit {
        candidate: one.clone(),
        residual: now,
        snapshot: index,
    })
}

/// Could the opponent be capturing on every square of `gone` (a piece of theirs attacks
/// it on the board `expect` has)? `Some(true)` if such a piece is in hand now (lifted to
/// take), `Some(false)` if they all still stand.
fn takers_of(expect: &Expect, gone: Bitboard, cells: &Cells, opp: Color) -> Option<bool> {
    let board = expect.board();
    let in_hand: Bitboard = board
        .by_color(opp)
        .into_iter()
        .filter(|&sq| cells.get(sq).color() != Some(opp))
        .collect();
    let attackers = |sq: Square| board.attacks_to(sq, opp, board.occupied()) & board.by_color(opp);
    if gone.is_empty() || !gone.into_iter().all(|sq| attackers(sq).any()) {
        return None;
    }
    Some(gone.into_iter().all(|sq| attackers(sq).intersects(in_hand)))
}

/// Has an opponent's piece landed where `expect` has none of its (the reply placed)?
fn reply_landed(expect: &Expect, cells: &Cells, opp: Color) -> bool {
    expect
        .differences(cells)
        .into_iter()
        .any(|sq| cells.get(sq).color() == Some(opp))
}

/// How the mover's pieces on the board differ from what `expect` has for them: a piece of
/// the mover standing where it is not expected (appeared), a piece of the mover expected
/// and not there (vanished). The opponent's pieces do not count: that is the reply.
fn mover_changes(expect: &Expect, cells: &Cells, mover: Color) -> (bool, Bitboard) {
    let mut appeared = false;
    let mut vanished = Bitboard::EMPTY;
    for sq in expect.differences(cells) {
        if cells.get(sq).color() == Some(mover) {
            appeared = true;
        } else if expect.color(sq) == Some(mover) && !expect.allows_empty(sq) {
            vanished.add(sq);
        }
    }
    (appeared, vanished)
}

/// Did the moved pieces land where the sensors can see them? A piece laid on its side (a
/// promoted pawn) shows nothing, exactly like a piece still in hand, so such a landing is
/// no evidence that the move was completed.
fn visibly_landed(cand: &Candidate, cells: &Cells) -> bool {
    !cand.hidden_landing
        && cand
            .plies
            .iter()
            .all(|m| !cells.get(move_landing(*m)).is_empty())
}

/// The square where a move's piece lands (the king's square for castling).
#[must_use]
pub fn move_landing(m: Move) -> Square {
    match m {
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_queen_side(rook < king);
            Square::from_coords(side.king_to_file(), king.rank())
        }
        other => other.to(),
    }
}

/// No candidate was ever shown exactly (a fast reply began before the move was scanned):
/// the latest snapshot in which one candidate explains the board best.
fn judge_by_cost(
    c: &Committed<'_>,
    presser: Color,
    history: &[Snapshot],
    depth: Depth,
    deadline: Millis,
) -> Verdict {
    let base_expect = c.expect();
    let mut first_ambiguity: Option<(Vec<Candidate>, Residual)> = None;
    let mut latest_baseline: Option<Residual> = None;
    // Readings are scored moment by moment, latest first; a board in chaos (many
    // moments, many readings) gets a bounded effort, so no report can stall the arbiter.
    let mut budget = MAX_READINGS_SCORED;
    for (index, snap) in history.iter().enumerate().rev() {
        let baseline = explain_with(
            &base_expect,
            &snap.cells,
            presser,
            Some(c.state.reserve(!presser)),
        );
        if latest_baseline.is_none() {
            latest_baseline = Some(baseline.clone());
        }
        if baseline.is_exact() && !has_hidden(c) {
            continue;
        }
        let diff = base_expect.differences(&snap.cells);
        let cands = readings(c, presser, diff, &snap.cells, depth, history, deadline);
        if cands.len() > budget {
            break;
        }
        budget -= cands.len();
        // Every differing square costs at least one (in progress) whatever explains it, so
        // readings are scored cheapest bound first and the rest skipped once their bound
        // exceeds the best cost found: what is skipped could neither win nor tie.
        let mut bounded: Vec<(u32, Candidate)> = cands
            .into_iter()
            .map(|cand| (cand.expect.differences(&snap.cells).count() as u32, cand))
            .collect();
        bounded.sort_by_key(|(bound, _)| *bound);
        let mut best_cost = u32::MAX;
        let mut scored: Vec<(Candidate, Residual)> = Vec::new();
        for (bound, cand) in bounded {
            if bound > best_cost {
                break;
            }
            let mut r = explain_with(
                &cand.expect,
                &snap.cells,
                presser,
                Some(c.state.reserve(!presser)),
            );
            let gone_before = gone_before_move(c, &cand, &r, history, index);
            if gone_before.any() {
                r = explain_before(
                    &cand.expect,
                    &snap.cells,
                    presser,
                    Some(c.state.reserve(!presser)),
                    gone_before,
                );
            }
            // Off its pattern is as unlikely as any anomaly: a legal reading with one
            // piece unexplained is at least as good.
            if cand.off_pattern {
                r.cost += super::explain::ANOMALY_COST;
            }
            if r.cost < baseline.cost || (r.cost == baseline.cost && moves_hidden_piece(c, &cand)) {
                best_cost = best_cost.min(r.cost);
                scored.push((cand, r));
            }
        }
        if scored.is_empty() {
            continue;
        }
        let key = |cand: &Candidate, r: &Residual| {
            (
                r.cost,
                cand.plies.len(),
                cand.irregular,
                cand.hidden_landing,
            )
        };
        scored.sort_by_key(|(cand, r)| key(cand, r));
        let best = key(&scored[0].0, &scored[0].1);
        let tied: Vec<(Candidate, Residual)> = scored
            .into_iter()
            .take_while(|(cand, r)| key(cand, r) == best)
            .collect();
        if tied.len() == 1 {
            let Some((candidate, residual)) = tied.into_iter().next() else {
                continue;
            };
            // An earlier moment settles a later ambiguity only if this candidate was among
            // the tied and that moment shows it cleanly (not a scan caught halfway).
            if let Some((prior, _)) = &first_ambiguity
                && (!prior.iter().any(|p| p.plies == candidate.plies)
                    || residual.cost >= super::explain::ANOMALY_COST)
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
    let mut exact: Vec<Candidate> = candidates(c, mover, diff, latest, Depth::Short)
        .into_iter()
        .filter(|cand| cand.irregular == 0 && cand.expect.matches(latest))
        .collect();
    if exact.is_empty() {
        // The opponent may have replied before the board was quiet: two plies.
        exact = two_ply(c, diff)
            .into_iter()
            .filter(|cand| cand.expect.matches(latest))
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
            .is_some_and(Token::may_be_unseen)
}

fn has_hidden(c: &Committed<'_>) -> bool {
    c.tokens.iter().any(|(_, t)| t.may_be_unseen())
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
fn candidates(
    c: &Committed<'_>,
    presser: Color,
    diff: Bitboard,
    cells: &Cells,
    depth: Depth,
) -> Vec<Candidate> {
    let turn = c.state.turn();
    if presser == turn {
        if depth == Depth::Three {
            return three_ply(c, diff);
        }
        let mut out = one_ply(c, presser, diff, cells);
        if depth == Depth::Long {
            // Two presses missed (both players pressed between two clock polls): three plies.
            out.extend(three_ply(c, diff));
        }
        out
    } else {
        // The opponent's press was missed: the opponent moved, then the presser.
        two_ply(c, diff)
    }
}

fn one_ply(c: &Committed<'_>, mover: Color, diff: Bitboard, cells: &Cells) -> Vec<Candidate> {
    let legal = relevant_legal_moves(c.state, c.rules, c.tokens, diff, true);
    let physical: Vec<Move> = physical_moves(c, mover, diff, cells)
        .into_iter()
        .filter(|m| !legal.contains(m))
        .collect();
    let known = |m: Move, legal: bool| (m, legal.then_some(Legality::Legal));
    legal
        .into_iter()
        .map(|m| known(m, true))
        .chain(physical.into_iter().map(|m| known(m, false)))
        .filter_map(|(m, legality)| {
            advance(c.state, c.rules, c.tokens, c.allowances, &[], m, legality)
        })
        .collect()
}

/// The side to move moves, then the other side: a missed press in between.
fn two_ply(c: &Committed<'_>, diff: Bitboard) -> Vec<Candidate> {
    let mut out = Vec::new();
    for m1 in relevant_legal_moves(c.state, c.rules, c.tokens, diff, true) {
        let Some((state1, tokens1, allow1)) = step(c.state, c.rules, c.tokens, c.allowances, m1)
        else {
            continue;
        };
        let unseen = unseen_move(m1, diff);
        for m2 in relevant_legal_moves(&state1, c.rules, &tokens1, diff, !unseen) {
            let legal = Some(Legality::Legal);
            if let Some(cand) = advance(&state1, c.rules, &tokens1, &allow1, &[m1], m2, legal) {
                out.push(cand);
            }
        }
        if out.len() > MAX_DEEP_CANDIDATES {
            return Vec::new();
        }
    }
    out
}

/// A move that changes no differing square: a lying pawn (a hidden promoted piece)
/// moving where the sensors cannot see it. One such move per reading: every one of them
/// explains the board equally, and pairs of them would multiply the readings by the
/// square of its moves for nothing the board could ever tell apart.
fn unseen_move(m: Move, diff: Bitboard) -> bool {
    !touched(m).intersects(diff)
}

/// Beyond this many readings of several plies the board is in chaos (pieces swept off,
/// a board being set up), not two players pressing quickly: no deep reading is tried, so
/// that no report from a board can stall the arbiter.
const MAX_DEEP_CANDIDATES: usize = 1500;

/// How many (reading, moment) pairs one press may score by cost. An ordinary press scores
/// a few hundred.
const MAX_READINGS_SCORED: usize = 3_000;

fn three_ply(c: &Committed<'_>, diff: Bitboard) -> Vec<Candidate> {
    let mut out = Vec::new();
    for m1 in relevant_legal_moves(c.state, c.rules, c.tokens, diff, true) {
        let Some((s1, t1, a1)) = step(c.state, c.rules, c.tokens, c.allowances, m1) else {
            continue;
        };
        let unseen1 = unseen_move(m1, diff);
        for m2 in relevant_legal_moves(&s1, c.rules, &t1, diff, !unseen1) {
            let Some((s2, t2, a2)) = step(&s1, c.rules, &t1, &a1, m2) else {
                continue;
            };
            let unseen2 = unseen1 || unseen_move(m2, diff);
            for m3 in relevant_legal_moves(&s2, c.rules, &t2, diff, !unseen2) {
                let legal = Some(Legality::Legal);
                if let Some(cand) = advance(&s2, c.rules, &t2, &a2, &[m1, m2], m3, legal) {
                    out.push(cand);
                }
            }
            if out.len() > MAX_DEEP_CANDIDATES {
                return Vec::new();
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
    unseen: bool,
) -> Vec<Move> {
    let hidden: Bitboard = tokens
        .iter()
        .filter(|(_, t)| t.may_be_unseen())
        .fold(Bitboard::EMPTY, |b, (s, _)| b.with(s));
    state.legal_moves_where(rules, |&m| {
        let shows = match m {
            Move::Normal {
                promotion: Some(r), ..
            } if r != Role::Queen => return false,
            Move::Normal { from, to, .. } => diff.contains(from) || diff.contains(to),
            Move::Put { to, .. } => diff.contains(to),
            _ => touched(m).intersects(diff),
        };
        shows || (unseen && m.from().is_some_and(|f| hidden.contains(f)))
    })
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
    let (next, _) = state.played(m, rules.promotion).ok()?;
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
    known: Option<Legality>,
) -> Option<Candidate> {
    // Moves generated as legal need no judging again (for a drop, judging asks whether it
    // mates, which is dear).
    let legal = known.unwrap_or_else(|| state.judge(rules, m));
    let (next, t, allow) = step(state, rules, tokens, allowances, m)?;
    let expect = expected(next.board(), next.promoted(), &t, &allow);
    let mut plies = before.to_vec();
    plies.push(m);
    let off_pattern = plies.iter().rev().enumerate().any(|(i, p)| {
        let color = if i % 2 == 0 {
            state.turn()
        } else {
            !state.turn()
        };
        !on_pattern(*p, color)
    });
    let hidden_landing = t.get(move_landing(m)).is_some_and(Token::is_hidden);
    Some(Candidate {
        plies,
        expect,
        tokens: t,
        allowances: allow,
        irregular: u8::from(legal != Legality::Legal),
        off_pattern,
        hidden_landing,
    })
}

/// Could a piece of this kind go from `from` to `to` on an empty board?
/// A pawn goes diagonally only to capture: onto an empty square that is no pattern of its
/// (en passant is a move of its own).
fn on_pattern(m: Move, color: Color) -> bool {
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
