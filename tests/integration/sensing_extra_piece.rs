//! An extra piece set on the board by hand stands there until somebody lifts it: the
//! rehearsal that injects it must not put it where a hand sets a piece down meanwhile (the
//! mover's own piece set down short of or past its square and pushed on; the opponent's
//! piece slid over its square), or the piece never stands on the board and no alert is
//! due.

#![allow(clippy::unwrap_used)]

use shakmaty::{Color, Move, Piece, Role, Square};
use tandem::BoardId;
use tandem::rules::RulesPreset;
use tandem::sim::emulator::{EmulatorConfig, PhysicalAction, PhysicalPiece};
use tandem::sim::performer::{Hands, Style};
use tandem::sim::table::{Chooser, Injection, Rehearsal};

/// The mover's pawn goes c2-c4 (B, seed 9856…) or e7-e5 (B, seed 4589…), set down on a
/// neighbouring square first (d4, f5) and pushed on: the extra knight, put down by the
/// other hand at the same moment, was put on that neighbouring square and lifted with the
/// pawn. It must stand on its square once the mover's turn is done, and the opponent's
/// reply in these matches does not come near it.
#[test]
fn an_extra_knight_is_not_set_on_a_square_the_movers_hand_sets_a_piece_on() {
    for (ply, seed) in [
        (10, 9_856_090_108_813_035_378_u64),
        (3, 4_589_357_441_591_868_780),
    ] {
        let rules = RulesPreset::built_in("uscf-bughouse");
        let cfgs = [
            EmulatorConfig::default(),
            EmulatorConfig {
                serial: "22222".into(),
                ..EmulatorConfig::default()
            },
        ];
        let mut style = Style::blitz();
        style.think_ms = (3500, 5000);
        let mut r = Rehearsal::new(rules, &cfgs, &style, Chooser::Random, seed);
        r.set_max_plies(ply + 2);
        r.inject(BoardId::B, ply, Injection::ExtraPiece);
        r.run(8000);
        let inj = r.injected.unwrap();
        // The knight is the colour of the mover of that ply (White moves the even plies).
        let knight = Role::Knight.of(if ply % 2 == 0 {
            Color::White
        } else {
            Color::Black
        });
        assert_eq!(
            r.table.physical(BoardId::B, inj.square),
            Some(PhysicalPiece::Standing(knight)),
            "seed {seed}: {inj:?}"
        );
    }
}

/// Board A: Black's queen goes d8-g5, slid along e7 and f6; a White knight no move put
/// there (an extra piece) stands on f6. The hand passes over it: the knight stays, and the
/// queen still touches e7 on the way (the slide really happened).
#[test]
fn a_sliding_hand_passes_over_a_piece_in_its_way() {
    let mut style = Style::blitz();
    style.slide_chance = 1.0;
    style.adjust_chance = 0.0;
    style.correction_chance = 0.0;
    let knight = Piece {
        color: Color::White,
        role: Role::Knight,
    };
    let queen = Piece {
        color: Color::Black,
        role: Role::Queen,
    };
    let physical = |sq: Square| match sq {
        Square::D8 => Some(PhysicalPiece::Standing(queen)),
        Square::F6 => Some(PhysicalPiece::Standing(knight)),
        _ => None,
    };
    let mv = Move::Normal {
        role: Role::Queen,
        from: Square::D8,
        capture: None,
        to: Square::G5,
        promotion: None,
    };
    for seed in 0..20 {
        let perf = Hands::new(style.clone(), seed).perform(&physical, Color::Black, mv, 0, false);
        let on = |sq: Square| {
            perf.actions.iter().any(|(_, a)| {
                matches!(*a, PhysicalAction::Place { square, .. } | PhysicalAction::Lift { square } if square == sq)
            })
        };
        assert!(on(Square::E7), "seed {seed}: no slide: {:?}", perf.actions);
        assert!(!on(Square::F6), "seed {seed}: swept f6: {:?}", perf.actions);
        assert!(on(Square::G5));
    }
}
