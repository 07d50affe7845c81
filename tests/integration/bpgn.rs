//! BPGN: the three BughouseDB fixtures, every dialect quirk the reader accepts, error
//! positions, round trips (fixtures, illegal moves, random matches) and a no-panic fuzz.
//! `viewer`: what the BughouseDB-style viewer reads of our files; `pro`: the conversion
//! to bughouse.pro's import dialect.

mod pro;
mod viewer;

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use shakmaty::{Color, Move, Role, Square};
use tandem::BoardId::{self, A, B};
use tandem::notation::bpgn::{
    BpgnError, BpgnHeader, ReadGame, decode_bpgn, parse_bpgn, parse_move, read_bpgn,
    read_bpgn_file, write_bpgn,
};
use tandem::rules::{
    EndReason, IllegalReason, Legality, Match, MatchResult, Ply, PlyMeta, RulesPreset, Seat, Team,
};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/fixtures/bpgn")
        .join(format!("fics-bughousedb-{name}.bpgn"))
}

fn fixture_text(name: &str) -> String {
    std::fs::read_to_string(fixture(name)).expect("fixture readable")
}

fn uscf() -> RulesPreset {
    RulesPreset::built_in("uscf-bughouse")
}

fn read_one(text: &str, rules: &RulesPreset) -> ReadGame {
    let mut games = read_bpgn(text, rules).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(games.len(), 1, "one game expected");
    games.remove(0)
}

fn read_err(text: &str, rules: &RulesPreset) -> BpgnError {
    match read_bpgn(text, rules) {
        Ok(_) => panic!("expected an error reading:\n{text}"),
        Err(e) => e,
    }
}

/// (line, column), 1-based, of the first occurrence of `needle` in `text`.
fn position_of(text: &str, needle: &str) -> (usize, usize) {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} not in text"));
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// The record without match times (BPGN does not carry them unless `[ts=]` is used).
fn plies(m: &Match) -> Vec<Ply> {
    m.record()
        .iter()
        .cloned()
        .map(|mut p| {
            p.meta.t_ms = None;
            p
        })
        .collect()
}

fn winner_and_reason(r: Option<&MatchResult>) -> Option<(Option<Team>, EndReason)> {
    r.map(|r| (r.winner, r.reason.clone()))
}

fn seat(board: BoardId, color: Color) -> Seat {
    Seat::new(board, color)
}

const FIXTURES: [(&str, usize); 3] = [("1934301", 110), ("1934461", 125), ("1934587", 90)];

// ---------------------------------------------------------------------------------------
// The fixtures

#[test]
fn fixtures_replay_legally_with_their_clocks() {
    for (name, total) in FIXTURES {
        let g = read_bpgn_file(&fixture(name), &uscf()).unwrap().remove(0);
        let m = &g.game;
        assert_eq!(m.record().len(), total, "{name}: SOURCES.md ply count");
        assert!(
            m.record().iter().all(|p| p.legality == Legality::Legal),
            "{name}: every move legal"
        );
        assert!(
            m.record().iter().all(|p| p.meta.clock_ms.is_some()),
            "{name}: every move has its clock"
        );
        assert_eq!(g.header.comments.len(), 1, "{name}: the C: line");
        assert!(g.header.comments[0].starts_with("C: This is game number"));
    }
    let g = read_bpgn_file(&fixture("1934301"), &uscf())
        .unwrap()
        .remove(0);
    let first = &g.game.record()[0];
    assert_eq!((first.board, first.san.as_str()), (A, "d4"));
    assert_eq!(
        first.meta.clock_ms,
        Some(298_210),
        "{{298.21}} is 298.210 s"
    );
    assert!(
        g.game.record().iter().any(|p| p.san == "c8=Q+"),
        "the promotion 32A. c8=Q+"
    );
    assert_eq!(g.header.player(seat(A, Color::White)), "Rabbos");
    assert_eq!(g.header.player(seat(B, Color::Black)), "BobBughouse");
    assert_eq!(g.header.date, "2021.10.05");
    assert_eq!(g.header.time.as_deref(), Some("16:45:40"));
    assert!(
        g.header
            .extra
            .iter()
            .any(|(k, v)| k == "WhiteAElo" && v == "0")
    );
    assert!(g.header.extra.iter().any(|(k, _)| k == "Lag"));
}

#[test]
fn fixture_1934301_ends_with_the_drop_mate_on_black_b() {
    let g = read_bpgn_file(&fixture("1934301"), &uscf())
        .unwrap()
        .remove(0);
    let last = g.game.record().last().unwrap();
    assert_eq!((last.board, last.color, last.number), (B, Color::White, 23));
    assert_eq!(last.san, "B@g7#");
    // The Match found the mate itself; nothing was declared from the file.
    assert!(g.game.declared().is_none());
    let r = g.game.result().unwrap();
    assert_eq!(
        r.reason,
        EndReason::Checkmate {
            loser: seat(B, Color::Black)
        }
    );
    // BlackB partners WhiteA: the winners are BlackA & WhiteB, although the file says 1-0.
    assert_eq!(r.winner, Some(Team::BlackA));
    assert_eq!(g.result_token.as_deref(), Some("1-0"));
    assert_eq!(g.termination.as_deref(), Some("BobBughouse checkmated"));
    assert_eq!(g.result.as_ref(), Some(r));
}

