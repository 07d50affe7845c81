//! The anomaly monitor between presses: displaced pieces, tokens the board cannot name,
//! pieces missing or standing where nothing explains them (checked after each commit), the
//! players' result signal, the tokens of promoted pieces settling, and alerts the board
//! itself puts right.

use shakmaty::{Bitboard, Color, Move, Piece, Role, Square};

use super::track::{ExtraAtCommit, MissingAtCommit, ResultSignal};
use super::{AlertKind, Arbiter, HiddenOption, Output, Subject, color_name, role_name};
use crate::rules::{EndReason, Seat};
use crate::sensing::{
    self, Anomaly, Cell, Cells, Expect, Residual, Snapshot, Token, Tokens, explain, explain_before,
    latest_run, lying_read_ms, touched,
};
use crate::{BoardId, Millis};

impl Arbiter {
    /// The side that moved last.
    fn mover_since_last_commit(&self, b: BoardId) -> Color {
        // The side that moved last (before the first move: Black, whose pieces stand still).
        !self.game.board(b).turn()
    }

    /// The match ended by a mate or stalemate on board `b`: its last move has no reply
    /// (the other board's players may still be in the middle of one). Not while the end
    /// stands on a promotion whose piece nobody has named: the queen the record guesses may
    /// mate where the piece the player set down (a bishop, a knight) does not, and then
    /// the opponent's hand may well be on a victim.
    fn no_reply(&self, b: BoardId) -> bool {
        let ended_here = self.game.result().is_some_and(|r| match r.reason {
            EndReason::Checkmate { loser } => loser.board == b,
            EndReason::Stalemate { board } => board == b,
            _ => false,
        });
        ended_here && !self.end_hangs_on_unnamed_promotion(b)
    }

    /// Would the match go on were a promotion on board `b` the TD was asked about (and has
    /// not answered) another piece than the queen recorded?
    fn end_hangs_on_unnamed_promotion(&self, b: BoardId) -> bool {
        let asked = self.alerts.open().filter_map(|a| match a.subject {
            Subject::Ply(ply) if a.kind == AlertKind::Promotion && ply.board == b => Some(ply),
            _ => None,
        });
        asked.filter_map(|ply| self.ply_index(ply)).any(|j| {
            let named = match self.game.record().get(j).map(|p| p.mv) {
                Some(Move::Normal {
                    promotion: Some(named),
                    ..
                }) => named,
                _ => return false,
            };
            self.game.rules().promotion_roles.iter().any(|&r| {
                r != named
                    && self.promoted_as(j, r).is_some_and(|changes| {
                        let mut trial = self.game.clone();
                        trial.replace_moves(&changes).is_ok() && !trial.is_over()
                    })
            })
        })
    }

    /// What the sensors should show on the committed board (kept between field updates,
    /// worked out again only when the record or the pieces' appearance changed).
    pub(super) fn committed_expect(&mut self, b: BoardId) -> Expect {
        let state = self.game.board(b);
        let track = &mut self.tracks[b];
        track
            .monitor
            .committed_expect
            .get(state, &track.appearance)
            .clone()
    }

    /// Looks at the board after a change: the result signal, displaced pieces and tokens
    /// the board cannot name (told after a while), and alerts the board has put right.
    pub(super) fn monitor(&mut self, b: BoardId) {
        if !self.tracks[b].sensed.started {
            return;
        }
        if self.watch_result_signal(b) {
            return;
        }
        let mover = self.mover_since_last_commit(b);
        self.settle_tokens(b);
        self.hidden_move_shown(b);
        let expect = self.committed_expect(b);
        let cells = self.tracks[b].sensed.cells;
        let residual = explain(&expect, &cells, mover);
        self.watch_anomalies(b, &expect, &residual, mover);
        self.clear_put_right(b, &expect, &cells);
    }

