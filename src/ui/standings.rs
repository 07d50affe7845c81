//! The standings on screen: large for the hall between rounds, compact in the TD's
//! overview. The numbers are the event core's ([`crate::event::standings`]); the words
//! are the exports' ([`crate::event::export`]).

use egui::{Align, Color32, Rect, RichText, Ui, Vec2};

use super::projector::{hall_canvas, put_text};
use super::theme;
use crate::event::{Event, export};

/// The standings filling `ui`, readable from the back of the hall.
pub fn show_hall(ui: &mut Ui, event: &Event, heading: &str) {
    let (full, u) = hall_canvas(ui);
    let table = event.standings();
    let tiebreaks = &event.preset().event.tiebreaks;
    let pad = 40.0 * u;
    let width = full.width() - 2.0 * pad;
    put_text(
        ui,
        Rect::from_min_size(full.min + Vec2::splat(pad), Vec2::new(width, 80.0 * u)),
        RichText::new(heading)
            .size(60.0 * u)
            .strong()
            .color(theme::PROJECTOR_TEXT),
        Align::Min,
    );
    let top = full.min.y + pad + 110.0 * u;
    let rows = table.len().max(1) as f32 + 1.0;
    let row_h = ((full.max.y - pad - top) / rows).min(84.0 * u);
    let size = row_h * 0.6;
    // Columns (fractions of the width): place, team and players, points, each tiebreak.
    let n_tb = tiebreaks.len() as f32;
    let tb_w = 0.1;
    let points_end = 1.0 - tb_w * n_tb;
    let cells = |y: f32| {
        let at = |from: f32, to: f32| {
            Rect::from_min_max(
                egui::pos2(full.min.x + pad + width * from, y),
                egui::pos2(full.min.x + pad + width * to, y + row_h),
            )
        };
        let mut v = vec![
            at(0.0, 0.07),
            at(0.07, points_end - 0.12),
            at(points_end - 0.12, points_end),
        ];
        for k in 0..tiebreaks.len() {
            let k = k as f32;
            v.push(at(points_end + tb_w * k, points_end + tb_w * (k + 1.0)));
        }
        v
    };
    let dim = |t: &str| {
        RichText::new(t)
            .size(size * 0.8)
            .color(theme::PROJECTOR_DIM)
    };
    let head = cells(top);
    put_text(ui, head[1], dim("Team"), Align::Min);
    put_text(ui, head[2], dim("Points"), Align::Max);
    for (k, tb) in tiebreaks.iter().enumerate() {
        put_text(ui, head[3 + k], dim(short_name(*tb)), Align::Max);
    }
    for (i, s) in table.iter().enumerate() {
        let y = top + row_h * (i as f32 + 1.0);
        let row = cells(y);
        if i % 2 == 0 {
            ui.painter().rect_filled(
                Rect::from_min_max(
                    row[0].min - Vec2::new(10.0 * u, 0.0),
                    row[row.len() - 1].max + Vec2::new(10.0 * u, 0.0),
                ),
                6.0 * u,
                Color32::from_rgb(28, 31, 38),
            );
        }
        let players = event.team(s.team).map_or(String::new(), |t| {
            t.players
                .iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(" & ")
        });
        put_text(
            ui,
            row[0],
            RichText::new(export::place_text(s))
                .size(size)
                .color(theme::PROJECTOR_TEXT),
            Align::Min,
        );
        put_text(
            ui,
            row[1],
            RichText::new(format!("{}  ({players})", event.team_name(s.team)))
                .size(size)
                .strong()
                .color(theme::PROJECTOR_TEXT),
            Align::Min,
        );
        put_text(
            ui,
            row[2],
            RichText::new(export::points_text(s.points))
                .size(size)
                .strong()
                .color(Color32::from_rgb(250, 215, 90)),
            Align::Max,
        );
        for (k, tb) in s.tiebreaks.iter().enumerate() {
            put_text(
                ui,
                row[3 + k],
                RichText::new(tb.map_or_else(|| "–".to_owned(), export::points_text))
                    .size(size * 0.9)
                    .color(theme::PROJECTOR_DIM),
                Align::Max,
            );
        }
    }
}

fn short_name(tb: crate::rules::Tiebreak) -> &'static str {
    match tb {
        crate::rules::Tiebreak::HeadToHead => "H2H",
        crate::rules::Tiebreak::SonnebornBerger => "SB",
        crate::rules::Tiebreak::Wins => "Wins",
    }
}

/// The standings as a compact table for the TD.
pub fn show_compact(ui: &mut Ui, event: &Event) {
    let tiebreaks = &event.preset().event.tiebreaks;
    egui::Grid::new("standings-compact")
        .striped(true)
        .num_columns(3 + tiebreaks.len())
        .show(ui, |ui| {
            ui.label(RichText::new("#").strong());
            ui.label(RichText::new("Team").strong());
            ui.label(RichText::new("Pts").strong());
            for tb in tiebreaks {
                ui.label(RichText::new(short_name(*tb)).strong())
                    .on_hover_text(export::tiebreak_name(*tb));
            }
            ui.end_row();
            for s in event.standings() {
                ui.label(export::place_text(&s));
                ui.label(event.team_name(s.team));
                ui.label(RichText::new(export::points_text(s.points)).strong());
                for tb in &s.tiebreaks {
                    ui.label(tb.map_or_else(|| "–".to_owned(), export::points_text));
                }
                ui.end_row();
            }
        });
}