#[test]
fn fixture_1934461_ends_with_white_b_flagging() {
    let g = read_bpgn_file(&fixture("1934461"), &uscf())
        .unwrap()
        .remove(0);
    assert!(!g.game.record().iter().any(|p| p.san.ends_with('#')));
    let r = g.game.result().unwrap();
    assert_eq!(
        r.reason,
        EndReason::Flag {
            seat: seat(B, Color::White)
        }
    );
    assert_eq!(r.winner, Some(Team::WhiteA), "Giomaxxim's opponents' team");
    assert_eq!(
        g.result_token.as_deref(),
        Some("0-1"),
        "board-relative in the file"
    );
}

#[test]
fn fixture_1934587_ends_with_the_drop_mate_on_black_a() {
    let g = read_bpgn_file(&fixture("1934587"), &uscf())
        .unwrap()
        .remove(0);
    let last = g.game.record().last().unwrap();
    assert_eq!(
        (last.board, last.number, last.san.as_str()),
        (A, 27, "N@g4#")
    );
    assert!(
        g.game.declared().is_none(),
        "the mate was found on the board"
    );
    let r = g.game.result().unwrap();
    assert_eq!(
        r.reason,
        EndReason::Checkmate {
            loser: seat(A, Color::Black)
        }
    );
    assert_eq!(g.header.player(seat(A, Color::Black)), "donkEchess");
    assert_eq!(r.winner, Some(Team::WhiteA));
    // The file's time control replaces the preset's, so it is written back.
    assert_eq!(g.game.rules().time_control.bpgn(), "60+0");
}

#[test]
fn fixtures_survive_write_read_write() {
    for (name, _) in FIXTURES {
        let g = read_bpgn_file(&fixture(name), &uscf()).unwrap().remove(0);
        let first = write_bpgn(&g.game, &g.header);
        let again = read_one(&first, &uscf());
        assert_eq!(plies(&again.game), plies(&g.game), "{name}: same record");
        assert_eq!(
            winner_and_reason(again.result.as_ref()),
            winner_and_reason(g.result.as_ref()),
            "{name}: same result"
        );
        let second = write_bpgn(&again.game, &again.header);
        assert_eq!(first, second, "{name}: the second write is byte-identical");
    }
}

#[test]
fn the_writer_writes_tags_numbers_clocks_and_a_team_relative_result() {
    let g = read_bpgn_file(&fixture("1934301"), &uscf())
        .unwrap()
        .remove(0);
    let text = write_bpgn(&g.game, &g.header);
    for tag in [
        "[Event \"FICS unrated bughouse match\"]\n",
        "[Date \"2021.10.05\"]\n",
        "[WhiteA \"Rabbos\"]\n[BlackA \"Stesox\"]\n[WhiteB \"Giomaxxim\"]\n[BlackB \"BobBughouse\"]\n",
        "[Result \"0-1\"]\n",
        "[TimeControl \"300+0\"]\n",
        "[Variant \"Bughouse\"]\n",
        "[Rules \"uscf-bughouse\"]\n",
        "[Promotion \"Upgrade\"]\n",
        "[DropMate \"Allowed\"]\n",
        "[PawnDropRanks \"2-7\"]\n",
        "[Termination \"normal\"]\n",
        "[Outcome \"BlackA & WhiteB won: BlackB checkmated\"]\n",
        "[WhiteAElo \"0\"]\n",
    ] {
        assert!(text.contains(tag), "missing {tag}in\n{text}");
    }
    assert!(text.contains("\n1A. d4{298.210} 1a. Nf6{299.830} 2A. h3{296.784} 1B. e4{296.208}\n"));
    assert!(text.ends_with("23B. B@g7#{72.284}\n{BobBughouse checkmated} 0-1\n"));
    let movetext = text.split("\n\n").nth(1).unwrap();
    assert!(movetext.lines().all(|l| l.chars().count() <= 80), "wrapped");
}

// ---------------------------------------------------------------------------------------
// Dialects

const TAGS: &str = "[Event \"x\"][Site \"y\"]\n[WhiteA \"Ann\"][WhiteAElo \"1500\"]\n\
    [BlackA \"Bob\"] [BlackB \"Dan\"]\n[WhiteB \"Cy\"]\n";

#[test]
fn several_tags_on_one_line() {
    let g = read_one(&format!("{TAGS}\n1A. e4 *\n"), &uscf());
    assert_eq!(g.header.event, "x");
    assert_eq!(g.header.site, "y");
    assert_eq!(
        g.header.players,
        ["Ann", "Bob", "Cy", "Dan"].map(String::from)
    );
    assert_eq!(g.header.extra, vec![("WhiteAElo".into(), "1500".into())]);
}

#[test]
fn crlf_line_ends_read_the_same_and_count_lines_right() {
    for (name, _) in FIXTURES {
        let lf = fixture_text(name);
        let crlf = lf.replace('\n', "\r\n");
        let a = read_one(&lf, &uscf());
        let b = read_one(&crlf, &uscf());
        assert_eq!(plies(&a.game), plies(&b.game), "{name}");
        assert_eq!(a.termination, b.termination);
        assert_eq!(a.header, b.header);
    }
    let text = "[WhiteA \"a\"]\r\n\r\n1A. e4 1a. e5\r\n2A. Ke3 *\r\n";
    let e = read_err(text, &uscf());
    assert_eq!((e.line, e.column), (4, 5), "{e}");
}

