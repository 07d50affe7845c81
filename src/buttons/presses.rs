//! From input events to clock presses: a key going down on a mapped key is that seat's
//! press, at the event's own time (the kernel stamps it when the device reports it);
//! releases and auto-repeats are not presses, and a switch's contact bounce is one press.

use crate::Millis;
use crate::rules::Seat;

use super::event::InputEvent;
use super::file::{ButtonDevice, key_code};

/// A switch bouncing: a second press of the same key this soon is the same press.
pub const BOUNCE_MS: Millis = 60;

/// A clock press read from a device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ButtonPress {
    /// Match time of the press.
    pub t_ms: Millis,
    pub seat: Seat,
}

/// Turns one device's events into presses.
#[derive(Clone, Debug)]
pub struct PressMap {
    keys: Vec<(u16, Seat)>,
    /// The match's start, in ms since the Unix epoch (the events' clock).
    epoch_unix_ms: u64,
    last: Vec<(u16, u64)>,
}

impl PressMap {
    /// `epoch_unix_ms`: the moment match time 0 was, on the clock the device's events
    /// are stamped with (the kernel's real-time clock).
    #[must_use]
    pub fn new(device: &ButtonDevice, epoch_unix_ms: u64) -> PressMap {
        PressMap {
            keys: device
                .keys
                .iter()
                .filter_map(|k| Some((key_code(&k.key)?, k.seat.seat())))
                .collect(),
            epoch_unix_ms,
            last: Vec::new(),
        }
    }

    /// The press this event is, if any.
    pub fn press(&mut self, e: &InputEvent) -> Option<ButtonPress> {
        if !e.is_press() {
            return None;
        }
        let seat = self.keys.iter().find(|(c, _)| *c == e.code)?.1;
        let at = e.unix_ms();
        match self.last.iter_mut().find(|(c, _)| *c == e.code) {
            Some((_, t)) if at.saturating_sub(*t) < BOUNCE_MS && at >= *t => return None,
            Some((_, t)) => *t = at,
            None => self.last.push((e.code, at)),
        }
        Some(ButtonPress {
            t_ms: at.saturating_sub(self.epoch_unix_ms),
            seat,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buttons::event::{EV_KEY, InputEvent, KEY_REPEAT};
    use crate::buttons::file::{KeyMap, SeatName};

    #[test]
    fn presses_at_their_own_time_without_bounce_or_repeat() {
        let device = ButtonDevice {
            path: "/dev/input/event7".into(),
            keys: vec![
                KeyMap {
                    key: "KEY_A".into(),
                    seat: SeatName::WhiteA,
                },
                KeyMap {
                    key: "KEY_L".into(),
                    seat: SeatName::BlackA,
                },
            ],
        };
        let epoch = 1_700_000_000_000;
        let mut map = PressMap::new(&device, epoch);
        let mut got = Vec::new();
        let mut events = InputEvent::press_sequence(30, epoch + 5_250, 90);
        // Contact bounce 20 ms later, an auto-repeat, an unmapped key, then Black.
        events.extend(InputEvent::press_sequence(30, epoch + 5_270, 10));
        events.push(InputEvent {
            sec: (epoch + 5_600) as i64 / 1000,
            usec: 600_000,
            kind: EV_KEY,
            code: 30,
            value: KEY_REPEAT,
        });
        events.extend(InputEvent::press_sequence(31, epoch + 6_000, 50));
        events.extend(InputEvent::press_sequence(38, epoch + 7_001, 50));
        for e in &events {
            got.extend(map.press(e));
        }
        let seat = |s: SeatName| s.seat();
        assert_eq!(
            got,
            vec![
                ButtonPress {
                    t_ms: 5_250,
                    seat: seat(SeatName::WhiteA)
                },
                ButtonPress {
                    t_ms: 7_001,
                    seat: seat(SeatName::BlackA)
                },
            ]
        );
    }
}
