//! Deciding clock presses: judging the board's recent history when a press falls due
//! (hindsight over the ply it answers, a hidden promoted piece's guessed move), committing
//! the plies into the record, and, without a clock, committing a position that stands
//! still.

use shakmaty::{Color, Move, Role, Square};

use super::track::{BeforeLastPly, OwedPress, PendingPress, StableCommit, Track, UnexplainedPress};
use super::unseen_step::one_step_of_unseen_pair;
use super::{AlertKind, Arbiter, HiddenOption, Output, PlyRef, Subject, color_name, role_name};
use crate::dgt::ClockSide;
use crate::rules::{BoardState, IllegalReason, Legality, PlyMeta, Seat, with_promotion};
use crate::sensing::{
    self, Anomaly, Candidate, Cell, Committed, Token, Verdict, judge_press, judge_stable,
    judge_three_presses, judge_two_unseen_presses,
};
use crate::{BoardId, Millis};

impl Arbiter {
    pub(super) fn committed<'a>(&'a self, b: BoardId) -> Committed<'a> {
        let track = &self.tracks[b];
        Committed {
            state: self.game.board(b),
            rules: self.game.rules(),
            tokens: &track.appearance.tokens,
            allowances: &track.appearance.allowances,
            scan_ms: track.timing.scan_ms,
            scan_order: track.sensed.orientation,
            changed_at: &track.sensed.changed_at,
        }
    }

    /// Judges the press waiting on board `b`. On the `final_call` (the press has waited
    /// long enough, or the next press came) an unclear board is told to the TD; before it,
    /// an unclear board waits for the next snapshot.
    pub(super) fn decide_press(&mut self, b: BoardId, final_call: bool) {
        let Some(pending) = self.tracks[b].presses.pending.clone() else {
            return;
        };
        if self.game.declared().is_some() || self.tracks[b].sensed.result_signal.is_some() {
            self.tracks[b].presses.pending = None;
            self.tracks[b].presses.carried = None;
            return;
        }
        // A press after the match ended on the other board can record nothing: nor is
        // anything the TD could be asked about it (where a hidden piece went, say). On the
        // board that ended it, a press is still judged: with the reply it may read the
        // ending ply again.
        let ended_elsewhere = self
            .game
            .result()
            .and_then(|r| r.board())
            .is_some_and(|at| at != b);
        if ended_elsewhere
            && self.tracks[b].presses.carried.is_none()
            && !self.game.accepts_play_on(b, Some(pending.t_msg))
        {
            self.tracks[b].presses.pending = None;
            return;
        }
        let now = self.now;
        self.settle_tokens(b);
        let history: Vec<sensing::Snapshot> = self.tracks[b]
            .sensed
            .history
            .iter()
            .filter(|s| s.t_ms <= now)
            .copied()
            .collect();
        if let Some(earlier) = self.tracks[b].presses.carried.take() {
            self.decide_with_earlier(b, &pending, earlier, &history, final_call);
            return;
        }
        let (by, verdict) = self.judge_pending(b, &pending, &history);
        // Set again below if the board still shows the presser's pieces moved unexplained.
        if let Some(p) = &mut self.tracks[b].presses.pending {
            p.moved_unread = false;
        }
        match verdict {
            Verdict::Commit {
                candidate,
                snapshot,
                ..
            } => {
                self.tracks[b].presses.pending = None;
                let cells = self.cells_at(b, &history, snapshot);
                self.commit_press_noting_taken_drop(
                    b, &pending, &candidate, &cells, &history, final_call,
                );
            }
            // The opponent's move under way may yet show another reading: wait for it, and
            // on the final call take this one.
            Verdict::Provisional {
                candidate,
                snapshot,
                until,
                ..
            } => {
                if final_call || until.is_some_and(|t| t <= now) {
                    self.tracks[b].presses.pending = None;
                    let cells = self.cells_at(b, &history, snapshot);
                    self.commit_press_noting_taken_drop(
                        b, &pending, &candidate, &cells, &history, final_call,
                    );
                } else {
                    self.wait_for_next_snapshot(b);
                    if let Some(p) = &mut self.tracks[b].presses.pending {
                        p.decide_at = until;
                        p.awaits_reply = true;
                    }
                }
            }
            Verdict::Ambiguous { tied, .. } if hidden_only(&self.tracks[b], &tied) => {
                self.tracks[b].presses.pending = None;
                self.commit_hidden_guess(b, &tied, pending.t_msg, pending.clock_ms);
            }
            // One reading, unclear only on which press is which (a piece taken at once,
            // the presses bunched): nothing left to wait for, it stands.
            Verdict::Ambiguous { tied, .. } if final_call && tied.len() == 1 => {
                self.tracks[b].presses.pending = None;
                let cells = self.tracks[b].sensed.cells;
                self.commit_press_noting_taken_drop(
                    b, &pending, &tied[0], &cells, &history, final_call,
                );
            }
            Verdict::Ambiguous { tied, residual } => {
                if final_call {
                    self.tracks[b].presses.pending = None;
                    if let Some(pushes) = self.pushed_not_dropped(b, &tied, &history) {
                        self.commit_hidden_push(b, &pending, &pushes);
                        return;
                    }
                    // `b3 cxb3` or `b4 cxb3` en passant: the record takes one, the TD is
                    // asked which (no desync: both explain the board).
                    if let Some(candidate) = one_step_of_unseen_pair(&tied) {
                        let cells = self.tracks[b].sensed.cells;
                        self.commit_press(b, &pending, &candidate, &cells, final_call);
                        return;
                    }
                    if let Some(candidate) = self.pick_taken_drop(b, &tied) {
                        let drop = self.taken_drops.last().map(|t| t.ply);
                        let cells = self.tracks[b].sensed.cells;
                        self.commit_press(b, &pending, &candidate, &cells, final_call);
                        if let Some(ply) = drop {
                            self.note_taken_drop(ply);
                        }
                        return;
                    }
                    self.report_ambiguous(b, by, &tied, &residual);
                } else {
                    self.wait_for_next_snapshot(b);
                    if let Some(p) = &mut self.tracks[b].presses.pending {
                        p.ambiguous = true;
                    }
                }
            }
            Verdict::Nothing { baseline } => {
                self.press_shows_nothing(b, by, &pending, &baseline, final_call);
            }
        }
    }

    /// The verdict on the pending press, and who pressed (the first press of a board may
    /// turn out to be the other colour's).
    fn judge_pending(
        &mut self,
        b: BoardId,
        pending: &PendingPress,
        history: &[sensing::Snapshot],
    ) -> (Color, Verdict) {
        let mut by = pending.by;
        let t_msg = pending.t_msg;
        let seen = self.press_seen(b, pending);
        let mut verdict = judge_press(&self.committed(b), by, history, seen);
        // The first press of a board also calibrates the clock: if only the other colour
        // moved, the clock sides were the other way round.
        if self.game.plies_on(b) == 0
            && matches!(verdict, Verdict::Nothing { .. })
            && let alt @ Verdict::Commit { .. } = judge_press(
                &self.committed(b),
                !by,
                history,
                sensing::PressSeen::at(t_msg),
            )
        {
            let track = &mut self.tracks[b];
            track.clock.white_side = track.clock.white_side.map(ClockSide::other);
            by = !by;
            verdict = alt;
        }
        // Only an illegal reading for this press, or none? Read it again together with the
        // ply it answers: a fully legal pair that explains both moments as well corrects
        // that ply.
        if let Some(v) = self.reread_last_ply(b, by, history, &verdict, t_msg) {
            verdict = v;
        }
        if let Some(v) = self.unseen_move_then_knocked(b, by, history, &verdict, seen) {
            verdict = v;
        }
        (by, verdict)
    }

    /// What is known of a pending press besides the board, for judging it.
    fn press_seen(&self, b: BoardId, pending: &PendingPress) -> sensing::PressSeen {
        sensing::PressSeen {
            at: pending.t_msg,
            missed: pending.missed > 0,
            answered: pending.answered,
            unread: self.unread_press(b).filter(|&(by, _)| by != pending.by),
        }
    }

    /// The press since the last commit on `b` that showed no move, if one waits to be
    /// accounted for: who pressed, and when its message came.
    fn unread_press(&self, b: BoardId) -> Option<(Color, Millis)> {
        self.tracks[b].presses.unexplained.map(|u| (u.by, u.t_msg))
    }

    /// A move off its piece's pattern (a pawn gone diagonally to an empty square) that the
    /// board showed only after the press message, which found those squares as the record
    /// has them, while a promoted piece of the presser's lies on its side: the press was
    /// that piece's move, which no scan shows, and what changed after it a piece knocked
    /// (told displaced as the board goes on). The press read on the board as the message
    /// found it, if that reads a lying piece's move.
    fn unseen_move_then_knocked(
        &self,
        b: BoardId,
        by: Color,
        history: &[sensing::Snapshot],
        verdict: &Verdict,
        seen: sensing::PressSeen,
    ) -> Option<Verdict> {
        let Verdict::Commit { candidate, .. } = verdict else {
            return None;
        };
        let (&[mv], true) = (&candidate.plies[..], candidate.off_pattern) else {
            return None;
        };
        let track = &self.tracks[b];
        let board = self.game.board(b).board();
        let lying = |(sq, t): (Square, Token)| t.may_be_unseen() && board.color_at(sq) == Some(by);
        if !track.appearance.tokens.iter().any(lying) {
            return None;
        }
        let at_msg = history.iter().rposition(|s| s.t_ms <= seen.at)?;
        let as_recorded = |sq: Square| {
            history[at_msg].cells.get(sq) == board.piece_at(sq).map_or(Cell::EMPTY, Cell::piece)
        };
        if !sensing::press::touched(mv).into_iter().all(as_recorded) {
            return None;
        }
        let before = judge_press(&self.committed(b), by, &history[..=at_msg], seen);
        let hidden = match &before {
            Verdict::Ambiguous { tied, .. } => hidden_only(track, tied),
            Verdict::Commit { candidate, .. } => {
                hidden_only(track, std::slice::from_ref(candidate))
            }
            _ => false,
        };
        hidden.then_some(before)
    }

    /// The pending press together with the one before it (by the other colour: ambiguous,
    /// or its mover's pieces moved as no reading explains) and the one before that (which
    /// showed nothing): three plies, if one reading of all three stands out. Else the
    /// earlier press is told as it was, and this one judged on its own.
    fn decide_with_earlier(
        &mut self,
        b: BoardId,
        pending: &PendingPress,
        earlier: PendingPress,
        history: &[sensing::Snapshot],
        final_call: bool,
    ) {
        let first_at = self
            .unread_press(b)
            .filter(|&(by, _)| by == pending.by)
            .map(|(_, t)| t);
        let verdict = judge_three_presses(
            &self.committed(b),
            pending.by,
            history,
            pending.t_msg,
            first_at,
        );
        // Three plies that tie only on which piece a drop taken at once was: the record
        // takes the likeliest, and the partner board may tell later.
        let mut picked = None;
        let verdict = match verdict {
            Verdict::Ambiguous { tied, residual } => match self.pick_taken_drop(b, &tied) {
                Some(candidate) => {
                    picked = self.taken_drops.last().map(|t| t.ply);
                    Verdict::Commit {
                        candidate,
                        residual,
                        snapshot: history.len().saturating_sub(1),
                    }
                }
                None => Verdict::Ambiguous { tied, residual },
            },
            other => other,
        };
        if let Verdict::Commit {
            candidate,
            snapshot,
            ..
        } = verdict
            && candidate.plies.len() == 3
        {
            let cells = self.cells_at(b, history, snapshot);
            // Judged, not tied: a drop taken at once in it may still be another kind.
            let unseen = picked
                .is_none()
                .then(|| self.unseen_taken_drop(b, &candidate.plies, history))
                .flatten();
            self.commit_all_seen(b, pending, &earlier, &candidate, &cells, final_call);
            if let Some(t) = unseen {
                self.keep_taken_drop(t);
            } else if let Some(ply) = picked {
                self.note_taken_drop(ply);
            }
            return;
        }
        // The earlier press was the mover's and this is the reply's: the mover's piece
        // taken before the scan showed it land (the capturer set down where it stood),
        // the reply's reading of both plies tells which of the earlier readings it was.
        if earlier.by == self.game.board(b).turn() && pending.by != earlier.by {
            let seen = self.press_seen(b, pending);
            if let Verdict::Commit {
                candidate,
                snapshot,
                ..
            } = judge_press(&self.committed(b), pending.by, history, seen)
                && candidate.plies.len() == 2
            {
                let cells = self.cells_at(b, history, snapshot);
                self.commit_all_seen(b, pending, &earlier, &candidate, &cells, final_call);
                return;
            }
        }
        let this = self.tracks[b].presses.pending.replace(earlier);
        self.decide_press(b, true);
        self.tracks[b].presses.pending = this;
        self.decide_press(b, final_call);
    }

    /// Once the press being judged is decided, the press queued behind it is next.
    pub(super) fn promote_queued_press(&mut self, b: BoardId) {
        let presses = &mut self.tracks[b].presses;
        if presses.pending.is_none() {
            presses.pending = presses.queued.take();
        }
    }

    /// An inconclusive judgement: every new snapshot tries again until the press gives up.
    fn wait_for_next_snapshot(&mut self, b: BoardId) {
        if let Some(p) = &mut self.tracks[b].presses.pending {
            p.decide_at = None;
        }
    }

    /// What the board showed at `snapshot` of this press's `history` (the board sensed now,
    /// past its end).
    fn cells_at(
        &self,
        b: BoardId,
        history: &[sensing::Snapshot],
        snapshot: usize,
    ) -> sensing::Cells {
        history
            .get(snapshot)
            .map_or(self.tracks[b].sensed.cells, |s| s.cells)
    }

    /// Records the plies of presses read together, every one of them seen: none is owed.
    /// Each ply keeps its own press's clock: `earlier`'s for the ply before the last, and
    /// for a third ply before it, the press that showed nothing.
    fn commit_all_seen(
        &mut self,
        b: BoardId,
        pending: &PendingPress,
        earlier: &PendingPress,
        candidate: &Candidate,
        cells: &sensing::Cells,
        final_call: bool,
    ) {
        self.tracks[b].presses.pending = None;
        let first = self.tracks[b]
            .presses
            .unexplained
            .filter(|p| p.by == pending.by)
            .and_then(|p| p.clock_ms);
        let clocks = [first, earlier.clock_ms, pending.clock_ms];
        let seen = candidate.plies.len().min(clocks.len());
        self.commit(
            b,
            candidate,
            cells,
            pending.t_msg,
            &clocks[clocks.len() - seen..],
            final_call,
        );
    }

    /// Records the plies the press showed, noting a drop among them that the next ply
    /// took at once, never shown, whose kind another in hand could have been (the
    /// opponent's press for it missed: the drop and its capture read from one press).
    fn commit_press_noting_taken_drop(
        &mut self,
        b: BoardId,
        pending: &PendingPress,
        candidate: &Candidate,
        cells: &sensing::Cells,
        history: &[sensing::Snapshot],
        final_call: bool,
    ) {
        let unseen = self.unseen_taken_drop(b, &candidate.plies, history);
        self.commit_press(b, pending, candidate, cells, final_call);
        if let Some(t) = unseen {
            self.keep_taken_drop(t);
        }
    }

    /// Records the plies the press showed.
    fn commit_press(
        &mut self,
        b: BoardId,
        pending: &PendingPress,
        candidate: &Candidate,
        cells: &sensing::Cells,
        final_call: bool,
    ) {
        // Plies before the presser's last one had no press of their own seen; their press
        // messages may still come, late and bunched.
        let owed_until = self.now + self.tracks[b].timing.max_wait_ms;
        let mut color = self.game.board(b).turn();
        for _ in 1..candidate.plies.len() {
            self.tracks[b].presses.owed.push(OwedPress {
                color,
                until: owed_until,
            });
            color = !color;
        }
        // The ply before the presser's, when its press was seen showing nothing (the move
        // taken before the board showed it), keeps that press's clock.
        let turn = self.game.board(b).turn();
        let before = self.tracks[b]
            .presses
            .unexplained
            .filter(|p| candidate.plies.len() == 2 && p.by == turn)
            .and_then(|p| p.clock_ms);
        self.commit(
            b,
            candidate,
            cells,
            pending.t_msg,
            &[before, pending.clock_ms],
            final_call,
        );
    }

    /// The board fits several moves equally well: the TD is told which.
    fn report_ambiguous(
        &mut self,
        b: BoardId,
        by: Color,
        tied: &[Candidate],
        residual: &sensing::Residual,
    ) {
        let squares: Vec<String> = squares_of(residual);
        let options: Vec<String> = tied
            .iter()
            .filter_map(|c| c.plies.last())
            .map(|m| {
                crate::rules::san::move_text(
                    self.game.board(b),
                    self.game.rules(),
                    *m,
                    &Legality::Legal,
                )
            })
            .collect();
        self.raise(
            b,
            AlertKind::Desync,
            None,
            format!(
                "{} pressed but the board fits several moves ({}); squares: {}",
                color_name(by),
                options.join(", "),
                squares.join(" ")
            ),
            Subject::None,
        );
    }

    /// No move of the presser explains the board.
    fn press_shows_nothing(
        &mut self,
        b: BoardId,
        by: Color,
        pending: &PendingPress,
        baseline: &sensing::Residual,
        final_call: bool,
    ) {
        let now = self.now;
        let moved = baseline_shows_color(baseline, by);
        // The press of a ply already recorded (taken with an earlier press while the
        // clock's messages were late): it is accounted for.
        let track = &mut self.tracks[b];
        track.presses.owed.retain(|owed| owed.until >= now);
        if !moved && let Some(i) = track.presses.owed.iter().position(|o| o.color == by) {
            track.presses.owed.remove(i);
            track.presses.pending = None;
            return;
        }
        if !moved || final_call {
            self.tracks[b].presses.pending = None;
            self.report_press_without_move(b, by, pending, baseline, moved);
        } else {
            self.wait_for_next_snapshot(b);
            if let Some(p) = &mut self.tracks[b].presses.pending {
                p.moved_unread = true;
            }
        }
    }

    /// Reads the last ply on `b` again together with this press. Returns the verdict for
    /// this press's ply after correcting the last one, when that is the better reading.
    fn reread_last_ply(
        &mut self,
        b: BoardId,
        by: Color,
        history: &[sensing::Snapshot],
        verdict: &Verdict,
        t_msg: Millis,
    ) -> Option<Verdict> {
        // The reading of this press alone: one ply (how irregular), none at all (a
        // capture on a square the record has empty explains nothing), or only plies whose
        // presses went unseen (a drop taken at once, its taker taken back there).
        let (irregular, residual, unseen_plies) = match verdict {
            Verdict::Commit {
                candidate,
                residual,
                ..
            } if candidate.plies.len() == 1 => (Some(candidate.irregular), residual, &[][..]),
            Verdict::Nothing { baseline } => (None, baseline, &[][..]),
            Verdict::Ambiguous { tied, residual }
                if !tied.is_empty() && tied.iter().all(|c| c.plies.len() > 1) =>
            {
                (None, residual, &tied[..])
            }
            _ => return None,
        };
        let before = self.tracks[b].presses.before_last.clone()?;
        let index = self.ply_index(before.ply)?;
        let last_on_board = self.game.record().iter().rposition(|p| p.board == b)?;
        if index != last_on_board || before.ply.color == by {
            return None;
        }
        // The last ply was recorded with its landing square already empty again after the
        // scan saw the piece there once, and this reply leaves it empty: the piece may
        // have gone on to another square and been taken there before the board saw it
        // (a slide whose trail showed short of its landing).
        // A trail: the scan saw the piece there on one pass only (a piece set down and
        // pressed stands through a pass or more).
        let scan_ms = self.tracks[b].timing.scan_ms;
        let landed_missing = self.game.record().get(index).is_some_and(|p| {
            let landing = sensing::press::move_landing(p.mv);
            let shows = |s: &sensing::Snapshot| s.cells.get(landing).color() == Some(p.color);
            let shown = before.window.iter().position(shows);
            let one_pass = shown.is_some_and(|i| {
                before.window[i..]
                    .iter()
                    .find(|s| !shows(s))
                    .is_some_and(|gone| gone.t_ms <= before.window[i].t_ms + scan_ms + 60)
            });
            // Or the landing never shown at all (the piece read as taken there at once,
            // before the scan passed it, not a piece laid on its side), and this reply
            // leaves it empty: its taker never landed there either, so the piece may have
            // been taken where the board did show it.
            let never_shown = shown.is_none()
                && !history.iter().any(shows)
                && !sensing::press::is_promotion(p.mv)
                && p.mv.from().is_none_or(|f| {
                    before
                        .appearance
                        .tokens
                        .get(f)
                        .is_none_or(|t| !t.may_be_unseen())
                });
            let empty_at_commit =
                (one_pass && before.window.last().is_some_and(|s| !shows(s))) || never_shown;
            // The reply leaves the landing empty; so does one read alone as taking there
            // whose piece stands beside it instead (it took where the piece went on to).
            let still_empty = residual.in_progress.contains(landing)
                || residual.anomalies.iter().any(|a| match *a {
                    Anomaly::Missing { piece, square } => {
                        square == landing && piece.color == p.color
                    }
                    Anomaly::Displaced { piece, from, .. } => from == landing && piece.color == by,
                    _ => false,
                });
            empty_at_commit && still_empty
        });
        // The last ply moved a promoted piece laid on its side, unseen, and the board has
        // since read a pawn of its colour where it stood (a lying pawn read for a pass): it
        // never left. The press showed nothing but hidden moves then, and the reply shows
        // what it was (a piece dropped and taken at once, never shown).
        let seen_where_it_stood = self.game.record().get(index).and_then(|p| {
            let from = p.mv.from()?;
            let lying = before
                .appearance
                .tokens
                .get(from)
                .is_some_and(Token::may_be_unseen);
            let pawn = Cell::piece(p.color.pawn());
            (lying && history.iter().any(|s| s.cells.get(from) == pawn)).then_some(from)
        });
        // The last ply took with a promoted piece laid on its side (its landing never
        // shows), and this reply drops a piece where the board showed it set down within a
        // gesture of the victim's square emptying, that emptying itself no longer before
        // the press message than a message lags its lever: the piece lifted there may have
        // been the replier's own, moved on (a pawn pushed), and the lying piece gone
        // elsewhere unseen.
        let taken_after_press = match (self.game.record().get(index), verdict) {
            (Some(p), Verdict::Commit { candidate, .. }) => match (p.mv, &candidate.plies[..]) {
                (
                    Move::Normal {
                        from,
                        to: taken_on,
                        capture: Some(_),
                        ..
                    },
                    &[
                        Move::Put {
                            role,
                            to: dropped_on,
                        },
                    ],
                ) if before
                    .appearance
                    .tokens
                    .get(from)
                    .is_some_and(Token::may_be_unseen) =>
                {
                    let window = before.history_with(history);
                    let scan_ms = self.tracks[b].timing.scan_ms;
                    pushed_in_one_gesture(&window, scan_ms, !p.color, taken_on, role, dropped_on)
                        .is_some_and(|emptied| {
                            emptied + sensing::CLOCK_MESSAGE_LAG_MS >= before.pressed_at
                        })
                }
                _ => false,
            },
            _ => false,
        };
        // The press alone reads only as the last ply's piece moving on from where the
        // record has it, taking a piece nobody saw, presses unseen (`Bb4 P@a3 Bxa3 bxa3`),
        // and the piece had already left that square when its ply was recorded: the last
        // ply may itself have ended where this reply took it at once (the recorded square a
        // slide's stop, or where the piece was set down first), `Ba3 bxa3`, which explains
        // the board as well with no press unseen and one piece fewer never shown.
        let went_on = !unseen_plies.is_empty()
            && self.game.record().get(index).is_some_and(|p| {
                let landing = sensing::press::move_landing(p.mv);
                let gone = before
                    .window
                    .last()
                    .is_some_and(|s| s.cells.get(landing).color() != Some(p.color));
                gone && unseen_plies
                    .iter()
                    .all(|c| c.plies.iter().any(|m| m.from() == Some(landing)))
            });
        if !unseen_plies.is_empty() && !went_on {
            return None;
        }
        if irregular.is_none_or(|n| n == 0)
            && !landed_missing
            && !went_on
            && seen_where_it_stood.is_none()
            && !taken_after_press
        {
            return None;
        }
        let state = self.board_before(index, b);
        let window = before.history_with(history);
        let committed = Committed {
            state: &state,
            rules: self.game.rules(),
            tokens: &before.appearance.tokens,
            allowances: &before.appearance.allowances,
            scan_ms: self.tracks[b].timing.scan_ms,
            scan_order: self.tracks[b].sensed.orientation,
            changed_at: &self.tracks[b].sensed.changed_at,
        };
        // Read as the lying piece gone elsewhere and the reply moving the piece the board
        // showed lifted (`push_or_capture_and_drop`).
        let mut pushed_on = false;
        // The last ply as the record has it.
        let recorded = self.game.record().get(index).map(|p| p.mv);
        // Several pairs that differ only in where a promoted piece laid on its side went
        // (nothing on the board shows it): the likeliest is recorded and the TD asked.
        let (pair, pr, snapshot) =
            match judge_press(&committed, by, &window, sensing::PressSeen::at(t_msg)) {
                Verdict::Commit {
                    candidate,
                    residual,
                    snapshot,
                } => (candidate, residual, snapshot),
                // Not once the TD is asked where it went: the answer settles the reply.
                Verdict::Ambiguous { tied, residual } if !self.asked_where(before.ply) => {
                    let tokens = &before.appearance.tokens;
                    let pushed = taken_after_press
                        .then(|| push_or_capture_and_drop(tokens, &tied))
                        .flatten()
                        .and_then(|(pushes, ..)| pushes.into_iter().next());
                    let pair = match pushed {
                        Some(pair) => {
                            pushed_on = true;
                            pair
                        }
                        None => hidden_move_pair(tokens, &tied)
                            .or_else(|| promoted_as_recorded(&tied, recorded))?,
                    };
                    (pair, residual, window.len().saturating_sub(1))
                }
                _ => return None,
            };
        // An irregular reading gives way to a legal pair as good, and so does a capture by
        // a lying piece to the pair in which the reply moved the piece lifted, and plies
        // pressed unseen to a pair in which this reply took the last ply's piece where it
        // landed; a legal one otherwise only to such a pair that explains the board
        // better.
        let taken_there = matches!(pair.plies[..], [first, Move::Normal { capture: Some(_), to, .. }]
            if to == sensing::press::move_landing(first));
        let worse = if went_on {
            pr.cost > residual.cost || !taken_there
        } else if irregular.is_some_and(|n| n > 0) || pushed_on {
            pr.cost > residual.cost
        } else {
            // A lying piece read where it stood: a pair that leaves it there explains
            // that read too, which the reply alone, judged on the board as it is now, does
            // not count.
            let stays = seen_where_it_stood.is_some_and(|f| pair.plies[0].from() != Some(f));
            (if stays {
                pr.cost > residual.cost
            } else {
                pr.cost >= residual.cost
            }) || !taken_there
        };
        if pair.plies.len() != 2 || pair.irregular > 0 || worse {
            return None;
        }
        // The recorded promotion read as another piece, the reply legal only so: the piece
        // is the TD's to name (asked already), and the reply's illegality waits for that.
        let same_square_other_piece = match (pair.plies[0], self.game.record().get(index)) {
            (
                Move::Normal {
                    from,
                    to,
                    promotion: Some(read),
                    ..
                },
                Some(p),
            ) => matches!(p.mv, Move::Normal { from: f, to: t, promotion: Some(was), .. }
                if f == from && t == to && was != read),
            _ => false,
        };
        if same_square_other_piece {
            return None;
        }
        // The TD is asked where a promoted piece laid on its side went with the last ply,
        // and has not answered: a pair that moves no piece from its square (a drop taken at
        // once where the reply lands, shown only because the lying piece's landing never
        // shows) is no correction, the answer settles the reply. Unless the board read the
        // piece where it stood since, or the reply is out of place wherever the piece went
        // (a pawn going diagonally onto a square the record has empty): that shows the
        // capture of a piece dropped there.
        let recorded_from = recorded.and_then(Move::from);
        if self.asked_where(before.ply)
            && pair.plies[0].from() != recorded_from
            && seen_where_it_stood.is_none()
            && recorded.is_some_and(|mv| {
                hidden_landings(&state, self.game.rules(), &before, mv, pair.plies[1])
                    .into_iter()
                    .any(|to| to != mv.to())
                    || reply_fits(&state, self.game.rules(), mv, pair.plies[1])
            })
        {
            return None;
        }
        // The same pawn promoting on another square becomes the same piece: the one the
        // record has (read from its token, or named by the TD) stays.
        let first = match (pair.plies[0], recorded) {
            (
                first @ Move::Normal {
                    from,
                    promotion: Some(_),
                    ..
                },
                Some(Move::Normal {
                    from: was_from,
                    promotion: Some(was),
                    ..
                }),
            ) if was_from == from => with_promotion(first, Some(was)),
            (first, _) => first,
        };
        if self.game.replace_move(index, first).is_err() {
            return None;
        }
        self.outputs.push(Output::RecordChanged);
        // A question which pair that ply made with its move or reply no longer fits it;
        // nor one where a lying piece went with it, once it moves another. A drop it made
        // that waited for the capture supplying it waits no more.
        let read_again = before.ply;
        let moved_from = first.from();
        self.clear_where(|a| match &a.subject {
            Subject::Pairs { ply, reply, .. } => *ply == read_again || *reply == read_again,
            Subject::HiddenMove { ply, .. } => *ply == read_again && moved_from != recorded_from,
            _ => false,
        });
        if recorded != Some(first) {
            self.drop_debts.retain(|d| d.ply != read_again);
        }
        // The last ply moved a promoted piece laid on its side, and the reply is legal
        // wherever else it could have gone too: where it went, only the players can say.
        let options = hidden_landings(&state, self.game.rules(), &before, first, pair.plies[1]);
        if options.len() > 1
            && !self.asked_where(before.ply)
            && let Some(from) = first.from()
        {
            let options = options
                .into_iter()
                .map(|to| HiddenOption { from, to })
                .collect();
            self.ask_hidden_move(b, before.ply, options);
        }
        let second = Candidate {
            plies: [pair.plies[1]].into_iter().collect(),
            expect: pair.expect,
            tokens: pair.tokens.clone(),
            allowances: pair.allowances.clone(),
            irregular: 0,
            off_pattern: false,
            hidden_landing: pair.hidden_landing,
        };
        // The deciding moment, as an index into this press's own history.
        let decided_at = window.get(snapshot).map_or(0, |s| s.t_ms);
        let snapshot = history
            .iter()
            .position(|s| s.t_ms >= decided_at)
            .unwrap_or(history.len().saturating_sub(1));
        Some(Verdict::Commit {
            candidate: second,
            residual: pr,
            snapshot,
        })
    }

    /// A press no move of the presser explains: `moved`, the presser's pieces are off the
    /// record (a desync, or pieces from nowhere); else told later unless accounted for.
    fn report_press_without_move(
        &mut self,
        b: BoardId,
        by: Color,
        pending: &PendingPress,
        baseline: &sensing::Residual,
        moved: bool,
    ) {
        if !moved {
            // Told only if nothing accounts for it a little later: a move taken by a fast
            // reply before the board showed it is found when the reply's press is judged.
            let now = self.now;
            let track = &mut self.tracks[b];
            track.presses.unexplained = Some(UnexplainedPress {
                by,
                t_msg: pending.t_msg,
                clock_ms: pending.clock_ms,
                tell_at: now + track.timing.max_wait_ms,
            });
            return;
        }
        // Only pieces of the presser standing where the record has nothing (a piece from
        // nowhere in single-board chess, where it cannot be a drop): each is unexplained.
        let extras: Vec<(Square, sensing::Cell)> = baseline
            .anomalies
            .iter()
            .filter_map(|a| match *a {
                Anomaly::Unexplained { square, found }
                    if found.to_piece().is_some_and(|p| p.color == by) =>
                {
                    Some((square, found))
                }
                _ => None,
            })
            .collect();
        if baseline.in_progress.is_empty()
            && !extras.is_empty()
            && extras.len() == baseline.anomalies.len()
        {
            for (square, found) in extras {
                self.raise_unexplained(b, square, found);
            }
            return;
        }
        let squares = squares_of(baseline);
        self.raise(
            b,
            AlertKind::Desync,
            None,
            format!(
                "{} pressed but no move explains the board; squares that differ: {}",
                color_name(by),
                squares.join(" ")
            ),
            Subject::None,
        );
    }

    pub(super) fn stable_due(&self, track: &Track) -> Option<Millis> {
        if !track.sensed.started || track.presses.pending.is_some() {
            return None;
        }
        if track.presses.stable_judged == Some(track.sensed.last_change) {
            return None;
        }
        let base = track.sensed.history.first()?;
        if base.cells == track.sensed.cells {
            return None;
        }
        if !track.clock.present {
            return Some(track.sensed.last_change + track.timing.stable_ms);
        }
        // With a clock, only two presses the clock never showed: its time still runs for
        // the side the record has to move, and nothing else waits to be told. Long enough
        // for any press message still on its way (a poll and a late message).
        let turn = self.game.board(track.id).turn();
        let running = track.clock.running.and_then(|s| track.clock.color_of(s));
        let quiet = !self.game.is_over()
            && track.sensed.result_signal.is_none()
            && track.presses.queued.is_none()
            && track.presses.carried.is_none()
            && track.presses.unexplained.is_none();
        (quiet && running == Some(turn))
            .then_some(track.sensed.last_change + track.timing.max_wait_ms)
    }

    pub(super) fn decide_stable(&mut self, b: BoardId) {
        let now = self.now;
        let track = &self.tracks[b];
        let last_change = track.sensed.last_change;
        let cells = track.sensed.cells;
        let found = if track.clock.present {
            // The moves were made after the last recorded one landed (its report may come
            // up to a scan after the reply's first); else after the snapshot that decided
            // the last commit.
            let since = match track.presses.last_landing {
                Some(t) => t.saturating_sub(track.timing.scan_ms),
                None => track.sensed.history.first().map_or(0, |s| s.t_ms),
            };
            judge_two_unseen_presses(
                &self.committed(b),
                &cells,
                &track.sensed.history,
                &track.sensed.changed_at,
                since,
                track.timing.scan_ms,
            )
        } else {
            judge_stable(&self.committed(b), &cells)
        };
        self.tracks[b].presses.stable_judged = Some(last_change);
        if let Some(candidate) = found {
            let mover = candidate.last_mover(self.game.board(b).turn());
            self.commit(b, &candidate, &cells, now, &[], false);
            self.tracks[b].presses.last_stable_commit = Some(StableCommit { t_ms: now, mover });
        }
    }

    /// Plays the candidate's plies into the record, updates tokens, raises the alerts the
    /// plies call for, and settles cross-board drops. `clocks`: the mover's clock after each
    /// of the last plies, as their presses showed it (plies before them had no press seen).
    pub(super) fn commit(
        &mut self,
        b: BoardId,
        cand: &Candidate,
        cells: &sensing::Cells,
        t_msg: Millis,
        clocks: &[Option<u64>],
        final_call: bool,
    ) {
        let n = cand.plies.len();
        // What was known before this ply, for reading it again in hindsight (single plies
        // judged at a press only).
        let track = &self.tracks[b];
        let before_last = (n == 1).then(|| BeforeLastPly {
            ply: PlyRef {
                board: b,
                color: self.game.board(b).turn(),
                number: self.game.board(b).fullmoves(),
            },
            appearance: track.appearance.clone(),
            window: track.sensed.history.clone(),
            pressed_at: t_msg,
        });
        let earlier = std::mem::replace(&mut self.tracks[b].presses.before_last, before_last);
        // When the last ply's piece first showed on its square: the opponent's next move
        // began after it (after the press that followed). A promoted pawn laid on its side
        // may never show, or first read (as a pawn) a pass or more after the reply began:
        // unless a spare piece showed, it may have been down as soon as its square and the
        // one it left were both clear (less the victim). One that moved lying: unknown.
        let landed_at = cand.plies.last().and_then(|&m| {
            if cand.last_ply_moves_lying_piece() {
                return None;
            }
            let color = cand.last_mover(self.game.board(b).turn());
            let square = sensing::press::move_landing(m);
            let history = &self.tracks[b].sensed.history;
            let shown = history
                .iter()
                .find(|s| s.cells.get(square).color() == Some(color));
            let spare = shown.is_some_and(|s| s.cells.get(square).to_piece() != Some(color.pawn()));
            let shown = shown.map(|s| s.t_ms);
            let laid = match m {
                Move::Normal {
                    from,
                    to,
                    promotion: Some(_),
                    ..
                } if !spare => history
                    .iter()
                    .find(|s| {
                        s.cells.get(from).is_empty() && s.cells.get(to).color() != Some(!color)
                    })
                    .map(|s| s.t_ms),
                _ => None,
            };
            shown.into_iter().chain(laid).min()
        });
        self.tracks[b].presses.last_landing = landed_at;
        // What the board showed since the last commit, to tell since when a square has
        // been wrong (the history starts afresh with this commit).
        let window = self.tracks[b].sensed.history.clone();
        // A press that showed no move is accounted for by the moves recorded now.
        self.tracks[b].presses.unexplained = None;
        let mut promotions_to_confirm: Vec<(PlyRef, Square, Role)> = Vec::new();
        // Promotions of this commit whose piece the TD is asked for below.
        let mut unnamed: Vec<PlyRef> = Vec::new();
        // What each promotion square showed of its promoted piece (its token is settled
        // from that too).
        let mut promotions_shown: Vec<(Square, Cell)> = Vec::new();
        for (i, &planned) in cand.plies.iter().enumerate() {
            let mover = self.game.board(b).turn();
            // The promotion piece is read from the token shown on the promotion square: a
            // spare piece names it; a pawn or nothing visible means a queen until the TD
            // says otherwise (`confirm`).
            let (mv, confirm) = match planned {
                Move::Normal {
                    from,
                    to,
                    promotion: Some(read),
                    ..
                } => {
                    let shown = promotion_shown(&window, cells, from, to, mover);
                    promotions_shown.push((to, shown));
                    let (piece, confirm) = sensing::press::promotion_role(shown, mover);
                    // A reading that took the unnamed piece for another than a queen (the
                    // plies after it are legal only so) keeps it, still asked of the TD.
                    let piece = if confirm && read != Role::Queen {
                        read
                    } else {
                        piece
                    };
                    (with_promotion(planned, Some(piece)), confirm)
                }
                _ => (planned, false),
            };
            let meta = PlyMeta {
                t_ms: Some(t_msg),
                clock_ms: (i + clocks.len())
                    .checked_sub(n)
                    .and_then(|k| clocks.get(k).copied().flatten()),
                comment: None,
            };
            let number = self.game.board(b).fullmoves();
            // A reading with no irregular ply was read among the legal moves.
            let known = (cand.irregular == 0 && mv == planned).then_some(Legality::Legal);
            let Ok(index) = self.game.play_judged(b, mv, meta, known) else {
                return;
            };
            let ply = PlyRef {
                board: b,
                color: mover,
                number,
            };
            self.outputs.push(Output::Committed { ply });
            if confirm
                && let Move::Normal {
                    to,
                    promotion: Some(piece),
                    ..
                } = mv
            {
                promotions_to_confirm.push((ply, to, piece));
                unnamed.push(ply);
            }
            self.after_ply(b, index, ply, &unnamed);
            self.note_unseen_step(b, ply, mv, &window);
        }
        // A move and this reply the board cannot tell from a pair that only the reserves
        // tell apart: the TD is asked.
        if n == 1
            && let Some(earlier) = earlier
        {
            self.ask_if_twin(b, &earlier, &window);
        }
        self.adopt_appearance(b, cand, cells, &promotions_shown);
        for (ply, sq, piece) in promotions_to_confirm {
            self.ask_promotion_piece(b, ply, sq, piece);
        }
        self.after_commit_checks(b, final_call, t_msg, landed_at, &window);
    }

    /// After a commit: the candidate's tokens (promotions settled from what the sensors
    /// show, `promotions_shown` for this commit's own) and allowances, and the history from
    /// the snapshot that decided it onwards.
    fn adopt_appearance(
        &mut self,
        b: BoardId,
        cand: &Candidate,
        cells: &sensing::Cells,
        promotions_shown: &[(Square, Cell)],
    ) {
        let promoted = self.game.board(b).promoted();
        let board = self.game.board(b).board().clone();
        let track = &mut self.tracks[b];
        let tokens = &mut track.appearance.tokens;
        *tokens = cand.tokens.clone();
        let unsettled: Vec<Square> = tokens
            .iter()
            .filter(|(_, t)| *t == Token::Unsettled)
            .map(|(s, _)| s)
            .collect();
        // A spare piece names itself at once; a pawn, upright or laid on its side, is told
        // apart by what the board keeps showing (see `settle_tokens`).
        for sq in unsettled {
            let Some(owner) = board.color_at(sq) else {
                continue;
            };
            let shown = promotions_shown
                .iter()
                .rev()
                .find(|(to, _)| *to == sq)
                .map_or(cells.get(sq), |&(_, c)| c);
            if let Token::Piece(r) = Token::settle(shown, owner) {
                tokens.set(sq, Token::Piece(r));
            }
        }
        tokens.retain(promoted);
        track.appearance.allowances.clone_from(&cand.allowances);
        // A pawn that stood on every pass since it was set down is upright: told while the
        // snapshots before this commit are still at hand (its next move may come before
        // the board reports anything again).
        self.settle_tokens(b);
        // The next press is judged from the snapshot that decided this one onwards.
        let sensed = &mut self.tracks[b].sensed;
        let decisive = sensed
            .history
            .iter()
            .rposition(|s| s.cells == *cells)
            .unwrap_or(sensed.history.len().saturating_sub(1));
        sensed.restart_history(decisive);
    }

    /// A pawn promoted with no spare piece showing: recorded as `piece` (a queen, unless
    /// the moves after it are legal only with another), the TD asked.
    pub(super) fn ask_promotion_piece(&mut self, b: BoardId, ply: PlyRef, sq: Square, piece: Role) {
        let how = match self.tracks[b].appearance.tokens.get(sq) {
            Some(Token::Hidden) => "a pawn laid on its side",
            Some(Token::Pawn) => "a pawn",
            _ => "a pawn, upright or on its side",
        };
        self.raise(
            b,
            AlertKind::Promotion,
            Some(sq),
            format!(
                "promoted pawn on {b}:{sq} ({how}) recorded as a {}: which piece?",
                role_name(piece)
            ),
            Subject::Ply(ply),
        );
    }

    /// Alerts and cross-board bookkeeping for one new ply at `index`. `unnamed`: the
    /// promotions just recorded whose piece the TD is about to be asked for.
    pub(super) fn after_ply(&mut self, b: BoardId, index: usize, ply: PlyRef, unnamed: &[PlyRef]) {
        let Some(p) = self.game.record().get(index).cloned() else {
            return;
        };
        match &p.legality {
            Legality::Illegal(IllegalReason::NotInReserve) => {
                if let Move::Put { role, to } = p.mv
                    && !self.told_by_drop(b, p.color, role)
                {
                    self.owe_drop(b, p.color, role, ply, to);
                }
            }
            // Illegal only because the record guesses a queen where the player has not
            // said which piece the pawn became (a knight gives no check where a queen
            // does): told once the TD names it, if it still is (`tell_held_illegal`).
            Legality::Illegal(_) if self.hangs_on_unnamed_promotion(index, unnamed) => {}
            // Likewise where the record guesses the square a promoted piece laid on its
            // side went to, unseen: told once the TD says where, if it still is.
            Legality::Illegal(_) if self.hangs_on_hidden_guess(index) => {}
            Legality::Illegal(reason) => self.tell_illegal(index, reason),
            _ => {}
        }
        self.settle_debt(b, index, &p);
    }

    /// The TD is told of the illegal ply at `index`.
    fn tell_illegal(&mut self, index: usize, reason: &IllegalReason) {
        let Some(p) = self.game.record().get(index).cloned() else {
            return;
        };
        let ply = PlyRef {
            board: p.board,
            color: p.color,
            number: p.number,
        };
        let seat = p.seat();
        self.raise(
            p.board,
            AlertKind::IllegalMove,
            Some(p.mv.to()),
            format!(
                "{} {}{} by {} ({}): {}",
                p.number,
                if p.color.is_white() { "" } else { "... " },
                p.san,
                self.player(seat),
                color_name(p.color),
                reason.describe()
            ),
            Subject::Ply(ply),
        );
    }

    /// Is the ply at `index` legal if an earlier promotion on its board whose piece nobody
    /// has named yet (its question open, or in `unnamed`) made another piece?
    fn hangs_on_unnamed_promotion(&self, index: usize, unnamed: &[PlyRef]) -> bool {
        let record = self.game.record();
        let Some(board) = record.get(index).map(|p| p.board) else {
            return false;
        };
        let asked = |ply: PlyRef| {
            unnamed.contains(&ply)
                || self
                    .alerts
                    .open()
                    .any(|a| a.kind == AlertKind::Promotion && a.subject == Subject::Ply(ply))
        };
        record[..index].iter().enumerate().any(|(j, p)| {
            let Move::Normal {
                role,
                from,
                capture,
                to,
                promotion: Some(named),
            } = p.mv
            else {
                return false;
            };
            let ply = PlyRef {
                board: p.board,
                color: p.color,
                number: p.number,
            };
            p.board == board
                && asked(ply)
                && self.game.rules().promotion_roles.iter().any(|&r| {
                    let mut trial = self.game.clone();
                    let mv = Move::Normal {
                        role,
                        from,
                        capture,
                        to,
                        promotion: Some(r),
                    };
                    r != named
                        && trial.replace_move(j, mv).is_ok()
                        && trial
                            .record()
                            .get(index)
                            .is_some_and(|q| q.legality.is_legal())
                })
        })
    }

    /// Is the TD asked where the piece moved with `ply` went (a promoted piece laid on its
    /// side), and has not answered yet?
    fn asked_where(&self, ply: PlyRef) -> bool {
        self.alerts
            .open()
            .any(|a| matches!(&a.subject, Subject::HiddenMove { ply: p, .. } if *p == ply))
    }

    /// Is the ply at `index` legal if an earlier move of a promoted piece laid on its side,
    /// on its board, recorded where the record guessed it went (the TD asked, not answered
    /// yet), went to another of the squares it could have gone to? The board showed
    /// nothing of that move: the guess is no ground for an alert about the next ones.
    fn hangs_on_hidden_guess(&self, index: usize) -> bool {
        let record = self.game.record();
        let Some(board) = record.get(index).map(|p| p.board) else {
            return false;
        };
        self.alerts.open().any(|a| {
            let Subject::HiddenMove { ply, options } = &a.subject else {
                return false;
            };
            let Some(j) = self.ply_index(*ply).filter(|&j| j < index) else {
                return false;
            };
            let Some(Move::Normal {
                role,
                from,
                to: guessed,
                ..
            }) = record.get(j).map(|p| p.mv)
            else {
                return false;
            };
            ply.board == board
                && options.iter().any(|&HiddenOption { to, .. }| {
                    let mut trial = self.game.clone();
                    let mv = Move::Normal {
                        role,
                        from,
                        capture: None,
                        to,
                        promotion: None,
                    };
                    to != guessed
                        && trial.replace_move(j, mv).is_ok()
                        && trial
                            .record()
                            .get(index)
                            .is_some_and(|q| q.legality.is_legal())
                })
        })
    }

    /// Once the TD named a promoted piece (or put the record right otherwise): the plies
    /// after `index` on its board still illegal that were held back are told now.
    pub(super) fn tell_held_illegal(&mut self, board: BoardId, index: usize) {
        let held: Vec<(usize, IllegalReason)> = self
            .game
            .record()
            .iter()
            .enumerate()
            .skip(index + 1)
            .filter(|(_, p)| p.board == board)
            .filter_map(|(i, p)| match &p.legality {
                Legality::Illegal(IllegalReason::NotInReserve) => None,
                Legality::Illegal(reason) => Some((i, *reason)),
                _ => None,
            })
            .collect();
        for (i, reason) in held {
            let Some(p) = self.game.record().get(i) else {
                continue;
            };
            let ply = PlyRef {
                board: p.board,
                color: p.color,
                number: p.number,
            };
            let told = self
                .alerts
                .all()
                .iter()
                .any(|a| a.kind == AlertKind::IllegalMove && a.subject == Subject::Ply(ply));
            if !told && !self.hangs_on_unnamed_promotion(i, &[]) && !self.hangs_on_hidden_guess(i) {
                self.tell_illegal(i, &reason);
            }
        }
    }

    /// A hidden promoted piece could have gone to several squares: record the first,
    /// tentatively, and ask the TD.
    pub(super) fn commit_hidden_guess(
        &mut self,
        b: BoardId,
        tied: &[Candidate],
        t_msg: Millis,
        clock_ms: Option<u64>,
    ) {
        // A capture on a square whose piece the TD was told stands displaced elsewhere
        // explains its square empty, not the piece standing where it went: the last guess.
        let displaced: Vec<Square> = self
            .alerts
            .open()
            .filter(|a| a.board == b && a.kind == AlertKind::Displaced)
            .filter_map(|a| a.square)
            .collect();
        let mut tied = tied.to_vec();
        tied.sort_by_key(|k| {
            k.plies
                .last()
                .is_some_and(|m| m.is_capture() && displaced.contains(&m.to()))
        });
        let tied = &tied[..];
        let Some(first) = tied.first() else {
            return;
        };
        let options: Vec<HiddenOption> = tied
            .iter()
            .filter_map(|c| c.plies.last())
            .filter_map(|m| hidden_option(*m))
            .collect();
        let mover = self.game.board(b).turn();
        let number = self.game.board(b).fullmoves();
        let cells = self.tracks[b].sensed.cells;
        self.commit(b, first, &cells, t_msg, &[clock_ms], false);
        let ply = PlyRef {
            board: b,
            color: mover,
            number,
        };
        self.ask_hidden_move(b, ply, options);
    }

    /// Both presses read at once, tied between a promoted piece laid on its side going
    /// elsewhere unseen and the reply moving a piece on, or the lying piece taking that
    /// piece and the reply dropping one of its kind where it landed: when the board showed
    /// the square emptied and the landing within one gesture of the hand, the move
    /// readings (see `push_or_capture_and_drop`).
    fn pushed_not_dropped(
        &self,
        b: BoardId,
        tied: &[Candidate],
        history: &[sensing::Snapshot],
    ) -> Option<Vec<Candidate>> {
        let track = &self.tracks[b];
        let (pushes, lifted, role, landed) =
            push_or_capture_and_drop(&track.appearance.tokens, tied)?;
        let replier = !self.game.board(b).turn();
        pushed_in_one_gesture(history, track.timing.scan_ms, replier, lifted, role, landed)?;
        Some(pushes)
    }

    /// Records the first of `pushes` (a lying piece's unseen move and the reply) and asks
    /// the TD where the piece went.
    fn commit_hidden_push(&mut self, b: BoardId, pending: &PendingPress, pushes: &[Candidate]) {
        let Some(first) = pushes.first() else {
            return;
        };
        let ply = PlyRef {
            board: b,
            color: self.game.board(b).turn(),
            number: self.game.board(b).fullmoves(),
        };
        let options: Vec<HiddenOption> = pushes
            .iter()
            .filter_map(|k| k.plies.first())
            .filter_map(|m| hidden_option(*m))
            .collect();
        let cells = self.tracks[b].sensed.cells;
        self.commit_press(b, pending, first, &cells, true);
        if options.len() > 1 {
            self.ask_hidden_move(b, ply, options);
        }
    }

    /// The TD is asked where the promoted piece (a pawn on its side) went with `ply`: one
    /// of `options`, the first recorded for now. Several pieces may lie on their side:
    /// then each option names the square its piece left too.
    fn ask_hidden_move(&mut self, b: BoardId, ply: PlyRef, options: Vec<HiddenOption>) {
        let mut froms: Vec<Square> = options.iter().map(|o| o.from).collect();
        froms.sort();
        froms.dedup();
        let several = froms.len() > 1;
        let listed: Vec<String> = options.iter().map(|o| o.text(several)).collect();
        let (pieces, moved) = match froms[..] {
            [from] => (
                format!("the promoted piece on {from} (pawn on its side)"),
                "may have moved to",
            ),
            _ => (
                format!(
                    "one of the promoted pieces on {} (pawns on their side)",
                    froms
                        .iter()
                        .map(Square::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                "may have moved:",
            ),
        };
        let from = options.first().map(|o| o.from);
        self.raise(
            b,
            AlertKind::Promotion,
            from,
            format!(
                "{} pressed with no visible change: {pieces} {moved} {}; recorded {} for now",
                color_name(ply.color),
                listed.join(", "),
                listed.first().cloned().unwrap_or_default()
            ),
            Subject::HiddenMove { ply, options },
        );
    }

    /// A press that showed no move, and nothing since accounted for it: the TD is told.
    pub(super) fn tell_unexplained_press(&mut self, b: BoardId) {
        let Some(press) = self.tracks[b].presses.unexplained else {
            return;
        };
        if press.tell_at > self.now || self.tracks[b].presses.judging_later() {
            return;
        }
        self.tracks[b].presses.unexplained = None;
        let by = press.by;
        self.raise(
            b,
            AlertKind::NoMovePress,
            None,
            format!(
                "{} pressed the clock on board {b} without a move",
                color_name(by)
            ),
            Subject::Seat(Seat::new(b, by)),
        );
    }
}

/// What a promotion square (`sq`, the pawn from `from`) showed of the promoted piece: the
/// deciding snapshot's reading, unless the reply has already taken it there (a capture
/// quicker than the press was judged); then the last reading of the mover's piece on it
/// between the pawn's lift and that snapshot.
fn promotion_shown(
    window: &[sensing::Snapshot],
    cells: &sensing::Cells,
    from: Square,
    sq: Square,
    mover: Color,
) -> Cell {
    let cell = cells.get(sq);
    if cell.color() != Some(!mover) {
        return cell;
    }
    let upto = window
        .iter()
        .position(|s| s.cells == *cells)
        .map_or(window.len(), |i| i + 1);
    let lifted = window[..upto]
        .iter()
        .position(|s| s.cells.get(from).is_empty())
        .unwrap_or(upto);
    window[lifted..upto]
        .iter()
        .rev()
        .map(|s| s.cells.get(sq))
        .find(|c| c.color() == Some(mover))
        .unwrap_or(cell)
}

fn hidden_only(track: &Track, tied: &[Candidate]) -> bool {
    !tied.is_empty()
        && tied.iter().all(|c| {
            c.plies.len() == 1
                && c.plies[0]
                    .from()
                    .and_then(|f| track.appearance.tokens.get(f))
                    .is_some_and(Token::may_be_unseen)
        })
}

/// Readings of a ply and its reply that tie only on where a promoted piece laid on its side
/// went (the board shows none of its move), the reply the same move: the one to record.
/// The one whose reply lands where the piece went, taking it there, first: the board
/// showed the reply, and nothing else of the piece. Readings that move no such piece (a
/// drop taken at once where the reply lands) are left out: the TD asked where the piece
/// went can put the record right.
fn hidden_move_pair(tokens: &sensing::Tokens, tied: &[Candidate]) -> Option<Candidate> {
    let hidden: Vec<&Candidate> = tied
        .iter()
        .filter(|k| {
            k.irregular == 0
                && matches!(k.plies[..], [Move::Normal { from, .. }, _]
                    if tokens.get(from).is_some_and(Token::may_be_unseen))
        })
        .collect();
    let first = *hidden.first()?;
    let same = |k: &Candidate| {
        k.plies[0].from() == first.plies[0].from()
            && k.plies[1].from() == first.plies[1].from()
            && k.plies[1].to() == first.plies[1].to()
            && k.plies[1].role() == first.plies[1].role()
    };
    if !hidden.iter().all(|k| same(k)) {
        return None;
    }
    let takes_it = |k: &&&Candidate| k.plies[1].is_capture() && k.plies[1].to() == k.plies[0].to();
    Some(
        hidden
            .iter()
            .find(takes_it)
            .copied()
            .unwrap_or(first)
            .clone(),
    )
}

/// Readings of a ply and its reply that tie only on the piece a pawn promoted to, taken at
/// once where it promoted (a piece laid on its side, never seen): the board cannot tell
/// which, and the record already has the piece (read from its token, or named by the TD,
/// or asked). The pair promoting to that piece.
fn promoted_as_recorded(tied: &[Candidate], recorded: Option<Move>) -> Option<Candidate> {
    let Some(Move::Normal {
        promotion: Some(was),
        ..
    }) = recorded
    else {
        return None;
    };
    let squares = |k: &Candidate| -> Option<[Option<Square>; 4]> {
        match k.plies[..] {
            [
                first @ Move::Normal {
                    promotion: Some(_), ..
                },
                reply,
            ] => Some([
                first.from(),
                Some(first.to()),
                reply.from(),
                Some(reply.to()),
            ]),
            _ => None,
        }
    };
    let first = squares(tied.first()?)?;
    if tied
        .iter()
        .any(|k| k.irregular > 0 || squares(k) != Some(first))
    {
        return None;
    }
    tied.iter()
        .find(|k| k.plies[0].promotion() == Some(was))
        .cloned()
}

/// When `taken_on` emptied of a piece of `color`, if the board showed a `role` of that
/// colour set down on `landed_on` after, within a gesture of the hand (two passes of the
/// scan and a moment): the piece lifted there moved on, as a pawn pushed is.
fn pushed_in_one_gesture(
    window: &[sensing::Snapshot],
    scan_ms: Millis,
    color: Color,
    taken_on: Square,
    role: Role,
    landed_on: Square,
) -> Option<Millis> {
    let emptied = window.windows(2).find(|w| {
        w[0].cells.get(taken_on).color() == Some(color)
            && w[1].cells.get(taken_on).color() != Some(color)
    })?[1]
        .t_ms;
    let landed = window
        .iter()
        .find(|s| s.t_ms >= emptied && s.cells.get(landed_on) == Cell::piece(role.of(color)))?
        .t_ms;
    (landed <= emptied + 2 * scan_ms + 200).then_some(emptied)
}

/// Readings of a move and its reply, all moving a promoted piece laid on its side first,
/// that tie only on whether it took on a square and the reply dropped a piece of the
/// kind taken beside it, or went elsewhere unseen and the reply moved that piece on (the
/// same landing). The move readings (they agree on the reply) and where the piece was
/// lifted, the kind and where it landed; none unless there is a capture reading to set
/// aside.
fn push_or_capture_and_drop(
    tokens: &sensing::Tokens,
    tied: &[Candidate],
) -> Option<(Vec<Candidate>, Square, Role, Square)> {
    let lying = |from: Square| tokens.get(from).is_some_and(Token::may_be_unseen);
    let mut pushes: Vec<Candidate> = Vec::new();
    let mut drops = 0;
    let mut reply: Option<Move> = None;
    for k in tied {
        if k.irregular > 0 {
            return None;
        }
        match k.plies[..] {
            [
                Move::Normal {
                    from,
                    capture: None,
                    ..
                },
                second @ Move::Normal { .. },
            ] if lying(from) => {
                if reply.is_some_and(|r| r != second) {
                    return None;
                }
                reply = Some(second);
                pushes.push(k.clone());
            }
            [
                Move::Normal {
                    from,
                    capture: Some(_),
                    ..
                },
                Move::Put { .. },
            ] if lying(from) => {
                drops += 1;
            }
            _ => return None,
        }
    }
    let reply = reply?;
    let (Some(lifted), role, landed) = (reply.from(), reply.role(), reply.to()) else {
        return None;
    };
    // Each capture reading takes where the reply was lifted and drops where it landed.
    let fits = tied.iter().all(|k| match k.plies[..] {
        [Move::Normal { to, .. }, Move::Put { role: r, to: d }] => {
            to == lifted && r == role && d == landed
        }
        _ => true,
    });
    (drops > 0 && fits).then_some((pushes, lifted, role, landed))
}

/// Where the piece `first` moved could have gone, when it is a promoted piece laid on its
/// side (`before`'s tokens): its landing first, then each other square it could reach
/// without taking anything (a capture shows on the board) from which the reply `reply`
/// (the same piece from the same square to the same square, taking whatever stands
/// there) is still legal. Empty for any other move.
fn hidden_landings(
    state: &BoardState,
    rules: &crate::rules::RulesPreset,
    before: &BeforeLastPly,
    first: Move,
    reply: Move,
) -> Vec<Square> {
    let Some(from) = first.from() else {
        return Vec::new();
    };
    if !before
        .appearance
        .tokens
        .get(from)
        .is_some_and(Token::may_be_unseen)
    {
        return Vec::new();
    }
    let mut options = vec![first.to()];
    for m in state.legal_moves(rules) {
        if m.from() != Some(from) || m.is_capture() || m.to() == first.to() {
            continue;
        }
        if reply_fits(state, rules, m, reply) {
            options.push(m.to());
        }
    }
    options
}

/// Is `reply` (the same piece from the same square to the same square, taking whatever
/// stands there) legal after `first` from `state`?
fn reply_fits(
    state: &BoardState,
    rules: &crate::rules::RulesPreset,
    first: Move,
    reply: Move,
) -> bool {
    let mut after = state.clone();
    after.apply(first, rules.promotion).is_ok()
        && after
            .legal_moves(rules)
            .into_iter()
            .any(|r| r.from() == reply.from() && r.to() == reply.to() && r.role() == reply.role())
}

fn baseline_shows_color(baseline: &sensing::Residual, color: Color) -> bool {
    baseline.anomalies.iter().any(|a| a.color() == Some(color))
}

fn squares_of(r: &sensing::Residual) -> Vec<String> {
    let mut v: Vec<String> = r.in_progress.into_iter().map(|s| s.to_string()).collect();
    for a in &r.anomalies {
        match *a {
            Anomaly::Displaced { from, to, .. } => {
                v.push(from.to_string());
                v.push(to.to_string());
            }
            _ => v.push(a.square().to_string()),
        }
    }
    v.sort();
    v.dedup();
    v
}

/// A hidden piece's move as a question's option (a drop moves no piece: none).
fn hidden_option(m: Move) -> Option<HiddenOption> {
    Some(HiddenOption {
        from: m.from()?,
        to: m.to(),
    })
}
