//! The views a running match publishes: the latest one for the TD's console, and the last
//! minutes of them for the projector's broadcast delay.

use std::collections::VecDeque;
use std::sync::Arc;

use crate::Millis;
use crate::arbiter::view::MatchView;

/// How long the projector may run behind live, at most (views kept for the delay).
pub const MAX_BROADCAST_DELAY_MS: Millis = 15 * 60_000;

/// Views kept at most, whatever the delay.
const MAX_KEPT: usize = 20_000;

/// Views of one match: the latest, and enough history for the broadcast delay.
#[derive(Clone, Debug)]
pub struct Views {
    latest: Arc<MatchView>,
    /// Oldest first; none older than the longest delay.
    history: VecDeque<Arc<MatchView>>,
}

impl Views {
    #[must_use]
    pub fn new(first: MatchView) -> Views {
        let latest = Arc::new(first);
        Views {
            history: VecDeque::from([latest.clone()]),
            latest,
        }
    }

    /// A new view of the match.
    pub fn publish(&mut self, view: MatchView) {
        let view = Arc::new(view);
        let cutoff = view.t_ms.saturating_sub(MAX_BROADCAST_DELAY_MS);
        self.history.push_back(view.clone());
        // Keep one view older than the cutoff: it is what the delay shows until a newer
        // one is old enough.
        while self.history.len() > MAX_KEPT
            || (self.history.len() > 1 && self.history.get(1).is_some_and(|v| v.t_ms <= cutoff))
        {
            self.history.pop_front();
        }
        self.latest = view;
    }

    #[must_use]
    pub fn latest(&self) -> Arc<MatchView> {
        self.latest.clone()
    }

    /// The latest view at least `delay_ms` older than match time `now`.
    #[must_use]
    pub fn delayed(&self, now: Millis, delay_ms: Millis) -> Arc<MatchView> {
        if delay_ms == 0 {
            return self.latest();
        }
        let cutoff = now.saturating_sub(delay_ms);
        self.history
            .iter()
            .rev()
            .find(|v| v.t_ms <= cutoff)
            .or_else(|| self.history.front())
            .cloned()
            .unwrap_or_else(|| self.latest())
    }

    /// How many views are kept (for the memory measurements).
    #[must_use]
    pub fn kept(&self) -> usize {
        self.history.len()
    }
}
