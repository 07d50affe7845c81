//! Replay of a saved capture or journal, read-only: the recording is loaded and run off
//! the UI thread through the same runner as live play ([`crate::station::recording`],
//! [`crate::station::runner`]), and the console steps through the views it produced, one
//! per change of the record.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crossbeam_channel::{Receiver, TryRecvError, bounded};
use egui::{Align, Layout, RichText, ScrollArea, Ui, Vec2};
use shakmaty::Color;

use super::board::{BoardLook, paint_board_in_row};
use super::pieces::PieceSet;
use super::text;
use crate::BoardId;
use crate::arbiter::Output;
use crate::arbiter::view::{BoardView, MatchView};
use crate::rules::Seat;
use crate::station::{MatchRunner, Recording, Waker};

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
    /// Runs a loaded recording through the station's runner as `tandem replay` does,
    /// keeping a view after every input that changed something a TD would look at.
    /// `progress` is told how many inputs are done.
    pub fn run(path: &Path, recording: &Recording, progress: &AtomicUsize) -> Replay {
        let mut runner = MatchRunner::new(recording.header.clone());
        let mut frames = vec![Arc::new(runner.arbiter().view())];
        let mut alerts = 0;
        let mut keep = |runner: &MatchRunner, out: &[Output], frames: &mut Vec<_>| {
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
                frames.push(Arc::new(runner.arbiter().view()));
            }
        };
        let mut done = 0;
        runner.replay(&recording.inputs, |runner, out| {
            keep(runner, out, &mut frames);
            done += 1;
            progress.store(done, Ordering::Relaxed);
        });
        let out = runner.finish();
        keep(&runner, &out, &mut frames);
        if frames.len() >= MAX_FRAMES {
            frames.push(Arc::new(runner.arbiter().view()));
        }
        let at = frames.len().saturating_sub(1);
        Replay {
            path: path.to_path_buf(),
            frames,
            at,
            bpgn: runner.bpgn().to_owned(),
            alerts,
        }
    }

    #[must_use]
    pub fn view(&self) -> Option<&Arc<MatchView>> {
        self.frames.get(self.at).or_else(|| self.frames.last())
    }
}

/// A recording being opened on a thread of its own, so the console stays live (a long
/// capture takes a moment to run).
pub struct ReplayLoad {
    pub path: PathBuf,
    /// Inputs run so far, and in all (0 while the file is being read).
    done: Arc<AtomicUsize>,
    total: Arc<AtomicUsize>,
    result: Receiver<anyhow::Result<Replay>>,
}

impl ReplayLoad {
    /// Starts reading and running `path` (a capture is played under `rules`).
    #[must_use]
    pub fn start(path: &Path, rules: &str, waker: Waker) -> ReplayLoad {
        let done = Arc::new(AtomicUsize::new(0));
        let total = Arc::new(AtomicUsize::new(0));
        let (tx, rx) = bounded(1);
        let failed = tx.clone();
        let (p, r, d, t) = (
            path.to_path_buf(),
            rules.to_owned(),
            done.clone(),
            total.clone(),
        );
        let spawned = std::thread::Builder::new()
            .name("replay-load".into())
            .spawn(move || {
                let result = Recording::load(&p, &r).map(|recording| {
                    t.store(recording.inputs.len(), Ordering::Relaxed);
                    Replay::run(&p, &recording, &d)
                });
                let _ = tx.send(result);
                waker();
            });
        if let Err(e) = spawned {
            let _ = failed.send(Err(anyhow::anyhow!("the replay could not start: {e}")));
        }
        ReplayLoad {
            path: path.to_path_buf(),
            done,
            total,
            result: rx,
        }
    }

    /// The replay once it is ready (or why it could not be opened).
    pub fn poll(&self) -> Option<anyhow::Result<Replay>> {
        match self.result.try_recv() {
            Ok(r) => Some(r),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                Some(Err(anyhow::anyhow!("the replay stopped unexpectedly")))
            }
        }
    }

    /// Fraction of the inputs run (0 while the file is read).
    #[must_use]
    pub fn progress(&self) -> f32 {
        let total = self.total.load(Ordering::Relaxed);
        if total == 0 {
            return 0.0;
        }
        self.done.load(Ordering::Relaxed) as f32 / total as f32
    }
}

/// Draws a replay still opening: its progress. Returns `true` when the TD cancels.
pub fn show_loading(ui: &mut Ui, load: &ReplayLoad) -> bool {
    let mut cancel = false;
    egui::CentralPanel::default().show(ui, |ui| {
        ui.heading(format!("Opening {} …", load.path.display()));
        ui.add(egui::ProgressBar::new(load.progress()).show_percentage());
        if ui.button("Cancel").clicked() {
            cancel = true;
        }
    });
    // Progress moves on by itself: look again a few times a second.
    ui.ctx()
        .request_repaint_after(std::time::Duration::from_millis(100));
    cancel
}

/// Draws the replay; returns `true` when the TD closes it.
pub fn show(ui: &mut Ui, replay: &mut Replay, pieces: Option<&PieceSet>) -> bool {
    let close = step_bar(ui, replay);
    let Some(view) = replay.view().cloned() else {
        return close;
    };
    egui::Panel::right("replay-side")
        .default_size(420.0)
        .show(ui, |ui| side(ui, &view, replay));
    egui::CentralPanel::default().show(ui, |ui| {
        let n = view.boards.len().max(1) as f32;
        let width = (ui.available_width() - 12.0 * (n - 1.0)) / n;
        let height = ui.available_height();
        ui.horizontal_top(|ui| {
            for b in &view.boards {
                ui.allocate_ui_with_layout(
                    Vec2::new(width, height),
                    Layout::top_down(Align::Min),
                    |ui| board_column(ui, &view, b, width, height, pieces),
                );
            }
        });
    });
    close
}

/// The bar over the replay: what it is, closing it, and stepping through it. Returns
/// `true` when the TD closes it.
fn step_bar(ui: &mut Ui, replay: &mut Replay) -> bool {
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
    close
}

/// The alerts raised up to this step, the result, and the whole recording's BPGN.
fn side(ui: &mut Ui, view: &MatchView, replay: &Replay) {
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
}

/// One board at this step, as the players sit, with its names, reserves, clocks and moves.
fn board_column(
    ui: &mut Ui,
    view: &MatchView,
    b: &BoardView,
    width: f32,
    height: f32,
    pieces: Option<&PieceSet>,
) {
    ui.set_width(width);
    ui.label(RichText::new(text::board(b.id)).size(20.0).strong());
    let white_at_bottom = b.id == BoardId::A;
    let (top, bottom) = if white_at_bottom {
        (Color::Black, Color::White)
    } else {
        (Color::White, Color::Black)
    };
    let size = (height - 260.0).min(width).clamp(160.0, 560.0);
    names_line(ui, view, b.id, top);
    paint_board_in_row(
        ui,
        width,
        size,
        &BoardLook {
            pieces,
            ..BoardLook::of_view(b, true)
        },
    );
    names_line(ui, view, b.id, bottom);
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
