//! The two ways of judging a press over its snapshots: by evidence (a reading the board
//! showed exactly) and by cost (the reading that explains the board best).

use super::*;

/// The two lifts of a capture, victim first, are one movement of the hand: at most this
/// far apart.
pub(super) const CAPTURE_GESTURE_MS: Millis = 700;

/// How many fields of the board's scan after a landing its origin may lie and still be
/// read in the same pass: a pawn's single step is 8 fields along the scan, its double
/// step 16 (with the scan's jitter on top).
const SAME_PASS_FIELDS: Millis = 20;

/// The board showed exactly the result of one candidate at some moment: the latest such
/// moment wins, if what the board shows now still agrees with it (the opponent partway
/// through the reply, or an anomaly that no other candidate explains better).
///
/// This comes first because a cheaper explanation of the latest state can be wrong: with
/// the reply's mover and victim both in hand, "the bishop captured on a6 and was lifted
/// again" explains the board better than the bishop move the board actually showed.
pub(super) fn judge_by_evidence(
    c: &Committed<'_>,
    presser: Color,
    history: &[Snapshot],
    depth: Depth,
    deadlines: Deadline,
) -> Option<Verdict> {
    let latest = history.last()?;
    let deadline = deadlines.press;
    let base_expect = c.expect();
    // What each snapshot shows off the record: a reading matches a snapshot when that is
    // all on squares the reading changes, and the reading allows what stands there.
    let offs: Vec<Bitboard> = history
        .iter()
        .map(|snap| base_expect.differences(&snap.cells))
        .collect();
    let union = offs.iter().fold(Bitboard::EMPTY, |u, &d| u | d);
    if union.is_empty() {
        return None;
    }
    let cands = readings(
        c,
        presser,
        (union, union),
        &latest.cells,
        depth,
        history,
        deadlines,
    );
    if cands.is_empty() {
        return None;
    }
    let changed: Vec<Bitboard> = cands
        .iter()
        .map(|k| k.expect.differs_from(&base_expect))
        .collect();
    // Follow the board in time order. A candidate shown exactly becomes the current
    // interpretation; a later one replaces it only if the current one stopped fitting
    // because of the mover's own pieces (a correction, a slide going further, castling
    // completed), not because the opponent began the reply.
    let mut current: Option<(usize, usize)> = None; // (candidate, snapshot)
    let mut current_since: Millis = 0;
    // A later reading the current one may yet give way to, once the reply shows.
    let mut undecided: Option<(usize, Option<Millis>)> = None;
    // No reading shown exactly: the presser's move may have shown only with the opponent's
    // hand already on the reply (its first lift reported before the move's landing, in the
    // scan's order). A move shown with the presser's pieces exactly as it has them and
    // only the reply's first lift besides, or the whole reply made at once and shown
    // first with the move, is shown all the same (not with a promoted piece on the
    // board, whose token may lie unseen, nor for a promotion).
    for relaxed in [false, true] {
        if relaxed
            && (current.is_some() || depth != Depth::Short || c.tokens.iter().next().is_some())
        {
            break;
        }
        for (index, snap) in history.iter().enumerate() {
            // The one candidate shown exactly at this moment, if exactly one is. A reading
            // that leaves every square as it was (a move, a drop on the square it left, the
            // piece back taking the drop) is shown by any board nothing happened on: no
            // evidence for it, so never the reading shown.
            let off = offs[index];
            let exact: Vec<usize> = (0..cands.len())
                .filter(|&i| changed[i].any())
                .filter(|&i| {
                    (if relaxed {
                        matches!(
                            cands[i].plies[..],
                            [Move::Normal {
                                promotion: None,
                                ..
                            }]
                        ) && (shown_beside_reply(&cands[i].expect, &snap.cells, presser)
                            || shown_beside_whole_reply(
                                &cands[i].expect,
                                changed[i],
                                history,
                                index,
                                presser,
                                c.scan_ms,
                            ))
                    } else {
                        cands[i].expect.matches_beside(&snap.cells, off, changed[i])
                    }) && visibly_landed(&cands[i], &snap.cells)
                })
                .collect();
            // Several shown at once may differ only in plies before the last that the board
            // cannot tell apart (the kind of a drop taken before the scan saw it): the one
            // keeping the current reading's earlier plies is the same reading with its last
            // move shown further on (a pawn's landing reported before its lift).
            // Not when the current reading's last ply is a drop and this one's a move: the
            // drop read the landing before the lift showed, and the piece it took from the
            // hand may be what kept the earlier plies from dropping that kind (a queen
            // dropped on d2 and taken at once, then `Qc5` shown landing first: `Q@c5` left
            // the earlier drop a knight). Once the move shows, the earlier plies are open
            // again: no reading stands until the board tells them apart.
            let drop_then_move = |i: usize| {
                current.is_some_and(|(cur, _)| {
                    matches!(cands[cur].plies.last(), Some(Move::Put { .. }))
                        && !matches!(cands[i].plies.last(), Some(Move::Put { .. }))
                })
            };
            let same_before = |i: usize| {
                current.is_some_and(|(cur, _)| {
                    let (a, b) = (&cands[cur].plies, &cands[i].plies);
                    a.len() == b.len() && a.len() > 1 && a[..a.len() - 1] == b[..b.len() - 1]
                }) && !drop_then_move(i)
            };
            let one = match exact[..] {
                [one] => one,
                [] => match slid_on_beside_reply(&cands, current, history, index, presser).or_else(
                    || {
                        pushed_beside_extra_or_reply(
                            c, &cands, current, history, index, deadline, presser,
                        )
                    },
                ) {
                    Some(one) => one,
                    None => continue,
                },
                _ => match exact
                    .iter()
                    .filter(|&&i| same_before(i))
                    .collect::<Vec<_>>()[..]
                {
                    [&one] => one,
                    // Or only in the kind of a drop taken since, which the board showed
                    // while it stood: the reading with that kind.
                    _ if exact.iter().all(|&i| {
                        only_the_drop_differs(&cands[exact[0]].plies, &cands[i].plies)
                    }) =>
                    {
                        match exact
                            .iter()
                            .filter(|&&i| drops_shown(c, &cands[i], &history[..=index]))
                            .collect::<Vec<_>>()[..]
                        {
                            [&one] => one,
                            _ => {
                                if exact.iter().all(|&i| drop_then_move(i)) {
                                    current = None;
                                }
                                continue;
                            }
                        }
                    }
                    _ => continue,
                },
            };
            match current {
                None => {
                    current = Some((one, index));
                    current_since = snap.t_ms;
                }
                Some((cur, _)) if cur == one => current = Some((cur, index)),
                Some((cur, cur_at)) => {
                    let r = explain_with(
                        &cands[cur].expect,
                        &snap.cells,
                        presser,
                        Some(c.state.reserve(!presser)),
                    );
                    let (appeared, gone) = mover_changes(&cands[cur].expect, &snap.cells, presser);
                    // ...unless the opponent stands there by now: the reply took it (a victim
                    // lifted first), it did not leave for the other reading's move.
                    // The victim lifted first and the capturer are one gesture: the
                    // capturer's lift (or its landing, if the scan shows that first) shows
                    // within a scan and a hand's move of it.
                    let opp = cands[cur].expect.board().by_color(!presser);
                    let reply_seen_at = history[index..]
                        .iter()
                        .find(|s| {
                            opp.into_iter()
                                .any(|sq| s.cells.get(sq).color() != Some(!presser))
                                || gone
                                    .into_iter()
                                    .any(|sq| s.cells.get(sq).color() == Some(!presser))
                        })
                        .map(|s| s.t_ms);
                    let own_lift = own_departure(c, &cands[cur], gone, history, index, deadline);
                    let taken = !own_lift
                        && gone
                            .into_iter()
                            .all(|sq| latest.cells.get(sq).color() == Some(!presser))
                        && reply_seen_at
                            .is_some_and(|t| t <= snap.t_ms + c.scan_ms + CAPTURE_GESTURE_MS);
                    let vanished = gone.any() && !taken;
                    let more_regular = cands[one].irregular < cands[cur].irregular;
                    let less_regular = cands[one].irregular > cands[cur].irregular;
                    // A mover's piece standing somewhere new is the mover's doing (a correction,
                    // a slide going on). A mover's piece gone may also be the opponent lifting a
                    // victim: it only counts toward an equally regular reading, and only within
                    // one scan of the reading it would complete (the lift of a move comes before
                    // its placement, so their reports are at most a scan apart).
                    // Not when this reading's one move lifts a piece the board showed gone
                    // later than the pass that showed the landing could have: a pawn dropped
                    // in front of its own pawn, and the reply's hand at once on the pawn
                    // behind, is no push (`lifted_after_landing`).
                    let same_move = snap.t_ms.saturating_sub(current_since) <= c.scan_ms + 60;
                    // The mover's piece left in the same pass as the current reading's landing
                    // (its own hand, see `own_departure`), and this reading's last ply is that
                    // piece's move: the board has shown the move whole only now (an en passant
                    // victim lifted well after the pawn landed), so it replaces the reading
                    // that left the piece unexplained, however late.
                    let departs_here = own_lift
                        && cands[one]
                            .plies
                            .last()
                            .is_some_and(|&m| gone.is_subset(touched(m)) && m.from().is_some());
                    // A less regular reading shown only because a piece was lifted well after
                    // that reading's landing showed is no move (a piece knocked off its square
                    // after the press): the anomaly is the lift.
                    // The mover's piece moved on only once the reply was under way: the
                    // mover's next move, the reading shown stands, unless this reading is that
                    // one with the reply and the next move after it (presses missed).
                    let (shown, now) = (&cands[cur].plies, &cands[one].plies);
                    let goes_on_to_next = now.len() == shown.len() + 2 && now.starts_with(shown);
                    let next_move = !goes_on_to_next
                        && moved_after_reply(
                            c,
                            &cands[cur].expect,
                            presser,
                            history,
                            cur_at,
                            index,
                        );
                    let switch = !next_move
                        && (appeared
                            || more_regular
                            || (vanished
                                && !less_regular
                                && ((same_move
                                    && !lifted_after_landing(c, &cands[one], history))
                                    || departs_here))
                            || (r.cost >= ANOMALY_COST
                                && !(less_regular
                                    && lifted_after_landing(c, &cands[one], history))));
                    // A switch on a piece gone alone, where the opponent has a piece in hand
                    // that could be taking it and has not landed anywhere yet: which it was,
                    // the reply will show.
                    let takers = (switch
                        && !own_lift
                        && !appeared
                        && !more_regular
                        && r.cost < ANOMALY_COST
                        && !reply_landed(&cands[one].expect, &latest.cells, !presser))
                    .then(|| takers_of(&cands[cur].expect, gone, &latest.cells, !presser))
                    .flatten();
                    // A capturer in hand: until the reply lands. One still standing: for a
                    // scan, in which its lift would be reported.
                    // The same reading shown again is still the one waiting, since it was
                    // first shown (it may be shown again long after: the piece stays gone).
                    if undecided.is_none_or(|(u, _)| u != one) {
                        undecided = takers.map(|in_hand| {
                            // The capturer is lifted within a hand's move of its victim
                            // (the victim lifted first), reported within a scan.
                            let until =
                                (!in_hand).then_some(snap.t_ms + c.scan_ms + CAPTURE_GESTURE_MS);
                            (one, until)
                        });
                    }
                    if switch && takers.is_none() {
                        current_since = snap.t_ms;
                        current = Some((one, index));
                    }
                }
            }
        }
    }
    let (cand, index) = current?;
    let one = &cands[cand];
    // A pawn shown where a promoted piece lying on its side could have landed: which it
    // was, the next scans tell (a pawn set down stays, a lying one showed for a scan or
    // two).
    let lying = lying_rivals(c, one, &cands, &history[..=index], history);
    if let Some(verdict) = lying
        .as_ref()
        .and_then(|l| l.gone(c, one, presser, history))
    {
        return Some(verdict);
    }
    // What a reading leaves unexplained on the board as it stands now.
    let explain_now = |expect: &Expect| {
        explain_with(
            expect,
            &latest.cells,
            presser,
            Some(c.state.reserve(!presser)),
        )
    };
    let now = explain_now(&one.expect);
    if let Some((later, until)) = undecided {
        let candidate = cands[later].clone();
        let residual = explain_now(&candidate.expect);
        let snapshot = history.len() - 1;
        return Some(Verdict::Provisional {
            candidate,
            residual,
            snapshot,
            until,
        });
    }
    // Only needed when the board has moved on since (computed then: they are dear).
    let baseline_cost = || explain_now(&base_expect).cost;
    // Does a reading explain the board now at a cost of at most `limit`? One differing on
    // more squares than that cannot (each differing square costs at least one), so only
    // the few close ones are explained.
    let explains_within = |k: &Candidate, limit: u32| {
        k.expect.differences(&latest.cells).count() as u32 <= limit
            && explain_now(&k.expect).cost <= limit
    };
    // The board now is the shown move with the opponent partway through the reply: it
    // stands. With anomalies on top (a knocked piece), it stands if it still explains the
    // board better than no move and not far worse than any other reading.
    // Since it was shown, only pieces of the mover gone (a victim being taken, the next
    // move begun once the opponent pressed) and the opponent's doing: it stands.
    let (appeared_since, _) = mover_changes(&one.expect, &latest.cells, presser);
    // The shown move's piece went on from its landing to where another reading lands it
    // (a slide going further, a piece set down and then adjusted), in one movement of the
    // hand: that reading replaces the shown one if it explains the board now better, even
    // when an anomaly elsewhere (a piece pocketed meanwhile) kept it from being shown
    // exactly.
    // Unless the piece was still on its landing at the press, or moved on only once the
    // reply was under way: then whatever it did is the mover's next move.
    let landing_seen = one
        .plies
        .last()
        .map(|&m| value_since(history, index, move_landing(m)));
    let next_move = appeared_since
        && (landing_seen.is_some_and(|t| stood_at_the_press(c, t, deadline))
            || moved_after_reply(c, &one.expect, presser, history, index, history.len() - 1));
    let moved_on = appeared_since
        && !next_move
        && cands.iter().any(|k| {
            went_on_to(
                one,
                k,
                presser,
                &history[index..],
                c.scan_ms + CAPTURE_GESTURE_MS,
            ) && explains_within(k, now.cost.saturating_sub(1))
        });
    // Another reading committed in the shown one's place, as the board stands now.
    let commit_now = |k: &Candidate| Verdict::Commit {
        candidate: k.clone(),
        residual: explain_now(&k.expect),
        snapshot: history.len() - 1,
    };
    // The shown move's piece left its landing before the press could show (the hand going
    // on along its slide), and the opponent's piece now stands where another reading of
    // that same move lands it, as a capture: the piece went on to that square and was
    // taken there at once, before the scan passed it. That reading stands if it explains
    // the board with no anomaly, the shown one leaving the piece missing.
    if !moved_on && now.cost >= ANOMALY_COST {
        let mut taken: Vec<&Candidate> = cands
            .iter()
            .filter(|k| {
                taken_further_on(one, k, presser, &history[index..], (deadline, c.scan_ms))
                    && explains_within(k, ANOMALY_COST - 1)
            })
            .collect();
        if let (Some(k), None) = (taken.pop(), taken.pop()) {
            return Some(commit_now(k));
        }
    }
    // The shown reading leaves a piece of the mover's gone that left its square in the
    // same pass of the scan as the landing showed (the mover's own hand: a pawn pushed,
    // where a drop on its landing looked the same until the scan reached the origin), the
    // opponent's first lift reported in between, so the move itself never showed exactly:
    // the one move from that square to the same landing stands if it explains the board
    // with no anomaly and is as regular (not a neighbour pocketed in the same pass, read
    // as a pawn gone diagonally). With another of the mover's pieces gone in that pass as
    // well (pocketed with the move), the move stands if it leaves only those gone: an
    // anomaly fewer than the shown reading (a knight's b1-c3 with the c2 pawn pocketed is
    // no knight dropped on c3 with b1 and c2 both missing).
    // A piece of the mover's lifted in a later pass, the reply standing by now, is the
    // mover's next move begun (the press judged late): no part of this move, it stays gone
    // in every reading.
    if !moved_on && now.cost >= ANOMALY_COST {
        let (_, gone) = mover_changes(&one.expect, &latest.cells, presser);
        let this_move = gone & !left_after_the_move(c, one, gone, history, presser);
        let n = one.plies.len();
        let landing = one.plies.last().map(|&m| move_landing(m));
        if own_departure(c, one, this_move, history, history.len() - 1, deadline) {
            let mut from_there: Vec<&Candidate> = cands
                .iter()
                .filter(|k| {
                    let Some(&m) = k.plies.last() else {
                        return false;
                    };
                    // The gone pieces this move accounts for (the rest: pocketed).
                    let own = gone & touched(m);
                    k.plies.len() == n
                        && k.irregular <= one.irregular
                        && !k.off_pattern
                        && k.plies[..n - 1] == one.plies[..n - 1]
                        && Some(move_landing(m)) == landing
                        && m.from().is_some()
                        && own.any()
                        && if own == gone {
                            explains_within(k, ANOMALY_COST - 1)
                        } else {
                            explains_within(k, now.cost - ANOMALY_COST)
                        }
                })
                .collect();
            if let (Some(k), None) = (from_there.pop(), from_there.pop()) {
                return Some(commit_now(k));
            }
        }
    }
    let agrees = !moved_on
        && (!appeared_since
            || next_move
            || next_move_after_reply(&one.expect, presser, history, index)
            || now.cost < ANOMALY_COST
            || (now.cost < baseline_cost()
                && !cands
                    .iter()
                    .any(|k| explains_within(k, now.cost - ANOMALY_COST))));
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
        now.cost + ANOMALY_COST - 1
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
    // The one reading `which` picks (none if several do), held for the reply to tell.
    let hold_for_the_reply = |which: &dyn Fn(&&Candidate) -> bool| {
        let mut picked = cands.iter().filter(which);
        match (picked.next(), picked.next()) {
            (Some(k), None) => Some(Verdict::Provisional {
                candidate: k.clone(),
                residual: explain_now(&k.expect),
                snapshot: history.len() - 1,
                until: None,
            }),
            _ => None,
        }
    };
    // An illegal reading that explains the board now only with another of the mover's
    // pieces gone, as a victim of the reply, beside a legal one that moved that very piece
    // to the same landing, the illegal one's piece then missing (pocketed in the same pass
    // of the scan, a pawn beside the capturer, say). Which it was, the reply tells: it
    // takes on that square or it does not. Until it does, the legal reading is held, and
    // it stands at the final call.
    if one.irregular > 0 && now.cost < ANOMALY_COST {
        let (_, gone) = mover_changes(&one.expect, &latest.cells, presser);
        let n = one.plies.len();
        let landing = one.plies.last().map(|&m| move_landing(m));
        let moved_the_victim = |k: &&Candidate| {
            let Some(&m) = k.plies.last() else {
                return false;
            };
            k.irregular == 0
                && !k.off_pattern
                && k.plies.len() == n
                && k.plies[..n - 1] == one.plies[..n - 1]
                && Some(move_landing(m)) == landing
                && m.from()
                    .is_some_and(|f| gone.contains(f) && latest.cells.get(f).is_empty())
                && explains_within(k, now.cost + ANOMALY_COST)
        };
        if let Some(held) = hold_for_the_reply(&moved_the_victim) {
            return Some(held);
        }
    }
    // An illegal move of a piece to a square a legal reading reaches some other way (a
    // drop of that kind, say), that piece's square then the reply's: the opponent's hand
    // on it as a victim, lifted in the same pass of the scan that showed the landing
    // (`R@e1` with the rook on a1 being taken, read as the rook's jump a1-e1). Which it
    // was, the reply tells: it takes on that square, or the square stays empty. Until it
    // does, the legal reading is held.
    if one.irregular > 0
        && now.cost < ANOMALY_COST
        && let Some(&Move::Normal { from, to, .. }) = one.plies.last()
        && latest.cells.get(from).is_empty()
    {
        let n = one.plies.len();
        let victim = Bitboard::from_square(from);
        let left_to_the_reply = |k: &&Candidate| {
            k.irregular == 0
                && !k.off_pattern
                && k.plies.len() == n
                && k.plies[..n - 1] == one.plies[..n - 1]
                && k.plies
                    .last()
                    .is_some_and(|&m| move_landing(m) == to && !touched(m).contains(from))
                && takers_of(&k.expect, victim, &latest.cells, !presser).is_some()
                && {
                    let r = explain_now(&k.expect);
                    r.anomalies.is_empty() && r.in_progress.contains(from)
                }
        };
        if let Some(held) = hold_for_the_reply(&left_to_the_reply) {
            return Some(held);
        }
    }
    // The mover's next move begun since is no misfit of this one: the reading is told by
    // the board as it stood before the mover's piece moved on (the reply landed, say), so
    // that a deeper reading cannot seem better only by taking that next move for a
    // correction of this one.
    let now = if next_move {
        history[index..]
            .iter()
            .rev()
            .find(|s| !mover_changes(&one.expect, &s.cells, presser).0)
            .map_or(now, |s| {
                explain_with(
                    &one.expect,
                    &s.cells,
                    presser,
                    Some(c.state.reserve(!presser)),
                )
            })
    } else {
        now
    };
    if let Some(until) = lying.map(|l| l.confirmed_at) {
        return Some(Verdict::Provisional {
            candidate: one.clone(),
            residual: now,
            snapshot: index,
            until: Some(until),
        });
    }
    Some(Verdict::Commit {
        candidate: one.clone(),
        residual: now,
        snapshot: index,
    })
}

