//! The TD's overview of an evening: every live match at a glance (both boards small, four
//! clocks, its status and open alerts), one alert queue across all matches that names
//! each alert's match, the round's games waiting to start (with the colour choices the
//! text leaves to the teams) and those finished, the standings, and what the projector
//! shows. A click on a match opens its full console. The overview only asks: every
//! change goes back as an [`OverviewRequest`].

use std::sync::Arc;
use std::time::Duration;

use egui::{Color32, RichText, Sense, Ui, Vec2};
use shakmaty::Color;

use super::board::{BoardLook, ReserveFlow, paint_board, paint_reserve};
use super::pieces::PieceSet;
use super::projector_grid::HallChoice;
use super::{standings, text, theme};
use crate::Millis;
use crate::arbiter::Alert;
use crate::arbiter::view::{BoardView, MatchView};
use crate::event::{Choice, Event, GameRef, TeamId, export};
use crate::rules::Seat;

/// A live match as the overview shows it.
pub struct OverviewMatch {
    pub game: GameRef,
    /// `1.2` (or `1.2.2`).
    pub label: String,
    pub table: Option<usize>,
    /// The team on side A (White on board A), then side B.
    pub teams: [String; 2],
    pub view: Arc<MatchView>,
    /// Match time now.
    pub now: Millis,
}

/// Everything the overview draws from.
pub struct Overview<'a> {
    pub event: &'a Event,
    pub matches: &'a [OverviewMatch],
    pub pieces: Option<&'a PieceSet>,
    pub hall: HallChoice,
    /// The demo pairs the next round by itself after this long.
    pub next_round_in: Option<Duration>,
}

/// What the TD asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OverviewRequest {
    /// Open the match's full console.
    Open(GameRef),
    /// Close a finished match (its boards are free for the next game).
    Close(GameRef),
    /// Start a game on its table.
    Start(GameRef),
    /// Start both clocks of a match (driven clocks set up, pieces on their squares).
    StartClocks(GameRef),
    PairNextRound,
    Hall(HallChoice),
    /// Put a pairing on a table (the pairing that had it takes this one's).
    Table {
        round: u16,
        pairing: u16,
        table: usize,
    },
    /// Start every game waiting whose table is free.
    StartAll,
    /// A team's choice of who plays White.
    ChooseWhite {
        game: GameRef,
        team: TeamId,
        player: usize,
    },
}

/// Draws the overview; returns the TD's requests.
/// A match's card on the overview: both boards small, side by side.
const CARD_WIDTH: f32 = 440.0;

pub fn show(ui: &mut Ui, o: &Overview<'_>) -> Vec<OverviewRequest> {
    let mut out = Vec::new();
    egui::Panel::right("overview-side")
        .default_size(380.0)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                alert_queue(ui, o, &mut out);
                ui.separator();
                ui.heading("Standings");
                standings::show_compact(ui, o.event);
            });
        });
    egui::CentralPanel::default().show(ui, |ui| {
        heading(ui, o, &mut out);
        ui.separator();
        egui::ScrollArea::vertical().show(ui, |ui| {
            // As many cards a row as fit (a wrapping layout would not wrap framed cards).
            let per_row = ((ui.available_width() / (CARD_WIDTH + 24.0)) as usize).max(1);
            for row in o.matches.chunks(per_row) {
                ui.horizontal(|ui| {
                    for m in row {
                        card(ui, m, o.pieces, &mut out);
                    }
                });
            }
            waiting(ui, o, &mut out);
            finished(ui, o);
        });
    });
    out
}

