//! Drops taken before the board saw them: a piece dropped and captured on its square faster
//! than the scan passed it shows only the capture, so which piece it was is not on the
//! board. The capture sends it to the capturer's partner, whose reserve then shows it:
//! a drop of that kind there that nothing else supplies tells which piece it was. Until
//! then the record keeps the likeliest kind.

use shakmaty::{Color, Move, Piece, Role, Square};

use super::td::Refusal;
use super::{AlertKind, Arbiter, Output, PlyRef, Subject, color_name, role_name};
use crate::BoardId;
use crate::rules::{BoardState, IllegalReason, Legality};
use crate::sensing::{Candidate, Cell, Snapshot};

/// A drop taken at once whose kind the record guessed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct TakenDrop {
    pub ply: PlyRef,
    pub square: Square,
    /// The kinds the dropper could have dropped there (the board could not tell them apart).
    pub kinds: Vec<Role>,
}

/// Readings that differ only in the kind of one drop the next ply captures on its square:
/// the index of that drop among the plies, its square and the kind each reading drops.
fn kinds_of_taken_drop(tied: &[Candidate]) -> Option<(usize, Square, Vec<Role>)> {
    let first = tied.first()?;
    let (i, square) = first.plies.iter().enumerate().find_map(|(i, m)| match *m {
        Move::Put { to, .. } if captures_on(first.plies.get(i + 1), to) => Some((i, to)),
        _ => None,
    })?;
    // The same plies but the dropped kind (and so what the capture takes).
    let shape = |k: &Candidate| -> Option<Vec<Move>> {
        if k.plies.len() != first.plies.len() {
            return None;
        }
        let mut plies: Vec<Move> = k.plies.to_vec();
        match plies.get_mut(i)? {
            Move::Put { role, to } if *to == square => *role = Role::King,
            _ => return None,
        }
        match plies.get_mut(i + 1)? {
            Move::Normal { capture, to, .. } if *to == square => *capture = None,
            _ => return None,
        }
        Some(plies)
    };
    let want = shape(first)?;
    let mut kinds = Vec::with_capacity(tied.len());
    for k in tied {
        if shape(k)? != want {
            return None;
        }
        if let Some(Move::Put { role, .. }) = k.plies.get(i) {
            kinds.push(*role);
        }
    }
    kinds.sort();
    kinds.dedup();
    (kinds.len() == tied.len() && kinds.len() > 1).then_some((i, square, kinds))
}

fn captures_on(m: Option<&Move>, square: Square) -> bool {
    matches!(m, Some(Move::Normal { to, capture: Some(_), .. }) if *to == square)
}

impl Arbiter {
    /// Several readings tie only on which piece a drop taken at once was: the one to
    /// record, and the drop noted so that the partner board can still tell. The kind the
    /// partner board already dropped without having it (a drop waiting for its capture)
    /// first; else a drop that gave check (the instant capture answered it); else the
    /// cheapest kind: if it was a piece, the partner's drop of that piece will show it.
    pub(super) fn pick_taken_drop(&mut self, b: BoardId, tied: &[Candidate]) -> Option<Candidate> {
        let (i, square, kinds) = kinds_of_taken_drop(tied)?;
        let state = self.game.board(b);
        let dropper = if i % 2 == 0 {
            state.turn()
        } else {
            !state.turn()
        };
        // The capture passes the piece to the capturer's partner, on the other board.
        let receiver = dropper;
        let owed = kinds.iter().copied().find(|&r| {
            self.drop_debts
                .iter()
                .any(|d| d.board == b.other() && d.color == receiver && d.role == r)
        });
        let checks = |r: Role| {
            tied.iter()
                .find(|k| matches!(k.plies.get(i), Some(Move::Put { role, .. }) if *role == r))
                .and_then(|k| drop_gives_check(state, self.game.rules(), &k.plies[..=i]))
                .unwrap_or(false)
        };
        let role = owed
            .or_else(|| kinds.iter().copied().find(|&r| checks(r)))
            .or_else(|| kinds.first().copied())?;
        let chosen = tied
            .iter()
            .find(|k| matches!(k.plies.get(i), Some(Move::Put { role: r, .. }) if *r == role))?
            .clone();
        // The drop's place in the record once committed.
        let mut color = state.turn();
        let mut number = state.fullmoves();
        for _ in 0..i {
            if color == Color::Black {
                number += 1;
            }
            color = !color;
        }
        self.taken_drops.push(TakenDrop {
            ply: PlyRef {
                board: b,
                color,
                number,
            },
            square,
            kinds,
        });
        Some(chosen)
    }

