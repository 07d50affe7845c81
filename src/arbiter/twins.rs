//! A move and its reply the board cannot tell from another pair that leaves every square
//! the same: `Nf4 Nh3` (the knight from h3, the reply landing where it stood) and `N@f4
//! Nxh3` (a knight dropped, the reply taking the one on h3). Only the reserves differ, and
//! only the order in which the scan saw h3 empty and f4 filled, and the press between,
//! could tell (see `sensing::press::drop_twin`); when they cannot, the record keeps the
//! move and the TD is asked which pair was played (`unseen_move`, `Subject::Readings`).
//! The players know.

use shakmaty::Move;

use super::td::Refusal;
use super::track::BeforeLastPly;
use super::{AlertKind, Arbiter, Output, PlyRef, Subject};
use crate::BoardId;
use crate::rules::{BoardState, Legality, RulesPreset};
use crate::sensing;

impl Arbiter {
    /// The reply on `b` has just been recorded, read from its own press, after the move
    /// read from the press before (`earlier`, what was known then): if the pair has a drop
    /// twin the board's history cannot rule out, the TD is asked which was played.
    pub(super) fn ask_if_twin(
        &mut self,
        b: BoardId,
        earlier: &BeforeLastPly,
        window: &[sensing::Snapshot],
    ) {
        let Some(index) = self.ply_index(earlier.ply) else {
            return;
        };
        let record = self.game.record();
        let Some(last) = record.iter().rposition(|p| p.board == b) else {
            return;
        };
        let between = record.get(index + 1..last).unwrap_or_default();
        if last <= index || between.iter().any(|p| p.board == b) {
            return;
        }
        let (Some(first), Some(reply)) = (record.get(index), record.get(last)) else {
            return;
        };
        if !first.legality.is_legal() || !reply.legality.is_legal() {
            return;
        }
        let pair = [first.mv, reply.mv];
        // Cheap first: only a quiet move whose reply lands where the piece stood has one.
        let lands_where_it_stood = matches!(pair,
            [Move::Normal { from, capture: None, promotion: None, .. }, Move::Normal { to, capture: None, .. }]
                if from == to);
        if !lands_where_it_stood {
            return;
        }
        let state = self.board_before(index, b);
        // The snapshots since before the move, through the reply.
        let mut history = earlier.window.clone();
        let tail = history.last().map_or(0, |s| s.t_ms);
        history.extend(window.iter().filter(|s| s.t_ms > tail).copied());
        let Some(twin) = sensing::press::drop_twin(
            &state,
            self.game.rules(),
            pair,
            &history,
            earlier.pressed_at,
            self.tracks[b].timing.scan_ms,
        ) else {
            return;
        };
        let rules = self.game.rules();
        let recorded = pair_text(&state, rules, pair);
        let other = pair_text(&state, rules, twin);
        let square = Some(pair[0].to());
        let detail = format!(
            "the board cannot tell {recorded} from {other} on board {b} (the same squares; only the reserves differ): which was played? {recorded} recorded for now"
        );
        self.raise(
            b,
            AlertKind::UnseenMove,
            square,
            detail,
            Subject::Readings {
                ply: earlier.ply,
                options: vec![recorded, other],
            },
        );
    }

    /// The TD says the move at `ply` and the reply after it on its board were `moves` (two
    /// moves, SAN or UCI): the record takes both, if both are then legal and no drop after
    /// them loses the piece that paid for it. Tried on a copy: a refusal changes nothing.
    pub(super) fn choose_reading(&mut self, ply: PlyRef, moves: &str) -> Result<(), Refusal> {
        let i = self.ply_index(ply).ok_or(Refusal::NoSuchPly { ply })?;
        let reply = self
            .game
            .record()
            .iter()
            .enumerate()
            .skip(i + 1)
            .find(|(_, p)| p.board == ply.board)
            .map(|(j, _)| j)
            .ok_or(Refusal::NoSuchPly { ply })?;
        let not_possible = |why: String| Refusal::MoveNotPossible {
            board: ply.board,
            mv: moves.to_owned(),
            why,
        };
        let texts: Vec<&str> = moves.split_whitespace().collect();
        let [first_text, reply_text] = texts[..] else {
            return Err(not_possible(
                "two moves are needed: the move and its reply".into(),
            ));
        };
        let rules = self.game.rules().clone();
        let mut state = self.board_before(i, ply.board);
        let first =
            crate::notation::parse_move(&state, &rules, first_text).map_err(not_possible)?;
        state
            .apply(first, rules.promotion)
            .map_err(|e| not_possible(e.to_string()))?;
        let second =
            crate::notation::parse_move(&state, &rules, reply_text).map_err(not_possible)?;
        let mut trial = self.game.clone();
        trial
            .replace_moves(&[(i, first), (reply, second)])
            .map_err(|e| Refusal::CannotReplace {
                mv: moves.to_owned(),
                why: e.to_string(),
            })?;
        let legal = |g: &crate::rules::Match, k: usize| {
            g.record().get(k).is_some_and(|p| p.legality.is_legal())
        };
        if !legal(&trial, i) || !legal(&trial, reply) {
            return Err(not_possible("not legal there".into()));
        }
        let illegal =
            |g: &crate::rules::Match| g.record().iter().filter(|p| !p.legality.is_legal()).count();
        let why = if super::taken_drops::unpaid_drops(&trial)
            > super::taken_drops::unpaid_drops(&self.game)
        {
            Some("a later drop would lose the piece that paid for it")
        } else if illegal(&trial) > illegal(&self.game) {
            Some("a later move would no longer be legal")
        } else {
            None
        };
        if let Some(why) = why {
            return Err(Refusal::CannotReplace {
                mv: moves.to_owned(),
                why: why.into(),
            });
        }
        let record = self.game.record();
        let same = record.get(i).is_some_and(|p| p.mv == first)
            && record.get(reply).is_some_and(|p| p.mv == second);
        if !same {
            self.game = trial;
            self.outputs.push(Output::RecordChanged);
        }
        self.alerts
            .resolve_about_ply(ply, self.now, &format!("played: {moves}"));
        self.tell_held_illegal(ply.board, reply);
        self.resync_tokens(ply.board);
        Ok(())
    }
}

/// Both plies of a pair in SAN (no check marks), as the TD reads them out.
fn pair_text(state: &BoardState, rules: &RulesPreset, pair: [Move; 2]) -> String {
    let mut board = state.clone();
    let first = crate::rules::san::move_text(&board, rules, pair[0], &Legality::Legal);
    if board.apply(pair[0], rules.promotion).is_err() {
        return first;
    }
    let reply = crate::rules::san::move_text(&board, rules, pair[1], &Legality::Legal);
    format!("{first} {reply}")
}
