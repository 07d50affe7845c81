//! A match in bughouse.pro's import dialect (`tandem bpgn convert --to bughouse-pro`).
//!
//! bughouse.pro (amatveiakin/bughouse-chess) imports BPGN with `pgn::import_from_bpgn`,
//! which replays every turn through its own rules. What it accepts, read from its source
//! (`src/pgn.rs`, `src/algebraic.rs`, `src/board.rs`, `src/game.rs`, `src/fen.rs`,
//! `src/clock.rs`, `src/rules.rs` at commit 6889e48), and what this module does about it:
//!
//! - Tags: `[Key "value"]` with no escapes (`BpgnHeader::parse`, `tokenize_bpgn`): a `"`
//!   in a value ends it, so values carry none. Required (`parse_meta`, `parse_rules`,
//!   `parse_players`, `parse_game_status`): `UTCDate` `YYYY.MM.DD`, `UTCTime` `HH:MM:SS`,
//!   an integer `Round`, `Event` (rated if it starts with "Rated"), `TimeControl` in plain
//!   seconds, `Variant` holding the word `Bughouse`, the four players, `Result`.
//!   Optional: `Promotion` (`Upgrade`/`Discard`/`Steal`), `DropAggression` (`No check`,
//!   `No chess mate`, `No bughouse mate`, `Mate allowed`), `PawnDropRanks` (`2-7`),
//!   `SetUp`+`FEN` (Shredder castling letters, `[...]` reserves, `~` promoted pieces),
//!   `Outcome` (must agree with `Result`), `GameDuration`.
//! - Movetext (`BpgnBody::parse`): only turns `12A. <move>`, each optionally followed by
//!   `{[key=value]}` addenda (`ts` = seconds since the start, exactly three decimals).
//!   Plain `{...}` comments are dropped by the tokenizer; `{[...]}` without `=` is an
//!   error. No Result token: any word after the last turn is read as a turn number.
//! - Moves (`AlgebraicTurn::parse`): drops `P@e3` (an explicit upper-case piece, no
//!   `+`/`#`), castling `O-O`/`O-O-O` (no `+`/`#`), moves with `=Q` promotion or `=.`
//!   removal. A move names its piece by *reach*, not legality (`Board::algebraic_to_turn`):
//!   two knights that can both jump to d2 are ambiguous even if one is pinned; `x` only on
//!   a capture (`CaptureNotationRequiresCapture`). Written here the way its own exporter
//!   does (`Board::turn_to_algebraic_impl`): no hint, then the rank, then the file, then
//!   both; pawn captures as `xd5` when that is enough.
//! - Replay (`import_from_bpgn` → `BughouseGame::try_turn`): every turn must be legal by
//!   its rules; the game ends on a true (bughouse) mate and on a threefold repetition
//!   (`Board::log_position_for_repetition_draw`: same pieces, side to move, castling
//!   rights, en-passant target, and number of drops on that board), and a turn after its
//!   end is refused (`TurnError::GameOver`). Moves Tandem recorded after a mate (a press
//!   reported late, Transfer Chess's second mate inside the window) are left out with a
//!   note; a match that goes on after a repetition is refused.
//! - Clocks (`Clock::new_turn`): a board's clock starts at its first turn or at the first
//!   turn on the other board; there is no increment; a turn at which the mover's clock
//!   would be at zero trips an assertion. Timestamps are written only when they replay
//!   inside that model.
//! - `Outcome` (`GameOutcome::from_pgn`): `<winners> won: <losers> checkmated` (or `lost
//!   on time`, `resigned`), `<winners> won, <losers> lost`, `Draw: simultaneous flags`,
//!   `Draw: both players checkmated`, `Draw`, `Unterminated`; each side is its team's
//!   player names joined by ` & ` and must equal that team's set of names.

use std::collections::HashMap;

use shakmaty::{Bitboard, Color, Move, Rank, Role, Square, attacks};

use super::outcome::result_token;
use super::write::{BpgnHeader, Wrapper, clock_seconds, event_tag, move_note, seconds};
use crate::BoardId;
use crate::rules::preset::NoDropRanks;
use crate::rules::{
    BoardState, DropMate, EndReason, Legality, Match, MatchResult, MateRule, Ply, PlyMeta,
    Promotion, RulesPreset, Seat, Team,
};

