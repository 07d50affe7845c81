//! The test TD: a tournament director standing at the table who answers the arbiter's
//! questions from the truth (the player says aloud which piece a pawn became, where an
//! unseen promoted piece went, which piece was dropped where it was taken at once). The
//! benchmark and the tests play this TD.

use shakmaty::Move;

use crate::BoardId;
use crate::arbiter::{AlertKind, Output, PlyRef, Subject, TdAction};
use crate::rules::Match;

/// What a TD standing at the table answers, from the truth, to the questions among the
/// arbiter's `outputs`: which piece a pawn promoted to, where an unseen promoted piece
/// went, which piece a drop taken at once was (the player says it aloud). The benchmark
/// and the tests play this TD.
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
                        from: m.from(),
                        to: m.to(),
                    })
                }
                Subject::Pairs { ply, options, .. } => {
                    let played = truth_pair_text(truth, *ply, &[])?;
                    options.contains(&played).then_some(TdAction::ChoosePair {
                        ply: *ply,
                        moves: played,
                    })
                }
                Subject::TakenDrop { ply, .. } => match truth_ply(*ply) {
                    Some(Move::Put { role, .. }) => {
                        Some(TdAction::SetDroppedPiece { ply: *ply, role })
                    }
                    _ => None,
                },
                _ => None,
            }
        })
        .collect()
}

/// The same TD, also for the moves made as the match ended (`late`: the move in a player's
/// hand when the other board's game ended, completed and pressed): such a move may be
/// recorded (its press cannot be told from one made just before the end whose message
/// came late), and if it promotes, the player says to which piece like any other (and where
/// a promoted piece laid on its side went).
#[must_use]
pub fn truthful_answers_with_late(
    truth: &Match,
    late: &[(BoardId, Move)],
    outputs: &[Output],
) -> Vec<TdAction> {
    let mut answers = truthful_answers(truth, outputs);
    for o in outputs {
        let Output::AlertRaised(a) = o else {
            continue;
        };
        match a.subject {
            Subject::Ply(ply) if a.kind == AlertKind::Promotion && is_next_after(truth, ply) => {
                let promoted = late.iter().find_map(|&(b, m)| match m {
                    Move::Normal {
                        promotion: Some(role),
                        ..
                    } if b == ply.board => Some(role),
                    _ => None,
                });
                if let Some(role) = promoted {
                    answers.push(TdAction::SetPromotion { ply, role });
                }
            }
            // A move and its reply made as the match ended, the reply never pressed before
            // it: which pair it was.
            Subject::Pairs {
                ply, ref options, ..
            } if truth_pair_text(truth, ply, &[]).is_none() => {
                if let Some(played) = truth_pair_text(truth, ply, late)
                    && options.contains(&played)
                {
                    answers.push(TdAction::ChoosePair { ply, moves: played });
                }
            }
            // A promoted piece laid on its side moved as the match ended: where it went.
            Subject::HiddenMove { ply, .. } if is_next_after(truth, ply) => {
                if let Some(&(_, m)) = late.iter().find(|(b, _)| *b == ply.board) {
                    answers.push(TdAction::ChooseHiddenMove {
                        ply,
                        from: m.from(),
                        to: m.to(),
                    });
                }
            }
            _ => {}
        }
    }
    answers
}

/// The move at `ply` and the reply after it on its board as the truth has them (or, where
/// the truth ends with the move, as the reply made as the match ended in `late`), in SAN
/// without check marks (as the arbiter words the options of `Subject::Pairs`).
fn truth_pair_text(truth: &Match, ply: PlyRef, late: &[(BoardId, Move)]) -> Option<String> {
    let record = truth.record();
    let i = record
        .iter()
        .position(|p| p.board == ply.board && p.color == ply.color && p.number == ply.number)?;
    let reply = record[i + 1..]
        .iter()
        .find(|p| p.board == ply.board)
        .map(|p| p.mv)
        .or_else(|| late.iter().find(|(b, _)| *b == ply.board).map(|&(_, m)| m))?;
    let boards = crate::ByBoard::from(truth.boards_before(i));
    let state = match ply.board {
        BoardId::A => boards.a,
        BoardId::B => boards.b,
    };
    Some(crate::rules::san::pair_text(
        &state,
        truth.rules(),
        [record[i].mv, reply],
    ))
}

/// Is `ply` the one after the last the truth has on its board?
fn is_next_after(truth: &Match, ply: PlyRef) -> bool {
    let state = truth.board(ply.board);
    state.turn() == ply.color && state.fullmoves() == ply.number
}