    /// A reading about to be committed on `b` whose drop the next ply captures on its
    /// square, the board never having shown the dropped piece there (`history`): another
    /// kind in the dropper's hand could have been dropped as well, whatever made the
    /// judge prefer this one. The drop to note, as [`Arbiter::pick_taken_drop`] does, so
    /// that the partner board can still tell.
    pub(super) fn unseen_taken_drop(
        &self,
        b: BoardId,
        plies: &[Move],
        history: &[Snapshot],
    ) -> Option<TakenDrop> {
        let (i, role, square) = plies.iter().enumerate().find_map(|(i, m)| match *m {
            Move::Put { role, to } if captures_on(plies.get(i + 1), to) => Some((i, role, to)),
            _ => None,
        })?;
        let state = self.game.board(b);
        let rules = self.game.rules();
        let mut before = state.clone();
        for &m in &plies[..i] {
            before.apply(m, rules.promotion).ok()?;
        }
        let dropper = before.turn();
        let shown = |r: Role| {
            Cell::piece(Piece {
                color: dropper,
                role: r,
            })
        };
        // Shown before the capturer stood there: a piece of the dropper's shown on the
        // square after that is a later one (the taker taken back by a pawn, say). A piece
        // of the capturer's standing there at first is the one that left for the drop.
        let opponent_on = |s: &Snapshot| s.cells.get(square).color() == Some(!dropper);
        let left = history
            .iter()
            .position(|s| !opponent_on(s))
            .unwrap_or(history.len());
        let taken_at = history[left..]
            .iter()
            .position(opponent_on)
            .map_or(history.len(), |k| left + k);
        if history[..taken_at]
            .iter()
            .any(|s| s.cells.get(square) == shown(role))
        {
            return None;
        }
        // Each kind in hand with which the same plies stay legal, the captures taking it.
        let legal_with = |r: Role| {
            let mut s = before.clone();
            let mut seq: Vec<Move> = plies[i..].to_vec();
            seq[0] = Move::Put {
                role: r,
                to: square,
            };
            if let Some(Move::Normal { capture, .. }) = seq.get_mut(1) {
                *capture = Some(r);
            }
            seq.into_iter().all(|m| {
                let ok = s.judge(rules, m).is_legal();
                ok && s.apply(m, rules.promotion).is_ok()
            })
        };
        let mut kinds: Vec<Role> = before
            .reserve(dropper)
            .entries()
            .filter(|&(r, n)| n > 0 && r != Role::King && legal_with(r))
            .map(|(r, _)| r)
            .collect();
        kinds.sort();
        kinds.dedup();
        if kinds.len() < 2 || !kinds.contains(&role) {
            return None;
        }
        Some(TakenDrop {
            ply: PlyRef {
                board: b,
                color: dropper,
                number: before.fullmoves(),
            },
            square,
            kinds,
        })
    }

    /// A drop taken at once, just committed with the kind judged (see
    /// [`Arbiter::unseen_taken_drop`]): kept for a later drop to tell, and noted.
    pub(super) fn keep_taken_drop(&mut self, t: TakenDrop) {
        let ply = t.ply;
        self.taken_drops.push(t);
        self.note_taken_drop(ply);
    }

    /// The record says so on the drop just committed from [`Arbiter::pick_taken_drop`]:
    /// which piece it was is inferred, not seen. And the TD is asked: only the players can
    /// say, unless a later drop tells first (the question then closes by itself).
    pub(super) fn note_taken_drop(&mut self, ply: PlyRef) {
        // Told already, in the same commit (the dropper's next drop among the plies).
        let Some(t) = self.taken_drops.iter().find(|t| t.ply == ply).cloned() else {
            return;
        };
        let kinds: Vec<&str> = t.kinds.iter().map(|&r| role_name(r)).collect();
        let text = format!(
            "dropped and taken before the board saw it: the piece is inferred ({})",
            kinds.join(" or ")
        );
        let Some(i) = self.ply_index(t.ply) else {
            return;
        };
        let _ = self.game.set_comment(i, Some(text));
        let record = self.game.record();
        // The capture: the next ply on the drop's board (the record runs across both).
        let capture = record.iter().skip(i + 1).find(|p| p.board == t.ply.board);
        let (Some(drop), Some(capture)) = (record.get(i), capture) else {
            return;
        };
        let Move::Put { role, .. } = drop.mv else {
            return;
        };
        let either: Vec<String> = t
            .kinds
            .iter()
            .map(|&r| format!("a {}", role_name(r)))
            .collect();
        let detail = format!(
            "{}'s drop on {}:{} ({}) was taken at once ({}), before the board saw it: which piece was dropped, {}? A {} recorded for now",
            color_name(t.ply.color),
            t.ply.board,
            t.square,
            drop.san,
            capture.san,
            either.join(" or "),
            role_name(role)
        );
        self.raise(
            t.ply.board,
            AlertKind::UnseenMove,
            Some(t.square),
            detail,
            Subject::TakenDrop {
                ply: t.ply,
                kinds: t.kinds.clone(),
            },
        );
    }