/// One match in bughouse.pro's dialect, with what did not travel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProExport {
    /// The BPGN text, ending with a newline.
    pub text: String,
    /// What was changed or left out, one sentence each (for the TD, on stderr).
    pub notes: Vec<String>,
}

/// Why bughouse.pro would refuse the match whatever the spelling.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProRefusal {
    #[error("bughouse.pro imports bughouse only; this match is single-board chess")]
    NotBughouse,
    #[error(
        "{ply}: an illegal move that stood ({why}); bughouse.pro replays every move through its rules and refuses it"
    )]
    IllegalMove { ply: String, why: String },
    #[error(
        "{ply}: bughouse.pro's game is already over here ({why}); it refuses every move after its end"
    )]
    AfterItsEnd { ply: String, why: String },
    #[error("{ply}: the record does not replay ({why})")]
    Unplayable { ply: String, why: String },
}

/// Writes `m` in bughouse.pro's import dialect. The text keeps the mover's clock and the
/// move notes as plain comments (bughouse.pro drops them; other readers keep them).
pub fn to_bughouse_pro(m: &Match, header: &BpgnHeader) -> Result<ProExport, ProRefusal> {
    let rules = m.rules();
    if !rules.is_bughouse() {
        return Err(ProRefusal::NotBughouse);
    }
    let mut notes = Vec::new();
    let turns = replay(m, &mut notes)?;
    let stamps = timestamps(m, turns.len(), &mut notes);
    let names = player_names(header, &mut notes);

    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", tag_value(value)));
    };
    tag("Event", &event_tag(&header.event, true));
    tag("Site", or_unknown(&header.site));
    let date = utc_date(&header.date).unwrap_or_else(|| {
        notes.push(format!(
            "no full date in the file (\"{}\"): UTCDate written as 1970.01.01, which bughouse.pro requires",
            header.date
        ));
        "1970.01.01".to_owned()
    });
    tag("UTCDate", &date);
    let time = header
        .time
        .as_deref()
        .and_then(utc_time)
        .unwrap_or_else(|| {
            notes.push("no start time in the file: UTCTime written as 00:00:00".to_owned());
            "00:00:00".to_owned()
        });
    tag("UTCTime", &time);
    tag("Round", &round(&header.round, &mut notes).to_string());
    for seat in Seat::ALL {
        tag(seat.tag(), &names[seat.index()]);
    }
    tag("TimeControl", &time_control(rules, &mut notes));
    tag("Variant", "Bughouse");
    for (name, value) in rule_tags(rules, &mut notes) {
        tag(name, &value);
    }
    if let Some(fen) = start_fen(m) {
        tag("SetUp", "1");
        tag("FEN", &fen);
    }
    let result = m.result();
    tag("Result", result_token(result));
    if let Some(t) = termination(result) {
        tag("Termination", t);
    }
    tag("Outcome", &outcome(result, &names));
    if let (Some(stamps), Some(end)) = (&stamps, result.and_then(|r| r.t_ms))
        && stamps.last().is_none_or(|&last| end >= last)
    {
        tag("GameDuration", &seconds(end));
    }

    let mut text = Wrapper::default();
    for (i, (ply, algebraic)) in m.record().iter().zip(&turns).enumerate() {
        let mut unit = format!("{}{}. {algebraic}", ply.number, ply.seat().letter());
        if let Some(ms) = ply.meta.clock_ms {
            unit.push_str(&format!("{{{}}}", clock_seconds(ms)));
        }
        text.word(&unit);
        if let Some(ts) = stamps.as_ref().and_then(|s| s.get(i)) {
            text.word(&format!("{{[ts={}]}}", seconds(*ts)));
        }
        if let Some(note) = move_note(ply) {
            text.comment(&note);
        }
    }
    text.newline();
    out.push_str(&text.finish());
    Ok(ProExport { text: out, notes })
}

/// `12A. Bc1c3` as the record has it, for messages.
fn label(ply: &Ply) -> String {
    format!("{}{}. {}", ply.number, ply.seat().letter(), ply.san)
}