/// A board with a clock that has stood still a while, no press waiting: the side to move
/// and then the opponent may both have moved and pressed between two of the clock's
/// messages (two presses within one whole second leave its reading as it was, and the
/// board sends the clock's times only when they change). The pair of legal moves the
/// board shows exactly, if one pair does, and only as hands make such a pair: every square
/// it changes changed on the board since `since` (when the board first showed the last
/// move recorded: an old knocked piece is no move), and the reply left its square no
/// earlier than the first move landed, give or take a scan pass (`changed_at`: when each
/// square last changed). A reply taking on that very landing (a check taken back at once)
/// hides the landing from `latest`: `history` tells when the first move's piece stood
/// there, or else its lift from where it came; a drop taken there must have shown (taken
/// at once, it could have been any piece in hand, and only a press could say it was
/// there at all).
#[must_use]
pub fn judge_two_unseen_presses(
    c: &Committed<'_>,
    latest: &Cells,
    history: &[Snapshot],
    changed_at: &[Millis; 64],
    since: Millis,
    scan_ms: Millis,
) -> Option<Candidate> {
    let diff = c.expect().differences(latest);
    if diff.is_empty() || diff.into_iter().any(|sq| changed_at[sq.to_usize()] < since) {
        return None;
    }
    let mover = c.state.turn();
    // The snapshots since the last move recorded showed (`since`).
    let recent = history.partition_point(|s| s.t_ms < since);
    let as_hands_make_it = |k: &Candidate| {
        let [first, reply] = k.plies[..] else {
            return false;
        };
        let landed = move_landing(first);
        let reply_left = match reply {
            Move::Put { to, .. } => to,
            other => other.from().unwrap_or(landed),
        };
        // The reply takes on the landing: when the first move's piece showed there, or else
        // when it left its square (taken before the scan passed it). A drop must have
        // shown: one taken at once could have been any piece in hand, and only a press
        // could say it was there at all. So must a piece laid on its side: it reads as
        // nothing where it lies, so its square never showed it leave.
        let landed_at = if landed == move_landing(reply) {
            // A drop shown is the piece shown, not another kind the dropper held.
            if let Move::Put { role, to } = first
                && !history[recent..]
                    .iter()
                    .any(|s| s.cells.get(to).to_piece() == Some(Piece { color: mover, role }))
            {
                return false;
            }
            let shown = first_shown(k, landed, mover, &history[recent..]);
            let lying = |from: Square| c.tokens.get(from).is_some_and(Token::may_be_unseen);
            match (shown, first.from()) {
                (Some(t), _) => t,
                (None, Some(from)) if !lying(from) => changed_at[from.to_usize()],
                (None, _) => return false,
            }
        } else {
            changed_at[landed.to_usize()]
        };
        changed_at[reply_left.to_usize()] + scan_ms >= landed_at
    };
    let mut exact: Vec<Candidate> = two_ply(c, diff, latest)
        .into_iter()
        .filter(|k| {
            k.plies.iter().all(|m| touched(*m).intersects(diff))
                && k.expect.matches(latest)
                && as_hands_make_it(k)
        })
        .collect();
    if exact.len() == 1 { exact.pop() } else { None }
}

