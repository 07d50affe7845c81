//! The test TD: a tournament director standing at the table who answers the arbiter's
//! questions from the truth (the player says aloud which piece a pawn became, and where an
//! unseen promoted piece went). The benchmark and the tests play this TD.

use shakmaty::Move;

use crate::arbiter::{AlertKind, Output, PlyRef, Subject, TdAction};
use crate::rules::Match;

/// What a TD standing at the table answers, from the truth, to the questions among the
/// arbiter's `outputs`: which piece a pawn promoted to, where an unseen promoted piece
/// went (the player says it aloud). The benchmark and the tests play this TD.
#[must_use]
pub fn truthful_answers(truth: &Match, outputs: &[Output]) -> Vec<TdAction> {
    let truth_ply = |ply: PlyRef| {
        truth
            .record()
            .iter()
            .find(|p| p.board == ply.board && p.color == ply.color && p.number == ply.number)
            .map(|p| p.mv)
    };
    outputs
        .iter()
        .filter_map(|o| {
            let Output::AlertRaised(a) = o else {
                return None;
            };
            match &a.subject {
                Subject::Ply(ply) if a.kind == AlertKind::Promotion => {
                    truth_ply(*ply).and_then(|m| match m {
                        Move::Normal {
                            promotion: Some(r), ..
                        } => Some(TdAction::SetPromotion { ply: *ply, role: r }),
                        _ => None,
                    })
                }
                Subject::HiddenMove { ply, .. } => {
                    truth_ply(*ply).map(|m| TdAction::ChooseHiddenMove {
                        ply: *ply,
                        to: m.to(),
                    })
                }
                _ => None,
            }
        })
        .collect()
}