fn heading(ui: &mut Ui, o: &Overview<'_>, out: &mut Vec<OverviewRequest>) {
    let e = o.event;
    ui.horizontal_wrapped(|ui| {
        let round = e.current_round().map_or_else(
            || "No round paired yet".to_owned(),
            |r| format!("Round {r} of {}", e.rounds_planned()),
        );
        ui.heading(format!("{} · {round}", e.setup.name));
        ui.label(format!(
            "{} in play · {} · {}",
            o.matches.len(),
            e.preset().title,
            e.setup.format
        ));
        let round_over =
            e.current_round().is_none_or(|r| e.round_complete(r)) && o.matches.is_empty();
        if e.finished() {
            ui.label(RichText::new("The event is over").strong().color(theme::OK));
        } else if ui
            .add_enabled(round_over, egui::Button::new("Pair the next round"))
            .on_disabled_hover_text(
                "every game of this round needs its result, and its match closed",
            )
            .clicked()
        {
            out.push(OverviewRequest::PairNextRound);
        }
        if let Some(d) = o.next_round_in {
            ui.label(format!("next round in {} s", d.as_secs()));
        }
        ui.separator();
        let label = |h: HallChoice| match h {
            HallChoice::Auto => "matches, standings between rounds".to_owned(),
            HallChoice::Grid => "the round's matches".to_owned(),
            HallChoice::Standings => "the standings".to_owned(),
            HallChoice::One(g) => format!("match {} large", e.game_label(g)),
        };
        let mut choice = o.hall;
        egui::ComboBox::from_label("Projector shows")
            .selected_text(label(choice))
            .show_ui(ui, |ui| {
                for h in [HallChoice::Auto, HallChoice::Grid, HallChoice::Standings]
                    .into_iter()
                    .chain(o.matches.iter().map(|m| HallChoice::One(m.game)))
                {
                    ui.selectable_value(&mut choice, h, label(h));
                }
            });
        if choice != o.hall {
            out.push(OverviewRequest::Hall(choice));
        }
    });
}

/// Every open alert of every live match, newest first, each naming its match.
fn alert_queue(ui: &mut Ui, o: &Overview<'_>, out: &mut Vec<OverviewRequest>) {
    let mut alerts: Vec<(&OverviewMatch, &Alert)> = o
        .matches
        .iter()
        .flat_map(|m| m.view.open_alerts().map(move |a| (m, a)))
        .collect();
    // Newest first: by how long ago each was raised in its own match's time.
    alerts.sort_by_key(|(m, a)| m.view.t_ms.saturating_sub(a.t_ms));
    ui.heading(format!("Alerts ({})", alerts.len()));
    if alerts.is_empty() {
        ui.label(RichText::new("No open alert in any match").weak());
    }
    for (m, a) in alerts {
        let frame = egui::Frame::group(ui.style()).stroke((2.0, theme::alert_color(a.kind)));
        frame.show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.horizontal(|ui| {
                ui.label(RichText::new(format!("Match {}", m.label)).strong());
                ui.label(format!("{} – {}", m.teams[0], m.teams[1]));
            });
            ui.label(
                RichText::new(format!("{} · board {}", text::alert_title(a.kind), a.board))
                    .strong()
                    .color(theme::alert_color(a.kind)),
            );
            ui.label(&a.detail);
            if ui.button(format!("Open match {}", m.label)).clicked() {
                out.push(OverviewRequest::Open(m.game));
            }
        });
    }
}

/// One live match: teams, status, both boards small with their clocks, alerts.
fn card(ui: &mut Ui, m: &OverviewMatch, pieces: Option<&PieceSet>, out: &mut Vec<OverviewRequest>) {
    let v = &m.view;
    let open = v.open_alerts().count();
    let lost = v.boards.iter().any(|b| !b.link.connected);
    let stroke = if lost || open > 0 {
        (2.0, if lost { theme::BAD } else { theme::WARN })
    } else {
        (1.0, Color32::from_gray(70))
    };
    egui::Frame::group(ui.style())
        .stroke(stroke)
        .show(ui, |ui| {
            // A card reads top to bottom, even in the cards' wrapping row.
            ui.vertical(|ui| card_body(ui, m, pieces, out));
        });
}

