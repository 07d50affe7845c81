//! Tandem as the clock, for boards without a DGT3000: the four times kept to the
//! millisecond, presses from USB buttons (or keys) whose time is the input's own time,
//! flags falling at the exact moment through the arbiter's deadlines. A press goes the
//! same way as a lever press on a DGT clock: judged from the board's history, committed,
//! the same alerts. The core still reads no wall clock.

use shakmaty::{ByColor, Color};

use super::Arbiter;
use super::view::ClockView;
use crate::rules::{Seat, TimeControl};
use crate::{BoardId, Millis};

/// A board's two times, kept by Tandem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnClock {
    /// Remaining ms per colour as of `since` (before the running side's time counts on).
    left: ByColor<u64>,
    pub running: Option<Color>,
    /// When the running side started (or the time last counted).
    since: Millis,
    pub flagged: ByColor<bool>,
    /// Stopped by a pause (`running` is kept to restart it).
    pub stopped: bool,
    started: bool,
    increment_ms: u64,
    delay_ms: u64,
}

impl OwnClock {
    /// Both players at the preset's time (the increment included from the start, as a DGT
    /// clock shows it).
    #[must_use]
    pub fn new(tc: &TimeControl) -> OwnClock {
        let start = tc.base_ms + tc.increment_ms;
        OwnClock {
            left: ByColor::new_with(|_| start),
            running: None,
            since: 0,
            flagged: ByColor::default(),
            stopped: false,
            started: false,
            increment_ms: tc.increment_ms,
            delay_ms: tc.delay_ms,
        }
    }

    /// Time used so far this turn that counts (a simple delay's first seconds do not).
    fn counted(&self, now: Millis) -> u64 {
        now.saturating_sub(self.since).saturating_sub(self.delay_ms)
    }

    /// The time `c` has left at `now`.
    #[must_use]
    pub fn remaining(&self, c: Color, now: Millis) -> u64 {
        if self.running == Some(c) && !self.stopped {
            self.left[c].saturating_sub(self.counted(now))
        } else {
            self.left[c]
        }
    }

    /// Is the time counting?
    #[must_use]
    pub fn ticking(&self) -> bool {
        self.running.is_some() && !self.stopped
    }

    /// When the running side's flag falls, if nothing happens before.
    #[must_use]
    pub fn flag_due(&self) -> Option<Millis> {
        let c = self.running.filter(|_| !self.stopped)?;
        if self.flagged[c] {
            return None;
        }
        Some(self.since + self.delay_ms + self.left[c])
    }

    /// Counts the running side's time up to `now` (its turn goes on from there).
    fn settle(&mut self, now: Millis) {
        if let Some(c) = self.running.filter(|_| !self.stopped) {
            self.left[c] = self.remaining(c, now);
            // The delay was used up, or is not given again within the same turn.
            self.since = now.saturating_sub(self.delay_ms.min(now.saturating_sub(self.since)));
        }
    }

    /// White's time starts.
    pub fn start(&mut self, now: Millis) {
        self.started = true;
        self.stopped = false;
        self.running = Some(Color::White);
        self.since = now;
    }

    pub fn pause(&mut self, now: Millis) {
        self.settle(now);
        self.stopped = true;
    }

    pub fn resume(&mut self, now: Millis) {
        if self.stopped {
            self.stopped = false;
            // The delay is not given again after a pause.
            self.since = now.saturating_sub(self.delay_ms);
        }
    }

    /// Sets `c`'s time (a penalty minute, a correction by the TD).
    pub fn set(&mut self, c: Color, ms: u64, now: Millis) {
        self.settle(now);
        self.left[c] = ms;
        self.flagged[c] = false;
    }

    /// `by` pressed at `now`. Returns the presser's time left after the press (the
    /// increment added), or `None` when the press changes nothing (not that player's
    /// time running, play stopped, a flag down).
    pub fn press(&mut self, by: Color, now: Millis) -> Option<u64> {
        if self.stopped || self.flagged.iter().any(|f| *f) {
            return None;
        }
        if !self.started {
            // Black starts White's time, as on any clock.
            if by == Color::Black {
                self.start(now);
            }
            return None;
        }
        if self.running != Some(by) {
            return None;
        }
        let left = self.remaining(by, now) + self.increment_ms;
        self.left[by] = left;
        self.running = Some(!by);
        self.since = now;
        Some(left)
    }

    /// The flag of the running side falls at `now` (its deadline).
    pub fn fall(&mut self, now: Millis) -> Option<Color> {
        let c = self.running.filter(|_| !self.stopped)?;
        if self.flagged[c] || self.remaining(c, now) > 0 {
            return None;
        }
        self.left[c] = 0;
        self.flagged[c] = true;
        // The clock is blocked at zero.
        self.stopped = true;
        Some(c)
    }
}

/// How long after a button press the board is judged: the press is known to the
/// millisecond, so one scan (and the bytes' way) after it the board has reported what was
/// placed before it. A DGT lever reaches the PC 0.05–1 s late and is judged a scan after
/// that.
const BUTTON_WIRE_MS: u64 = 20;