/// Readings landing a promoted piece laid on its side where the shown reading set a pawn
/// of the mover (a drop of a pawn, say), and when the shown pawn stood long enough to be no
/// lying one (a lying pawn reads as a pawn for a pass now and then, two in a row at times:
/// see `settle_tokens`).
struct LyingRivals<'a> {
    square: Square,
    rivals: Vec<&'a Candidate>,
    /// When the latest run of the pawn on the square ended (the square read as something
    /// else), if it has.
    ended: Option<Millis>,
    /// Two scans after that run began, and the scan's jitter: by then a lying piece that
    /// read as a pawn for a pass or two reads as nothing again (a pawn standing reads as
    /// one on every pass).
    confirmed_at: Millis,
    /// The pawn shown went within two scans and showed again since: the flicker of a lying
    /// piece (a pawn taken by the reply does not come back).
    came_back: bool,
}

impl LyingRivals<'_> {
    /// The pawn is gone again within two scans of showing, nobody's piece in its place: it
    /// was the lying piece read as a pawn for a pass or two. Its move is the reading (one of them,
    /// if several lying pieces could have gone there: the TD is asked), provisionally while
    /// an opponent's piece that could take there is in hand (or may yet be lifted): that
    /// reply landing there says the pawn stood and was its victim. Unless the `shown`
    /// reading explains the board now better (a pawn that really moved there, its square
    /// left empty).
    fn gone(
        &self,
        c: &Committed<'_>,
        shown: &Candidate,
        presser: Color,
        history: &[Snapshot],
    ) -> Option<Verdict> {
        let latest = history.last()?;
        let cell = latest.cells.get(self.square);
        if self.came_back {
            let pawn = Some(shown.last_mover(c.state.turn()).pawn());
            let short = self.ended.unwrap_or(latest.t_ms) <= self.confirmed_at;
            if !short || !(cell.is_empty() || cell.to_piece() == pawn) {
                return None;
            }
        } else if !cell.is_empty() || self.ended? > self.confirmed_at {
            return None;
        }
        // An opponent's piece that could take there in hand, landed nowhere yet: the pawn
        // may have gone as the victim of the reply, not as a lying piece's flicker. Where
        // the reply lands tells (on the square: the pawn stood and was taken, which the
        // shown reading reads). One still standing may yet be lifted: a capturer follows
        // its victim within a hand's move.
        let mut wait = None;
        if !self.came_back && !reply_landed(&shown.expect, &latest.cells, !presser) {
            let square = Bitboard::from(self.square);
            match takers_of(&shown.expect, square, &latest.cells, !presser) {
                Some(true) => wait = Some(None),
                Some(false) => {
                    wait = Some(self.ended? + c.scan_ms + CAPTURE_GESTURE_MS)
                        .filter(|&t| latest.t_ms < t)
                        .map(Some);
                }
                None => {}
            }
        }
        let residual = |k: &Candidate| {
            explain_with(
                &k.expect,
                &latest.cells,
                presser,
                Some(c.state.reserve(!presser)),
            )
        };
        let shown_cost = residual(shown).cost;
        let rivals: Vec<&Candidate> = self
            .rivals
            .iter()
            .copied()
            .filter(|k| residual(k).cost <= shown_cost)
            .collect();
        match rivals.as_slice() {
            [] => None,
            [one] => Some(match wait {
                Some(until) => Verdict::Provisional {
                    candidate: (*one).clone(),
                    residual: residual(one),
                    snapshot: history.len() - 1,
                    until,
                },
                None => Verdict::Commit {
                    candidate: (*one).clone(),
                    residual: residual(one),
                    snapshot: history.len() - 1,
                },
            }),
            several => Some(Verdict::Ambiguous {
                tied: several.iter().map(|k| (*k).clone()).collect(),
                residual: residual(several[0]),
            }),
        }
    }
}

