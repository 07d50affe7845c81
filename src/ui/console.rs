//! The TD console: both boards with their links, clocks, reserves and move lists; the
//! alert queue with a one-click resolution for each alert; results, penalties, players
//! and the BPGN export.
//!
//! Every decision goes to the arbiter as a [`TdAction`] through the [`MatchSource`]; the
//! console keeps no match state of its own, only what the TD is typing or choosing.

use std::path::PathBuf;

use egui::{
    Align, Color32, FontId, Layout, Rect, RichText, ScrollArea, Sense, Stroke, TextEdit, Ui, Vec2,
};
use shakmaty::Color;

use super::board::{BoardLook, ReserveFlow, paint_board, paint_reserve, reserve_words};
use super::pieces::PieceSet;
use super::source::MatchSource;
use super::{text, theme};
use crate::arbiter::view::{BoardView, MatchView, PlyView, next_penalty};
use crate::arbiter::{
    Alert, AlertKind, AlertState, Offence, PlyRef, ResultSignal, Subject, TdAction,
};
use crate::rules::{EndReason, MatchResult, Penalty, Seat, Team};
use crate::{BoardId, Millis};

/// How long a notice (a board back, a penalty to set on the clock) stays up, match time.
const NOTICE_MS: Millis = 15_000;

/// Tabs under the alert queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Result,
    Penalties,
    Players,
    Export,
}

/// A note for the TD that is not an alert of the arbiter: a board back, a clock to set.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub at_ms: Millis,
    pub text: String,
    pub good: bool,
}

/// A decision waiting for the TD's confirmation (results are not one slip away).
#[derive(Clone, Debug, PartialEq)]
pub struct Confirm {
    pub question: String,
    pub action: TdAction,
}

/// What the console asks of the app.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConsoleRequest {
    NewMatch,
    OpenReplay(PathBuf),
}

/// What the TD is doing in the console (no match state: that is the arbiter's).
pub struct Console {
    pub tab: Tab,
    /// The ply the TD picked in a move list.
    pub selected: Option<PlyRef>,
    pub correction: String,
    /// "Add a move" text per board (a move the sensors missed).
    pub add_move: [String; 2],
    pub save_as: String,
    pub export_note: Option<String>,
    pub confirm: Option<Confirm>,
    pub forfeit_why: String,
    /// Names being edited (applied with one click).
    pub names: [String; 4],
    names_from: Option<[String; 4]>,
    pub replay_path: String,
    pub notices: Vec<Notice>,
    /// The link state last seen per board, to notice changes, and when it was lost.
    links: [Option<bool>; 2],
    lost_at: [Option<Millis>; 2],
    /// Whether a BPGN was written for the result on hand.
    pub auto_exported: bool,
}

impl Default for Console {
    fn default() -> Self {
        Console {
            tab: Tab::Result,
            selected: None,
            correction: String::new(),
            add_move: [String::new(), String::new()],
            save_as: String::new(),
            export_note: None,
            confirm: None,
            forfeit_why: "arrived late".to_owned(),
            names: Default::default(),
            names_from: None,
            replay_path: String::new(),
            notices: Vec::new(),
            links: [None, None],
            lost_at: [None, None],
            auto_exported: false,
        }
    }
}

impl Console {
    /// Notices link changes (a loud banner for the TD) and keeps the name fields in step
    /// with the arbiter. Returns whether a board was just lost (the app asks the window
    /// system for attention).
    pub fn observe(&mut self, view: &MatchView, now: Millis) -> bool {
        let mut lost = false;
        for b in &view.boards {
            let i = b.id.index();
            let was = self.links[i];
            let is = b.link.connected;
            match (was, is) {
                // While it is away a standing banner says so (see `banners`).
                (Some(true), false) => {
                    lost = true;
                    self.lost_at[i] = Some(now);
                }
                // Back after a loss (the first connection of a match is no news).
                (Some(false), true) => {
                    if let Some(t) = self.lost_at[i].take() {
                        self.notices.push(Notice {
                            at_ms: now,
                            text: format!(
                                "Board {} is back after {}",
                                b.id,
                                text::duration_words(now.saturating_sub(t))
                            ),
                            good: true,
                        });
                    }
                }
                _ => {}
            }
            self.links[i] = Some(is);
        }
        // Good news fades; instructions (a clock to set) stay until the TD clicks OK.
        self.notices
            .retain(|n| !n.good || now.saturating_sub(n.at_ms) < NOTICE_MS);
        if self.names_from.as_ref() != Some(&view.players) {
            self.names.clone_from(&view.players);
            self.names_from = Some(view.players.clone());
        }
        lost
    }

