//! The projector: the match for the hall, readable from the back of the room.
//!
//! Both boards as the players sit (partners side by side with opposite colours: board A
//! with White at the bottom, board B with Black at the bottom), each reserve as pieces
//! with counts on the outer side of its board, big clocks, the last move highlighted,
//! promoted pawns marked, team names and the match score, and a result banner.
//!
//! It shows only what the TD stands behind: no alerts, no illegal move marked (not even by
//! its long-form spelling) before the TD rules on it, no fallen flag, no sensor detail;
//! and it can run behind live by a broadcast delay (the caller passes the delayed view and
//! the matching clock time).

use egui::{Align, Color32, FontId, Layout, Rect, RichText, Sense, Ui, UiBuilder, Vec2};
use shakmaty::Color;

use super::board::{BoardLook, ReserveFlow, paint_board, paint_reserve};
use super::pieces::PieceSet;
use super::{text, theme};
use crate::arbiter::spectator::{PublicBoard, SpectatorView};
use crate::rules::{Seat, Team};
use crate::{BoardId, Millis};

/// Everything the projector draws from.
pub struct Projector<'a> {
    /// The view spectators may see (already delayed).
    pub view: &'a SpectatorView,
    /// Match time at which to read the clocks (now minus the broadcast delay).
    pub clock_at: Millis,
    pub pieces: Option<&'a PieceSet>,
    /// Points from earlier games between the same teams (team WhiteA, team BlackA).
    pub earlier: [f32; 2],
    pub event: &'a str,
    /// Broadcast delay in seconds (shown small in a corner).
    pub delay_s: u32,
}

/// All of `ui`'s available space, taken and painted the hall's background, with the unit
/// everything is drawn in (1.0 on a 1920×1080 screen).
pub(crate) fn hall_canvas(ui: &mut Ui) -> (Rect, f32) {
    let full = ui.available_rect_before_wrap();
    ui.allocate_rect(full, Sense::hover());
    ui.painter()
        .rect_filled(full, 0.0, theme::PROJECTOR_BACKGROUND);
    let u = (full.width() / 1920.0)
        .min(full.height() / 1080.0)
        .max(0.15);
    (full, u)
}

