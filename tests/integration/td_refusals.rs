//! Every TD action that cannot be carried out is refused aloud, with the reason, and
//! changes nothing: one `Output::Refused` naming the action, the reason's text in the view
//! (the console shows it), and the match exactly as it was.

#![allow(clippy::unwrap_used)]

use crate::common::scene::Scene;
use shakmaty::Color::{Black, White};
use shakmaty::{Role, Square};
use tandem::BoardId::{A, B};
use tandem::arbiter::view::MatchView;
use tandem::arbiter::{
    AlertKind, Arbiter, ArbiterConfig, Input, Offence, Output, PlyRef, Refusal, TdAction,
};
use tandem::rules::{EndReason, MatchResult, Penalty, RulesPreset, Seat};

fn ply(board: tandem::BoardId, color: shakmaty::Color, number: u32) -> PlyRef {
    PlyRef {
        board,
        color,
        number,
    }
}

/// The view without what any input changes (the input count) or what a refusal sets.
fn comparable(mut v: MatchView) -> MatchView {
    v.generation = 0;
    v.td_refusal = None;
    v
}

/// Applies `action` now and checks that it was refused aloud and changed nothing.
/// Returns the reason and the text the console shows.
fn refused(arb: &mut Arbiter, action: TdAction) -> (Refusal, String) {
    let before = comparable(arb.view());
    let out = arb.handle(&Input::Td {
        t_ms: arb.now(),
        action: action.clone(),
    });
    let after = arb.view();
    let text = after
        .td_refusal
        .clone()
        .unwrap_or_else(|| panic!("{action:?} was not refused aloud: {out:?}"));
    assert_eq!(comparable(after), before, "{action:?} changed the match");
    match out.as_slice() {
        [Output::Refused { action: a, reason }] => {
            assert_eq!(a, &action);
            (reason.clone(), text)
        }
        other => panic!("{action:?}: {other:?}"),
    }
}

/// Applies `action` now and checks that it was carried out.
fn done(arb: &mut Arbiter, action: TdAction) {
    let out = arb.handle(&Input::Td {
        t_ms: arb.now(),
        action: action.clone(),
    });
    assert!(
        !out.iter().any(|o| matches!(o, Output::Refused { .. })),
        "{action:?}: {out:?}"
    );
    assert_eq!(arb.td_refusal(), None, "{action:?}");
}

/// Board A played on real (simulated) boards with clocks: 1. Nf3 e5 2. e4, then White's
/// knight knocked onto h4 and left there (a displaced alert stays open).
fn knocked_after_three_plies() -> Arbiter {
    let mut s = Scene::new("uscf-bughouse");
    s.mv(A, "g1", "f3", 'N');
    s.mv(A, "e7", "e5", 'p');
    s.mv(A, "e2", "e4", 'P');
    s.knock(A, "f3", "h4").wait(4500);
    let p = s.run(3000);
    assert_eq!(p.sans(A), ["Nf3", "e5", "e4"], "{}", p.dump());
    p.arb
}

fn open_alert(arb: &Arbiter, kind: AlertKind) -> u64 {
    arb.alerts()
        .open()
        .find(|a| a.kind == kind)
        .unwrap_or_else(|| panic!("no open {kind:?}: {:?}", arb.alerts().all()))
        .id
}

#[test]
fn rulings_on_alerts_that_cannot_be_made_are_refused() {
    let mut arb = knocked_after_three_plies();
    let (r, text) = refused(&mut arb, TdAction::Dismiss { alert: 999 });
    assert_eq!(r, Refusal::NoSuchAlert { alert: 999 });
    assert!(text.contains("no alert 999"), "{text}");
    let displaced = open_alert(&arb, AlertKind::Displaced);
    // Letting a move stand is for an illegal move.
    let (r, text) = refused(&mut arb, TdAction::LetStand { alert: displaced });
    assert_eq!(
        r,
        Refusal::NotAnIllegalMove {
            alert: displaced,
            kind: AlertKind::Displaced
        }
    );
    assert!(text.contains("not an illegal move"), "{text}");
    // Once dismissed, the alert is no longer open for either ruling.
    done(&mut arb, TdAction::Dismiss { alert: displaced });
    let (r, text) = refused(&mut arb, TdAction::Dismiss { alert: displaced });
    assert_eq!(r, Refusal::AlertNotOpen { alert: displaced });
    assert!(text.contains("no longer open"), "{text}");
    let (r, _) = refused(&mut arb, TdAction::LetStand { alert: displaced });
    assert_eq!(r, Refusal::AlertNotOpen { alert: displaced });
}

