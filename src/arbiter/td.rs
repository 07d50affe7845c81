//! The TD's actions: rulings on alerts, corrections of the record, claims, results and
//! penalties. They are inputs like any other, journaled and replayed. An action that cannot
//! be carried out changes nothing and is refused aloud: `Output::Refused` with the reason,
//! and the reason's text in the view for the console.

use shakmaty::{Move, Role, Square};

use super::alert::Alert;
use super::{
    AlertKind, Arbiter, Offence, Output, PenaltyRecord, PlyRef, Subject, TdAction, color_name,
    role_name,
};
use crate::BoardId;
use crate::rules::{ClaimOutcome, MatchResult, Penalty, PlyMeta, Seat, with_promotion};
use crate::sensing::Token;

/// Why a TD action was not carried out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No alert has that number.
    NoSuchAlert { alert: u64 },
    /// The alert was cleared by the board or resolved already.
    AlertNotOpen { alert: u64 },
    /// Only an illegal move's alert can be let stand.
    NotAnIllegalMove { alert: u64, kind: AlertKind },
    /// The ply is not in the record (taken back, or never played).
    NoSuchPly { ply: PlyRef },
    /// The ply promoted no pawn.
    NotAPromotion { ply: PlyRef },
    /// The rules let no pawn become this piece (a king, a pawn, or one the preset excludes).
    CannotPromoteTo { role: Role },
    /// The ply is a drop: no piece moved that could have gone elsewhere.
    NoPieceMoved { ply: PlyRef },
    /// The ply is no drop: no piece came from a player's hand.
    NotADrop { ply: PlyRef },
    /// The dropper held no such piece to drop there.
    NotInHand { ply: PlyRef, role: Role },
    /// The piece that moved in the ply cannot go to that square.
    CannotReach {
        ply: PlyRef,
        from: Square,
        to: Square,
    },
    /// The ply is legal: there is no illegal move to claim.
    MoveIsLegal { ply: PlyRef },
    /// The typed move does not read, or cannot be played there.
    MoveNotPossible {
        board: BoardId,
        mv: String,
        why: String,
    },
    /// The typed move cannot replace the recorded one (the moves after it would not play).
    CannotReplace { mv: String, why: String },
    /// The plies after the edited one would no longer play.
    RecordUnplayable { ply: PlyRef, why: String },
    /// Taking the ply back leaves a record that does not play.
    CannotTakeBack { ply: PlyRef, why: String },
    /// The clock shows that player's time still running, flag up.
    FlagNotFallen { seat: Seat, left_ms: u64 },
    /// The rules preset plays on one board only.
    NoSuchBoard { board: BoardId },
    /// The match has ended: no more claims or penalties (a declared result can be
    /// withdrawn first).
    MatchOver,
    /// There is no declared result to withdraw (`by_the_boards`: the boards ended the
    /// match, by mate or stalemate, which is not withdrawn).
    NothingDeclared { by_the_boards: bool },
    /// The clocks were started already.
    ClocksStarted,
    /// Both clocks are DGT clocks read only: Tandem cannot start them.
    ClocksReadOnly,
    /// Play is stopped already.
    AlreadyPaused,
    /// Play is not stopped.
    NotPaused,
    /// Which side of the clock is whose is not known yet (the clock has not run).
    ClockSidesUnknown { board: BoardId },
    /// The clock has not been read since its board connected.
    ClockNotRead { board: BoardId },
}

