//! One scenario per rule article that differs between presets (and the bughouse layer's own
//! transfer rules), each named after what it pins down.

use shakmaty::{Color, Move, Role, Square, san::San};
use tandem::BoardId::{self, A, B};
use tandem::rules::{
    BoardState, EndReason, IllegalReason, Legality, Match, MatchResult, PlyMeta, RulesPreset, Seat,
    Team,
};

fn preset(name: &str) -> RulesPreset {
    RulesPreset::built_in(name)
}

/// Parses SAN on `board` (drops of pieces not in reserve included) and plays it.
fn play(m: &mut Match, board: BoardId, san: &str) -> usize {
    play_at(m, board, san, None)
}

fn play_at(m: &mut Match, board: BoardId, san: &str, t_ms: Option<u64>) -> usize {
    let mv = parse(m.board(board), san);
    m.play(
        board,
        mv,
        PlyMeta {
            t_ms,
            ..PlyMeta::default()
        },
    )
    .unwrap_or_else(|e| panic!("{san} on {board}: {e}"))
}

fn parse(state: &BoardState, san: &str) -> Move {
    let parsed: San = san.trim_end_matches(['+', '#']).parse().expect("SAN");
    if let San::Put { role, to } = parsed {
        return Move::Put { role, to };
    }
    parsed
        .to_move(state.analysis().expect("analysable"))
        .unwrap_or_else(|e| panic!("{san}: {e}"))
}

fn sq(s: &str) -> Square {
    s.parse().expect("square")
}

fn moves(m: &mut Match, board: BoardId, sans: &[&str]) {
    for san in sans {
        play(m, board, san);
    }
}

#[test]
fn dropped_rook_cannot_castle() {
    // Transfer Chess 4b ii; implicit in every bughouse text (the rook has "moved").
    for name in ["uscf-bughouse", "transfer-chess"] {
        // Black's bishop takes the h1 rook; White gets a rook from the partner and drops it
        // back on h1, with the king never having moved.
        let a = BoardState::from_fen("4k3/8/8/8/8/8/6b1/R3K2R b KQ - 0 1").unwrap();
        let mut m = Match::with_start(preset(name), [a, BoardState::start()]);
        moves(&mut m, A, &["Bxh1", "Ra2", "Bd5"]);
        let mut give = m.board(A).clone();
        if give.reserve(Color::White).get(Role::Rook) == 0 {
            give.add_to_reserve(Color::White, Role::Rook, 1);
        }
        let mut m = Match::with_start(preset(name), [give, BoardState::start()]);
        play(&mut m, A, "R@h1");
        play(&mut m, A, "Bc4");
        let castle = Move::Castle {
            king: sq("e1"),
            rook: sq("h1"),
        };
        assert!(
            !m.board(A).legal_moves(m.rules()).contains(&castle),
            "{name}: castling with a dropped rook was offered"
        );
        assert_eq!(
            m.board(A).judge(m.rules(), castle),
            Legality::Illegal(IllegalReason::CastlingNotAllowed),
            "{name}"
        );
        // The queenside rook, never moved, still castles.
        let long = Move::Castle {
            king: sq("e1"),
            rook: sq("a1"),
        };
        let mut m2 = m.clone();
        play(&mut m2, A, "Ra1");
        play(&mut m2, A, "Bd5");
        assert!(
            !m2.board(A).legal_moves(m2.rules()).contains(&long),
            "{name}: the a-rook moved (a1-a2-a1): no queenside castling either"
        );
    }
    // A capture of the rook by Black on its square is what happened on board B too:
    let mut m = Match::new(preset("uscf-bughouse"));
    moves(
        &mut m,
        B,
        &["b3", "e5", "Bb2", "Qh4", "a3", "Qxh2", "a4", "Qxh1"],
    );
    assert_eq!(
        m.board(A).reserve(Color::White).get(Role::Rook),
        1,
        "the rook reaches White on A"
    );
    assert_eq!(m.board(A).reserve(Color::White).get(Role::Pawn), 1);
}