#[test]
fn latin1_files_are_read() {
    let mut bytes = b"[WhiteA \"Jos".to_vec();
    bytes.push(0xE9); // é in latin-1, not valid UTF-8
    bytes.extend_from_slice(b"\"]\n[BlackA \"M");
    bytes.push(0xFC); // ü
    bytes.extend_from_slice(b"ller\"]\n\n1A. e4 {Bien jou");
    bytes.push(0xE9);
    bytes.extend_from_slice(b"} 1a. e5 *\n");
    assert!(std::str::from_utf8(&bytes).is_err());
    let text = decode_bpgn(&bytes);
    let g = read_one(&text, &uscf());
    assert_eq!(g.header.player(seat(A, Color::White)), "José");
    assert_eq!(g.header.player(seat(A, Color::Black)), "Müller");
    assert_eq!(
        g.game.record()[0].meta.comment.as_deref(),
        Some("Bien joué")
    );
    // And through a file.
    let dir = temp_dir("latin1");
    let path = dir.join("latin1.bpgn");
    std::fs::write(&path, &bytes).unwrap();
    let g = read_bpgn_file(&path, &uscf()).unwrap().remove(0);
    assert_eq!(g.header.player(seat(A, Color::White)), "José");
    // UTF-8 with a byte-order mark.
    let mut bom = "\u{feff}".as_bytes().to_vec();
    bom.extend_from_slice("[WhiteA \"José\"]\n1A. e4 *".as_bytes());
    let g = read_one(&decode_bpgn(&bom), &uscf());
    assert_eq!(g.header.player(seat(A, Color::White)), "José");
}

#[test]
fn clocks_glued_spaced_whole_seconds_and_clk() {
    let text = "1A. e4{118.585} 1a. e5 {180} 1B. d4 {[%clk 0:00:01.3]} \
                1b. d5 { [%clk 0:04:58] well played } 2A. Nf3 *";
    let g = read_one(text, &uscf());
    let clocks: Vec<_> = g.game.record().iter().map(|p| p.meta.clock_ms).collect();
    assert_eq!(
        clocks,
        [
            Some(118_585),
            Some(180_000),
            Some(1_300),
            Some(298_000),
            None
        ]
    );
    assert_eq!(
        g.game.record()[3].meta.comment.as_deref(),
        Some("well played")
    );
}

#[test]
fn bughouse_pro_timestamps() {
    let text = "1A. e4 {[ts=0.000]} 1B. d4 {[ts=1.234]} 1a. e5 {[ts=12.5]} *";
    let g = read_one(text, &uscf());
    let ts: Vec<_> = g.game.record().iter().map(|p| p.meta.t_ms).collect();
    assert_eq!(ts, [Some(0), Some(1_234), Some(12_500)]);
    assert!(g.game.record().iter().all(|p| p.meta.comment.is_none()));
}

#[test]
fn kibitz_comments_nags_and_annotations() {
    let text = "{C: This is game number 7} 1A. e4!? $1 1a. e5 {R: carlosfenix requests to \
                abort the game.} 2A. Nf3?! {a comment}\n{Game aborted by agreement} *";
    let g = read_one(text, &uscf());
    assert_eq!(
        g.header.comments,
        vec!["C: This is game number 7".to_owned()]
    );
    let r = g.game.record();
    assert_eq!(r.len(), 3);
    assert_eq!(r[0].san, "e4");
    assert_eq!(
        r[1].meta.comment.as_deref(),
        Some("R: carlosfenix requests to abort the game.")
    );
    assert_eq!(r[2].meta.comment.as_deref(), Some("a comment"));
    assert_eq!(g.termination.as_deref(), Some("Game aborted by agreement"));
    assert_eq!(g.result_token.as_deref(), Some("*"));
    assert!(g.result.is_none());
}

#[test]
fn fide_castling_with_zeros() {
    let text = "1A. e4 1a. e5 2A. Nf3 1B. d4 2a. Nc6 3A. Bc4 3a. d6 4A. 0-0 1b. d5 \
                4a. Be6 2B. Nc3 2b. Nc6 5A. d3 3B. Bf4 3b. Bf5 5a. Qd7 4B. Qd2 4b. Qd7 \
                6A. Nc3 6a. 0-0-0 5B. 0-0-0 *";
    let g = read_one(text, &uscf());
    let castles: Vec<_> = g
        .game
        .record()
        .iter()
        .filter(|p| matches!(p.mv, Move::Castle { .. }))
        .map(|p| (p.board, p.san.clone()))
        .collect();
    assert_eq!(
        castles,
        [(A, "O-O".into()), (A, "O-O-O".into()), (B, "O-O-O".into())]
    );
}

/// White on A takes a pawn and a knight; they reach White's partner, Black on B.
const FEED_B_BLACK: &str = "1A. e4 1a. d5 2A. exd5 2a. Nf6 3A. Nc3 3a. Nxd5 4A. Nxd5 4a. Qxd5 ";

#[test]
fn chess_com_drops() {
    // `@e3` is a pawn drop, `$146@g4` a knight drop whose N was read as a NAG.
    let text = format!("{FEED_B_BLACK}1B. d4 1b. @e3 2B. Nf3 2b. $146@g4 *");
    let g = read_one(&text, &uscf());
    let r = g.game.record();
    assert_eq!(r[r.len() - 3].san, "P@e3");
    assert_eq!(
        r.last().unwrap().mv,
        Move::Put {
            role: Role::Knight,
            to: Square::G4
        }
    );
    assert_eq!(r.last().unwrap().san, "N@g4");
}

