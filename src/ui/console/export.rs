//! The Export tab: where the station keeps the match's BPGN (current after every move),
//! the BPGN saved elsewhere or copied; a capture or journal opened for replay; a new match.

use std::path::{Path, PathBuf};

use egui::{RichText, TextEdit, Ui};

use super::parts::labelled;
use super::{Console, ConsoleRequest, Desk};
use crate::ui::source::MatchSource;

pub(super) fn show(
    ui: &mut Ui,
    console: &mut Console,
    desk: &Desk<'_>,
    requests: &mut Vec<ConsoleRequest>,
) {
    let source = desk.source;
    if let Some(dir) = source.dir() {
        ui.label(RichText::new(format!("Match folder: {}", dir.display())).small());
        ui.label(
            RichText::new(format!(
                "The BPGN is kept current in {} after every move.",
                dir.join(crate::station::folder::BPGN).display()
            ))
            .small(),
        );
    }
    ui.horizontal(|ui| {
        labelled(
            ui,
            "Save as:",
            TextEdit::singleline(&mut console.save_as)
                .desired_width(220.0)
                .hint_text("/path/to/match.bpgn"),
        );
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
        labelled(
            ui,
            "File:",
            TextEdit::singleline(&mut console.replay_path)
                .desired_width(220.0)
                .hint_text("match.capture"),
        );
        if ui.button("Open replay").clicked() && !console.replay_path.trim().is_empty() {
            requests.push(ConsoleRequest::OpenReplay(PathBuf::from(
                console.replay_path.trim(),
            )));
        }
    });
    ui.separator();
    if ui.button("New match…").clicked() {
        requests.push(ConsoleRequest::NewMatch);
    }
}

/// Writes the BPGN; returns what the TD should read.
#[must_use]
pub fn write_bpgn(source: &dyn MatchSource, path: &Path) -> String {
    let text = source.bpgn();
    if text.is_empty() {
        return "No BPGN: the journal could not be read".to_owned();
    }
    match std::fs::write(path, text) {
        Ok(()) => format!("BPGN written to {}", path.display()),
        Err(e) => format!("Could not write {}: {e}", path.display()),
    }
}
