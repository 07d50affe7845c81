//! The window's furniture around the screens: the top bar, the projector window and its
//! settings, the set-up screen's glue, the resume offer, and the README's screenshots.

use std::path::Path;
use std::time::Duration;

use egui::{RichText, ViewportBuilder, ViewportCommand};

use super::{Live, Screen, TandemApp, projector_id, time_control_words};
use crate::Millis;
use crate::station::MatchFolder;
use crate::ui::setup::{self, SetupAction};
use crate::ui::{projector, text, theme};

impl TandemApp {
    pub(super) fn top_bar(&mut self, ui: &mut egui::Ui) {
        egui::Panel::top("app-top").show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.label(
                    RichText::new("TANDEM")
                        .strong()
                        .size(18.0)
                        .color(theme::TEAM_WHITE_A),
                );
                if let Some(live) = &self.live
                    && let Some(source) = live.source()
                {
                    let v = source.view();
                    let mut what = format!(
                        "{} · {} · {}",
                        source.event(),
                        v.rules_title,
                        time_control_words(&v)
                    );
                    if live.is_demo() {
                        what.push_str(" · demo on virtual boards");
                    }
                    ui.label(RichText::new(what).strong());
                    ui.label(format!("match time {}", text::match_time(source.now_ms())));
                }
                ui.separator();
                let evening = matches!(self.live, Some(Live::Event(_)));
                for (screen, name) in [
                    (Screen::Overview, "Overview"),
                    (Screen::Console, "Console"),
                    (Screen::Setup, "New match"),
                    (Screen::Replay, "Replay"),
                ] {
                    if screen == Screen::Overview && !evening {
                        continue;
                    }
                    let enabled = match screen {
                        Screen::Overview => true,
                        Screen::Console => self.live.as_ref().is_some_and(|l| l.source().is_some()),
                        Screen::Replay => self.replay.is_some() || self.replay_load.is_some(),
                        Screen::Setup => true,
                    };
                    if ui
                        .add_enabled(
                            enabled,
                            egui::Button::selectable(self.screen == screen, name),
                        )
                        .clicked()
                    {
                        self.screen = screen;
                    }
                }
                ui.separator();
                ui.checkbox(&mut self.projector.open, "Projector");
                ui.menu_button("Projector settings", |ui| {
                    self.projector_settings(ui);
                });
                self.web_item(ui);
            });
        });
    }

    pub(super) fn projector_settings(&mut self, ui: &mut egui::Ui) {
        ui.checkbox(&mut self.projector.open, "Show the projector window");
        ui.checkbox(&mut self.projector.fullscreen, "Fullscreen");
        let selected = match self.projector.monitor {
            Some(i) => self
                .monitors
                .get(i)
                .cloned()
                .unwrap_or_else(|| format!("monitor {i}")),
            None => "this window's monitor".to_owned(),
        };
        egui::ComboBox::from_label("Monitor")
            .selected_text(selected)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut self.projector.monitor, None, "this window's monitor");
                let count = self.monitors.len().max(2);
                for i in 0..count {
                    let name = self
                        .monitors
                        .get(i)
                        .cloned()
                        .unwrap_or_else(|| format!("monitor {i}"));
                    ui.selectable_value(
                        &mut self.projector.monitor,
                        Some(i),
                        format!("{i}: {name} (fullscreen)"),
                    );
                }
            });
        ui.add(egui::Slider::new(&mut self.projector.delay_s, 0..=900).text("broadcast delay (s)"));
        ui.label(
            RichText::new("The projector never shows alerts, unruled illegal moves or flags.")
                .small(),
        );
    }

    pub(super) fn setup_screen(&mut self, ui: &mut egui::Ui) {
        let can_cancel = self.live.is_some();
        // A real match without a result is in progress (a demo may be replaced at will).
        let in_progress = match &self.live {
            Some(Live::Match(s)) if s.view().result.is_none() => Some(s.event().to_owned()),
            _ => None,
        };
        let action = egui::CentralPanel::default()
            .show(ui, |ui| {
                setup::show(
                    ui,
                    &mut self.setup,
                    &self.unfinished,
                    can_cancel,
                    in_progress.as_deref(),
                )
            })
            .inner;
        match action {
            Some(SetupAction::Start) => {
                if let Err(e) = self.start_from_form() {
                    self.setup.error = Some(format!("{e:#}"));
                }
            }
            Some(SetupAction::Cancel) => self.screen = Screen::Console,
            Some(SetupAction::Resume(dir)) => {
                if let Err(e) = self.resume(&dir) {
                    self.setup.error = Some(format!("{e:#}"));
                }
            }
            Some(SetupAction::MarkFinished(dir)) => {
                if let Err(e) = MatchFolder::at(&dir).mark_closed() {
                    self.setup.error = Some(format!("{}: {e}", dir.display()));
                }
                self.unfinished.retain(|u| u.dir != dir);
            }
            None => {}
        }
    }

    pub(super) fn resume_modal(&mut self, ctx: &egui::Context) {
        let Some(first) = self.unfinished.first().cloned() else {
            self.resume_prompt = false;
            return;
        };
        let mut choice = None;
        egui::Modal::new(egui::Id::unique("resume-offer")).show(ctx, |ui| {
            ui.heading("An unfinished match was found");
            ui.label(&first.summary);
            ui.label(
                RichText::new(first.dir.display().to_string())
                    .small()
                    .weak(),
            );
            ui.label("It was not closed properly (a crash or a power cut?). Resume it?");
            ui.horizontal(|ui| {
                if ui.button("Resume it").clicked() {
                    choice = Some(1);
                }
                if ui.button("Mark it finished").clicked() {
                    choice = Some(2);
                }
                if ui.button("Not now").clicked() {
                    choice = Some(3);
                }
            });
        });
        match choice {
            Some(1) => {
                if let Err(e) = self.resume(&first.dir) {
                    self.message = Some(format!("{e:#}"));
                    self.resume_prompt = false;
                    self.setup.error = Some(format!("{e:#}"));
                    self.screen = Screen::Setup;
                }
            }
            Some(2) => {
                MatchFolder::at(&first.dir).mark_closed().ok();
                self.unfinished.remove(0);
                self.resume_prompt = !self.unfinished.is_empty();
            }
            Some(3) => self.resume_prompt = false,
            _ => {}
        }
    }

    pub(super) fn projector_window(&mut self, ctx: &egui::Context) {
        let mut builder = ViewportBuilder::default()
            .with_title("Tandem — projector")
            .with_inner_size([1280.0, 720.0])
            .with_min_inner_size([480.0, 270.0]);
        if let Some(m) = self.projector.monitor {
            builder = builder.with_monitor(m);
        } else if self.projector.fullscreen {
            builder = builder.with_fullscreen(true);
        }
        let delay = Millis::from(self.projector.delay_s) * 1000;
        let mut closed = false;
        ctx.show_viewport_immediate(projector_id(), builder, |ui, class| {
            if class == egui::ViewportClass::EmbeddedWindow {
                // Tests and single-window back ends: a window of its own inside the console.
                ui.set_min_size(egui::vec2(960.0, 540.0));
            }
            if let Some(Live::Event(ev)) = &self.live {
                self.event_projector(ui, ev);
            } else {
                match self.live.as_ref().and_then(Live::source) {
                    Some(source) => {
                        let now = source.now_ms();
                        let view = source.hall_view(delay);
                        projector::show(
                            ui,
                            &projector::Projector {
                                view: &view,
                                clock_at: now.saturating_sub(delay),
                                pieces: self.pieces.as_ref(),
                                earlier: self.tally.earlier(view.as_ref()),
                                event: source.event(),
                                delay_s: self.projector.delay_s,
                            },
                        );
                    }
                    None => {
                        let rect = ui.available_rect_before_wrap();
                        ui.painter()
                            .rect_filled(rect, 0.0, theme::PROJECTOR_BACKGROUND);
                        ui.centered_and_justified(|ui| {
                            ui.label(
                                RichText::new("Tandem")
                                    .size(64.0)
                                    .color(theme::PROJECTOR_DIM),
                            );
                        });
                    }
                }
            }
            if ui.input(|i| i.viewport().close_requested()) {
                closed = true;
            }
        });
        if closed {
            self.projector.open = false;
        }
    }

    /// A screenshot of the console for the README (`--screenshots DIR`) once the match
    /// has run a while; then the app carries on.
    pub(super) fn take_screenshots(&mut self, ctx: &egui::Context) {
        let Some((dir, after)) = self.opts.screenshots.clone() else {
            return;
        };
        // By the app's running time (the demo's match records restart with each game).
        let uptime = (ctx.input(|i| i.time) * 1000.0) as Millis;
        if self.opts.screenshots_paused
            && !self.shots_paused
            && uptime + 4000 >= after
            && let Some(source) = self.live.as_ref().and_then(|l| l.source())
        {
            source.td(crate::arbiter::TdAction::PauseClocks);
            self.console.tab = super::console::Tab::Clocks;
            self.shots_paused = true;
        }
        if self.shots_taken || uptime < after {
            if !self.shots_taken {
                ctx.request_repaint_after(Duration::from_millis(500));
            }
            return;
        }
        self.shots_taken = true;
        std::fs::create_dir_all(&dir).ok();
        let name = if self.screen == Screen::Overview {
            "overview.png"
        } else {
            "console.png"
        };
        let console_path = dir.join(name);
        ctx.send_viewport_cmd(ViewportCommand::Screenshot(egui::ScreenshotCallback::new(
            move |img| save_png(&console_path, &img),
        )));
        // eframe takes screenshots of the root viewport only (not of immediate ones): the
        // projector is grabbed from the screen by `scripts/screenshots.sh`.
        ctx.request_repaint();
    }
}

fn save_png(path: &Path, img: &egui::ColorImage) {
    let [w, h] = img.size;
    let bytes: Vec<u8> = img.pixels.iter().flat_map(|c| c.to_array()).collect();
    if let Err(e) = image::save_buffer(
        path,
        &bytes,
        u32::try_from(w).unwrap_or(0),
        u32::try_from(h).unwrap_or(0),
        image::ExtendedColorType::Rgba8,
    ) {
        eprintln!("tandem: screenshot {}: {e}", path.display());
    }
}