#[test]
fn bughouse_pro_spellings() {
    // Pawn capture without its file (`xd5`) and rank-first disambiguation (`N1d2`).
    let text = "1A. e4 1a. d5 2A. xd5 *";
    let g = read_one(text, &uscf());
    assert_eq!(g.game.record()[2].san, "exd5");
    let text = "1A. Nf3 1a. Nf6 2A. d3 2a. d6 3A. Nfd2 3a. e6 4A. Nf3 4a. e5 5A. Nbd2 5a. e4 \
                6A. N2b3 *";
    let g = read_one(text, &uscf());
    assert_eq!(g.game.record().last().unwrap().san, "Nb3");
}

#[test]
fn transfer_chess_removal_and_a_set_up_position() {
    let rules = RulesPreset::built_in("transfer-chess");
    let text = "[SetUp \"1\"]\n[FEN \"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1 | \
                rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n\
                1A. b8=. 1B. e4 1a. Kd7 1b. e5 2B. P@d4 *";
    let g = read_one(text, &rules);
    let r = g.game.record();
    assert!(r[0].removed_pawn, "b8=. removes the pawn");
    assert_eq!(r[0].san, "b8=.");
    assert_eq!(r[4].san, "P@d4", "the pawn went to White on B");
    // The set-up position is written back.
    let text = write_bpgn(&g.game, &g.header);
    assert!(text.contains("[SetUp \"1\"]\n[FEN \"4k3/1P6/8/8/8/8/8/4K3[] w - - 0 1 | "));
    assert!(text.contains("[Promotion \"Discard\"]\n"));
    assert!(text.contains("[DropMate \"Forbidden\"]\n"));
    assert!(text.contains("[DropForbiddenRanks \"White 8, Black 1\"]\n"));
    let again = read_one(&text, &rules);
    assert_eq!(plies(&again.game), plies(&g.game));
    assert_eq!(write_bpgn(&again.game, &again.header), text);
}

#[test]
fn games_without_moves() {
    let text = "[Event \"FICS rated bughouse match\"]\n[WhiteA \"a\"]\n\n\
                {C: This is game number 1}\n{Game aborted on move 1} *\n\n\
                [Event \"second\"]\n\n*\n\n[Event \"third\"]\n";
    let games = read_bpgn(text, &uscf()).unwrap();
    assert_eq!(games.len(), 3);
    assert!(
        games
            .iter()
            .all(|g| g.game.record().is_empty() && g.result.is_none())
    );
    assert_eq!(
        games[0].termination.as_deref(),
        Some("Game aborted on move 1")
    );
    assert_eq!(games[0].header.comments, ["C: This is game number 1"]);
    assert_eq!(games[1].result_token.as_deref(), Some("*"));
    assert_eq!(games[2].result_token, None);
    // An empty match writes and reads back.
    let m = Match::new(uscf());
    let text = write_bpgn(&m, &BpgnHeader::default());
    assert!(text.ends_with("\n\n{Unfinished} *\n"), "{text}");
    let again = read_one(&text, &uscf());
    assert_eq!(write_bpgn(&again.game, &again.header), text);
}

#[test]
fn several_games_in_one_text_and_variations_skipped() {
    let text = format!(
        "{}\n\n{}\n[Event \"plain\"]\n1A. e4 (1A. d4 {{alt}} 1a. d5) 1a. e5 ; a line comment\n\
         % an escaped line\n2A. Nf3 *\n",
        fixture_text("1934301"),
        fixture_text("1934587")
    );
    let games = read_bpgn(&text, &uscf()).unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(games[2].game.record().len(), 3);
    assert_eq!(
        games[2].game.record()[1].meta.comment.as_deref(),
        Some("a line comment")
    );
}

#[test]
fn move_glued_to_its_number_and_numbers_without_dots() {
    let g = read_one("1A.e4 1a...e5 2A Nf3 *", &uscf());
    let sans: Vec<_> = g.game.record().iter().map(|p| p.san.as_str()).collect();
    assert_eq!(sans, ["e4", "e5", "Nf3"]);
}

#[test]
fn result_from_termination_comment_outcome_tag_or_token() {
    // A resignation named in the comment decides, whatever the (board-relative) token says.
    let base =
        "[WhiteA \"Ann\"]\n[BlackA \"Bob\"]\n[WhiteB \"Cy\"]\n[BlackB \"Dan\"]\n\n1A. e4 1B. d4 ";
    let g = read_one(&format!("{base}{{Cy resigns}} 0-1"), &uscf());
    let r = g.result.unwrap();
    assert_eq!(
        r.reason,
        EndReason::Resignation {
            seat: seat(B, Color::White)
        }
    );
    assert_eq!(r.winner, Some(Team::WhiteA));
    // Lieven's seat abbreviations.
    let g = read_one(&format!("{base}{{WA forfeits on time}} 0-1"), &uscf());
    assert_eq!(
        g.result.unwrap().reason,
        EndReason::Flag {
            seat: seat(A, Color::White)
        }
    );
    // No understandable comment: Tandem's Outcome tag.
    let text = format!(
        "[Outcome \"BlackA & WhiteB won: WhiteA resigns\"]\n{base}{{Somebody gave up}} 1-0"
    );
    let r = read_one(&text, &uscf()).result.unwrap();
    assert_eq!(r.winner, Some(Team::BlackA));
    assert_eq!(
        r.reason,
        EndReason::Resignation {
            seat: seat(A, Color::White)
        }
    );
    // Only the token: team-relative.
    let r = read_one(&format!("{base}0-1"), &uscf()).result.unwrap();
    assert_eq!(r.winner, Some(Team::BlackA));
    let r = read_one(&format!("{base}1/2-1/2"), &uscf()).result.unwrap();
    assert_eq!(r.winner, None);
    // The same name at two seats cannot say who: the seat tag is used instead.
    let twins = "[WhiteA \"?\"]\n[BlackA \"?\"]\n[WhiteB \"?\"]\n[BlackB \"?\"]\n\n1A. e4 ";
    let r = read_one(&format!("{twins}{{BlackB resigns}} 1-0"), &uscf());
    assert_eq!(r.result.unwrap().winner, Some(Team::BlackA));
}

