//! A board's move list, newest at the bottom. A click picks a move: the TD corrects it (the
//! board was read wrong) or takes it back; with none picked, the TD adds a move the
//! sensors missed.

use egui::{RichText, ScrollArea, TextEdit, Ui};
use shakmaty::Color;

use super::parts::{entered, labelled};
use super::{Console, Desk};
use crate::arbiter::TdAction;
use crate::arbiter::view::{BoardView, MatchView, PlyView};
use crate::ui::{text, theme};

/// The move list of board `b`, and under it the correction or the added move.
pub(super) fn show(ui: &mut Ui, console: &mut Console, desk: &Desk<'_>, b: &BoardView) {
    let view = desk.view;
    let plies: Vec<&PlyView> = view.plies_on(b.id).collect();
    let list_h = (ui.available_height() - 70.0).max(80.0);
    ScrollArea::vertical()
        .id_salt(("moves", b.id))
        .max_height(list_h)
        .auto_shrink([false, true])
        .stick_to_bottom(true)
        .show(ui, |ui| {
            egui::Grid::new(("move-grid", b.id))
                .num_columns(3)
                .striped(true)
                .spacing([10.0, 2.0])
                .show(ui, |ui| {
                    // A row per move number: White's move, then Black's; `…` in White's
                    // place when Black's move stands alone, a blank while Black has
                    // not moved.
                    let mut i = 0;
                    while i < plies.len() {
                        let p = plies[i];
                        ui.label(RichText::new(format!("{}.", p.ply.number)).weak());
                        if p.ply.color == Color::Black {
                            ui.label("…");
                            ply_cell(ui, console, view, p);
                            i += 1;
                        } else {
                            ply_cell(ui, console, view, p);
                            match plies.get(i + 1) {
                                Some(q)
                                    if q.ply.color == Color::Black
                                        && q.ply.number == p.ply.number =>
                                {
                                    ply_cell(ui, console, view, q);
                                    i += 2;
                                }
                                _ => {
                                    ui.label("");
                                    i += 1;
                                }
                            }
                        }
                        ui.end_row();
                    }
                    if plies.is_empty() {
                        ui.label(RichText::new("no moves yet").weak());
                        ui.end_row();
                    }
                });
        });
    if let Some(sel) = console.selected.filter(|s| s.board == b.id)
        && let Some(p) = plies.iter().find(|p| p.ply == sel)
    {
        correction(ui, console, desk, p);
    } else {
        missed_move(ui, console, desk, b);
    }
}

/// One move in the list: red when illegal, amber with a comment; its clock, the
/// illegality and the comment on hover.
fn ply_cell(ui: &mut Ui, console: &mut Console, view: &MatchView, p: &PlyView) {
    let mut rich = RichText::new(&p.san).monospace();
    if p.illegal.is_some() {
        rich = rich.color(theme::BAD).strong().underline();
    } else if p.comment.is_some() {
        rich = rich.color(theme::WARN);
    }
    let selected = console.selected == Some(p.ply);
    let mut r = ui.selectable_label(selected, rich);
    let mut hover = Vec::new();
    if let Some(ms) = p.clock_ms {
        hover.push(format!("clock after the move: {}", text::clock(ms)));
    }
    if let Some(why) = &p.illegal {
        let ruled = if view.illegal_ruled(p.ply) {
            "ruled on"
        } else {
            "not ruled on yet: hidden from the projector"
        };
        hover.push(format!("illegal: {why} ({ruled})"));
    }
    if let Some(c) = &p.comment {
        hover.push(c.clone());
    }
    if !hover.is_empty() {
        r = r.on_hover_text(hover.join("\n"));
    }
    if r.clicked() {
        console.selected = if selected { None } else { Some(p.ply) };
        console.correction.clear();
    }
}

/// The picked move: correct it to another, take it back, or close.
fn correction(ui: &mut Ui, console: &mut Console, desk: &Desk<'_>, p: &PlyView) {
    let sel = p.ply;
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(format!("{} {}", text::move_number(p), p.san)).strong());
        let r = labelled(
            ui,
            "correct to",
            TextEdit::singleline(&mut console.correction).desired_width(70.0),
        );
        let enter = entered(ui, &r);
        if (ui.button("Correct").clicked() || enter) && !console.correction.trim().is_empty() {
            desk.source.td(TdAction::CorrectMove {
                ply: sel,
                mv: console.correction.trim().to_owned(),
            });
            console.correction.clear();
        }
        if ui
            .button("Take back")
            .on_hover_text("Remove this move from the record")
            .clicked()
        {
            desk.source.td(TdAction::TakeBack { ply: sel });
            console.selected = None;
        }
        if ui.button("Close").clicked() {
            console.selected = None;
        }
    });
}

/// A move the board did not see, typed by the TD and played now.
fn missed_move(ui: &mut Ui, console: &mut Console, desk: &Desk<'_>, b: &BoardView) {
    ui.horizontal(|ui| {
        let i = b.id.index();
        let r = labelled(
            ui,
            format!("Add a move on {}:", b.id),
            TextEdit::singleline(&mut console.add_move[i]).desired_width(70.0),
        )
        .on_hover_text("A move the board did not see (SAN or UCI), played now");
        let enter = entered(ui, &r);
        if (ui.button(format!("Add on {}", b.id)).clicked() || enter)
            && !console.add_move[i].trim().is_empty()
        {
            desk.source.td(TdAction::AddMove {
                board: b.id,
                mv: console.add_move[i].trim().to_owned(),
            });
            console.add_move[i].clear();
        }
    });
}