impl Arbiter {
    /// A clock press from Tandem's buttons or keys: a press like a lever's, at the input's
    /// own time.
    pub(super) fn on_button_press(&mut self, seat: Seat) {
        let b = seat.board;
        if !self.game.board_ids().contains(&b) || !self.tandem_clock(b) || self.paused() {
            return;
        }
        let now = self.now;
        let Some(own) = &mut self.clocks.boards[b].own else {
            return;
        };
        let Some(left) = own.press(seat.color, now) else {
            return;
        };
        self.on_press(b, seat.color, Some(left), 0);
        let track = &mut self.tracks[b];
        let settle = track.timing.scan_ms + BUTTON_WIRE_MS;
        if let Some(p) = &mut track.presses.pending {
            p.decide_at = Some(now + settle);
            p.give_up_at = now + settle + track.timing.max_wait_ms;
        }
    }

    /// The next flag of Tandem's clocks, if any is running.
    pub(super) fn own_flag_due(&self) -> Option<Millis> {
        if self.paused() || self.game.is_over() {
            return None;
        }
        self.game
            .board_ids()
            .iter()
            .filter_map(|&b| self.clocks.boards[b].own.as_ref()?.flag_due())
            .min()
    }

    /// Flags of Tandem's clocks that are due fall, each told to the TD.
    pub(super) fn fire_own_flags(&mut self) {
        if self.paused() || self.game.is_over() {
            return;
        }
        let now = self.now;
        for &b in self.game.board_ids() {
            let fell = match &mut self.clocks.boards[b].own {
                Some(own) if own.flag_due().is_some_and(|d| d <= now) => own.fall(now),
                _ => None,
            };
            if let Some(color) = fell {
                self.report_flag(Seat::new(b, color));
            }
        }
    }

    /// The time `seat` surely has left, by Tandem's clock (exact).
    pub(super) fn own_time_left(&self, seat: Seat) -> Option<u64> {
        let own = self.clocks.boards[seat.board].own.as_ref()?;
        Some(own.remaining(seat.color, self.now))
    }

    /// Tandem's clock of a board as the screens show it.
    pub(super) fn own_clock_view(&self, b: BoardId) -> Option<ClockView> {
        let own = self.clocks.boards[b].own.as_ref()?;
        let now = self.now;
        Some(ClockView {
            present: true,
            white_ms: Some(own.remaining(Color::White, now)),
            black_ms: Some(own.remaining(Color::Black, now)),
            running: own.running.filter(|_| own.ticking()),
            at_ms: now,
            white_flag: own.flagged[Color::White],
            black_flag: own.flagged[Color::Black],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(base_s: u64, inc_s: u64, delay_s: u64) -> TimeControl {
        TimeControl {
            base_ms: base_s * 1000,
            increment_ms: inc_s * 1000,
            delay_ms: delay_s * 1000,
        }
    }

    #[test]
    fn presses_count_time_and_add_the_increment() {
        let mut c = OwnClock::new(&tc(60, 2, 0));
        assert_eq!(c.remaining(Color::White, 0), 62_000);
        // Black starts White's time.
        assert_eq!(c.press(Color::Black, 1000), None);
        assert_eq!(c.running, Some(Color::White));
        // White thinks 5.5 s.
        assert_eq!(c.press(Color::White, 6500), Some(62_000 - 5500 + 2000));
        // Out of turn: nothing.
        assert_eq!(c.press(Color::White, 7000), None);
        assert_eq!(c.remaining(Color::Black, 9500), 62_000 - 3000);
        assert_eq!(c.flag_due(), Some(6500 + 62_000));
    }

    #[test]
    fn a_simple_delay_is_not_counted_and_flags_fall_exactly() {
        let mut c = OwnClock::new(&tc(10, 0, 3));
        c.start(0);
        assert_eq!(c.remaining(Color::White, 2500), 10_000);
        assert_eq!(c.remaining(Color::White, 4000), 9000);
        assert_eq!(c.flag_due(), Some(13_000));
        assert_eq!(c.fall(12_999), None);
        assert_eq!(c.fall(13_000), Some(Color::White));
        assert_eq!(c.remaining(Color::White, 20_000), 0);
        assert_eq!(c.press(Color::White, 20_000), None);
    }

    #[test]
    fn a_pause_stops_the_time_and_the_delay_is_not_given_twice() {
        let mut c = OwnClock::new(&tc(10, 0, 2));
        c.start(0);
        c.pause(5000);
        assert_eq!(c.remaining(Color::White, 60_000), 7000);
        assert_eq!(c.flag_due(), None);
        c.resume(60_000);
        assert_eq!(c.remaining(Color::White, 61_000), 6000);
        c.set(Color::Black, 70_000, 61_000);
        assert_eq!(c.remaining(Color::Black, 61_000), 70_000);
        assert_eq!(c.remaining(Color::White, 62_000), 5000);
    }
}