    fn notice(&mut self, now: Millis, text: String, good: bool) {
        self.notices.push(Notice {
            at_ms: now,
            text,
            good,
        });
    }
}

/// The whole console, inside `ui` (the app puts its own top bar above).
pub fn show(
    ui: &mut Ui,
    console: &mut Console,
    source: &dyn MatchSource,
    view: &MatchView,
    pieces: Option<&PieceSet>,
) -> Vec<ConsoleRequest> {
    let now = source.now_ms();
    let mut commands = Vec::new();
    banners(ui, console, source, view, now);
    egui::Panel::right("td-side")
        .resizable(true)
        .default_size(440.0)
        .min_size(360.0)
        .show(ui, |ui| {
            side_panel(ui, console, source, view, now, &mut commands);
        });
    egui::CentralPanel::default().show(ui, |ui| {
        boards_area(ui, console, source, view, now, pieces);
    });
    commands
}

/// Loud, full-width banners: a board not connected, a problem with the journal, notices.
fn banners(
    ui: &mut Ui,
    console: &mut Console,
    source: &dyn MatchSource,
    view: &MatchView,
    now: Millis,
) {
    let mut standing: Vec<String> = Vec::new();
    if let Some(p) = source.problem() {
        standing.push(format!("PROBLEM: {p}"));
    }
    for b in &view.boards {
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
    if standing.is_empty() && console.notices.is_empty() {
        return;
    }
    let mut dismissed = None;
    egui::Panel::top("td-banners").show(ui, |ui| {
        for line in standing {
            banner(ui, theme::BAD_FILL, &line, None);
        }
        for (i, n) in console.notices.iter().enumerate().rev() {
            let fill = if n.good {
                theme::GOOD_FILL
            } else {
                Color32::from_rgb(130, 95, 10)
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

// --------------------------------------------------------------------------------------
// Boards

fn boards_area(
    ui: &mut Ui,
    console: &mut Console,
    source: &dyn MatchSource,
    view: &MatchView,
    now: Millis,
    pieces: Option<&PieceSet>,
) {
    let n = view.boards.len().max(1);
    let avail = ui.available_rect_before_wrap();
    let gap = 12.0;
    let width = (avail.width() - gap * (n as f32 - 1.0)) / n as f32;
    ui.horizontal_top(|ui| {
        for (i, b) in view.boards.iter().enumerate() {
            if i > 0 {
                ui.add_space(gap);
            }
            ui.allocate_ui_with_layout(
                Vec2::new(width, avail.height()),
                Layout::top_down(Align::Min),
                |ui| {
                    ui.set_width(width);
                    board_card(ui, console, source, view, b, now, pieces);
                },
            );
        }
    });
}

#[allow(clippy::too_many_arguments)]
fn board_card(
    ui: &mut Ui,
    console: &mut Console,
    source: &dyn MatchSource,
    view: &MatchView,
    b: &BoardView,
    now: Millis,
    pieces: Option<&PieceSet>,
) {
    link_line(ui, b);
    // Partners side by side: board A with White at the bottom, board B with Black, as
    // the players sit and as the projector shows them.
    let white_at_bottom = b.id == BoardId::A;
    let (top, bottom) = if white_at_bottom {
        (Color::Black, Color::White)
    } else {
        (Color::White, Color::Black)
    };
    let width = ui.available_width();
    let reserved_below = 26.0 + 190.0 + 34.0;
    let size = (ui.available_height() - 2.0 * 38.0 - reserved_below)
        .min(width)
        .clamp(160.0, 560.0);
    player_row(ui, view, b, top, now, pieces, width);
    let (rect, _) = ui.allocate_exact_size(Vec2::new(width, size), Sense::hover());
    let board_rect = Rect::from_min_size(
        egui::pos2(rect.min.x + (width - size) / 2.0, rect.min.y),
        Vec2::splat(size),
    );
    paint_board(
        ui,
        board_rect,
        &BoardLook {
            view: b,
            white_at_bottom,
            pieces,
            coordinates: true,
            td_marks: true,
            last_move: b.last_move,
        },
    );
    player_row(ui, view, b, bottom, now, pieces, width);
    sync_line(ui, b);
    move_list(ui, console, source, view, b);
}

/// Port, serial, version, orientation and clock side of a board: the TD checks at a
/// glance that board A is the board they think it is.
fn link_line(ui: &mut Ui, b: &BoardView) {
    ui.horizontal(|ui| {
        ui.label(RichText::new(text::board(b.id)).size(20.0).strong());
        let (chip, fill) = if b.link.connected {
            ("connected", theme::GOOD_FILL)
        } else {
            ("NOT CONNECTED", theme::BAD_FILL)
        };
        egui::Frame::new()
            .fill(fill)
            .corner_radius(4.0)
            .inner_margin(egui::Margin::symmetric(6, 2))
            .show(ui, |ui| {
                ui.label(RichText::new(chip).strong().color(Color32::WHITE));
            });
        if b.judging {
            ui.label(RichText::new("judging a clock press…").italics());
        }
    });
    let mut parts = Vec::new();
    if let Some(p) = &b.link.port {
        parts.push(p.clone());
    }
    if let Some(s) = &b.link.serial {
        parts.push(format!("serial {s}"));
    }
    if let Some((major, minor)) = b.link.version {
        parts.push(format!("v{major}.{minor}"));
    }
    parts.push(text::orientation(b.orientation).to_owned());
    parts.push(if b.clock.present {
        text::white_clock_side(b.white_side).to_owned()
    } else {
        "no clock seen".to_owned()
    });
    if b.link.losses > 0 {
        parts.push(format!("lost {}× this match", b.link.losses));
    }
    ui.label(RichText::new(parts.join(" · ")).small());
}

#[allow(clippy::too_many_arguments)]
fn player_row(
    ui: &mut Ui,
    view: &MatchView,
    b: &BoardView,
    color: Color,
    now: Millis,
    pieces: Option<&PieceSet>,
    width: f32,
) {
    let seat = Seat::new(b.id, color);
    let (rect, _) = ui.allocate_exact_size(Vec2::new(width, 38.0), Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(
        Rect::from_min_size(rect.min, Vec2::new(5.0, rect.height())),
        1.0,
        theme::team(seat.team()),
    );
    // The player's colour as a king on a light tile (a black disc vanishes on dark).
    let tile = Rect::from_center_size(
        rect.min + Vec2::new(19.0, rect.height() / 2.0),
        Vec2::splat(26.0),
    );
    painter.rect_filled(tile, 3.0, theme::LIGHT_SQUARE);
    super::pieces::paint_piece(
        &painter,
        tile.shrink(1.0),
        shakmaty::Piece {
            color,
            role: shakmaty::Role::King,
        },
        pieces,
    );
    let clock_w = 92.0;
    let name_w = (width * 0.36).min(180.0);
    let name_rect = Rect::from_min_size(rect.min + Vec2::new(32.0, 0.0), Vec2::new(name_w, 38.0));
    ui.scope_builder(
        egui::UiBuilder::new()
            .max_rect(name_rect)
            .layout(Layout::left_to_right(Align::Center)),
        |ui| {
            ui.add(
                egui::Label::new(
                    RichText::new(text::player(view, seat))
                        .strong()
                        .size(16.0)
                        .color(theme::team(seat.team())),
                )
                .truncate(),
            )
            .on_hover_text(text::seat(seat));
        },
    );
    // The reserve, drawn and in words (for the TD's eye and for screen readers).
    let reserve = b.reserve(color);
    let reserve_rect = Rect::from_min_max(
        egui::pos2(name_rect.max.x + 6.0, rect.min.y + 3.0),
        egui::pos2(rect.max.x - clock_w - 8.0, rect.max.y - 3.0),
    );
    paint_reserve(
        &painter,
        reserve_rect,
        reserve,
        color,
        pieces,
        32.0,
        ReserveFlow::Right,
        true,
    );
    ui.interact(
        reserve_rect,
        ui.scope_id().with(("reserve", seat.index())),
        Sense::hover(),
    )
    .on_hover_text(format!(
        "Reserve of {}: {}",
        text::player(view, seat),
        reserve_words(reserve)
    ));
    // The clock, with its flag (the TD sees it; the projector never does).
    let clock_rect = Rect::from_min_size(
        egui::pos2(rect.max.x - clock_w, rect.min.y + 2.0),
        Vec2::new(clock_w, 34.0),
    );
    let running = view.result.is_none() && b.clock.running == Some(color);
    let flag = match color {
        Color::White => b.clock.white_flag,
        Color::Black => b.clock.black_flag,
    };
    let remaining = b.clock.remaining(color, now);
    let low = remaining.is_some_and(|ms| ms < 10_000);
    let (fill, ink) = if flag || remaining == Some(0) && b.clock.present {
        (theme::BAD_FILL, Color32::WHITE)
    } else if running {
        (
            theme::CLOCK_RUNNING_FILL,
            if low {
                theme::BAD
            } else {
                theme::CLOCK_RUNNING_TEXT
            },
        )
    } else {
        (theme::CLOCK_IDLE_FILL, theme::CLOCK_IDLE_TEXT)
    };
    ui.painter().rect_filled(clock_rect, 5.0, fill);
    let reading = match (b.clock.present, remaining) {
        (true, Some(ms)) => text::clock(ms),
        _ => "–:––".to_owned(),
    };
    ui.scope_builder(
        egui::UiBuilder::new()
            .max_rect(clock_rect)
            .layout(Layout::centered_and_justified(egui::Direction::LeftToRight)),
        |ui| {
            let label = if flag {
                format!("{reading} FLAG")
            } else {
                reading
            };
            ui.add(
                egui::Label::new(
                    RichText::new(label)
                        .font(FontId::monospace(22.0))
                        .strong()
                        .color(ink),
                )
                .selectable(false),
            );
        },
    );
}

/// The live "board matches the record" indicator.
fn sync_line(ui: &mut Ui, b: &BoardView) {
    if !b.started {
        ui.label(
            RichText::new("Waiting for the start position on this board")
                .color(theme::WARN)
                .strong(),
        );
        return;
    }
    if b.in_sync() {
        ui.label(
            RichText::new("OK: board matches the record")
                .color(theme::OK)
                .strong(),
        );
    } else {
        let squares: Vec<String> = b.differing.iter().map(ToString::to_string).collect();
        ui.label(
            RichText::new(format!("DIFFERS from the record on {}", squares.join(" ")))
                .color(theme::DIFFERS)
                .strong(),
        )
        .on_hover_text("Outlined on the board, with what the sensors see there");
    }
}

/// The move list of a board, newest at the bottom; a click picks a ply for correction.
fn move_list(
    ui: &mut Ui,
    console: &mut Console,
    source: &dyn MatchSource,
    view: &MatchView,
    b: &BoardView,
) {
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
    // Correction of the picked ply, and a move the sensors could not see.
    if let Some(sel) = console.selected.filter(|s| s.board == b.id)
        && let Some(p) = plies.iter().find(|p| p.ply == sel)
    {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(format!("{} {}", text::move_number(p), p.san)).strong());
            let l = ui.label("correct to");
            let r = ui
                .add(TextEdit::singleline(&mut console.correction).desired_width(70.0))
                .labelled_by(l.id);
            let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if (ui.button("Correct").clicked() || enter) && !console.correction.trim().is_empty() {
                source.td(TdAction::CorrectMove {
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
                source.td(TdAction::TakeBack { ply: sel });
                console.selected = None;
            }
            if ui.button("Close").clicked() {
                console.selected = None;
            }
        });
    } else {
        ui.horizontal(|ui| {
            let i = b.id.index();
            let l = ui.label(format!("Add a move on {}:", b.id));
            let r = ui
                .add(TextEdit::singleline(&mut console.add_move[i]).desired_width(70.0))
                .labelled_by(l.id)
                .on_hover_text("A move the board did not see (SAN or UCI), played now");
            let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if (ui.button(format!("Add on {}", b.id)).clicked() || enter)
                && !console.add_move[i].trim().is_empty()
            {
                source.td(TdAction::AddMove {
                    board: b.id,
                    mv: console.add_move[i].trim().to_owned(),
                });
                console.add_move[i].clear();
            }
        });
    }
}

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

// --------------------------------------------------------------------------------------
// The side panel: alerts, then tabs

fn side_panel(
    ui: &mut Ui,
    console: &mut Console,
    source: &dyn MatchSource,
    view: &MatchView,
    now: Millis,
    commands: &mut Vec<ConsoleRequest>,
) {
    let open: Vec<&Alert> = view.open_alerts().collect();
    if let Some(why) = &view.td_refusal {
        ui.label(
            RichText::new(format!("Not done: {why}"))
                .color(theme::BAD)
                .strong(),
        );
    }
    ui.horizontal(|ui| {
        ui.heading(format!("Alerts ({} open)", open.len()));
    });
    let alerts_h = (ui.available_height() * 0.55).max(160.0);
    ScrollArea::vertical()
        .id_salt("alerts")
        .max_height(alerts_h)
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for b in &view.boards {
                if let Some(signal) = b.result_signal
                    && view.result.is_none()
                {
                    result_signal_card(ui, console, view, b.id, signal);
                }
            }
            if open.is_empty() {
                ui.label(RichText::new("Nothing to decide.").weak());
            }
            for a in &open {
                alert_card(ui, console, source, view, a, now);
            }
            let closed: Vec<&Alert> = view.alerts.iter().rev().filter(|a| !a.is_open()).collect();
            if !closed.is_empty() {
                egui::CollapsingHeader::new(format!("Settled alerts ({})", closed.len()))
                    .id_salt("settled-alerts")
                    .show(ui, |ui| {
                        for a in closed.iter().take(50) {
                            let how = match &a.state {
                                AlertState::Cleared { .. } => "cleared by the board".to_owned(),
                                AlertState::Resolved { how, .. } => how.clone(),
                                AlertState::Open => String::new(),
                            };
                            ui.label(
                                RichText::new(format!(
                                    "{} {} · {}: {} — {how}",
                                    text::match_time(a.t_ms),
                                    a.board,
                                    text::alert_title(a.kind),
                                    a.detail
                                ))
                                .small(),
                            );
                        }
                    });
            }
        });
    ui.separator();
    ui.horizontal(|ui| {
        for (tab, name) in [
            (Tab::Result, "Result"),
            (Tab::Penalties, "Penalties"),
            (Tab::Players, "Players"),
            (Tab::Export, "Export"),
        ] {
            ui.selectable_value(&mut console.tab, tab, name);
        }
    });
    ui.separator();
    ScrollArea::vertical()
        .id_salt("tabs")
        .auto_shrink([false, false])
        .show(ui, |ui| match console.tab {
            Tab::Result => result_tab(ui, console, source, view),
            Tab::Penalties => penalties_tab(ui, console, source, view, now),
            Tab::Players => players_tab(ui, console, source, view),
            Tab::Export => export_tab(ui, console, source, commands),
        });
}

fn card(ui: &mut Ui, stripe: Color32, add: impl FnOnce(&mut Ui)) {
    egui::Frame::group(ui.style())
        .stroke(Stroke::new(1.0, stripe))
        .inner_margin(8.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            add(ui);
        });
    ui.add_space(4.0);
}

fn result_signal_card(
    ui: &mut Ui,
    console: &mut Console,
    view: &MatchView,
    board: BoardId,
    signal: ResultSignal,
) {
    card(ui, theme::OK, |ui| {
        ui.label(
            RichText::new(format!("Board {board}: the players show a result"))
                .strong()
                .color(theme::OK),
        );
        let (text_, result) = match signal {
            ResultSignal::WhiteWins => {
                let loser = Seat::new(board, Color::Black);
                (
                    format!(
                        "{} resigns (White wins on {board})",
                        text::player(view, loser)
                    ),
                    MatchResult {
                        winner: Some(loser.opponent().team()),
                        reason: EndReason::Resignation { seat: loser },
                        t_ms: None,
                    },
                )
            }
            ResultSignal::BlackWins => {
                let loser = Seat::new(board, Color::White);
                (
                    format!(
                        "{} resigns (Black wins on {board})",
                        text::player(view, loser)
                    ),
                    MatchResult {
                        winner: Some(loser.opponent().team()),
                        reason: EndReason::Resignation { seat: loser },
                        t_ms: None,
                    },
                )
            }
            ResultSignal::Draw => (
                "Draw by agreement".to_owned(),
                MatchResult {
                    winner: None,
                    reason: EndReason::DrawAgreed,
                    t_ms: None,
                },
            ),
        };
        ui.label(format!("Kings in the centre: {text_}"));
        if ui.button(format!("Declare: {text_}")).clicked() {
            console.confirm = Some(Confirm {
                question: text_.clone(),
                action: TdAction::DeclareResult { result },
            });
            console.tab = Tab::Result;
        }
    });
}

/// One open alert with the resolutions that fit it.
fn alert_card(
    ui: &mut Ui,
    console: &mut Console,
    source: &dyn MatchSource,
    view: &MatchView,
    a: &Alert,
    now: Millis,
) {
    let rules = source.rules();
    card(ui, theme::alert_color(a.kind), |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label(
                RichText::new(format!("{} · Board {}", text::alert_title(a.kind), a.board))
                    .strong()
                    .color(theme::alert_color(a.kind)),
            );
            if let Some(sq) = &a.square {
                ui.label(RichText::new(sq.to_string()).monospace().strong());
            }
            ui.with_layout(Layout::right_to_left(Align::Center), |ui| {
                ui.label(RichText::new(text::match_time(a.t_ms)).weak().small());
            });
        });
        ui.label(&a.detail);
        ui.horizontal_wrapped(|ui| match (&a.kind, &a.subject) {
            (AlertKind::Promotion, Subject::Ply(ply)) => {
                ui.label("Which piece?");
                for role in &rules.promotion_roles {
                    let name = text::role_title(*role);
                    if ui
                        .button(name)
                        .on_hover_text(format!(
                            "The promoted pawn stands for a {}",
                            text::role(*role)
                        ))
                        .clicked()
                    {
                        source.td(TdAction::SetPromotion {
                            ply: *ply,
                            role: *role,
                        });
                    }
                }
            }
            (AlertKind::Promotion, Subject::HiddenMove { ply, options }) => {
                ui.label("Where did it go?");
                for to in options {
                    if ui.button(format!("to {to}")).clicked() {
                        source.td(TdAction::ChooseHiddenMove { ply: *ply, to: *to });
                    }
                }
            }
            (AlertKind::IllegalMove, Subject::Ply(ply)) => {
                let offender = Seat::new(ply.board, ply.color);
                let consequence = text::illegal_claim_consequence(rules, view, offender);
                if ui
                    .button(format!("Claimed: {consequence}"))
                    .on_hover_text("The opponent claimed the illegal move before moving")
                    .clicked()
                {
                    source.td(TdAction::ClaimIllegal { ply: *ply });
                }
                if ui
                    .button("Let it stand")
                    .on_hover_text("Not claimed in time: the move stands")
                    .clicked()
                {
                    source.td(TdAction::LetStand { alert: a.id });
                }
                if ui
                    .button("Correct the record…")
                    .on_hover_text("The board was read wrong: pick the move in the list")
                    .clicked()
                {
                    console.selected = Some(*ply);
                }
            }
            (AlertKind::Flag, Subject::Seat(seat)) => {
                if ui
                    .button(format!(
                        "Flag claimed against {}",
                        text::player(view, *seat)
                    ))
                    .clicked()
                {
                    source.td(TdAction::ClaimFlag { seat: *seat });
                }
                if ui.button("Not claimed").clicked() {
                    source.td(TdAction::Dismiss { alert: a.id });
                }
            }
            (AlertKind::Displaced, Subject::Seat(seat)) => {
                if ui
                    .button("Dismiss")
                    .on_hover_text("Seen; the player puts it back on their own time")
                    .clicked()
                {
                    source.td(TdAction::Dismiss { alert: a.id });
                }
                let offence = Offence::DisplacedPieces;
                let earlier = view.offences(*seat, offence);
                let penalty = next_penalty(rules, offence, earlier);
                let label = format!(
                    "{} ({} offence)",
                    text::penalty(view, rules, *seat, penalty),
                    text::ordinal(earlier + 1)
                );
                if ui
                    .button(label)
                    .on_hover_text("Knocked pieces and pressed the clock: the texts' ladder")
                    .clicked()
                {
                    penalize(console, source, view, *seat, offence, penalty, now);
                    source.td(TdAction::Dismiss { alert: a.id });
                }
            }
            (AlertKind::GameEnd, _) => {
                if ui.button("OK").clicked() {
                    source.td(TdAction::Dismiss { alert: a.id });
                }
                if ui.button("Withdraw the result").clicked() {
                    source.td(TdAction::Undeclare);
                    source.td(TdAction::Dismiss { alert: a.id });
                }
            }
            (AlertKind::Desync | AlertKind::NoMovePress, _) => {
                if ui
                    .button("Accept what the board shows")
                    .on_hover_text("Dismiss; type a missed move under the board's move list")
                    .clicked()
                {
                    source.td(TdAction::Dismiss { alert: a.id });
                }
            }
            _ => {
                if ui.button("Dismiss").clicked() {
                    source.td(TdAction::Dismiss { alert: a.id });
                }
            }
        });
    });
}

