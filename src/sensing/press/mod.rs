//! Judging a clock press: which move (or moves) did the board show around it?
//!
//! The press message reaches the PC late (the board polls the clock) and the board reports
//! a square only when its scan passes it, so "the position at the press" is a judgement
//! over the board's recent history: the latest snapshot in which exactly one candidate
//! explains what the board shows better than "nothing moved", allowing the opponent to be
//! partway through the reply.
//!
//! In parts: this file (the verdict, the depths of reading), `candidates` (the readings
//! of a press), `judge` (by evidence, then by cost), `order` (when the board showed each
//! landing: readings the scan order rules out).

use shakmaty::{Bitboard, CastlingSide, Color, Move, Piece, Rank, Role, Square};

use super::cells::{Cell, Cells, Expect, Token, Tokens, expected, expected_after};
use super::explain::{ANOMALY_COST, Anomaly, Residual, can_reach, explain_before, explain_with};
use crate::Millis;
use crate::dgt::{Orientation, square_to_field};
use crate::rules::{BoardState, Legality, Promotion, RulesPreset, with_promotion};

mod candidates;
mod judge;
mod order;
mod twins;

use candidates::*;
pub use candidates::{is_promotion, last_rank, promotion_role};
use judge::*;
pub use judge::{judge_two_unseen_presses, reply_landed};
use order::*;
pub use twins::{
    legal_pair, lying_twin_ruled_out, lying_twins, may_have_lying_twin, ruled_out, twin_of,
};

/// The board's sensed cells at one moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub t_ms: Millis,
    pub cells: Cells,
}

/// The longest a promoted piece laid on its side reads as a pawn: two passes of the scan
/// in a row at times, and the scan's jitter. A pawn read longer stands upright.
#[must_use]
pub fn lying_read_ms(scan_ms: Millis) -> Millis {
    2 * scan_ms + scan_ms / 4
}

/// The snapshots of the latest run of `piece` on `sq` in `history` (up to the end, if it
/// still shows), if it showed at all.
#[must_use]
pub fn latest_run(
    history: &[Snapshot],
    sq: Square,
    piece: Option<Piece>,
) -> Option<std::ops::Range<usize>> {
    let end = history
        .iter()
        .rposition(|s| s.cells.get(sq).to_piece() == piece)?
        + 1;
    let start = end
        - history[..end]
            .iter()
            .rev()
            .take_while(|s| s.cells.get(sq).to_piece() == piece)
            .count();
    Some(start..end)
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
    /// The order the board's scan passes the squares in (its field numbering, by how the
    /// board is turned), when known.
    pub scan_order: Option<Orientation>,
    /// When each square last changed, as the board reported it: since when a square has
    /// shown what it shows now, when that began before the history at hand.
    pub changed_at: &'a [Millis; 64],
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

/// How late a clock message may reach the PC after the lever (the board polls the clock,
/// which reads in whole seconds: 0.05–1 s).
pub const CLOCK_MESSAGE_LAG_MS: Millis = 1000;

/// The plies of one reading: at most three (the presser's, and with two presses missed the
/// opponent's and the presser's before it), kept inline: no allocation per reading.
pub type Plies = arrayvec::ArrayVec<Move, 3>;

/// One interpretation: the plies played since the last commit (the last by the presser).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub plies: Plies,
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

impl Candidate {
    /// Who made the reading's last ply, `turn` having the first (the plies alternate).
    #[must_use]
    pub fn last_mover(&self, turn: Color) -> Color {
        if self.plies.len() % 2 == 1 {
            turn
        } else {
            !turn
        }
    }

    /// Does the reading's last ply move a promoted piece lying on its side (not promote
    /// one)? Such a piece shows on its landing now and then, if ever, long after it came
    /// down: when the landing first showed says nothing of when it landed.
    #[must_use]
    pub fn last_ply_moves_lying_piece(&self) -> bool {
        self.plies.last().is_some_and(|&m| {
            matches!(
                m,
                Move::Normal {
                    promotion: None,
                    ..
                }
            ) && self
                .tokens
                .get(move_landing(m))
                .is_some_and(Token::may_be_unseen)
        })
    }
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
    /// if the board shows nothing more by `until` (`None`: until the final call: the
    /// opponent has a capturing piece in hand, or the reading takes presses as unseen that
    /// the opponent's next press may yet show were not).
    Provisional {
        candidate: Candidate,
        residual: Residual,
        snapshot: usize,
        until: Option<Millis>,
    },
}

/// What is known of a press besides the board: when its message came, whether the clock
/// showed presses missed before it, whether the opponent's next press has come since.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PressSeen {
    /// When the press message arrived.
    pub at: Millis,
    /// The clock showed that presses were missed (both players pressed between two
    /// polls), so the plies since the last commit may go back further.
    pub missed: bool,
    /// The opponent's next press has come (its message at this time): the opponent's
    /// move is that press's.
    pub answered: Option<Millis>,
    /// A press since the last commit that showed no move: who pressed, and when its
    /// message came. That player's first move since was made before its lever.
    pub unread: Option<(Color, Millis)>,
}

