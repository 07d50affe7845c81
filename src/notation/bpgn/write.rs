//! The BPGN writer: FICS/BughouseDB style plus rule tags, deterministic.

use crate::rules::{BoardState, DropMate, Legality, Match, Ply, Promotion, RulesPreset, Seat};

use super::outcome::{outcome_tag, result_token, termination_tag};

/// Movetext lines are wrapped before this column.
const LINE_WIDTH: usize = 80;

/// What the BPGN says about a match beyond its moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BpgnHeader {
    pub event: String,
    pub site: String,
    /// `YYYY.MM.DD` (dashes and slashes are written as dots); empty: unknown.
    pub date: String,
    /// Empty: `-` (not applicable).
    pub round: String,
    /// Local time of the start, `HH:MM:SS`, if known.
    pub time: Option<String>,
    /// Player names by seat, in [`Seat::index`] order: WhiteA, BlackA, WhiteB, BlackB.
    pub players: [String; 4],
    /// Other tags, written after Tandem's own, in this order (e.g. `WhiteAElo`, `Lag`).
    /// Tags Tandem writes itself are skipped here.
    pub extra: Vec<(String, String)>,
    /// Comments before the first move (e.g. BughouseDB's `C: This is game number ...`).
    pub comments: Vec<String>,
}

impl BpgnHeader {
    #[must_use]
    pub fn player(&self, seat: Seat) -> &str {
        self.players.get(seat.index()).map_or("", String::as_str)
    }

    pub fn set_player(&mut self, seat: Seat, name: impl Into<String>) {
        if let Some(slot) = self.players.get_mut(seat.index()) {
            *slot = name.into();
        }
    }
}

/// The tags [`write_bpgn`] writes itself (never taken from [`BpgnHeader::extra`]).
pub(crate) const OWN_TAGS: [&str; 22] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "WhiteA",
    "BlackA",
    "WhiteB",
    "BlackB",
    "Result",
    "Time",
    "TimeControl",
    "Variant",
    "Rules",
    "Promotion",
    "PromotionPieces",
    "DropMate",
    "PawnDropRanks",
    "DropForbiddenRanks",
    "Termination",
    "Outcome",
    "SetUp",
    "FEN",
];

pub(crate) fn is_own_tag(name: &str) -> bool {
    OWN_TAGS.iter().any(|t| t.eq_ignore_ascii_case(name))
}

/// Writes one match as BPGN: tags, a blank line, movetext in real-time order wrapped at
/// 80 columns, the termination comment and the team-relative Result token.
#[must_use]
pub fn write_bpgn(m: &Match, header: &BpgnHeader) -> String {
    let rules = m.rules();
    let result = m.result();
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out.push('[');
        out.push_str(name);
        out.push_str(" \"");
        out.push_str(&escape(value));
        out.push_str("\"]\n");
    };
    let seats: Vec<(String, String)> = m
        .board_ids()
        .iter()
        .flat_map(|&b| Seat::ALL.into_iter().filter(move |s| s.board == b))
        .map(|s| (s.tag().to_owned(), header.player(s).to_owned()))
        .collect();
    for (name, value) in header_tags(header, rules, &seats, result_token(result)) {
        tag(&name, &value);
    }
    tag("Termination", termination_tag(result));
    if let Some(r) = result {
        tag("Outcome", &outcome_tag(r));
    }
    if let Some(fen) = start_fen(m) {
        tag("SetUp", "1");
        tag("FEN", &fen);
    }
    for (name, value) in &header.extra {
        if !is_own_tag(name) && is_tag_name(name) {
            tag(name, value);
        }
    }
    out.push('\n');

    let mut text = Wrapper::default();
    if let Some(note) = opening_note(&header.comments) {
        text.comment(&note);
    }
    text.newline();
    for ply in m.record() {
        let mut unit = format!("{}{}. {}", ply.number, ply.seat().letter(), ply.san);
        if let Some(ms) = ply.meta.clock_ms {
            unit.push('{');
            unit.push_str(&clock_seconds(ms));
            unit.push('}');
        }
        text.word(&unit);
        if let Some(note) = move_note(ply) {
            text.comment(&note);
        }
    }
    let termination = match result {
        Some(r) => r.describe(&|seat| display_name(header, m, seat)),
        None => "Unfinished".to_owned(),
    };
    // On a line of its own, as FICS writes it.
    text.newline();
    text.comment(&termination);
    text.word(result_token(result));
    out.push_str(&text.finish());
    out.push('\n');
    out
}