/// A lying promoted piece reads as nothing, or now and then as a pawn for a pass of the
/// scan (two at times): the shown reading's pawn on its landing may be that. `until_shown` is the history
/// up to the moment the reading was shown.
fn lying_rivals<'a>(
    c: &Committed<'_>,
    shown: &Candidate,
    cands: &'a [Candidate],
    until_shown: &[Snapshot],
    history: &[Snapshot],
) -> Option<LyingRivals<'a>> {
    let last = *shown.plies.last()?;
    let square = move_landing(last);
    let mover = shown.last_mover(c.state.turn());
    let pawn = Some(mover.pawn());
    if shown.hidden_landing || until_shown.last()?.cells.get(square).to_piece() != pawn {
        return None;
    }
    let rivals: Vec<&Candidate> = cands
        .iter()
        .filter(|k| {
            k.hidden_landing
                && k.plies.len() == shown.plies.len()
                && k.plies.last().is_some_and(|&m| move_landing(m) == square)
        })
        .collect();
    if rivals.is_empty() {
        return None;
    }
    // The latest run of the pawn on the square, up to its end (now, or when it went).
    let run = latest_run(history, square, pawn)?;
    let (since, end) = (history[run.start].t_ms, run.end);
    let confirmed = |since: Millis| since + lying_read_ms(c.scan_ms);
    // The pawn's first run on the square, and whether it ended within two scans.
    let first = history
        .iter()
        .position(|s| s.cells.get(square).to_piece() == pawn)?;
    let first_end = first
        + history[first..]
            .iter()
            .take_while(|s| s.cells.get(square).to_piece() == pawn)
            .count();
    let first_went = history
        .get(first_end)
        .is_some_and(|s| s.t_ms <= confirmed(history[first].t_ms));
    Some(LyingRivals {
        square,
        rivals,
        ended: history.get(end).map(|s| s.t_ms),
        confirmed_at: confirmed(since),
        came_back: first_went && end > first_end,
    })
}