impl Refusal {
    /// The reason in the TD's words, given the players' names by seat.
    #[must_use]
    pub fn describe(&self, name: &dyn Fn(Seat) -> String) -> String {
        match self {
            Refusal::NoSuchAlert { alert } => format!("there is no alert {alert}"),
            Refusal::AlertNotOpen { alert } => format!("alert {alert} is no longer open"),
            Refusal::NotAnIllegalMove { alert, kind } => format!(
                "alert {alert} is about {}, not an illegal move: only an illegal move can be let stand",
                kind.name()
            ),
            Refusal::NoSuchPly { ply } => format!("{} is not in the record", ply_words(*ply)),
            Refusal::NotAPromotion { ply } => {
                format!("{} is not a promotion", ply_words(*ply))
            }
            Refusal::CannotPromoteTo { role } => {
                format!(
                    "a pawn cannot become a {} under these rules",
                    role_name(*role)
                )
            }
            Refusal::NoPieceMoved { ply } => {
                format!("{} is a drop: no piece moved", ply_words(*ply))
            }
            Refusal::NotADrop { ply } => format!("{} is not a drop", ply_words(*ply)),
            Refusal::NotInHand { ply, role } => format!(
                "the player held no {} to drop there ({})",
                role_name(*role),
                ply_words(*ply)
            ),
            Refusal::CannotReach { ply, from, to } => format!(
                "the piece on {from} cannot go to {to} ({})",
                ply_words(*ply)
            ),
            Refusal::MoveIsLegal { ply } => format!(
                "{} is legal: there is no illegal move to claim",
                ply_words(*ply)
            ),
            Refusal::MoveNotPossible { board, mv, why } => format!("{mv} on board {board}: {why}"),
            Refusal::CannotReplace { mv, why } => format!("{mv} cannot replace that move: {why}"),
            Refusal::RecordUnplayable { ply, why } => format!(
                "after that change to {} the record no longer plays: {why}",
                ply_words(*ply)
            ),
            Refusal::CannotTakeBack { ply, why } => {
                format!("{} cannot be taken back: {why}", ply_words(*ply))
            }
            Refusal::FlagNotFallen { seat, left_ms } => format!(
                "{}'s flag has not fallen: the clock shows {}:{:02} left",
                name(*seat),
                left_ms / 60_000,
                left_ms / 1000 % 60
            ),
            Refusal::NoSuchBoard { board } => format!("this match has no board {board}"),
            Refusal::MatchOver => "the match is over".to_owned(),
            Refusal::ClocksStarted => "the clocks were started already".to_owned(),
            Refusal::ClocksReadOnly => {
                "the clocks are DGT clocks Tandem only reads: start them by hand".to_owned()
            }
            Refusal::AlreadyPaused => "play is stopped already".to_owned(),
            Refusal::NotPaused => "play is not stopped".to_owned(),
            Refusal::ClockSidesUnknown { board } => format!(
                "which side of board {board}'s clock is whose is not known until it has run: set it by hand"
            ),
            Refusal::ClockNotRead { board } => {
                format!(
                    "board {board}'s clock has not been read yet: wait a moment, or set it by hand"
                )
            }
            Refusal::NothingDeclared { by_the_boards } => {
                if *by_the_boards {
                    "no result was declared: the boards ended the match (mate or stalemate stands)"
                        .to_owned()
                } else {
                    "no result was declared".to_owned()
                }
            }
        }
    }
}

/// A ply in words: "White's move 5 on board A".
fn ply_words(ply: PlyRef) -> String {
    format!(
        "{}'s move {} on board {}",
        color_name(ply.color),
        ply.number,
        ply.board
    )
}

