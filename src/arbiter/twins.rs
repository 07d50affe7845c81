//! A move and its reply the board cannot tell from another pair it shows alike: `Nf4 Nh3`
//! (the knight from h3, the reply landing where it stood) and `N@f4 Nxh3` (a knight
//! dropped, the reply taking the one on h3), or `cxb1=Q N@c3` and `c1=Q Nc3` with the
//! promoted pawn laid on its side, or a lying promoted piece's `Nc2 Qxc2` and `P@c2 Qxc2`
//! (the board read a pawn on c2 for a pass, then nothing until the queen came). Only the order in which the scan saw the squares
//! change, and the press between, could tell (see `sensing::press::ruled_out`); when they
//! cannot, the record keeps what was judged and the TD is asked which pair was played
//! (`unseen_move`, `Subject::Pairs`). The players know.

use shakmaty::Move;

use super::td::Refusal;
use super::track::BeforeLastPly;
use super::{AlertKind, Arbiter, Output, PlyRef, Subject};
use crate::BoardId;
use crate::rules::BoardState;
use crate::rules::san::pair_text;
use crate::sensing;

/// A move and its reply as the record has them.
struct RecordedPair {
    /// Their record indices.
    index: usize,
    reply_index: usize,
    pair: [Move; 2],
    reply: PlyRef,
}

impl Arbiter {
    /// The reply on `b` has just been recorded on its own, after the move recorded before
    /// it (`earlier`: what was known then): if the pair has a twin the board's history
    /// cannot rule out, the TD is asked which was played. A pawn's promotion whose piece
    /// nobody has named yet may make either pair illegal only as guessed (a queen giving
    /// check where the knight it was does not): that question waits for the piece.
    pub(super) fn ask_if_twin(
        &mut self,
        b: BoardId,
        earlier: &BeforeLastPly,
        window: &[sensing::Snapshot],
    ) {
        let Some(recorded) = self.pair_at(earlier.ply) else {
            return;
        };
        // Cheap first: only a pair of the twins' shapes has one.
        let twin = sensing::press::twin_of(recorded.pair);
        let tokens = &earlier.appearance.tokens;
        if twin.is_none() && !sensing::press::may_have_lying_twin(recorded.pair, tokens) {
            return;
        }
        let state = self.board_before(recorded.index, b);
        let history = earlier.history_with(window);
        let scan_ms = self.tracks[b].timing.scan_ms;
        let pair = recorded.pair;
        let twin = twin.filter(|_| {
            let scan_order = self.tracks[b].sensed.orientation;
            !sensing::press::ruled_out(
                &state,
                pair,
                &history,
                earlier.pressed_at,
                (scan_ms, scan_order),
            )
        });
        let mut twins: Vec<[Move; 2]> = twin.into_iter().collect();
        twins.extend(
            sensing::press::lying_twins(&state, tokens, pair)
                .into_iter()
                .filter(|&lying| {
                    !sensing::press::lying_twin_ruled_out(
                        &state,
                        pair,
                        lying,
                        &history,
                        earlier.pressed_at,
                        scan_ms,
                    )
                }),
        );
        if twins.is_empty() {
            return;
        }
        if !self.ask_twin(earlier.ply, &recorded, &twins, &state)
            && twin.is_some()
            && matches!(
                pair[0],
                Move::Normal {
                    promotion: Some(_),
                    ..
                }
            )
        {
            self.twins_waiting.push(earlier.ply);
        }
    }

    /// The record's ply `ply` and the next ply on its board: the pair they make.
    fn pair_at(&self, ply: PlyRef) -> Option<RecordedPair> {
        let index = self.ply_index(ply)?;
        let record = self.game.record();
        let reply_index = index
            + 1
            + record[index + 1..]
                .iter()
                .position(|p| p.board == ply.board)?;
        let reply = &record[reply_index];
        Some(RecordedPair {
            index,
            reply_index,
            pair: [record[index].mv, reply.mv],
            reply: PlyRef {
                board: ply.board,
                color: reply.color,
                number: reply.number,
            },
        })
    }

    /// Asks the TD which of the pair at `ply` (`recorded`, its move and reply as recorded,
    /// from `state`) and its `twins` was played, the twins legal there (the board's
    /// history has not ruled them out). Whether it asked.
    fn ask_twin(
        &mut self,
        ply: PlyRef,
        recorded: &RecordedPair,
        twins: &[[Move; 2]],
        state: &BoardState,
    ) -> bool {
        let record = self.game.record();
        let legal = |i: usize| record.get(i).is_some_and(|p| p.legality.is_legal());
        let rules = self.game.rules();
        if !legal(recorded.index) || !legal(recorded.reply_index) {
            return false;
        }
        let others: Vec<String> = twins
            .iter()
            .filter(|&&twin| sensing::press::legal_pair(state, rules, twin))
            .map(|&twin| pair_text(state, rules, twin))
            .collect();
        if others.is_empty() {
            return false;
        }
        let pair = recorded.pair;
        let shown = pair_text(state, rules, pair);
        let b = ply.board;
        let detail = format!(
            "the board cannot tell {shown} from {} on board {b} (it shows both alike): which was played? {shown} recorded for now",
            others.join(" or ")
        );
        let mut options = vec![shown];
        options.extend(others);
        self.raise(
            b,
            AlertKind::UnseenMove,
            Some(pair[0].to()),
            detail,
            Subject::Pairs {
                ply,
                reply: recorded.reply,
                options,
            },
        );
        true
    }

    /// Asks again about the pair at `ply` and its twin, the promotion's piece now named
    /// (see [`Arbiter::twin_to_ask_again`]).
    pub(super) fn ask_twin_again(&mut self, ply: PlyRef) {
        let Some(recorded) = self.pair_at(ply) else {
            return;
        };
        let Some(twin) = sensing::press::twin_of(recorded.pair) else {
            return;
        };
        let state = self.board_before(recorded.index, ply.board);
        self.ask_twin(ply, &recorded, &[twin], &state);
    }

    /// The TD is naming the piece the pawn promoted to at `ply`: is the question of its
    /// pair and that pair's twin to be asked again with the piece named (it was asked with
    /// the piece guessed, or waits for it)? The question asked is closed.
    pub(super) fn twin_to_ask_again(&mut self, ply: PlyRef) -> bool {
        let waiting = self.twins_waiting.len();
        self.twins_waiting.retain(|&p| p != ply);
        let asked: Vec<u64> = self
            .alerts
            .open()
            .filter(|a| matches!(a.subject, Subject::Pairs { ply: p, .. } if p == ply))
            .map(|a| a.id)
            .collect();
        for &id in &asked {
            self.alerts
                .resolve(id, self.now, "asked again with the piece named");
        }
        !asked.is_empty() || self.twins_waiting.len() < waiting
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
        // The pair says where the promoted pawn went, not which piece it is: that question
        // stays, asked again where the piece stands now.
        let unnamed = self
            .alerts
            .open()
            .any(|a| a.kind == AlertKind::Promotion && a.subject == Subject::Ply(ply));
        self.alerts
            .resolve_about_ply(ply, self.now, &format!("played: {moves}"));
        if let Move::Normal {
            to,
            promotion: Some(piece),
            ..
        } = first
            && unnamed
        {
            self.ask_promotion_piece(ply.board, ply, to, piece);
        }
        Ok(())
    }
}
