//! The crazyhouse perft table of `shared/reference/bughouse-software.md` §4.4, run through
//! Tandem's board layer (`BoardState::legal_moves` + `BoardState::apply`), with captures put
//! back into the capturer's own reserve as crazyhouse does. Depth 4 runs in
//! well under a second.

use tandem::rules::{BoardState, RulesPreset};

fn perft(state: &BoardState, rules: &RulesPreset, depth: u32) -> u64 {
    let moves = state.legal_moves(rules);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for m in moves {
        let mut next = state.clone();
        let mover = next.turn();
        let applied = next.apply(m, rules.promotion).expect("legal move applies");
        if let Some(role) = applied.captured {
            next.add_to_reserve(mover, role, 1);
        }
        nodes += perft(&next, rules, depth - 1);
    }
    nodes
}

fn check(fen: &str, expected: &[(u32, u64)]) {
    // US Chess bughouse drop rules are crazyhouse's: pawns on ranks 2-7, drop mates allowed.
    let rules = RulesPreset::built_in("uscf-bughouse");
    let state = BoardState::from_fen(fen).expect("fen");
    for &(depth, nodes) in expected {
        assert_eq!(perft(&state, &rules, depth), nodes, "{fen} depth {depth}");
    }
}

#[test]
fn full_pockets() {
    check(
        "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1",
        &[(1, 301), (2, 75353)],
    );
}

#[test]
fn queen_and_knight_in_hand() {
    check(
        "2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1",
        &[(1, 67), (2, 3083), (3, 88634)],
    );
}

#[test]
fn middlegame_with_castling() {
    check(
        "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1",
        &[(1, 42), (2, 1347), (3, 58057)],
    );
}

#[test]
fn promoted_queen_demotes_when_captured() {
    check(
        "4k3/1Q~6/8/8/4b3/8/Kpp5/8/ b - - 0 1",
        &[(1, 20), (2, 360), (3, 5445)],
    );
}

#[test]
fn start_position() {
    check(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        &[(1, 20), (2, 400), (3, 8902)],
    );
}

#[test]
fn deep_counts() {
    check("2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1", &[(4, 932_554)]);
    check(
        "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1",
        &[(4, 2_083_382)],
    );
    check("4k3/1Q~6/8/8/4b3/8/Kpp5/8/ b - - 0 1", &[(4, 132_758)]);
    check(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        &[(4, 197_281)],
    );
}