    /// A lying piece's unseen move recorded on a guess, the TD asked where it went: its
    /// owner's pawn read for a pass or two on another square it could have gone to, empty
    /// on the record, and gone again, is the lying piece read as a pawn now and then (a
    /// pawn set down reads on every pass). The record takes that square, as the TD's
    /// answer would. Where two lying pieces could have gone there, the one whose square
    /// read as a pawn since the question (still lying there) did not: the other went. If
    /// the board has not told them apart, the question stays for the TD.
    fn hidden_move_shown(&mut self, b: BoardId) {
        // Only a promoted piece's token lies on its side.
        if self.tracks[b].appearance.tokens.iter().next().is_none() {
            return;
        }
        let asked: Vec<(super::PlyRef, Vec<HiddenOption>, Millis)> = self
            .alerts
            .open()
            // The lying piece's question (a pawn's step never shown, also asked with the
            // squares it could have gone to, is no lying piece's).
            .filter(|a| a.board == b && a.kind == AlertKind::Promotion)
            .filter_map(|a| match &a.subject {
                Subject::HiddenMove { ply, options } => Some((*ply, options.clone(), a.t_ms)),
                _ => None,
            })
            .collect();
        for (ply, options, asked_at) in asked {
            let Some(guess) = self
                .ply_index(ply)
                .and_then(|i| self.game.record().get(i))
                .map(|p| p.mv.to())
            else {
                continue;
            };
            let pawn = Some(ply.color.pawn());
            let track = &self.tracks[b];
            let board = self.game.board(b).board();
            let scan = track.timing.scan_ms;
            let history = &track.sensed.history;
            let mut shown: Vec<Square> = options
                .iter()
                .map(|o| o.to)
                .filter(|&sq| {
                    sq != guess
                        && board.piece_at(sq).is_none()
                        && track.sensed.cells.get(sq).is_empty()
                        && read_for_a_pass(history, sq, pawn, scan)
                })
                .collect();
            shown.sort();
            shown.dedup();
            let [to] = shown[..] else {
                continue;
            };
            // The board kept no snapshots from before the last commit, but when each square
            // last changed: a square no ply since has touched, shown nothing or a lying
            // piece by the record, changed only if a piece stood there for a pass.
            let later_plies: Vec<Move> = self
                .ply_index(ply)
                .map(|i| {
                    self.game
                        .record()
                        .iter()
                        .skip(i + 1)
                        .filter(|p| p.board == b)
                        .map(|p| p.mv)
                        .collect()
                })
                .unwrap_or_default();
            let still_lying = |from: Square| {
                history
                    .iter()
                    .any(|s| s.t_ms >= asked_at && s.cells.get(from).to_piece() == pawn)
                    || (track.sensed.changed_at[from.to_usize()] > asked_at
                        && !later_plies.iter().any(|&m| touched(m).contains(from)))
            };
            let mut went: Vec<Square> = options
                .iter()
                .filter(|o| o.to == to && !still_lying(o.from))
                .map(|o| o.from)
                .collect();
            went.sort();
            went.dedup();
            if let [from] = went[..] {
                // Refused only if the record cannot take it (a later move through the
                // square): the question stays for the TD.
                let _ = self.choose_hidden_move(ply, Some(from), to);
            }
        }
    }

    /// The players' result signal: not a position, not an anomaly; the TD decides. While
    /// it shows (returns true) nothing else is watched.
    fn watch_result_signal(&mut self, b: BoardId) -> bool {
        let signal = ResultSignal::read(&self.tracks[b].sensed.cells);
        let track = &mut self.tracks[b];
        if signal != track.sensed.result_signal {
            track.sensed.result_signal = signal;
            if signal.is_some() {
                self.outputs.push(Output::ResultSignal { board: b, signal });
            }
        }
        if signal.is_none() {
            return false;
        }
        let track = &mut self.tracks[b];
        track.monitor.displaced.clear();
        track.monitor.unknown.clear();
        track.monitor.extra.clear();
        track.presses.pending = None;
        track.presses.queued = None;
        track.presses.carried = None;
        true
    }

    /// Starts or stops watching displaced pieces and unnamed tokens; those that went away
    /// after the TD was told clear their alerts.
    fn watch_anomalies(&mut self, b: BoardId, expect: &Expect, residual: &Residual, mover: Color) {
        let now = self.now;
        let pressed = self.tracks[b].presses.pending.is_some();
        // Displaced pieces of the side that just moved (not while its press is judged).
        // When the opponent also shows a complete move (a drop too) and the "displaced"
        // piece went where it could move, both players pressed between two polls of the
        // clock: those are moves, judged at the next press, not a knock.
        let board = sensing::explain::expected_board(expect);
        // A complete move shows on two squares or more; a drop that has landed on one.
        let cells = &self.tracks[b].sensed.cells;
        let history = &self.tracks[b].sensed.history;
        let tokens = &self.tracks[b].appearance.tokens;
        let castling_rights = self.game.board(b).castling_rights();
        // The opponent's piece off its square in the record to another is a complete move
        // too, read so where another of the opponent's squares is taken for the move under
        // way (the next move begun: a piece lifted).
        let opponent_displaced = residual.anomalies.iter().filter_map(|a| match *a {
            Anomaly::Displaced { piece, from, to } if piece.color != mover => {
                Some((piece, from, to))
            }
            _ => None,
        });
        let opponent_moved = residual.in_progress.count() >= 2
            || residual
                .in_progress
                .into_iter()
                .any(|sq| cells.get(sq).to_piece().is_some_and(|p| p.color != mover))
            || opponent_displaced.clone().next().is_some();
        // The mover's piece went its way after the opponent's move: on the board that move
        // left (a knight gone from the rook's file opens it; a piece landed on a line
        // closes it).
        let mover_displaced = residual
            .anomalies
            .iter()
            .any(|a| matches!(*a, Anomaly::Displaced { piece, .. } if piece.color == mover));
        let after_reply = (opponent_moved && mover_displaced).then(|| {
            let mut after_reply = board.clone();
            for sq in residual.in_progress {
                match cells.get(sq).to_piece() {
                    None if board.color_at(sq) == Some(!mover) => {
                        after_reply.discard_piece_at(sq);
                    }
                    Some(p) if p.color != mover => after_reply.set_piece_at(sq, p),
                    _ => {}
                }
            }
            for (piece, from, to) in opponent_displaced {
                after_reply.discard_piece_at(from);
                after_reply.set_piece_at(to, piece);
            }
            after_reply
        });
        let displaced_now: Vec<Anomaly> = residual
            .anomalies
            .iter()
            .copied()
            .filter(|a| match *a {
                Anomaly::Displaced { piece, from, to } => {
                    let a_reply = after_reply.as_ref().is_some_and(|after| {
                        sensing::explain::can_reach(
                            after,
                            from,
                            piece,
                            to,
                            board.piece_at(to).is_some(),
                        )
                    }) || took_a_piece_just_moved(
                        &board, cells, tokens, mover, piece, from, to,
                    ) || took_a_drop_shown(&board, history, mover, piece, from, to)
                        || (opponent_moved && castles(castling_rights, piece, from, to));
                    piece.color == mover && !pressed && !a_reply
                }
                _ => false,
            })
            .collect();
        let lying = tokens
            .iter()
            .any(|(sq, t)| t.may_be_unseen() && board.color_at(sq) == Some(mover));
        let track = &mut self.tracks[b];
        let gone = track.monitor.displaced.update(&displaced_now, now);
        // Tokens the board cannot name.
        let unknown_now: Vec<Square> = residual
            .anomalies
            .iter()
            .filter_map(|a| match a {
                Anomaly::Unexplained { square, found } if found.is_unknown() => Some(*square),
                _ => None,
            })
            .collect();
        let unknown_gone = track.monitor.unknown.update(&unknown_now, now);
        // A piece of the side that just moved, set down where nothing explains it after
        // its press was read, while the opponent thinks: the next press may be a minute
        // away, so it is told once it has stood as long as a displaced piece may. Not
        // while a press is judged or a press showed nothing yet (it may be that piece's
        // move), nor with the opponent's move under way, nor a pawn where the mover has
        // a piece laid on its side (which the board may read as a pawn for a pass).
        let extra_now: Vec<(Square, Cell)> =
            if pressed || track.presses.unexplained.is_some() || residual.in_progress.any() {
                Vec::new()
            } else {
                residual
                    .anomalies
                    .iter()
                    .filter_map(|a| match *a {
                        Anomaly::Unexplained { square, found } => found
                            .to_piece()
                            .filter(|p| p.color == mover && !(lying && p.role == Role::Pawn))
                            .map(|_| (square, found)),
                        _ => None,
                    })
                    .collect()
            };
        // Gone again (or the board stirring) before it was told: nothing to tell; once
        // told, its alert clears when the square is right again (`clear_put_right`).
        track.monitor.extra.update(&extra_now, now);
        for a in gone {
            self.clear(b, AlertKind::Displaced, Some(a.square()));
        }
        for s in unknown_gone {
            self.clear(b, AlertKind::Unexplained, Some(s));
        }
    }

