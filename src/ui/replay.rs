//! Replay of a saved capture or journal, read-only: the recording goes through the same
//! arbiter as live play ([`crate::replay`]), and the console steps through the views it
//! produced, one per change of the record.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context as _;
use egui::{Align, Layout, Rect, RichText, ScrollArea, Sense, Ui, Vec2};
use shakmaty::Color;

use super::board::{BoardLook, paint_board};
use super::pieces::PieceSet;
use super::text;
use crate::arbiter::journal::{is_journal, parse_journal};
use crate::arbiter::view::MatchView;
use crate::arbiter::{ArbiterConfig, Input, Output};
use crate::device::capture::read_capture;
use crate::notation::{BpgnHeader, write_bpgn};
use crate::rules::{RulesPreset, Seat};
use crate::{BoardId, Millis};

/// At most this many steps are kept (a long recording still opens).
const MAX_FRAMES: usize = 5000;

/// A recording replayed, ready to step through.
pub struct Replay {
    pub path: PathBuf,
    /// The match after each change, first to last.
    pub frames: Vec<Arc<MatchView>>,
    pub at: usize,
    pub bpgn: String,
    pub alerts: usize,
}

impl Replay {
    /// Replays a capture (with `rules`) or a journal (with the rules it names).
    pub fn open(path: &Path, rules: &str) -> anyhow::Result<Replay> {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let (cfg, inputs) = if is_journal(&text) {
            let j = parse_journal(&text).map_err(|e| anyhow::anyhow!("{}:{e}", path.display()))?;
            (j.config, j.inputs)
        } else {
            let chunks = read_capture(path).map_err(|e| anyhow::anyhow!("{e}"))?;
            let rules = RulesPreset::load(rules).map_err(|e| anyhow::anyhow!("{e}"))?;
            let inputs = crate::replay::capture_events(&chunks)
                .into_iter()
                .map(Input::Board)
                .collect();
            (ArbiterConfig::new(rules), inputs)
        };
        Ok(Self::from_inputs(path, cfg, &inputs))
    }

    /// Runs the inputs as [`crate::replay::run_inputs`] does, keeping a view after every
    /// input that changed something a TD would look at.
    #[must_use]
    pub fn from_inputs(path: &Path, cfg: ArbiterConfig, inputs: &[Input]) -> Replay {
        let mut arb = crate::arbiter::Arbiter::new(cfg);
        let mut frames = vec![Arc::new(arb.view())];
        let mut last: Millis = 0;
        let mut alerts = 0;
        let mut keep = |arb: &crate::arbiter::Arbiter, out: &[Output], frames: &mut Vec<_>| {
            let changed = out.iter().any(|o| {
                matches!(
                    o,
                    Output::Committed { .. }
                        | Output::RecordChanged
                        | Output::AlertRaised(_)
                        | Output::MatchEnded(_)
                )
            });
            alerts += out
                .iter()
                .filter(|o| matches!(o, Output::AlertRaised(_)))
                .count();
            if changed && frames.len() < MAX_FRAMES {
                frames.push(Arc::new(arb.view()));
            }
        };
        for input in inputs {
            last = last.max(input.t_ms());
            let out = arb.handle(input);
            keep(&arb, &out, &mut frames);
        }
        let out = arb.finish_at(last + crate::replay::TAIL_MS);
        keep(&arb, &out, &mut frames);
        if frames.len() >= MAX_FRAMES {
            frames.push(Arc::new(arb.view()));
        }
        let mut header = BpgnHeader {
            event: format!("Tandem replay of {}", path.display()),
            site: "?".into(),
            ..BpgnHeader::default()
        };
        for seat in Seat::ALL {
            header.set_player(seat, arb.player(seat));
        }
        let bpgn = write_bpgn(arb.game(), &header);
        let at = frames.len().saturating_sub(1);
        Replay {
            path: path.to_path_buf(),
            frames,
            at,
            bpgn,
            alerts,
        }
    }

    #[must_use]
    pub fn view(&self) -> Option<&Arc<MatchView>> {
        self.frames.get(self.at).or_else(|| self.frames.last())
    }
}