/// Draws the projector into all of `ui`'s available space.
pub fn show(ui: &mut Ui, p: &Projector<'_>) {
    let (full, u) = hall_canvas(ui);
    let pad = 18.0 * u;
    let mut y = full.min.y + pad * 0.5;

    // Teams and score.
    let top = Rect::from_min_size(
        egui::pos2(full.min.x + pad, y),
        Vec2::new(full.width() - 2.0 * pad, 84.0 * u),
    );
    team_bar(ui, top, p, u);
    y = top.max.y + pad * 0.5;

    // The result, once there is one.
    if let Some(result) = &p.view.result {
        let banner = Rect::from_min_size(
            egui::pos2(full.min.x + pad, y),
            Vec2::new(full.width() - 2.0 * pad, 70.0 * u),
        );
        ui.painter()
            .rect_filled(banner, 10.0 * u, Color32::from_rgb(250, 215, 90));
        let headline = match result.winner {
            Some(team) => format!("{} win", text::team(p.view, team)),
            None => "Draw".to_owned(),
        };
        put_text(
            ui,
            banner,
            RichText::new(format!("{headline} — {}", result.text))
                .size(40.0 * u)
                .strong()
                .color(Color32::from_rgb(20, 20, 20)),
            Align::Center,
        );
        y = banner.max.y + pad * 0.5;
    }

    // Play stopped on both boards (by the TD, or a player with a clock's button): the
    // hall sees that it is, not why.
    if p.view.paused && p.view.result.is_none() {
        let banner = Rect::from_min_size(
            egui::pos2(full.min.x + pad, y),
            Vec2::new(full.width() - 2.0 * pad, 70.0 * u),
        );
        ui.painter()
            .rect_filled(banner, 10.0 * u, Color32::from_rgb(120, 170, 240));
        put_text(
            ui,
            banner,
            RichText::new("PAUSED — both clocks stopped")
                .size(44.0 * u)
                .strong()
                .color(Color32::from_rgb(15, 20, 35)),
            Align::Center,
        );
        y = banner.max.y + pad * 0.5;
    }

    let area = Rect::from_min_max(
        egui::pos2(full.min.x + pad, y),
        egui::pos2(full.max.x - pad, full.max.y - pad * 1.6),
    );
    match p.view.boards.as_slice() {
        [a, b] => {
            let gap = 40.0 * u;
            let half = (area.width() - gap) / 2.0;
            let left = Rect::from_min_size(area.min, Vec2::new(half, area.height()));
            let right = Rect::from_min_size(
                area.min + Vec2::new(half + gap, 0.0),
                Vec2::new(half, area.height()),
            );
            board_column(ui, left, p, a, true, Side::Left, u);
            board_column(ui, right, p, b, false, Side::Right, u);
        }
        [a] => board_column(ui, area, p, a, true, Side::Left, u),
        _ => {}
    }

    // Small print: the event, and the delay when there is one.
    let foot = Rect::from_min_max(
        egui::pos2(full.min.x + pad, full.max.y - pad * 1.5),
        egui::pos2(full.max.x - pad, full.max.y - pad * 0.2),
    );
    let mut small = format!("{} · {}", p.event, p.view.rules_title);
    if p.delay_s > 0 {
        small.push_str(&format!(" · {} s broadcast delay", p.delay_s));
    }
    put_text(
        ui,
        foot,
        RichText::new(small)
            .size(18.0 * u)
            .color(theme::PROJECTOR_DIM),
        Align::Max,
    );
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Left,
    Right,
}

fn team_bar(ui: &mut Ui, rect: Rect, p: &Projector<'_>, u: f32) {
    let v = p.view;
    let score = |team: Team, i: usize| {
        p.earlier[i]
            + v.result
                .as_ref()
                .map_or(0.0, |r| r.score[usize::from(team == Team::BlackA)])
    };
    let (s1, s2) = (score(Team::WhiteA, 0), score(Team::BlackA, 1));
    let third = rect.width() / 3.0;
    let left = Rect::from_min_size(rect.min, Vec2::new(third * 1.2, rect.height()));
    let mid = Rect::from_min_size(
        rect.min + Vec2::new(third * 1.2, 0.0),
        Vec2::new(third * 0.6, rect.height()),
    );
    let right = Rect::from_min_size(
        rect.min + Vec2::new(third * 1.8, 0.0),
        Vec2::new(third * 1.2, rect.height()),
    );
    if v.boards.len() == 2 {
        put_text(
            ui,
            left,
            RichText::new(text::team(v, Team::WhiteA))
                .size(46.0 * u)
                .strong()
                .color(theme::TEAM_WHITE_A),
            Align::Min,
        );
        put_text(
            ui,
            right,
            RichText::new(text::team(v, Team::BlackA))
                .size(46.0 * u)
                .strong()
                .color(theme::TEAM_BLACK_A),
            Align::Max,
        );
    } else {
        put_text(
            ui,
            left,
            RichText::new(text::player(v, Seat::new(BoardId::A, Color::White)))
                .size(46.0 * u)
                .strong()
                .color(theme::TEAM_WHITE_A),
            Align::Min,
        );
        put_text(
            ui,
            right,
            RichText::new(text::player(v, Seat::new(BoardId::A, Color::Black)))
                .size(46.0 * u)
                .strong()
                .color(theme::TEAM_BLACK_A),
            Align::Max,
        );
    }
    put_text(
        ui,
        mid,
        RichText::new(format!("{} : {}", text::points(s1), text::points(s2)))
            .size(60.0 * u)
            .strong()
            .color(theme::PROJECTOR_TEXT),
        Align::Center,
    );
}