impl PressSeen {
    /// A press whose message came at `at`, nothing else known.
    #[must_use]
    pub fn at(at: Millis) -> PressSeen {
        PressSeen {
            at,
            missed: false,
            answered: None,
            unread: None,
        }
    }
}

/// Judges a press by `presser` over `history` (oldest first, latest last).
#[must_use]
pub fn judge_press(
    c: &Committed<'_>,
    presser: Color,
    history: &[Snapshot],
    seen: PressSeen,
) -> Verdict {
    wait_for_the_victim(c, history, seen, judge_press_now(c, presser, history, seen))
}

/// A reading that takes an opponent's piece the board never showed taken (the capturer
/// unseen on its square), the piece's square emptied only after the press message came
/// (the reply begins after the press): it waits until a reply that lifted that piece
/// would have landed and been reported (a scan and a hand's move), for the board to show
/// which it was (see `victim_moved_on`). Not for a square emptied earlier: the reply to
/// the press would then have to be judged before the TD can answer the promotion question
/// such a capture often raises.
fn wait_for_the_victim(
    c: &Committed<'_>,
    history: &[Snapshot],
    seen: PressSeen,
    verdict: Verdict,
) -> Verdict {
    let Verdict::Commit {
        candidate,
        residual,
        snapshot,
    } = verdict
    else {
        return verdict;
    };
    let until = unseen_capture(c, &candidate, history)
        .map(|(_, _, gone)| history[gone].t_ms)
        .filter(|&gone| gone > seen.at)
        .map(|gone| gone + c.scan_ms + CAPTURE_GESTURE_MS)
        .filter(|&t| history.last().is_some_and(|s| s.t_ms < t));
    match until {
        Some(until) => Verdict::Provisional {
            candidate,
            residual,
            snapshot,
            until: Some(until),
        },
        None => Verdict::Commit {
            candidate,
            residual,
            snapshot,
        },
    }
}