#[test]
fn a_termination_comment_contradicting_the_mate_is_an_error() {
    let text = fixture_text("1934301").replace("{BobBughouse checkmated}", "{Rabbos resigns}");
    let e = read_err(&text, &uscf());
    assert_eq!((e.line, e.column), position_of(&text, "{Rabbos resigns}"));
    assert!(e.message.contains("BlackB checkmated"), "{e}");
}

// ---------------------------------------------------------------------------------------
// Errors at their line and column

#[test]
fn an_illegal_move_is_reported_where_it_stands() {
    let text = fixture_text("1934301").replace("5A. Nxe4{290.843}", "5A. Nxe5{290.843}");
    let e = read_err(&text, &uscf());
    let (line, col) = position_of(&text, "Nxe5{290.843}");
    assert_eq!((e.line, e.column), (line, col), "{e}");
    assert_eq!(
        e.message,
        "illegal move Nxe5 on board A: the piece cannot move there"
    );
    assert_eq!(e.to_string(), format!("{line}:{col}: {}", e.message));
}

#[test]
fn a_move_number_that_does_not_match() {
    let text = fixture_text("1934587").replace("3A. exd5{56.53}", "3a. exd5{56.53}");
    let e = read_err(&text, &uscf());
    assert_eq!((e.line, e.column), position_of(&text, "3a. exd5"));
    assert_eq!(
        e.message,
        "move number 3a does not match: board A has White to move"
    );
    let e = read_err("1A. e4 1a. e5 3A. Nf3 *", &uscf());
    assert_eq!((e.line, e.column), (1, 15));
    assert_eq!(
        e.message,
        "move number 3A does not match: board A is at move 2"
    );
}

#[test]
fn a_drop_not_in_reserve() {
    let e = read_err("[WhiteA \"a\"]\n\n1A. e4 1a. e5\n2A. N@f3 *", &uscf());
    assert_eq!((e.line, e.column), (4, 5));
    assert_eq!(
        e.message,
        "illegal move N@f3 on board A: drop of a knight not in reserve"
    );
}

#[test]
fn other_bad_moves() {
    let cases = [
        (
            "1A. e4 1a. Zz9 *",
            (1, 12),
            "unreadable move \"Zz9\" on board A",
        ),
        (
            "1A. e4 1a. e5 2A. Ke3 *",
            (1, 19),
            "illegal move Ke3 on board A: the piece cannot move there",
        ),
        (
            "1A. e4 1a. e5 2A. Qh5 2a. Nc6 3A. Qxf7 3a. Ke7 *",
            (1, 44),
            "illegal move Ke7 on board A: leaves the king in check",
        ),
        ("e4 *", (1, 1), "move e4 has no move number (which board?)"),
        (
            "1A. e4 1a. e5 2. Nf3 *",
            (1, 15),
            "move number 2. names no board (BPGN numbers moves 1A. 1a. 1B. 1b.)",
        ),
        (
            "1A. e4 1a. e5 2A. O-O *",
            (1, 19),
            "illegal move O-O on board A: castling not allowed",
        ),
    ];
    for (text, pos, message) in cases {
        let e = read_err(text, &uscf());
        assert_eq!(
            ((e.line, e.column), e.message.as_str()),
            (pos, message),
            "{text}"
        );
    }
    let syntax = [
        ("[WhiteA \"a\"\n1A. e4", (1, 1)),
        ("1A. e4 {unclosed", (1, 8)),
        ("1A. e4 (1A. d4", (1, 8)),
        ("1A. e4 } *", (1, 8)),
    ];
    for (text, pos) in syntax {
        let e = parse_bpgn(text).unwrap_err();
        assert_eq!((e.line, e.column), pos, "{text}: {e}");
    }
}

#[test]
fn a_move_after_the_mate_is_an_error() {
    let text = fixture_text("1934587").replace("27A. N@g4#{1.978}", "27A. N@g4#{1.978} 19b. Kf8");
    let e = read_err(&text, &uscf());
    assert_eq!((e.line, e.column), position_of(&text, "Kf8"));
    assert!(e.message.contains("after the end of the match"), "{e}");
}

// ---------------------------------------------------------------------------------------
// Illegal moves that stood

fn play(m: &mut Match, board: BoardId, token: &str, clock_ms: Option<u64>) {
    let mv =
        parse_move(m.board(board), m.rules(), token).unwrap_or_else(|e| panic!("{token}: {e}"));
    m.play(
        board,
        mv,
        PlyMeta {
            t_ms: None,
            clock_ms,
            comment: None,
        },
    )
    .expect("playable");
}

