//! The board pair, side by side as the players sit: each board with its link line, its two
//! players (name, reserve, clock with its flag), the sensors' view of squares that differ
//! from the record, the "board matches the record" line and the move list.

use egui::{Align, Color32, FontId, Layout, Rect, RichText, Sense, Ui, Vec2};
use shakmaty::Color;

use super::{Console, Desk, moves};
use crate::BoardId;
use crate::arbiter::view::BoardView;
use crate::rules::Seat;
use crate::ui::board::{BoardLook, ReserveFlow, paint_board_in_row, paint_reserve, reserve_words};
use crate::ui::{text, theme};

/// Height of a player's row (name, reserve, clock).
const ROW_H: f32 = 38.0;

/// Both boards, sharing the width.
pub(super) fn show(ui: &mut Ui, console: &mut Console, desk: &Desk<'_>) {
    let n = desk.view.boards.len().max(1);
    let avail = ui.available_rect_before_wrap();
    let gap = 12.0;
    let width = (avail.width() - gap * (n as f32 - 1.0)) / n as f32;
    ui.horizontal_top(|ui| {
        for (i, b) in desk.view.boards.iter().enumerate() {
            if i > 0 {
                ui.add_space(gap);
            }
            ui.allocate_ui_with_layout(
                Vec2::new(width, avail.height()),
                Layout::top_down(Align::Min),
                |ui| {
                    ui.set_width(width);
                    board_column(ui, console, desk, b);
                },
            );
        }
    });
}

/// One board, top to bottom.
fn board_column(ui: &mut Ui, console: &mut Console, desk: &Desk<'_>, b: &BoardView) {
    link_line(ui, b);
    // Partners side by side: board A with White at the bottom, board B with Black, as
    // the players sit and as the projector shows them.
    let white_at_bottom = b.id == BoardId::A;
    let (top, bottom) = if white_at_bottom {
        (Color::Black, Color::White)
    } else {
        (Color::White, Color::Black)
    };
    let width = ui.available_width();
    let reserved_below = 26.0 + 190.0 + 34.0;
    let size = (ui.available_height() - 2.0 * ROW_H - reserved_below)
        .min(width)
        .clamp(160.0, 560.0);
    player_row(ui, desk, b, top, width);
    paint_board_in_row(
        ui,
        width,
        size,
        &BoardLook {
            white_at_bottom,
            pieces: desk.pieces,
            ..BoardLook::of_view(b, true)
        },
    );
    player_row(ui, desk, b, bottom, width);
    sync_line(ui, b);
    moves::show(ui, console, desk, b);
}

/// Port, serial, version, orientation and clock side of a board: the TD checks at a
/// glance that board A is the board they think it is.
fn link_line(ui: &mut Ui, b: &BoardView) {
    ui.horizontal(|ui| {
        ui.label(RichText::new(text::board(b.id)).size(20.0).strong());
        let (chip, fill) = if b.link.connected {
            ("connected", theme::GOOD_FILL)
        } else {
            ("NOT CONNECTED", theme::BAD_FILL)
        };
        egui::Frame::new()
            .fill(fill)
            .corner_radius(4.0)
            .inner_margin(egui::Margin::symmetric(6, 2))
            .show(ui, |ui| {
                ui.label(RichText::new(chip).strong().color(Color32::WHITE));
            });
        if b.judging {
            ui.label(RichText::new("judging a clock press…").italics());
        }
    });
    let mut parts = Vec::new();
    if let Some(p) = &b.link.port {
        parts.push(p.clone());
    }
    if let Some(s) = &b.link.serial {
        parts.push(format!("serial {s}"));
    }
    if let Some((major, minor)) = b.link.version {
        parts.push(format!("v{major}.{minor}"));
    }
    parts.push(text::orientation(b.orientation).to_owned());
    parts.push(if b.clock.present {
        text::white_clock_side(b.white_side).to_owned()
    } else {
        "no clock seen".to_owned()
    });
    if b.link.losses > 0 {
        parts.push(format!("lost {}× this match", b.link.losses));
    }
    ui.label(RichText::new(parts.join(" · ")).small());
}

