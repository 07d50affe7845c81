//! What the boards report: the link coming and going, the squares (dumps and field
//! updates), the clock's messages and the presses read from them, and reconciling the
//! record with a board that comes back after a loss.

use shakmaty::{Color, Square};

use super::track::{ClockReading, PendingPress, SensedBoard};
use super::{AlertKind, Arbiter, BoardEvent, BoardEventKind, Subject, color_name};
use crate::BoardId;
use crate::dgt::{ClockSide, ClockTimes, Message};
use crate::rules::Seat;
use crate::sensing::judge_stable;

impl Arbiter {
    pub(super) fn on_device(&mut self, ev: &BoardEvent) {
        let b = ev.board;
        if !self.game.board_ids().contains(&b) {
            return;
        }
        match &ev.kind {
            BoardEventKind::Connected {
                port,
                serial,
                version,
            } => self.on_connected(b, port, serial.as_ref(), *version),
            BoardEventKind::Disconnected { reason } => self.on_disconnected(b, reason),
            BoardEventKind::Message(msg) => self.on_message(b, msg),
            BoardEventKind::ClockCommand { id, outcome } => self.clock_outcome(b, *id, outcome),
        }
    }

    fn on_connected(
        &mut self,
        b: BoardId,
        port: &str,
        serial: Option<&String>,
        version: Option<(u8, u8)>,
    ) {
        let track = &mut self.tracks[b];
        let was_lost = track.link.lost_because.is_some();
        track.link.connected = true;
        track.link.port = Some(port.to_owned());
        track.link.serial = serial.cloned();
        track.link.version = version;
        track.link.lost_because = None;
        track.sensed.reconcile_next_dump = track.sensed.started;
        // Presses made while the board was away are not replayed: the fresh dump shows
        // their moves; the next clock message only tells who runs now.
        track.clock.running = None;
        if was_lost {
            self.clear(b, AlertKind::Disconnected, None);
        }
        self.clocks_connected(b);
    }

    fn on_disconnected(&mut self, b: BoardId, reason: &str) {
        let track = &mut self.tracks[b];
        let was_connected = track.link.connected || track.link.lost_because.is_none();
        track.link.connected = false;
        track.link.lost_because = Some(reason.to_owned());
        if was_connected {
            track.link.losses += 1;
            self.raise(
                b,
                AlertKind::Disconnected,
                None,
                format!("board {b} lost: {reason}"),
                Subject::None,
            );
        }
    }

    fn on_message(&mut self, b: BoardId, msg: &Message) {
        match msg {
            Message::BoardDump(fields) => {
                let track = &mut self.tracks[b];
                track.sensed.raw = *fields;
                track.sensed.have_raw = true;
                self.on_raw_changed(b, true);
            }
            Message::FieldUpdate { field, code } => {
                let track = &mut self.tracks[b];
                if *field > 63 {
                    return;
                }
                track.sensed.raw.set(*field, *code);
                self.on_raw_changed(b, false);
            }
            // Where Tandem is the clock, a DGT clock beside the board does not count.
            Message::Clock(times) if !self.tandem_clock(b) => self.on_clock(b, times),
            Message::ClockAck(ack) => {
                if let Some(button) = ack.button() {
                    self.clock_button(b, button);
                }
            }
            _ => {}
        }
    }

