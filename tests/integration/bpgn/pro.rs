//! `tandem bpgn convert --to bughouse-pro`: each rule of bughouse.pro's importer
//! (amatveiakin/bughouse-chess at 6889e48; file and function cited at each test), checked
//! on the FICS fixtures, on our own writes of them, on matches replayed from real DGT
//! captures and on random matches.

#![allow(clippy::unwrap_used)] // tests may unwrap

use super::*;
use tandem::notation::bpgn::{ProExport, ProRefusal, to_bughouse_pro};
use tandem::rules::BoardState;

/// A header with everything bughouse.pro requires, so that no note is about it.
fn dated() -> BpgnHeader {
    BpgnHeader {
        date: "2024.05.01".into(),
        time: Some("19:30:00".into()),
        round: "1".into(),
        ..BpgnHeader::default()
    }
}

fn pro(m: &Match, header: &BpgnHeader) -> ProExport {
    to_bughouse_pro(m, header).unwrap_or_else(|e| panic!("refused: {e}"))
}

fn fixture_pro(name: &str) -> (ReadGame, ProExport) {
    let g = read_bpgn_file(&fixture(name), &uscf()).unwrap().remove(0);
    let export = pro(&g.game, &g.header);
    (g, export)
}

/// The tags as bughouse.pro's tokenizer reads them (`src/pgn.rs`, `BpgnHeader::parse` over
/// `tokenize_bpgn`): one `[Key "value"]` a line, the value running to the next `"` (no
/// escapes); and the movetext after them.
fn pro_tags(text: &str) -> (Vec<(String, String)>, String) {
    let mut tags = Vec::new();
    let mut lines = text.lines();
    let mut movetext = String::new();
    for line in lines.by_ref() {
        if !line.starts_with('[') {
            movetext.push_str(line);
            movetext.push('\n');
            break;
        }
        let inner = line
            .strip_prefix('[')
            .and_then(|l| l.strip_suffix("\"]"))
            .unwrap_or_else(|| panic!("tag line {line}"));
        let (key, value) = inner.split_once(" \"").expect("key and value");
        assert!(
            key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
            "{line}"
        );
        assert!(!value.contains('"'), "a quote ends the value early: {line}");
        tags.push((key.to_owned(), value.to_owned()));
    }
    for line in lines {
        movetext.push_str(line);
        movetext.push('\n');
    }
    (tags, movetext)
}

fn tag<'a>(tags: &'a [(String, String)], key: &str) -> Option<&'a str> {
    tags.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

/// A turn as bughouse.pro's `BpgnTurn::parse` reads it: number, envoy letter, algebraic,
/// then `{[key=value]}` addenda; plain comments dropped.
#[derive(Debug, PartialEq)]
struct ProTurn {
    number: u32,
    envoy: char,
    algebraic: String,
    addenda: Vec<(String, String)>,
}

/// The movetext as `tokenize_bpgn` + `BpgnBody::parse` read it; panics where they would
/// refuse (a word that is not `<n><AaBb>.`, an addendum without `=`).
fn pro_turns(movetext: &str) -> Vec<ProTurn> {
    let mut words: Vec<(bool, String)> = Vec::new(); // (is addendum, text)
    let mut chars = movetext.chars().peekable();
    let mut word = String::new();
    while let Some(c) = chars.next() {
        if c == '{' {
            if !word.is_empty() {
                words.push((false, std::mem::take(&mut word)));
            }
            let comment: String = chars.by_ref().take_while(|&c| c != '}').collect();
            if let Some(inner) = comment.strip_prefix('[').and_then(|c| c.strip_suffix(']')) {
                words.push((true, inner.to_owned()));
            }
        } else if c.is_whitespace() || "[]()<>\"".contains(c) {
            assert!(!"[]()<>\"".contains(c), "bracket {c} in movetext");
            if !word.is_empty() {
                words.push((false, std::mem::take(&mut word)));
            }
        } else {
            word.push(c);
        }
    }
    if !word.is_empty() {
        words.push((false, word));
    }
    let mut turns = Vec::new();
    let mut it = words.into_iter().peekable();
    while let Some((addendum, pre)) = it.next() {
        assert!(!addendum, "an addendum before any turn");
        let pre = pre
            .strip_suffix('.')
            .unwrap_or_else(|| panic!("turn number must end with a dot: {pre}"));
        let envoy = pre.chars().last().expect("envoy");
        assert!("AaBb".contains(envoy), "{pre}");
        let number = pre[..pre.len() - 1].parse().expect("turn number");
        let (addendum, algebraic) = it.next().expect("algebraic");
        assert!(!addendum);
        let mut addenda = Vec::new();
        while let Some((true, _)) = it.peek() {
            let (_, a) = it.next().unwrap();
            let (k, v) = a.split_once('=').expect("{[key=value]}");
            addenda.push((k.to_owned(), v.to_owned()));
        }
        turns.push(ProTurn {
            number,
            envoy,
            algebraic,
            addenda,
        });
    }
    turns
}