/// Draws the replay; returns `true` when the TD closes it.
pub fn show(ui: &mut Ui, replay: &mut Replay, pieces: Option<&PieceSet>) -> bool {
    let mut close = false;
    let last = replay.frames.len().saturating_sub(1);
    egui::Panel::top("replay-bar").show(ui, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label(
                RichText::new(format!("REPLAY (read-only): {}", replay.path.display()))
                    .strong()
                    .size(16.0),
            );
            if ui.button("Close replay").clicked() {
                close = true;
            }
        });
        ui.horizontal(|ui| {
            if ui.button("|< Start").clicked() {
                replay.at = 0;
            }
            if ui.button("< Back").clicked() {
                replay.at = replay.at.saturating_sub(1);
            }
            if ui.button("Forward >").clicked() {
                replay.at = (replay.at + 1).min(last);
            }
            if ui.button("End >|").clicked() {
                replay.at = last;
            }
            ui.add(egui::Slider::new(&mut replay.at, 0..=last).text("step"));
            if let Some(v) = replay.view() {
                ui.label(format!("match time {}", text::match_time(v.t_ms)));
            }
        });
    });
    let Some(view) = replay.view().cloned() else {
        return close;
    };
    egui::Panel::right("replay-side")
        .default_size(420.0)
        .show(ui, |ui| {
            ui.heading(format!("Alerts ({} raised in all)", replay.alerts));
            ScrollArea::vertical()
                .id_salt("replay-alerts")
                .max_height(ui.available_height() * 0.5)
                .show(ui, |ui| {
                    for a in view.alerts.iter().rev() {
                        ui.label(
                            RichText::new(format!(
                                "{} {} · {}: {}",
                                text::match_time(a.t_ms),
                                a.board,
                                text::alert_title(a.kind),
                                a.detail
                            ))
                            .small(),
                        );
                    }
                });
            ui.separator();
            if let Some(r) = &view.result {
                ui.label(RichText::new(format!("Result: {} ({})", r.text, r.token)).strong());
            }
            ui.label("BPGN of the whole recording:");
            ScrollArea::vertical()
                .id_salt("replay-bpgn")
                .show(ui, |ui| {
                    ui.label(RichText::new(&replay.bpgn).monospace().small());
                });
        });
    egui::CentralPanel::default().show(ui, |ui| {
        let n = view.boards.len().max(1) as f32;
        let width = (ui.available_width() - 12.0 * (n - 1.0)) / n;
        let height = ui.available_height();
        ui.horizontal_top(|ui| {
            for b in &view.boards {
                ui.allocate_ui_with_layout(
                    Vec2::new(width, height),
                    Layout::top_down(Align::Min),
                    |ui| {
                        ui.set_width(width);
                        ui.label(RichText::new(text::board(b.id)).size(20.0).strong());
                        let white_at_bottom = b.id == BoardId::A;
                        let (top, bottom) = if white_at_bottom {
                            (Color::Black, Color::White)
                        } else {
                            (Color::White, Color::Black)
                        };
                        let size = (height - 260.0).min(width).clamp(160.0, 560.0);
                        names_line(ui, &view, b.id, top);
                        let (rect, _) =
                            ui.allocate_exact_size(Vec2::new(width, size), Sense::hover());
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
                        names_line(ui, &view, b.id, bottom);
                        ScrollArea::vertical()
                            .id_salt(("replay-moves", b.id))
                            .stick_to_bottom(true)
                            .show(ui, |ui| {
                                let moves: Vec<String> = view
                                    .plies_on(b.id)
                                    .map(|p| format!("{} {}", text::move_number(p), p.san))
                                    .collect();
                                ui.label(RichText::new(moves.join("  ")).monospace());
                            });
                    },
                );
            }
        });
    });
    close
}

fn names_line(ui: &mut Ui, view: &MatchView, board: BoardId, color: Color) {
    let seat = Seat::new(board, color);
    let b = view.board(board);
    let reserve = b.map(|b| super::board::reserve_words(b.reserve(color)));
    let clock = b
        .and_then(|b| b.clock.remaining(color, b.clock.at_ms))
        .map(text::clock);
    ui.label(format!(
        "{} ({}) · reserve {} · clock {}",
        text::player(view, seat),
        text::seat(seat),
        reserve.unwrap_or_default(),
        clock.unwrap_or_else(|| "–".to_owned())
    ));
}