#[allow(clippy::too_many_arguments)]
fn board_column(
    ui: &mut Ui,
    col: Rect,
    p: &Projector<'_>,
    b: &PublicBoard,
    white_at_bottom: bool,
    side: Side,
    u: f32,
) {
    let row_h = 84.0 * u;
    let moves_h = 46.0 * u;
    let gap = 10.0 * u;
    let by_height = col.height() - 2.0 * row_h - moves_h - 3.0 * gap;
    let by_width = col.width() / 1.13;
    let size = by_height.min(by_width).max(40.0);
    let reserve_w = size * 0.12;
    let block_w = size + reserve_w + gap;
    let x0 = col.min.x + (col.width() - block_w) / 2.0;
    let (board_x, reserve_x) = match side {
        Side::Left => (x0 + reserve_w + gap, x0),
        Side::Right => (x0, x0 + size + gap),
    };
    let mut y = col.min.y;
    let (top_color, bottom_color) = if white_at_bottom {
        (Color::Black, Color::White)
    } else {
        (Color::White, Color::Black)
    };
    let top_row = Rect::from_min_size(egui::pos2(x0, y), Vec2::new(block_w, row_h));
    player_row(ui, top_row, p, b, top_color, u);
    y = top_row.max.y + gap;
    let board_rect = Rect::from_min_size(egui::pos2(board_x, y), Vec2::splat(size));
    let reserve_rect = Rect::from_min_size(egui::pos2(reserve_x, y), Vec2::new(reserve_w, size));
    paint_board(
        ui,
        board_rect,
        &BoardLook {
            white_at_bottom,
            pieces: p.pieces,
            ..BoardLook::of_hall(b)
        },
    );
    ui.painter().rect_stroke(
        board_rect,
        0.0,
        (2.0 * u, Color32::from_gray(90)),
        egui::StrokeKind::Outside,
    );
    // Each reserve next to its owner: the top player's at the top, the bottom player's at
    // the bottom, on the outer side of the pair of boards.
    let slot = (size / 10.0).min(reserve_w);
    let half = size / 2.0;
    let painter = ui.painter();
    let top_half = Rect::from_min_size(reserve_rect.min, Vec2::new(reserve_w, half));
    let bottom_half = Rect::from_min_size(
        reserve_rect.min + Vec2::new(0.0, half),
        Vec2::new(reserve_w, half),
    );
    paint_reserve(
        painter,
        top_half,
        &(*b.reserve(top_color)).into(),
        top_color,
        p.pieces,
        slot,
        ReserveFlow::Down,
        false,
    );
    paint_reserve(
        painter,
        bottom_half,
        &(*b.reserve(bottom_color)).into(),
        bottom_color,
        p.pieces,
        slot,
        ReserveFlow::Up,
        false,
    );
    y = board_rect.max.y + gap;
    let bottom_row = Rect::from_min_size(egui::pos2(x0, y), Vec2::new(block_w, row_h));
    player_row(ui, bottom_row, p, b, bottom_color, u);
    y = bottom_row.max.y + gap;
    let moves = Rect::from_min_size(egui::pos2(x0, y), Vec2::new(block_w, moves_h));
    put_text(
        ui,
        moves,
        RichText::new(recent_moves(p.view, b))
            .size(30.0 * u)
            .color(theme::PROJECTOR_DIM),
        Align::Center,
    );
}