/// A player's row: team stripe, colour, name, reserve, clock.
fn player_row(ui: &mut Ui, desk: &Desk<'_>, b: &BoardView, color: Color, width: f32) {
    let (view, pieces) = (desk.view, desk.pieces);
    let seat = Seat::new(b.id, color);
    let (rect, _) = ui.allocate_exact_size(Vec2::new(width, ROW_H), Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(
        Rect::from_min_size(rect.min, Vec2::new(5.0, rect.height())),
        1.0,
        theme::team(seat.team()),
    );
    // The player's colour as a king on a light tile (a black disc vanishes on dark).
    let tile = Rect::from_center_size(
        rect.min + Vec2::new(19.0, rect.height() / 2.0),
        Vec2::splat(26.0),
    );
    painter.rect_filled(tile, 3.0, theme::LIGHT_SQUARE);
    crate::ui::pieces::paint_piece(
        &painter,
        tile.shrink(1.0),
        shakmaty::Piece {
            color,
            role: shakmaty::Role::King,
        },
        pieces,
    );
    let clock_w = 92.0;
    let name_w = (width * 0.36).min(180.0);
    let name_rect = Rect::from_min_size(rect.min + Vec2::new(32.0, 0.0), Vec2::new(name_w, ROW_H));
    ui.scope_builder(
        egui::UiBuilder::new()
            .max_rect(name_rect)
            .layout(Layout::left_to_right(Align::Center)),
        |ui| {
            ui.add(
                egui::Label::new(
                    RichText::new(text::player(view, seat))
                        .strong()
                        .size(16.0)
                        .color(theme::team(seat.team())),
                )
                .truncate(),
            )
            .on_hover_text(text::seat(seat));
        },
    );
    // The reserve, drawn and in words (for the TD's eye and for screen readers).
    let reserve = b.reserve(color);
    let reserve_rect = Rect::from_min_max(
        egui::pos2(name_rect.max.x + 6.0, rect.min.y + 3.0),
        egui::pos2(rect.max.x - clock_w - 8.0, rect.max.y - 3.0),
    );
    paint_reserve(
        &painter,
        reserve_rect,
        reserve,
        color,
        pieces,
        32.0,
        ReserveFlow::Right,
        true,
    );
    ui.interact(
        reserve_rect,
        ui.scope_id().with(("reserve", seat.index())),
        Sense::hover(),
    )
    .on_hover_text(format!(
        "Reserve of {}: {}",
        text::player(view, seat),
        reserve_words(reserve)
    ));
    let clock_rect = Rect::from_min_size(
        egui::pos2(rect.max.x - clock_w, rect.min.y + 2.0),
        Vec2::new(clock_w, 34.0),
    );
    clock_face(ui, clock_rect, desk, b, color);
}

/// The clock, with its flag (the TD sees it; the projector never does): white while
/// running, red digits in the last ten seconds, red when the flag fell.
fn clock_face(ui: &mut Ui, rect: Rect, desk: &Desk<'_>, b: &BoardView, color: Color) {
    let running = desk.view.result.is_none() && b.clock.running == Some(color);
    let flag = match color {
        Color::White => b.clock.white_flag,
        Color::Black => b.clock.black_flag,
    };
    let remaining = b.clock.remaining(color, desk.now);
    let low = remaining.is_some_and(|ms| ms < 10_000);
    let (fill, ink) = if flag || remaining == Some(0) && b.clock.present {
        (theme::BAD_FILL, Color32::WHITE)
    } else if running {
        (
            theme::CLOCK_RUNNING_FILL,
            if low {
                theme::BAD
            } else {
                theme::CLOCK_RUNNING_TEXT
            },
        )
    } else {
        (theme::CLOCK_IDLE_FILL, theme::CLOCK_IDLE_TEXT)
    };
    ui.painter().rect_filled(rect, 5.0, fill);
    let reading = text::clock_reading(b.clock.present, remaining);
    let label = if flag {
        format!("{reading} FLAG")
    } else {
        reading
    };
    ui.scope_builder(
        egui::UiBuilder::new()
            .max_rect(rect)
            .layout(Layout::centered_and_justified(egui::Direction::LeftToRight)),
        |ui| {
            ui.add(
                egui::Label::new(
                    RichText::new(label)
                        .font(FontId::monospace(22.0))
                        .strong()
                        .color(ink),
                )
                .selectable(false),
            );
        },
    );
}

/// The live "board matches the record" indicator.
fn sync_line(ui: &mut Ui, b: &BoardView) {
    if !b.started {
        ui.label(
            RichText::new("Waiting for the start position on this board")
                .color(theme::WARN)
                .strong(),
        );
        return;
    }
    if b.in_sync() {
        ui.label(
            RichText::new("OK: board matches the record")
                .color(theme::OK)
                .strong(),
        );
    } else {
        let squares: Vec<String> = b.differing.iter().map(ToString::to_string).collect();
        ui.label(
            RichText::new(format!("DIFFERS from the record on {}", squares.join(" ")))
                .color(theme::DIFFERS)
                .strong(),
        )
        .on_hover_text("Outlined on the board, with what the sensors see there");
    }
}
