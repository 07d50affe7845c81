//! The Penalties tab: per player, what was given so far and a button per offence giving
//! the next step of the texts' ladder; and [`penalize`], shared with the alert cards.

use egui::{RichText, Ui};

use super::parts::card;
use super::{Console, Desk};
use crate::arbiter::view::next_penalty;
use crate::arbiter::{Offence, TdAction};
use crate::rules::{Penalty, Seat};
use crate::ui::{text, theme};

pub(super) fn show(ui: &mut Ui, console: &mut Console, desk: &Desk<'_>) {
    let view = desk.view;
    let rules = desk.source.rules();
    ui.label(
        RichText::new(format!(
            "The texts' ladders ({}): each button gives the next step for that player.",
            view.rules_title
        ))
        .small(),
    );
    for seat in desk.seats() {
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
                    let (penalty, nth) = next_step(desk, seat, offence);
                    let label = format!(
                        "{}: {}",
                        text::offence(offence),
                        text::penalty(view, rules, seat, penalty)
                    );
                    if ui
                        .button(label)
                        .on_hover_text(format!(
                            "{} offence of {name} ({})",
                            text::ordinal(nth),
                            offence.describe()
                        ))
                        .clicked()
                    {
                        penalize(console, desk, seat, offence, penalty, None);
                    }
                }
                if ui
                    .button(format!("Warning to {name}"))
                    .on_hover_text("A warning for other conduct")
                    .clicked()
                {
                    penalize(console, desk, seat, Offence::Other, Penalty::Warning, None);
                }
            });
        });
    }
}

/// The next step of the ladder for `seat`'s `offence`, and which offence of theirs this
/// would be (1 for the first).
pub(super) fn next_step(desk: &Desk<'_>, seat: Seat, offence: Offence) -> (Penalty, usize) {
    let earlier = desk.view.offences(seat, offence);
    (
        next_penalty(desk.source.rules(), offence, earlier),
        earlier + 1,
    )
}

/// Gives the penalty (resolving the alert `about`, if it was given for one); a time penalty also leaves the TD a notice to set it on the clock.
pub(super) fn penalize(
    console: &mut Console,
    desk: &Desk<'_>,
    seat: Seat,
    offence: Offence,
    penalty: Penalty,
    about: Option<u64>,
) {
    desk.source.td(TdAction::Penalize {
        seat,
        offence,
        penalty,
        alert: about,
    });
    let in_hand = desk
        .view
        .clocks
        .boards
        .iter()
        .any(|c| c.board == seat.board && c.in_hand);
    if penalty == Penalty::TimeToOpponent && in_hand {
        // Tandem puts the minute on the clock (and checks it took it).
        console.notice(
            desk.now,
            format!(
                "Tandem adds {} to {}'s clock (board {})",
                text::duration_words(desk.source.rules().penalties.time_penalty_ms),
                text::player(desk.view, seat.opponent()),
                seat.board
            ),
            true,
        );
    } else if penalty == Penalty::TimeToOpponent {
        // The arbiter records the penalty; the time itself is set on the clock.
        console.notice(
            desk.now,
            format!(
                "Set {} more on {}'s clock (board {})",
                text::duration_words(desk.source.rules().penalties.time_penalty_ms),
                text::player(desk.view, seat.opponent()),
                seat.board
            ),
            false,
        );
    }
}
