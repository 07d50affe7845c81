//! BPGN syntax: games as tags plus movetext tokens, each with its line and column.
//!
//! Tolerant of what real files do: several tags on one line, CR/LF/CRLF line ends,
//! comments and clocks glued to moves (`e4{118.585}`), a move glued to its number
//! (`1A.e4`), `;` line comments, `%` escape lines, variations `( ... )` (skipped), NAGs.
//! Moves are kept as text here; their meaning is for the replay.

use std::iter::Peekable;
use std::str::Chars;

use shakmaty::Color;

use super::BpgnError;
use crate::BoardId;
use crate::rules::Seat;

/// Where a token starts: 1-based line and column (columns count characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
}

/// `[Name "value"]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawTag {
    pub name: String,
    pub value: String,
    pub pos: Pos,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LexemeKind {
    /// `12A.` (the number and seat), or a plain PGN number `12.` / `12...` (no seat).
    MoveNumber { number: u32, seat: Option<Seat> },
    /// A move as written (`e4`, `N@f3`, `0-0`, `$146@g4`, `Bc1c3`), annotation glyphs
    /// (`!?`) stripped.
    Move(String),
    /// The text between `{` and `}` (or after `;`), whitespace runs collapsed to one space.
    Comment(String),
    /// `$1`, `!?` and the like: annotations, ignored by the replay.
    Nag(String),
    /// `1-0`, `0-1`, `1/2-1/2` or `*`: ends the game.
    Result(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lexeme {
    pub kind: LexemeKind,
    pub pos: Pos,
}

/// One game as written: tags in file order and the movetext tokens.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawGame {
    pub tags: Vec<RawTag>,
    pub movetext: Vec<Lexeme>,
    /// Where the game starts (its first tag or token).
    pub pos: Pos,
}

impl RawGame {
    /// The value of the first tag called `name` (case-insensitive).
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&RawTag> {
        self.tags.iter().find(|t| t.name.eq_ignore_ascii_case(name))
    }

    /// Anything beyond comments and annotations: a tag, a move, a number or a result.
    fn has_substance(&self) -> bool {
        !self.tags.is_empty()
            || self
                .movetext
                .iter()
                .any(|t| !matches!(t.kind, LexemeKind::Comment(_) | LexemeKind::Nag(_)))
    }
}

/// Splits BPGN text into games. Text between games that holds no tag, move or result
/// (stray comments) is dropped. Fails only on broken syntax: an unterminated tag, comment
/// or variation, or a stray closing bracket.
pub fn parse_bpgn(text: &str) -> Result<Vec<RawGame>, BpgnError> {
    let mut cur = Cursor::new(text);
    let mut games = Vec::new();
    let mut game = RawGame::default();
    loop {
        cur.skip_whitespace();
        let pos = cur.pos();
        let Some(c) = cur.peek() else { break };
        match c {
            '[' => {
                // A tag after movetext starts the next game (the last one had no result).
                if !game.movetext.is_empty() {
                    if game.has_substance() {
                        games.push(std::mem::take(&mut game));
                    } else {
                        // Comments before the first tag belong to no game.
                        game.movetext.clear();
                    }
                }
                let tag = cur.tag()?;
                if game.tags.is_empty() && game.movetext.is_empty() {
                    game.pos = pos;
                }
                game.tags.push(tag);
            }
            '%' if pos.column == 1 => cur.skip_line(),
            ';' => {
                cur.bump();
                let text = cur.rest_of_line();
                push(&mut game, LexemeKind::Comment(collapse(&text)), pos);
            }
            '{' => {
                cur.bump();
                let text = cur.until_brace().ok_or_else(|| {
                    BpgnError::at(pos, "comment not closed: '{' without a matching '}'")
                })?;
                push(&mut game, LexemeKind::Comment(collapse(&text)), pos);
            }
            '(' => cur.skip_variation(pos)?,
            ')' | ']' | '}' => {
                return Err(BpgnError::at(pos, format!("unexpected '{c}'")));
            }
            _ => {
                let word = cur.word();
                let ends_game = classify(&word, pos, &mut game);
                if ends_game {
                    games.push(std::mem::take(&mut game));
                }
            }
        }
    }
    if game.has_substance() {
        games.push(game);
    }
    Ok(games)
}

fn push(game: &mut RawGame, kind: LexemeKind, pos: Pos) {
    if game.tags.is_empty() && game.movetext.is_empty() {
        game.pos = pos;
    }
    game.movetext.push(Lexeme { kind, pos });
}

/// Turns a word of movetext into tokens; returns whether it was a result (game over).
/// A loop, not recursion: a crafted word of many glued numbers must not exhaust the stack.
fn classify(word: &str, pos: Pos, game: &mut RawGame) -> bool {
    let mut word = word;
    let mut pos = pos;
    loop {
        if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*") {
            let token = if word == "½-½" { "1/2-1/2" } else { word };
            push(game, LexemeKind::Result(token.to_owned()), pos);
            return true;
        }
        let Some((number, seat, used)) = move_number(word) else {
            break;
        };
        push(game, LexemeKind::MoveNumber { number, seat }, pos);
        // A move glued to its number (`1A.e4`) starts right after it.
        match word.char_indices().nth(used) {
            Some((at, _)) => {
                word = word.get(at..).unwrap_or("");
                pos.column += used;
            }
            None => return false,
        }
    }
    if word.starts_with('$') && !word.contains('@') {
        push(game, LexemeKind::Nag(word.to_owned()), pos);
        return false;
    }
    let stripped = word.trim_end_matches(['!', '?']);
    if stripped.is_empty() {
        push(game, LexemeKind::Nag(word.to_owned()), pos);
    } else {
        push(game, LexemeKind::Move(stripped.to_owned()), pos);
    }
    false
}