fn penalize(
    console: &mut Console,
    source: &dyn MatchSource,
    view: &MatchView,
    seat: Seat,
    offence: Offence,
    penalty: Penalty,
    now: Millis,
) {
    source.td(TdAction::Penalize {
        seat,
        offence,
        penalty,
    });
    if penalty == Penalty::TimeToOpponent {
        // The arbiter records the penalty; the time itself is set on the clock.
        console.notice(
            now,
            format!(
                "Set {} more on {}'s clock (board {})",
                text::duration_words(source.rules().penalties.time_penalty_ms),
                text::player(view, seat.opponent()),
                seat.board
            ),
            false,
        );
    }
}

fn result_tab(ui: &mut Ui, console: &mut Console, source: &dyn MatchSource, view: &MatchView) {
    if let Some(c) = console.confirm.clone() {
        egui::Frame::new()
            .fill(Color32::from_rgb(90, 70, 10))
            .inner_margin(8.0)
            .corner_radius(4.0)
            .show(ui, |ui| {
                ui.label(RichText::new(format!("Declare: {}?", c.question)).strong());
                ui.horizontal(|ui| {
                    if ui.button("Confirm").clicked() {
                        source.td(c.action.clone());
                        console.confirm = None;
                    }
                    if ui.button("Cancel").clicked() {
                        console.confirm = None;
                    }
                });
            });
    }
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
    let seats: Vec<Seat> = Seat::ALL
        .into_iter()
        .filter(|s| view.board(s.board).is_some())
        .collect();
    egui::Grid::new("declare")
        .num_columns(4)
        .spacing([6.0, 4.0])
        .show(ui, |ui| {
            for seat in seats {
                let name = text::player(view, seat);
                ui.label(RichText::new(&name).color(theme::team(seat.team())))
                    .on_hover_text(text::seat(seat));
                if ui.button(format!("{name} resigns")).clicked() {
                    console.confirm = Some(Confirm {
                        question: format!("{name} resigns"),
                        action: TdAction::DeclareResult {
                            result: MatchResult {
                                winner: Some(seat.opponent().team()),
                                reason: EndReason::Resignation { seat },
                                t_ms: None,
                            },
                        },
                    });
                }
                if ui
                    .button(format!("{name}'s flag fell, claimed"))
                    .on_hover_text("A flag claim by the opponent (mating material per the rules)")
                    .clicked()
                {
                    console.confirm = Some(Confirm {
                        question: format!("{name} loses on time (claimed)"),
                        action: TdAction::ClaimFlag { seat },
                    });
                }
                if ui.button(format!("{name} forfeits")).clicked() {
                    console.confirm = Some(Confirm {
                        question: format!("{name} forfeits ({})", console.forfeit_why),
                        action: TdAction::DeclareResult {
                            result: MatchResult {
                                winner: Some(seat.opponent().team()),
                                reason: EndReason::Forfeit {
                                    seat,
                                    why: console.forfeit_why.clone(),
                                },
                                t_ms: None,
                            },
                        },
                    });
                }
                ui.end_row();
            }
        });
    ui.horizontal(|ui| {
        let l = ui.label("Forfeit reason:");
        ui.add(TextEdit::singleline(&mut console.forfeit_why).desired_width(200.0))
            .labelled_by(l.id);
    });
    if ui.button("Draw by agreement").clicked() {
        console.confirm = Some(Confirm {
            question: "Draw by agreement".to_owned(),
            action: TdAction::DeclareResult {
                result: MatchResult {
                    winner: None,
                    reason: EndReason::DrawAgreed,
                    t_ms: None,
                },
            },
        });
    }
}