#[test]
fn record_edits_that_cannot_be_made_are_refused() {
    let mut arb = knocked_after_three_plies();
    let nf3 = ply(A, White, 1);
    let unknown = ply(A, Black, 30);
    // A promotion piece: a king or a pawn never, a ply that promoted nothing, a ply that
    // is not there.
    for role in [Role::King, Role::Pawn] {
        let (r, text) = refused(&mut arb, TdAction::SetPromotion { ply: nf3, role });
        assert_eq!(r, Refusal::CannotPromoteTo { role });
        assert!(text.contains("cannot become"), "{text}");
    }
    let (r, text) = refused(
        &mut arb,
        TdAction::SetPromotion {
            ply: nf3,
            role: Role::Queen,
        },
    );
    assert_eq!(r, Refusal::NotAPromotion { ply: nf3 });
    assert!(
        text.contains("White's move 1 on board A is not a promotion"),
        "{text}"
    );
    let (r, _) = refused(
        &mut arb,
        TdAction::SetPromotion {
            ply: unknown,
            role: Role::Queen,
        },
    );
    assert_eq!(r, Refusal::NoSuchPly { ply: unknown });
    // Where a piece went: only where it can go.
    let (r, text) = refused(
        &mut arb,
        TdAction::ChooseHiddenMove {
            ply: nf3,
            from: None,
            to: Square::G3,
        },
    );
    assert_eq!(
        r,
        Refusal::CannotReach {
            ply: nf3,
            from: Square::G1,
            to: Square::G3
        }
    );
    assert!(text.contains("cannot go to g3"), "{text}");
    let (r, _) = refused(
        &mut arb,
        TdAction::ChooseHiddenMove {
            ply: unknown,
            from: None,
            to: Square::G3,
        },
    );
    assert_eq!(r, Refusal::NoSuchPly { ply: unknown });
    // An illegal-move claim on a legal move, or on a ply that is not there.
    let (r, text) = refused(&mut arb, TdAction::ClaimIllegal { ply: nf3 });
    assert_eq!(r, Refusal::MoveIsLegal { ply: nf3 });
    assert!(text.contains("is legal"), "{text}");
    let (r, _) = refused(&mut arb, TdAction::ClaimIllegal { ply: unknown });
    assert_eq!(r, Refusal::NoSuchPly { ply: unknown });
    // Taking back the first move leaves Black's e5 for White to play: not possible.
    let (r, text) = refused(&mut arb, TdAction::TakeBack { ply: nf3 });
    assert!(
        matches!(r, Refusal::CannotTakeBack { ply, .. } if ply == nf3),
        "{r:?}"
    );
    assert!(text.contains("cannot be taken back"), "{text}");
    let (r, _) = refused(&mut arb, TdAction::TakeBack { ply: unknown });
    assert_eq!(r, Refusal::NoSuchPly { ply: unknown });
    // Which pair was played: two moves that read and play there, and leave the moves
    // after them playable (2. e4 would find no pawn on e2).
    let (r, _) = refused(
        &mut arb,
        TdAction::ChoosePair {
            ply: unknown,
            moves: "Nf3 e5".into(),
        },
    );
    assert_eq!(r, Refusal::NoSuchPly { ply: unknown });
    let (_, text) = refused(
        &mut arb,
        TdAction::ChoosePair {
            ply: nf3,
            moves: "Nf3".into(),
        },
    );
    assert!(text.contains("two moves are needed"), "{text}");
    let (r, _) = refused(
        &mut arb,
        TdAction::ChoosePair {
            ply: nf3,
            moves: "Nf3 Ke7".into(),
        },
    );
    assert!(matches!(r, Refusal::MoveNotPossible { .. }), "{r:?}");
    let (_, text) = refused(
        &mut arb,
        TdAction::ChoosePair {
            ply: nf3,
            moves: "e4 e5".into(),
        },
    );
    assert!(text.contains("e4 e5 cannot replace that move"), "{text}");
    // A correction of a ply that is not there; one that does not read (said as before).
    let (r, _) = refused(
        &mut arb,
        TdAction::CorrectMove {
            ply: unknown,
            mv: "e4".into(),
        },
    );
    assert_eq!(r, Refusal::NoSuchPly { ply: unknown });
    let (_, text) = refused(
        &mut arb,
        TdAction::CorrectMove {
            ply: nf3,
            mv: "Qh5".into(),
        },
    );
    assert!(text.starts_with("Qh5 on board A: "), "{text}");
    let (_, text) = refused(
        &mut arb,
        TdAction::AddMove {
            board: A,
            mv: "Ke4".into(),
        },
    );
    assert!(text.starts_with("Ke4 on board A: "), "{text}");
    // And what can be done still is.
    done(
        &mut arb,
        TdAction::TakeBack {
            ply: ply(A, White, 2),
        },
    );
    assert_eq!(arb.game().plies_on(A), 2);
}