impl Arbiter {
    pub(super) fn on_td(&mut self, action: &TdAction) {
        self.td_refusal = None;
        let done = match action {
            TdAction::Dismiss { alert } => self.dismiss(*alert),
            TdAction::LetStand { alert } => self.let_stand(*alert),
            TdAction::SetPromotion { ply, role } => self.set_promotion(*ply, *role),
            TdAction::ChooseHiddenMove { ply, from, to } => {
                self.choose_hidden_move(*ply, *from, *to)
            }
            TdAction::SetDroppedPiece { ply, role } => self.set_dropped_piece(*ply, *role),
            TdAction::ChoosePair { ply, moves } => self.choose_pair(*ply, moves),
            TdAction::ClaimIllegal { ply } => self.claim_illegal(*ply),
            TdAction::CorrectMove { ply, mv } => self.correct_move(*ply, mv),
            TdAction::AddMove { board, mv } => self.add_move(*board, mv),
            TdAction::TakeBack { ply } => self.take_back(*ply),
            TdAction::ClaimFlag { seat } => self.claim_flag(*seat),
            TdAction::Penalize {
                seat,
                offence,
                penalty,
                alert,
            } => self.penalize(*seat, *offence, *penalty, *alert),
            TdAction::DeclareResult { result } => {
                self.game.declare(result.clone());
                Ok(())
            }
            TdAction::Undeclare => self.undeclare(),
            TdAction::SetPlayers { names } => {
                self.config.players.clone_from(names);
                Ok(())
            }
            TdAction::StartClocks => self.start_clocks(),
            TdAction::PauseClocks => self.pause_clocks(super::PausedBy::Td),
            TdAction::ResumeClocks => self.resume_clocks(),
            TdAction::SetClock { seat, ms } => self.change_clock(*seat, *ms, false),
        };
        match done {
            Ok(()) => {
                // A TD edit of the record: no reading again in hindsight over it, and no
                // question about a pawn's step before it.
                if matches!(
                    action,
                    TdAction::CorrectMove { .. }
                        | TdAction::ChoosePair { .. }
                        | TdAction::TakeBack { .. }
                        | TdAction::AddMove { .. }
                        | TdAction::ClaimIllegal { .. }
                ) {
                    for t in &mut self.tracks {
                        t.presses.before_last = None;
                        t.presses.unseen_step = None;
                    }
                    // The TD's record stands: no later drop re-reads a drop the TD edited.
                    if let TdAction::CorrectMove { ply, .. } | TdAction::TakeBack { ply } = action {
                        self.taken_drops.retain(|t| t.ply != *ply);
                    }
                }
            }
            Err(reason) => {
                let names = self.config.players.clone();
                self.td_refusal = Some(reason.describe(&|s: Seat| names[s.index()].clone()));
                self.outputs.push(Output::Refused {
                    action: action.clone(),
                    reason,
                });
            }
        }
    }

    /// The alert, if it is still open.
    fn open_alert(&self, alert: u64) -> Result<&Alert, Refusal> {
        match self.alerts.get(alert) {
            None => Err(Refusal::NoSuchAlert { alert }),
            Some(a) if !a.is_open() => Err(Refusal::AlertNotOpen { alert }),
            Some(a) => Ok(a),
        }
    }

    /// The record index of a ply that must be there.
    pub(super) fn recorded(&self, ply: PlyRef) -> Result<usize, Refusal> {
        self.ply_index(ply).ok_or(Refusal::NoSuchPly { ply })
    }

    /// The seat plays in this match.
    fn seated(&self, seat: Seat) -> Result<(), Refusal> {
        if self.game.board_ids().contains(&seat.board) {
            Ok(())
        } else {
            Err(Refusal::NoSuchBoard { board: seat.board })
        }
    }

    fn dismiss(&mut self, alert: u64) -> Result<(), Refusal> {
        let a = self.open_alert(alert)?;
        // A promotion question dismissed: the queen (or the square) recorded stands; so
        // does the square recorded for a move the board could not show.
        let promoted = match (a.kind, &a.subject) {
            (AlertKind::Promotion, Subject::Ply(ply) | Subject::HiddenMove { ply, .. })
            | (AlertKind::UnseenMove, Subject::HiddenMove { ply, .. }) => Some(*ply),
            _ => None,
        };
        self.alerts.resolve(alert, self.now, "dismissed");
        if let Some(ply) = promoted
            && let Some(i) = self.ply_index(ply)
        {
            self.tell_held_illegal(ply.board, i);
        }
        Ok(())
    }

    /// An illegal move not claimed in time: it stands, and the record says so.
    fn let_stand(&mut self, alert: u64) -> Result<(), Refusal> {
        let a = self.open_alert(alert)?;
        let (AlertKind::IllegalMove, Subject::Ply(ply)) = (a.kind, &a.subject) else {
            return Err(Refusal::NotAnIllegalMove {
                alert,
                kind: a.kind,
            });
        };
        if let Some(i) = self.ply_index(*ply) {
            let _ = self.game.set_comment(
                i,
                Some("TD: illegal move stands (not claimed in time)".into()),
            );
        }
        self.alerts.resolve(alert, self.now, "the move stands");
        Ok(())
    }

