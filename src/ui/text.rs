//! Words and numbers as the TD and the spectators read them: clocks, seats, alert titles,
//! penalties, scores. Pure functions, no egui, so they are tested on their own.

use shakmaty::{Color, Role};

use crate::BoardId;
use crate::arbiter::view::{MatchView, PlyView};
use crate::arbiter::{AlertKind, Offence};
use crate::dgt::{ClockSide, Orientation};
use crate::rules::{IllegalMoveRule, Penalty, RulesPreset, Seat, Team};

/// A clock reading as a chess clock shows it: `4:07`, `1:02:03` past an hour. Whole
/// seconds rounded up, so a reading of exactly 4:07 stays 4:07 until a full second passed
/// (the DGT clock reports whole seconds).
#[must_use]
pub fn clock(ms: u64) -> String {
    let secs = ms.div_ceil(1000);
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// What a clock face shows: the reading, or `–:––` while no clock is seen or it has not
/// reported yet.
#[must_use]
pub fn clock_reading(present: bool, remaining_ms: Option<u64>) -> String {
    match (present, remaining_ms) {
        (true, Some(ms)) => clock(ms),
        _ => "–:––".to_owned(),
    }
}

/// Milliseconds until a running clock's display changes (for the next repaint).
#[must_use]
pub fn ms_to_next_second(remaining_ms: u64) -> u64 {
    match remaining_ms % 1000 {
        0 => 1000,
        r => r,
    }
}

/// Match time as `mm:ss` since the start of the match record (alert times).
#[must_use]
pub fn match_time(ms: u64) -> String {
    let secs = ms / 1000;
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m:02}:{s:02}")
    }
}

#[must_use]
pub fn color(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// `White A`, `Black B`.
#[must_use]
pub fn seat(s: Seat) -> String {
    format!("{} {}", color(s.color), s.board)
}

/// The player's name, or the seat when no name was given.
#[must_use]
pub fn player(view: &MatchView, s: Seat) -> String {
    let name = view.player(s).trim();
    if name.is_empty() {
        seat(s)
    } else {
        name.to_owned()
    }
}

/// `Ada & Dana`: the two players of a team, board A first.
#[must_use]
pub fn team(view: &MatchView, t: Team) -> String {
    let [a, b] = t.seats();
    if view.boards.len() < 2 {
        return player(view, a);
    }
    format!("{} & {}", player(view, a), player(view, b))
}

#[must_use]
pub fn role(r: Role) -> &'static str {
    match r {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// `Queen`, for buttons.
#[must_use]
pub fn role_title(r: Role) -> &'static str {
    match r {
        Role::Pawn => "Pawn",
        Role::Knight => "Knight",
        Role::Bishop => "Bishop",
        Role::Rook => "Rook",
        Role::Queen => "Queen",
        Role::King => "King",
    }
}

/// A short title for each kind of alert, in the TD's words.
#[must_use]
pub fn alert_title(kind: AlertKind) -> &'static str {
    match kind {
        AlertKind::Displaced => "Piece displaced",
        AlertKind::Missing => "Piece missing",
        AlertKind::Unexplained => "Unexplained piece",
        AlertKind::IllegalMove => "Illegal move",
        AlertKind::Promotion => "Promoted pawn",
        AlertKind::NoMovePress => "Clock pressed, no move",
        AlertKind::Flag => "Flag fell",
        AlertKind::Desync => "Board differs from the record",
        AlertKind::Disconnected => "Board unplugged",
        AlertKind::GameEnd => "Game over",
    }
}

/// `1st`, `2nd`, `3rd`, `4th`.
#[must_use]
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// What a penalty does, naming the players: `Warning to Ada`, `+1 min to Boris`,
/// `Ada forfeits`.
#[must_use]
pub fn penalty(view: &MatchView, rules: &RulesPreset, s: Seat, p: Penalty) -> String {
    let who = player(view, s);
    let opponent = player(view, s.opponent());
    match p {
        Penalty::Warning => format!("Warning to {who}"),
        Penalty::TimeToOpponent => {
            format!(
                "+{} to {opponent}'s clock",
                duration_words(rules.penalties.time_penalty_ms)
            )
        }
        Penalty::Forfeit => format!("{who} forfeits"),
        Penalty::OpponentMayClaimWin => format!("{opponent} may claim the game"),
        Penalty::TdDecides => format!("TD rules on {who}"),
    }
}

/// `1 min`, `30 s`, `1 min 30 s`.
#[must_use]
pub fn duration_words(ms: u64) -> String {
    let secs = ms / 1000;
    match (secs / 60, secs % 60) {
        (0, s) => format!("{s} s"),
        (m, 0) => format!("{m} min"),
        (m, s) => format!("{m} min {s} s"),
    }
}

/// What the offence is, for buttons: `Displaced pieces`.
#[must_use]
pub fn offence(o: Offence) -> &'static str {
    match o {
        Offence::DisplacedPieces => "Knocked pieces, then pressed",
        Offence::KnockedClock => "Knocked the clock over",
        Offence::WrongHand => "Pressed with the other hand",
        Offence::Other => "Other conduct",
    }
}

/// What a claim of an illegal move leads to under the preset, for the button.
#[must_use]
pub fn illegal_claim_consequence(rules: &RulesPreset, view: &MatchView, s: Seat) -> String {
    match rules.illegal_move {
        IllegalMoveRule::LossOnClaim => format!("{} loses the game", player(view, s)),
        IllegalMoveRule::Corrected => "the move is taken back".to_owned(),
    }
}