fn judge_press_now(
    c: &Committed<'_>,
    presser: Color,
    history: &[Snapshot],
    seen: PressSeen,
) -> Verdict {
    let PressSeen {
        at: pressed_at,
        missed: missed_presses,
        answered,
        unread,
    } = seen;
    // A move pressed at `pressed_at` was on the board before: its landing, if the board
    // ever showed it, showed within a scan of the press message (which comes after the
    // lever). A reading whose move first lands later takes the next move for this one.
    let deadline = Deadline {
        press: pressed_at + c.scan_ms,
        unread: unread.map(|(by, t)| (by, t + c.scan_ms)),
    };
    let short = judge_at(c, presser, history, Depth::Short, deadline);
    // The reply the short reading leaves in progress stood before its move showed: it
    // answered an earlier move, both presses unseen.
    let reply_first =
        committed_reading(&short).is_some_and(|(k, r)| reply_landed_first(c, k, r, history));
    // An illegal short reading is no answer yet: a deeper one may put it right.
    let short_regular = committed_reading(&short).is_none_or(|(k, _)| k.irregular == 0);
    // A clean reading whose move never showed, with the presser's piece since standing
    // where it has none, is no answer either.
    let moved_on =
        committed_reading(&short).is_some_and(|(k, _)| moved_on_unseen(c, k, presser, history));
    // A clean reading with the opponent's move standing on the board before its landing is
    // no answer either.
    let stood = committed_reading(&short)
        .is_some_and(|(k, _)| opponent_stood_before_landing(c, k, presser, history));
    // Nor is one with the presser's next piece set down after the reply landed, both
    // before this press's message could come: the message is the next move's press.
    let moved_again = committed_reading(&short).is_some_and(|(k, _)| {
        moved_again_before_the_press(c, k, presser, history, pressed_at, deadline.press)
    });
    if clean(&short) && !reply_first && short_regular && !moved_on && !stood && !moved_again {
        return short;
    }
    // The opponent's next press has come and the clock showed none missed: a deeper
    // reading would take the opponent's move as pressed unseen, and that press came —
    // unless the board showed all three plies landing, in order, before this press's
    // message: then the opponent's press came for a move after them.
    // Three plies whose landings the board showed in order, the last by `by`: the
    // opponent's move among them landed before the presser's last move did.
    let all_landed_by = |k: &Candidate, by: Millis| {
        k.plies.len() == 3
            && landings_in_order(c, k, history)
            && last_landing_shown(k, presser, history).is_some_and(|t| t <= by)
    };
    let mut long_first = None;
    if let Some(answered_at) = answered
        && !missed_presses
        && !reply_first
    {
        let long = judge_at(c, presser, history, Depth::Long, deadline);
        let long = as_the_press_left_it(c, presser, history, stood, &short, long, pressed_at);
        let Some((k, _)) = committed_reading(&long).filter(|(k, _)| all_landed_by(k, pressed_at))
        else {
            if let Some(before) =
                before_taking_the_reply(c, presser, history, &short, pressed_at, deadline)
            {
                return before;
            }
            return taken_at_once_before_the_reply(c, history, short, long);
        };
        // Read so, the opponent's press is for a move after the three, and the board
        // shows that move within a scan of its message. Until then the short reading
        // waits; with no such move shown by then, the three plies were no three presses
        // (the last a slide's trail, or a move under way, its press still to come). Not
        // an illegal short reading: three legal plies landing in order explain the board
        // better than an illegal move, their presses late (as they come, the record owes
        // them).
        let answer_shown = history
            .last()
            .is_some_and(|s| reply_landed(&k.expect, &s.cells, !presser));
        if !answer_shown
            && short_regular
            && let Verdict::Commit {
                candidate,
                residual,
                snapshot,
            } = short
        {
            return Verdict::Provisional {
                candidate,
                residual,
                snapshot,
                until: Some(answered_at + c.scan_ms + 60),
            };
        }
        long_first = Some(long);
    }
    // Both players may have pressed between two polls of the clock: look deeper. The
    // clock may show it (`missed_presses`), or not at all (a short turn leaves the whole
    // seconds unchanged); then the deeper reading must put right what the short one could
    // not — an illegal reading, or the mover's own pieces left unexplained — and not just
    // absorb the opponent's next move in progress.
    let long = long_first.unwrap_or_else(|| {
        let long = judge_at(c, presser, history, Depth::Long, deadline);
        as_the_press_left_it(c, presser, history, stood, &short, long, pressed_at)
    });
    // The same plies in another order reach the same board (the presser's two moves may
    // swap): the board showed the order, by when each landing first appeared.
    let long = in_landing_order(c, history, long, history.len().saturating_sub(1));
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
            hold_unseen_presses(c, presser, history, seen, long)
        };
    };
    let mover_anomalies = |r: &Residual| {
        r.anomalies
            .iter()
            .filter(|a| a.color() == Some(presser))
            .count()
    };
    // A legal reading whose every landing the board showed in order, explaining the board
    // as well as an illegal short one, puts it right: the presses between went unseen.
    let puts_right = rl.cost <= rs.cost
        && cl.irregular < cs.irregular
        && cl.irregular == 0
        && landings_in_order(c, cl, history);
    // The opponent's move stood before the presser's last landing: three legal plies whose
    // landings showed in order, the first standing too (no slide's trail), the presser's
    // pieces all as they have them and the rest the opponent's next move under way.
    let moved_with_it = stood
        && cl.plies.len() == 3
        && cl.irregular == 0
        && rl.anomalies.is_empty()
        && landings_in_order(c, cl, history)
        && {
            let first = move_landing(cl.plies[0]);
            first_shown(cl, first, presser, history)
                .is_some_and(|t| stood_for(history, first, presser, t) >= 2 * c.scan_ms)
        };
    // The presser's piece set down after the reply, before the press message: three legal
    // plies, each landing shown in order by then, no anomaly.
    let pressed_after_reply = moved_again
        && cl.plies.len() == 3
        && cl.irregular == 0
        && rl.anomalies.is_empty()
        && all_landed_by(cl, deadline.press);
    let better = puts_right
        || moved_with_it
        || pressed_after_reply
        || rl.cost < rs.cost
            && (missed_presses
            || (reply_first && cl.plies.len() == 3 && landings_in_order(c, cl, history))
            // The presser's last move was down before the lever (its report within a
            // scan of the message), so the opponent's move that landed before it was
            // no reply to this press: two presses went unseen.
            || all_landed_by(cl, deadline.press)
            || cl.irregular < cs.irregular
            || mover_anomalies(rl) < mover_anomalies(rs));
    if better {
        hold_unseen_presses(c, presser, history, seen, long)
    } else {
        short
    }
}