    /// The board's squares changed (a dump or one field): before the start position has
    /// been seen, look for it; after, a new snapshot, then the press waiting for one and
    /// the monitor.
    fn on_raw_changed(&mut self, b: BoardId, is_dump: bool) {
        let now = self.now;
        let track = &mut self.tracks[b];
        let sensed = &mut track.sensed;
        if !sensed.started {
            if sensed.try_start()
                && let Some(o) = sensed.orientation
            {
                sensed.cells = SensedBoard::cells_from_raw(&sensed.raw, o);
                sensed.history.clear();
                sensed.push_snapshot(now);
            }
            return;
        }
        let Some(o) = sensed.orientation else {
            return;
        };
        let cells = SensedBoard::cells_from_raw(&sensed.raw, o);
        if cells == sensed.cells && !(is_dump && sensed.reconcile_next_dump) {
            return;
        }
        for sq in Square::ALL {
            if cells.get(sq) != sensed.cells.get(sq) {
                sensed.changed_at[sq.to_usize()] = now;
            }
        }
        sensed.cells = cells;
        sensed.push_snapshot(now);
        track.presses.stable_judged = None;
        if is_dump && track.sensed.reconcile_next_dump {
            track.sensed.reconcile_next_dump = false;
            self.reconcile_after_reconnect(b);
        }
        if self.tracks[b]
            .presses
            .pending
            .as_ref()
            .is_some_and(|p| p.decide_at.is_none())
        {
            self.decide_press(b, false);
        }
        self.monitor(b);
    }

    fn on_clock(&mut self, b: BoardId, times: &ClockTimes) {
        let now = self.now;
        let track = &mut self.tracks[b];
        if times.no_clock {
            track.clock.present = false;
            track.clock.reading = Some(ClockReading {
                at: now,
                times: *times,
            });
            self.clocks_reading(b, times);
            return;
        }
        track.clock.present = true;
        let previous = track.clock.running;
        let previous_times = track.clock.reading.map(|r| r.times);
        track.clock.reading = Some(ClockReading {
            at: now,
            times: *times,
        });
        track.clock.running = times.running;
        if track.clock.white_side.is_none()
            && let Some(side) = times.running
        {
            // The first side to run is White's (bughouse: Black starts White's clock).
            track.clock.white_side = Some(side);
        }
        // A setting Tandem made is no press, and while play is stopped nothing is judged.
        let set_by_tandem = self.clocks().boards[b].check.is_some();
        if !self.clocks_reading(b, times) {
            return;
        }
        self.check_flags(b, times);
        match (previous, times.running) {
            (Some(a), Some(c)) if a != c => {
                if let Some(by) = self.tracks[b].clock.color_of(a) {
                    let clock_ms = Some(u64::from(times.side(a).seconds) * 1000);
                    self.on_press(b, by, clock_ms, 0);
                    self.after_driven_press(b, by, times);
                }
            }
            (Some(a), Some(c)) if a == c && !set_by_tandem => {
                // The same side runs as at the last poll, yet the other side's time changed:
                // it ran in between, so both players pressed between two polls. The last
                // press was by the other side.
                let other = a.other();
                let changed = previous_times
                    .is_some_and(|p| p.side(other).seconds != times.side(other).seconds);
                if changed && let Some(by) = self.tracks[b].clock.color_of(other) {
                    let clock_ms = Some(u64::from(times.side(other).seconds) * 1000);
                    self.on_press(b, by, clock_ms, 1);
                    self.after_driven_press(b, by, times);
                }
            }
            _ => {}
        }
    }

    fn check_flags(&mut self, b: BoardId, times: &ClockTimes) {
        if self.game.is_over() || !self.tracks[b].sensed.started {
            return;
        }
        for side in [ClockSide::Left, ClockSide::Right] {
            let reading = times.side(side);
            let fallen = reading.flag() || (reading.seconds == 0 && times.running == Some(side));
            if !fallen {
                continue;
            }
            if let Some(color) = self.tracks[b].clock.color_of(side) {
                self.report_flag(Seat::new(b, color));
            }
        }
    }

    /// A flag fell (on a DGT clock or Tandem's own): the TD is told once per player.
    pub(super) fn report_flag(&mut self, seat: Seat) {
        let (b, color) = (seat.board, seat.color);
        if self.tracks[b].clock.flag_reported[color] {
            return;
        }
        self.tracks[b].clock.flag_reported[color] = true;
        self.raise(
            b,
            AlertKind::Flag,
            None,
            format!(
                "{} ({}) flag fell on board {b}",
                self.player(seat),
                color_name(color)
            ),
            Subject::Seat(seat),
        );
    }

