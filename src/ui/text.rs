//! Words and numbers as the TD and the spectators read them: clocks, seats, alert titles,
//! penalties, scores. Pure functions, no egui, so they are tested on their own.

use shakmaty::{Color, Role};

use crate::BoardId;
use crate::arbiter::spectator::SpectatorView;
use crate::arbiter::view::{MatchView, PlyView};
use crate::arbiter::{AlertKind, Offence};
use crate::dgt::{ClockSide, Orientation};
use crate::rules::{IllegalMoveRule, Penalty, RulesPreset, Seat, Team};

/// Whatever names the players: the TD's view of a match, or the hall's.
pub trait Players {
    fn name(&self, s: Seat) -> &str;
    /// Boards in play (a single-board game names players, not teams).
    fn board_count(&self) -> usize;
}

impl Players for MatchView {
    fn name(&self, s: Seat) -> &str {
        self.player(s)
    }

    fn board_count(&self) -> usize {
        self.boards.len()
    }
}

impl Players for SpectatorView {
    fn name(&self, s: Seat) -> &str {
        self.player(s)
    }

    fn board_count(&self) -> usize {
        self.boards.len()
    }
}

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
pub fn player(view: &impl Players, s: Seat) -> String {
    let name = view.name(s).trim();
    if name.is_empty() {
        seat(s)
    } else {
        name.to_owned()
    }
}

/// `Ada & Dana`: the two players of a team, board A first.
#[must_use]
pub fn team(view: &impl Players, t: Team) -> String {
    let [a, b] = t.seats();
    if view.board_count() < 2 {
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
        AlertKind::Clock => "Clock",
        AlertKind::UnseenMove => "Move not seen",
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
    numbered(p.ply.number, p.ply.color)
}

/// `12.` for White, `12…` for Black.
#[must_use]
pub fn numbered(number: u32, color: Color) -> String {
    if color.is_white() {
        format!("{number}.")
    } else {
        format!("{number}…")
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
}
