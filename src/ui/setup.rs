//! Before the start: the rules preset, the time control, the players, the event, and which
//! boards (demo, a station file, or two ports); and the offer to resume an unfinished
//! match.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use egui::{RichText, TextEdit, Ui};

use super::{text, theme};
use crate::device::port::{FoundBoard, find_boards};
use crate::device::{DeviceProfile, registry};
use crate::rules::{RulesPreset, Seat, TimeControl};

/// Which boards the match is played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardsChoice {
    /// Two virtual boards with the demo's hands playing.
    Demo,
    /// A station file mapping boards A and B to ports or serial numbers.
    Station,
    /// Two ports (or DGT serial numbers) typed here.
    Ports,
}

/// The set-up form.
#[derive(Clone, Debug)]
pub struct SetupForm {
    pub event: String,
    pub site: String,
    /// A built-in preset name or a path to a preset file.
    pub rules: String,
    pub base_min: f64,
    pub increment_s: u64,
    pub delay_s: u64,
    /// Players by seat: WhiteA, BlackA, WhiteB, BlackB.
    pub names: [String; 4],
    pub boards: BoardsChoice,
    pub station: String,
    pub port_a: String,
    pub port_b: String,
    /// Device profile for typed ports (`dgt-usb`, `dgt-bluetooth`, a path).
    pub profile: String,
    /// Who keeps the boards' time (real boards; the demo always drives its DGT3000s).
    pub clocks: crate::arbiter::ClockPlan,
    pub error: Option<String>,
    /// The TD agreed to end the match in progress.
    pub end_current: bool,
    /// The preset the time-control fields were last filled from.
    tc_from: String,
    /// "Find boards": probing runs on its own thread (a moment per port).
    pub search: Arc<Mutex<BoardSearch>>,
    /// Where "Find boards" looks for virtual boards (default: the usual registry).
    pub registry: Option<PathBuf>,
}

/// The state of a "Find boards" search.
#[derive(Clone, Debug, Default)]
pub enum BoardSearch {
    #[default]
    NotRun,
    Running,
    Done {
        found: Vec<FoundBoard>,
        /// Ports that could not be asked, and why (busy, no permission).
        failed: Vec<(String, String)>,
    },
}

impl SetupForm {
    #[must_use]
    pub fn new(rules: &str) -> SetupForm {
        let mut f = SetupForm {
            event: "Club bughouse".to_owned(),
            site: String::new(),
            rules: rules.to_owned(),
            base_min: 5.0,
            increment_s: 0,
            delay_s: 0,
            names: Default::default(),
            boards: BoardsChoice::Demo,
            station: String::new(),
            port_a: String::new(),
            port_b: String::new(),
            profile: "dgt-usb".to_owned(),
            clocks: crate::arbiter::ClockPlan::Drive,
            error: None,
            end_current: false,
            tc_from: String::new(),
            search: Arc::default(),
            registry: None,
        };
        f.refresh_time_control();
        f
    }

    /// The preset's own time control, when a new preset was picked.
    fn refresh_time_control(&mut self) {
        if self.tc_from == self.rules {
            return;
        }
        self.tc_from.clone_from(&self.rules);
        if let Ok(p) = RulesPreset::load(&self.rules) {
            self.base_min = p.time_control.base_ms as f64 / 60_000.0;
            self.increment_s = p.time_control.increment_ms / 1000;
            self.delay_s = p.time_control.delay_ms / 1000;
        }
    }

    #[must_use]
    pub fn time_control(&self) -> TimeControl {
        TimeControl {
            base_ms: (self.base_min * 60_000.0).round().max(0.0) as u64,
            increment_ms: self.increment_s * 1000,
            delay_ms: self.delay_s * 1000,
        }
    }

    /// The preset with the form's time control.
    pub fn preset(&self) -> Result<RulesPreset, String> {
        let mut p = RulesPreset::load(&self.rules).map_err(|e| e.to_string())?;
        p.time_control = self.time_control();
        Ok(p)
    }
}

/// An unfinished match found in the data folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unfinished {
    pub dir: PathBuf,
    pub summary: String,
}

impl Unfinished {
    /// Reads what the TD needs to recognise the match: event, date, players, moves so far.
    #[must_use]
    pub fn read(dir: &Path) -> Unfinished {
        let summary = crate::station::folder::unfinished_summary(dir);
        Unfinished {
            dir: dir.to_path_buf(),
            summary,
        }
    }
}

/// What the TD chose on the set-up screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupAction {
    Start,
    Cancel,
    Resume(PathBuf),
    MarkFinished(PathBuf),
}