/// Replays the record, spelling each ply bughouse.pro's way and refusing what its replay
/// would refuse: illegal moves, and moves after a repetition ended its game. Moves after
/// a mate are left out (noted): they can only be a press reported late or a second mate.
fn replay(m: &Match, notes: &mut Vec<String>) -> Result<Vec<String>, ProRefusal> {
    let rules = m.rules();
    // bughouse.pro's end of a board: a true mate, with any piece droppable anywhere empty
    // (`is_bughouse_mate_to` drops a queen on every empty square).
    let mut probe = rules.clone();
    probe.mate = MateRule::TrueMate;
    probe.no_drop_ranks = NoDropRanks::default();
    let start = [BoardId::A, BoardId::B].map(|b| m.start_position(b).clone());
    let mut game = Match::with_start(rules.clone(), start);
    let mut seen: [HashMap<String, u32>; 2] = Default::default();
    let mut drops = [0u32; 2];
    let mut over: Option<String> = None;
    let mut mated: Option<BoardId> = None;
    let mut turns = Vec::with_capacity(m.record().len());
    for (i, ply) in m.record().iter().enumerate() {
        if let Some(board) = mated {
            let after = m.record().len() - i - 1;
            notes.push(format!(
                "left out {} and the {after} move(s) after it: bughouse.pro's game ends at the checkmate on board {board}",
                label(ply)
            ));
            break;
        }
        if let Some(why) = &over {
            return Err(ProRefusal::AfterItsEnd {
                ply: label(ply),
                why: why.clone(),
            });
        }
        match &ply.legality {
            Legality::Legal => {}
            Legality::Illegal(reason) => {
                return Err(ProRefusal::IllegalMove {
                    ply: label(ply),
                    why: reason.describe().to_owned(),
                });
            }
            Legality::Unjudged => {
                return Err(ProRefusal::IllegalMove {
                    ply: label(ply),
                    why: "played after an illegal move, in a position the rules cannot judge"
                        .to_owned(),
                });
            }
        }
        let b = ply.board.index();
        turns.push(algebraic(game.board(ply.board), ply));
        game.play(ply.board, ply.mv, PlyMeta::default())
            .map_err(|e| ProRefusal::Unplayable {
                ply: label(ply),
                why: e.to_string(),
            })?;
        if ply.mv.is_put() {
            drops[b] += 1;
        }
        let state = game.board(ply.board);
        if state.is_true_mate(&probe) {
            mated = Some(ply.board);
        }
        let count = seen[b]
            .entry(repetition_key(state, ply.mv, drops[b]))
            .or_insert(0);
        *count += 1;
        if *count >= 3 {
            over = Some(format!(
                "threefold repetition on board {}, counted with the number of drops",
                ply.board
            ));
        }
    }
    Ok(turns)
}

/// The position as bughouse.pro counts it for repetition: pieces, side to move, castling
/// rights, the en-passant target (set after every double step), drops made on the board.
fn repetition_key(state: &BoardState, mv: Move, drops: u32) -> String {
    // Only a pawn's double step has a square between its squares.
    let ep = match mv {
        Move::Normal {
            role: Role::Pawn,
            from,
            to,
            ..
        } => shakmaty::attacks::between(from, to)
            .first()
            .map_or_else(|| "-".to_owned(), |middle| middle.to_string()),
        _ => "-".to_owned(),
    };
    format!(
        "{} {:?} {:x} {ep} {drops}",
        state.board(),
        state.turn(),
        u64::from(state.castling_rights())
    )
}

/// The ply in bughouse.pro's algebraic notation, on `state` (the board before it).
fn algebraic(state: &BoardState, ply: &Ply) -> String {
    match ply.mv {
        Move::Put { role, to } => format!("{}@{to}", role.upper_char()),
        Move::Castle { king, rook } => {
            if rook.file() > king.file() {
                "O-O".to_owned()
            } else {
                "O-O-O".to_owned()
            }
        }
        Move::EnPassant { from, to } => piece_move(state, Role::Pawn, from, to, true, ""),
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            let suffix = match (ply.removed_pawn, promotion) {
                (true, _) => "=.".to_owned(),
                (false, Some(r)) => format!("={}", r.upper_char()),
                (false, None) => String::new(),
            };
            piece_move(state, role, from, to, capture.is_some(), &suffix)
        }
    }
}