/// Did the mover's pieces change from what `expect` (a reading the board showed exactly at
/// snapshot `at`) has only after the opponent's reply had landed? The reply comes after the
/// press, so those changes are the mover's next move begun (a drop pushed on, a piece
/// moved again once the opponent pressed), not a correction of this one: the reading
/// stands, whatever a cheaper reading of the latest board would make of them.
fn next_move_after_reply(expect: &Expect, mover: Color, history: &[Snapshot], at: usize) -> bool {
    let Some(latest) = history.last() else {
        return false;
    };
    let Some(replied) = history[at..]
        .iter()
        .find(|s| reply_landed(expect, &s.cells, !mover))
    else {
        return false;
    };
    let mine: Vec<Square> = expect
        .differences(&latest.cells)
        .into_iter()
        .filter(|&sq| {
            latest.cells.get(sq).color() == Some(mover) || expect.color(sq) == Some(mover)
        })
        .collect();
    // At the reply's landing the mover's squares were still as the reading has them, or
    // held the reply's piece (which the mover's next move then took).
    !mine.is_empty()
        && mine.iter().all(|&sq| {
            let cell = replied.cells.get(sq);
            expect.allows(sq, cell) || cell.color() == Some(!mover)
        })
}

/// Did the piece of `shown`'s last move go on from its landing to `other`'s (the same plies
/// but the last, the same piece from the same square, another landing), the landing left
/// and the other one showing the piece within `gesture_ms` of each other in `since` (the
/// history from the moment `shown` was shown)?
fn went_on_to(
    shown: &Candidate,
    other: &Candidate,
    mover: Color,
    since: &[Snapshot],
    gesture_ms: Millis,
) -> bool {
    let (Some((&last, before)), Some((&next, other_before))) =
        (shown.plies.split_last(), other.plies.split_last())
    else {
        return false;
    };
    let (from, landing, to) = (last.from(), move_landing(last), move_landing(next));
    if before != other_before
        || from.is_none()
        || from != next.from()
        || last.role() != next.role()
        || landing == to
    {
        return false;
    }
    let left = since
        .iter()
        .find(|s| s.cells.get(landing).color() != Some(mover))
        .map(|s| s.t_ms);
    let arrived = since
        .iter()
        .find(|s| s.cells.get(to).to_piece() == Some(next.role().of(mover)))
        .map(|s| s.t_ms);
    match (left, arrived) {
        (Some(l), Some(a)) => l.abs_diff(a) <= gesture_ms,
        _ => false,
    }
}