/// The opponent's move stood before the presser's last landing, and the deeper reading
/// is still the short one: by now the opponent may have lifted that piece again for the
/// next move (even before the press message came), which costs the three plies as much
/// as the one, and the fewer plies win the tie. The board as the presser's last landing
/// left it tells them apart: three plies read there replace the one.
fn as_the_press_left_it(
    c: &Committed<'_>,
    presser: Color,
    history: &[Snapshot],
    stood: bool,
    short: &Verdict,
    long: Verdict,
    pressed_at: Millis,
) -> Verdict {
    let same = |l: &Verdict| {
        committed_reading(l)
            .zip(committed_reading(short))
            .is_some_and(|((kl, _), (ks, _))| kl.plies == ks.plies)
    };
    if !stood || !same(&long) {
        return long;
    }
    let Some(landed) =
        committed_reading(short).and_then(|(k, _)| last_landing_shown(k, presser, history))
    else {
        return long;
    };
    let Some(cut) = history.iter().rposition(|s| s.t_ms <= landed) else {
        return long;
    };
    if cut + 1 == history.len() {
        return long;
    }
    // Scored by cost at that moment: three plies alike but for where the presser's first
    // move stopped tie there, and the board showed which (each landing in order).
    let then = judge_by_cost(
        c,
        presser,
        &history[..=cut],
        Depth::Long,
        Deadline::press(pressed_at + c.scan_ms),
    );
    match in_landing_order(c, history, then, cut) {
        then @ Verdict::Commit { .. }
            if committed_reading(&then).is_some_and(|(k, _)| k.plies.len() == 3) =>
        {
            then
        }
        _ => long,
    }
}

/// Readings tied on cost that differ only in the order (or the stops) of their plies:
/// the one whose every landing the board showed, in order, is committed at `snapshot`.
fn in_landing_order(
    c: &Committed<'_>,
    history: &[Snapshot],
    verdict: Verdict,
    snapshot: usize,
) -> Verdict {
    let Verdict::Ambiguous { tied, residual } = verdict else {
        return verdict;
    };
    let in_order: Vec<Candidate> = tied
        .into_iter()
        .filter(|k| landings_in_order(c, k, history))
        .collect();
    match <[Candidate; 1]>::try_from(in_order) {
        Ok([one]) => Verdict::Commit {
            candidate: one,
            residual,
            snapshot,
        },
        Err(rest) => Verdict::Ambiguous {
            tied: rest,
            residual,
        },
    }
}

/// Did the board never show the reading's last move landing, and does it show now a piece
/// of the presser's standing where the reading has none? The opponent's reply puts no
/// piece of the presser's anywhere: the presser moved on, the press between (and the
/// opponent's) unseen by the clock, and the move never shown was the reading's guess at
/// the first one (a knight's first hop read as the hop to a square it never stood on,
/// with the opponent's pawn lifted taken for the capture of it).
fn moved_on_unseen(c: &Committed<'_>, k: &Candidate, presser: Color, history: &[Snapshot]) -> bool {
    let Some(latest) = history.last() else {
        return false;
    };
    // A promoted piece that may lie on its side shows no landing anyway.
    let unseen_piece = k
        .plies
        .last()
        .and_then(|m| m.from())
        .and_then(|from| c.tokens.get(from))
        .is_some_and(Token::may_be_unseen);
    !unseen_piece
        && last_landing_shown(k, presser, history).is_none()
        && Square::ALL.into_iter().any(|sq| {
            let cell = latest.cells.get(sq);
            cell.color() == Some(presser) && !k.expect.allows(sq, cell)
        })
}