fn card_body(
    ui: &mut Ui,
    m: &OverviewMatch,
    pieces: Option<&PieceSet>,
    out: &mut Vec<OverviewRequest>,
) {
    let v = &m.view;
    let open = v.open_alerts().count();
    ui.set_width(CARD_WIDTH);
    ui.horizontal(|ui| {
        ui.label(
            RichText::new(format!("Match {}", m.label))
                .strong()
                .size(16.0),
        );
        if let Some(t) = m.table {
            ui.label(format!("table {}", t + 1));
        }
        ui.label(
            RichText::new(&m.teams[0])
                .strong()
                .color(theme::TEAM_WHITE_A),
        );
        ui.label("vs");
        ui.label(
            RichText::new(&m.teams[1])
                .strong()
                .color(theme::TEAM_BLACK_A),
        );
    });
    let (status, color) = status(v);
    ui.label(RichText::new(status).color(color));
    ui.horizontal(|ui| {
        for b in &v.boards {
            board_block(ui, v, b, m.now, pieces);
        }
    });
    ui.horizontal(|ui| {
        if open > 0 {
            let first = v
                .open_alerts()
                .next()
                .map(|a| text::alert_title(a.kind))
                .unwrap_or_default();
            ui.label(
                RichText::new(format!("{open} open alert(s): {first}"))
                    .color(theme::WARN)
                    .strong(),
            );
        } else {
            ui.label(RichText::new("no open alert").weak());
        }
        if crate::station::demo::ready_to_start(v)
            && ui
                .button("Start clocks")
                .on_hover_text(
                    "both clocks set up and both boards in the start position: start both together",
                )
                .clicked()
        {
            out.push(OverviewRequest::StartClocks(m.game));
        }
        if ui.button("Open console").clicked() {
            out.push(OverviewRequest::Open(m.game));
        }
        if v.result.is_some()
            && ui
                .button("Close")
                .on_hover_text("the game is over: free its boards for the next game")
                .clicked()
        {
            out.push(OverviewRequest::Close(m.game));
        }
    });
}

fn status(v: &MatchView) -> (String, Color32) {
    let away: Vec<String> = v
        .boards
        .iter()
        .filter(|b| !b.link.connected)
        .map(|b| b.id.to_string())
        .collect();
    match away.as_slice() {
        [] => {}
        [one] => return (format!("Board {one} not connected"), theme::BAD),
        _ => {
            return (
                format!("Boards {} not connected", away.join(" and ")),
                theme::BAD,
            );
        }
    }
    if let Some(r) = &v.result {
        return (format!("{}: {}", r.token, r.text), theme::OK);
    }
    if v.boards.iter().any(|b| !b.started) {
        return ("Setting up".to_owned(), theme::WARN);
    }
    (format!("In play · {} plies", v.record.len()), theme::OK)
}

/// A small board with the player and clock above and below (as the players sit).
fn board_block(ui: &mut Ui, v: &MatchView, b: &BoardView, now: Millis, pieces: Option<&PieceSet>) {
    let white_at_bottom = b.id == crate::BoardId::A;
    let (top, bottom) = if white_at_bottom {
        (Color::Black, Color::White)
    } else {
        (Color::White, Color::Black)
    };
    ui.vertical(|ui| {
        clock_line(ui, v, b, top, now, pieces);
        let (rect, _) = ui.allocate_exact_size(Vec2::splat(200.0), Sense::hover());
        paint_board(
            ui,
            rect,
            &BoardLook {
                white_at_bottom,
                pieces,
                coordinates: false,
                ..BoardLook::of_view(b, false)
            },
        );
        clock_line(ui, v, b, bottom, now, pieces);
    });
}

/// A player's line: name, reserve (pieces with counts: what the partner's captures sent),
/// clock.
fn clock_line(
    ui: &mut Ui,
    v: &MatchView,
    b: &BoardView,
    color: Color,
    now: Millis,
    pieces: Option<&PieceSet>,
) {
    let seat = Seat::new(b.id, color);
    let flag = match color {
        Color::White => b.clock.white_flag,
        Color::Black => b.clock.black_flag,
    };
    let running = v.result.is_none() && b.clock.running == Some(color);
    let reading = text::clock_reading(b.clock.present, b.clock.remaining(color, now));
    ui.horizontal(|ui| {
        ui.set_width(200.0);
        ui.label(RichText::new(text::player(v, seat)).color(theme::team(seat.team())));
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            let mut t = RichText::new(reading).monospace().strong();
            if flag {
                t = t.color(theme::BAD);
            } else if running {
                t = t
                    .color(Color32::WHITE)
                    .background_color(Color32::from_gray(70));
            }
            ui.label(t);
            let slot = 18.0;
            let (rect, _) =
                ui.allocate_exact_size(Vec2::new(ui.available_width(), slot), Sense::hover());
            paint_reserve(
                ui.painter(),
                rect.shrink2(Vec2::new(4.0, 0.0)),
                b.reserve(color),
                color,
                pieces,
                slot,
                ReserveFlow::Right,
                false,
            );
        });
    });
}