#[test]
fn en_passant_capture_passes_a_pawn() {
    let mut m = Match::new(preset("uscf-bughouse"));
    moves(&mut m, A, &["e4", "a6", "e5", "d5"]);
    let i = play(&mut m, A, "exd6");
    assert!(matches!(m.record()[i].mv, Move::EnPassant { .. }));
    assert_eq!(m.record()[i].passed, Some(Role::Pawn));
    // White captured on A: the pawn goes to White's partner, Black on B.
    assert_eq!(m.board(B).reserve(Color::Black).get(Role::Pawn), 1);
    assert_eq!(m.board(A).reserve(Color::White).get(Role::Pawn), 0);
}

/// The TD says a pawn went two squares, not one: the capture that followed becomes en
/// passant, the same pawn passed to the partner; and back again.
#[test]
fn a_step_replaced_turns_the_capture_after_it_into_en_passant_and_back() {
    let mut m = Match::new(preset("uscf-bughouse"));
    moves(&mut m, A, &["e4", "a6", "e5", "d6", "exd6"]);
    let two = Move::Normal {
        role: Role::Pawn,
        from: sq("d7"),
        capture: None,
        to: sq("d5"),
        promotion: None,
    };
    m.replace_move(3, two).expect("d5 replayed");
    assert!(matches!(m.record()[4].mv, Move::EnPassant { .. }));
    assert!(m.record()[4].legality.is_legal());
    assert_eq!(m.board(B).reserve(Color::Black).get(Role::Pawn), 1);
    let one = Move::Normal {
        role: Role::Pawn,
        from: sq("d7"),
        capture: None,
        to: sq("d6"),
        promotion: None,
    };
    m.replace_move(3, one).expect("d6 replayed");
    assert!(matches!(
        m.record()[4].mv,
        Move::Normal {
            capture: Some(Role::Pawn),
            ..
        }
    ));
    assert!(m.record()[4].legality.is_legal());
    assert_eq!(m.board(B).reserve(Color::Black).get(Role::Pawn), 1);
    // A record edited earlier keeps an en passant as it was.
    m.replace_move(3, two).expect("d5 replayed");
    let a5 = Move::Normal {
        role: Role::Pawn,
        from: sq("a7"),
        capture: None,
        to: sq("a5"),
        promotion: None,
    };
    m.replace_move(1, a5).expect("a5 replayed");
    assert!(matches!(m.record()[4].mv, Move::EnPassant { .. }));
}

#[test]
fn captured_promoted_queen_passes_a_pawn() {
    let start_a = BoardState::from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    let mut m = Match::with_start(preset("uscf-bughouse"), [start_a, BoardState::start()]);
    play(&mut m, A, "b8=Q+");
    assert!(m.board(A).promoted().contains(sq("b8")));
    play(&mut m, A, "Kd7");
    play(&mut m, A, "Qb5+");
    let i = play(&mut m, A, "Kc7");
    assert_eq!(m.record()[i].passed, None);
    // Black would capture the promoted queen: set up a capture on b5 by moving there.
    play(&mut m, A, "Qb6+");
    let i = play(&mut m, A, "Kxb6");
    assert_eq!(
        m.record()[i].passed,
        Some(Role::Pawn),
        "a promoted queen goes back as a pawn"
    );
    assert_eq!(m.board(B).reserve(Color::White).get(Role::Pawn), 1);
    assert_eq!(m.board(B).reserve(Color::White).get(Role::Queen), 0);
}

