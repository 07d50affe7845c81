//! A driven DGT3000 and Tandem's own clock, from the clock's side: commands carried
//! out or deferred to the next reading, readings checked against what was set, the
//! outcomes of commands, the clock's own buttons, presses on a driven clock (the
//! increment), and the USB buttons' news.

use super::*;

impl Arbiter {
    /// Carries out (or defers to the next reading) a start, pause or restart of a driven
    /// clock.
    pub(super) fn drive(&mut self, b: BoardId, what: Deferred) {
        let c = &self.clocks.boards[b];
        if let Control::ReadOnly { why } = &c.control {
            let text = format!(
                "board {b}'s clock is read only ({why}): {} it by hand",
                match what {
                    Deferred::Pause => "stop",
                    Deferred::Start => "start",
                    Deferred::Resume => "restart",
                }
            );
            self.clock_alert(b, text);
            return;
        }
        if c.control == Control::Unread || self.times_now(b).is_none() {
            self.clocks.boards[b].deferred = Some(what);
            return;
        }
        self.clocks.boards[b].deferred = None;
        let Some((left_ms, right_ms, running, lever_high)) = self.times_now(b) else {
            return;
        };
        match what {
            Deferred::Pause => {
                self.set_and_run(
                    b,
                    Setting {
                        left_ms,
                        right_ms,
                        running: None,
                    },
                    Purpose::Pause,
                );
                self.order(b, ClockCommand::ascii("PAUSED"), Purpose::Text, None);
            }
            Deferred::Start => {
                // The side whose lever is up runs: White's, as the players set the clock.
                let side = self.tracks[b].clock.white_side.unwrap_or(lever_high);
                self.clocks.boards[b].turn_began = Some(self.now);
                self.set_and_run(
                    b,
                    Setting {
                        left_ms,
                        right_ms,
                        running: Some(side),
                    },
                    Purpose::Start,
                );
            }
            Deferred::Resume => {
                let side = self.clocks.boards[b]
                    .ran_before_pause
                    .or(running)
                    .or_else(|| self.clocks.started.then_some(lever_high));
                self.set_and_run(
                    b,
                    Setting {
                        left_ms,
                        right_ms,
                        running: side,
                    },
                    Purpose::Resume,
                );
            }
        }
    }

    // ---- what the boards report --------------------------------------------------------

    /// A board (re)connected: commands on their way are lost with the old link, and the
    /// clock is read before anything is written to it.
    pub(in crate::arbiter) fn clocks_connected(&mut self, b: BoardId) {
        let c = &mut self.clocks.boards[b];
        c.orders.clear();
        c.check = None;
        if c.plan == ClockPlan::Drive && !matches!(c.control, Control::ReadOnly { .. }) {
            c.control = Control::Unread;
        }
    }

    /// A clock reading. Returns whether presses and flags may be judged from it (not while
    /// play is stopped).
    pub(in crate::arbiter) fn clocks_reading(&mut self, b: BoardId, times: &ClockTimes) -> bool {
        if self.clocks.boards[b].plan == ClockPlan::Drive {
            self.check_setting(b, times);
            self.first_reading(b, times);
            if let Some(what) = self.clocks.boards[b].deferred
                && self.clocks.boards[b].driven()
                && self.clocks.boards[b].orders.is_empty()
            {
                self.drive(b, what);
            }
            if self.paused() && times.running.is_none() {
                self.clocks.boards[b].seen_stopped = true;
            }
            if self.paused()
                && times.running.is_some()
                && self.clocks.boards[b].seen_stopped
                && self.clocks.boards[b].driven()
                && self.clocks.boards[b].orders.is_empty()
                && self.clocks.boards[b].deferred.is_none()
            {
                self.clocks.boards[b].seen_stopped = false;
                // Restarted during the pause (its own button): both stop, so it stops again.
                self.clock_note(
                    b,
                    format!("board {b}'s clock ran during the pause: stopped again"),
                    false,
                );
                self.drive(b, Deferred::Pause);
            }
        }
        !self.paused()
    }

