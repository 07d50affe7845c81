//! The spectators' web server in the window: started with `--web ADDR`, fed the live
//! match and the projector's broadcast delay before every frame, and shown in the top bar
//! as the address to type with its QR code (for a phone's camera).

use egui::{Color32, RichText, Sense, Vec2};

use super::{Live, TandemApp};
use crate::Millis;
use crate::ui::theme;
use crate::web::{FIRST_MATCH, WebServer};

impl TandemApp {
    /// Starts the web server if the command line asked for one (a port in use is said on
    /// the console, and the app runs without it).
    pub(super) fn start_web(&mut self) {
        let Some(addr) = self.opts.web else { return };
        let delay = Millis::from(self.projector.delay_s) * 1000;
        match WebServer::start(addr, delay) {
            Ok(w) => self.web = Some(w),
            Err(e) => self.message = Some(format!("The web page cannot listen on {addr}: {e}")),
        }
    }

    /// Before each frame: the web page shows the live match (during an evening, every
    /// live match, by its pairing, with the standings as the hall may know them), with
    /// the projector's delay; a match no longer live is taken off the page.
    pub(super) fn follow_web(&self) {
        let Some(web) = &self.web else { return };
        let delay = Millis::from(self.projector.delay_s) * 1000;
        web.set_delay_ms(delay);
        match &self.live {
            Some(Live::Event(ev)) => {
                let station = ev.station();
                web.show_evening(station.live(), &station.hall_event(delay));
            }
            live => {
                if let Some(session) = live
                    .as_ref()
                    .and_then(Live::source)
                    .and_then(|s| s.session())
                {
                    web.show(FIRST_MATCH, session);
                }
            }
        }
    }

    /// The top bar's item: the address, and on a click its QR code.
    pub(super) fn web_item(&self, ui: &mut egui::Ui) {
        let Some(web) = &self.web else { return };
        let urls = web.urls();
        let first = urls.first().cloned().unwrap_or_default();
        ui.separator();
        ui.menu_button(format!("Web: {first}"), |ui| {
            ui.label(RichText::new("Spectators' page").heading());
            ui.label(
                "Type this address in a phone's browser on the hall's network, or scan the code:",
            );
            for u in &urls {
                ui.label(RichText::new(u).monospace().size(22.0).strong());
            }
            qr_code(ui, &first, 6.0);
            ui.label(
                RichText::new(format!(
                    "Read-only: the projector's view, with its broadcast delay ({} s). \
                     Feeds: {first}api/matches/1 (JSON), …/events (live), …/bpgn.",
                    self.projector.delay_s
                ))
                .small()
                .color(theme::PROJECTOR_DIM),
            );
        });
    }
}

/// `text` as a QR code, `module` points a module, with the quiet zone around it.
fn qr_code(ui: &mut egui::Ui, text: &str, module: f32) {
    let Ok(code) = qrcode::QrCode::new(text.as_bytes()) else {
        ui.label("(no QR code for this address)");
        return;
    };
    let width = code.width();
    let colors = code.to_colors();
    let quiet = 4.0 * module;
    let side = width as f32 * module + 2.0 * quiet;
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(side), Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, Color32::WHITE);
    for (i, c) in colors.iter().enumerate() {
        if *c == qrcode::Color::Dark {
            let (x, y) = ((i % width) as f32, (i / width) as f32);
            let min = rect.min + Vec2::new(quiet + x * module, quiet + y * module);
            painter.rect_filled(
                egui::Rect::from_min_size(min, Vec2::splat(module)),
                0.0,
                Color32::BLACK,
            );
        }
    }
}