/// `Nbd2`, `N1d2`, `xd5`: the piece letter, then the least hint that makes the move
/// unambiguous by reach, in bughouse.pro's order (none, rank, file, both).
fn piece_move(
    state: &BoardState,
    role: Role,
    from: Square,
    to: Square,
    capture: bool,
    suffix: &str,
) -> String {
    let color = state.turn();
    let board = state.board();
    let reaching: Vec<Square> = (board.by_color(color) & board.by_role(role))
        .into_iter()
        .filter(|&sq| reaches(state, color, role, sq, to, capture))
        .collect();
    let hints = [(false, false), (false, true), (true, false), (true, true)];
    let (file, rank) = hints
        .into_iter()
        .find(|&(f, r)| {
            let mut matching = reaching
                .iter()
                .filter(|sq| (!f || sq.file() == from.file()) && (!r || sq.rank() == from.rank()));
            matching.next() == Some(&from) && matching.next().is_none()
        })
        .unwrap_or((true, true));
    let mut s = String::new();
    if role != Role::Pawn {
        s.push(role.upper_char());
    }
    if file {
        s.push(from.file().char());
    }
    if rank {
        s.push(from.rank().char());
    }
    if capture {
        s.push('x');
    }
    s.push_str(&to.to_string());
    s.push_str(suffix);
    s
}

/// Can the piece on `from` get to `to` as bughouse.pro's `reachability` sees it: the
/// path clear and `to` not our own piece, pins and checks ignored; a pawn diagonally when
/// the move captures, straight ahead (two from its first two ranks) when it does not.
fn reaches(
    state: &BoardState,
    color: Color,
    role: Role,
    from: Square,
    to: Square,
    capture: bool,
) -> bool {
    let board = state.board();
    if board.color_at(to) == Some(color) {
        return false;
    }
    let occupied = board.occupied();
    match role {
        Role::Pawn if capture => attacks::pawn_attacks(color, from).contains(to),
        Role::Pawn => {
            if from.file() != to.file() || occupied.contains(to) {
                return false;
            }
            let step: i32 = if color.is_white() { 8 } else { -8 };
            let Some(one) = from.offset(step) else {
                return false;
            };
            if one == to {
                return true;
            }
            let own_rank = match color {
                Color::White => u32::from(from.rank()) + 1,
                Color::Black => 8 - u32::from(from.rank()),
            };
            own_rank <= 2 && !occupied.contains(one) && from.offset(2 * step) == Some(to)
        }
        _ => attacks::attacks(from, role.of(color), occupied).contains(to),
    }
}

/// `[ts=]` times for every ply, when bughouse.pro's clocks replay them: every ply has a
/// match time, times never go back, no increment or delay, and no mover's clock reaches
/// zero in its model (`Clock::new_turn` asserts it does not).
fn timestamps(m: &Match, plies: usize, notes: &mut Vec<String>) -> Option<Vec<u64>> {
    let record = m.record().get(..plies)?;
    if record.is_empty() {
        return None;
    }
    let Some(times) = record
        .iter()
        .map(|p| p.meta.t_ms)
        .collect::<Option<Vec<u64>>>()
    else {
        notes.push(
            "no match times ([ts=]) in the source: written without timestamps, so bughouse.pro replays it without clocks"
                .to_owned(),
        );
        return None;
    };
    let tc = m.rules().time_control;
    if tc.increment_ms > 0 || tc.delay_ms > 0 {
        notes.push(
            "bughouse.pro's clocks have no increment or delay: written without timestamps"
                .to_owned(),
        );
        return None;
    }
    // Per board: the running clock (colour, since) and each colour's time left.
    let mut running: [Option<(Color, u64)>; 2] = [None, None];
    let mut left = [[tc.base_ms; 2]; 2];
    let mut to_move = [BoardId::A, BoardId::B].map(|b| m.start_position(b).turn());
    let mut last = 0;
    for (ply, &now) in record.iter().zip(&times) {
        if now < last {
            notes.push(format!(
                "{}: its match time goes back: written without timestamps",
                label(ply)
            ));
            return None;
        }
        last = now;
        let b = ply.board.index();
        if let Some((color, since)) = running[b] {
            let slot = &mut left[b][usize::from(color.is_black())];
            let used = now - since;
            if used >= *slot {
                notes.push(format!(
                    "{}: bughouse.pro's clock (no increment, started at each board's first move) would be at zero: written without timestamps",
                    label(ply)
                ));
                return None;
            }
            *slot -= used;
        }
        to_move[b] = !ply.color;
        running[b] = Some((to_move[b], now));
        let o = 1 - b;
        if running[o].is_none() {
            running[o] = Some((to_move[o], now));
        }
    }
    Some(times)
}

