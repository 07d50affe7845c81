//! A bughouse table whose clocks Tandem drives (or keeps), in simulated time: two
//! simulated boards and a match runner wired as the live station is ([`SimStation`]): the
//! arbiter's clock commands go back through the boards' links, one at a time, acked.
#![allow(dead_code, clippy::unwrap_used)]

use shakmaty::Color;
use tandem::arbiter::view::MatchView;
use tandem::arbiter::{Alert, AlertKind, ArbiterConfig, ClockPlan, Input, Output, TdAction};
use tandem::buttons::{ButtonDevice, EventReader, InputEvent, KeyMap, PressMap, SeatName};
use tandem::rules::{RulesPreset, Seat};
use tandem::sim::emulator::{BoardEmulator, ClockConfig, EmulatorConfig, PhysicalAction};
use tandem::sim::table::SimTable;
use tandem::station::MatchRunner;
use tandem::station::simulated::SimStation;
use tandem::{BoardId, ByBoard, Millis};

use super::live::header;

pub struct Rig {
    pub table: SimTable,
    pub station: SimStation,
}

/// Board A's clock with White on the left, board B's (turned board) with White on the
/// right, as the demo's stand.
pub fn configs(rules: &RulesPreset, clocks: bool) -> [EmulatorConfig; 2] {
    let tc = rules.time_control;
    let clock = ClockConfig {
        base_ms: tc.base_ms,
        increment_ms: tc.increment_ms,
        delay_ms: tc.delay_ms,
        ..ClockConfig::default()
    };
    [
        EmulatorConfig {
            serial: "10001".into(),
            clock: clocks.then(|| clock.clone()),
            clock_late_chance: 0.0,
            ..EmulatorConfig::default()
        },
        EmulatorConfig {
            serial: "10002".into(),
            orientation: tandem::dgt::Orientation::Rotated,
            clock: clocks.then_some(ClockConfig {
                white_side: tandem::dgt::ClockSide::Right,
                ..clock
            }),
            clock_late_chance: 0.0,
            ..EmulatorConfig::default()
        },
    ]
}

impl Rig {
    /// Both boards set up, their clocks Tandem's to drive (or keep).
    pub fn new(rules: RulesPreset, plan: ClockPlan, configs: [EmulatorConfig; 2]) -> Rig {
        let mut config = ArbiterConfig::new(rules);
        config.clocks = ByBoard { a: plan, b: plan };
        Self::with_runner(MatchRunner::new(header(config, "clocks")), configs)
    }

    pub fn with_runner(runner: MatchRunner, configs: [EmulatorConfig; 2]) -> Rig {
        let mut table = SimTable::new(&configs, 3);
        for id in BoardId::BOTH {
            table.schedule(id, &[(0, PhysicalAction::SetUpStart)]);
        }
        Rig {
            table,
            station: SimStation::new(runner),
        }
    }

    pub fn run(&mut self, t: Millis) {
        self.station
            .run(&mut self.table, t, |_, _, _, _| {}, |_| {});
    }

    pub fn td(&mut self, t: Millis, action: TdAction) -> Vec<Output> {
        self.run(t);
        self.station
            .apply(&mut self.table, &Input::Td { t_ms: t, action })
    }

    pub fn input(&mut self, input: Input) -> Vec<Output> {
        self.run(input.t_ms());
        self.station.apply(&mut self.table, &input)
    }

    pub fn act(&mut self, b: BoardId, t: Millis, action: PhysicalAction) {
        self.run(t);
        self.table.schedule(b, &[(t, action)]);
    }

    pub fn emu(&self, b: BoardId) -> &BoardEmulator {
        self.table.board(b).unwrap().emulator()
    }

    pub fn view(&self) -> MatchView {
        self.station.runner.arbiter().view()
    }

    pub fn alerts(&self, kind: AlertKind) -> Vec<Alert> {
        self.station
            .runner
            .arbiter()
            .alerts()
            .all()
            .iter()
            .filter(|a| a.kind == kind)
            .cloned()
            .collect()
    }

    /// The clock of `b` now: (white ms, black ms, ticking), as the clock itself has it.
    pub fn clock(&self, b: BoardId) -> (u64, u64, bool) {
        let e = self.emu(b);
        let ticking = e.clock_times().is_some_and(|t| t.running.is_some());
        (
            e.clock_remaining_ms(Color::White).unwrap(),
            e.clock_remaining_ms(Color::Black).unwrap(),
            ticking,
        )
    }

    /// The times the set-and-run commands to `b`'s clock arrived.
    pub fn set_and_runs(&self, b: BoardId) -> Vec<(Millis, u8)> {
        self.emu(b)
            .clock_log()
            .iter()
            .filter_map(|(t, c)| match c {
                tandem::dgt::ClockCommand::SetAndRun { flags, .. } => Some((*t, *flags)),
                _ => None,
            })
            .collect()
    }
}

/// The buttons of the tests: one keyboard-like device, KEY_A, KEY_L, KEY_Q, KEY_P for
/// White A, Black A, White B, Black B.
pub fn button_device() -> ButtonDevice {
    let key = |k: &str, seat| KeyMap {
        key: k.into(),
        seat,
    };
    ButtonDevice {
        path: "/dev/input/by-id/test-kbd".into(),
        keys: vec![
            key("KEY_A", SeatName::WhiteA),
            key("KEY_L", SeatName::BlackA),
            key("KEY_Q", SeatName::WhiteB),
            key("KEY_P", SeatName::BlackB),
        ],
    }
}

pub fn key_of(seat: Seat) -> u16 {
    match (seat.board, seat.color) {
        (BoardId::A, Color::White) => 30,
        (BoardId::A, Color::Black) => 38,
        (BoardId::B, Color::White) => 16,
        (BoardId::B, Color::Black) => 25,
    }
}

/// Match time 0 on the devices' real-time clock (any moment will do).
pub const EPOCH_UNIX_MS: u64 = 1_790_000_000_000;

/// Presses through a pipe, as a device gives them: the exact `input_event` bytes in, the
/// production reader out, the presses as inputs at their own times.
pub struct ButtonPipe {
    writer: std::io::PipeWriter,
    reader: EventReader<std::io::PipeReader>,
    map: PressMap,
}

impl ButtonPipe {
    pub fn new() -> ButtonPipe {
        let (r, w) = std::io::pipe().unwrap();
        ButtonPipe {
            writer: w,
            reader: EventReader::new(r),
            map: PressMap::new(&button_device(), EPOCH_UNIX_MS),
        }
    }

    /// `seat` presses at match time `t` (held 80 ms): the bytes go into the pipe and the
    /// presses the reader makes of them come out.
    pub fn press(&mut self, seat: Seat, t: Millis) -> Vec<Input> {
        use std::io::Write;
        let bytes: Vec<u8> = InputEvent::press_sequence(key_of(seat), EPOCH_UNIX_MS + t, 80)
            .iter()
            .flat_map(InputEvent::to_bytes)
            .collect();
        self.writer.write_all(&bytes).unwrap();
        // 144 bytes: one read of the pipe gives them all.
        let mut inputs = Vec::new();
        let more = tandem::station::buttons::pump(&mut self.reader, &mut self.map, |p| {
            inputs.push(Input::Press {
                t_ms: p.t_ms,
                seat: p.seat,
            });
        })
        .unwrap();
        assert!(more, "the pipe is open");
        inputs
    }
}
