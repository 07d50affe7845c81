//! The clock controls: both clocks as one. Always in sight above the alert queue: start
//! both, pause both, resume both (one click, or the pause key, F9 by default). The Clocks
//! tab: per board who keeps its time, what became of the last command (a change checked
//! on the clock, a refusal and what to set by hand), the four times to set, the clock
//! buttons' device and the keys that stand in for it.
//!
//! The keys are function keys: they type nothing into a move being entered in a field.

use egui::{Key, RichText, TextEdit, Ui};

use super::parts::{card, entered, labelled};
use super::{Console, Desk};
use crate::arbiter::{ClockPlan, TdAction};
use crate::buttons::ButtonsFile;
use crate::rules::Seat;
use crate::ui::{text, theme};

/// The console's keys for the clocks (from the buttons file, else F9 and F1–F4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockKeys {
    /// Stops both clocks, and restarts both.
    pub pause: String,
    /// Presses on Tandem's own clock, by key name.
    pub presses: Vec<(String, Seat)>,
}

impl ClockKeys {
    #[must_use]
    pub fn from_file(f: &ButtonsFile) -> ClockKeys {
        ClockKeys {
            pause: f.pause_key.clone(),
            presses: f
                .window_keys
                .iter()
                .map(|k| (k.key.clone(), k.seat.seat()))
                .collect(),
        }
    }
}

impl Default for ClockKeys {
    fn default() -> Self {
        ClockKeys::from_file(&ButtonsFile::default())
    }
}

/// The pause key and the press keys, each frame.
pub(super) fn keys(ui: &Ui, console: &Console, desk: &Desk<'_>) {
    let clocks = &desk.view.clocks;
    let pressed = |name: &str| Key::from_name(name).is_some_and(|k| ui.input(|i| i.key_pressed(k)));
    if pressed(&console.keys.pause) && desk.view.result.is_none() {
        if clocks.paused.is_some() {
            desk.source.td(TdAction::ResumeClocks);
        } else {
            desk.source.td(TdAction::PauseClocks);
        }
    }
    for (name, seat) in &console.keys.presses {
        let tandems = clocks
            .boards
            .iter()
            .any(|c| c.board == seat.board && c.plan == ClockPlan::Tandem);
        if tandems && pressed(name) {
            desk.source.press(*seat);
        }
    }
}

/// Start / pause / resume both, always in sight.
pub(super) fn strip(ui: &mut Ui, console: &Console, desk: &Desk<'_>) {
    let clocks = &desk.view.clocks;
    if !clocks.any_in_hand() && clocks.paused.is_none() {
        return;
    }
    let over = desk.view.result.is_some();
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new("Clocks").strong());
        if !clocks.started
            && clocks.paused.is_none()
            && ui
                .add_enabled(!over, egui::Button::new("Start both clocks"))
                .on_hover_text("White's time starts on both boards in the same moment")
                .clicked()
        {
            desk.source.td(TdAction::StartClocks);
        }
        let key = &console.keys.pause;
        if clocks.paused.is_some() {
            if ui
                .add_enabled(
                    !over,
                    egui::Button::new(RichText::new(format!("Resume both ({key})")).strong()),
                )
                .on_hover_text("Both clocks run again in the same moment")
                .clicked()
            {
                desk.source.td(TdAction::ResumeClocks);
            }
        } else if ui
            .add_enabled(!over, egui::Button::new(format!("Pause both ({key})")))
            .on_hover_text("Both clocks stop; no press or flag is judged until play resumes")
            .clicked()
        {
            desk.source.td(TdAction::PauseClocks);
        }
        for c in &clocks.boards {
            let color = if c.in_hand { theme::OK } else { theme::WARN };
            let mut line = format!("{}: {}", c.board, c.status);
            if c.waiting > 0 {
                line.push_str(&format!(" ({} on its way)", c.waiting));
            }
            ui.label(RichText::new(line).small().color(color));
        }
    });
}