    /// The first reading of a driven clock since its board connected.
    pub(super) fn first_reading(&mut self, b: BoardId, times: &ClockTimes) {
        if self.clocks.boards[b].control != Control::Unread {
            return;
        }
        if times.no_clock {
            self.clocks.boards[b].control = Control::ReadOnly {
                why: "no clock plugged into the board".into(),
            };
            self.clock_note(
                b,
                format!("no clock on board {b}: moves are taken when the board stands still"),
                false,
            );
            return;
        }
        self.clocks.boards[b].control = Control::Ready;
        if self.clocks.boards[b].set_up {
            // Back after a reconnect: its times are the clock's own; only a clock running
            // while play is stopped is stopped again (with its own times).
            let running = times.running.is_some();
            if self.paused() && running {
                self.clocks.boards[b]
                    .deferred
                    .get_or_insert(Deferred::Pause);
            } else if !self.paused()
                && self.clocks.started
                && !running
                && self.clocks.boards[b].deferred.is_none()
            {
                self.clock_alert(
                    b,
                    format!("board {b}'s clock came back stopped while play goes on: restart it with Pause/Resume, or by hand"),
                );
            } else {
                self.clock_note(
                    b,
                    format!("board {b}'s clock read again after the reconnect"),
                    true,
                );
            }
            return;
        }
        self.clocks.boards[b].set_up = true;
        // A new match sets its clocks up (the TD chose driven clocks for it); once play
        // has begun, times the players set are never overwritten without the TD.
        if self.game.plies_on(b) > 0 || self.clocks.started {
            self.clock_note(
                b,
                format!(
                    "board {b}'s clock already runs: Tandem reads it; Pause/Resume take it over"
                ),
                true,
            );
            return;
        }
        let tc = self.game.rules().time_control;
        let start = tc.base_ms + tc.increment_ms;
        self.set_and_run(
            b,
            Setting {
                left_ms: start,
                right_ms: start,
                running: None,
            },
            Purpose::SetUp,
        );
        self.order(b, ClockCommand::ascii("READY"), Purpose::Text, None);
    }

    /// Is the clock's reading what the last acknowledged setting asked for?
    pub(super) fn check_setting(&mut self, b: BoardId, times: &ClockTimes) {
        let Some(check) = self.clocks.boards[b].check else {
            return;
        };
        if times.no_clock {
            return;
        }
        self.clocks.boards[b].check = None;
        let elapsed = self.now.saturating_sub(check.acked) + CHECK_SLACK_MS;
        let s = check.setting;
        let side_ok = |side: ClockSide, want: u64| {
            let shown = u64::from(times.side(side).seconds) * 1000;
            let may_run = s.running.is_some();
            let low = want.saturating_sub(CHECK_SLACK_MS + if may_run { elapsed } else { 0 });
            shown >= low && shown <= want + CHECK_SLACK_MS
        };
        let run_ok = s.running.is_some() == times.running.is_some();
        if side_ok(ClockSide::Left, s.left_ms) && side_ok(ClockSide::Right, s.right_ms) && run_ok {
            let text = format!("board {b}'s clock took {}: checked", check.purpose.words());
            self.clock_note(b, text, true);
            return;
        }
        let text = format!(
            "board {b}'s clock did not take {}: it shows {} (left) and {} (right){}, Tandem set {} and {}{}; set it by hand",
            check.purpose.words(),
            times.left.hms(),
            times.right.hms(),
            if times.running.is_some() {
                ", running"
            } else {
                ", stopped"
            },
            mss(s.left_ms),
            mss(s.right_ms),
            if s.running.is_some() {
                ", running"
            } else {
                ", stopped"
            },
        );
        self.clock_alert(b, text);
    }

    /// What became of a clock command.
    pub(in crate::arbiter) fn clock_outcome(
        &mut self,
        b: BoardId,
        id: u64,
        outcome: &ClockOutcome,
    ) {
        let Some(i) = self.clocks.boards[b].orders.iter().position(|o| o.id == id) else {
            return; // an order of an earlier link, or already given up
        };
        if *outcome == ClockOutcome::Sent {
            return;
        }
        let order = self.clocks.boards[b].orders.remove(i);
        match outcome {
            ClockOutcome::Sent => {}
            ClockOutcome::Done => {
                if let Some(setting) = order.sets {
                    self.clocks.boards[b].check = Some(Check {
                        setting,
                        purpose: order.purpose,
                        acked: self.now,
                    });
                }
                if let Some(what) = self.clocks.boards[b].deferred
                    && self.clocks.boards[b].orders.is_empty()
                {
                    self.drive(b, what);
                }
            }
            ClockOutcome::Refused { reason } | ClockOutcome::Unanswered { reason } => {
                self.clock_refused(b, order.purpose, reason);
            }
        }
    }