/// Player names bughouse.pro can match back to teams: no `"` (it ends the tag) or `&` (it
/// separates names in the Outcome), none blank or `?` (the seat's tag instead), and no
/// name on both teams (the seat's tag added).
fn player_names(header: &BpgnHeader, notes: &mut Vec<String>) -> [String; 4] {
    let mut names = Seat::ALL.map(|seat| {
        let name = header
            .player(seat)
            .trim()
            .replace('"', "'")
            .replace('&', "+");
        if name.is_empty() || name == "?" {
            seat.tag().to_owned()
        } else {
            name
        }
    });
    let clash = |names: &[String; 4], seat: Seat| {
        Seat::ALL
            .into_iter()
            .any(|s| s.team() != seat.team() && names[s.index()] == names[seat.index()])
    };
    let clashing: Vec<Seat> = Seat::ALL
        .into_iter()
        .filter(|&s| clash(&names, s))
        .collect();
    for seat in clashing {
        let name = format!("{} ({})", names[seat.index()], seat.tag());
        notes.push(format!(
            "\"{}\" plays on both teams: written as \"{name}\" so that bughouse.pro can tell the teams apart",
            names[seat.index()]
        ));
        names[seat.index()] = name;
    }
    names
}

/// A team's players as the Outcome names them: board A's seat, then board B's (one name
/// for a player on both boards).
fn team_names(names: &[String; 4], team: Team) -> String {
    let mut players: Vec<&str> = Vec::new();
    for seat in team.seats() {
        let name = names[seat.index()].as_str();
        if !players.contains(&name) {
            players.push(name);
        }
    }
    players.join(" & ")
}

/// bughouse.pro's `Outcome` wording (`GameOutcome::to_pgn`).
fn outcome(result: Option<&MatchResult>, names: &[String; 4]) -> String {
    let Some(r) = result else {
        return "Unterminated".to_owned();
    };
    match r.winner {
        Some(team) => {
            let won = team_names(names, team);
            let lost = team_names(names, team.other());
            match r.reason {
                EndReason::Checkmate { .. } => format!("{won} won: {lost} checkmated"),
                EndReason::Flag { .. } => format!("{won} won: {lost} lost on time"),
                EndReason::Resignation { .. } => format!("{won} won: {lost} resigned"),
                _ => format!("{won} won, {lost} lost"),
            }
        }
        None => match r.reason {
            EndReason::SimultaneousMates => "Draw: both players checkmated".to_owned(),
            EndReason::BothFlags { .. } => "Draw: simultaneous flags".to_owned(),
            _ => "Draw".to_owned(),
        },
    }
}

/// bughouse.pro's `Termination` (`make_termination_string`); none for a reason it has no
/// word for.
fn termination(result: Option<&MatchResult>) -> Option<&'static str> {
    let Some(r) = result else {
        return Some("unterminated");
    };
    match (&r.reason, r.winner) {
        (EndReason::Checkmate { .. } | EndReason::Resignation { .. }, Some(_)) => Some("normal"),
        (EndReason::Flag { .. }, Some(_)) => Some("time forfeit"),
        (EndReason::SimultaneousMates | EndReason::BothFlags { .. }, None) => Some("normal"),
        _ => None,
    }
}

/// The rule tags bughouse.pro reads, and notes on the rules it has no tag for.
fn rule_tags(rules: &RulesPreset, notes: &mut Vec<String>) -> Vec<(&'static str, String)> {
    let promotion = match rules.promotion {
        Promotion::Upgrade => {
            if rules.promotion_roles.len() < 4 {
                notes.push(
                    "bughouse.pro has no tag for the pieces a pawn may become; it allows any"
                        .to_owned(),
                );
            }
            "Upgrade"
        }
        Promotion::Removal => "Discard",
    };
    let aggression = match (rules.drop_mate, rules.mate) {
        (DropMate::Allowed, _) => "Mate allowed",
        (DropMate::Forbidden, MateRule::TrueMate) => "No bughouse mate",
        (DropMate::Forbidden, MateRule::ChessMate) => "No chess mate",
    };
    if !rules.no_drop_ranks.white.is_empty() || !rules.no_drop_ranks.black.is_empty() {
        notes.push(
            "bughouse.pro has no tag for ranks where a colour may drop no piece; it allows those drops"
                .to_owned(),
        );
    }
    let r = rules.pawn_drop_ranks;
    vec![
        ("Promotion", promotion.to_owned()),
        ("DropAggression", aggression.to_owned()),
        ("PawnDropRanks", format!("{}-{}", r.min, r.max)),
    ]
}

