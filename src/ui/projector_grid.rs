//! The projector during an evening: the round's matches in a grid readable from the back
//! of the hall, one match large (the TD's choice), or the standings between rounds.
//!
//! Everything a tile shows comes from the match's [`SpectatorView`] (already delayed by
//! the broadcast delay) and from the pairing sheet (team names, earlier games' points):
//! the same filter as the single match's projector, so no alert, no unruled illegal
//! move, no fallen flag, no sensor detail ever reaches the hall.

use egui::{Align, Color32, Rect, RichText, Ui, Vec2};
use shakmaty::Color;

use super::board::{BoardLook, ReserveFlow, paint_board, paint_reserve};
use super::pieces::PieceSet;
use super::projector::{hall_canvas, paint_clock, put_text};
use super::{text, theme};
use crate::arbiter::spectator::{PublicBoard, SpectatorView};
use crate::event::GameRef;
use crate::rules::{Seat, Team};
use crate::{BoardId, Millis};

/// What the projector shows during an evening, as the TD chose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HallChoice {
    /// The round's matches while any is in play; the standings between rounds.
    #[default]
    Auto,
    /// The round's matches.
    Grid,
    /// One match, large.
    One(GameRef),
    /// The standings.
    Standings,
}

/// One match in the grid.
pub struct GridTile<'a> {
    /// `1.2` and the table.
    pub label: String,
    /// The team on side A (White on board A) and on side B.
    pub teams: [String; 2],
    /// What the hall may see (already delayed).
    pub view: &'a SpectatorView,
    /// Match time at which to read the clocks (now minus the delay).
    pub clock_at: Millis,
    /// Points from the pairing's earlier games (side A, side B).
    pub earlier: [f32; 2],
}