/// The tags every record of Tandem's starts with, in order: Event, Site, Date, Round, the
/// players (`seats`: tag and name, `?` for a name not given), Result, Time, TimeControl,
/// Variant, Rules and the rule tags.
pub(crate) fn header_tags(
    header: &BpgnHeader,
    rules: &RulesPreset,
    seats: &[(String, String)],
    result: &str,
) -> Vec<(String, String)> {
    let mut tags: Vec<(String, String)> = vec![
        (
            "Event".into(),
            event_tag(&header.event, rules.is_bughouse()),
        ),
        ("Site".into(), or(&header.site, "?").to_owned()),
        ("Date".into(), date(&header.date)),
        ("Round".into(), or(&header.round, "-").to_owned()),
    ];
    for (name, player) in seats {
        tags.push((name.clone(), or(player, "?").to_owned()));
    }
    tags.push(("Result".into(), result.to_owned()));
    if let Some(time) = &header.time {
        tags.push(("Time".into(), time.clone()));
    }
    tags.push(("TimeControl".into(), rules.time_control.bpgn()));
    if rules.is_bughouse() {
        tags.push(("Variant".into(), "Bughouse".into()));
    }
    tags.push(("Rules".into(), rules.name.clone()));
    for (name, value) in rule_tags(rules) {
        tags.push((name.to_owned(), value));
    }
    tags
}

/// `298.210`: seconds with milliseconds.
pub(crate) fn seconds(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

/// A clock reading as written after a move. Zero is `0.0001`: the BughouseDB-style viewer
/// takes a clock that reads as the number 0 for "no clock" and stops reading the game
/// there, and a DGT clock shows 0 for every press with less than a second left. Readers
/// keep milliseconds, so `0.0001` reads back as 0.
pub(crate) fn clock_seconds(ms: u64) -> String {
    if ms == 0 {
        "0.0001".to_owned()
    } else {
        seconds(ms)
    }
}

/// The note after a move, in the form the BughouseDB-style viewer reads (`{C: ...}`: it
/// takes any other comment after a move's clock for the end of the game). An illegal move
/// that stood is `C: Illegal: <rule>`, followed by `; <note>` when the move also has one.
pub(crate) fn move_note(ply: &Ply) -> Option<String> {
    let note = ply
        .meta
        .comment
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty());
    match (&ply.legality, note) {
        (Legality::Illegal(reason), Some(note)) => {
            Some(format!("C: Illegal: {}; {note}", reason.describe()))
        }
        (Legality::Illegal(reason), None) => Some(format!("C: Illegal: {}", reason.describe())),
        (Legality::Legal | Legality::Unjudged, Some(note)) => Some(format!("C: {note}")),
        (Legality::Legal | Legality::Unjudged, None) => None,
    }
}

/// The comments before the first move as one `{C: ...}` note: the viewer reads one note
/// there and takes a second comment for the end of the game.
fn opening_note(comments: &[String]) -> Option<String> {
    let parts: Vec<&str> = comments
        .iter()
        .map(|c| {
            let c = c.trim();
            c.strip_prefix("C:").map_or(c, str::trim_start)
        })
        .filter(|c| !c.is_empty())
        .collect();
    (!parts.is_empty()).then(|| format!("C: {}", parts.join("; ")))
}

/// The Event tag: the event's own name, or `?`. Never a file path (`Tandem replay of
/// games/chess-club.capture`): a value with a word that looks like one is written `?`.
/// A bughouse match whose name says "chess" (or "crazyhouse", "atomic") but not
/// "bughouse" gets ` (bughouse)` added: the BughouseDB-style viewer picks its rules from
/// the Event and would otherwise replay the match as ordinary chess, dropping every
/// captured piece.
pub(crate) fn event_tag(event: &str, bughouse: bool) -> String {
    let event = event.trim();
    if event.is_empty() || event.split_whitespace().any(looks_like_path) {
        return "?".to_owned();
    }
    let lower = event.to_lowercase();
    let other_rules = ["chess", "crazyhouse", "atomic"]
        .iter()
        .any(|w| lower.contains(w));
    if bughouse && other_rules && !lower.contains("bughouse") {
        format!("{event} (bughouse)")
    } else {
        event.to_owned()
    }
}

/// Extensions of the files Tandem reads and writes.
const FILE_EXTENSIONS: [&str; 8] = [
    ".bpgn", ".pgn", ".capture", ".journal", ".jsonl", ".ron", ".log", ".txt",
];

/// `/home/td/x`, `~/x`, `./x`, `C:\x`, `games/a.capture`, `a.capture`: a file path.
/// `2024/25` or `v1.2` are not.
fn looks_like_path(word: &str) -> bool {
    let w = word.trim_matches(|c: char| "()[]{}\"'`,;:".contains(c));
    let lower = w.to_lowercase();
    if FILE_EXTENSIONS
        .iter()
        .any(|e| lower.len() > e.len() && lower.ends_with(e))
    {
        return true;
    }
    let Some(last_sep) = w.rfind(['/', '\\']) else {
        return false;
    };
    let drive = {
        let mut c = w.chars();
        matches!((c.next(), c.next()), (Some(d), Some(':')) if d.is_ascii_alphabetic())
    };
    w.starts_with(['/', '\\', '~', '.'])
        || drive
        || w.get(last_sep + 1..).is_some_and(|name| name.contains('.'))
}

