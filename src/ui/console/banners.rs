//! Loud, full-width banners over the whole console: a board not connected (red, standing
//! until it is back), a problem with the journal, and notices: a board back, a penalty
//! time to set on the clock (each with its OK).

use egui::{Color32, RichText, Ui};

use super::{Console, Desk};
use crate::ui::{text, theme};

/// The banners, if there is anything to say.
pub(super) fn show(ui: &mut Ui, console: &mut Console, desk: &Desk<'_>) {
    let now = desk.now;
    let mut standing: Vec<String> = Vec::new();
    if let Some(p) = desk.source.problem() {
        standing.push(format!("PROBLEM: {p}"));
    }
    for b in &desk.view.boards {
        if !b.link.connected {
            let why = b
                .link
                .lost_because
                .clone()
                .unwrap_or_else(|| "not connected yet".to_owned());
            let port = b.link.port.clone().unwrap_or_else(|| "its port".to_owned());
            let since = console.lost_at[b.id.index()].map_or(String::new(), |t| {
                format!(" for {}", text::duration_words(now.saturating_sub(t)))
            });
            standing.push(format!(
                "BOARD {} NOT CONNECTED{since} — {why} — looking for it on {port}",
                b.id
            ));
        }
    }
    let paused = desk.view.clocks.paused.as_ref().map(|p| {
        format!(
            "PLAY STOPPED on both boards — {} — for {} — Resume both with {} or the button on the right",
            p.text,
            text::duration_words(now.saturating_sub(p.since)),
            console.keys.pause
        )
    });
    if standing.is_empty() && console.notices.is_empty() && paused.is_none() {
        return;
    }
    let mut dismissed = None;
    egui::Panel::top("td-banners").show(ui, |ui| {
        for line in standing {
            banner(ui, theme::BAD_FILL, &line, None);
        }
        if let Some(line) = &paused {
            banner(ui, theme::WARN_FILL, line, None);
        }
        for (i, n) in console.notices.iter().enumerate().rev() {
            let fill = if n.good {
                theme::GOOD_FILL
            } else {
                theme::WARN_FILL
            };
            let line = format!("{} (at {})", n.text, text::match_time(n.at_ms));
            if banner(ui, fill, &line, Some("OK")) {
                dismissed = Some(i);
            }
        }
    });
    if let Some(i) = dismissed {
        console.notices.remove(i);
    }
}

/// One banner line; returns whether its button was clicked.
fn banner(ui: &mut Ui, fill: Color32, line: &str, button: Option<&str>) -> bool {
    let mut clicked = false;
    egui::Frame::new()
        .fill(fill)
        .inner_margin(6.0)
        .corner_radius(4.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.horizontal(|ui| {
                ui.label(
                    RichText::new(line)
                        .size(18.0)
                        .strong()
                        .color(Color32::WHITE),
                );
                if let Some(b) = button {
                    clicked = ui.small_button(b).clicked();
                }
            });
        });
    clicked
}