/// The round's matches in a grid filling `ui`.
pub fn show_grid(ui: &mut Ui, tiles: &[GridTile<'_>], heading: &str, pieces: Option<&PieceSet>) {
    let (full, u) = hall_canvas(ui);
    let head_h = 56.0 * u;
    put_text(
        ui,
        Rect::from_min_size(
            full.min + Vec2::new(24.0 * u, 0.0),
            Vec2::new(full.width() - 48.0 * u, head_h),
        ),
        RichText::new(heading)
            .size(34.0 * u)
            .color(theme::PROJECTOR_DIM),
        Align::Min,
    );
    let area = Rect::from_min_max(full.min + Vec2::new(0.0, head_h), full.max);
    if tiles.is_empty() {
        put_text(
            ui,
            area,
            RichText::new("The next round is about to begin")
                .size(60.0 * u)
                .color(theme::PROJECTOR_DIM),
            Align::Center,
        );
        return;
    }
    let (cols, rows) = grid_shape(tiles.len(), area.size());
    let cell = Vec2::new(area.width() / cols as f32, area.height() / rows as f32);
    for (i, tile) in tiles.iter().enumerate() {
        let (c, r) = (i % cols, i / cols);
        let rect = Rect::from_min_size(
            area.min + Vec2::new(c as f32 * cell.x, r as f32 * cell.y),
            cell,
        )
        .shrink(10.0 * u);
        show_tile(ui, rect, tile, pieces);
    }
}

/// Columns and rows that make the biggest tiles of a match's shape (about 16:9).
fn grid_shape(n: usize, area: Vec2) -> (usize, usize) {
    let aspect = 16.0 / 9.0;
    (1..=n)
        .map(|cols| {
            let rows = n.div_ceil(cols);
            let w = area.x / cols as f32;
            let h = area.y / rows as f32;
            // The tile's usable size at the match's shape.
            let scale = (w / aspect).min(h);
            (cols, rows, scale)
        })
        .max_by(|a, b| a.2.total_cmp(&b.2))
        .map_or((1, 1), |(c, r, _)| (c, r))
}

/// One match: the teams and score, both boards with reserves, four clocks, the result.
fn show_tile(ui: &mut Ui, rect: Rect, t: &GridTile<'_>, pieces: Option<&PieceSet>) {
    let v = t.view;
    let u = (rect.width() / 960.0).min(rect.height() / 540.0);
    ui.painter()
        .rect_filled(rect, 12.0 * u, Color32::from_rgb(28, 31, 38));
    let pad = 14.0 * u;
    // Teams and score.
    let bar_h = 54.0 * u;
    let bar = Rect::from_min_size(
        rect.min + Vec2::splat(pad),
        Vec2::new(rect.width() - 2.0 * pad, bar_h),
    );
    let score = |i: usize| t.earlier[i] + v.result.as_ref().map_or(0.0, |r| r.score[i]);
    let part = |from: f32, to: f32| {
        Rect::from_min_max(
            egui::pos2(bar.min.x + bar.width() * from, bar.min.y),
            egui::pos2(bar.min.x + bar.width() * to, bar.max.y),
        )
    };
    put_text(
        ui,
        part(0.0, 0.42),
        RichText::new(format!("{}  {}", t.label, t.teams[0]))
            .size(34.0 * u)
            .strong()
            .color(theme::TEAM_WHITE_A),
        Align::Min,
    );
    put_text(
        ui,
        part(0.42, 0.58),
        RichText::new(format!(
            "{} : {}",
            text::points(score(0)),
            text::points(score(1))
        ))
        .size(40.0 * u)
        .strong()
        .color(theme::PROJECTOR_TEXT),
        Align::Center,
    );
    put_text(
        ui,
        part(0.58, 1.0),
        RichText::new(&t.teams[1])
            .size(34.0 * u)
            .strong()
            .color(theme::TEAM_BLACK_A),
        Align::Max,
    );
    let mut top = bar.max.y + 6.0 * u;
    if let Some(result) = &v.result {
        let banner = Rect::from_min_size(
            egui::pos2(rect.min.x + pad, top),
            Vec2::new(rect.width() - 2.0 * pad, 40.0 * u),
        );
        ui.painter()
            .rect_filled(banner, 6.0 * u, Color32::from_rgb(250, 215, 90));
        let headline = match result.winner {
            Some(Team::WhiteA) => format!("{} win", t.teams[0]),
            Some(Team::BlackA) => format!("{} win", t.teams[1]),
            None => "Draw".to_owned(),
        };
        put_text(
            ui,
            banner,
            RichText::new(format!("{headline} — {}", result.text))
                .size(26.0 * u)
                .strong()
                .color(Color32::from_rgb(20, 20, 20)),
            Align::Center,
        );
        top = banner.max.y + 6.0 * u;
    }
    let area = Rect::from_min_max(
        egui::pos2(rect.min.x + pad, top),
        rect.max - Vec2::splat(pad),
    );
    match v.boards.as_slice() {
        [a, b] => {
            let gap = 24.0 * u;
            let half = (area.width() - gap) / 2.0;
            let left = Rect::from_min_size(area.min, Vec2::new(half, area.height()));
            let right = Rect::from_min_size(
                area.min + Vec2::new(half + gap, 0.0),
                Vec2::new(half, area.height()),
            );
            column(ui, left, t, a, true, pieces, u);
            column(ui, right, t, b, false, pieces, u);
        }
        [a] => column(ui, area, t, a, true, pieces, u),
        _ => {}
    }
}

/// A board with its two players and clocks above and below, the reserves beside it.
fn column(
    ui: &mut Ui,
    col: Rect,
    t: &GridTile<'_>,
    b: &PublicBoard,
    white_at_bottom: bool,
    pieces: Option<&PieceSet>,
    u: f32,
) {
    let row_h = 40.0 * u;
    let gap = 4.0 * u;
    let size = (col.height() - 2.0 * row_h - 2.0 * gap)
        .min(col.width() / 1.15)
        .max(24.0);
    let reserve_w = size * 0.13;
    let block_w = size + reserve_w + gap;
    let x0 = col.min.x + (col.width() - block_w) / 2.0;
    // Board A's reserves on the left, board B's on the right: the outer side of the pair.
    let (board_x, reserve_x) = if b.id == BoardId::A {
        (x0 + reserve_w + gap, x0)
    } else {
        (x0, x0 + size + gap)
    };
    let (top_color, bottom_color) = if white_at_bottom {
        (Color::Black, Color::White)
    } else {
        (Color::White, Color::Black)
    };
    let top_row = Rect::from_min_size(egui::pos2(x0, col.min.y), Vec2::new(block_w, row_h));
    player(ui, top_row, t, b, top_color, u);
    let board = Rect::from_min_size(egui::pos2(board_x, top_row.max.y + gap), Vec2::splat(size));
    paint_board(
        ui,
        board,
        &BoardLook {
            white_at_bottom,
            pieces,
            coordinates: false,
            ..BoardLook::of_hall(b)
        },
    );
    let reserve = Rect::from_min_size(
        egui::pos2(reserve_x, board.min.y),
        Vec2::new(reserve_w, size),
    );
    let slot = (size / 8.0).min(reserve_w);
    let half = size / 2.0;
    let painter = ui.painter();
    paint_reserve(
        painter,
        Rect::from_min_size(reserve.min, Vec2::new(reserve_w, half)),
        &(*b.reserve(top_color)).into(),
        top_color,
        pieces,
        slot,
        ReserveFlow::Down,
        false,
    );
    paint_reserve(
        painter,
        Rect::from_min_size(
            reserve.min + Vec2::new(0.0, half),
            Vec2::new(reserve_w, half),
        ),
        &(*b.reserve(bottom_color)).into(),
        bottom_color,
        pieces,
        slot,
        ReserveFlow::Up,
        false,
    );
    let bottom_row =
        Rect::from_min_size(egui::pos2(x0, board.max.y + gap), Vec2::new(block_w, row_h));
    player(ui, bottom_row, t, b, bottom_color, u);
}

/// A player's name in the team's colour and the clock (lit while it runs; never a flag).
fn player(ui: &mut Ui, rect: Rect, t: &GridTile<'_>, b: &PublicBoard, color: Color, u: f32) {
    let seat = Seat::new(b.id, color);
    let clock_w = 130.0 * u;
    put_text(
        ui,
        Rect::from_min_max(
            rect.min,
            egui::pos2(rect.max.x - clock_w - 6.0 * u, rect.max.y),
        ),
        RichText::new(text::player(t.view, seat))
            .size(28.0 * u)
            .strong()
            .color(theme::team(seat.team())),
        Align::Min,
    );
    let clock = Rect::from_min_size(
        egui::pos2(rect.max.x - clock_w, rect.min.y + 2.0 * u),
        Vec2::new(clock_w, rect.height() - 4.0 * u),
    );
    paint_clock(ui, clock, t.view, b, color, t.clock_at, 32.0 * u);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grid_takes_the_shape_with_the_biggest_tiles() {
        let hd = Vec2::new(1920.0, 1024.0);
        assert_eq!(grid_shape(1, hd), (1, 1));
        assert_eq!(grid_shape(2, hd), (2, 1));
        assert_eq!(grid_shape(4, hd), (2, 2));
        assert_eq!(grid_shape(6, hd), (3, 2));
        assert_eq!(grid_shape(9, hd), (3, 3));
    }
}
