//! Drops recorded in debt: a drop of a piece not yet in the dropper's reserve, because the
//! capture on the partner board that supplies it has not been reported yet (the two boards'
//! reports may arrive a second or two apart). When that capture comes within the grace
//! period (stretched while the partner board still judges a press, which may hold it) it
//! is put before the drop in the record; when it does not, the TD is told, and from then
//! on the piece is an extra one: the record plays it as coming from outside the reserve,
//! so it takes no later capture for its own (the TD's ruling decides the rest).

use shakmaty::{Color, Role, Square};

use super::{AlertKind, Arbiter, Output, PlyRef, Subject, color_name, role_name};
use crate::rules::Ply;
use crate::{BoardId, Millis};

/// A drop seen before the capture that supplies it: waiting for the partner board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct DropDebt {
    pub board: BoardId,
    pub color: Color,
    pub role: Role,
    pub ply: PlyRef,
    pub square: Square,
    /// When the grace period ends (or, stretched, is looked at again).
    pub due: Millis,
    /// The latest the grace stretches while the partner board still judges a press: the
    /// capture may be in it, pressed before the drop but read only once the presses
    /// around it are (a fast pair the clock never showed, say).
    pub last_call: Millis,
}

impl Arbiter {
    /// The drop `ply` (a `role` on `square`) waits for the capture that supplies it.
    pub(super) fn owe_drop(
        &mut self,
        b: BoardId,
        color: Color,
        role: Role,
        ply: PlyRef,
        to: Square,
    ) {
        let due = self.now + self.tracks[b].timing.drop_grace_ms;
        let last_call = due + self.tracks[b.other()].timing.max_wait_ms;
        self.drop_debts.push(DropDebt {
            board: b,
            color,
            role,
            ply,
            square: to,
            due,
            last_call,
        });
    }

    /// The new ply `p` at `index` on board `b` may be the capture that feeds a drop seen
    /// earlier on the partner board: the capture came first in reality, so it moves before
    /// the drop in the record.
    pub(super) fn settle_debt(&mut self, b: BoardId, index: usize, p: &Ply) {
        // A capture onto the last rank under Transfer Chess's removal sends two pieces: the
        // piece taken and the pawn removed (Transfer 4c iii); each may pay a debt.
        let supplied = [
            p.passed.map(|r| (!p.color, r)),
            p.removed_pawn.then_some((p.color, Role::Pawn)),
        ];
        let mut index = index;
        for (color, role) in supplied.into_iter().flatten() {
            let Some(pos) = self
                .drop_debts
                .iter()
                .position(|d| d.board == b.other() && d.color == color && d.role == role)
            else {
                continue;
            };
            let debt = self.drop_debts.remove(pos);
            if let Some(drop_index) = self.ply_index(debt.ply)
                && drop_index < index
                && self.game.reorder(index, drop_index).is_ok()
            {
                // The capture now stands where the drop stood, before it.
                index = drop_index;
                self.outputs.push(Output::RecordChanged);
            }
        }
    }

    /// Drops whose grace period ended with nothing supplying them: the TD is told.
    pub(super) fn fire_due_debts(&mut self) {
        let now = self.now;
        // A press still being judged on the partner board may hold the capture: looked at
        // again a scan on, up to the last call.
        for d in &mut self.drop_debts {
            let partner = &self.tracks[d.board.other()];
            let judging = partner.presses.judging_later() || partner.presses.unexplained.is_some();
            if d.due <= now && now < d.last_call && judging {
                d.due = (now + partner.timing.scan_ms).min(d.last_call);
            }
        }
        let due: Vec<DropDebt> = self
            .drop_debts
            .iter()
            .filter(|d| d.due <= now)
            .cloned()
            .collect();
        self.drop_debts.retain(|d| d.due > now);
        for d in due {
            // An extra piece from now on: it takes nothing from the reserve, so no later
            // capture pays for it and the next drop of that kind is judged as it stands.
            if let Some(index) = self.ply_index(d.ply)
                && self.game.mark_extra_piece(index).is_ok()
            {
                self.outputs.push(Output::RecordChanged);
            }
            self.raise(
                d.board,
                AlertKind::Unexplained,
                Some(d.square),
                format!(
                    "drop of a {} on {}: not in {}'s reserve, and nothing captured on board {} supplies it",
                    role_name(d.role),
                    d.square,
                    color_name(d.color),
                    d.board.other()
                ),
                Subject::Ply(d.ply),
            );
        }
    }
}