#[test]
fn blockable_check_is_not_mate() {
    // Back-rank rook check with an empty reserve: a drop could block on d8..b8? No: the rook
    // checks from a distance, so a piece dropped between blocks it. Not mate in bughouse.
    let fen = "k7/pp6/8/8/8/8/8/K6R w - - 0 1";
    let start = BoardState::from_fen(fen).unwrap();
    let mut m = Match::with_start(
        preset("uscf-bughouse"),
        [start.clone(), BoardState::start()],
    );
    let i = play(&mut m, A, "Rh8+");
    assert_eq!(m.record()[i].san, "Rh8+", "blockable: `+`, not `#`");
    assert!(
        m.board(A).is_chess_mate(m.rules()),
        "it is ordinary mate with an empty reserve"
    );
    assert!(!m.board(A).is_true_mate(m.rules()));
    assert!(m.result().is_none(), "the player waits for a piece");
    // A contact/knight mate is true mate: smothered by a knight.
    let smother = BoardState::from_fen("6rk/6pp/8/6N1/8/8/8/K7 w - - 0 1").unwrap();
    let mut m = Match::with_start(preset("uscf-bughouse"), [smother, BoardState::start()]);
    let i = play(&mut m, A, "Nf7#");
    assert_eq!(m.record()[i].san, "Nf7#");
    let r = m.result().expect("true mate ends the match");
    assert_eq!(r.winner, Some(Team::WhiteA));
    assert_eq!(
        r.reason,
        EndReason::Checkmate {
            loser: Seat::new(A, Color::Black)
        }
    );
}

#[test]
fn true_mate_by_drop_is_legal_under_uscf_bughouse_but_refused_under_transfer_chess() {
    // Black king h8 boxed by its own pawns and a rook; a knight drop on f7 smothers it.
    let fen = "6rk/6pp/8/8/8/8/8/K7[N] w - - 0 1";
    for (name, legal) in [("uscf-bughouse", true), ("transfer-chess", false)] {
        let start = BoardState::from_fen(fen).unwrap();
        let drop = Move::Put {
            role: Role::Knight,
            to: sq("f7"),
        };
        let rules = preset(name);
        let verdict = start.judge(&rules, drop);
        if legal {
            assert_eq!(verdict, Legality::Legal, "{name}");
            let mut m = Match::with_start(rules, [start, BoardState::start()]);
            let i = m.play(A, drop, PlyMeta::default()).unwrap();
            assert_eq!(m.record()[i].san, "N@f7#");
            assert!(m.is_over());
        } else {
            assert_eq!(
                verdict,
                Legality::Illegal(IllegalReason::DropMate),
                "{name}"
            );
            assert!(!start.legal_moves(&rules).contains(&drop));
            // A checking drop that only an interposition could meet stays legal even though
            // the defender's reserve is empty (Transfer 4b iv 2): true mate is the test.
            let boxed = BoardState::from_fen("k7/8/8/3PP3/3PKB2/3PPP2/8/8[b] b - - 0 1").unwrap();
            let check = Move::Put {
                role: Role::Bishop,
                to: sq("h7"),
            };
            assert_eq!(boxed.judge(&rules, check), Legality::Legal);
            let mut m = Match::with_start(rules.clone(), [boxed, BoardState::start()]);
            let i = m.play(A, check, PlyMeta::default()).unwrap();
            assert_eq!(m.record()[i].san, "B@h7+");
            assert!(m.board(A).is_chess_mate(&rules) && !m.is_over());
        }
    }
}