/// bughouse.pro's move grammar, `src/algebraic.rs` `AlgebraicTurn::parse`: a drop
/// `^[A-Z]@[a-h][1-8]$` and castling `^(O-O|O-O-O|0-0|0-0-0)$` take no check mark; a move
/// is `[A-Z]?[a-h]?[1-8]?[x×:]?[a-h][1-8]` with an optional promotion (`=Q`, `=.`,
/// `=Qd5`) and an optional `+`/`#`. We write no check marks at all.
fn pro_grammar(m: &str) -> bool {
    let square = |s: &str| {
        let b = s.as_bytes();
        b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1])
    };
    if m.contains(['+', '#']) {
        return false;
    }
    if let Some((piece, to)) = m.split_once('@') {
        return piece.len() == 1 && piece.bytes().all(|b| b.is_ascii_uppercase()) && square(to);
    }
    if ["O-O", "O-O-O"].contains(&m) {
        return true;
    }
    let (body, promotion) = match m.split_once('=') {
        Some((b, p)) => (b, Some(p)),
        None => (m, None),
    };
    if let Some(p) = promotion {
        let b = p.as_bytes();
        let piece = |c: u8| c.is_ascii_uppercase();
        let ok = p == "."
            || (b.len() == 1 && piece(b[0]))
            || (b.len() == 3 && piece(b[0]) && square(&p[1..]));
        if !ok {
            return false;
        }
    }
    if body.len() < 2 || !square(&body[body.len() - 2..]) {
        return false;
    }
    let mut prefix = body[..body.len() - 2].chars().peekable();
    let mut take = |f: &dyn Fn(char) -> bool| {
        if prefix.peek().is_some_and(|&c| f(c)) {
            prefix.next();
        }
    };
    take(&|c| c.is_ascii_uppercase());
    take(&|c| ('a'..='h').contains(&c));
    take(&|c| ('1'..='8').contains(&c));
    take(&|c| c == 'x');
    prefix.next().is_none()
}

/// Checks one converted match against every rule of the importer that can be checked on
/// the text alone, and returns its turns.
fn check_pro_text(text: &str) -> Vec<ProTurn> {
    let (tags, movetext) = pro_tags(text);
    // `src/pgn.rs` `parse_meta`: UTCDate `[year].[month].[day]`, UTCTime
    // `[hour]:[minute]:[second]`, Round an integer (`str::parse::<u64>`).
    let date = tag(&tags, "UTCDate").expect("UTCDate");
    assert!(
        date.len() == 10 && date.as_bytes()[4] == b'.' && date.as_bytes()[7] == b'.',
        "{date}"
    );
    let time = tag(&tags, "UTCTime").expect("UTCTime");
    assert!(time.len() == 8 && time.split(':').count() == 3, "{time}");
    tag(&tags, "Round")
        .expect("Round")
        .parse::<u64>()
        .expect("integer Round");
    // `parse_rules`: Event present, TimeControl plain seconds (`parse_time_control`),
    // Variant with the word Bughouse (`parse_variants`), rule tags in its vocabulary
    // (`src/rules.rs` `Promotion::from_pgn`, `DropAggression::from_pgn`,
    // `PawnDropRanks::from_pgn`).
    assert!(tag(&tags, "Event").is_some());
    tag(&tags, "TimeControl")
        .expect("TimeControl")
        .parse::<u64>()
        .expect("TimeControl in plain seconds");
    assert_eq!(tag(&tags, "Variant"), Some("Bughouse"));
    assert!(["Upgrade", "Discard"].contains(&tag(&tags, "Promotion").unwrap()));
    assert!(
        [
            "No check",
            "No chess mate",
            "No bughouse mate",
            "Mate allowed"
        ]
        .contains(&tag(&tags, "DropAggression").unwrap())
    );
    let (min, max) = tag(&tags, "PawnDropRanks")
        .unwrap()
        .split_once('-')
        .unwrap();
    assert!(min.parse::<i8>().unwrap() <= max.parse::<i8>().unwrap());
    // `parse_players`: the four players.
    for seat in Seat::ALL {
        assert!(tag(&tags, seat.tag()).is_some_and(|n| !n.is_empty()));
    }
    // `parse_game_result`: one of four tokens.
    assert!(["1-0", "0-1", "1/2-1/2", "*"].contains(&tag(&tags, "Result").expect("Result")));
    // `BpgnBody::parse`: only turns; no Result token after them.
    let turns = pro_turns(&movetext);
    for t in &turns {
        assert!(pro_grammar(&t.algebraic), "{}", t.algebraic);
        for (k, v) in &t.addenda {
            assert_eq!(k, "ts");
            // `GameInstant::from_pgn_timestamp`: seconds, a dot, milliseconds.
            let (s, ms) = v.split_once('.').expect("ts with a dot");
            assert!(s.parse::<u64>().is_ok() && ms.len() == 3, "{v}");
        }
    }
    turns
}