/// Did the piece of `shown`'s last move go on from its landing to `other`'s and get taken
/// there at once (the same plies but the last, the same piece from the same square, a
/// landing further along the line it slid on, or next to the shown one: a correction), in
/// `since` (the history from the moment `shown` was shown)? The piece left the shown
/// landing by `deadline` (the press message comes after the lever, and the board reports
/// a lift within a scan: the mover's own hand, not a knock after the press), and the
/// opponent's piece stands on the other landing now, arrived there after the shown one was
/// left (the board may have shown the mover's piece there for a pass, or never). The
/// reply begins a lever, a glance and a hand's move after the piece went on, which was
/// after it left the shown landing: a reply whose first change the board reported sooner
/// than that after the piece left (allowing a scan's doubt) answered the shown move, and
/// the piece left it as the mover's next move (a queen on d6 for a second, the knight lifted for `Ne6`, the
/// queen then lifted for `Qc6`: no `Qe6 Nxe6`).
fn taken_further_on(
    shown: &Candidate,
    other: &Candidate,
    mover: Color,
    since: &[Snapshot],
    (deadline, scan_ms): (Millis, Millis),
) -> bool {
    let (Some((&last, before)), Some((&next, other_before))) =
        (shown.plies.split_last(), other.plies.split_last())
    else {
        return false;
    };
    let (Some(from), landing, to) = (last.from(), move_landing(last), move_landing(next)) else {
        return false;
    };
    let went_on =
        shakmaty::attacks::between(from, to).contains(landing) || landing.distance(to) == 1;
    if before != other_before
        || Some(from) != next.from()
        || last.role() != next.role()
        || landing == to
        || !went_on
    {
        return false;
    }
    let Some(left) = since
        .iter()
        .position(|s| s.cells.get(landing).color() != Some(mover))
    else {
        return false;
    };
    let opp_on = |s: &Snapshot| s.cells.get(to).color() == Some(!mover);
    // The reply's first report: an opponent's piece off its square or standing anew.
    let began = since.iter().find(|s| {
        shown.expect.differences(&s.cells).into_iter().any(|sq| {
            shown.expect.color(sq) == Some(!mover) || s.cells.get(sq).color() == Some(!mover)
        })
    });
    let answered_shown =
        began.is_some_and(|b| b.t_ms + scan_ms < since[left].t_ms + REPLY_AFTER_LANDING_MS);
    // Taken there: the opponent's piece now on it shows as one of theirs that can take
    // there from a square now shown left (a piece that could only have been dropped there
    // took nothing: the square was empty, the shown move the one made).
    let board = other.expect.board();
    let taken_there = since.last().is_some_and(|s| {
        let cell = s.cells.get(to);
        opp_on(s)
            && board
                .attacks_to(to, !mover, board.occupied())
                .into_iter()
                .any(|o| s.cells.get(o).is_empty() && other.expect.allows(o, cell))
    });
    since[left].t_ms <= deadline
        && !answered_shown
        && taken_there
        && !since[..left].iter().any(opp_on)
}

/// Were the mover's pieces `gone` at snapshot `at` lifted by the mover's own hand, as the
/// start of the move `shown` lands (a pawn pushed, where a drop of a pawn on its landing
/// looked the same until the scan reached the origin)? A piece lifted to move leaves
/// before it lands: when the scan reaches the origin a few fields after the landing, in
/// the same pass, it shows it empty. The opponent's reply lifts a victim only after the
/// press, so it shows in that same pass only if the landing itself was reported late, a
/// few fields before a fast reply: a move is by far the likelier reading. Later than that
/// (a scan's worth of fields, or after the press could have shown) it is the reply.
pub(super) fn own_departure(
    c: &Committed<'_>,
    shown: &Candidate,
    gone: Bitboard,
    history: &[Snapshot],
    at: usize,
    deadline: Millis,
) -> bool {
    let Some(&last) = shown.plies.last() else {
        return false;
    };
    let mover = shown.last_mover(c.state.turn());
    let landing = move_landing(last);
    let Some(landed_at) = first_shown(shown, landing, mover, history) else {
        return false;
    };
    gone.any()
        && gone.into_iter().all(|sq| {
            let since = value_since(history, at, sq);
            since <= same_pass_to(c, landing, landed_at, sq) && since <= deadline
        })
}

/// Until when a lift of `sq` may show in the pass that showed the landing on `landing` at
/// `landed_at`: a pawn's step or two along the scan, or as far on as that pass reaches
/// `sq` (a bishop's retreat across the board, `same_pass_reaches`).
fn same_pass_to(c: &Committed<'_>, landing: Square, landed_at: Millis, sq: Square) -> Millis {
    let near = same_pass_until(c, landed_at);
    same_pass_reaches(c, landing, landed_at, sq).map_or(near, |t| near.max(t))
}

/// Could the opponent be capturing on every square of `gone` (a piece of theirs attacks
/// it on the board `expect` has)? `Some(true)` if such a piece is in hand now (lifted to
/// take), `Some(false)` if they all still stand.
pub(super) fn takers_of(
    expect: &Expect,
    gone: Bitboard,
    cells: &Cells,
    opp: Color,
) -> Option<bool> {
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

/// Until when a square reported after a landing at `landed_at` was reported in the same
/// pass of the scan, a few fields on.
fn same_pass_until(c: &Committed<'_>, landed_at: Millis) -> Millis {
    landed_at + c.scan_ms * SAME_PASS_FIELDS / 64
}

/// The mover's pieces of `gone` that left their squares later than the pass of the scan
/// that showed `shown`'s landing, once the opponent's reply stands on the board elsewhere:
/// not the reply's victims, nor this move's piece; the mover's next move begun (the press
/// judged late), or a piece knocked. A scan may show such a lift before the reply's
/// landing, which it passes later.
fn left_after_the_move(
    c: &Committed<'_>,
    shown: &Candidate,
    gone: Bitboard,
    history: &[Snapshot],
    mover: Color,
) -> Bitboard {
    let (Some(latest), Some(&last)) = (history.last(), shown.plies.last()) else {
        return Bitboard::EMPTY;
    };
    let replied = shown
        .expect
        .differences(&latest.cells)
        .into_iter()
        .any(|sq| !gone.contains(sq) && latest.cells.get(sq).color() == Some(!mover));
    let Some(landed_at) =
        first_shown(shown, move_landing(last), mover, history).filter(|_| replied)
    else {
        return Bitboard::EMPTY;
    };
    let at = history.len() - 1;
    gone.into_iter()
        .filter(|&sq| value_since(history, at, sq) > same_pass_until(c, landed_at))
        .collect()
}

/// Are two readings the same plies but for the kind of piece dropped on a square (and so
/// of the piece a later ply takes there)?
fn only_the_drop_differs(a: &[Move], b: &[Move]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| match (*x, *y) {
            (Move::Put { to: p, .. }, Move::Put { to: q, .. }) => p == q,
            (
                Move::Normal {
                    role,
                    from,
                    to,
                    promotion,
                    ..
                },
                Move::Normal {
                    role: r,
                    from: f,
                    to: t,
                    promotion: pr,
                    ..
                },
            ) => (role, from, to, promotion) == (r, f, t, pr),
            _ => x == y,
        })
}

/// Has an opponent's piece landed where `expect` has none of its (the reply placed)?
#[must_use]
pub fn reply_landed(expect: &Expect, cells: &Cells, opp: Color) -> bool {
    expect
        .differences(cells)
        .into_iter()
        .any(|sq| cells.get(sq).color() == Some(opp))
}