    /// Pieces back where they belong clear their missing/unexplained alerts; a board that
    /// matches the record clears a desync.
    fn clear_put_right(&mut self, b: BoardId, expect: &Expect, cells: &Cells) {
        let diff = expect.differences(cells);
        let open: Vec<(AlertKind, Option<Square>)> = self
            .alerts
            .open()
            .filter(|a| {
                a.board == b
                    && matches!(
                        a.kind,
                        AlertKind::Missing | AlertKind::Unexplained | AlertKind::Desync
                    )
            })
            .filter(|a| !matches!(a.subject, Subject::Ply(_)))
            .map(|a| (a.kind, a.square))
            .collect();
        for (kind, square) in open {
            let resolved = match (kind, square) {
                (AlertKind::Desync, _) => diff.is_empty(),
                (_, Some(sq)) => !diff.contains(sq),
                _ => false,
            };
            if resolved {
                self.clear(b, kind, square);
            }
        }
    }

    /// Settles the tokens of promoted pieces from what the board keeps showing: a spare
    /// piece at once; a pawn read on every pass of the scan for a run of more than two (in
    /// the snapshots at hand, up to now) is an upright pawn, if it still shows or its owner
    /// has moved it on (a lying pawn may read as a pawn for three passes and then nothing:
    /// told only by the square staying empty); a square empty for two scans
    /// while its owner is not moving (not on move, and no piece of the owner's landed
    /// anywhere since the square emptied) holds a pawn laid on its side, and so does an
    /// upright pawn's square found so (the pawn laid down later). A laid-down pawn now and
    /// then reads as a pawn for a pass, two in a row at times, so a shorter run settles
    /// nothing. The record's turn alone does not say the owner is not moving: the
    /// opponent's press reaches the PC up to a clock poll after the lever, and the owner
    /// may have lifted the token to move by then; its landing shows within a hand's move.
    pub(super) fn settle_tokens(&mut self, b: BoardId) {
        self.tracks[b].monitor.tokens_looked_at = self.now;
        if self.tracks[b].appearance.tokens.iter().next().is_none() {
            return;
        }
        let expect = self.committed_expect(b);
        let state = self.game.board(b);
        let turn = state.turn();
        let board = state.board().clone();
        let now = self.now;
        let track = &mut self.tracks[b];
        let scan = track.timing.scan_ms;
        let sensed = &track.sensed;
        // A piece of `owner` where the record has none of its.
        let off_record = |cells: &Cells, sq: Square, owner: Color| {
            let cell = cells.get(sq);
            cell.color() == Some(owner) && !expect.allows(sq, cell)
        };
        // A piece of `owner` standing off the record, put there after `since` (less a
        // scan: a landing may be reported before the lift).
        let landed_since = |owner: Color, since: Millis| {
            Square::ALL.into_iter().any(|sq| {
                off_record(&sensed.cells, sq, owner)
                    && sensed.changed_at[sq.to_usize()] + scan >= since
            })
        };
        // ...or put there since and lifted again (set down short on the way, the piece in
        // the hand now): the board's reports since `since` tell. Not a piece that already
        // stood there then: a move committed since leaves its piece's old square off the
        // record in the earlier reports (Black's knight on g8 before `Nf6`).
        let set_down_since = |owner: Color, since: Millis| {
            let history = &sensed.history;
            let start = history.partition_point(|s| s.t_ms + scan < since);
            // What the board showed when the square emptied (or, the history kept only
            // since a later commit, at its start).
            let then = history
                .iter()
                .rev()
                .find(|s| s.t_ms <= since)
                .or(history.first())
                .map(|s| s.cells);
            history[start..].iter().any(|s| {
                Square::ALL.into_iter().any(|sq| {
                    off_record(&s.cells, sq, owner)
                        && then.is_none_or(|then| then.get(sq) != s.cells.get(sq))
                })
            })
        };
        let open: Vec<Square> = track
            .appearance
            .tokens
            .iter()
            .filter(|(_, t)| matches!(t, Token::Unsettled | Token::Pawn))
            .map(|(s, _)| s)
            .collect();
        // The player to move by the record has pressed, the press not yet judged: the
        // other player, the owner of a promoted pawn, may be lifting it for the next move
        // (an upright pawn-knight lifted from g8, then set down on f6), not laying it down.
        let owner_moving = [&track.presses.pending, &track.presses.queued]
            .into_iter()
            .flatten()
            .any(|p| p.by == turn);
        let mut settled: Vec<(Square, Token)> = Vec::new();
        for sq in open {
            // An upright pawn may be laid on its side later (when its player remembers to):
            // then it shows nothing, for good.
            let upright = track.appearance.tokens.get(sq) == Some(Token::Pawn);
            let Some(owner) = board.piece_at(sq).map(|p| p.color) else {
                continue;
            };
            let seen = sensed.cells.get(sq);
            let emptied = sensed.changed_at[sq.to_usize()];
            let steady = now.saturating_sub(emptied);
            let stood = longest_run(&sensed.history, sq, owner.pawn(), now);
            let token = match seen.to_piece() {
                _ if upright && !seen.is_empty() => None,
                Some(p) if p.color == owner && !matches!(p.role, Role::Pawn | Role::King) => {
                    Some(Token::Piece(p.role))
                }
                // Gone since, and nothing of its owner landed (not lifted to move): a
                // lying piece read as a pawn for a run by chance, or a pawn laid down since
                // it stood; the empty square tells which in two scans (below).
                _ if !upright
                    && stood > lying_read_ms(scan)
                    && (!seen.is_empty() || landed_since(owner, emptied)) =>
                {
                    Some(Token::Pawn)
                }
                None if seen.is_empty()
                    && owner != turn
                    && !owner_moving
                    && steady >= lying_when_empty_ms(scan)
                    && !landed_since(owner, emptied)
                    && !set_down_since(owner, emptied) =>
                {
                    Some(Token::Hidden)
                }
                _ => None,
            };
            if let Some(t) = token {
                settled.push((sq, t));
            }
        }
        for (sq, t) in settled {
            track.appearance.tokens.set(sq, t);
        }
    }