/// bughouse.pro's `Outcome`, `GameOutcome::from_pgn` (`src/game.rs`): the winners' and
/// losers' sets of names, each equal to a team's names (`get_teams`).
fn outcome_teams(outcome: &str) -> Option<(Vec<String>, Vec<String>)> {
    let (won, rest) = outcome
        .split_once(" won: ")
        .or_else(|| outcome.split_once(" won, "))?;
    let lost = ["checkmated", "lost on time", "resigned", "lost"]
        .iter()
        .find_map(|end| rest.strip_suffix(end))?
        .trim();
    let set = |s: &str| {
        let mut v: Vec<String> = s.split('&').map(|n| n.trim().to_owned()).collect();
        v.sort();
        v.dedup();
        v
    };
    Some((set(won), set(lost)))
}

// ---------------------------------------------------------------------------------------

#[test]
fn the_fics_fixtures_convert_as_bughouse_pro_writes_them() {
    let expected = [
        (
            "1934301",
            "0-1",
            "normal",
            "Stesox & Giomaxxim won: Rabbos & BobBughouse checkmated",
        ),
        (
            "1934461",
            "1-0",
            "time forfeit",
            "Stesox & BobBughouse won: Rabbos & Giomaxxim lost on time",
        ),
        (
            "1934587",
            "1-0",
            "normal",
            "Bugfish & WEBDubois won: donkEchess & muggg checkmated",
        ),
    ];
    for ((name, total), (_, result, termination, outcome)) in FIXTURES.iter().zip(expected) {
        let (g, export) = fixture_pro(name);
        let turns = check_pro_text(&export.text);
        assert_eq!(turns.len(), *total, "{name}: every move");
        let (tags, movetext) = pro_tags(&export.text);
        // `make_result_string`: team-relative (Red = WhiteA & BlackB = 1-0), whatever
        // FICS's board-relative token said.
        assert_eq!(tag(&tags, "Result"), Some(result), "{name}");
        assert_eq!(tag(&tags, "Termination"), Some(termination), "{name}");
        assert_eq!(tag(&tags, "Outcome"), Some(outcome), "{name}");
        assert_eq!(tag(&tags, "Round"), Some("0"), "{name}: FICS has no round");
        assert_eq!(tag(&tags, "UTCDate").unwrap(), g.header.date);
        assert_eq!(
            tag(&tags, "TimeControl").unwrap(),
            if *name == "1934587" { "60" } else { "300" }
        );
        // The movetext ends with the last turn (and its clock): no Result token.
        let last = movetext.split_whitespace().last().unwrap();
        assert!(!["1-0", "0-1", "1/2-1/2", "*"].contains(&last), "{last}");
        // Numbers and movers are the record's, in its order.
        for (t, p) in turns.iter().zip(g.game.record()) {
            assert_eq!((t.number, t.envoy), (p.number, p.seat().letter()));
        }
        // FICS files carry no match times.
        assert!(turns.iter().all(|t| t.addenda.is_empty()));
        assert!(
            export
                .notes
                .iter()
                .any(|n| n.contains("without timestamps"))
        );
        // Tandem reads the converted text back: same moves, same clocks.
        let again = read_one(&export.text, &uscf());
        let moves = |m: &Match| -> Vec<(BoardId, Move, Option<u64>)> {
            m.record()
                .iter()
                .map(|p| (p.board, p.mv, p.meta.clock_ms))
                .collect()
        };
        assert_eq!(moves(&again.game), moves(&g.game), "{name}");
    }
}

#[test]
fn moves_are_spelled_as_bughouse_pros_own_exporter_spells_them() {
    // Verified byte for byte against bughouse.pro's `export_to_bpgn` on these games
    // (report); here, its spelling rules one by one on the fixtures.
    let (_, export) = fixture_pro("1934301");
    let turns = check_pro_text(&export.text);
    let find = |label: &str| {
        turns
            .iter()
            .find(|t| format!("{}{}.", t.number, t.envoy) == label)
            .map(|t| t.algebraic.as_str())
            .unwrap_or_else(|| panic!("{label}"))
    };
    // `Board::turn_to_algebraic_impl`: a pawn capture without its file when no other pawn
    // reaches the square (`5a. dxe4` in SAN).
    assert_eq!(find("5a."), "xe4");
    assert_eq!(find("7A."), "exf3", "two pawns reach f3: the file");
    // The rank before the file (`B8d7`, where SAN writes `Bcd7`).
    assert_eq!(find("15a."), "B8d7");
    // `AlgebraicTurn::parse`: no `+`/`#` after a drop (`23B. B@g7#` in the fixture) nor,
    // as bughouse.pro writes them, after anything else (`32A. c8=Q+`).
    assert_eq!(find("23B."), "B@g7");
    assert_eq!(find("32A."), "c8=Q");
    let (_, export) = fixture_pro("1934587");
    let turns = check_pro_text(&export.text);
    assert!(turns.iter().any(|t| t.algebraic == "N@g4"), "27A. N@g4#");
}

