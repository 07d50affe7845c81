//! What several panels draw alike: a card (an alert, a player's penalties), a field with
//! its label (screen readers and the tests find a field by the label that names it).

use egui::{Color32, Response, Stroke, TextEdit, Ui, WidgetText};

/// A framed card with a coloured outline, full width, a little space below.
pub(super) fn card(ui: &mut Ui, stripe: Color32, add: impl FnOnce(&mut Ui)) {
    egui::Frame::group(ui.style())
        .stroke(Stroke::new(1.0, stripe))
        .inner_margin(8.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            add(ui);
        });
    ui.add_space(4.0);
}

/// A label and the text field it names.
pub(super) fn labelled(ui: &mut Ui, label: impl Into<WidgetText>, field: TextEdit<'_>) -> Response {
    let l = ui.label(label);
    ui.add(field).labelled_by(l.id)
}

/// Whether the TD just pressed Enter in `field` (as good as clicking its button).
pub(super) fn entered(ui: &Ui, field: &Response) -> bool {
    field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter))
}
