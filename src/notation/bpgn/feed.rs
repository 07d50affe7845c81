//! The records the hall may read as they grow (the web server's feeds): a match's BPGN
//! written from the moves as spectators see them, and for a single board a PGN with
//! `[%clk h:mm:ss]` comments, as chess broadcast sites that poll a PGN URL read it.
//!
//! They are written from what the hall may see, not from the arbiter's record: a move
//! not yet ruled on is spelled like any other and no note points at it, so the feeds can
//! be served live (`match.bpgn`, with its `{C: Illegal: ...}` notes, is the TD's). The
//! tags and movetext are `write_bpgn`'s; what the hall's view does not carry (the
//! `Termination`/`Outcome` tags, notes) is left out.

use crate::BoardId;
use crate::rules::{RulesPreset, Seat};

use super::write::{BpgnHeader, Wrapper, clock_seconds, header_tags};

/// One ply as the hall reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeedPly<'a> {
    pub seat: Seat,
    /// Full-move number on its board.
    pub number: u32,
    pub san: &'a str,
    /// The mover's clock after the move.
    pub clock_ms: Option<u64>,
}

/// The end of the match as the hall reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeedEnd<'a> {
    /// Team-relative Result token (`1-0`: team WhiteA won; on a single board: White).
    pub token: &'a str,
    /// The termination in words (`Boris resigns`).
    pub text: &'a str,
}