    fn set_promotion(&mut self, ply: PlyRef, role: Role) -> Result<(), Refusal> {
        if !self.game.rules().promotion_roles.contains(&role) {
            return Err(Refusal::CannotPromoteTo { role });
        }
        let i = self.recorded(ply)?;
        let changes = self
            .promoted_as(i, role)
            .ok_or(Refusal::NotAPromotion { ply })?;
        self.game
            .replace_moves(&changes)
            .map_err(|e| Refusal::RecordUnplayable {
                ply,
                why: e.to_string(),
            })?;
        self.outputs.push(Output::RecordChanged);
        // Which pair was played is not answered by the piece: asked again with it named.
        let ask_again = self.twin_to_ask_again(ply);
        let how = format!("promoted to {}", role_name(role));
        self.alerts.resolve_about_ply(ply, self.now, &how);
        if ask_again {
            self.ask_twin_again(ply);
        }
        self.tell_held_illegal(ply.board, i);
        Ok(())
    }

    /// The record's changes that make the promotion at record index `i` a `role`: that
    /// ply, and the later moves of the piece promoted, recorded as the piece guessed until
    /// now (the TD names the piece once the player has moved it on), up to its capture.
    /// `None` if the ply is no promotion.
    pub(super) fn promoted_as(&self, i: usize, role: Role) -> Option<Vec<(usize, Move)>> {
        let record = self.game.record();
        let ply = record.get(i)?;
        let Move::Normal {
            to,
            promotion: Some(_),
            ..
        } = ply.mv
        else {
            return None;
        };
        let mv = with_promotion(ply.mv, Some(role));
        let mut changes = vec![(i, mv)];
        let mut square = to;
        for (j, p) in record.iter().enumerate().skip(i + 1) {
            if p.board != ply.board {
                continue;
            }
            match p.mv {
                Move::Normal {
                    from,
                    capture,
                    to,
                    promotion,
                    ..
                } if p.color == ply.color && from == square => {
                    changes.push((
                        j,
                        Move::Normal {
                            role,
                            from,
                            capture,
                            to,
                            promotion,
                        },
                    ));
                    square = to;
                }
                // Taken (a drop cannot land on it): its moves end.
                m if p.color != ply.color && m.to() == square => break,
                _ => {}
            }
        }
        Some(changes)
    }

    /// Where a promoted piece that could not be seen moving went.
    pub(super) fn choose_hidden_move(
        &mut self,
        ply: PlyRef,
        named: Option<Square>,
        to: Square,
    ) -> Result<(), Refusal> {
        let i = self.recorded(ply)?;
        let old = self
            .game
            .record()
            .get(i)
            .map(|p| p.mv)
            .ok_or(Refusal::NoSuchPly { ply })?;
        let from = old.from().ok_or(Refusal::NoPieceMoved { ply })?;
        let state = self.board_before(i, ply.board);
        let tokens = &self.tracks[ply.board].appearance.tokens;
        // The piece recorded, or else another promoted piece laid on its side (several may
        // have moved unseen, and the TD names only the square the player says it went to).
        let unseen = |s: Square| {
            s != old.to()
                && state.promoted().contains(s)
                && tokens.get(s).is_some_and(Token::may_be_unseen)
        };
        let legal = state.legal_moves(self.game.rules());
        let reaching = |f: &dyn Fn(Square) -> bool| {
            legal
                .iter()
                .copied()
                .filter(|m| m.to() == to && m.from().is_some_and(f))
                .collect::<Vec<Move>>()
        };
        // The piece the TD named, if any: the recorded one or another lying piece.
        let mv = match named {
            Some(named) => match reaching(&|f| f == named && (f == from || unseen(f))).first() {
                Some(&m) => m,
                None => {
                    return Err(Refusal::CannotReach {
                        ply,
                        from: named,
                        to,
                    });
                }
            },
            None => match reaching(&|f| f == from).first() {
                Some(&m) => m,
                None => match reaching(&unseen)[..] {
                    [m] => m,
                    _ => return Err(Refusal::CannotReach { ply, from, to }),
                },
            },
        };
        self.game
            .replace_move(i, mv)
            .map_err(|e| Refusal::RecordUnplayable {
                ply,
                why: e.to_string(),
            })?;
        let tokens = &mut self.tracks[ply.board].appearance.tokens;
        // The recorded piece back where it stood, the chosen one where it went.
        if let Some(t) = tokens.remove(old.to()) {
            tokens.set(from, t);
        }
        if let Some(t) = mv.from().and_then(|f| tokens.remove(f)) {
            tokens.set(to, t);
        }
        self.outputs.push(Output::RecordChanged);
        self.alerts
            .resolve_about_ply(ply, self.now, &format!("went to {to}"));
        self.tell_held_illegal(ply.board, i);
        Ok(())
    }