    /// A clock did not carry out a command: the TD is told what to do by hand.
    pub(super) fn clock_refused(&mut self, b: BoardId, purpose: Purpose, reason: &str) {
        match purpose {
            Purpose::Text => {}
            Purpose::SetUp => {
                self.clocks.boards[b].control = Control::ReadOnly {
                    why: reason.to_owned(),
                };
                self.clocks.boards[b].orders.clear();
                let tc = self.game.rules().time_control;
                self.clock_alert(
                    b,
                    format!(
                        "board {b}'s clock does not take Tandem's commands ({reason}): Tandem only reads it; set it to {} by hand and start it with the other board",
                        tc.bpgn()
                    ),
                );
            }
            Purpose::Start | Purpose::Pause | Purpose::Resume => {
                let how = match purpose {
                    Purpose::Start => "start",
                    Purpose::Pause => "stop",
                    _ => "restart",
                };
                self.clock_alert(
                    b,
                    format!(
                        "board {b}'s clock refused {} ({reason}): {how} it by hand",
                        purpose.words()
                    ),
                );
            }
            Purpose::SetTime { seat, ms } | Purpose::Increment { seat, ms } => {
                let text = format!(
                    "board {b}'s clock refused {} ({reason}): set {}'s clock to {} by hand",
                    purpose.words(),
                    self.player(seat),
                    mss(ms)
                );
                self.clock_alert(b, text);
            }
        }
    }

    /// A clock's own button (an auto-ack): the play/pause button stops both clocks.
    pub(in crate::arbiter) fn clock_button(&mut self, b: BoardId, button: ClockButton) {
        if button != ClockButton::Run || self.game.is_over() {
            return;
        }
        if self.paused() && self.config.clock_button_resumes {
            if self.resume_clocks().is_ok() {
                let names = self.player_names(b);
                self.clock_note(
                    b,
                    format!(
                        "play restarted with the play/pause button of board {b}'s clock ({names})"
                    ),
                    true,
                );
            }
            return;
        }
        if self.paused() {
            self.clock_note(
                b,
                format!(
                    "play/pause pressed on board {b}'s clock during the pause: the TD restarts play"
                ),
                false,
            );
            return;
        }
        if self.pause_clocks(PausedBy::ClockButton(b)).is_ok() {
            let names = self.player_names(b);
            let restart = if self.config.clock_button_resumes {
                "the play/pause button again"
            } else {
                "Resume"
            };
            self.raise(
                b,
                AlertKind::Clock,
                None,
                format!("play stopped with the play/pause button of board {b}'s clock ({names}): both clocks stopped; restart with {restart}"),
                Subject::None,
            );
        }
    }

    /// A press judged from a driven clock: in mode 23 the clock adds no increment of its
    /// own (nor knows a delay), so Tandem adds it for the player who pressed.
    pub(in crate::arbiter) fn after_driven_press(
        &mut self,
        b: BoardId,
        by: Color,
        times: &ClockTimes,
    ) {
        let tc = self.game.rules().time_control;
        let now = self.now;
        let began = self.clocks.boards[b].turn_began.replace(now);
        if !self.clocks.boards[b].driven() || (tc.increment_ms == 0 && tc.delay_ms == 0) {
            return;
        }
        let Some(side) = self.tracks[b].clock.side_of(by) else {
            return;
        };
        let used = began.map_or(0, |t| now.saturating_sub(t));
        let bonus = tc.increment_ms + tc.delay_ms.min(used);
        let shown = |s: ClockSide| u64::from(times.side(s).seconds) * 1000;
        let mine = shown(side) + bonus;
        let (left_ms, right_ms) = match side {
            ClockSide::Left => (mine, shown(ClockSide::Right)),
            ClockSide::Right => (shown(ClockSide::Left), mine),
        };
        self.set_and_run(
            b,
            Setting {
                left_ms,
                right_ms,
                running: times.running,
            },
            Purpose::Increment {
                seat: Seat::new(b, by),
                ms: mine,
            },
        );
    }

    /// The USB buttons' device came or went.
    pub(in crate::arbiter) fn buttons_report(&mut self, connected: bool, detail: &str) {
        let was = self.clocks.buttons.as_ref().map(|l| l.connected);
        self.clocks.buttons = Some(ButtonsLink {
            connected,
            detail: detail.to_owned(),
        });
        let boards: Vec<BoardId> = self
            .game
            .board_ids()
            .iter()
            .copied()
            .filter(|&b| self.tandem_clock(b))
            .collect();
        let Some(&first) = boards.first() else {
            return;
        };
        if !connected && was != Some(false) {
            self.raise(
                first,
                AlertKind::Clock,
                None,
                format!("the clock buttons are gone ({detail}): presses are not seen until they are back (keys in the window still work)"),
                Subject::None,
            );
        }
        if connected && was == Some(false) {
            for b in boards {
                self.clear(b, AlertKind::Clock, None);
            }
        }
    }

    /// Per seat, the time Tandem's clock keeps, where Tandem is the clock.
    #[must_use]
    pub fn own_times(&self, b: BoardId) -> Option<ByColor<u64>> {
        let own = self.clocks.boards[b].own.as_ref()?;
        Some(ByColor::new_with(|c| own.remaining(c, self.now)))
    }
}