    /// When an open token would settle by time passing alone, with no report from the
    /// board to look at it then (`settle_tokens`): its square empty two scans, its owner
    /// not to move (a pawn laid on its side), or its owner's pawn standing there longer
    /// than a lying one reads (upright). Without it, a lying pawn whose square went quiet
    /// while the opponent thought would be looked at only once its owner is to move, when
    /// an empty square says nothing, and stay open to any spare piece the board shows.
    // Asked before every input, and most boards have no promoted piece at all: that check
    // inlined, the rest not.
    #[inline]
    pub(super) fn token_settle_due(&self, b: BoardId) -> Option<Millis> {
        self.tracks[b].appearance.tokens.iter().next()?;
        self.tokens_settle_due(b)
    }

    #[inline(never)]
    fn tokens_settle_due(&self, b: BoardId) -> Option<Millis> {
        let track = &self.tracks[b];
        let state = self.game.board(b);
        let scan = track.timing.scan_ms;
        let sensed = &track.sensed;
        track
            .appearance
            .tokens
            .iter()
            .filter_map(|(sq, t)| {
                let owner = state.board().color_at(sq)?;
                let since = sensed.changed_at[sq.to_usize()];
                match (t, sensed.cells.get(sq).to_piece()) {
                    (Token::Unsettled | Token::Pawn, None) if owner != state.turn() => {
                        Some(since + lying_when_empty_ms(scan))
                    }
                    (Token::Unsettled, Some(p)) if p == owner.pawn() => {
                        Some(since + lying_read_ms(scan) + 1)
                    }
                    _ => None,
                }
            })
            .filter(|&due| due > track.monitor.tokens_looked_at)
            .min()
    }