fn or<'a>(value: &'a str, unknown: &'a str) -> &'a str {
    if value.trim().is_empty() {
        unknown
    } else {
        value
    }
}

fn date(value: &str) -> String {
    let v = value.trim();
    if v.is_empty() {
        "????.??.??".into()
    } else {
        v.replace(['-', '/'], ".")
    }
}

fn is_tag_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// Tag values escape `\` and `"`; line breaks become spaces (a tag is one line).
fn escape(value: &str) -> String {
    let mut s = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' | '\r' => s.push(' '),
            c => s.push(c),
        }
    }
    s
}

/// The rules tags, bughouse.pro's style where it has one.
fn rule_tags(rules: &RulesPreset) -> Vec<(&'static str, String)> {
    let mut tags = Vec::new();
    match rules.promotion {
        Promotion::Upgrade => {
            tags.push(("Promotion", "Upgrade".to_owned()));
            let pieces: String = rules
                .promotion_roles
                .iter()
                .map(|r| r.upper_char())
                .collect();
            tags.push(("PromotionPieces", pieces));
        }
        // bughouse.pro's word for a pawn removed and passed on.
        Promotion::Removal => tags.push(("Promotion", "Discard".to_owned())),
    }
    if rules.is_bughouse() {
        let drop_mate = match rules.drop_mate {
            DropMate::Allowed => "Allowed",
            DropMate::Forbidden => "Forbidden",
        };
        tags.push(("DropMate", drop_mate.to_owned()));
        let r = rules.pawn_drop_ranks;
        tags.push(("PawnDropRanks", format!("{}-{}", r.min, r.max)));
        let ranks = |v: &[u8]| v.iter().map(u8::to_string).collect::<Vec<_>>().join(" ");
        let mut forbidden = Vec::new();
        if !rules.no_drop_ranks.white.is_empty() {
            forbidden.push(format!("White {}", ranks(&rules.no_drop_ranks.white)));
        }
        if !rules.no_drop_ranks.black.is_empty() {
            forbidden.push(format!("Black {}", ranks(&rules.no_drop_ranks.black)));
        }
        if !forbidden.is_empty() {
            tags.push(("DropForbiddenRanks", forbidden.join(", ")));
        }
    }
    tags
}

/// `<A> | <B>` when a board did not start from the standard position.
fn start_fen(m: &Match) -> Option<String> {
    let standard = BoardState::start();
    let ids = m.board_ids();
    if ids.iter().all(|&b| *m.start_position(b) == standard) {
        return None;
    }
    Some(
        ids.iter()
            .map(|&b| m.start_position(b).fen())
            .collect::<Vec<_>>()
            .join(" | "),
    )
}

/// The name for the termination comment: the player's, when it names one seat only;
/// else the seat's tag (`BlackB`), which the reader also understands.
pub(crate) fn display_name(header: &BpgnHeader, m: &Match, seat: Seat) -> String {
    let name = header.player(seat).trim();
    let clashes = m
        .board_ids()
        .iter()
        .flat_map(|&b| Seat::ALL.into_iter().filter(move |s| s.board == b))
        .filter(|&s| s != seat)
        .any(|s| header.player(s).trim() == name);
    if name.is_empty() || name == "?" || clashes {
        seat.tag().to_owned()
    } else {
        name.to_owned()
    }
}

/// Movetext words wrapped at [`LINE_WIDTH`].
#[derive(Default)]
pub(crate) struct Wrapper {
    out: String,
    line_len: usize,
}

impl Wrapper {
    pub(crate) fn word(&mut self, w: &str) {
        let len = w.chars().count();
        if self.line_len > 0 {
            if self.line_len + 1 + len > LINE_WIDTH {
                self.out.push('\n');
                self.line_len = 0;
            } else {
                self.out.push(' ');
                self.line_len += 1;
            }
        }
        self.out.push_str(w);
        self.line_len += len;
    }

    /// `{...}`, wrapped between words. Braces inside become parentheses (PGN comments
    /// cannot hold them) and whitespace runs one space, as the reader reads them.
    pub(crate) fn comment(&mut self, text: &str) {
        let clean = text.replace('{', "(").replace('}', ")");
        let words: Vec<&str> = clean.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            [only] => self.word(&format!("{{{only}}}")),
            [first, middle @ .., last] => {
                self.word(&format!("{{{first}"));
                for w in middle {
                    self.word(w);
                }
                self.word(&format!("{last}}}"));
            }
        }
    }

    /// Ends the line (if anything is on it).
    pub(crate) fn newline(&mut self) {
        if self.line_len > 0 {
            self.out.push('\n');
            self.line_len = 0;
        }
    }

    pub(crate) fn finish(self) -> String {
        self.out
    }
}