    /// The opponent claimed an illegal move: the preset decides the consequence.
    fn claim_illegal(&mut self, ply: PlyRef) -> Result<(), Refusal> {
        let i = self.recorded(ply)?;
        if self
            .game
            .record()
            .get(i)
            .is_some_and(|p| p.legality.is_legal())
        {
            return Err(Refusal::MoveIsLegal { ply });
        }
        let now = self.now;
        let outcome =
            self.game
                .claim_illegal(i, Some(now))
                .map_err(|e| Refusal::CannotTakeBack {
                    ply,
                    why: e.to_string(),
                })?;
        self.outputs.push(Output::RecordChanged);
        let how = match outcome {
            ClaimOutcome::Ended(_) => "claimed: the game is lost",
            ClaimOutcome::TakenBack(_) => "claimed: the move is taken back",
        };
        self.alerts.resolve_about_ply(ply, now, how);
        if let ClaimOutcome::TakenBack(_) = outcome {
            self.resync_tokens(ply.board);
        }
        Ok(())
    }

    /// A wrong reconstruction replaced by the move the TD typed (SAN or UCI).
    fn correct_move(&mut self, ply: PlyRef, mv: &str) -> Result<(), Refusal> {
        let i = self.recorded(ply)?;
        let state = self.board_before(i, ply.board);
        let m = crate::notation::parse_move(&state, self.game.rules(), mv).map_err(|e| {
            Refusal::MoveNotPossible {
                board: ply.board,
                mv: mv.to_owned(),
                why: e.to_string(),
            }
        })?;
        self.game
            .replace_move(i, m)
            .map_err(|e| Refusal::CannotReplace {
                mv: mv.to_owned(),
                why: e.to_string(),
            })?;
        self.outputs.push(Output::RecordChanged);
        self.alerts
            .resolve_about_ply(ply, self.now, &format!("corrected to {mv}"));
        self.tell_held_illegal(ply.board, i);
        self.resync_tokens(ply.board);
        Ok(())
    }

    /// A move the sensing could not see, played now by hand.
    fn add_move(&mut self, board: BoardId, mv: &str) -> Result<(), Refusal> {
        let not_possible = |why: String| Refusal::MoveNotPossible {
            board,
            mv: mv.to_owned(),
            why,
        };
        let state = self.game.board(board).clone();
        let m = crate::notation::parse_move(&state, self.game.rules(), mv)
            .map_err(|e| not_possible(e.to_string()))?;
        let number = state.fullmoves();
        let color = state.turn();
        let meta = PlyMeta {
            t_ms: Some(self.now),
            clock_ms: self.tracks[board].clock.reported_ms(color),
            comment: Some("TD: move entered by hand".into()),
        };
        let i = self
            .game
            .play(board, m, meta)
            .map_err(|e| not_possible(e.to_string()))?;
        let ply = PlyRef {
            board,
            color,
            number,
        };
        self.outputs.push(Output::Committed { ply });
        self.after_ply(board, i, ply, &[]);
        self.resync_tokens(board);
        let sensed = &mut self.tracks[board].sensed;
        let last = sensed.history.len().saturating_sub(1);
        sensed.restart_history(last);
        self.monitor(board);
        Ok(())
    }

    fn take_back(&mut self, ply: PlyRef) -> Result<(), Refusal> {
        let i = self.recorded(ply)?;
        self.game.remove(i).map_err(|e| Refusal::CannotTakeBack {
            ply,
            why: e.to_string(),
        })?;
        self.outputs.push(Output::RecordChanged);
        self.alerts.resolve_about_ply(ply, self.now, "taken back");
        self.resync_tokens(ply.board);
        self.monitor(ply.board);
        Ok(())
    }