    /// Displaced pieces and unnamed tokens that have stood long enough: the TD is told.
    pub(super) fn fire_monitor_timers(&mut self, b: BoardId) {
        let now = self.now;
        let timing = self.tracks[b].timing;
        let track = &mut self.tracks[b];
        // Not while a press is judged: it may read the piece as a move (see next_deadline).
        let due = if track.presses.pending.is_none() {
            track.monitor.displaced.take_due(timing.displaced_ms, now)
        } else {
            Vec::new()
        };
        for a in due {
            if let Anomaly::Displaced { piece, from, to } = a {
                self.raise(
                    b,
                    AlertKind::Displaced,
                    Some(from),
                    format!(
                        "{} {} belongs on {from}, stands on {to}",
                        color_name(piece.color),
                        role_name(piece.role)
                    ),
                    Subject::Seat(Seat::new(b, piece.color)),
                );
            }
        }
        let track = &mut self.tracks[b];
        let due = if track.presses.pending.is_none() {
            track.monitor.extra.take_due(timing.displaced_ms, now)
        } else {
            Vec::new()
        };
        for (square, found) in due {
            self.raise_unexplained(b, square, found);
        }
        let due = self.tracks[b]
            .monitor
            .unknown
            .take_due(timing.unexplained_ms, now);
        for s in due {
            self.raise(
                b,
                AlertKind::Unexplained,
                Some(s),
                format!("a piece the board cannot name stands on {s}"),
                Subject::None,
            );
        }
    }

    /// After a commit by the side that just moved (`mover`): the opponent's pieces wrong
    /// since well before the press, and the mover's own pieces gone (beyond a victim the
    /// opponent may be lifting) or standing where nothing explains them. The mover's are
    /// reported at once when the board is otherwise quiet; when the opponent is already
    /// moving, has pressed (the `final_call` on this press) or has shown a reply since gone
    /// again, the mover may be holding a piece for the next move, so only what is still
    /// wrong at the mover's next commit is reported.
    pub(super) fn after_commit_checks(
        &mut self,
        b: BoardId,
        final_call: bool,
        t_msg: Millis,
        landed_at: Option<Millis>,
        window: &[sensing::Snapshot],
    ) {
        // The mover's own move committed, a promoted pawn of the mover's whose square has
        // stood empty two scans with nothing of the mover's set down since was laid on
        // its side (when its player remembered to): taken so before the mover's pieces
        // are counted.
        self.settle_tokens(b);
        let mover = self.mover_since_last_commit(b);
        let expect = self.committed_expect(b);
        let cells = self.tracks[b].sensed.cells;
        let wrong_since = wrong_since(&expect, &cells, window, &self.tracks[b].sensed.changed_at);
        // The mover's pieces gone since before the mover's own move was on the board (by
        // more than a scan: its report comes up to a scan after it is placed): no victims of
        // the reply, which begins after the press (a piece pocketed by the opponent before
        // the opponent's own press, say).
        let track = &self.tracks[b];
        let before = landed_at
            .map(|t| t.saturating_sub(track.timing.scan_ms))
            .map_or(Bitboard::EMPTY, |reply_from| {
                expect
                    .differences(&cells)
                    .into_iter()
                    .filter(|&sq| {
                        expect.color(sq) == Some(mover) && wrong_since[sq.to_usize()] < reply_from
                    })
                    .collect()
            });
        // A mate or stalemate on this board has no reply: no opponent's hand is on a victim.
        let not_victims = if self.no_reply(b) {
            Bitboard::FULL
        } else {
            before
        };
        let residual = explain_before(&expect, &cells, mover, None, not_victims);
        // The opponent's reply shown landing since the mover's move landed, though gone
        // again now (a drop taken at once by the mover's next move): the mover's hand may
        // be on a piece for that next move, as when the reply is under way.
        let reply_shown = || {
            landed_at.is_some_and(|landed| {
                window
                    .iter()
                    .filter(|s| s.t_ms >= landed)
                    .any(|s| sensing::press::reply_landed(&expect, &s.cells, !mover))
            })
        };
        let quiet = !final_call && residual.in_progress.is_empty() && !reply_shown();
        self.report_long_wrong(b, mover, &expect, &cells, (t_msg, landed_at), &wrong_since);
        self.report_wrong_at_commits(b, mover, &expect, &residual, quiet, before);
        self.monitor(b);
    }