#[test]
fn illegal_moves_that_stood_round_trip() {
    let mut m = Match::new(uscf());
    play(&mut m, A, "e4", Some(299_000));
    play(&mut m, A, "e5", Some(298_500));
    // A bishop moving like a rook, a drop of a knight nobody passed, a king stepping
    // next to the checking queen: all stood (nobody claimed).
    play(&mut m, A, "Bc1c3", Some(297_000));
    play(&mut m, B, "d4", None);
    play(&mut m, A, "N@c6", Some(296_000));
    play(&mut m, A, "Qd1h5", Some(295_000));
    play(&mut m, A, "Ng8f6", Some(294_000));
    play(&mut m, A, "Qh5xf7", Some(293_000));
    play(&mut m, A, "Ke8e7", Some(290_000));
    let illegal: Vec<_> = m
        .record()
        .iter()
        .filter_map(|p| match p.legality {
            Legality::Illegal(r) => Some((p.san.clone(), r)),
            _ => None,
        })
        .collect();
    assert_eq!(
        illegal,
        [
            ("Bc1c3".to_owned(), IllegalReason::CannotMoveThere),
            ("N@c6".to_owned(), IllegalReason::NotInReserve),
            ("Ke8e7".to_owned(), IllegalReason::KingInCheck),
        ]
    );
    m.set_comment(3, Some("partner  was\nfast".into())).unwrap();
    let mut header = BpgnHeader::default();
    header.set_player(seat(A, Color::White), "Ann");
    let text = write_bpgn(&m, &header);
    // (Compared with line breaks as spaces: the writer wraps comments too.)
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    // Notes in the BughouseDB viewer's form `{C: ...}` (it takes any other comment after a
    // move's clock for the end of the game).
    for written in [
        "2A. Bc1c3{297.000} {C: Illegal: the piece cannot move there}",
        "1B. d4 {C: partner was fast}",
        "2a. N@c6{296.000} {C: Illegal: piece not in reserve}",
        "4A. Qxf7+{293.000} 4a. Ke8e7{290.000} {C: Illegal: leaves the king in check}",
    ] {
        assert!(flat.contains(written), "{written} not in\n{text}");
    }
    let g = read_one(&text, &uscf());
    let mut expected = plies(&m);
    expected[3].meta.comment = Some("partner was fast".into());
    assert_eq!(plies(&g.game), expected);
    assert_eq!(write_bpgn(&g.game, &g.header), text);

    // Without its comment an illegal move is an error, at the move.
    let start = text.find(" {C: Illegal: the piece").unwrap();
    let end = start + text[start..].find('}').unwrap() + 1;
    let bare = format!("{}{}", &text[..start], &text[end..]);
    let e = read_err(&bare, &uscf());
    assert_eq!((e.line, e.column), position_of(&bare, "Bc1c3"));
    assert_eq!(
        e.message,
        "illegal move Bc1c3 on board A: the piece cannot move there"
    );
}

#[test]
fn declared_results_round_trip() {
    let results = [
        MatchResult {
            winner: Some(Team::BlackA),
            reason: EndReason::Resignation {
                seat: seat(B, Color::Black),
            },
            t_ms: None,
        },
        MatchResult {
            winner: None,
            reason: EndReason::BothFlags { board: B },
            t_ms: None,
        },
        MatchResult {
            winner: Some(Team::WhiteA),
            reason: EndReason::IllegalMoveClaimed {
                seat: seat(A, Color::Black),
            },
            t_ms: None,
        },
        MatchResult {
            winner: Some(Team::WhiteA),
            reason: EndReason::TdDecision {
                winner_text: "Team A wins on the TD's decision".into(),
            },
            t_ms: None,
        },
        MatchResult {
            winner: Some(Team::BlackA),
            reason: EndReason::Forfeit {
                seat: seat(A, Color::White),
                why: "phone rang".into(),
            },
            t_ms: None,
        },
    ];
    for r in results {
        let mut m = Match::new(uscf());
        play(&mut m, A, "e4", Some(1));
        m.declare(r.clone());
        let mut header = BpgnHeader::default();
        for (s, name) in Seat::ALL.into_iter().zip(["Ann Lee", "Bob", "Cy", "Dan"]) {
            header.set_player(s, name);
        }
        let text = write_bpgn(&m, &header);
        let token = match r.winner {
            Some(Team::WhiteA) => "1-0",
            Some(Team::BlackA) => "0-1",
            None => "1/2-1/2",
        };
        assert!(text.contains(&format!("[Result \"{token}\"]")));
        assert!(text.ends_with(&format!("{token}\n")));
        let g = read_one(&text, &uscf());
        assert_eq!(
            winner_and_reason(g.result.as_ref()),
            winner_and_reason(Some(&r))
        );
        assert_eq!(write_bpgn(&g.game, &g.header), text);
    }
}

// ---------------------------------------------------------------------------------------
// `tandem bpgn check`

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tandem-bpgn-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn tandem(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_tandem"))
        .args(args)
        .output()
        .expect("tandem runs")
}

#[test]
fn check_prints_one_line_per_fixture() {
    let paths: Vec<String> = FIXTURES
        .iter()
        .map(|(n, _)| fixture(n).display().to_string())
        .collect();
    let args: Vec<&str> = ["bpgn", "check"]
        .into_iter()
        .chain(paths.iter().map(String::as_str))
        .collect();
    let out = tandem(&args);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expected = [
        "65 A plies, 45 B plies, 1-0 {BobBughouse checkmated}",
        "61 A plies, 64 B plies, 0-1 {Giomaxxim forfeits on time}",
        "53 A plies, 37 B plies, 1-0 {donkEchess checkmated}",
    ];
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    for ((line, path), (want, (_, total))) in
        lines.iter().zip(&paths).zip(expected.iter().zip(FIXTURES))
    {
        assert_eq!(*line, format!("{path}: {want}"));
        let counts: Vec<usize> = want
            .split(' ')
            .filter_map(|w| w.parse().ok())
            .take(2)
            .collect();
        assert_eq!(counts.iter().sum::<usize>(), total, "SOURCES.md total");
    }
}

