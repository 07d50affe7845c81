//! Colours and sizes shared by the console and the projector.

use egui::Color32;

use crate::rules::Team;

/// Board squares (the usual wooden browns: high contrast for pieces, calm for the eye).
pub const LIGHT_SQUARE: Color32 = Color32::from_rgb(240, 217, 181);
pub const DARK_SQUARE: Color32 = Color32::from_rgb(181, 136, 99);
/// The last move's squares, laid over the square colour.
pub const LAST_MOVE: Color32 = Color32::from_rgba_premultiplied(150, 160, 20, 110);
/// The king in check.
pub const CHECK: Color32 = Color32::from_rgba_premultiplied(200, 20, 20, 170);
/// Squares where the board differs from the record (console only).
pub const DIFFERS: Color32 = Color32::from_rgb(255, 60, 200);

/// Behind the pieces of a reserve.
pub const RESERVE_TRAY: Color32 = Color32::from_rgb(196, 178, 150);

/// Team colours: team WhiteA (WhiteA and BlackB) and team BlackA.
pub const TEAM_WHITE_A: Color32 = Color32::from_rgb(90, 160, 255);
pub const TEAM_BLACK_A: Color32 = Color32::from_rgb(255, 160, 60);

pub const PROJECTOR_BACKGROUND: Color32 = Color32::from_rgb(16, 18, 22);
pub const PROJECTOR_TEXT: Color32 = Color32::from_rgb(235, 235, 235);
pub const PROJECTOR_DIM: Color32 = Color32::from_rgb(150, 155, 165);
/// A clock that is running, and one that is not.
pub const CLOCK_RUNNING_FILL: Color32 = Color32::from_rgb(245, 245, 245);
pub const CLOCK_RUNNING_TEXT: Color32 = Color32::from_rgb(10, 10, 10);
pub const CLOCK_IDLE_FILL: Color32 = Color32::from_rgb(40, 44, 52);
pub const CLOCK_IDLE_TEXT: Color32 = Color32::from_rgb(170, 175, 185);

pub const OK: Color32 = Color32::from_rgb(80, 200, 110);
pub const WARN: Color32 = Color32::from_rgb(255, 190, 60);
pub const BAD: Color32 = Color32::from_rgb(235, 70, 70);
pub const BAD_FILL: Color32 = Color32::from_rgb(150, 25, 25);
pub const GOOD_FILL: Color32 = Color32::from_rgb(25, 110, 50);
/// Behind an instruction for the TD (a penalty time to set on the clock).
pub const WARN_FILL: Color32 = Color32::from_rgb(130, 95, 10);
/// Behind a decision waiting for the TD's confirmation.
pub const CONFIRM_FILL: Color32 = Color32::from_rgb(90, 70, 10);

/// Badge marking a promoted pawn.
pub const PROMOTED_BADGE: Color32 = Color32::from_rgb(200, 30, 120);

#[must_use]
pub fn team(t: Team) -> Color32 {
    match t {
        Team::WhiteA => TEAM_WHITE_A,
        Team::BlackA => TEAM_BLACK_A,
    }
}

/// How urgent an alert is, for its stripe colour.
#[must_use]
pub fn alert_color(kind: crate::arbiter::AlertKind) -> Color32 {
    use crate::arbiter::AlertKind as K;
    match kind {
        K::IllegalMove | K::Flag | K::Disconnected | K::Desync | K::Clock => BAD,
        K::Promotion
        | K::UnseenMove
        | K::Displaced
        | K::Missing
        | K::Unexplained
        | K::NoMovePress => WARN,
        K::GameEnd => OK,
    }
}
