//! The TD's actions: rulings on alerts, corrections of the record, claims, results and
//! penalties. They are inputs like any other, journaled and replayed.

use shakmaty::{Move, Role};

use super::{
    AlertKind, Arbiter, Offence, Output, PenaltyRecord, PlyRef, Subject, TdAction, role_name,
};
use crate::BoardId;
use crate::rules::{ClaimOutcome, MatchResult, Penalty, PlyMeta, Seat};
use crate::sensing::Token;

impl Arbiter {
    pub(super) fn on_td(&mut self, action: &TdAction) {
        let now = self.now;
        self.td_refusal = None;
        // A TD edit of the record: no reading again in hindsight over it.
        if matches!(
            action,
            TdAction::CorrectMove { .. }
                | TdAction::TakeBack { .. }
                | TdAction::AddMove { .. }
                | TdAction::ClaimIllegal { .. }
        ) {
            for t in &mut self.boards {
                t.presses.before_last = None;
            }
        }
        match action {
            TdAction::Dismiss { alert } => {
                self.alerts.resolve(*alert, now, "dismissed");
            }
            TdAction::LetStand { alert } => {
                if let Some(Subject::Ply(ply)) = self.alerts.get(*alert).map(|a| a.subject.clone())
                    && let Some(i) = self.ply_index(ply)
                {
                    let _ = self.game.set_comment(
                        i,
                        Some("TD: illegal move stands (not claimed in time)".into()),
                    );
                }
                self.alerts.resolve(*alert, now, "the move stands");
            }
            TdAction::SetPromotion { ply, role } => {
                let role = *role;
                if matches!(role, Role::King | Role::Pawn) {
                    return;
                }
                if let Some(i) = self.ply_index(*ply)
                    && let Some(p) = self.game.record().get(i)
                    && let Move::Normal {
                        role: r,
                        from,
                        capture,
                        to,
                        promotion: Some(_),
                    } = p.mv
                {
                    let mv = Move::Normal {
                        role: r,
                        from,
                        capture,
                        to,
                        promotion: Some(role),
                    };
                    if self.game.replace_move(i, mv).is_ok() {
                        self.out.push(Output::RecordChanged);
                        self.alerts.resolve_about_ply(
                            *ply,
                            now,
                            &format!("promoted to {}", role_name(role)),
                        );
                    }
                }
            }
            TdAction::ChooseHiddenMove { ply, to } => {
                let to = *to;
                if let Some(i) = self.ply_index(*ply)
                    && let Some(old) = self.game.record().get(i).map(|p| p.mv)
                    && let Some(from) = old.from()
                {
                    let state = &self.board_before(i, ply.board);
                    let mv = state
                        .legal_moves(self.game.rules())
                        .into_iter()
                        .find(|m| m.from() == Some(from) && m.to() == to);
                    if let Some(mv) = mv
                        && self.game.replace_move(i, mv).is_ok()
                    {
                        let track = &mut self.boards[ply.board];
                        if let Some(t) = track.appearance.tokens.remove(old.to()) {
                            track.appearance.tokens.set(to, t);
                        }
                        self.out.push(Output::RecordChanged);
                        self.alerts
                            .resolve_about_ply(*ply, now, &format!("went to {to}"));
                    }
                }
            }
            TdAction::ClaimIllegal { ply } => {
                if let Some(i) = self.ply_index(*ply)
                    && let Ok(outcome) = self.game.claim_illegal(i, Some(now))
                {
                    self.out.push(Output::RecordChanged);
                    let how = match outcome {
                        ClaimOutcome::Ended(_) => "claimed: the game is lost",
                        ClaimOutcome::TakenBack(_) => "claimed: the move is taken back",
                    };
                    self.alerts.resolve_about_ply(*ply, now, how);
                    if let ClaimOutcome::TakenBack(_) = outcome {
                        self.resync_tokens(ply.board);
                    }
                }
            }
            TdAction::CorrectMove { ply, mv } => {
                if let Some(i) = self.ply_index(*ply) {
                    let state = &self.board_before(i, ply.board);
                    match crate::notation::parse_move(state, self.game.rules(), mv) {
                        Ok(m) => match self.game.replace_move(i, m) {
                            Ok(_) => {
                                self.out.push(Output::RecordChanged);
                                self.alerts.resolve_about_ply(
                                    *ply,
                                    now,
                                    &format!("corrected to {mv}"),
                                );
                                self.resync_tokens(ply.board);
                            }
                            Err(e) => {
                                self.td_refusal =
                                    Some(format!("{mv} cannot replace that move: {e}"));
                            }
                        },
                        Err(e) => {
                            self.td_refusal = Some(format!("{mv} on board {}: {e}", ply.board));
                        }
                    }
                }
            }
            TdAction::AddMove { board, mv } => {
                let state = self.game.board(*board).clone();
                let parsed = crate::notation::parse_move(&state, self.game.rules(), mv);
                if let Err(e) = &parsed {
                    self.td_refusal = Some(format!("{mv} on board {board}: {e}"));
                }
                if let Ok(m) = parsed {
                    let number = state.fullmoves();
                    let color = state.turn();
                    let meta = PlyMeta {
                        t_ms: Some(now),
                        clock_ms: self.boards[*board].clock.reported_ms(color),
                        comment: Some("TD: move entered by hand".into()),
                    };
                    match self.game.play(*board, m, meta) {
                        Err(e) => self.td_refusal = Some(format!("{mv} on board {board}: {e}")),
                        Ok(i) => {
                            let ply = PlyRef {
                                board: *board,
                                color,
                                number,
                            };
                            self.out.push(Output::Committed { ply });
                            self.after_ply(*board, i, ply);
                            self.resync_tokens(*board);
                            let track = &mut self.boards[*board];
                            let last = track.sensed.history.len().saturating_sub(1);
                            track.sensed.restart_history(last);
                            self.monitor(*board);
                        }
                    }
                }
            }
            TdAction::TakeBack { ply } => {
                if let Some(i) = self.ply_index(*ply)
                    && self.game.remove(i).is_ok()
                {
                    self.out.push(Output::RecordChanged);
                    self.alerts.resolve_about_ply(*ply, now, "taken back");
                    self.resync_tokens(ply.board);
                    self.monitor(ply.board);
                }
            }
            TdAction::ClaimFlag { seat } => {
                let result = self.game.flag_result(*seat, Some(now));
                self.game.declare(result);
                let ids: Vec<u64> = self
                    .alerts
                    .open()
                    .filter(|a| a.kind == AlertKind::Flag && a.subject == Subject::Seat(*seat))
                    .map(|a| a.id)
                    .collect();
                for id in ids {
                    self.alerts.resolve(id, now, "flag claimed");
                }
            }
            TdAction::Penalize {
                seat,
                offence,
                penalty,
            } => {
                self.penalties.push(PenaltyRecord {
                    t_ms: now,
                    seat: *seat,
                    offence: *offence,
                    penalty: *penalty,
                });
                let text = match penalty {
                    Penalty::Warning => format!(
                        "TD: warning to {} ({})",
                        self.player(*seat),
                        offence.describe()
                    ),
                    Penalty::TimeToOpponent => format!(
                        "TD: {} s added to {}'s clock ({} by {})",
                        self.game.rules().penalties.time_penalty_ms / 1000,
                        self.player(seat.opponent()),
                        offence.describe(),
                        self.player(*seat)
                    ),
                    Penalty::Forfeit | Penalty::OpponentMayClaimWin => {
                        format!(
                            "TD: {} forfeits ({})",
                            self.player(*seat),
                            offence.describe()
                        )
                    }
                    Penalty::TdDecides => format!(
                        "TD: ruling on {} ({})",
                        self.player(*seat),
                        offence.describe()
                    ),
                };
                self.note_on_last_ply(seat.board, text.clone());
                if matches!(penalty, Penalty::Forfeit | Penalty::OpponentMayClaimWin) {
                    self.game.declare(MatchResult {
                        winner: Some(seat.opponent().team()),
                        reason: crate::rules::EndReason::Forfeit {
                            seat: *seat,
                            why: offence.describe().into(),
                        },
                        t_ms: Some(now),
                    });
                }
            }
            TdAction::DeclareResult { result } => {
                self.game.declare(result.clone());
            }
            TdAction::Undeclare => {
                self.game.undeclare();
                self.result_announced = self.game.is_over();
            }
            TdAction::SetPlayers { names } => {
                self.cfg.players.clone_from(names);
            }
        }
    }

    /// The number of earlier penalties for this seat and offence (for the ladder).
    #[must_use]
    pub fn offences(&self, seat: Seat, offence: Offence) -> usize {
        self.penalties
            .iter()
            .filter(|p| p.seat == seat && p.offence == offence)
            .count()
    }

    fn note_on_last_ply(&mut self, b: BoardId, text: String) {
        if let Some(i) = self.game.record().iter().rposition(|p| p.board == b) {
            let comment = match self
                .game
                .record()
                .get(i)
                .and_then(|p| p.meta.comment.clone())
            {
                Some(c) => format!("{c}; {text}"),
                None => text,
            };
            let _ = self.game.set_comment(i, Some(comment));
        }
    }

    /// After a record edit, keep only tokens of pieces that are still promoted, and move
    /// on from the current board as the new base.
    fn resync_tokens(&mut self, b: BoardId) {
        let promoted = self.game.board(b).promoted();
        let track = &mut self.boards[b];
        track.appearance.tokens.retain(promoted);
        for sq in promoted {
            if track.appearance.tokens.get(sq).is_none() {
                track
                    .appearance
                    .tokens
                    .set(sq, Token::settle(track.sensed.cells.get(sq)));
            }
        }
    }
}