fn penalties_tab(
    ui: &mut Ui,
    console: &mut Console,
    source: &dyn MatchSource,
    view: &MatchView,
    now: Millis,
) {
    let rules = source.rules();
    ui.label(
        RichText::new(format!(
            "The texts' ladders ({}): each button gives the next step for that player.",
            view.rules_title
        ))
        .small(),
    );
    for seat in Seat::ALL
        .into_iter()
        .filter(|s| view.board(s.board).is_some())
    {
        let name = text::player(view, seat);
        let given: Vec<String> = view
            .penalties
            .iter()
            .filter(|p| p.seat == seat)
            .map(|p| {
                format!(
                    "{} ({})",
                    text::penalty(view, rules, seat, p.penalty),
                    p.offence.describe()
                )
            })
            .collect();
        card(ui, theme::team(seat.team()), |ui| {
            ui.label(
                RichText::new(format!("{name} — {}", text::seat(seat)))
                    .strong()
                    .color(theme::team(seat.team())),
            );
            if given.is_empty() {
                ui.label(RichText::new("no warnings or penalties").weak().small());
            } else {
                for g in &given {
                    ui.label(RichText::new(g).small());
                }
            }
            ui.horizontal_wrapped(|ui| {
                for offence in [
                    Offence::DisplacedPieces,
                    Offence::KnockedClock,
                    Offence::WrongHand,
                ] {
                    let earlier = view.offences(seat, offence);
                    let penalty = next_penalty(rules, offence, earlier);
                    let label = format!(
                        "{}: {}",
                        text::offence(offence),
                        text::penalty(view, rules, seat, penalty)
                    );
                    if ui
                        .button(label)
                        .on_hover_text(format!(
                            "{} offence of {name} ({})",
                            text::ordinal(earlier + 1),
                            offence.describe()
                        ))
                        .clicked()
                    {
                        penalize(console, source, view, seat, offence, penalty, now);
                    }
                }
                if ui
                    .button(format!("Warning to {name}"))
                    .on_hover_text("A warning for other conduct")
                    .clicked()
                {
                    penalize(
                        console,
                        source,
                        view,
                        seat,
                        Offence::Other,
                        Penalty::Warning,
                        now,
                    );
                }
            });
        });
    }
}