/// Had the opponent's reply landed longer before this press's message (`pressed_at`) than
/// a message can come after its lever, and does the board show by `deadline` (a scan after
/// the message) a piece of the presser's standing where the reading has none, set down
/// after that? A reply begins only once the move it answers is pressed, so the message is
/// no press of the reading's move: the presser moved again once the opponent had pressed,
/// and the message is that next move's, the two presses before it unseen.
fn moved_again_before_the_press(
    c: &Committed<'_>,
    k: &Candidate,
    presser: Color,
    history: &[Snapshot],
    pressed_at: Millis,
    deadline: Millis,
) -> bool {
    let by_then = history.partition_point(|s| s.t_ms <= deadline);
    let Some(at) = by_then.checked_sub(1) else {
        return false;
    };
    let snap = &history[at];
    let set_down: Vec<(Square, Millis)> = k
        .expect
        .differences(&snap.cells)
        .into_iter()
        .filter(|&sq| {
            let cell = snap.cells.get(sq);
            cell.color() == Some(presser) && !k.expect.allows(sq, cell)
        })
        .map(|sq| (sq, value_since(history, at, sq)))
        .collect();
    if set_down.is_empty() {
        return false;
    }
    // The reply's piece stands where neither the record nor the reading has it (not the
    // victim of the reading's capture, still on its square).
    let before = c.expect();
    let replied = history[..by_then]
        .iter()
        .find(|s| {
            k.expect.differences(&s.cells).into_iter().any(|sq| {
                let cell = s.cells.get(sq);
                cell.color() == Some(!presser) && !before.allows(sq, cell)
            })
        })
        .map(|s| s.t_ms)
        .filter(|&t| t + CLOCK_MESSAGE_LAG_MS < pressed_at);
    replied.is_some_and(|replied| set_down.iter().any(|&(_, since)| since > replied))
}

/// A press judged only once the opponent's press came (its message late, the two bunched
/// with the presser's next), the board by then showing the presser's piece taken at once
/// on its landing, never shown there, and the presser's next move: alone, the press reads
/// as that next move, out of place (an illegal pawn step onto a square the record has
/// empty, or a move leaving the taker's square unexplained). Read deeper, all three plies
/// stand, legal, with no anomaly, the last landing after the taker: the presser's next
/// move, its press still to come (or missed by the clock with the taker's, the press that
/// came the opponent's next). The press is then unclear on its own (one reading, no
/// commit): the arbiter reads it with the opponent's press, as both plies of that press (a
/// drop taken at once), and the presser's next press reads the move under way; failing
/// that, at the final call, the three plies stand.
fn taken_at_once_before_the_reply(
    c: &Committed<'_>,
    history: &[Snapshot],
    short: Verdict,
    long: Verdict,
) -> Verdict {
    let (Some((cs, rs)), Some((cl, rl))) = (committed_reading(&short), committed_reading(&long))
    else {
        return short;
    };
    let taken_at_once = match cl.plies.as_slice() {
        [first, taker, next] => {
            let sq = move_landing(*first);
            let mover = c.state.turn();
            let taken = first_shown(cl, sq, !mover, history);
            // Never shown before the taker was; or the taker never shown either, taken
            // back there at once by the presser's next move.
            let unseen = match taken {
                Some(taken) => first_shown(cl, sq, mover, history).is_none_or(|t| t >= taken),
                None => move_landing(*next) == sq,
            };
            // The presser's next move landed after the taker, as the board showed them.
            let next_after = first_shown(cl, move_landing(*next), mover, history)
                .is_some_and(|t| taken.is_none_or(|taken| t >= taken));
            move_landing(*taker) == sq && taker.is_capture() && unseen && next_after
        }
        _ => false,
    };
    // The board shows the three plies with no anomaly, the opponent's next move at most
    // under way (the press that came may be for it, the two between missed by the clock).
    let clean_three = rl.anomalies.is_empty() && rl.cost < ANOMALY_COST;
    let better = cl.irregular == 0 && clean_three && (cs.irregular > 0 || rl.cost < rs.cost);
    if !(taken_at_once && better) {
        return short;
    }
    match long {
        Verdict::Commit {
            candidate,
            residual,
            ..
        } => Verdict::Ambiguous {
            tied: vec![candidate],
            residual,
        },
        _ => short,
    }
}