    /// The opponent's pieces gone since well before this press (more than a clock latency
    /// before its message, and before the mover's last ply landed): not lifted for the
    /// opponent's next move, which only began with this press, and no move of this press
    /// took them. Likewise the opponent's pieces standing since then where the record has
    /// none. `at`: the press message, and when the last ply first showed landing.
    fn report_long_wrong(
        &mut self,
        b: BoardId,
        mover: Color,
        expect: &Expect,
        cells: &Cells,
        at: (Millis, Option<Millis>),
        wrong_since: &[Millis; 64],
    ) {
        let (t_msg, landed_at) = at;
        let track = &self.tracks[b];
        let scan = track.timing.scan_ms;
        // The opponent's next move may begin as soon as the mover's has landed (less a
        // scan: a landing is reported up to a scan after it is made) and pressed: when
        // both players pressed between two polls of the clock and the clock never showed
        // it, this press's message comes only with the opponent's reply's, long after.
        let long_ago = t_msg
            .saturating_sub(track.timing.max_wait_ms.saturating_sub(scan))
            .min(landed_at.map_or(Millis::MAX, |t| t.saturating_sub(scan)));
        let changed_at = &track.sensed.changed_at;
        let gone_before: Vec<(Square, Piece)> = expect
            .differences(cells)
            .into_iter()
            .filter(|&sq| cells.get(sq).is_empty() && !expect.allows_empty(sq))
            .filter_map(|sq| expect.logical(sq).map(|p| (sq, p)))
            .filter(|(sq, p)| p.color != mover && wrong_since[sq.to_usize()] < long_ago)
            // A piece of that kind standing where the record has none is this piece moved
            // or displaced (its own alert), not a piece gone.
            .filter(|(_, p)| {
                !Square::ALL
                    .iter()
                    .any(|&t| cells.get(t) == Cell::piece(*p) && !expect.allows(t, cells.get(t)))
            })
            .collect();
        // Unless the same kind is gone elsewhere: displaced.
        let extra_before: Vec<(Square, Piece)> = expect
            .differences(cells)
            .into_iter()
            .filter_map(|sq| cells.get(sq).to_piece().map(|p| (sq, p)))
            .filter(|(sq, p)| {
                p.color != mover && expect.allows_empty(*sq) && changed_at[sq.to_usize()] < long_ago
            })
            .filter(|(_, p)| {
                !Square::ALL
                    .iter()
                    .any(|&t| expect.logical(t) == Some(*p) && cells.get(t).is_empty())
            })
            .collect();
        for (square, piece) in extra_before {
            self.raise_unexplained(b, square, Cell::piece(piece));
        }
        for (square, piece) in gone_before {
            self.raise_missing_piece(b, square, piece);
        }
    }

    /// The mover's pieces missing (or unexplained pieces standing) at this commit: told at
    /// once when `quiet`, else when they were wrong at the mover's previous commit too.
    fn report_wrong_at_commits(
        &mut self,
        b: BoardId,
        mover: Color,
        expect: &Expect,
        residual: &Residual,
        quiet: bool,
        before: Bitboard,
    ) {
        let mut missing: Vec<(MissingAtCommit, Piece)> = Vec::new();
        let mut extra: Vec<ExtraAtCommit> = Vec::new();
        for a in &residual.anomalies {
            match *a {
                Anomaly::Missing { piece, square } if piece.color == mover => {
                    let expected = expect.mask(square);
                    missing.push((MissingAtCommit { square, expected }, piece));
                }
                Anomaly::Unexplained { square, found } if found.color() == Some(mover) => {
                    extra.push(ExtraAtCommit { square, found });
                }
                _ => {}
            }
        }
        // The mover's last move's piece gone from where the board showed it land: a stop
        // on a slide's way whose end the board has not reported yet, or a piece taken at
        // once by a reply not shown yet. Told, like a victim held, only if it stays gone.
        let moved_to = self
            .game
            .record()
            .iter()
            .rev()
            .find(|p| p.board == b)
            .map(|p| sensing::press::move_landing(p.mv));
        let now = self.now;
        let track = &mut self.tracks[b];
        // At once only what has stood for a full scan: a knocked or moved piece is two
        // reports up to a scan apart, and its first half alone looks like a gone or extra
        // piece. A piece gone waits a little more: the half that shows where it went may
        // come a few ms past a scan (a pass slower than the last, the serial line busy).
        let scan = track.timing.scan_ms;
        let apart = track.timing.settle_ms;
        let sensed = &track.sensed;
        let settled = |sq: Square| sensed.steady_for(sq, now) >= scan;
        let gone_long = |sq: Square| sensed.steady_for(sq, now) >= apart;
        // A promoted pawn of the mover's, its square empty less than two scans: laid on
        // its side now and then read for a pass, it is taken as lying once the square
        // has stood empty that long (`settle_tokens`, which the recheck follows).
        let tokens = &track.appearance.tokens;
        let may_lie = |sq: Square| {
            matches!(tokens.get(sq), Some(Token::Unsettled | Token::Pawn))
                && sensed.steady_for(sq, now) < lying_when_empty_ms(scan)
        };
        let monitor = &mut track.monitor;
        let report_missing: Vec<(Square, Piece)> = missing
            .iter()
            .filter(|(m, _)| !may_lie(m.square))
            .filter(|(m, _)| {
                (quiet && gone_long(m.square) && moved_to != Some(m.square))
                    || before.contains(m.square)
                    || monitor.missing_at_commit[mover].contains(m)
            })
            .map(|(m, p)| (m.square, *p))
            .collect();
        let report_extra: Vec<ExtraAtCommit> = extra
            .iter()
            .copied()
            .filter(|e| (quiet && settled(e.square)) || monitor.extra_at_commit[mover].contains(e))
            .collect();
        // The mover's pieces gone that the opponent may be lifting as victims.
        let held: Vec<MissingAtCommit> = residual
            .in_progress
            .into_iter()
            .filter(|&sq| expect.color(sq) == Some(mover) && sensed.cells.get(sq).is_empty())
            .map(|square| MissingAtCommit {
                square,
                expected: expect.mask(square),
            })
            .collect();
        // Gone too freshly to be told now, on a quiet board: told once a scan has passed
        // with no landing anywhere (the second half of a moved piece's reports), unless
        // the board stirred meanwhile. Gone where the opponent may be lifting it as a
        // victim: told if it is still held alone, nothing else stirring, as long after as
        // a displaced piece may stand (see `recheck_missing`).
        let held_until = track.timing.displaced_ms;
        let unreported: Vec<&MissingAtCommit> = missing
            .iter()
            .map(|(m, _)| m)
            .filter(|m| !report_missing.iter().any(|(sq, _)| *sq == m.square))
            .collect();
        let (moved_piece, others): (Vec<&MissingAtCommit>, Vec<&MissingAtCommit>) = unreported
            .into_iter()
            .partition(|m| moved_to == Some(m.square));
        monitor.missing_recheck = others
            .iter()
            .filter(|_| quiet)
            .map(|m| {
                let since = sensed.changed_at[m.square.to_usize()];
                if may_lie(m.square) {
                    since + lying_when_empty_ms(scan)
                } else {
                    since + apart
                }
            })
            .chain(held.iter().chain(moved_piece).map(|m| {
                // Held since it went, or since this commit: a moved piece taken at once
                // may never have shown on its square.
                sensed.changed_at[m.square.to_usize()].max(now) + held_until
            }))
            .max();
        monitor.missing_at_commit[mover] = missing.iter().map(|(m, _)| *m).chain(held).collect();
        monitor.extra_at_commit[mover] = extra;
        for (square, piece) in report_missing {
            self.raise_missing_piece(b, square, piece);
        }
        for e in report_extra {
            self.raise_unexplained(b, e.square, e.found);
        }
    }

