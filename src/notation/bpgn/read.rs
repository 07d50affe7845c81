//! The tolerant reader: a game's tokens played through the rules, with clocks, comments
//! and the result as understood.

use std::path::Path;

use shakmaty::Move;

use super::lex::{Lexeme, LexemeKind, Pos, RawGame, parse_bpgn};
use super::moves::{MoveFailure, color_name, resolve, role_name};
use super::outcome::{
    implied_winner, parse_outcome, parse_reason, seat_by_tag, team_words, token_winner,
};
use super::write::{BpgnHeader, is_own_tag};
use super::{BpgnError, BpgnFileError};
use crate::BoardId;
use crate::rules::{
    BoardState, EndReason, IllegalReason, Legality, Match, MatchResult, PlayError, PlyMeta,
    RulesPreset, Seat, TimeControl,
};

/// One game read from BPGN and played through the rules.
#[derive(Clone, Debug)]
pub struct ReadGame {
    /// Event, site, date, players, other tags and the comments before the first move.
    pub header: BpgnHeader,
    /// Every tag as written, in file order.
    pub tags: Vec<(String, String)>,
    /// The match as played: the record with the file's clocks (`PlyMeta::clock_ms`), times
    /// (`[ts=]`, as `t_ms`) and comments; its result is the one understood (a mate found
    /// on the board, or else declared from the file). Its rules are the preset given, with
    /// the file's `TimeControl` when it has a readable one.
    pub game: Match,
    /// The file's Result token (`1-0`, `0-1`, `1/2-1/2`, `*`), if it has one.
    pub result_token: Option<String>,
    /// The termination comment (`BobBughouse checkmated`), if any.
    pub termination: Option<String>,
    /// The result as understood (who won, why); `None` if unfinished.
    pub result: Option<MatchResult>,
    /// Where the game starts in the text.
    pub pos: Pos,
}

/// Parses `text` and replays every game under `rules`.
pub fn read_bpgn(text: &str, rules: &RulesPreset) -> Result<Vec<ReadGame>, BpgnError> {
    parse_bpgn(text)?
        .iter()
        .map(|g| replay_game(g, rules))
        .collect()
}