/// How the mover's pieces on the board differ from what `expect` has for them: a piece of
/// the mover standing where it is not expected (appeared), a piece of the mover expected
/// and not there (vanished). The opponent's pieces do not count: that is the reply.
pub(super) fn mover_changes(expect: &Expect, cells: &Cells, mover: Color) -> (bool, Bitboard) {
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
/// no evidence that the move was completed. A landing the reading empties again (the
/// same piece moved on by a later ply) is no longer there to be seen.
pub(super) fn visibly_landed(cand: &Candidate, cells: &Cells) -> bool {
    !cand.hidden_landing
        && cand.plies.iter().all(|m| {
            let sq = move_landing(*m);
            !cells.get(sq).is_empty() || cand.expect.board().piece_at(sq).is_none()
        })
}

/// No candidate was ever shown exactly (a fast reply began before the move was scanned):
/// the latest snapshot in which one candidate explains the board best.
pub(super) fn judge_by_cost(
    c: &Committed<'_>,
    presser: Color,
    history: &[Snapshot],
    depth: Depth,
    deadlines: Deadline,
) -> Verdict {
    let base_expect = c.expect();
    let mut first_ambiguity: Option<(Vec<Candidate>, Residual)> = None;
    let mut latest_baseline: Option<Residual> = None;
    // Readings are scored moment by moment, latest first; a board in chaos (many
    // moments, many readings) gets a bounded effort, so no report can stall the arbiter.
    let mut budget = MAX_READINGS_SCORED;
    // What each snapshot shows off the record, and all of them together.
    let offs: Vec<Bitboard> = history
        .iter()
        .map(|s| base_expect.differences(&s.cells))
        .collect();
    let shown_off = offs.iter().fold(Bitboard::EMPTY, |u, &d| u | d);
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
        let diff = offs[index];
        let cands = readings(
            c,
            presser,
            (diff, shown_off),
            &snap.cells,
            depth,
            history,
            deadlines,
        );
        if cands.len() > budget {
            break;
        }
        budget -= cands.len();
        // Every differing square costs at least one (in progress) whatever explains it, so
        // readings are scored cheapest bound first and the rest skipped once their bound
        // exceeds the best cost found: what is skipped could neither win nor tie. Sorted
        // and kept by reference: a reading is large, and only the one decided is copied.
        let mut bounded: Vec<(u32, &Candidate)> = cands
            .iter()
            .map(|cand| (cand.expect.differences(&snap.cells).count() as u32, cand))
            .collect();
        bounded.sort_by_key(|(bound, _)| *bound);
        let mut best_cost = u32::MAX;
        let mut scored: Vec<(&Candidate, Residual)> = Vec::new();
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
            let gone_before = gone_before_move(c, cand, &r, history, index);
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
                r.cost += ANOMALY_COST;
            }
            if r.cost < baseline.cost || (r.cost == baseline.cost && moves_hidden_piece(c, cand)) {
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
        let best = key(scored[0].0, &scored[0].1);
        let mut tied: Vec<(&Candidate, Residual)> = scored
            .into_iter()
            .take_while(|(cand, r)| key(cand, r) == best)
            .collect();
        // A promoted piece's token moved, or a pawn dropped where it landed with the token
        // lying since: the board showed which by when the token's square emptied.
        keep_the_one_picked(&mut tied, |all, (k, _)| {
            token_moved_in_one_gesture(c, k, all, history)
        });
        // Readings alike but for a drop's kind, the dropped piece taken since: the one
        // whose dropped piece the board showed on its square is the drop made (not a
        // reading with no drop at all, which a drop shown says nothing against).
        let drops = |k: &Candidate| k.plies.iter().any(|m| matches!(m, Move::Put { .. }));
        if tied.iter().all(|(k, _)| drops(k)) {
            keep_the_one_picked(&mut tied, |_, (k, _)| drops_shown(c, k, history));
        }
        if tied.len() == 1 {
            let Some((candidate, residual)) = tied.into_iter().next() else {
                continue;
            };
            // A pawn shown where a promoted piece lying on its side could have landed, the
            // reply begun before it showed (so never shown exactly): which it was, the next
            // scans tell, as in `judge_by_evidence`.
            if let Some(lying) = lying_rivals(c, candidate, &cands, &history[..=index], history) {
                return lying
                    .gone(c, candidate, presser, history)
                    .unwrap_or_else(|| Verdict::Provisional {
                        candidate: candidate.clone(),
                        residual,
                        snapshot: index,
                        until: Some(lying.confirmed_at),
                    });
            }
            // An earlier moment settles a later ambiguity only if this candidate was among
            // the tied and that moment shows it cleanly (not a scan caught halfway).
            if let Some((prior, _)) = &first_ambiguity
                && (!prior.iter().any(|p| p.plies == candidate.plies)
                    || residual.cost >= ANOMALY_COST)
            {
                continue;
            }
            return Verdict::Commit {
                candidate: candidate.clone(),
                residual,
                snapshot: index,
            };
        }
        if first_ambiguity.is_none() {
            let residual = tied[0].1.clone();
            first_ambiguity = Some((tied.into_iter().map(|(c, _)| c.clone()).collect(), residual));
        }
    }
    match first_ambiguity {
        Some((tied, residual)) => Verdict::Ambiguous { tied, residual },
        None => Verdict::Nothing {
            baseline: latest_baseline.unwrap_or_default(),
        },
    }
}

/// Does the board show this one-ply reading with, besides, only the opponent's reply begun:
/// the presser's pieces all as the reading has them, and one of the opponent's pieces
/// lifted (not yet set down: a piece standing anew could as well be knocked there)?
fn shown_beside_reply(expect: &Expect, cells: &Cells, presser: Color) -> bool {
    let mut lifted = 0;
    for sq in expect.differences(cells) {
        if cells.get(sq).is_empty() && expect.color(sq) == Some(!presser) {
            lifted += 1;
        } else {
            return false;
        }
    }
    lifted == 1
}

/// Does the board show this one-ply reading with, besides, only the opponent's whole reply
/// made before the scan reached the move's landing (Nd4-b5 lifted and set down at once
/// after White's press, the scan passing b5 and d4 before f4, so the bishop on f4 first
/// shows beside it): one of the opponent's pieces gone from its square and standing on an
/// empty square it can go to from there, the reply first shown no earlier than a scan
/// before the move's first change (`changed`)? A piece of the opponent's knocked onto a
/// square it could go to before the move began shows so too, but from longer before.
fn shown_beside_whole_reply(
    expect: &Expect,
    changed: Bitboard,
    history: &[Snapshot],
    at: usize,
    presser: Color,
    scan_ms: Millis,
) -> bool {
    let Some(cells) = history.get(at).map(|snap| &snap.cells) else {
        return false;
    };
    let off = expect.differences(cells);
    let mut squares = off.into_iter();
    let (Some(a), Some(b), None) = (squares.next(), squares.next(), squares.next()) else {
        return false;
    };
    let (from, to) = if expect.color(a) == Some(!presser) {
        (a, b)
    } else {
        (b, a)
    };
    let whole = cells.get(from).is_empty()
        && expect.color(to).is_none()
        && expect.board().piece_at(from).is_some_and(|piece| {
            piece.color == !presser
                && cells.get(to) == Cell::piece(piece)
                && can_reach(expect.board(), from, piece, to, false)
                // Onto a square the reading leaves empty a pawn goes only straight ahead:
                // diagonally it goes only by taking (the pawn behind a drop taken, which
                // a push would have moved away first).
                && (piece.role != Role::Pawn || from.file() == to.file())
        });
    let since = |squares: Bitboard| {
        squares
            .into_iter()
            .map(|sq| value_since(history, at, sq))
            .min()
    };
    whole
        && since(changed)
            .zip(since(off))
            .is_some_and(|(moved, replied)| replied + scan_ms >= moved)
}