    /// The TD says which piece a drop was (a drop taken at once, or any drop the TD
    /// corrects so): the record takes that kind, the capture that took it takes it too,
    /// and no later drop reads it again.
    pub(super) fn set_dropped_piece(&mut self, ply: PlyRef, role: Role) -> Result<(), Refusal> {
        let i = self.ply_index(ply).ok_or(Refusal::NoSuchPly { ply })?;
        let Some(Move::Put { role: was, to }) = self.game.record().get(i).map(|p| p.mv) else {
            return Err(Refusal::NotADrop { ply });
        };
        if role == Role::King {
            return Err(Refusal::NotInHand { ply, role });
        }
        if role != was {
            // Tried on a copy: the ruling stands only if the drop is then legal and no
            // drop after it loses the piece it was paid with.
            let mut trial = self.game.clone();
            trial.replace_move(i, Move::Put { role, to }).map_err(|e| {
                Refusal::RecordUnplayable {
                    ply,
                    why: e.to_string(),
                }
            })?;
            let legal = trial.record().get(i).is_some_and(|p| p.legality.is_legal());
            if !legal || unpaid_drops(&trial) > unpaid_drops(&self.game) {
                return Err(Refusal::NotInHand { ply, role });
            }
            self.game = trial;
            self.outputs.push(Output::RecordChanged);
        }
        let taken = self.taken_drops.iter().any(|t| t.ply == ply);
        self.taken_drops.retain(|t| t.ply != ply);
        if taken {
            let text = format!(
                "dropped and taken before the board saw it: a {} (the TD's ruling)",
                role_name(role)
            );
            let _ = self.game.set_comment(i, Some(text));
        }
        let how = format!("a {} was dropped", role_name(role));
        self.alerts.resolve_about_ply(ply, self.now, &how);
        self.tell_held_illegal(ply.board, i);
        Ok(())
    }

    /// A drop of `role` by `color` on board `b` that the reserve lacks may tell what a
    /// drop taken at once really was: on the other board, recorded as another kind, it
    /// may have been this piece (its capture passed it to `color`); on this board, by the
    /// same player and recorded as this kind, it was another (the player still had this
    /// one to drop). The record then takes it so, and this drop is paid for. Returns
    /// whether it was.
    pub(super) fn told_by_drop(&mut self, b: BoardId, color: Color, role: Role) -> bool {
        let record = self.game.record();
        let recorded = |t: &TakenDrop| {
            self.ply_index(t.ply)
                .and_then(|i| record.get(i))
                .and_then(|p| match p.mv {
                    Move::Put { role, .. } => Some(role),
                    _ => None,
                })
        };
        let told = self.taken_drops.iter().enumerate().find_map(|(pos, t)| {
            let was = recorded(t)?;
            if t.ply.color != color {
                return None;
            }
            let now = if t.ply.board == b.other() {
                (was != role && t.kinds.contains(&role)).then_some(role)?
            } else {
                (was == role)
                    .then(|| t.kinds.iter().copied().find(|&k| k != role))
                    .flatten()?
            };
            Some((pos, was, now))
        });
        let Some((pos, was, now)) = told else {
            return false;
        };
        let taken = self.taken_drops[pos].clone();
        let Some(index) = self.ply_index(taken.ply) else {
            return false;
        };
        let before = unpaid_drops(&self.game);
        let to = taken.square;
        if self
            .game
            .replace_move(index, Move::Put { role: now, to })
            .is_err()
        {
            return false;
        }
        // The kind recorded must not have paid for another drop since: then it was right.
        if unpaid_drops(&self.game) >= before {
            let _ = self.game.replace_move(index, Move::Put { role: was, to });
            return false;
        }
        let by = if taken.ply.board == b {
            "the dropper's next drop"
        } else {
            "the partner's drop"
        };
        let text = format!(
            "dropped and taken before the board saw it: a {} (told by {by} on board {b})",
            role_name(now)
        );
        let _ = self.game.set_comment(index, Some(text));
        self.taken_drops.remove(pos);
        self.outputs.push(Output::RecordChanged);
        // The question about it closes: the board told.
        self.clear_where(
            |a| matches!(a.subject, Subject::TakenDrop { ply, .. } if ply == taken.ply),
        );
        true
    }
}

/// Drops in the record that no reserve paid for.
pub(super) fn unpaid_drops(game: &crate::rules::Match) -> usize {
    game.record()
        .iter()
        .filter(|p| p.legality == Legality::Illegal(IllegalReason::NotInReserve))
        .count()
}

/// Does the drop that ends `plies`, played from `state`, give check?
fn drop_gives_check(
    state: &BoardState,
    rules: &crate::rules::RulesPreset,
    plies: &[Move],
) -> Option<bool> {
    let mut s = state.clone();
    for &m in plies {
        s.apply(m, rules.promotion).ok()?;
    }
    Some(s.is_check())
}