#[test]
fn check_reports_a_corrupted_copy_with_file_line_and_column() {
    let dir = temp_dir("check");
    let text = fixture_text("1934461").replace("9A. dxe5{274.251}", "9A. dxe6{274.251}");
    let path = dir.join("corrupt.bpgn");
    std::fs::write(&path, &text).unwrap();
    let good = fixture(FIXTURES[0].0);
    let out = tandem(&[
        "bpgn",
        "check",
        &path.display().to_string(),
        &good.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    let (line, col) = position_of(&text, "dxe6");
    assert_eq!(
        stderr,
        format!(
            "{}:{line}:{col}: illegal move dxe6 on board A: the piece cannot move there\n",
            path.display()
        )
    );
    // The good file after it is still checked.
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.starts_with(&format!("{}: 65 A plies", good.display())),
        "{stdout}"
    );

    // An unreadable file is named.
    let missing = dir.join("missing.bpgn");
    let out = tandem(&["bpgn", "check", &missing.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with(&format!("{}: ", missing.display())),
        "{stderr}"
    );
    // `--rules` is honoured: this game is not legal Transfer Chess (it promotes, 32A. c8=Q+).
    let out = tandem(&[
        "bpgn",
        "check",
        &good.display().to_string(),
        "--rules",
        "transfer-chess",
    ]);
    assert!(
        !out.status.success(),
        "1934301 promotes c8=Q, which Transfer Chess does not allow"
    );
}

// ---------------------------------------------------------------------------------------
// Property tests

/// One step of a random match: which board tries first, how to choose among the legal
/// moves (`style`: 0 a mate if there is one, 1 a capture, 2 a pawn move, else any), which
/// one, the clock, a comment.
#[derive(Clone, Debug)]
struct Step {
    board: bool,
    style: u8,
    pick: u16,
    clock_ms: Option<u32>,
    comment: Option<String>,
}

fn step() -> impl Strategy<Value = Step> {
    (
        any::<bool>(),
        0u8..6,
        any::<u16>(),
        prop::option::weighted(0.9, 0u32..400_000),
        prop::option::weighted(0.1, "[a-zA-Zé]{1,8}( [a-z!?.,]{1,6}){0,12}"),
    )
        .prop_map(|(board, style, pick, clock_ms, comment)| Step {
            board,
            style,
            pick,
            clock_ms,
            comment,
        })
}

fn ending() -> impl Strategy<Value = Option<(u8, u8)>> {
    prop::option::weighted(0.6, (0u8..6, 0u8..4))
}

fn play_random(rules: &RulesPreset, steps: &[Step], ending: Option<(u8, u8)>) -> Match {
    let mut m = Match::new(rules.clone());
    for (i, s) in steps.iter().enumerate() {
        if m.is_over() {
            break;
        }
        let first = if s.board || !rules.is_bughouse() {
            A
        } else {
            B
        };
        let boards = if rules.is_bughouse() {
            vec![first, first.other()]
        } else {
            vec![A]
        };
        let Some((board, moves)) = boards
            .into_iter()
            .map(|b| (b, m.board(b).legal_moves(rules)))
            .find(|(_, moves)| !moves.is_empty())
        else {
            break;
        };
        let state = m.board(board);
        let preferred: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&mv| match s.style {
                0 => {
                    let mut after = state.clone();
                    after.apply(mv, rules.promotion).is_ok() && after.is_mate(rules)
                }
                1 => matches!(
                    mv,
                    Move::Normal {
                        capture: Some(_),
                        ..
                    } | Move::EnPassant { .. }
                ),
                2 => mv.role() == Role::Pawn && !mv.is_put(),
                _ => false,
            })
            .collect();
        let pool = if preferred.is_empty() {
            &moves
        } else {
            &preferred
        };
        let mv = pool[usize::from(s.pick) % pool.len()];
        let meta = PlyMeta {
            t_ms: Some(i as u64 * 1000),
            clock_ms: s.clock_ms.map(u64::from),
            comment: s.comment.clone(),
        };
        m.play(board, mv, meta).expect("a legal move plays");
    }
    if let (false, Some((kind, who))) = (m.is_over(), ending) {
        let seat = Seat::ALL[usize::from(who % 4)];
        let seat = if rules.is_bughouse() {
            seat
        } else {
            Seat::new(A, seat.color)
        };
        let reason = match kind {
            0 => EndReason::Resignation { seat },
            1 => EndReason::Flag { seat },
            2 => EndReason::DrawAgreed,
            3 => EndReason::BothFlags { board: seat.board },
            4 => EndReason::IllegalMoveClaimed { seat },
            _ => EndReason::TdDecision {
                winner_text: "The arbiter decided".into(),
            },
        };
        let winner = match &reason {
            EndReason::DrawAgreed | EndReason::BothFlags { .. } => None,
            EndReason::TdDecision { .. } => Some(Team::BlackA),
            _ => Some(seat.team().other()),
        };
        m.declare(MatchResult {
            winner,
            reason,
            t_ms: None,
        });
    }
    m
}

const PRESETS: [&str; 4] = [
    "uscf-bughouse",
    "club-bughouse",
    "transfer-chess",
    "uscf-blitz",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_matches_round_trip(
        preset in 0usize..PRESETS.len(),
        steps in prop::collection::vec(step(), 0..120),
        ending in ending(),
        names in prop::array::uniform4(prop::sample::select(vec!["Ann", "Bob", "?", "", "José Ñ", "O'Neil \"Bugs\""])),
    ) {
        let rules = RulesPreset::built_in(PRESETS[preset]);
        let m = play_random(&rules, &steps, ending);
        let mut header = BpgnHeader {
            event: "Club night".into(),
            date: "2024-05-01".into(),
            ..BpgnHeader::default()
        };
        for (s, n) in Seat::ALL.into_iter().zip(names) {
            header.set_player(s, n);
        }
        let text = write_bpgn(&m, &header);
        let g = read_one(&text, &rules);
        prop_assert_eq!(plies(&g.game), plies(&m));
        prop_assert_eq!(winner_and_reason(g.result.as_ref()), winner_and_reason(m.result()));
        prop_assert_eq!(write_bpgn(&g.game, &g.header), text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,400}") {
        let _ = read_bpgn(&text, &uscf());
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let _ = read_bpgn(&decode_bpgn(&bytes), &uscf());
    }

    #[test]
    fn pgn_like_text_never_panics(
        text in r#"(\[[A-Za-z]{0,6} "[^"\]]{0,6}"?\]?|[0-9]{1,3}[AaBb]?\.{0,3}|[NBRQKP]?[a-h]?[1-8]?x?[a-h][1-8](=[QRBN.])?[+#]?|[NBRQP$146]{0,4}@[a-h][1-8]|O-O(-O)?|0-0|\{[^}]{0,12}\}?|[()*;%$!?]|1-0|0-1|1/2-1/2|\r?\n| ){0,60}"#
    ) {
        let _ = read_bpgn(&text, &uscf());
    }

    #[test]
    fn mutated_fixtures_never_panic(
        which in 0usize..3,
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, prop::sample::select("{}[]()\";%$@=.-+#0123456789abcdefghNBRQKOxAaBb \n\r*/".chars().collect::<Vec<_>>())), 1..6),
    ) {
        let mut chars: Vec<char> = fixture_text(FIXTURES[which].0).chars().collect();
        for (at, op, c) in edits {
            let i = at.index(chars.len().max(1));
            match op {
                0 if i < chars.len() => { chars.remove(i); }
                1 => chars.insert(i.min(chars.len()), c),
                _ if i < chars.len() => chars[i] = c,
                _ => {}
            }
        }
        let text: String = chars.into_iter().collect();
        let _ = read_bpgn(&text, &uscf());
    }
}