/// The match as BPGN, tags and movetext as [`super::write_bpgn`] writes them.
#[must_use]
pub fn write_bpgn_feed(
    header: &BpgnHeader,
    rules: &RulesPreset,
    plies: &[FeedPly<'_>],
    end: Option<FeedEnd<'_>>,
) -> String {
    let token = end.map_or("*", |e| e.token);
    let mut out = String::new();
    let boards: &[BoardId] = if rules.is_bughouse() {
        &BoardId::BOTH
    } else {
        &[BoardId::A]
    };
    let seats: Vec<(String, String)> = boards
        .iter()
        .flat_map(|&b| Seat::ALL.into_iter().filter(move |s| s.board == b))
        .map(|s| (s.tag().to_owned(), header.player(s).to_owned()))
        .collect();
    for (name, value) in header_tags(header, rules, &seats, token) {
        push_tag(&mut out, &name, &value);
    }
    out.push('\n');
    let mut text = Wrapper::default();
    for p in plies {
        let mut unit = format!("{}{}. {}", p.number, p.seat.letter(), p.san);
        if let Some(ms) = p.clock_ms {
            unit.push('{');
            unit.push_str(&clock_seconds(ms));
            unit.push('}');
        }
        text.word(&unit);
    }
    text.newline();
    text.comment(end.map_or("Unfinished", |e| e.text));
    text.word(token);
    out.push_str(&text.finish());
    out.push('\n');
    out
}

/// A single board's game as PGN for broadcast sites: the Seven Tag Roster with
/// `TimeControl`, and after each move the mover's clock as `{[%clk 0:04:58]}`.
#[must_use]
pub fn write_pgn_clk(
    header: &BpgnHeader,
    rules: &RulesPreset,
    plies: &[FeedPly<'_>],
    end: Option<FeedEnd<'_>>,
) -> String {
    let token = end.map_or("*", |e| e.token);
    let white = Seat::new(BoardId::A, shakmaty::Color::White);
    let black = Seat::new(BoardId::A, shakmaty::Color::Black);
    let seats = [
        ("White".to_owned(), header.player(white).to_owned()),
        ("Black".to_owned(), header.player(black).to_owned()),
    ];
    let mut out = String::new();
    for (name, value) in header_tags(header, rules, &seats, token) {
        // PGN readers know no bughouse rule tags; the rules' name stays.
        if !matches!(
            name.as_str(),
            "Promotion" | "PromotionPieces" | "DropMate" | "PawnDropRanks" | "DropForbiddenRanks"
        ) {
            push_tag(&mut out, &name, &value);
        }
    }
    out.push('\n');
    let mut text = Wrapper::default();
    let mut after_comment = false;
    for p in plies.iter().filter(|p| p.seat.board == BoardId::A) {
        if p.seat.color.is_white() {
            text.word(&format!("{}.", p.number));
        } else if after_comment {
            text.word(&format!("{}...", p.number));
        }
        text.word(p.san);
        after_comment = false;
        if let Some(ms) = p.clock_ms {
            // One word, so that a line is never broken inside the command.
            text.word(&format!("{{[%clk {}]}}", clk(ms)));
            after_comment = true;
        }
    }
    text.newline();
    if let Some(e) = end {
        text.comment(e.text);
    }
    text.word(token);
    out.push_str(&text.finish());
    out.push('\n');
    out
}

/// `h:mm:ss`, whole seconds rounded up as the clock face shows them.
fn clk(ms: u64) -> String {
    let secs = ms.div_ceil(1000);
    format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

fn push_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push_str("\"]\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::bpgn::read_bpgn;
    use shakmaty::Color;

    fn header() -> BpgnHeader {
        BpgnHeader {
            event: "Club night".into(),
            site: "Hall".into(),
            date: "2026.11.21".into(),
            time: Some("19:30:00".into()),
            players: ["Ada", "Boris", "Chen", "Dana"].map(str::to_owned),
            ..BpgnHeader::default()
        }
    }

    fn ply(board: BoardId, color: Color, number: u32, san: &str, clock_ms: u64) -> FeedPly<'_> {
        FeedPly {
            seat: Seat::new(board, color),
            number,
            san,
            clock_ms: Some(clock_ms),
        }
    }

    #[test]
    fn the_hall_bpgn_reads_back_move_for_move() {
        let rules = RulesPreset::built_in("uscf-bughouse");
        let plies = [
            ply(BoardId::A, Color::White, 1, "e4", 298_210),
            ply(BoardId::B, Color::White, 1, "d4", 299_000),
            ply(BoardId::A, Color::Black, 1, "d5", 297_000),
            ply(BoardId::A, Color::White, 2, "exd5", 296_000),
            ply(BoardId::B, Color::Black, 1, "P@e5", 295_000),
        ];
        let text = write_bpgn_feed(&header(), &rules, &plies, None);
        assert!(text.contains("[WhiteB \"Chen\"]"), "{text}");
        assert!(text.contains("[Result \"*\"]"), "{text}");
        assert!(text.contains("1A. e4{298.210} 1B. d4{299.000}"), "{text}");
        assert!(text.trim_end().ends_with("{Unfinished} *"), "{text}");
        let games = read_bpgn(&text, &rules).unwrap();
        assert_eq!(games.len(), 1);
        let sans: Vec<String> = games[0]
            .game
            .record()
            .iter()
            .map(|p| p.san.clone())
            .collect();
        assert_eq!(sans, ["e4", "d4", "d5", "exd5", "P@e5"]);
        let ended = write_bpgn_feed(
            &header(),
            &rules,
            &plies,
            Some(FeedEnd {
                token: "0-1",
                text: "Ada resigns",
            }),
        );
        assert!(ended.contains("[Result \"0-1\"]"), "{ended}");
        assert!(ended.trim_end().ends_with("{Ada resigns} 0-1"), "{ended}");
    }

    #[test]
    fn a_single_board_pgn_carries_clocks_as_broadcasts_read_them() {
        let rules = RulesPreset::built_in("uscf-blitz");
        let plies = [
            ply(BoardId::A, Color::White, 1, "e4", 298_000),
            ply(BoardId::A, Color::Black, 1, "e5", 3_725_400),
            FeedPly {
                clock_ms: None,
                ..ply(BoardId::A, Color::White, 2, "Nf3", 0)
            },
            ply(BoardId::A, Color::Black, 2, "Nc6", 59_001),
        ];
        let text = write_pgn_clk(&header(), &rules, &plies, None);
        assert!(
            text.contains("[White \"Ada\"]\n[Black \"Boris\"]"),
            "{text}"
        );
        assert!(text.contains("[TimeControl \"300+0\"]"), "{text}");
        assert!(
            !text.contains("WhiteA") && !text.contains("DropMate"),
            "{text}"
        );
        assert!(
            text.contains(
                "1. e4 {[%clk 0:04:58]} 1... e5 {[%clk 1:02:06]} 2. Nf3 Nc6 {[%clk 0:01:00]}"
            ),
            "{text}"
        );
        assert!(text.trim_end().ends_with('*'), "{text}");
    }
}