/// The set-up screen.
pub fn show(
    ui: &mut Ui,
    form: &mut SetupForm,
    unfinished: &[Unfinished],
    can_cancel: bool,
    in_progress: Option<&str>,
) -> Option<SetupAction> {
    let mut action = None;
    egui::ScrollArea::vertical().show(ui, |ui| {
        ui.heading("New match");
        ui.add_space(6.0);
        if !unfinished.is_empty() {
            resume_list(ui, unfinished, &mut action);
            ui.separator();
        }
        egui::Grid::new("setup")
            .num_columns(2)
            .spacing([12.0, 8.0])
            .show(ui, |ui| {
                let l = ui.label("Event");
                ui.add(TextEdit::singleline(&mut form.event).desired_width(300.0))
                    .labelled_by(l.id);
                ui.end_row();
                let l = ui.label("Site");
                ui.add(TextEdit::singleline(&mut form.site).desired_width(300.0))
                    .labelled_by(l.id);
                ui.end_row();
                ui.label("Rules");
                ui.vertical(|ui| {
                    egui::ComboBox::new("rules-preset", "preset")
                        .selected_text(form.rules.clone())
                        .show_ui(ui, |ui| {
                            for name in RulesPreset::BUILT_IN_NAMES {
                                ui.selectable_value(&mut form.rules, name.to_owned(), name);
                            }
                        });
                    form.refresh_time_control();
                    match RulesPreset::load(&form.rules) {
                        Ok(p) => {
                            ui.label(RichText::new(preset_summary(&p)).small());
                        }
                        Err(e) => {
                            ui.label(RichText::new(e.to_string()).color(theme::BAD));
                        }
                    }
                });
                ui.end_row();
                ui.label("Time control");
                ui.horizontal(|ui| {
                    ui.add(
                        egui::DragValue::new(&mut form.base_min)
                            .range(0.5..=180.0)
                            .speed(0.5)
                            .suffix(" min"),
                    );
                    ui.label("+");
                    ui.add(
                        egui::DragValue::new(&mut form.increment_s)
                            .range(0..=60)
                            .suffix(" s increment"),
                    );
                    ui.add(
                        egui::DragValue::new(&mut form.delay_s)
                            .range(0..=60)
                            .suffix(" s delay"),
                    );
                });
                ui.end_row();
                for seat in Seat::ALL {
                    let l =
                        ui.label(RichText::new(text::seat(seat)).color(theme::team(seat.team())));
                    ui.add(
                        TextEdit::singleline(&mut form.names[seat.index()])
                            .desired_width(220.0)
                            .hint_text(seat.tag()),
                    )
                    .labelled_by(l.id);
                    ui.end_row();
                }
                ui.label("Clocks");
                ui.vertical(|ui| {
                    use crate::arbiter::ClockPlan;
                    for (plan, words) in [
                        (
                            ClockPlan::Drive,
                            "DGT3000s driven by Tandem: set up, started together, paused together, penalties added",
                        ),
                        (ClockPlan::Read, "DGT clocks read only: the players set and start them"),
                        (
                            ClockPlan::Tandem,
                            "Tandem is the clock: USB buttons (--buttons FILE) or F1–F4",
                        ),
                    ] {
                        ui.radio_value(&mut form.clocks, plan, words);
                    }
                });
                ui.end_row();
                ui.label("Boards");
                ui.vertical(|ui| {
                    ui.radio_value(
                        &mut form.boards,
                        BoardsChoice::Demo,
                        "Demo: two virtual boards, played by the demo's hands",
                    );
                    ui.radio_value(&mut form.boards, BoardsChoice::Station, "Station file");
                    if form.boards == BoardsChoice::Station {
                        ui.horizontal(|ui| {
                            let l = ui.label("File:");
                            ui.add(
                                TextEdit::singleline(&mut form.station)
                                    .desired_width(260.0)
                                    .hint_text("devices/station.example.ron"),
                            )
                            .labelled_by(l.id);
                        });
                    }
                    ui.radio_value(&mut form.boards, BoardsChoice::Ports, "Two ports");
                    if form.boards == BoardsChoice::Ports {
                        for (label, value) in [
                            ("Board A:", &mut form.port_a),
                            ("Board B:", &mut form.port_b),
                        ] {
                            ui.horizontal(|ui| {
                                let l = ui.label(label);
                                ui.add(
                                    TextEdit::singleline(value)
                                        .desired_width(200.0)
                                        .hint_text("/dev/ttyUSB0 or a serial number"),
                                )
                                .labelled_by(l.id);
                            });
                        }
                        ui.horizontal(|ui| {
                            ui.label("Profile:");
                            for p in ["dgt-usb", "dgt-bluetooth", "virtual"] {
                                ui.selectable_value(&mut form.profile, p.to_owned(), p);
                            }
                        });
                        find_boards_ui(ui, form);
                    }
                });
                ui.end_row();
            });
        ui.add_space(8.0);
        if let Some(e) = &form.error {
            ui.label(RichText::new(e).color(theme::BAD).strong());
        }
        // A match in progress is not ended by a slip of the mouse.
        if let Some(current) = in_progress {
            ui.checkbox(
                &mut form.end_current,
                format!("End the match in progress ({current})"),
            );
        }
        ui.horizontal(|ui| {
            let allowed = in_progress.is_none() || form.end_current;
            if ui
                .add_enabled(
                    allowed,
                    egui::Button::new(RichText::new("Start match").size(18.0).strong()),
                )
                .clicked()
            {
                action = Some(SetupAction::Start);
                form.end_current = false;
            }
            if can_cancel && ui.button("Back to the match").clicked() {
                action = Some(SetupAction::Cancel);
            }
        });
    });
    action
}