#[test]
fn our_own_writes_convert_to_the_same_text() {
    for (name, _) in FIXTURES {
        let (_, direct) = fixture_pro(name);
        let g = read_bpgn_file(&fixture(name), &uscf()).unwrap().remove(0);
        let written = write_bpgn(&g.game, &g.header);
        let ours = read_one(&written, &uscf());
        assert_eq!(pro(&ours.game, &ours.header), direct, "{name}");
    }
}

#[test]
fn matches_replayed_from_real_dgt_captures_convert() {
    let dir = temp_dir("pro-real");
    for name in ["real-1", "real-2", "real-johan"] {
        let capture = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("../shared/fixtures/dgt/{name}.capture"));
        let bpgn = dir.join(format!("{name}.bpgn"));
        let out = tandem(&[
            "replay",
            &capture.display().to_string(),
            "--bpgn",
            &bpgn.display().to_string(),
            "--alerts",
            &dir.join("alerts.jsonl").display().to_string(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let out = tandem(&[
            "bpgn",
            "convert",
            &bpgn.display().to_string(),
            "--to",
            "bughouse-pro",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        let turns = check_pro_text(&text);
        let g = read_bpgn_file(&bpgn, &uscf()).unwrap().remove(0);
        assert_eq!(turns.len(), g.game.record().len(), "{name}");
        let (tags, _) = pro_tags(&text);
        // No name, no date in a capture: seat names, the placeholder date, unterminated.
        assert_eq!(tag(&tags, "WhiteA"), Some("WhiteA"));
        assert_eq!(tag(&tags, "UTCDate"), Some("1970.01.01"));
        assert_eq!(tag(&tags, "Event"), Some("?"));
        assert_eq!(tag(&tags, "Outcome"), Some("Unterminated"));
        assert_eq!(tag(&tags, "Result"), Some("*"));
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains("UTCDate written as 1970.01.01"), "{stderr}");
    }
}

#[test]
fn a_move_is_named_by_reach_not_by_legality() {
    // `Board::algebraic_to_turn`: every piece of the kind that can *reach* the square
    // counts, pinned or not; two reaching it is `AmbiguousNotation`. The knight on f3 is
    // pinned by the bishop on h5, so SAN writes `Nd2`; bughouse.pro needs `N1d2`.
    let rules = uscf();
    let start = [
        BoardState::from_fen("4k3/8/8/7b/8/5N2/8/1N1K4 w - - 0 1").unwrap(),
        BoardState::start(),
    ];
    let mut m = Match::with_start(rules, start);
    play(&mut m, A, "Nd2", Some(1_000));
    assert_eq!(m.record()[0].san, "Nd2");
    let export = pro(&m, &BpgnHeader::default());
    let turns = check_pro_text(&export.text);
    assert_eq!(turns[0].algebraic, "N1d2");
    // `src/fen.rs` `castling_rights_from_fen` reads castling as rook files; `SetUp` and
    // `FEN` go together (`parse_starting_position`).
    let (tags, _) = pro_tags(&export.text);
    assert_eq!(tag(&tags, "SetUp"), Some("1"));
    assert_eq!(
        tag(&tags, "FEN"),
        Some(
            "4k3/8/8/7b/8/5N2/8/1N1K4[] w - - 0 1 | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w AHah - 0 1"
        )
    );
}

#[test]
fn castling_and_promotion_spellings() {
    // Castling that gives check: `O-O+` in SAN, `O-O` for bughouse.pro (its castling
    // pattern takes no mark). A promotion that checks: `=Q`, no `+`.
    let start = [
        BoardState::from_fen("5k2/1P6/8/8/8/8/8/4K2R w K - 0 1").unwrap(),
        BoardState::start(),
    ];
    let mut m = Match::with_start(uscf(), start);
    play(&mut m, A, "O-O", None);
    play(&mut m, A, "Ke7", None);
    play(&mut m, A, "b8=Q", None);
    let sans: Vec<&str> = m.record().iter().map(|p| p.san.as_str()).collect();
    assert_eq!(sans, ["O-O+", "Ke7", "b8=Q"]);
    let turns = check_pro_text(&pro(&m, &BpgnHeader::default()).text);
    let algebraic: Vec<&str> = turns.iter().map(|t| t.algebraic.as_str()).collect();
    assert_eq!(algebraic, ["O-O", "Ke7", "b8=Q"]);
}

#[test]
fn transfer_chess_removal_is_discard_and_its_drop_rules_are_named() {
    let rules = RulesPreset::built_in("transfer-chess");
    let text = "[SetUp \"1\"]\n[FEN \"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1 | \
                rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n\
                1A. b8=. 1B. e4 1a. Kd7 1b. e5 2B. P@d4 *";
    let g = read_one(text, &rules);
    let export = pro(&g.game, &g.header);
    let turns = check_pro_text(&export.text);
    // `AlgebraicTurn::parse`: `(\.)` after `=` is `Discard`.
    assert_eq!(turns[0].algebraic, "b8=.");
    assert_eq!(turns[4].algebraic, "P@d4");
    let (tags, _) = pro_tags(&export.text);
    // `Promotion::from_pgn`, `DropAggression::from_pgn`: Transfer Chess forbids a drop
    // that gives a true mate.
    assert_eq!(tag(&tags, "Promotion"), Some("Discard"));
    assert_eq!(tag(&tags, "DropAggression"), Some("No bughouse mate"));
    assert!(
        export
            .notes
            .iter()
            .any(|n| n.contains("ranks where a colour may drop no piece"))
    );
}

#[test]
fn an_illegal_move_that_stood_is_refused() {
    let mut m = Match::new(uscf());
    play(&mut m, A, "e4", None);
    play(&mut m, A, "e5", None);
    play(&mut m, A, "Bc1c3", None);
    assert_eq!(
        to_bughouse_pro(&m, &BpgnHeader::default()),
        Err(ProRefusal::IllegalMove {
            ply: "2A. Bc1c3".into(),
            why: "the piece cannot move there".into()
        })
    );
    // Single-board chess is not bughouse (`parse_variants` wants the word Bughouse).
    let blitz = Match::new(RulesPreset::built_in("uscf-blitz"));
    assert_eq!(
        to_bughouse_pro(&blitz, &BpgnHeader::default()),
        Err(ProRefusal::NotBughouse)
    );
}

#[test]
fn a_threefold_repetition_ends_bughouse_pros_game() {
    // `Board::log_position_for_repetition_draw`: the third time a position (pieces, side to
    // move, castling rights, en-passant target, drops made) follows a turn, the board is
    // drawn; `BughouseGame::try_turn` then refuses the next turn (`GameOver`).
    let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let mut m = Match::new(uscf());
    for _ in 0..2 {
        for mv in shuffle {
            play(&mut m, A, mv, None);
        }
    }
    play(&mut m, A, "Nf3", None);
    // Third time after 5A. Nf3: bughouse.pro's game is a draw there; the last turn is fine.
    assert!(to_bughouse_pro(&m, &BpgnHeader::default()).is_ok());
    play(&mut m, A, "Nf6", None);
    assert_eq!(
        to_bughouse_pro(&m, &BpgnHeader::default()),
        Err(ProRefusal::AfterItsEnd {
            ply: "5a. Nf6".into(),
            why: "threefold repetition on board A, counted with the number of drops".into()
        })
    );
    // Counted per board: drops on board A (its own count) do not reset board B's.
    let mut m = Match::new(uscf());
    for mv in ["e4", "d5", "exd5"] {
        play(&mut m, B, mv, None);
    }
    for mv in ["Nf6", "Nf3", "Ng8", "Ng1"] {
        play(&mut m, B, mv, None);
    }
    play(&mut m, A, "e4", None);
    play(&mut m, A, "P@e6", None);
    for mv in ["Nf6", "Nf3", "Ng8", "Ng1"] {
        play(&mut m, B, mv, None);
    }
    play(&mut m, A, "Nf3", None);
    assert_eq!(
        to_bughouse_pro(&m, &BpgnHeader::default())
            .err()
            .map(|e| e.to_string()),
        Some(
            "2A. Nf3: bughouse.pro's game is already over here (threefold repetition on board B, counted with the number of drops); it refuses every move after its end"
                .into()
        )
    );
}

#[test]
fn mates_on_both_boards_stop_at_the_first_for_bughouse_pro() {
    // Transfer Chess 7d: mates on both boards within the window are a draw, so Tandem plays
    // the second mate; bughouse.pro's game ends at the first (`game_status_for_board`) and
    // refuses any turn after it (`TurnError::GameOver`): the second is left out, and the
    // Outcome still gives the draw (`import_from_bpgn` sets the status from it).
    let rules = RulesPreset::built_in("transfer-chess");
    let mut m = Match::new(rules);
    let scholars = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"];
    let step = |m: &mut Match, board: BoardId, san: &str, t_ms: u64| {
        let mv = parse_move(m.board(board), m.rules(), san).unwrap();
        m.play(
            board,
            mv,
            PlyMeta {
                t_ms: Some(t_ms),
                clock_ms: None,
                comment: None,
            },
        )
        .unwrap();
    };
    let mut t = 0;
    for san in scholars {
        t += 1_000;
        step(&mut m, A, san, t);
        step(&mut m, B, san, t + 100);
    }
    step(&mut m, A, "Qxf7#", 20_000);
    step(&mut m, B, "Qxf7#", 20_500);
    assert_eq!(
        m.result().map(|r| r.reason.clone()),
        Some(EndReason::SimultaneousMates)
    );
    let export = pro(&m, &dated());
    let turns = check_pro_text(&export.text);
    assert_eq!(turns.len(), 13);
    assert_eq!(
        turns
            .last()
            .map(|t| (t.number, t.envoy, t.algebraic.as_str())),
        Some((4, 'A', "Qxf7"))
    );
    assert_eq!(
        export.notes,
        [
            "left out 4B. Qxf7# and the 0 move(s) after it: bughouse.pro's game ends at the checkmate on board A",
            "bughouse.pro has no tag for ranks where a colour may drop no piece; it allows those drops"
        ]
    );
    let (tags, _) = pro_tags(&export.text);
    assert_eq!(tag(&tags, "Result"), Some("1/2-1/2"));
    assert_eq!(tag(&tags, "Outcome"), Some("Draw: both players checkmated"));
}

#[test]
fn names_bughouse_pro_can_match_to_its_teams() {
    // `GameOutcome::from_pgn` splits names on `&` and compares them with each team's set;
    // `parse_players` makes WhiteA = BlackB one double player; the tag tokenizer ends a
    // value at `"`.
    let mut m = Match::new(uscf());
    play(&mut m, A, "e4", None);
    m.declare(MatchResult {
        winner: Some(Team::WhiteA),
        reason: EndReason::Resignation {
            seat: seat(B, Color::White),
        },
        t_ms: None,
    });
    let cases: [([&str; 4], [&str; 4], &str); 4] = [
        (
            ["?", "", "Cy", "Dan"],
            ["WhiteA", "BlackA", "Cy", "Dan"],
            "WhiteA & Dan won: BlackA & Cy resigned",
        ),
        (
            ["Ann & Bo", "O\"Neil", "Cy", "Dan"],
            ["Ann + Bo", "O'Neil", "Cy", "Dan"],
            "Ann + Bo & Dan won: O'Neil & Cy resigned",
        ),
        (
            ["Ann", "Bob", "Ann", "Dan"],
            ["Ann (WhiteA)", "Bob", "Ann (WhiteB)", "Dan"],
            "Ann (WhiteA) & Dan won: Bob & Ann (WhiteB) resigned",
        ),
        (
            ["Ann", "Bob", "Cy", "Ann"],
            ["Ann", "Bob", "Cy", "Ann"],
            "Ann won: Bob & Cy resigned",
        ),
    ];
    for (given, written, outcome) in cases {
        let mut header = BpgnHeader::default();
        for (s, n) in Seat::ALL.into_iter().zip(given) {
            header.set_player(s, n);
        }
        let export = pro(&m, &header);
        let (tags, _) = pro_tags(&export.text);
        let names: Vec<&str> = Seat::ALL
            .iter()
            .map(|s| tag(&tags, s.tag()).unwrap())
            .collect();
        assert_eq!(names, written, "{given:?}");
        assert_eq!(tag(&tags, "Outcome"), Some(outcome));
        // The Outcome's sets are exactly the teams' names.
        let (won, lost) = outcome_teams(outcome).unwrap();
        let team = |seats: [usize; 2]| {
            let mut v: Vec<String> = seats.iter().map(|&i| written[i].to_owned()).collect();
            v.sort();
            v.dedup();
            v
        };
        assert_eq!((won, lost), (team([0, 3]), team([1, 2])));
    }
}

#[test]
fn every_ending_in_bughouse_pros_words() {
    // `GameOutcome::to_pgn` / `from_pgn`, `make_result_string`, `make_termination_string`.
    let w = Some(Team::WhiteA);
    let b = Some(Team::BlackA);
    // (winner, reason, Result, Outcome, Termination)
    type Case = (
        Option<Team>,
        EndReason,
        &'static str,
        &'static str,
        Option<&'static str>,
    );
    let cases: Vec<Case> = vec![
        (
            b,
            EndReason::Flag {
                seat: seat(A, Color::White),
            },
            "0-1",
            "BlackA & WhiteB won: WhiteA & BlackB lost on time",
            Some("time forfeit"),
        ),
        (
            w,
            EndReason::Resignation {
                seat: seat(A, Color::Black),
            },
            "1-0",
            "WhiteA & BlackB won: BlackA & WhiteB resigned",
            Some("normal"),
        ),
        (
            None,
            EndReason::BothFlags { board: B },
            "1/2-1/2",
            "Draw: simultaneous flags",
            Some("normal"),
        ),
        (
            None,
            EndReason::SimultaneousMates,
            "1/2-1/2",
            "Draw: both players checkmated",
            Some("normal"),
        ),
        (None, EndReason::DrawAgreed, "1/2-1/2", "Draw", None),
        (
            None,
            EndReason::Stalemate { board: A },
            "1/2-1/2",
            "Draw",
            None,
        ),
        (
            w,
            EndReason::IllegalMoveClaimed {
                seat: seat(B, Color::White),
            },
            "1-0",
            "WhiteA & BlackB won, BlackA & WhiteB lost",
            None,
        ),
        (
            b,
            EndReason::Forfeit {
                seat: seat(B, Color::Black),
                why: "no show".into(),
            },
            "0-1",
            "BlackA & WhiteB won, WhiteA & BlackB lost",
            None,
        ),
        (
            w,
            EndReason::TdDecision {
                winner_text: "TD".into(),
            },
            "1-0",
            "WhiteA & BlackB won, BlackA & WhiteB lost",
            None,
        ),
    ];
    for (winner, reason, result, outcome, termination) in cases {
        let mut m = Match::new(uscf());
        play(&mut m, A, "e4", None);
        m.declare(MatchResult {
            winner,
            reason: reason.clone(),
            t_ms: None,
        });
        let (tags, _) = pro_tags(&pro(&m, &BpgnHeader::default()).text);
        assert_eq!(tag(&tags, "Result"), Some(result), "{reason:?}");
        assert_eq!(tag(&tags, "Outcome"), Some(outcome), "{reason:?}");
        assert_eq!(tag(&tags, "Termination"), termination, "{reason:?}");
        if let Some((won, _)) = outcome_teams(outcome) {
            // `parse_game_status`: Outcome and Result must agree.
            let red = ["BlackB", "WhiteA"].map(String::from).to_vec();
            assert_eq!(won == red, result == "1-0", "{outcome}");
        }
    }
    let m = Match::new(uscf());
    let (tags, movetext) = pro_tags(&pro(&m, &BpgnHeader::default()).text);
    assert_eq!(tag(&tags, "Outcome"), Some("Unterminated"));
    assert_eq!(tag(&tags, "Termination"), Some("unterminated"));
    assert!(pro_turns(&movetext).is_empty());
}

#[test]
fn timestamps_only_where_bughouse_pros_clocks_replay_them() {
    // `Clock::new_turn`: a board's clock runs from its first turn or the other board's
    // first turn; with `TimeMeasurement::Exact` a mover at zero trips an assertion, and a
    // timestamp before the running clock's start panics (`duration_since`).
    let timed = |times: &[u64], rules: RulesPreset| {
        let mut m = Match::new(rules);
        for (san, &t) in ["e4", "e5", "Nf3", "Nc6"].iter().zip(times) {
            let mv = parse_move(m.board(A), m.rules(), san).unwrap();
            m.play(
                A,
                mv,
                PlyMeta {
                    t_ms: Some(t),
                    clock_ms: None,
                    comment: None,
                },
            )
            .unwrap();
        }
        m
    };
    let m = timed(&[2_500, 4_000, 9_125, 10_000], uscf());
    let mut m = m;
    m.declare(MatchResult {
        winner: Some(Team::BlackA),
        reason: EndReason::Flag {
            seat: seat(B, Color::White),
        },
        t_ms: Some(300_000),
    });
    let export = pro(&m, &dated());
    let turns = check_pro_text(&export.text);
    let ts: Vec<&str> = turns.iter().map(|t| t.addenda[0].1.as_str()).collect();
    assert_eq!(ts, ["2.500", "4.000", "9.125", "10.000"]);
    let (tags, _) = pro_tags(&export.text);
    assert_eq!(tag(&tags, "GameDuration"), Some("300.000"));
    assert!(export.notes.is_empty(), "{:?}", export.notes);
    // White on A has used 5 min by 2A in bughouse.pro's model (its clock started after
    // 1a): no timestamps at all.
    let m = timed(&[1_000, 2_000, 302_000, 303_000], uscf());
    let export = pro(&m, &BpgnHeader::default());
    assert!(
        check_pro_text(&export.text)
            .iter()
            .all(|t| t.addenda.is_empty())
    );
    assert!(export.notes.iter().any(|n| n.contains("would be at zero")));
    // Times going back.
    let export = pro(
        &timed(&[1_000, 900, 2_000, 3_000], uscf()),
        &BpgnHeader::default(),
    );
    assert!(
        check_pro_text(&export.text)
            .iter()
            .all(|t| t.addenda.is_empty())
    );
    // An increment: bughouse.pro's clocks would not match; TimeControl keeps the base.
    let mut rules = uscf();
    rules.time_control.increment_ms = 2_000;
    let export = pro(
        &timed(&[1_000, 2_000, 3_000, 4_000], rules),
        &BpgnHeader::default(),
    );
    assert!(
        check_pro_text(&export.text)
            .iter()
            .all(|t| t.addenda.is_empty())
    );
    let (tags, _) = pro_tags(&export.text);
    assert_eq!(tag(&tags, "TimeControl"), Some("300"));
    assert!(export.notes.iter().any(|n| n.contains("300+2")));
}

#[test]
fn dates_times_and_rounds_in_the_forms_bughouse_pro_parses() {
    let m = Match::new(uscf());
    let cases = [
        (
            "2021-10-05",
            Some("7:05:09"),
            "3",
            "2021.10.05",
            "07:05:09",
            "3",
        ),
        (
            "2024.02.29",
            Some("23:59:59"),
            "3.1",
            "2024.02.29",
            "23:59:59",
            "3",
        ),
        ("2023.02.29", None, "-", "1970.01.01", "00:00:00", "0"),
        (
            "????.??.??",
            Some("25:00:00"),
            "final",
            "1970.01.01",
            "00:00:00",
            "0",
        ),
    ];
    for (date, time, round, utc_date, utc_time, pro_round) in cases {
        let header = BpgnHeader {
            date: date.into(),
            time: time.map(String::from),
            round: round.into(),
            ..BpgnHeader::default()
        };
        let (tags, _) = pro_tags(&pro(&m, &header).text);
        assert_eq!(tag(&tags, "UTCDate"), Some(utc_date), "{date}");
        assert_eq!(tag(&tags, "UTCTime"), Some(utc_time), "{time:?}");
        assert_eq!(tag(&tags, "Round"), Some(pro_round), "{round}");
    }
}

#[test]
fn convert_writes_every_game_and_refuses_what_bughouse_pro_would() {
    let dir = temp_dir("pro-cli");
    // Two games: a fixture, and a match with an illegal move that stood.
    let mut m = Match::new(uscf());
    play(&mut m, A, "e4", None);
    play(&mut m, A, "e5", None);
    play(&mut m, A, "Bc1c3", None);
    let path = dir.join("two.bpgn");
    let text = format!(
        "{}\n{}\n{}",
        fixture_text("1934587"),
        write_bpgn(&m, &BpgnHeader::default()),
        fixture_text("1934461")
    );
    std::fs::write(&path, &text).unwrap();
    let out = tandem(&[
        "bpgn",
        "convert",
        &path.display().to_string(),
        "--to",
        "bughouse-pro",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let expected = format!(
        "{}\n{}",
        fixture_pro("1934587").1.text,
        fixture_pro("1934461").1.text
    );
    assert_eq!(stdout, expected);
    assert!(
        stderr.contains(&format!(
            "{}: game 2: 2A. Bc1c3: an illegal move that stood (the piece cannot move there)",
            path.display()
        )),
        "{stderr}"
    );
    // One game per import: bughouse.pro reads one game, so each goes in on its own.
    for game in stdout.split("\n\n[") {
        let game = if game.starts_with('[') {
            game.to_owned()
        } else {
            format!("[{game}")
        };
        check_pro_text(&game);
    }
    // `--to` is required and takes only the dialects there are.
    let out = tandem(&["bpgn", "convert", &path.display().to_string()]);
    assert!(!out.status.success());
    let out = tandem(&[
        "bpgn",
        "convert",
        &path.display().to_string(),
        "--to",
        "lichess",
    ]);
    assert!(!out.status.success());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random legal matches with match times: every rule checkable on the text holds, and
    /// Tandem reads the same moves back. (The same kind of matches went through
    /// bughouse.pro's own importer: see the report.)
    #[test]
    fn random_matches_convert(
        preset in 0usize..3,
        steps in prop::collection::vec(step(), 0..120),
        ending in ending(),
    ) {
        let rules = RulesPreset::built_in(PRESETS[preset]);
        let m = play_random(&rules, &steps, ending);
        let mut header = BpgnHeader::default();
        for (s, n) in Seat::ALL.into_iter().zip(["Ann", "Bob", "Cy", "Dan"]) {
            header.set_player(s, n);
        }
        match to_bughouse_pro(&m, &header) {
            Ok(export) => {
                let turns = check_pro_text(&export.text);
                prop_assert_eq!(turns.len(), m.record().len());
                let again = read_one(&export.text, &rules);
                let moves = |m: &Match| -> Vec<(BoardId, Move)> {
                    m.record().iter().map(|p| (p.board, p.mv)).collect()
                };
                prop_assert_eq!(moves(&again.game), moves(&m));
            }
            // Tandem played on where bughouse.pro's game would be over (a repetition).
            Err(ProRefusal::AfterItsEnd { why, .. }) => {
                prop_assert!(why.contains("repetition"), "{}", why);
            }
            Err(e) => prop_assert!(false, "{}", e),
        }
    }
}