/// `12A.`, `12a...`, `12A` (no dot) or `12.`: the number, the seat and the characters used.
/// `0-0` (castling) is not a number.
fn move_number(word: &str) -> Option<(u32, Option<Seat>, usize)> {
    let digits: String = word.chars().take_while(char::is_ascii_digit).collect();
    if digits.is_empty() {
        return None;
    }
    let mut rest = word.chars().skip(digits.len()).peekable();
    let seat = match rest.peek() {
        Some(&c @ ('A' | 'a' | 'B' | 'b')) => {
            rest.next();
            let board = BoardId::from_letter(c)?;
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            Some(Seat::new(board, color))
        }
        _ => None,
    };
    let dots = rest.take_while(|&c| c == '.').count();
    if seat.is_none() && dots == 0 {
        return None;
    }
    let number = digits.parse().ok()?;
    Some((
        number,
        seat,
        digits.len() + usize::from(seat.is_some()) + dots,
    ))
}

/// Collapses whitespace runs (line breaks included) to single spaces and trims.
fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

struct Cursor<'a> {
    chars: Peekable<Chars<'a>>,
    line: usize,
    column: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Cursor {
            chars: text.chars().peekable(),
            line: 1,
            column: 1,
        }
    }

    fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            column: self.column,
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        match c {
            '\n' => {
                self.line += 1;
                self.column = 1;
            }
            // CRLF counts once (at the LF); a lone CR (old Mac files) ends a line too.
            '\r' if self.peek() != Some('\n') => {
                self.line += 1;
                self.column = 1;
            }
            '\r' => {}
            _ => self.column += 1,
        }
        Some(c)
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    fn at_line_end(&mut self) -> bool {
        matches!(self.peek(), None | Some('\n' | '\r'))
    }

    fn skip_line(&mut self) {
        while !self.at_line_end() {
            self.bump();
        }
    }

    fn rest_of_line(&mut self) -> String {
        let mut s = String::new();
        while !self.at_line_end() {
            if let Some(c) = self.bump() {
                s.push(c);
            }
        }
        s
    }

    /// The text up to the next `}` (consumed), or `None` at the end of the text.
    fn until_brace(&mut self) -> Option<String> {
        let mut s = String::new();
        loop {
            match self.bump()? {
                '}' => return Some(s),
                c => s.push(c),
            }
        }
    }

    /// Skips a `( ... )` variation, nested ones and comments inside included.
    fn skip_variation(&mut self, start: Pos) -> Result<(), BpgnError> {
        let mut depth = 0usize;
        loop {
            let pos = self.pos();
            let Some(c) = self.bump() else {
                return Err(BpgnError::at(
                    start,
                    "variation not closed: '(' without a matching ')'",
                ));
            };
            match c {
                '(' => depth += 1,
                ')' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Ok(());
                    }
                }
                '{' => {
                    self.until_brace().ok_or_else(|| {
                        BpgnError::at(pos, "comment not closed: '{' without a matching '}'")
                    })?;
                }
                _ => {}
            }
        }
    }

    /// A run of characters up to whitespace or a bracket.
    fn word(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek() {
            if c.is_whitespace() || "{}[]();".contains(c) {
                break;
            }
            s.push(c);
            self.bump();
        }
        s
    }

    /// `[Name "value"]`, value with `\"` and `\\` escapes; an unquoted value runs to `]`.
    fn tag(&mut self) -> Result<RawTag, BpgnError> {
        let pos = self.pos();
        self.bump();
        self.skip_whitespace();
        let mut name = String::new();
        while let Some(c) = self.peek() {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                name.push(c);
                self.bump();
            } else {
                break;
            }
        }
        if name.is_empty() {
            return Err(BpgnError::at(pos, "tag without a name"));
        }
        self.skip_whitespace();
        let value = if self.peek() == Some('"') {
            self.bump();
            let mut value = String::new();
            loop {
                match self.bump() {
                    None => {
                        return Err(BpgnError::at(
                            pos,
                            format!("tag {name}: value not closed (missing '\"')"),
                        ));
                    }
                    Some('"') => break,
                    Some('\\') => match self.peek() {
                        Some(c @ ('"' | '\\')) => {
                            self.bump();
                            value.push(c);
                        }
                        _ => value.push('\\'),
                    },
                    Some(c) => value.push(c),
                }
            }
            self.skip_whitespace();
            if self.peek() != Some(']') {
                return Err(BpgnError::at(pos, format!("tag {name}: missing ']'")));
            }
            self.bump();
            value
        } else {
            let mut value = String::new();
            loop {
                match self.bump() {
                    None => return Err(BpgnError::at(pos, format!("tag {name}: missing ']'"))),
                    Some(']') => break,
                    Some(c) => value.push(c),
                }
            }
            value.trim().to_owned()
        };
        Ok(RawTag { name, value, pos })
    }
}