    pub(super) fn on_press(&mut self, b: BoardId, by: Color, clock_ms: Option<u64>, missed: u8) {
        let now = self.now;
        // A press still being judged when the next comes is decided now with what is
        // known, unless it waits for the reply to show (below).
        let awaits_reply = |a: &Self| {
            a.tracks[b]
                .presses
                .pending
                .as_ref()
                .is_some_and(|p| p.awaits_reply)
        };
        if let Some(p) = &mut self.tracks[b].presses.pending
            && p.by != by
        {
            p.answered = Some(now);
        }
        if self.tracks[b].presses.pending.is_some() && !awaits_reply(self) {
            self.decide_press(b, false);
        }
        // Still unclear which of several moves it was, and now the other player presses:
        // the dropper's next move may tell (a drop captured before the board showed it,
        // whose kind nobody saw). Read with that press. So too a move no reading explains
        // after the other player's press that showed nothing: that press's drop, taken by
        // this move before the scan saw it, shows only with the dropper's next move.
        let presses = &mut self.tracks[b].presses;
        let unseen_before = presses.unexplained.is_some_and(|u| u.by == by);
        if presses.queued.is_none()
            && presses.carried.is_none()
            && presses
                .pending
                .as_ref()
                .is_some_and(|p| p.by != by && (p.ambiguous || (p.moved_unread && unseen_before)))
        {
            presses.carried = presses.pending.take();
        }
        if self.tracks[b].presses.queued.is_some()
            || (self.tracks[b].presses.pending.is_some() && !awaits_reply(self))
        {
            self.decide_press(b, true);
            self.promote_queued_press(b);
        }
        let track = &mut self.tracks[b];
        if !track.sensed.started {
            return;
        }
        // A move committed a moment ago on stability, confirmed by its press.
        if let Some(stable) = track.presses.last_stable_commit.take()
            && stable.mover == by
            && now.saturating_sub(stable.t_ms) <= track.timing.max_wait_ms
        {
            return;
        }
        let press = PendingPress {
            by,
            t_msg: now,
            clock_ms,
            decide_at: Some(now + track.timing.settle_ms),
            give_up_at: now + track.timing.settle_ms + track.timing.max_wait_ms,
            missed,
            awaits_reply: false,
            ambiguous: false,
            moved_unread: false,
            answered: None,
        };
        match &mut track.presses.pending {
            // The earlier press waits for the reply to show which reading it is (a piece
            // gone that the reply may be taking), and this press says the reply is made:
            // its board is shown a settle later, when the earlier press is decided for
            // good, and then this one.
            Some(earlier) => {
                earlier.give_up_at = earlier.give_up_at.min(now + track.timing.settle_ms);
                // The other colour's press answers it, as above; but the press judged now
                // may have come out of the queue after that mark went to the one before.
                if earlier.by != by {
                    earlier.answered.get_or_insert(now);
                }
                track.presses.queued = Some(press);
            }
            None => track.presses.pending = Some(press),
        }
    }

    /// After a reconnection: the fresh dump against the record. One or two plies made
    /// while the board was away are taken as moves; anything else is a desync.
    fn reconcile_after_reconnect(&mut self, b: BoardId) {
        let cells = self.tracks[b].sensed.cells;
        let expect = self.committed(b).expect();
        let diff = expect.differences(&cells);
        if diff.is_empty() {
            self.clear(b, AlertKind::Desync, None);
            return;
        }
        if let Some(candidate) = judge_stable(&self.committed(b), &cells) {
            let now = self.now;
            self.commit(b, &candidate, &cells, now, &[], false);
            return;
        }
        let squares: Vec<String> = diff.into_iter().map(|s| s.to_string()).collect();
        self.raise(
            b,
            AlertKind::Desync,
            None,
            format!(
                "board {b} back, but it differs from the record on {}",
                squares.join(" ")
            ),
            Subject::None,
        );
    }
}