/// "Find boards": asks every likely port whether a DGT board answers, and offers each one
/// found for board A or B (by its serial number, so a swapped USB socket swaps nothing).
fn find_boards_ui(ui: &mut Ui, form: &mut SetupForm) {
    let state = form
        .search
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    ui.horizontal(|ui| {
        let running = matches!(state, BoardSearch::Running);
        if ui
            .add_enabled(!running, egui::Button::new("Find boards"))
            .on_hover_text("Ask every serial port whether a DGT board answers")
            .clicked()
        {
            start_search(ui.ctx(), form);
        }
        if running {
            ui.spinner();
            ui.label("asking the ports…");
        }
    });
    if let BoardSearch::Done { found, failed } = state {
        if found.is_empty() {
            ui.label(
                RichText::new("No DGT board answered: is it switched on and its cable in?")
                    .color(theme::WARN),
            );
        }
        for f in &found {
            ui.horizontal(|ui| {
                let version = f
                    .version
                    .map(|(a, b)| format!(", version {a}.{b:02}"))
                    .unwrap_or_default();
                ui.label(format!("{}: DGT board {}{version}", f.path, f.serial));
                if ui.button("Board A").clicked() {
                    form.port_a = f.serial.clone();
                }
                if ui.button("Board B").clicked() {
                    form.port_b = f.serial.clone();
                }
            });
        }
        for (path, why) in &failed {
            ui.label(RichText::new(format!("{path}: {why}")).weak());
        }
    }
}

fn start_search(ctx: &egui::Context, form: &SetupForm) {
    let slot = form.search.clone();
    *slot.lock().unwrap_or_else(PoisonError::into_inner) = BoardSearch::Running;
    let profile = DeviceProfile::load(&form.profile);
    let registry = form.registry.clone().unwrap_or_else(registry::default_dir);
    let ctx = ctx.clone();
    let spawned = std::thread::Builder::new()
        .name("find-boards".into())
        .spawn({
            let slot = slot.clone();
            move || {
                let result = match profile {
                    Ok(p) => {
                        let (found, failed) =
                            find_boards(&registry, &p, Duration::from_millis(800));
                        BoardSearch::Done { found, failed }
                    }
                    Err(e) => BoardSearch::Done {
                        found: Vec::new(),
                        failed: vec![("profile".to_owned(), e.to_string())],
                    },
                };
                *slot.lock().unwrap_or_else(PoisonError::into_inner) = result;
                ctx.request_repaint();
            }
        });
    if let Err(e) = spawned {
        *slot.lock().unwrap_or_else(PoisonError::into_inner) = BoardSearch::Done {
            found: Vec::new(),
            failed: vec![("search".to_owned(), e.to_string())],
        };
    }
}

fn resume_list(ui: &mut Ui, unfinished: &[Unfinished], action: &mut Option<SetupAction>) {
    ui.label(
        RichText::new("Unfinished matches (a crash or a power cut?)")
            .strong()
            .color(theme::WARN),
    );
    for u in unfinished.iter().take(5) {
        ui.horizontal_wrapped(|ui| {
            ui.label(&u.summary);
            ui.label(RichText::new(u.dir.display().to_string()).small().weak());
            if ui.button("Resume").clicked() {
                *action = Some(SetupAction::Resume(u.dir.clone()));
            }
            if ui
                .button("Mark finished")
                .on_hover_text("Do not offer it again (the files stay)")
                .clicked()
            {
                *action = Some(SetupAction::MarkFinished(u.dir.clone()));
            }
        });
    }
}

/// What sets the preset apart, in one line.
#[must_use]
pub fn preset_summary(p: &RulesPreset) -> String {
    use crate::rules::{DropMate, IllegalMoveRule, MateRule, Promotion};
    let mut parts = vec![p.title.clone()];
    parts.push(format!(
        "{} min + {} s",
        p.time_control.base_ms / 60_000,
        p.time_control.increment_ms / 1000
    ));
    parts.push(
        match p.promotion {
            Promotion::Upgrade => "promotion",
            Promotion::Removal => "no promotion (pawn removed)",
        }
        .to_owned(),
    );
    parts.push(
        match p.drop_mate {
            DropMate::Allowed => "drop mate allowed",
            DropMate::Forbidden => "drop mate forbidden",
        }
        .to_owned(),
    );
    parts.push(
        match p.mate {
            MateRule::TrueMate => "true mate",
            MateRule::ChessMate => "chess mate",
        }
        .to_owned(),
    );
    parts.push(
        match p.illegal_move {
            IllegalMoveRule::LossOnClaim => "illegal move loses if claimed",
            IllegalMoveRule::Corrected => "illegal moves are corrected",
        }
        .to_owned(),
    );
    parts.join(" · ")
}