/// The round's games not begun yet: table, who plays where, the teams' colour choices.
fn waiting(ui: &mut Ui, o: &Overview<'_>, out: &mut Vec<OverviewRequest>) {
    let e = o.event;
    let ready = e.ready_games();
    if ready.is_empty() {
        return;
    }
    ui.add_space(8.0);
    ui.horizontal(|ui| {
        ui.heading("Waiting to start");
        if ui.button("Start all").clicked() {
            out.push(OverviewRequest::StartAll);
        }
    });
    for g in ready {
        let (Some(p), Some(game)) = (e.pairing(g.round, g.pairing), e.game(g)) else {
            continue;
        };
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new(format!("Match {}", e.game_label(g))).strong());
                match p.table.and_then(|t| e.tables.get(t).map(|x| (t, x))) {
                    Some((t, x)) => {
                        ui.label(format!("table {} (boards {} and {})", t + 1, x.a, x.b))
                    }
                    None => ui.label(
                        RichText::new("no table: enter its result by hand").color(theme::WARN),
                    ),
                };
                let players = e.players(g);
                ui.label(format!(
                    "White A {} · Black A {} · White B {} · Black B {}",
                    players[0], players[1], players[2], players[3]
                ));
                if p.table.is_some() && ui.button("Start").clicked() {
                    out.push(OverviewRequest::Start(g));
                }
            });
            for (slot, team) in p.teams().into_iter().enumerate() {
                if game.choice[slot] != Choice::Open {
                    continue;
                }
                ui.horizontal(|ui| {
                    ui.label(format!("{} chooses who plays White:", e.team_name(team)));
                    if let Some(t) = e.team(team) {
                        for (i, pl) in t.players.iter().enumerate() {
                            let chosen = usize::from(game.white[slot]) == i;
                            if ui.selectable_label(chosen, &pl.name).clicked() {
                                out.push(OverviewRequest::ChooseWhite {
                                    game: g,
                                    team,
                                    player: i,
                                });
                            }
                        }
                    }
                });
            }
        });
    }
}

/// The round's games with a result whose matches are closed.
fn finished(ui: &mut Ui, o: &Overview<'_>) {
    let e = o.event;
    let Some(r) = e.current_round() else { return };
    let done: Vec<GameRef> = e
        .games()
        .into_iter()
        .filter(|(g, _, game)| g.round == r && game.result.is_some())
        .filter(|(g, ..)| !o.matches.iter().any(|m| m.game == *g))
        .map(|(g, ..)| g)
        .collect();
    if done.is_empty() {
        return;
    }
    ui.add_space(8.0);
    ui.heading("Finished");
    egui::Grid::new("overview-finished")
        .striped(true)
        .show(ui, |ui| {
            for g in done {
                let Some([a, b]) = e.sides(g) else { continue };
                ui.label(format!("Match {}", e.game_label(g)));
                ui.label(format!("{} – {}", e.team_name(a), e.team_name(b)));
                ui.label(RichText::new(export::result_text(e, g)).strong());
                ui.label(
                    e.game(g)
                        .and_then(|x| x.result.as_ref())
                        .map_or("", |r| r.note.as_str()),
                );
                ui.end_row();
            }
        });
    for bye in e.round(r).map(|x| x.byes.clone()).unwrap_or_default() {
        ui.label(format!("Bye: {} ({:?})", e.team_name(bye), e.setup.bye));
    }
}