/// Plain seconds: bughouse.pro has no increment or delay.
fn time_control(rules: &RulesPreset, notes: &mut Vec<String>) -> String {
    let tc = rules.time_control;
    if tc.increment_ms > 0 || tc.delay_ms > 0 {
        notes.push(format!(
            "time control {}: bughouse.pro has no increment or delay; written as {} s",
            tc.bpgn(),
            tc.base_ms / 1000
        ));
    }
    (tc.base_ms / 1000).to_string()
}

/// The integer bughouse.pro wants: the round's number (`3`, or `3` of `3.1`), else 0.
fn round(text: &str, notes: &mut Vec<String>) -> u64 {
    let text = text.trim();
    let first = text.split('.').next().unwrap_or("");
    match first.parse() {
        Ok(n) => n,
        Err(_) => {
            if !matches!(text, "" | "-" | "?") {
                notes.push(format!(
                    "round \"{text}\" is not a number: Round written as 0"
                ));
            }
            0
        }
    }
}

/// `2024.05.01` (a full, valid date), from the header's date.
fn utc_date(date: &str) -> Option<String> {
    let parts: Vec<&str> = date.trim().split(['.', '-', '/']).collect();
    let [y, mo, d] = parts.as_slice() else {
        return None;
    };
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(y, 4) || !digits(mo, 2) || !digits(d, 2) {
        return None;
    }
    let (year, month, day): (u32, u32, u32) = (y.parse().ok()?, mo.parse().ok()?, d.parse().ok()?);
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    (1..=days).contains(&day).then(|| format!("{y}.{mo}.{d}"))
}

/// `07:05:09` from `7:05:09` or `07:05:09`.
fn utc_time(time: &str) -> Option<String> {
    let parts: Vec<u32> = time
        .trim()
        .split(':')
        .map(|p| {
            (!p.is_empty() && p.len() <= 2 && p.bytes().all(|b| b.is_ascii_digit()))
                .then(|| p.parse().ok())
                .flatten()
        })
        .collect::<Option<_>>()?;
    match parts.as_slice() {
        [h, m, s] if *h < 24 && *m < 60 && *s < 60 => Some(format!("{h:02}:{m:02}:{s:02}")),
        _ => None,
    }
}

fn or_unknown(value: &str) -> &str {
    if value.trim().is_empty() { "?" } else { value }
}

/// A tag value bughouse.pro reads whole: one line, no `"`.
fn tag_value(value: &str) -> String {
    value
        .chars()
        .map(|c| match c {
            '"' => '\'',
            '\n' | '\r' => ' ',
            c => c,
        })
        .collect()
}

/// `<A> | <B>` in bughouse.pro's FEN (Shredder castling letters) when a board did not
/// start from the standard position.
fn start_fen(m: &Match) -> Option<String> {
    let standard = BoardState::start();
    let boards = [BoardId::A, BoardId::B];
    if boards.iter().all(|&b| *m.start_position(b) == standard) {
        return None;
    }
    Some(
        boards
            .iter()
            .map(|&b| shredder_fen(m.start_position(b)))
            .collect::<Vec<_>>()
            .join(" | "),
    )
}

/// The board's FEN with the castling field as the rooks' files (`AHah`), which is what
/// bughouse.pro's `castling_rights_from_fen` reads.
fn shredder_fen(state: &BoardState) -> String {
    let fen = state.fen();
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_owned).collect();
    if let Some(castling) = fields.get_mut(2) {
        *castling = shredder_castling(state.castling_rights());
    }
    fields.join(" ")
}

fn shredder_castling(rights: Bitboard) -> String {
    let white = rights & Bitboard::from_rank(Rank::First);
    let black = rights & Bitboard::from_rank(Rank::Eighth);
    let letters: String = white
        .into_iter()
        .map(|sq| sq.file().upper_char())
        .chain(black.into_iter().map(|sq| sq.file().char()))
        .collect();
    if letters.is_empty() {
        "-".to_owned()
    } else {
        letters
    }
}