/// File bytes as text: UTF-8 when they are valid UTF-8 (a BOM dropped), else latin-1
/// (every byte one character), which is what older FICS exports use.
#[must_use]
pub fn decode_bpgn(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.strip_prefix('\u{feff}').unwrap_or(s).to_owned(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// Reads and replays every game of a BPGN file (UTF-8 or latin-1).
pub fn read_bpgn_file(path: &Path, rules: &RulesPreset) -> Result<Vec<ReadGame>, BpgnFileError> {
    let bytes = std::fs::read(path).map_err(|source| BpgnFileError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    read_bpgn(&decode_bpgn(&bytes), rules).map_err(|error| BpgnFileError::Bpgn {
        path: path.to_path_buf(),
        error,
    })
}

/// Plays one game through `rules`. The first unreadable or illegal move (an illegal move
/// stands only when the file marks it with a `{C: Illegal: ...}` note, as Tandem writes
/// it, or the older `{Illegal: ...}`), a move number that does not match its board, or a
/// termination comment that contradicts a mate on the board is an error at its line and
/// column.
pub fn replay_game(raw: &RawGame, rules: &RulesPreset) -> Result<ReadGame, BpgnError> {
    let mut rules = rules.clone();
    if let Some(tc) = raw
        .tag("TimeControl")
        .and_then(|t| parse_time_control(&t.value))
    {
        rules.time_control = tc;
    }
    let start = start_positions(raw, &rules)?;
    let mut replay = Replay {
        game: Match::with_start(rules, start),
        header: header_from_tags(raw),
        board: None,
        pre_comments: Vec::new(),
        termination: None,
        result_token: None,
    };
    replay.run(&raw.movetext)?;
    replay.finish(raw)
}

/// What the comments after a move say.
#[derive(Default)]
struct Notes {
    clock_ms: Option<u64>,
    t_ms: Option<u64>,
    /// A note marks the move as an illegal move that stood.
    illegal: bool,
}

/// A comment's text once clocks and times are taken out.
enum Leftover {
    None,
    /// A move's note (`{C: ...}`, prefix dropped) or a BughouseDB kibitz line (`R:`, `A:`,
    /// `L:`, kept whole; `C:` kept whole before the first move): kept, never a
    /// termination comment.
    Kibitz(String),
    /// The illegal-move mark (`C: Illegal: <rule>; <note>`, or the older `Illegal: <rule>`):
    /// the whole text, and the move's note after the rule if any. On a move that is legal
    /// after all it is an ordinary note (the whole text).
    Illegal {
        whole: String,
        note: Option<String>,
    },
    Text(String),
}

impl Leftover {
    /// The text this leaves as the move's comment, the move being illegal or not.
    fn into_comment(self, move_is_illegal: bool) -> Option<String> {
        match self {
            Leftover::None => None,
            Leftover::Kibitz(t) | Leftover::Text(t) => Some(t),
            Leftover::Illegal { note, .. } if move_is_illegal => note,
            Leftover::Illegal { whole, .. } => Some(whole),
        }
    }
}

struct Replay {
    game: Match,
    header: BpgnHeader,
    /// The board of the last move number (a move without a number continues there).
    board: Option<BoardId>,
    /// Comments before the first move.
    pre_comments: Vec<(Leftover, Pos)>,
    termination: Option<(String, Pos)>,
    result_token: Option<String>,
}

impl Replay {
    fn run(&mut self, tokens: &[Lexeme]) -> Result<(), BpgnError> {
        let mut i = 0;
        while let Some(token) = tokens.get(i) {
            i += 1;
            match &token.kind {
                LexemeKind::MoveNumber { number, seat } => {
                    self.number(*number, *seat, token.pos)?
                }
                LexemeKind::Move(text) => {
                    // The comments and annotations that follow belong to this move; the
                    // last text comment before the result is the termination comment.
                    let mut comments = Vec::new();
                    while let Some(next) = tokens.get(i) {
                        match &next.kind {
                            LexemeKind::Comment(c) => comments.push((c.as_str(), next.pos)),
                            LexemeKind::Nag(_) => {}
                            _ => break,
                        }
                        i += 1;
                    }
                    let last = !tokens
                        .get(i)
                        .is_some_and(|t| !matches!(t.kind, LexemeKind::Result(_)));
                    self.play(text, token.pos, &comments, last)?;
                }
                LexemeKind::Comment(text) => {
                    let mut notes = Notes::default();
                    let last = self.game.record().len().checked_sub(1);
                    let left = read_comment(text, false, last.is_some(), &mut notes);
                    match (last, left) {
                        (None, left) => self.pre_comments.push((left, token.pos)),
                        // Not right after its move: an illegal mark here is only a note.
                        (Some(index), left) => {
                            if let Some(t) = left.into_comment(false) {
                                self.append_comment(index, &t);
                            }
                        }
                    }
                }
                LexemeKind::Nag(_) => {}
                LexemeKind::Result(t) => self.result_token = Some(t.clone()),
            }
        }
        if self.game.record().is_empty() {
            // A game without moves: its last text comment is the termination comment.
            if let Some(at) = self
                .pre_comments
                .iter()
                .rposition(|(l, _)| matches!(l, Leftover::Text(_)))
            {
                let (left, pos) = self.pre_comments.remove(at);
                if let Leftover::Text(t) = left {
                    self.termination = Some((t, pos));
                }
            }
        }
        Ok(())
    }

    fn number(&mut self, number: u32, seat: Option<Seat>, pos: Pos) -> Result<(), BpgnError> {
        let (board, color, written) = match seat {
            Some(s) => (s.board, Some(s.color), format!("{number}{}", s.letter())),
            None if !self.game.rules().is_bughouse() => (BoardId::A, None, format!("{number}.")),
            None => {
                return Err(BpgnError::at(
                    pos,
                    format!(
                        "move number {number}. names no board (BPGN numbers moves 1A. 1a. 1B. 1b.)"
                    ),
                ));
            }
        };
        if !self.game.board_ids().contains(&board) {
            return Err(BpgnError::at(
                pos,
                format!(
                    "move number {written}: board {board} is not played under a single-board preset"
                ),
            ));
        }
        let state = self.game.board(board);
        if let Some(c) = color
            && state.turn() != c
        {
            return Err(BpgnError::at(
                pos,
                format!(
                    "move number {written} does not match: board {board} has {} to move",
                    color_name(state.turn())
                ),
            ));
        }
        if state.fullmoves() != number {
            return Err(BpgnError::at(
                pos,
                format!(
                    "move number {written} does not match: board {board} is at move {}",
                    state.fullmoves()
                ),
            ));
        }
        self.board = Some(board);
        Ok(())
    }

    fn play(
        &mut self,
        text: &str,
        pos: Pos,
        comments: &[(&str, Pos)],
        last: bool,
    ) -> Result<(), BpgnError> {
        let Some(board) = self.board else {
            return Err(BpgnError::at(
                pos,
                format!("move {text} has no move number (which board?)"),
            ));
        };
        let mut notes = Notes::default();
        let mut left: Vec<(Leftover, Pos)> = comments
            .iter()
            .enumerate()
            .map(|(k, (c, p))| (read_comment(c, k == 0, true, &mut notes), *p))
            .collect();
        if last
            && let Some(at) = left
                .iter()
                .rposition(|(l, _)| matches!(l, Leftover::Text(_)))
        {
            let (l, p) = left.remove(at);
            if let Leftover::Text(t) = l {
                self.termination = Some((t, p));
            }
        }
        let state = self.game.board(board);
        let rules = self.game.rules();
        let after_the_end = |game: &Match| {
            game.result().map(|r| {
                BpgnError::at(
                    pos,
                    format!(
                        "move {text} on board {board} after the end of the match ({})",
                        r.describe(&|s| s.tag().to_owned())
                    ),
                )
            })
        };
        let mv = resolve(state, rules, text).map_err(|f| {
            if let Some(e) = after_the_end(&self.game) {
                return e;
            }
            BpgnError::at(
                pos,
                match f {
                    MoveFailure::Unreadable => {
                        format!("unreadable move \"{text}\" on board {board}")
                    }
                    MoveFailure::Ambiguous => {
                        format!("ambiguous move {text} on board {board}: {}", f.describe())
                    }
                    MoveFailure::Impossible(why) => {
                        format!("illegal move {text} on board {board}: {why}")
                    }
                },
            )
        })?;
        let judged = state.judge(rules, mv);
        if let Legality::Illegal(reason) = judged
            && !notes.illegal
        {
            if let Some(e) = after_the_end(&self.game) {
                return Err(e);
            }
            return Err(BpgnError::at(
                pos,
                format!(
                    "illegal move {text} on board {board}: {}",
                    illegal_why(reason, mv)
                ),
            ));
        }
        let stood = matches!(judged, Legality::Illegal(_));
        let comment: Vec<String> = left
            .into_iter()
            .filter_map(|(l, _)| l.into_comment(stood))
            .collect();
        let meta = PlyMeta {
            t_ms: notes.t_ms,
            clock_ms: notes.clock_ms,
            comment: (!comment.is_empty()).then(|| comment.join(" ")),
        };
        let played = self.game.play(board, mv, meta);
        match played {
            Ok(_) => Ok(()),
            Err(PlayError::MatchOver) if self.game.result().is_some() => {
                Err(after_the_end(&self.game)
                    .unwrap_or_else(|| BpgnError::at(pos, "the match is over")))
            }
            Err(e) => Err(BpgnError::at(
                pos,
                format!("cannot play {text} on board {board}: {e}"),
            )),
        }
    }

    fn append_comment(&mut self, index: usize, text: &str) {
        let joined = match self
            .game
            .record()
            .get(index)
            .and_then(|p| p.meta.comment.clone())
        {
            Some(old) => format!("{old} {text}"),
            None => text.to_owned(),
        };
        // The index is the last ply's, so this cannot fail.
        let _ = self.game.set_comment(index, Some(joined));
    }

    /// Works out the result and builds the game.
    fn finish(mut self, raw: &RawGame) -> Result<ReadGame, BpgnError> {
        let names = self.header.players.clone();
        let boards = self.game.board_ids();
        let lookup = |text: &str| seat_by_name(&names, boards, text);
        let parsed = self
            .termination
            .as_ref()
            .and_then(|(t, p)| parse_reason(t, &lookup).map(|r| (r, *p)));
        let t_ms = self.game.record().last().and_then(|p| p.meta.t_ms);
        if let Some(board_result) = self.game.result().cloned() {
            // The board decided (a mate): the file must not say otherwise.
            if let Some(((reason, _), pos)) = &parsed
                && *reason != board_result.reason
            {
                let said = self.termination.as_ref().map_or("", |(t, _)| t.as_str());
                return Err(BpgnError::at(
                    *pos,
                    format!(
                        "the termination comment says \"{said}\", but the moves end with {}",
                        board_result.describe(&|s| s.tag().to_owned())
                    ),
                ));
            }
        } else if let Some(((reason, winner_only), _)) = parsed {
            let winner = implied_winner(&reason).unwrap_or(winner_only);
            self.game.declare(MatchResult {
                winner,
                reason,
                t_ms,
            });
        } else if let Some(mut outcome) = raw.tag("Outcome").and_then(|t| parse_outcome(&t.value)) {
            outcome.t_ms = t_ms;
            self.game.declare(outcome);
        } else if let Some(winner) = self.result_token.as_deref().and_then(token_winner) {
            // Only the Result token: read as team-relative, Tandem's convention.
            let winner_text = match (&self.termination, winner) {
                (Some((t, _)), _) => t.clone(),
                (None, Some(team)) => format!("{} won", team_words(team)),
                (None, None) => "Draw".to_owned(),
            };
            self.game.declare(MatchResult {
                winner,
                reason: EndReason::TdDecision { winner_text },
                t_ms,
            });
        }
        self.header.comments = self
            .pre_comments
            .into_iter()
            .filter_map(|(l, _)| l.into_comment(false))
            .collect();
        Ok(ReadGame {
            header: self.header,
            tags: raw
                .tags
                .iter()
                .map(|t| (t.name.clone(), t.value.clone()))
                .collect(),
            result: self.game.result().cloned(),
            game: self.game,
            result_token: self.result_token,
            termination: self.termination.map(|(t, _)| t),
            pos: raw.pos,
        })
    }
}

/// The rule as the error message gives it; a missing drop piece is named.
fn illegal_why(reason: IllegalReason, mv: Move) -> String {
    match (reason, mv) {
        (IllegalReason::NotInReserve, Move::Put { role, .. }) => {
            format!("drop of a {} not in reserve", role_name(role))
        }
        (reason, _) => reason.describe().to_owned(),
    }
}

/// The seat a name in a termination comment stands for: a player's name when it names
/// one seat only, else a seat tag (`BlackB`, Lieven's `BB`).
fn seat_by_name(names: &[String; 4], boards: &[BoardId], text: &str) -> Option<Seat> {
    let seats = || Seat::ALL.into_iter().filter(|s| boards.contains(&s.board));
    let text = text.trim();
    let mut named = seats().filter(|s| names.get(s.index()).is_some_and(|n| n.trim() == text));
    match (named.next(), named.next()) {
        (Some(s), None) if text != "?" && !text.is_empty() => Some(s),
        (Some(_), Some(_)) => None,
        _ => seat_by_tag(text).filter(|s| boards.contains(&s.board)),
    }
}

/// Takes clocks (`{118.585}` as the first comment, `[%clk 0:01:58.5]`) and times
/// (`[ts=1.234]`) out of a comment, and tells a move's note (`C: ...`, `after_move`) and
/// the illegal mark from other text.
fn read_comment(text: &str, first: bool, after_move: bool, notes: &mut Notes) -> Leftover {
    let text = text.trim();
    if first
        && notes.clock_ms.is_none()
        && let Some(ms) = parse_seconds(text)
    {
        notes.clock_ms = Some(ms);
        return Leftover::None;
    }
    if after_move {
        // `C: Illegal: <rule>; <note>`, `C: <note>`, and the older `Illegal: <rule>`.
        let note = text.strip_prefix("C:").map(str::trim_start);
        let body = note.unwrap_or(text);
        if body
            .get(..8)
            .is_some_and(|p| p.eq_ignore_ascii_case("illegal:"))
        {
            notes.illegal = true;
            let after_rule = body
                .split_once("; ")
                .map(|(_, n)| n.trim().to_owned())
                .filter(|n| !n.is_empty());
            return Leftover::Illegal {
                whole: body.to_owned(),
                note: after_rule,
            };
        }
        if let Some(note) = note {
            return if note.is_empty() {
                Leftover::None
            } else {
                Leftover::Kibitz(note.to_owned())
            };
        }
    }
    let mut rest = text.to_owned();
    if let Some((value, without)) = take_command(&rest, "[%clk") {
        if let Some(ms) = parse_hms(&value) {
            notes.clock_ms = Some(ms);
        }
        rest = without;
    }
    if let Some((value, without)) = take_command(&rest, "[ts=") {
        if let Some(ms) = parse_seconds(&value) {
            notes.t_ms = Some(ms);
        }
        rest = without;
    }
    let rest = rest.split_whitespace().collect::<Vec<_>>().join(" ");
    if rest.is_empty() {
        Leftover::None
    } else if ["C:", "R:", "A:", "L:"].iter().any(|p| rest.starts_with(p)) {
        Leftover::Kibitz(rest)
    } else {
        Leftover::Text(rest)
    }
}

/// Finds `[name value]` in `text`: the value and the text without it.
fn take_command(text: &str, opening: &str) -> Option<(String, String)> {
    let start = text.find(opening)?;
    let after = text.get(start + opening.len()..)?;
    let end = after.find(']')?;
    let value = after.get(..end)?.trim().to_owned();
    let without = format!(
        "{} {}",
        text.get(..start)?,
        after.get(end + 1..).unwrap_or("")
    );
    Some((value, without))
}

/// `118.585`, `180`, `0.5`: seconds (up to millisecond precision) as ms.
fn parse_seconds(text: &str) -> Option<u64> {
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if !frac.bytes().all(|b| b.is_ascii_digit()) || (frac.is_empty() && text.ends_with('.')) {
        return None;
    }
    let secs: u64 = whole.parse().ok()?;
    let mut ms = 0u64;
    let mut scale = 100u64;
    for b in frac.bytes().take(3) {
        ms += u64::from(b - b'0') * scale;
        scale /= 10;
    }
    secs.checked_mul(1000)?.checked_add(ms)
}

/// `0:04:58.3`, `4:58`, `58.3`: a clock reading as ms.
fn parse_hms(text: &str) -> Option<u64> {
    let parts: Vec<&str> = text.split(':').collect();
    let (h, m, s) = match parts.as_slice() {
        [h, m, s] => (*h, *m, *s),
        [m, s] => ("0", *m, *s),
        [s] => ("0", "0", *s),
        _ => return None,
    };
    let h: u64 = h.parse().ok()?;
    let m: u64 = m.parse().ok()?;
    let s = parse_seconds(s)?;
    h.checked_mul(3_600_000)?
        .checked_add(m.checked_mul(60_000)?)?
        .checked_add(s)
}

/// `300+0`, `300` (bughouse.pro), `300d2` (delay), in seconds.
fn parse_time_control(text: &str) -> Option<TimeControl> {
    let text = text.trim();
    let secs = |s: &str| -> Option<u64> { s.trim().parse::<u64>().ok()?.checked_mul(1000) };
    let (base, increment, delay) = if let Some((b, d)) = text.split_once('d') {
        (secs(b)?, 0, secs(d)?)
    } else if let Some((b, i)) = text.split_once('+') {
        (secs(b)?, secs(i)?, 0)
    } else {
        (secs(text)?, 0, 0)
    };
    Some(TimeControl {
        base_ms: base,
        increment_ms: increment,
        delay_ms: delay,
    })
}

/// The boards' start positions: standard, or `[FEN "<A> | <B>"]`.
fn start_positions(raw: &RawGame, rules: &RulesPreset) -> Result<[BoardState; 2], BpgnError> {
    let mut start = [BoardState::start(), BoardState::start()];
    let Some(tag) = raw.tag("FEN") else {
        return Ok(start);
    };
    let fens: Vec<&str> = tag.value.split('|').map(str::trim).collect();
    let boards: &[BoardId] = if rules.is_bughouse() {
        &BoardId::BOTH
    } else {
        &[BoardId::A]
    };
    if fens.len() != boards.len() {
        return Err(BpgnError::at(
            tag.pos,
            format!(
                "FEN: {} position(s) for {} board(s) (bughouse writes \"<A> | <B>\")",
                fens.len(),
                boards.len()
            ),
        ));
    }
    for (&board, fen) in boards.iter().zip(fens) {
        let state = BoardState::from_fen(fen)
            .map_err(|e| BpgnError::at(tag.pos, format!("FEN of board {board}: {e}")))?;
        if let Some(slot) = start.get_mut(board.index()) {
            *slot = state;
        }
    }
    Ok(start)
}

fn header_from_tags(raw: &RawGame) -> BpgnHeader {
    let get = |name: &str| raw.tag(name).map(|t| t.value.clone());
    let mut header = BpgnHeader {
        event: get("Event").unwrap_or_default(),
        site: get("Site").unwrap_or_default(),
        date: get("Date")
            .or_else(|| get("UTCDate"))
            .map(|d| d.trim().replace(['-', '/'], "."))
            .unwrap_or_default(),
        round: get("Round").unwrap_or_default(),
        time: get("Time").or_else(|| get("UTCTime")),
        ..BpgnHeader::default()
    };
    for seat in Seat::ALL {
        header.set_player(seat, get(seat.tag()).unwrap_or_default());
    }
    header.extra = raw
        .tags
        .iter()
        .filter(|t| !is_own_tag(&t.name))
        .map(|t| (t.name.clone(), t.value.clone()))
        .collect();
    header
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_forms() {
        assert_eq!(parse_seconds("118.585"), Some(118_585));
        assert_eq!(parse_seconds("298.21"), Some(298_210));
        assert_eq!(parse_seconds("180"), Some(180_000));
        assert_eq!(parse_seconds("1.2345"), Some(1_234));
        assert_eq!(parse_seconds("1."), None);
        assert_eq!(parse_seconds(".5"), None);
        assert_eq!(parse_seconds("abc"), None);
        assert_eq!(parse_seconds("99999999999999999999"), None);
        assert_eq!(parse_hms("0:00:01.3"), Some(1_300));
        assert_eq!(parse_hms("1:02:03"), Some(3_723_000));
    }

    #[test]
    fn time_controls() {
        let tc = parse_time_control("60+0").unwrap();
        assert_eq!((tc.base_ms, tc.increment_ms, tc.delay_ms), (60_000, 0, 0));
        let tc = parse_time_control("300d2").unwrap();
        assert_eq!((tc.base_ms, tc.delay_ms), (300_000, 2_000));
        assert_eq!(parse_time_control("300").map(|t| t.base_ms), Some(300_000));
        assert_eq!(parse_time_control("-"), None);
    }
}