#[test]
fn a_huge_word_of_glued_numbers_does_not_exhaust_the_stack() {
    let text = "1A.".repeat(200_000);
    let games = parse_bpgn(&text).unwrap();
    assert_eq!(games[0].movetext.len(), 200_000);
    // Numbers without moves are tolerated: nothing is played.
    assert!(read_one(&text, &uscf()).game.record().is_empty());
}

/// A move for the "soup": drops (always readable, often illegal), long-form moves between
/// arbitrary squares, castling, plain SAN.
fn soup_move() -> impl Strategy<Value = String> {
    prop_oneof![
        5 => "[PNBRQ]@[a-h][3-6]",
        2 => "[PNBRQ]@[a-h][1-8]",
        2 => "[NBRQK]?[a-h][1-8][a-h][1-8](=[QRBN.])?",
        1 => "O-O|O-O-O",
        2 => "[NBRQK]?[a-h]?x?[a-h][1-8]",
    ]
}

/// One line of movetext, numbered per board as the plies alternate, each move marked as an
/// illegal move that stood; also where each move token starts (its column).
fn soup_text(moves: &[(bool, String)]) -> (String, Vec<usize>) {
    let mut count = [0u32; 2];
    let mut text = String::new();
    let mut columns = Vec::new();
    for (on_b, mv) in moves {
        let board = usize::from(*on_b);
        let n = count[board];
        count[board] += 1;
        let letter = match (board, n % 2) {
            (0, 0) => 'A',
            (0, _) => 'a',
            (_, 0) => 'B',
            _ => 'b',
        };
        text.push_str(&format!("{}{letter}. ", n / 2 + 1));
        columns.push(text.chars().count() + 1);
        text.push_str(&format!("{mv} {{Illegal: stood}} "));
    }
    text.push('*');
    (text, columns)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Illegal moves that stood, numbered correctly, drive the rules into odd positions
    /// (pawns on the back rank, reserves below zero, unanalysable boards): reading them,
    /// and writing and reading back whatever was read, never panics, and round-trips.
    #[test]
    fn illegal_move_soup_never_panics(
        moves in prop::collection::vec((any::<bool>(), soup_move()), 0..80),
    ) {
        let rules = uscf();
        let mut moves = moves;
        // Moves that cannot be played at all (onto an own piece, from an empty square) are
        // errors; leave each out in turn until the rest reads.
        let g = loop {
            let (text, columns) = soup_text(&moves);
            match read_bpgn(&text, &rules) {
                Ok(mut games) => break games.remove(0),
                Err(e) => {
                    let Some(bad) = columns.iter().position(|&c| c == e.column) else {
                        return Err(TestCaseError::fail(format!("error not at a move: {e}\n{text}")));
                    };
                    moves.remove(bad);
                }
            }
        };
        let written = write_bpgn(&g.game, &g.header);
        let again = read_one(&written, &rules);
        prop_assert_eq!(plies(&again.game), plies(&g.game));
        prop_assert_eq!(write_bpgn(&again.game, &again.header), written);
    }
}
