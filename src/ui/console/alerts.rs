//! The alert queue: what the arbiter cannot decide alone, each alert on a card with the
//! resolutions that fit it (one click each); a result the players show with their kings;
//! the settled alerts, folded.

use egui::{Align, Layout, RichText, ScrollArea, Ui};
use shakmaty::Color;

use super::parts::card;
use super::penalties::{next_step, penalize};
use super::result::{draw_agreed, resigns};
use super::{Console, Desk};
use crate::BoardId;
use crate::arbiter::{Alert, AlertKind, AlertState, Offence, ResultSignal, Subject, TdAction};
use crate::rules::Seat;
use crate::ui::{text, theme};

/// The queue, in a scroll area over the tabs.
pub(super) fn show(ui: &mut Ui, console: &mut Console, desk: &Desk<'_>) {
    let view = desk.view;
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
                    result_signal_card(ui, console, desk, b.id, signal);
                }
            }
            if open.is_empty() {
                ui.label(RichText::new("Nothing to decide.").weak());
            }
            for a in &open {
                alert_card(ui, console, desk, a);
            }
            settled(ui, desk);
        });
}

/// The settled alerts, newest first, folded away.
fn settled(ui: &mut Ui, desk: &Desk<'_>) {
    let closed: Vec<&Alert> = desk
        .view
        .alerts
        .iter()
        .rev()
        .filter(|a| !a.is_open())
        .collect();
    if closed.is_empty() {
        return;
    }
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

/// The players of a board show a result (kings in the centre): one click puts it before
/// the TD for confirmation.
fn result_signal_card(
    ui: &mut Ui,
    console: &mut Console,
    desk: &Desk<'_>,
    board: BoardId,
    signal: ResultSignal,
) {
    let view = desk.view;
    card(ui, theme::OK, |ui| {
        ui.label(
            RichText::new(format!("Board {board}: the players show a result"))
                .strong()
                .color(theme::OK),
        );
        let (what, result) = match signal {
            ResultSignal::WhiteWins => {
                let loser = Seat::new(board, Color::Black);
                (
                    format!(
                        "{} resigns (White wins on {board})",
                        text::player(view, loser)
                    ),
                    resigns(loser),
                )
            }
            ResultSignal::BlackWins => {
                let loser = Seat::new(board, Color::White);
                (
                    format!(
                        "{} resigns (Black wins on {board})",
                        text::player(view, loser)
                    ),
                    resigns(loser),
                )
            }
            ResultSignal::Draw => ("Draw by agreement".to_owned(), draw_agreed()),
        };
        ui.label(format!("Kings in the centre: {what}"));
        if ui.button(format!("Declare: {what}")).clicked() {
            console.ask(what, TdAction::DeclareResult { result });
        }
    });
}

/// One open alert with the resolutions that fit it.
fn alert_card(ui: &mut Ui, console: &mut Console, desk: &Desk<'_>, a: &Alert) {
    let (source, view) = (desk.source, desk.view);
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
            (
                AlertKind::Promotion | AlertKind::UnseenMove,
                Subject::HiddenMove { ply, options },
            ) => {
                ui.label("Where did it go?");
                // Two pieces lying on their side may reach the same square: then each
                // button names the piece's square too.
                let several = options.iter().any(|o| o.from != options[0].from);
                for o in options {
                    let name = if several {
                        o.text(true)
                    } else {
                        format!("to {}", o.to)
                    };
                    if ui.button(name).clicked() {
                        source.td(TdAction::ChooseHiddenMove {
                            ply: *ply,
                            from: several.then_some(o.from),
                            to: o.to,
                        });
                    }
                }
            }
            (AlertKind::UnseenMove, Subject::TakenDrop { ply, kinds }) => {
                ui.label("Which piece?");
                for role in kinds {
                    if ui
                        .button(text::role_title(*role))
                        .on_hover_text(format!("A {} was dropped", text::role(*role)))
                        .clicked()
                    {
                        source.td(TdAction::SetDroppedPiece {
                            ply: *ply,
                            role: *role,
                        });
                    }
                }
            }
            (AlertKind::UnseenMove, Subject::Pairs { ply, options, .. }) => {
                ui.label("Which was played?");
                for moves in options {
                    if ui
                        .button(moves)
                        .on_hover_text(format!("The players say they played {moves}"))
                        .clicked()
                    {
                        source.td(TdAction::ChoosePair {
                            ply: *ply,
                            moves: moves.clone(),
                        });
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
                let (penalty, nth) = next_step(desk, *seat, offence);
                let label = format!(
                    "{} ({} offence)",
                    text::penalty(view, rules, *seat, penalty),
                    text::ordinal(nth)
                );
                if ui
                    .button(label)
                    .on_hover_text("Knocked pieces and pressed the clock: the texts' ladder")
                    .clicked()
                {
                    penalize(console, desk, *seat, offence, penalty, Some(a.id));
                }
            }
            (AlertKind::GameEnd, _) => {
                if ui.button("OK").clicked() {
                    source.td(TdAction::Dismiss { alert: a.id });
                }
                if ui.button("Withdraw the result").clicked() {
                    source.td(TdAction::Undeclare);
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
