//! A move and its reply the board cannot tell from another pair that leaves every square
//! the same: `Nf4 Nh3` (the knight from h3, the reply landing where it stood) and `N@f4
//! Nxh3` (a knight dropped, the reply taking the one on h3). Only the reserves differ, and
//! only the order in which the scan saw h3 empty and f4 filled, and the press between,
//! could tell (see `sensing::press::drop_twin`); when they cannot, the record keeps the
//! move and the TD is asked which pair was played (`unseen_move`, `Subject::Pairs`).
//! The players know.

use shakmaty::Move;

use super::td::Refusal;
use super::track::BeforeLastPly;
use super::{AlertKind, Arbiter, Output, PlyRef, Subject};
use crate::BoardId;
use crate::rules::san::pair_text;
use crate::sensing;

impl Arbiter {
    /// The reply on `b` has just been recorded on its own, after the move recorded before
    /// it (`earlier`: what was known then): if the pair has a drop twin the board's history
    /// cannot rule out, the TD is asked which was played.
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
        // The reply: the last ply on this board, the next after the move on it.
        let Some(last) = record.iter().rposition(|p| p.board == b) else {
            return;
        };
        if last <= index || record[index + 1..last].iter().any(|p| p.board == b) {
            return;
        }
        let (first, reply) = (&record[index], &record[last]);
        let pair = [first.mv, reply.mv];
        // Cheap first: only a quiet move whose reply lands where the piece stood has one.
        let lands_where_it_stood = matches!(pair,
            [Move::Normal { from, capture: None, promotion: None, .. }, Move::Normal { to, capture: None, .. }]
                if from == to);
        if !lands_where_it_stood || !first.legality.is_legal() || !reply.legality.is_legal() {
            return;
        }
        let reply_ply = PlyRef {
            board: b,
            color: reply.color,
            number: reply.number,
        };
        let state = self.board_before(index, b);
        let history = earlier.history_with(window);
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
        let detail = format!(
            "the board cannot tell {recorded} from {other} on board {b} (the same squares; only the reserves differ): which was played? {recorded} recorded for now"
        );
        self.raise(
            b,
            AlertKind::UnseenMove,
            Some(pair[0].to()),
            detail,
            Subject::Pairs {
                ply: earlier.ply,
                reply: reply_ply,
                options: vec![recorded, other],
            },
        );
    }

    /// The TD says the move at `ply` and the reply after it on its board were `moves` (two
    /// moves, SAN or UCI): the record takes both, if both are then legal, every later ply
    /// legal before is legal still, and no later drop loses the piece that paid for it.
    /// Tried on a copy: a refusal changes nothing.
    pub(super) fn choose_pair(&mut self, ply: PlyRef, moves: &str) -> Result<(), Refusal> {
        let i = self.recorded(ply)?;
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
        let cannot_replace = |why: String| Refusal::CannotReplace {
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
            .map_err(|e| cannot_replace(e.to_string()))?;
        let legal = |g: &crate::rules::Match, k: usize| {
            g.record().get(k).is_some_and(|p| p.legality.is_legal())
        };
        if !legal(&trial, i) || !legal(&trial, reply) {
            return Err(not_possible("not legal there".into()));
        }
        let later = i + 1..self.game.record().len();
        if later
            .clone()
            .any(|k| legal(&self.game, k) && !legal(&trial, k))
        {
            return Err(cannot_replace(
                "a later move would no longer be legal".into(),
            ));
        }
        if super::taken_drops::unpaid_drops(&trial) > super::taken_drops::unpaid_drops(&self.game) {
            return Err(cannot_replace(
                "a later drop would lose the piece that paid for it".into(),
            ));
        }
        let record = self.game.record();
        let same = record.get(i).is_some_and(|p| p.mv == first)
            && record.get(reply).is_some_and(|p| p.mv == second);
        if !same {
            self.game = trial;
            self.outputs.push(Output::RecordChanged);
            self.tell_held_illegal(ply.board, reply);
            self.resync_tokens(ply.board);
        }
        self.alerts
            .resolve_about_ply(ply, self.now, &format!("played: {moves}"));
        Ok(())
    }
}
