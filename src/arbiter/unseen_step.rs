//! A pawn's first step the board never showed landing, taken at once by a pawn: one step
//! and a capture, or two steps and en passant. Both empty the same squares, leave the same
//! pawn standing and put the same pawn in the partner's reserve; only the players can say
//! which it was, so the TD is asked and the record's reading stands until then.

use shakmaty::{Color, Move, Rank, Role, Square};

use super::track::UnseenStep;
use super::{AlertKind, Arbiter, HiddenOption, PlyRef, Subject, color_name};
use crate::BoardId;
use crate::sensing::{Candidate, Snapshot};

impl Arbiter {
    /// Called for each ply as it is committed, with what the board showed since the commit
    /// before (`window`): remembers a pawn's step from its start square never shown
    /// landing, and asks the TD when the very next ply on the board is a pawn's capture on
    /// the square one step ahead (the step read either way).
    pub(super) fn note_unseen_step(
        &mut self,
        b: BoardId,
        ply: PlyRef,
        mv: Move,
        window: &[Snapshot],
    ) {
        // The pawn itself shown there: another piece of its side on the square (the
        // player's next move landing where the pawn was taken) is no sight of it.
        let shown = |sq: Square, color: Color| {
            window
                .iter()
                .any(|s| s.cells.get(sq).to_piece() == Some(color.pawn()))
        };
        let earlier = self.tracks[b].presses.unseen_step.take();
        if let Some(step) = first_step(ply.color, mv) {
            if !shown(step.0, ply.color) && !shown(step.1, ply.color) {
                self.tracks[b].presses.unseen_step = Some(UnseenStep {
                    ply,
                    one: step.0,
                    two: step.1,
                });
            }
            return;
        }
        let Some(step) = earlier.filter(|s| s.ply.board == b && s.ply.color != ply.color) else {
            return;
        };
        // The step as recorded, and the other reading of it.
        let (recorded, other) = match mv {
            Move::Normal {
                role: Role::Pawn,
                from,
                capture: Some(Role::Pawn),
                to,
                promotion: None,
            } if to == step.one && from.rank() == step.two.rank() => (step.one, step.two),
            Move::EnPassant { to, .. } if to == step.one => (step.two, step.one),
            _ => return,
        };
        // The reply's own window: the pawn never showed on either square before it was taken.
        if shown(step.one, step.ply.color) || shown(step.two, step.ply.color) {
            return;
        }
        let (Some(i), Some(reply)) = (self.ply_index(step.ply), self.ply_index(ply)) else {
            return;
        };
        let (Some(step_now), Some(reply_now)) = (
            self.game.record().get(i).cloned(),
            self.game.record().get(reply).cloned(),
        ) else {
            return;
        };
        // The step as the record has it now (a hindsight reading may have replaced it).
        let Move::Normal {
            role: Role::Pawn,
            from,
            to,
            ..
        } = step_now.mv
        else {
            return;
        };
        if to != recorded {
            return;
        }
        let alternative = Move::Normal {
            role: Role::Pawn,
            from,
            capture: None,
            to: other,
            promotion: None,
        };
        // Asked only if the other reading makes a legal record of both plies (a two-step
        // exposing its king along the rank leaves no en passant, say).
        let mut trial = self.game.clone();
        if trial.replace_move(i, alternative).is_err() {
            return;
        }
        let (Some(step_then), Some(reply_then)) =
            (trial.record().get(i), trial.record().get(reply))
        else {
            return;
        };
        if !step_then.legality.is_legal() || !reply_then.legality.is_legal() {
            return;
        }
        let either = [
            format!("{} {}", step_now.san, reply_now.san),
            format!("{} {}", step_then.san, reply_then.san),
        ];
        let (one_step, two_steps) = if recorded == step.one {
            (&either[0], &either[1])
        } else {
            (&either[1], &either[0])
        };
        let detail = format!(
            "{}'s pawn from {from} was never shown landing before {}'s pawn took it: {one_step}, or {two_steps} en passant? {} recorded for now",
            color_name(step.ply.color),
            color_name(ply.color),
            either[0]
        );
        self.raise(
            b,
            AlertKind::UnseenMove,
            Some(step.one),
            detail,
            Subject::HiddenMove {
                ply: step.ply,
                options: vec![
                    HiddenOption { from, to: recorded },
                    HiddenOption { from, to: other },
                ],
            },
        );
    }
}

/// Readings tied only on a pawn's first step the board never showed and the pawn's capture
/// that took it (`b3 cxb3` against `b4 cxb3` en passant, the same squares emptied and
/// filled): the one-step reading, for the record to hold while the TD is asked which it
/// was (`Arbiter::note_unseen_step`, as its plies are committed).
pub(super) fn one_step_of_unseen_pair(tied: &[Candidate]) -> Option<Candidate> {
    let [x, y] = tied else {
        return None;
    };
    if x.plies.len() != y.plies.len() {
        return None;
    }
    let differ: Vec<usize> = (0..x.plies.len())
        .filter(|&i| x.plies[i] != y.plies[i])
        .collect();
    let [j, k] = differ[..] else {
        return None;
    };
    if k != j + 1 {
        return None;
    }
    // Where the step went (its `from` and whether it went two), if the pair is a pawn's
    // first step and a pawn taking it on the square one step ahead.
    let shape = |c: &Candidate| {
        let step = c.plies[j];
        let (one, two) = [Color::White, Color::Black].into_iter().find_map(|color| {
            first_step(color, step).filter(|&(one, two)| step.to() == one || step.to() == two)
        })?;
        let two_steps = step.to() == two;
        let taken = match c.plies[k] {
            Move::Normal {
                role: Role::Pawn,
                capture: Some(Role::Pawn),
                to,
                promotion: None,
                ..
            } => !two_steps && to == one,
            Move::EnPassant { to, .. } => two_steps && to == one,
            _ => false,
        };
        taken.then_some((step.from()?, two_steps))
    };
    match (shape(x)?, shape(y)?) {
        ((a, false), (b, true)) if a == b => Some(x.clone()),
        ((a, true), (b, false)) if a == b => Some(y.clone()),
        _ => None,
    }
}

/// A pawn's move from its start square straight ahead: the squares one and two steps on.
fn first_step(color: Color, mv: Move) -> Option<(Square, Square)> {
    let Move::Normal {
        role: Role::Pawn,
        from,
        to,
        capture: None,
        promotion: None,
    } = mv
    else {
        return None;
    };
    let (start, ahead) = match color {
        Color::White => (Rank::Second, 8),
        Color::Black => (Rank::Seventh, -8),
    };
    if from.rank() != start || from.file() != to.file() {
        return None;
    }
    Some((from.offset(ahead)?, from.offset(2 * ahead)?))
}