/// The piece of the reading shown so far went on along its move to a further square (a
/// pawn's double step scanned at b3, then b4), and the board shows it there only with the
/// reply's first lift already reported (the opponent's hand was fast, the scan passed
/// the landing late): the one reading moving the same piece from the same square to
/// where it stands now, shown so beside the reply. Only if the piece had left the shown
/// landing before that lift showed: a piece lifted from it once the reply was under way is
/// the mover's next move (a rook set on f1, the knight lifted, the rook back to g1).
fn slid_on_beside_reply(
    cands: &[Candidate],
    current: Option<(usize, usize)>,
    history: &[Snapshot],
    at: usize,
    presser: Color,
) -> Option<usize> {
    let simple = |k: &Candidate| match k.plies[..] {
        [
            m @ Move::Normal {
                promotion: None, ..
            },
        ] => Some(m),
        _ => None,
    };
    let cells = &history.get(at)?.cells;
    let shown = simple(&cands[current?.0])?;
    let mut further = (0..cands.len()).filter(|&i| {
        simple(&cands[i]).is_some_and(|m| {
            m.from() == shown.from()
                && m.role() == shown.role()
                && m.to() != shown.to()
                && shown_beside_reply(&cands[i].expect, cells, presser)
                && visibly_landed(&cands[i], cells)
        })
    });
    let one = further.next()?;
    if further.next().is_some() {
        return None;
    }
    let lifted = cands[one]
        .expect
        .differences(cells)
        .into_iter()
        .map(|sq| value_since(history, at, sq))
        .min()?;
    (value_since(history, at, shown.to()) < lifted).then_some(one)
}

/// The reading shown so far drops a piece where the mover's own piece of that kind has
/// now landed from its square, left in the same pass as the landing (a pawn pushed with a
/// pawn in hand, see `own_departure`), but the board shows that move only beside pieces
/// standing where nothing should (an extra piece set down in the same moment), or beside
/// the reply's first lift (the opponent's hand fast, reported in the pass that showed the
/// square left): the one reading making that move, if the rest is only such.
fn pushed_beside_extra_or_reply(
    c: &Committed<'_>,
    cands: &[Candidate],
    current: Option<(usize, usize)>,
    history: &[Snapshot],
    at: usize,
    deadline: Millis,
    presser: Color,
) -> Option<usize> {
    let cur = &cands[current?.0];
    let [Move::Put { role, to }] = cur.plies[..] else {
        return None;
    };
    let cells = &history.get(at)?.cells;
    let mut pushed = (0..cands.len()).filter(|&i| {
        let k = &cands[i];
        let [
            Move::Normal {
                role: r,
                from,
                capture: None,
                to: t,
                promotion: None,
            },
        ] = k.plies[..]
        else {
            return false;
        };
        let extra = k.expect.differences(cells);
        let beside_extra = extra
            .into_iter()
            .all(|sq| !cells.get(sq).is_empty() && k.expect.board().piece_at(sq).is_none());
        r == role
            && t == to
            && extra.any()
            && !extra.contains(from)
            && (beside_extra || shown_beside_reply(&k.expect, cells, presser))
            && own_departure(c, cur, Bitboard::from_square(from), history, at, deadline)
    });
    let one = pushed.next()?;
    pushed.next().is_none().then_some(one)
}

/// Keeps of the readings `tied` only the one `picks` picks (given all of them), if it
/// picks exactly one.
fn keep_the_one_picked<T>(tied: &mut Vec<T>, picks: impl Fn(&[T], &T) -> bool) {
    if tied.len() < 2 {
        return;
    }
    let picked: Vec<usize> = (0..tied.len()).filter(|&i| picks(tied, &tied[i])).collect();
    if let [one] = picked[..] {
        tied.swap(0, one);
        tied.truncate(1);
    }
}

/// Does the reading's first ply move a promoted piece showing as a pawn (upright, or not
/// yet known to be) to a square where every other reading `tied` with it drops a pawn of
/// the mover's instead, the rest alike; and did the board show the token's square empty
/// within a movement of the hand and a scan of the pawn on the landing? Lifted and set
/// down in one movement, the two are reported so. Read as the drop, the token would lie
/// on its side (unseen) and have stopped reading as a pawn in the very pass the drop
/// landed beside it: a lying pawn reads as one only now and then.
fn token_moved_in_one_gesture(
    c: &Committed<'_>,
    cand: &Candidate,
    tied: &[(&Candidate, Residual)],
    history: &[Snapshot],
) -> bool {
    let Some(&Move::Normal {
        from,
        to,
        capture: None,
        promotion: None,
        ..
    }) = cand.plies.first()
    else {
        return false;
    };
    if !matches!(c.tokens.get(from), Some(Token::Unsettled | Token::Pawn)) {
        return false;
    }
    let mover = c.state.turn();
    let pawn = Cell::piece(mover.pawn());
    let drop_there = |k: &Candidate| {
        k.plies.len() == cand.plies.len()
            && k.plies[1..] == cand.plies[1..]
            && k.plies.first()
                == Some(&Move::Put {
                    role: Role::Pawn,
                    to,
                })
    };
    let rivals_drop = tied
        .iter()
        .filter(|(k, _)| !std::ptr::eq(*k, cand))
        .all(|(k, _)| drop_there(k));
    // The token's square empty since (it may have emptied before the history began).
    let gone = history
        .last()
        .is_some_and(|s| s.cells.get(from).is_empty())
        .then(|| c.changed_at[from.to_usize()]);
    let landed = history
        .iter()
        .find(|s| s.cells.get(to) == pawn)
        .map(|s| s.t_ms);
    // One movement of the hand (as long as a capture's two lifts), reported within a pass.
    rivals_drop
        && gone
            .zip(landed)
            .is_some_and(|(gone, landed)| gone.abs_diff(landed) <= c.scan_ms + CAPTURE_GESTURE_MS)
}

/// Does the reading drop a piece, and did the board show each piece it drops, as that
/// piece, on its square at some moment?
fn drops_shown(c: &Committed<'_>, cand: &Candidate, history: &[Snapshot]) -> bool {
    let mut color = c.state.turn();
    let mut drops = 0;
    for &m in &cand.plies {
        if let Move::Put { role, to } = m {
            drops += 1;
            let cell = Cell::piece(Piece { color, role });
            if !history.iter().any(|s| s.cells.get(to) == cell) {
                return false;
            }
        }
        color = !color;
    }
    drops > 0
}