    /// A flag fall claimed against `seat` (before the game otherwise ended, with the flag
    /// down, under every rule text; a board without a clock the arbiter reads is the TD's
    /// word).
    fn claim_flag(&mut self, seat: Seat) -> Result<(), Refusal> {
        self.seated(seat)?;
        if self.game.is_over() {
            return Err(Refusal::MatchOver);
        }
        let now = self.now;
        let left = match self.own_time_left(seat) {
            Some(exact) => (exact > 0).then_some(exact),
            None => self.tracks[seat.board]
                .clock
                .surely_left_ms(seat.color, now),
        };
        if let Some(left_ms) = left {
            return Err(Refusal::FlagNotFallen { seat, left_ms });
        }
        let result = self.game.flag_result(seat, Some(now));
        self.game.declare(result);
        let ids: Vec<u64> = self
            .alerts
            .open()
            .filter(|a| a.kind == AlertKind::Flag && a.subject == Subject::Seat(seat))
            .map(|a| a.id)
            .collect();
        for id in ids {
            self.alerts.resolve(id, now, "flag claimed");
        }
        Ok(())
    }

    fn penalize(
        &mut self,
        seat: Seat,
        offence: Offence,
        penalty: Penalty,
        alert: Option<u64>,
    ) -> Result<(), Refusal> {
        self.seated(seat)?;
        if self.game.is_over() {
            return Err(Refusal::MatchOver);
        }
        if let Some(id) = alert {
            self.open_alert(id)?;
        }
        let now = self.now;
        if let Some(id) = alert {
            self.alerts.resolve(id, now, "penalised");
        }
        self.penalties.push(PenaltyRecord {
            t_ms: now,
            seat,
            offence,
            penalty,
        });
        let player = self.player(seat);
        let text = match penalty {
            Penalty::Warning => format!("TD: warning to {player} ({})", offence.describe()),
            Penalty::TimeToOpponent => format!(
                "TD: {} s added to {}'s clock ({} by {player})",
                self.game.rules().penalties.time_penalty_ms / 1000,
                self.player(seat.opponent()),
                offence.describe(),
            ),
            Penalty::Forfeit | Penalty::OpponentMayClaimWin => {
                format!("TD: {player} forfeits ({})", offence.describe())
            }
            Penalty::TdDecides => format!("TD: ruling on {player} ({})", offence.describe()),
        };
        self.note_on_last_ply(seat.board, text);
        if penalty == Penalty::TimeToOpponent {
            let ms = self.game.rules().penalties.time_penalty_ms;
            // The minute goes onto the opponent's clock (or the TD is told to set it).
            let _ = self.change_clock(seat.opponent(), ms, true);
        }
        if matches!(penalty, Penalty::Forfeit | Penalty::OpponentMayClaimWin) {
            self.game.declare(MatchResult {
                winner: Some(seat.opponent().team()),
                reason: crate::rules::EndReason::Forfeit {
                    seat,
                    why: offence.describe().into(),
                },
                t_ms: Some(now),
            });
        }
        Ok(())
    }

    fn undeclare(&mut self) -> Result<(), Refusal> {
        if self.game.declared().is_none() {
            return Err(Refusal::NothingDeclared {
                by_the_boards: self.game.is_over(),
            });
        }
        self.game.undeclare();
        self.result_announced = self.game.is_over();
        let ends: Vec<u64> = self
            .alerts
            .open()
            .filter(|a| a.kind == AlertKind::GameEnd)
            .map(|a| a.id)
            .collect();
        for id in ends {
            self.alerts.resolve(id, self.now, "result withdrawn");
        }
        Ok(())
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
    pub(super) fn resync_tokens(&mut self, b: BoardId) {
        let promoted = self.game.board(b).promoted();
        let board = self.game.board(b).board().clone();
        let track = &mut self.tracks[b];
        track.appearance.tokens.retain(promoted);
        for sq in promoted {
            if track.appearance.tokens.get(sq).is_none()
                && let Some(owner) = board.color_at(sq)
            {
                let token = Token::settle(track.sensed.cells.get(sq), owner);
                track.appearance.tokens.set(sq, token);
            }
        }
    }
}