fn players_tab(ui: &mut Ui, console: &mut Console, source: &dyn MatchSource, view: &MatchView) {
    ui.label("Names by seat (teams: White A with Black B, Black A with White B):");
    egui::Grid::new("names").num_columns(2).show(ui, |ui| {
        for seat in Seat::ALL
            .into_iter()
            .filter(|s| view.board(s.board).is_some())
        {
            let l = ui.label(RichText::new(text::seat(seat)).color(theme::team(seat.team())));
            ui.add(TextEdit::singleline(&mut console.names[seat.index()]).desired_width(200.0))
                .labelled_by(l.id);
            ui.end_row();
        }
    });
    let changed = console.names != view.players;
    if ui
        .add_enabled(changed, egui::Button::new("Apply names"))
        .clicked()
    {
        source.td(TdAction::SetPlayers {
            names: console.names.clone(),
        });
    }
    let teams = [Team::WhiteA, Team::BlackA];
    for t in teams {
        ui.label(RichText::new(format!("Team: {}", text::team(view, t))).color(theme::team(t)));
    }
}

fn export_tab(
    ui: &mut Ui,
    console: &mut Console,
    source: &dyn MatchSource,
    commands: &mut Vec<ConsoleRequest>,
) {
    if let Some(dir) = source.dir() {
        ui.label(RichText::new(format!("Match folder: {}", dir.display())).small());
        if ui.button("Write BPGN next to the journal").clicked() {
            let path = dir.join("match.bpgn");
            console.export_note = Some(write_bpgn(source, &path));
        }
    }
    ui.horizontal(|ui| {
        let l = ui.label("Save as:");
        ui.add(
            TextEdit::singleline(&mut console.save_as)
                .desired_width(220.0)
                .hint_text("/path/to/match.bpgn"),
        )
        .labelled_by(l.id);
        if ui.button("Save").clicked() && !console.save_as.trim().is_empty() {
            let path = PathBuf::from(console.save_as.trim());
            console.export_note = Some(write_bpgn(source, &path));
        }
    });
    if ui.button("Copy BPGN to the clipboard").clicked() {
        ui.ctx().copy_text(source.bpgn());
        console.export_note = Some("BPGN copied".to_owned());
    }
    if let Some(note) = &console.export_note {
        ui.label(RichText::new(note).strong());
    }
    ui.separator();
    ui.label("Replay a capture or a journal (read-only):");
    ui.horizontal(|ui| {
        let l = ui.label("File:");
        ui.add(
            TextEdit::singleline(&mut console.replay_path)
                .desired_width(220.0)
                .hint_text("match.capture"),
        )
        .labelled_by(l.id);
        if ui.button("Open replay").clicked() && !console.replay_path.trim().is_empty() {
            commands.push(ConsoleRequest::OpenReplay(PathBuf::from(
                console.replay_path.trim(),
            )));
        }
    });
    ui.separator();
    if ui.button("New match…").clicked() {
        commands.push(ConsoleRequest::NewMatch);
    }
}

/// Writes the BPGN; returns what the TD should read.
#[must_use]
pub fn write_bpgn(source: &dyn MatchSource, path: &std::path::Path) -> String {
    let text = source.bpgn();
    if text.is_empty() {
        return "No BPGN: the journal could not be read".to_owned();
    }
    match std::fs::write(path, text) {
        Ok(()) => format!("BPGN written to {}", path.display()),
        Err(e) => format!("Could not write {}: {e}", path.display()),
    }
}
