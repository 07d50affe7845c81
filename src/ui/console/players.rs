//! The Players tab: names by seat, applied with one click; the teams they make.

use egui::{RichText, TextEdit, Ui};

use super::parts::labelled;
use super::{Console, Desk};
use crate::arbiter::TdAction;
use crate::rules::Team;
use crate::ui::{text, theme};

pub(super) fn show(ui: &mut Ui, console: &mut Console, desk: &Desk<'_>) {
    let view = desk.view;
    ui.label("Names by seat (teams: White A with Black B, Black A with White B):");
    egui::Grid::new("names").num_columns(2).show(ui, |ui| {
        for seat in desk.seats() {
            labelled(
                ui,
                RichText::new(text::seat(seat)).color(theme::team(seat.team())),
                TextEdit::singleline(&mut console.names[seat.index()]).desired_width(200.0),
            );
            ui.end_row();
        }
    });
    let changed = console.names != view.players;
    if ui
        .add_enabled(changed, egui::Button::new("Apply names"))
        .clicked()
    {
        desk.source.td(TdAction::SetPlayers {
            names: console.names.clone(),
        });
    }
    for t in [Team::WhiteA, Team::BlackA] {
        ui.label(RichText::new(format!("Team: {}", text::team(view, t))).color(theme::team(t)));
    }
}