/// The Clocks tab.
pub(super) fn show(ui: &mut Ui, console: &mut Console, desk: &Desk<'_>) {
    let view = desk.view;
    let clocks = &view.clocks;
    if let Some(p) = &clocks.paused {
        ui.label(
            RichText::new(format!(
                "Play {} ({} ago)",
                p.text,
                text::duration_words(desk.now.saturating_sub(p.since))
            ))
            .color(theme::WARN),
        );
    }
    for c in &clocks.boards {
        let stripe = if c.in_hand { theme::OK } else { theme::WARN };
        card(ui, stripe, |ui| {
            ui.label(RichText::new(format!("Board {} — {}", c.board, c.plan.describe())).strong());
            ui.label(RichText::new(&c.status).small());
            if let Some(note) = &c.note {
                let color = if c.note_ok { theme::OK } else { theme::BAD };
                ui.label(RichText::new(note).small().color(color));
            }
            if c.waiting > 0 {
                ui.label(
                    RichText::new(format!(
                        "{} command(s) on their way to the clock",
                        c.waiting
                    ))
                    .small(),
                );
            }
            let Some(board) = view.board(c.board) else {
                return;
            };
            egui::Grid::new(("set-times", c.board))
                .num_columns(3)
                .show(ui, |ui| {
                    for color in [shakmaty::Color::White, shakmaty::Color::Black] {
                        let seat = Seat::new(c.board, color);
                        let shown = board
                            .clock
                            .remaining(color, desk.now)
                            .map_or_else(|| "–".to_owned(), text::clock);
                        let field = &mut console.set_times[seat.index()];
                        let r = labelled(
                            ui,
                            RichText::new(format!("{} ({shown})", text::player(view, seat)))
                                .color(theme::team(seat.team())),
                            TextEdit::singleline(field)
                                .hint_text("m:ss")
                                .desired_width(70.0),
                        );
                        let parsed = parse_time(field);
                        let go = ui
                            .add_enabled(parsed.is_some(), egui::Button::new("Set"))
                            .on_hover_text(
                                "Set this player's clock (checked on the clock's next reading)",
                            )
                            .clicked()
                            || (entered(ui, &r) && parsed.is_some());
                        if go && let Some(ms) = parsed {
                            desk.source.td(TdAction::SetClock { seat, ms });
                            field.clear();
                        }
                        ui.end_row();
                    }
                });
        });
    }
    if let Some(b) = &clocks.buttons {
        let (color, what) = if b.connected {
            (theme::OK, "clock buttons connected")
        } else {
            (theme::BAD, "CLOCK BUTTONS GONE")
        };
        ui.label(RichText::new(format!("{what}: {}", b.detail)).color(color));
    }
    let keys: Vec<String> = console
        .keys
        .presses
        .iter()
        .map(|(k, seat)| format!("{k} {}", text::seat(*seat)))
        .collect();
    ui.label(
        RichText::new(format!(
            "Keys: {} pauses and resumes both; where Tandem is the clock, {} press.",
            console.keys.pause,
            keys.join(", ")
        ))
        .small()
        .weak(),
    );
}

/// `m:ss`, `h:mm:ss` or whole minutes, as ms.
#[must_use]
pub fn parse_time(s: &str) -> Option<u64> {
    let parts: Vec<&str> = s.trim().split(':').collect();
    let n = |p: &str| p.trim().parse::<u64>().ok();
    let secs = match parts.as_slice() {
        [m] => n(m)? * 60,
        [m, s] if n(s)? < 60 => n(m)? * 60 + n(s)?,
        [h, m, s] if n(m)? < 60 && n(s)? < 60 => n(h)? * 3600 + n(m)? * 60 + n(s)?,
        _ => return None,
    };
    (secs < 10 * 3600).then_some(secs * 1000)
}

#[cfg(test)]
mod tests {
    use super::parse_time;

    #[test]
    fn times_the_td_types() {
        assert_eq!(parse_time("4:30"), Some(270_000));
        assert_eq!(parse_time(" 5 "), Some(300_000));
        assert_eq!(parse_time("1:02:03"), Some(3_723_000));
        assert_eq!(parse_time("4:60"), None);
        assert_eq!(parse_time("x"), None);
        assert_eq!(parse_time("99:00:00"), None);
    }
}
