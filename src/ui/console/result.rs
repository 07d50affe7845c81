//! The Result tab: the decision waiting for confirmation, the result that stands (and its
//! withdrawal), or the buttons that declare the end of the match.

use egui::{RichText, TextEdit, Ui};

use super::parts::labelled;
use super::{Console, Desk};
use crate::arbiter::TdAction;
use crate::rules::{EndReason, MatchResult, Seat};
use crate::ui::{text, theme};

pub(super) fn show(ui: &mut Ui, console: &mut Console, desk: &Desk<'_>) {
    let (source, view) = (desk.source, desk.view);
    confirm(ui, console, desk);
    if let Some(r) = &view.result {
        let headline = match r.winner {
            Some(t) => format!("{} win", text::team(view, t)),
            None => "Draw".to_owned(),
        };
        ui.label(
            RichText::new(format!("{headline}: {}", r.text))
                .strong()
                .size(16.0),
        );
        ui.label(format!("Result token {}", r.token));
        if ui.button("Withdraw the result").clicked() {
            source.td(TdAction::Undeclare);
        }
        return;
    }
    ui.label("Declare the end of the match:");
    egui::Grid::new("declare")
        .num_columns(4)
        .spacing([6.0, 4.0])
        .show(ui, |ui| {
            for seat in desk.seats() {
                let name = text::player(view, seat);
                ui.label(RichText::new(&name).color(theme::team(seat.team())))
                    .on_hover_text(text::seat(seat));
                if ui.button(format!("{name} resigns")).clicked() {
                    console.ask(
                        format!("{name} resigns"),
                        TdAction::DeclareResult {
                            result: resigns(seat),
                        },
                    );
                }
                if ui
                    .button(format!("{name}'s flag fell, claimed"))
                    .on_hover_text("A flag claim by the opponent (mating material per the rules)")
                    .clicked()
                {
                    console.ask(
                        format!("{name} loses on time (claimed)"),
                        TdAction::ClaimFlag { seat },
                    );
                }
                if ui.button(format!("{name} forfeits")).clicked() {
                    let why = console.forfeit_why.clone();
                    console.ask(
                        format!("{name} forfeits ({why})"),
                        TdAction::DeclareResult {
                            result: MatchResult {
                                winner: Some(seat.opponent().team()),
                                reason: EndReason::Forfeit { seat, why },
                                t_ms: None,
                            },
                        },
                    );
                }
                ui.end_row();
            }
        });
    ui.horizontal(|ui| {
        labelled(
            ui,
            "Forfeit reason:",
            TextEdit::singleline(&mut console.forfeit_why).desired_width(200.0),
        );
    });
    if ui.button("Draw by agreement").clicked() {
        console.ask(
            "Draw by agreement".to_owned(),
            TdAction::DeclareResult {
                result: draw_agreed(),
            },
        );
    }
}

/// The decision the TD was asked to confirm, if any: Confirm sends it, Cancel drops it.
fn confirm(ui: &mut Ui, console: &mut Console, desk: &Desk<'_>) {
    let Some(c) = console.confirm.clone() else {
        return;
    };
    egui::Frame::new()
        .fill(theme::CONFIRM_FILL)
        .inner_margin(8.0)
        .corner_radius(4.0)
        .show(ui, |ui| {
            ui.label(RichText::new(format!("Declare: {}?", c.question)).strong());
            ui.horizontal(|ui| {
                if ui.button("Confirm").clicked() {
                    desk.source.td(c.action.clone());
                    console.confirm = None;
                }
                if ui.button("Cancel").clicked() {
                    console.confirm = None;
                }
            });
        });
}

/// `seat` resigns: the other team wins.
pub(super) fn resigns(seat: Seat) -> MatchResult {
    MatchResult {
        winner: Some(seat.opponent().team()),
        reason: EndReason::Resignation { seat },
        t_ms: None,
    }
}

/// A draw the players agreed.
pub(super) fn draw_agreed() -> MatchResult {
    MatchResult {
        winner: None,
        reason: EndReason::DrawAgreed,
        t_ms: None,
    }
}