/// An illegal short reading whose piece landed where the opponent's piece had been set
/// down since the press (no piece of the opponent's stood there before): the presser's next
/// move taking the reply, shown before the press message's scan was out (a slow scan, a
/// late message), the opponent's press between them having come. The press is read on the
/// board as it stood between the reply and the message, if that shows a legal move
/// cleanly (`Ra3` where `Ra3 N@h3 Rxh3` read as one illegal `Ra1h3`).
fn before_taking_the_reply(
    c: &Committed<'_>,
    presser: Color,
    history: &[Snapshot],
    short: &Verdict,
    pressed_at: Millis,
    deadline: Deadline,
) -> Option<Verdict> {
    let (k, _) = committed_reading(short)?;
    let landing = move_landing(*k.plies.last()?);
    if k.irregular == 0 || c.state.board().color_at(landing) == Some(!presser) {
        return None;
    }
    let landed = history
        .iter()
        .position(|s| s.cells.get(landing).color() == Some(presser))?;
    // The board from the reply set down there until the press message (the landing not
    // shown yet), latest first: the last moment it shows the press's move cleanly, before
    // the presser's piece was lifted again to take.
    let at_press = history.iter().rposition(|s| s.t_ms <= pressed_at)?;
    let reply_set = history
        .iter()
        .position(|s| s.cells.get(landing).color() == Some(!presser))?;
    if at_press >= landed || reply_set > at_press {
        return None;
    }
    (reply_set..=at_press).rev().find_map(|i| {
        let before = judge_at(c, presser, &history[..=i], Depth::Short, deadline);
        let regular = committed_reading(&before).is_some_and(|(k, _)| k.irregular == 0);
        (clean(&before) && regular).then_some(before)
    })
}

/// A deeper reading takes presses as unseen. When the clock did not show them missed and
/// the presser's last move first showed only after the press message, or its piece has
/// gone on from there since, it may as well be the presser's next move under way (a
/// queen's slide caught on its way, on a slow scan; a press message held back) while the
/// opponent's press is still to come: it waits for the final call, and the opponent's
/// press, if it comes, rules it out.
fn hold_unseen_presses(
    c: &Committed<'_>,
    presser: Color,
    history: &[Snapshot],
    seen: PressSeen,
    long: Verdict,
) -> Verdict {
    let Verdict::Commit {
        candidate,
        residual,
        snapshot,
    } = long
    else {
        return long;
    };
    // Shown after the message, or within a scan before it: placed, pressed and polled
    // in that scan, or still to be pressed (the message from a poll before it).
    let shown_late =
        last_landing_shown(&candidate, presser, history).is_some_and(|t| t + c.scan_ms > seen.at);
    // The opponent's ply showed before this press's lever can have been pulled (its
    // message comes at most a clock lag after): this press came after that ply, so it is
    // for the presser's move after it, not for one before it with the rest to come.
    let answered_before = candidate.plies.len().checked_sub(2).is_some_and(|i| {
        first_shown(
            &candidate,
            move_landing(candidate.plies[i]),
            !presser,
            history,
        )
        .is_some_and(|t| t + CLOCK_MESSAGE_LAG_MS < seen.at)
    });
    // The presser's last move shown, then its piece gone on from there (the board's
    // latest report): a slide's trail, the piece still on its way, as much as a move and
    // a piece lifted again after its own press. The opponent's press, if it comes, tells.
    let moved_on = candidate.plies.last().is_some_and(|&m| {
        let to = move_landing(m);
        history
            .last()
            .is_some_and(|s| !candidate.expect.allows(to, s.cells.get(to)))
    });
    if seen.missed || candidate.plies.len() < 2 || !(shown_late || moved_on) || answered_before {
        return Verdict::Commit {
            candidate,
            residual,
            snapshot,
        };
    }
    Verdict::Provisional {
        candidate,
        residual,
        snapshot,
        until: None,
    }
}

