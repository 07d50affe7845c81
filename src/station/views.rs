//! The views a running match publishes: the latest one for the TD's console, and for the
//! hall (projector, web page) what spectators may see, kept for the broadcast delay.
//!
//! The hall's history holds a spectator view only when something the hall sees changed
//! (a move, a clock reading, a result: not every sensor report), and consecutive views
//! share their move list, so minutes of delay cost little memory however long the
//! evening.

use std::collections::VecDeque;
use std::sync::Arc;

use crate::Millis;
use crate::arbiter::spectator::SpectatorView;
use crate::arbiter::view::MatchView;

/// How long the projector may run behind live, at most (views kept for the delay).
pub const MAX_BROADCAST_DELAY_MS: Millis = 15 * 60_000;

/// Spectator views kept at most, whatever the delay (a guard: a clock reading a second
/// per board makes a few thousand in fifteen minutes).
const MAX_KEPT: usize = 20_000;

/// Views of one match: the latest, and the hall's history for the broadcast delay.
#[derive(Clone, Debug)]
pub struct Views {
    latest: Arc<MatchView>,
    /// What the hall saw each time it changed, oldest first; none older than the longest
    /// delay but the one in force at its cutoff.
    hall: VecDeque<Arc<SpectatorView>>,
}

impl Views {
    #[must_use]
    pub fn new(first: MatchView) -> Views {
        let hall = Arc::new(SpectatorView::of(&first, None));
        Views {
            latest: Arc::new(first),
            hall: VecDeque::from([hall]),
        }
    }

    /// A new view of the match.
    pub fn publish(&mut self, view: MatchView) {
        let hall = SpectatorView::of(&view, self.hall.back().map(Arc::as_ref));
        self.push(view, hall);
    }

    /// What the hall last saw (to build the next spectator view from, outside any lock).
    #[must_use]
    pub fn hall_latest(&self) -> Option<Arc<SpectatorView>> {
        self.hall.back().cloned()
    }

    /// A new view of the match and its spectator view (built from [`Self::hall_latest`]).
    /// True when the hall's picture changed (the spectator view was kept).
    pub fn push(&mut self, view: MatchView, hall: SpectatorView) -> bool {
        let changed = !self.hall.back().is_some_and(|b| b.same_as(&hall));
        if changed {
            let cutoff = hall.t_ms.saturating_sub(MAX_BROADCAST_DELAY_MS);
            self.hall.push_back(Arc::new(hall));
            while self.hall.len() > MAX_KEPT || self.hall.get(1).is_some_and(|v| v.t_ms <= cutoff) {
                self.hall.pop_front();
            }
        }
        self.latest = Arc::new(view);
        changed
    }

    /// Every spectator view kept for the delay, oldest first (for a follower that comes
    /// in late: the web server starts its own delay line from them).
    #[must_use]
    pub fn hall_history(&self) -> Vec<Arc<SpectatorView>> {
        self.hall.iter().cloned().collect()
    }

    /// The TD's view now.
    #[must_use]
    pub fn latest(&self) -> Arc<MatchView> {
        self.latest.clone()
    }

    /// What the hall sees at match time `now` with a broadcast delay of `delay_ms`: the
    /// last spectator view from at least that long ago.
    #[must_use]
    pub fn for_hall(&self, now: Millis, delay_ms: Millis) -> Arc<SpectatorView> {
        let cutoff = now.saturating_sub(delay_ms);
        self.hall
            .iter()
            .rev()
            .find(|v| v.t_ms <= cutoff)
            .or_else(|| self.hall.front())
            .cloned()
            .unwrap_or_else(|| Arc::new(SpectatorView::of(&self.latest, None)))
    }

    /// How many spectator views are kept (for the memory measurements).
    #[must_use]
    pub fn kept(&self) -> usize {
        self.hall.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BoardId;
    use crate::arbiter::{Arbiter, ArbiterConfig, Input, TdAction};
    use crate::rules::RulesPreset;

    #[test]
    fn the_hall_is_shown_the_past_and_only_changes_are_kept() {
        let mut arb = Arbiter::new(ArbiterConfig::new(RulesPreset::built_in("uscf-bughouse")));
        let mut views = Views::new(arb.view());
        let mut t = 0;
        for mv in ["e4", "e5", "Nf3", "Nc6"] {
            t += 60_000;
            arb.handle(&Input::Td {
                t_ms: t,
                action: TdAction::AddMove {
                    board: BoardId::A,
                    mv: mv.into(),
                },
            });
            views.publish(arb.view());
            // Time passing with nothing for the hall to see keeps nothing new.
            arb.handle(&Input::Tick { t_ms: t + 1000 });
            views.publish(arb.view());
        }
        assert_eq!(views.kept(), 5, "the start and four moves");
        assert_eq!(views.latest().record.len(), 4);
        // At 4:10 with 2:10 of delay the hall sees 2:00, when the second move came.
        let shown = views.for_hall(250_000, 130_000);
        assert_eq!(shown.record.len(), 2);
        assert_eq!(views.for_hall(250_000, 131_000).record.len(), 1);
        assert_eq!(views.for_hall(250_000, 0).record.len(), 4);
        // Further back than anything kept: the oldest view.
        assert_eq!(views.for_hall(250_000, 900_000).record.len(), 0);
    }
}