/// `12.` for White's ply, `12…` for Black's.
#[must_use]
pub fn move_number(p: &PlyView) -> String {
    if p.ply.color.is_white() {
        format!("{}.", p.ply.number)
    } else {
        format!("{}…", p.ply.number)
    }
}

/// The move as spectators may see it. An illegal move is written in long form (`Bc1c3`),
/// and so are the moves after it on its board (the position can no longer be judged);
/// until the TD rules on it the projector must not point at it, so from the illegal move
/// on that board's moves are shown in the short form a legal move would have (`Bc3`,
/// `Bxc3`, `e5`).
#[must_use]
pub fn public_san(view: &MatchView, p: &PlyView) -> String {
    let hidden = view.record.iter().any(|q| {
        q.ply.board == p.ply.board
            && q.index <= p.index
            && q.illegal.is_some()
            && !view.illegal_ruled(q.ply)
    });
    if hidden {
        neutral_san(p)
    } else {
        p.san.clone()
    }
}

/// A short, unremarkable spelling of a ply from its squares: piece letter, `x` when the
/// long form shows a capture, the target square, a drop as `N@f3`.
#[must_use]
pub fn neutral_san(p: &PlyView) -> String {
    let san = p.san.trim_end_matches(['+', '#', '!', '?']);
    if san.contains('@') || san.starts_with('O') {
        return san.to_owned();
    }
    let piece = san
        .chars()
        .next()
        .filter(|c| matches!(c, 'K' | 'Q' | 'R' | 'B' | 'N'));
    let capture = san.contains('x');
    let to = p.squares.1;
    let promotion = san.find('=').map(|i| &san[i..]).unwrap_or_default();
    match (piece, capture, p.squares.0) {
        (Some(letter), true, _) => format!("{letter}x{to}{promotion}"),
        (Some(letter), false, _) => format!("{letter}{to}{promotion}"),
        (None, true, Some(from)) => format!("{}x{to}{promotion}", from.file().char()),
        (None, _, _) => format!("{to}{promotion}"),
    }
}

/// Points as a score sheet writes them: `1½`, `½`, `0`.
#[must_use]
pub fn points(p: f32) -> String {
    let halves = (p * 2.0).round() as i64;
    let whole = halves / 2;
    match (whole, halves % 2 != 0) {
        (0, true) => "½".to_owned(),
        (w, true) => format!("{w}½"),
        (w, false) => format!("{w}"),
    }
}

#[must_use]
pub fn orientation(o: Option<Orientation>) -> &'static str {
    match o {
        Some(Orientation::Normal) => "set up normally",
        Some(Orientation::Rotated) => "turned 180°",
        None => "orientation not seen yet",
    }
}

#[must_use]
pub fn white_clock_side(s: Option<ClockSide>) -> &'static str {
    match s {
        Some(ClockSide::Left) => "White's clock on the left",
        Some(ClockSide::Right) => "White's clock on the right",
        None => "clock side not seen yet",
    }
}

/// `Board A`.
#[must_use]
pub fn board(b: BoardId) -> String {
    format!("Board {b}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arbiter::PlyRef;
    use shakmaty::Square;

    #[test]
    fn clocks_read_like_a_chess_clock() {
        assert_eq!(clock(300_000), "5:00");
        assert_eq!(clock(299_001), "5:00");
        assert_eq!(clock(299_000), "4:59");
        assert_eq!(clock(0), "0:00");
        assert_eq!(clock(3_723_000), "1:02:03");
        assert_eq!(clock_reading(true, Some(0)), "0:00");
        assert_eq!(clock_reading(true, None), "–:––");
        assert_eq!(clock_reading(false, Some(300_000)), "–:––");
        assert_eq!(ms_to_next_second(299_001), 1);
        assert_eq!(ms_to_next_second(299_000), 1000);
    }

    #[test]
    fn points_and_ordinals() {
        assert_eq!(points(1.5), "1½");
        assert_eq!(points(0.5), "½");
        assert_eq!(points(2.0), "2");
        assert_eq!(ordinal(1), "1st");
        assert_eq!(ordinal(2), "2nd");
        assert_eq!(ordinal(3), "3rd");
        assert_eq!(ordinal(11), "11th");
        assert_eq!(duration_words(60_000), "1 min");
        assert_eq!(duration_words(90_000), "1 min 30 s");
    }

    fn ply(san: &str, from: Option<Square>, to: Square) -> PlyView {
        PlyView {
            ply: PlyRef {
                board: BoardId::A,
                color: Color::White,
                number: 2,
            },
            index: 0,
            san: san.into(),
            clock_ms: None,
            t_ms: None,
            illegal: Some("the piece cannot move there".into()),
            comment: None,
            squares: (from, to),
        }
    }

    #[test]
    fn an_illegal_move_is_spelled_like_any_other() {
        assert_eq!(
            neutral_san(&ply("Bc1c3", Some(Square::C1), Square::C3)),
            "Bc3"
        );
        assert_eq!(
            neutral_san(&ply("Bc1xc3", Some(Square::C1), Square::C3)),
            "Bxc3"
        );
        assert_eq!(
            neutral_san(&ply("e2e5", Some(Square::E2), Square::E5)),
            "e5"
        );
        assert_eq!(
            neutral_san(&ply("d4xe6", Some(Square::D4), Square::E6)),
            "dxe6"
        );
        assert_eq!(neutral_san(&ply("N@f7+", None, Square::F7)), "N@f7");
    }
}