    /// The mover's pieces found gone at a commit but not told then: still gone a scan on,
    /// the same piece expected, nobody moving and no press being judged, they are missing
    /// (the rule of a quiet commit, a scan later). Where the opponent could be lifting one
    /// as a victim, it is missing if it is all that differs from the record after as long
    /// as a displaced piece may stand: a capturer follows its victim within a hand's move,
    /// and a mover's next commit may never come (the match ends on the other board).
    pub(super) fn recheck_missing(&mut self, b: BoardId) {
        let track = &self.tracks[b];
        if track
            .monitor
            .missing_recheck
            .is_none_or(|t| t > self.now || track.presses.pending.is_some())
        {
            return;
        }
        self.tracks[b].monitor.missing_recheck = None;
        let mover = self.mover_since_last_commit(b);
        let expect = self.committed_expect(b);
        let cells = self.tracks[b].sensed.cells;
        // After a mate or stalemate on this board, no opponent's hand is on a victim.
        let residual = if self.no_reply(b) {
            explain_before(&expect, &cells, mover, None, Bitboard::FULL)
        } else {
            explain(&expect, &cells, mover)
        };
        let track = &self.tracks[b];
        let candidates: Vec<(Square, Piece)> = if residual.in_progress.is_empty() {
            let gone = residual.anomalies.iter().filter_map(|a| match *a {
                Anomaly::Missing { piece, square } if piece.color == mover => Some((square, piece)),
                _ => None,
            });
            gone.collect()
        } else {
            // Read as victims being lifted: missing only if they are all that differs (the
            // recheck was set as long after the commit as a victim may be held alone).
            let diff = expect.differences(&cells);
            let gone: Vec<(Square, Piece)> = diff
                .into_iter()
                .filter(|&sq| cells.get(sq).is_empty())
                .filter_map(|sq| expect.logical(sq).map(|p| (sq, p)))
                .filter(|(_, p)| p.color == mover)
                .collect();
            if gone.len() != diff.count() {
                return;
            }
            gone
        };
        let now = self.now;
        let gone: Vec<(Square, Piece)> = candidates
            .into_iter()
            .filter(|&(square, _)| {
                track.sensed.steady_for(square, now) >= track.timing.scan_ms
                    && track.monitor.missing_at_commit[mover].contains(&MissingAtCommit {
                        square,
                        expected: expect.mask(square),
                    })
            })
            .collect();
        for (square, piece) in gone {
            self.raise_missing_piece(b, square, piece);
        }
    }

    /// What stands on `square` (as the sensors see it) that no move explains.
    pub(super) fn raise_unexplained(&mut self, b: BoardId, square: Square, found: sensing::Cell) {
        // The TD already told of a piece there no capture supplies (a drop the record has
        // since read as another move): the same piece, told once.
        let told = self
            .alerts
            .open()
            .any(|a| a.board == b && a.kind == AlertKind::Unexplained && a.square == Some(square));
        if told {
            return;
        }
        let what = found.to_piece().map_or_else(
            || "piece".to_owned(),
            |p| format!("{} {}", color_name(p.color), role_name(p.role)),
        );
        self.raise(
            b,
            AlertKind::Unexplained,
            Some(square),
            format!("{what} on {square} that no move explains"),
            Subject::None,
        );
    }

    /// A piece of the record gone from `square` that no move explains.
    pub(super) fn raise_missing_piece(&mut self, b: BoardId, square: Square, piece: Piece) {
        self.raise(
            b,
            AlertKind::Missing,
            Some(square),
            format!(
                "{} {} missing from {square} (no move explains it; hidden?)",
                color_name(piece.color),
                role_name(piece.role)
            ),
            Subject::None,
        );
    }
}