/// Judges three presses together: `presser`'s (whose message came at `pressed_at`), the
/// opponent's before it, and `presser`'s before that, all three seen (the middle one
/// could not be told on its own: a drop captured before the board showed it, whose kind
/// only the dropper's next move tells). Readings of three plies only. `first_at`: when
/// the first press's message came, if known (it showed no move).
#[must_use]
pub fn judge_three_presses(
    c: &Committed<'_>,
    presser: Color,
    history: &[Snapshot],
    pressed_at: Millis,
    first_at: Option<Millis>,
) -> Verdict {
    if presser != c.state.turn() {
        return Verdict::Nothing {
            baseline: Residual::default(),
        };
    }
    let deadline = Deadline {
        press: pressed_at + c.scan_ms,
        unread: first_at.map(|t| (presser, t + c.scan_ms)),
    };
    judge_at(c, presser, history, Depth::Three, deadline)
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
        if residual.cost < ANOMALY_COST)
}

/// When a reading's plies were down at the latest, as the board would show it: a scan after
/// the press message being judged, and, for the first move of the player whose press since
/// the last commit showed no move, a scan after that press's message.
#[derive(Clone, Copy, Debug)]
struct Deadline {
    press: Millis,
    unread: Option<(Color, Millis)>,
}

impl Deadline {
    fn press(press: Millis) -> Deadline {
        Deadline {
            press,
            unread: None,
        }
    }
}

fn judge_at(
    c: &Committed<'_>,
    presser: Color,
    history: &[Snapshot],
    depth: Depth,
    deadline: Deadline,
) -> Verdict {
    if let Some(v) = judge_by_evidence(c, presser, history, depth, deadline) {
        return v;
    }
    judge_by_cost(c, presser, history, depth, deadline)
}

/// Every reading worth scoring for a press, less those with a move that landed only after
/// the press could have shown it (`deadlines`), or a move begun only after its own press.
/// `shown_off`: the squares any snapshot of the history shows otherwise than the record.
fn readings(
    c: &Committed<'_>,
    presser: Color,
    (diff, shown_off): (Bitboard, Bitboard),
    cells: &Cells,
    depth: Depth,
    history: &[Snapshot],
    deadlines: Deadline,
) -> Vec<Candidate> {
    let mut cands = candidates(c, presser, diff, cells, depth);
    let deadline = deadlines.press;
    let after_deadline = history.last().is_some_and(|s| s.t_ms > deadline);
    let before = c.expect();
    // One pass: a reading is large, and each pass that drops one moves the rest. An
    // illegal move whose piece left its square more than a scan after its landing showed,
    // or after the press, joins a landing and a later lift (a drop, then the dropper's
    // piece adjusted or knocked once the lever was down). A legal one may show so
    // (real-johan's pawn pushed along the board showed on c6 a third of a second before c7
    // emptied): the evidence decides.
    cands.retain(|k| {
        let ruled_out = (after_deadline && lands_late(c, k, history, deadline))
            || lands_out_of_order(c, k, history)
            || plies_out_of_order(c, &before, k, history)
            || victim_moved_on(c, k, history)
            || victim_left_after_the_press(c, k, history, deadline)
            || (k.irregular > 0 && lifted_after_landing(c, k, history))
            || (k.irregular > 0
                && after_deadline
                && departs_after_the_press(c, &before, k, history, deadline))
            || (history
                .last()
                .is_some_and(|s| s.t_ms > deadline + c.scan_ms)
                && departs_long_after_the_press(c, &before, k, history, deadline))
            || victim_gone_long_before(c, k, history)
            || set_back_unmoved(c, &before, k, history)
            || slid_past_its_stop(c, k, history)
            || moved_on_after_the_reply(c, &before, k, history, shown_off)
            || deadlines
                .unread
                .is_some_and(|unread| left_after_its_press(c, &before, k, history, unread));
        !ruled_out
    });
    cands
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
        exact = two_ply(c, diff, latest)
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