#[test]
fn transfer_pawn_reaching_last_rank_is_removed_and_credited_to_diagonal_opponent() {
    let start = BoardState::from_fen("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    let mut m = Match::with_start(preset("transfer-chess"), [start, BoardState::start()]);
    let mv = Move::Normal {
        role: Role::Pawn,
        from: sq("b7"),
        capture: Some(Role::Rook),
        to: sq("a8"),
        promotion: None,
    };
    assert_eq!(m.board(A).judge(m.rules(), mv), Legality::Legal);
    let i = m.play(A, mv, PlyMeta::default()).unwrap();
    let ply = &m.record()[i];
    assert_eq!(ply.san, "bxa8=.");
    assert!(ply.removed_pawn);
    assert_eq!(
        m.board(A).board().piece_at(sq("a8")),
        None,
        "the pawn is removed at once"
    );
    // The rook goes to White's partner (Black on B), the pawn to White on B (Art. 4c iii).
    assert_eq!(m.board(B).reserve(Color::Black).get(Role::Rook), 1);
    assert_eq!(m.board(B).reserve(Color::White).get(Role::Pawn), 1);
    // Promotion itself is not allowed under Transfer.
    let promote = Move::Normal {
        role: Role::Pawn,
        from: sq("b7"),
        capture: Some(Role::Rook),
        to: sq("a8"),
        promotion: Some(Role::Queen),
    };
    let before = BoardState::from_fen("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(
        before.judge(m.rules(), promote),
        Legality::Illegal(IllegalReason::PromotionNotAllowed)
    );
}

#[test]
fn no_white_drop_on_rank_8_under_transfer_chess() {
    let fen = "4k3/8/8/8/8/8/8/4K3[Nn] w - - 0 1";
    let start = BoardState::from_fen(fen).unwrap();
    let knight_a8 = Move::Put {
        role: Role::Knight,
        to: sq("a8"),
    };
    assert_eq!(
        start.judge(&preset("uscf-bughouse"), knight_a8),
        Legality::Legal
    );
    assert_eq!(
        start.judge(&preset("transfer-chess"), knight_a8),
        Legality::Illegal(IllegalReason::NoDropRank)
    );
    // And Black none on rank 1.
    let mut black = start.clone();
    black.set_turn(Color::Black);
    let knight_a1 = Move::Put {
        role: Role::Knight,
        to: sq("a1"),
    };
    assert_eq!(
        black.judge(&preset("transfer-chess"), knight_a1),
        Legality::Illegal(IllegalReason::NoDropRank)
    );
    assert_eq!(
        black.judge(&preset("uscf-bughouse"), knight_a1),
        Legality::Legal
    );
    // Pawns never on the first or last rank, under every bughouse preset.
    let mut pawns = BoardState::from_fen("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1").unwrap();
    let p_a8 = Move::Put {
        role: Role::Pawn,
        to: sq("a8"),
    };
    assert_eq!(
        pawns.judge(&preset("uscf-bughouse"), p_a8),
        Legality::Illegal(IllegalReason::PawnDropRank)
    );
    pawns.add_to_reserve(Color::White, Role::Pawn, 0);
}

#[test]
fn simultaneous_mates_draw_under_transfer_chess() {
    // Board A: White mates. Board B, one second later: White (of the other team) mates too.
    let a = BoardState::from_fen("6rk/6pp/8/6N1/8/8/8/K7 w - - 0 1").unwrap();
    let b = BoardState::from_fen("6rk/6pp/8/6N1/8/8/8/K7 w - - 0 1").unwrap();
    for (name, expect_draw) in [("transfer-chess", true), ("uscf-bughouse", false)] {
        let mut m = Match::with_start(preset(name), [a.clone(), b.clone()]);
        play_at(&mut m, A, "Nf7#", Some(10_000));
        assert!(m.is_over());
        let second = m.board(B).clone();
        let mv = parse(&second, "Nf7");
        let outcome = m.play(
            B,
            mv,
            PlyMeta {
                t_ms: Some(11_000),
                ..PlyMeta::default()
            },
        );
        let r = m.result().unwrap().clone();
        // A second later the clock's message may still be reporting a move pressed before
        // the end: it is recorded either way; only Transfer makes it a draw.
        outcome.unwrap();
        if expect_draw {
            assert_eq!(r.winner, None, "{name}");
            assert_eq!(r.reason, EndReason::SimultaneousMates);
        } else {
            assert_eq!(
                r.winner,
                Some(Team::WhiteA),
                "{name}: the first mate stands"
            );
            assert!(matches!(r.reason, EndReason::Checkmate { .. }));
        }
    }
    // Outside the window it is not simultaneous: the first mate stands.
    let mut m = Match::with_start(preset("transfer-chess"), [a, b]);
    play_at(&mut m, A, "Nf7#", Some(10_000));
    let mv = parse(m.board(B), "Nf7");
    assert!(
        m.play(
            B,
            mv,
            PlyMeta {
                t_ms: Some(20_000),
                ..PlyMeta::default()
            }
        )
        .is_err()
    );
    assert_eq!(m.result().unwrap().winner, Some(Team::WhiteA));
}

#[test]
fn stalemate_waits_in_bughouse_and_draws_in_blitz() {
    let fen = "7k/4Q3/6K1/8/8/8/8/8 w - - 0 1";
    for (name, draws) in [("uscf-bughouse", false), ("uscf-blitz", true)] {
        let start = BoardState::from_fen(fen).unwrap();
        let mut m = Match::with_start(preset(name), [start, BoardState::start()]);
        let i = play(&mut m, A, "Qf7");
        assert_eq!(m.record()[i].san, "Qf7");
        assert!(m.board(A).is_stalemate(m.rules()));
        if draws {
            let r = m.result().expect("blitz: stalemate is a draw");
            assert_eq!(r.winner, None);
            assert_eq!(r.reason, EndReason::Stalemate { board: A });
        } else {
            assert!(
                m.result().is_none(),
                "bughouse: the player waits for a piece"
            );
            // The partner captures on B; Black on A gets the piece and can drop it.
            moves(&mut m, B, &["e4", "d5", "exd5"]);
            assert!(!m.board(A).is_stalemate(m.rules()));
            play(&mut m, A, "P@g2");
        }
    }
}

#[test]
fn flag_claim_without_mating_material_is_a_draw_in_blitz() {
    // White: king and knight only; Black's flag falls.
    let fen = "4k3/8/8/8/8/8/8/4KN2 b - - 0 1";
    let flagged = Seat::new(A, Color::Black);
    let blitz = Match::with_start(
        preset("uscf-blitz"),
        [BoardState::from_fen(fen).unwrap(), BoardState::start()],
    );
    let r: MatchResult = blitz.flag_result(flagged, Some(1000));
    assert_eq!(r.winner, None);
    assert_eq!(
        r.reason,
        EndReason::FlagWithoutMatingMaterial { seat: flagged }
    );
    // With a pawn, the claim wins.
    let blitz_pawn = Match::with_start(
        preset("uscf-blitz"),
        [
            BoardState::from_fen("4k3/8/8/8/8/8/P7/4K3 b - - 0 1").unwrap(),
            BoardState::start(),
        ],
    );
    assert_eq!(
        blitz_pawn.flag_result(flagged, None).winner,
        Some(Team::WhiteA)
    );
    // In bughouse any material wins on time (partners can supply pieces).
    let bug = Match::with_start(
        preset("uscf-bughouse"),
        [BoardState::from_fen(fen).unwrap(), BoardState::start()],
    );
    assert_eq!(bug.flag_result(flagged, None).winner, Some(Team::WhiteA));
}

#[test]
fn illegal_move_stands_until_claimed_and_the_claim_follows_the_preset() {
    for (name, corrected) in [("uscf-bughouse", false), ("club-bughouse-corrected", true)] {
        let mut m = Match::new(preset(name));
        moves(&mut m, A, &["e4", "e5"]);
        // A bishop moves like a rook: illegal, but it stands.
        let illegal = Move::Normal {
            role: Role::Bishop,
            from: sq("f1"),
            capture: None,
            to: sq("f3"),
            promotion: None,
        };
        let i = m.play(A, illegal, PlyMeta::default()).unwrap();
        assert_eq!(
            m.record()[i].legality,
            Legality::Illegal(IllegalReason::CannotMoveThere)
        );
        assert_eq!(m.record()[i].san, "Bf1f3");
        assert_eq!(
            m.board(A).board().piece_at(sq("f3")),
            Some(shakmaty::Piece::from_char('B').unwrap())
        );
        let outcome = m.claim_illegal(i, Some(5000)).unwrap();
        if corrected {
            assert!(matches!(outcome, tandem::rules::ClaimOutcome::TakenBack(_)));
            assert_eq!(m.record().len(), 2);
            assert_eq!(m.board(A).turn(), Color::White);
            assert!(!m.is_over());
        } else {
            assert_eq!(m.result().unwrap().winner, Some(Team::BlackA), "{name}");
        }
    }
}

#[test]
fn king_left_in_check_is_recorded_and_the_game_goes_on() {
    let start = BoardState::from_fen("4k3/8/8/8/8/8/3r4/3K4 w - - 0 1").unwrap();
    let mut m = Match::with_start(preset("uscf-bughouse"), [start, BoardState::start()]);
    let stay = Move::Normal {
        role: Role::King,
        from: sq("d1"),
        capture: None,
        to: sq("e2"),
        promotion: None,
    };
    let i = m.play(A, stay, PlyMeta::default()).unwrap();
    assert_eq!(
        m.record()[i].legality,
        Legality::Illegal(IllegalReason::KingInCheck)
    );
    // The next move is recorded even though shakmaty cannot analyse the position.
    let reply = Move::Normal {
        role: Role::King,
        from: sq("e8"),
        capture: None,
        to: sq("f8"),
        promotion: None,
    };
    let j = m.play(A, reply, PlyMeta::default()).unwrap();
    assert_eq!(m.record()[j].legality, Legality::Unjudged);
    assert_eq!(m.board(A).turn(), Color::White);
}

#[test]
fn castling_rights_are_carried_forward_not_rebuilt() {
    let mut m = Match::new(preset("uscf-bughouse"));
    moves(&mut m, A, &["Nf3", "Nf6", "Rg1", "Ng8", "Rh1", "Nf6"]);
    // The rook went away and came back: no kingside castling, ever.
    let castle = Move::Castle {
        king: sq("e1"),
        rook: sq("h1"),
    };
    moves(&mut m, A, &["e3", "e6", "Be2", "Be7"]);
    assert!(!m.board(A).legal_moves(m.rules()).contains(&castle));
    assert!(
        m.board(A).fen().contains(" Qkq ") || m.board(A).fen().contains(" Qkq"),
        "{}",
        m.board(A).fen()
    );
}

#[test]
fn every_built_in_preset_loads_and_a_broken_one_names_line_and_column() {
    for name in RulesPreset::BUILT_IN_NAMES {
        let p = RulesPreset::load(name).unwrap();
        assert_eq!(p.name, name);
    }
    let dir = std::env::temp_dir().join(format!("tandem-preset-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.ron");
    std::fs::write(&path, "(\n    name: \"x\",\n    title: 42,\n)\n").unwrap();
    let err = RulesPreset::load(path.to_str().unwrap())
        .unwrap_err()
        .to_string();
    assert!(err.contains("broken.ron:3:"), "{err}");
    assert!(RulesPreset::load("no-such-preset").is_err());
}

#[test]
fn partner_receives_captures_in_their_colour() {
    let mut m = Match::new(preset("uscf-bughouse"));
    moves(&mut m, A, &["e4", "d5", "exd5"]);
    assert_eq!(m.board(B).reserve(Color::Black).get(Role::Pawn), 1);
    moves(&mut m, B, &["e4", "P@d3"]);
    assert_eq!(m.board(B).reserve(Color::Black).get(Role::Pawn), 0);
    assert_eq!(m.record().last().unwrap().san, "P@d3");
    assert_eq!(Seat::new(B, Color::Black).team(), Team::WhiteA);
}