fn player_row(ui: &mut Ui, rect: Rect, p: &Projector<'_>, b: &PublicBoard, color: Color, u: f32) {
    let seat = Seat::new(b.id, color);
    let team = seat.team();
    let painter = ui.painter();
    painter.rect_filled(
        Rect::from_min_size(rect.min, Vec2::new(8.0 * u, rect.height())),
        2.0,
        theme::team(team),
    );
    // The player's colour as a king on a light tile, so that everyone sees who has White.
    let tile = Rect::from_center_size(
        rect.min + Vec2::new(40.0 * u, rect.height() / 2.0),
        Vec2::splat(56.0 * u),
    );
    painter.rect_filled(tile, 6.0 * u, theme::LIGHT_SQUARE);
    super::pieces::paint_piece(
        painter,
        tile.shrink(3.0 * u),
        shakmaty::Piece {
            color,
            role: shakmaty::Role::King,
        },
        p.pieces,
    );
    let clock_w = 250.0 * u;
    let name = Rect::from_min_max(
        rect.min + Vec2::new(80.0 * u, 0.0),
        egui::pos2(rect.max.x - clock_w - 12.0 * u, rect.max.y),
    );
    put_text(
        ui,
        name,
        RichText::new(text::player(p.view, seat))
            .size(44.0 * u)
            .strong()
            .color(theme::team(team)),
        Align::Min,
    );
    let clock_rect = Rect::from_min_size(
        egui::pos2(rect.max.x - clock_w, rect.min.y + 4.0 * u),
        Vec2::new(clock_w, rect.height() - 8.0 * u),
    );
    paint_clock(ui, clock_rect, p.view, b, color, p.clock_at, 58.0 * u);
}

/// A player's clock as the hall sees it, filling `rect` (digits `size` high): lit while
/// it runs. Never a flag: a clock at zero reads 0:00 like any other reading, in the same
/// colours.
pub(crate) fn paint_clock(
    ui: &mut Ui,
    rect: Rect,
    view: &SpectatorView,
    b: &PublicBoard,
    color: Color,
    clock_at: Millis,
    size: f32,
) {
    let running = view.result.is_none() && b.clock.running == Some(color);
    let (fill, ink) = if running {
        (theme::CLOCK_RUNNING_FILL, theme::CLOCK_RUNNING_TEXT)
    } else {
        (theme::CLOCK_IDLE_FILL, theme::CLOCK_IDLE_TEXT)
    };
    ui.painter().rect_filled(rect, size / 5.8, fill);
    let reading = if b.clock.present {
        b.clock
            .remaining(color, clock_at)
            .map_or_else(|| "–:––".to_owned(), text::clock)
    } else {
        "–:––".to_owned()
    };
    put_text(
        ui,
        rect,
        RichText::new(reading)
            .font(FontId::monospace(size))
            .strong()
            .color(ink),
        Align::Center,
    );
}

/// The last two plies of a board, spelled as spectators may see them.
fn recent_moves(view: &SpectatorView, b: &PublicBoard) -> String {
    let board = if view.boards.len() > 1 {
        format!("{}  ·  ", text::board(b.id))
    } else {
        String::new()
    };
    if !b.started {
        return format!("{board}waiting for the pieces to be set up");
    }
    let plies: Vec<_> = view.plies_on(b.id).collect();
    let n = plies.len();
    let shown = &plies[n.saturating_sub(2)..];
    if shown.is_empty() {
        return format!("{board}no moves yet");
    }
    let moves = shown
        .iter()
        .map(|p| format!("{} {}", text::numbered(p.number, p.color), p.san))
        .collect::<Vec<_>>()
        .join("   ");
    format!("{board}{moves}")
}

/// A label laid out inside `rect`, vertically centred, aligned as asked, cut with an
/// ellipsis when too long (names can be).
pub(crate) fn put_text(ui: &mut Ui, rect: Rect, text: RichText, align: Align) {
    let layout = match align {
        Align::Min => Layout::left_to_right(Align::Center),
        Align::Max => Layout::right_to_left(Align::Center),
        Align::Center => Layout::centered_and_justified(egui::Direction::LeftToRight),
    };
    ui.scope_builder(UiBuilder::new().max_rect(rect).layout(layout), |ui| {
        ui.add(egui::Label::new(text).truncate().selectable(false));
    });
}