#[test]
fn claims_and_penalties_that_cannot_be_made_are_refused() {
    let mut arb = knocked_after_three_plies();
    let ada = Seat::new(A, White);
    // The clocks run at five minutes: no flag has fallen.
    let (r, text) = refused(&mut arb, TdAction::ClaimFlag { seat: ada });
    assert!(
        matches!(r, Refusal::FlagNotFallen { seat, left_ms } if seat == ada && left_ms > 200_000),
        "{r:?}"
    );
    assert!(text.contains("WhiteA's flag has not fallen"), "{text}");
    let (r, _) = refused(&mut arb, TdAction::Undeclare);
    assert_eq!(
        r,
        Refusal::NothingDeclared {
            by_the_boards: false
        }
    );
    // After the end: no flag claims, no penalties.
    done(
        &mut arb,
        TdAction::DeclareResult {
            result: MatchResult {
                winner: None,
                reason: EndReason::DrawAgreed,
                t_ms: None,
            },
        },
    );
    let (r, text) = refused(
        &mut arb,
        TdAction::Penalize {
            seat: ada,
            offence: Offence::DisplacedPieces,
            penalty: Penalty::Warning,
            alert: None,
        },
    );
    assert_eq!(r, Refusal::MatchOver);
    assert!(text.contains("match is over"), "{text}");
    let (r, _) = refused(&mut arb, TdAction::ClaimFlag { seat: ada });
    assert_eq!(r, Refusal::MatchOver);
    done(&mut arb, TdAction::Undeclare);
    done(
        &mut arb,
        TdAction::Penalize {
            seat: ada,
            offence: Offence::DisplacedPieces,
            penalty: Penalty::Warning,
            alert: None,
        },
    );
    assert_eq!(arb.penalties().len(), 1);
}

/// A record kept by hand, no board reporting (the TD's word is all there is): A 1. Nf3,
/// B 1. e4 d5 2. exd5, A 1... P@e5 (the pawn taken on board B).
fn kept_by_hand(rules: &str) -> Arbiter {
    let mut arb = Arbiter::new(ArbiterConfig::new(RulesPreset::built_in(rules)));
    for (board, mv) in [(A, "Nf3"), (B, "e4"), (B, "d5"), (B, "exd5"), (A, "P@e5")] {
        done(
            &mut arb,
            TdAction::AddMove {
                board,
                mv: mv.into(),
            },
        );
    }
    arb
}

#[test]
fn a_drop_has_nowhere_else_to_have_gone() {
    let mut arb = kept_by_hand("uscf-bughouse");
    let drop = ply(A, Black, 1);
    assert!(arb.game().record()[4].san.starts_with("P@e5"));
    let (r, text) = refused(
        &mut arb,
        TdAction::ChooseHiddenMove {
            ply: drop,
            from: None,
            to: Square::E6,
        },
    );
    assert_eq!(r, Refusal::NoPieceMoved { ply: drop });
    assert!(text.contains("is a drop"), "{text}");
    // Without a clock the arbiter reads, a flag claim is the TD's word.
    done(
        &mut arb,
        TdAction::ClaimFlag {
            seat: Seat::new(B, Black),
        },
    );
    assert!(arb.game().is_over());
}

#[test]
fn a_single_board_match_has_no_board_b_to_rule_on() {
    let mut arb = Arbiter::new(ArbiterConfig::new(RulesPreset::built_in("uscf-blitz")));
    let seat = Seat::new(B, White);
    let (r, text) = refused(&mut arb, TdAction::ClaimFlag { seat });
    assert_eq!(r, Refusal::NoSuchBoard { board: B });
    assert!(text.contains("no board B"), "{text}");
    let (r, _) = refused(
        &mut arb,
        TdAction::Penalize {
            seat,
            offence: Offence::Other,
            penalty: Penalty::Warning,
            alert: None,
        },
    );
    assert_eq!(r, Refusal::NoSuchBoard { board: B });
}

/// A ruling on an alert is one action with one outcome: a penalty for a knock resolves
/// the displaced alert with it, and withdrawing a result takes its game-end alert along
/// (the console never sends a dismissal after a ruling that may be refused).
#[test]
fn a_ruling_resolves_the_alert_it_was_given_for() {
    let mut arb = knocked_after_three_plies();
    let alert = open_alert(&arb, AlertKind::Displaced);
    let ada = Seat::new(A, White);
    done(
        &mut arb,
        TdAction::Penalize {
            seat: ada,
            offence: Offence::DisplacedPieces,
            penalty: Penalty::Warning,
            alert: Some(alert),
        },
    );
    assert!(!arb.alerts().get(alert).unwrap().is_open());
    assert_eq!(arb.penalties().len(), 1);
    // A penalty for an alert no longer open is refused whole: no penalty recorded.
    let (r, _) = refused(
        &mut arb,
        TdAction::Penalize {
            seat: ada,
            offence: Offence::DisplacedPieces,
            penalty: Penalty::Warning,
            alert: Some(alert),
        },
    );
    assert_eq!(r, Refusal::AlertNotOpen { alert });
    assert_eq!(arb.penalties().len(), 1);
    done(
        &mut arb,
        TdAction::DeclareResult {
            result: MatchResult {
                winner: None,
                reason: EndReason::DrawAgreed,
                t_ms: None,
            },
        },
    );
    let end = open_alert(&arb, AlertKind::GameEnd);
    done(&mut arb, TdAction::Undeclare);
    assert!(
        !arb.alerts().get(end).unwrap().is_open(),
        "withdrawn with its result"
    );
}