/// Is `piece` going from `from` to `to` the king's step of castling, with the right to
/// castle on that side still held? (Its rook's step is a plain rook move.)
fn castles(castling_rights: Bitboard, piece: Piece, from: Square, to: Square) -> bool {
    let rook_file = if to.file() > from.file() {
        shakmaty::File::H
    } else {
        shakmaty::File::A
    };
    let back_rank = piece.color.backrank();
    piece.role == Role::King
        && from.rank() == back_rank
        && to.rank() == back_rank
        && from.distance(to) == 2
        && castling_rights.contains(Square::from_coords(rook_file, back_rank))
}

/// Did the opponent move a piece (gone from its square now) to `to`, and `piece` of the
/// `mover` take it there from `from`? Both presses fell between two polls of the clock, so
/// neither reached the record yet; the capture left only the opponent's emptied square
/// to show for its move. Those are moves, judged at the next press, not a knocked piece.
/// A promoted piece laid on its side (`tokens`) reads as nothing where it lies: its square
/// empty is no sign that it moved.
fn took_a_piece_just_moved(
    board: &shakmaty::Board,
    cells: &Cells,
    tokens: &Tokens,
    mover: Color,
    piece: Piece,
    from: Square,
    to: Square,
) -> bool {
    // The opponent's pieces gone from their squares: one of them may have made that move.
    let mut gone = (board.by_color(!mover) & !Bitboard::from_square(to))
        .into_iter()
        .filter(|&sq| {
            cells.get(sq).is_empty() && !tokens.get(sq).is_some_and(Token::may_be_unseen)
        });
    gone.any(|sq| {
        board.piece_at(sq).is_some_and(|p| {
            if !sensing::explain::can_reach(board, sq, p, to, board.piece_at(to).is_some()) {
                return false;
            }
            let mut after = board.clone();
            after.discard_piece_at(sq);
            after.set_piece_at(to, p);
            sensing::explain::can_reach(&after, from, piece, to, true)
        })
    })
}

/// Did the opponent drop a piece on `to` (shown there since the last commit, where the
/// record has none) and `piece` of the `mover` take it there from `from`? Both presses
/// fell between two polls of the clock: a drop taken at once, not a knocked piece.
fn took_a_drop_shown(
    board: &shakmaty::Board,
    history: &[sensing::Snapshot],
    mover: Color,
    piece: Piece,
    from: Square,
    to: Square,
) -> bool {
    if board.piece_at(to).is_some() {
        return false;
    }
    let mut after = board.clone();
    history
        .iter()
        .filter_map(|s| s.cells.get(to).to_piece())
        .filter(|dropped| dropped.color != mover)
        .any(|dropped| {
            after.set_piece_at(to, dropped);
            sensing::explain::can_reach(&after, from, piece, to, true)
        })
}

/// Since when each square that differs from the record now has not shown what the record
/// expects there: the first snapshot of `window` (the history since the last commit) after
/// the last one that showed it right, or when the square last changed if none of them
/// did or it went wrong after them. A piece set down on an empty square and lifted again
/// changes the square, but what was gone stays gone since it went.
fn wrong_since(
    expect: &Expect,
    cells: &Cells,
    window: &[sensing::Snapshot],
    changed_at: &[Millis; 64],
) -> [Millis; 64] {
    let mut since = *changed_at;
    let now_wrong = expect.differences(cells);
    if now_wrong.is_empty() || window.is_empty() {
        return since;
    }
    let wrong: Vec<Bitboard> = window
        .iter()
        .map(|s| expect.differences(&s.cells))
        .collect();
    for sq in now_wrong {
        let i = sq.to_usize();
        let first_wrong = match wrong.iter().rposition(|w| !w.contains(sq)) {
            Some(last_right) => window.get(last_right + 1).map(|s| s.t_ms),
            None => window.first().map(|s| s.t_ms),
        };
        if let Some(t) = first_wrong {
            since[i] = since[i].min(t);
        }
    }
    since
}

/// The longest run of `pawn` on `sq` in `history`: from the snapshot it first showed in to
/// the one it changed in (or `now`, if it still stands).
fn longest_run(history: &[Snapshot], sq: Square, pawn: Piece, now: Millis) -> Millis {
    let mut longest = 0;
    let mut since: Option<Millis> = None;
    for snap in history {
        let here = snap.cells.get(sq).to_piece() == Some(pawn);
        match (here, since) {
            (true, None) => since = Some(snap.t_ms),
            (false, Some(t)) => {
                longest = longest.max(snap.t_ms.saturating_sub(t));
                since = None;
            }
            _ => {}
        }
    }
    since.map_or(longest, |t| longest.max(now.saturating_sub(t)))
}

/// How long a promoted pawn's square stands empty, its owner not to move, before the pawn
/// is taken as laid on its side (`settle_tokens`, and the deadline `token_settle_due` sets
/// for it): two scans, past a lying pawn's chance read as one.
fn lying_when_empty_ms(scan: Millis) -> Millis {
    2 * scan
}

/// Did the board read `pawn` on `sq` in the history no longer than a lying piece reads as
/// one, and nothing there since?
fn read_for_a_pass(history: &[Snapshot], sq: Square, pawn: Option<Piece>, scan: Millis) -> bool {
    latest_run(history, sq, pawn).is_some_and(|run| {
        history
            .get(run.end)
            .is_some_and(|gone| gone.t_ms <= history[run.start].t_ms + lying_read_ms(scan))
    })
}
