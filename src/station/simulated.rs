//! Matches on simulated boards in simulated time: the demo's hands at a simulated table
//! (the production link code behind each board), every board event and TD decision run
//! through a [`MatchRunner`] with its folder, exactly as a live match is. Hours of play
//! take seconds, and leave the same match folder a live match leaves: journal, capture,
//! `boards.ron`, alert log, `match.bpgn`, `closed`.
//!
//! Used by `tandem event simulate`, the memory measurement of a station over an evening,
//! and the tests.

use std::path::Path;

use anyhow::Context as _;

use super::folder::MatchFolder;
use super::runner::{LiveFiles, MatchRunner, TAIL_MS};
use crate::arbiter::ClockPlan;
use crate::arbiter::journal::JournalHeader;
use crate::arbiter::{Input, Output, TdAction};
use crate::device::profile::{PortSpec, Station, StationBoard};
use crate::rules::{MatchResult, TimeControl};
use crate::sim::emulator::{ClockConfig, EmulatorConfig};
use crate::sim::performer::Style;
use crate::sim::table::{Chooser, Rehearsal, SimTable};
use crate::sim::td::truthful_answers;
use crate::{BoardId, ByBoard, Millis};

/// How a simulated match is played.
#[derive(Clone, Debug)]
pub struct SimulatedPlay {
    /// Seed of the hands and of the boards' noise.
    pub seed: u64,
    /// The hands stop the game after this many plies a board (unless it ends sooner).
    pub game_plies: usize,
    /// How the hands play (the demo's pace by default).
    pub style: Style,
    /// The boards' DGT serial numbers, A and B (as `boards.ron` names them).
    pub serials: [String; 2],
}

impl SimulatedPlay {
    /// The demo's hands: a little slower than real blitz, so that spectators can follow.
    #[must_use]
    pub fn demo(seed: u64, game_plies: usize) -> SimulatedPlay {
        let mut style = Style::blitz();
        style.think_ms = (700, 3500);
        SimulatedPlay {
            seed,
            game_plies,
            style,
            serials: ["10001".to_owned(), "10002".to_owned()],
        }
    }
}

/// Plays one match under `header` on two simulated boards (board B turned, with its clock
/// on the right, as the demo's are). With `dir`, the match's folder is made there and
/// closed at the end. A TD stands at the table: promotion questions are answered as the
/// players announce them, and a game the hands stop gets a result (the truth's, or by
/// material as the demo adjudicates). `each` sees the runner after every input.
pub fn play_match(
    header: JournalHeader,
    dir: Option<&Path>,
    play: &SimulatedPlay,
    mut each: impl FnMut(&MatchRunner, &Input, &[Output]),
) -> anyhow::Result<MatchRunner> {
    let rules = header.config.rules.clone();
    let plans = header.config.clocks;
    let configs = table_configs(rules.time_control, plans, &play.serials);
    let mut runner = MatchRunner::new(header.clone());
    let mut capture = match dir {
        Some(dir) => {
            let (folder, writers) = MatchFolder::create(dir, &header, Some(&station(&configs)))?;
            runner.attach(LiveFiles {
                folder,
                journal: writers.journal,
                alerts: writers.alerts,
            });
            Some(writers.capture)
        }
        None => None,
    };
    // Clocks Tandem starts are set up first (a command and its ack each); the TD then
    // starts them, and the hands wait for that.
    let tandem_starts = BoardId::BOTH.iter().any(|&b| plans[b] != ClockPlan::Read);
    let clock_start = if tandem_starts { 5000 } else { 1500 };
    let n = if rules.is_bughouse() { 2 } else { 1 };
    let table = SimTable::new(&configs[..n], play.seed);
    let mut rehearsal = Rehearsal::at(
        table,
        rules,
        &play.style,
        Chooser::Natural,
        play.seed,
        clock_start,
    );
    rehearsal.set_max_plies(play.game_plies);
    let mut station = SimStation::new(runner);
    let mut last: Millis = 0;
    let mut write_error: Option<anyhow::Error> = None;
    let mut start_pending = tandem_starts;
    let mut presses_seen = 0;
    while let Some(t) = rehearsal.next_time() {
        let truth = &rehearsal.truth;
        let table = &mut rehearsal.table;
        let mut answer =
            |station: &mut SimStation, table: &mut SimTable, input: &Input, out: &[Output]| {
                if let Input::Board(ev) = input {
                    last = last.max(ev.t_ms);
                }
                each(&station.runner, input, out);
                answer_as_td(station, table, truth, input.t_ms(), out, &mut each);
            };
        let mut record = |c: &crate::device::capture::CaptureChunk| {
            if let Some(capture) = capture.as_mut()
                && let Err(e) = capture.write_chunk(c.t_ms, c.board, &c.bytes)
            {
                write_error.get_or_insert(anyhow::Error::new(e).context("writing the capture"));
            }
        };
        if start_pending && clock_start <= t {
            start_pending = false;
            station.run(table, clock_start, &mut answer, &mut record);
            let input = Input::Td {
                t_ms: clock_start,
                action: TdAction::StartClocks,
            };
            let out = station.apply(table, &input);
            answer(&mut station, table, &input, &out);
        }
        station.run(table, t, &mut answer, &mut record);
        rehearsal.advance();
        // A press on Tandem's own clock is the button's, at its own time.
        while let Some(&(b, _, at)) = rehearsal.log.get(presses_seen) {
            presses_seen += 1;
            if plans[b] == ClockPlan::Tandem {
                let seat = crate::rules::Seat::new(b, !rehearsal.truth.board(b).turn());
                let input = Input::Press { t_ms: at, seat };
                let out = station.apply(&mut rehearsal.table, &input);
                each(&station.runner, &input, &out);
            }
        }
    }
    if let Some(e) = write_error.take() {
        return Err(e);
    }
    // The last reports (a press still travelling) arrive after the game; then time
    // passes: presses still being judged are decided.
    let tail_end = rehearsal.now() + 5000;
    {
        let truth = &rehearsal.truth;
        let mut answer =
            |station: &mut SimStation, table: &mut SimTable, input: &Input, out: &[Output]| {
                if let Input::Board(ev) = input {
                    last = last.max(ev.t_ms);
                }
                each(&station.runner, input, out);
                answer_as_td(station, table, truth, input.t_ms(), out, &mut each);
            };
        station.run(&mut rehearsal.table, tail_end, &mut answer, |c| {
            if let Some(capture) = capture.as_mut() {
                let _ = capture.write_chunk(c.t_ms, c.board, &c.bytes);
            }
        });
    }
    let end = last.max(station.now) + TAIL_MS;
    let mut finish = |station: &mut SimStation, table: &mut SimTable, input: Input| {
        let out = station.apply(table, &input);
        each(&station.runner, &input, &out);
    };
    finish(
        &mut station,
        &mut rehearsal.table,
        Input::Tick { t_ms: end },
    );
    if station.runner.arbiter().game().result().is_none() {
        let result = match rehearsal.truth.result() {
            Some(r) => r.clone(),
            None => super::demo::adjudication(&station.runner.arbiter().view()),
        };
        let result = MatchResult {
            t_ms: Some(end),
            ..result
        };
        finish(
            &mut station,
            &mut rehearsal.table,
            Input::Td {
                t_ms: end,
                action: TdAction::DeclareResult { result },
            },
        );
    }
    if let Some(capture) = capture.as_mut() {
        capture.flush().context("writing the capture")?;
    }
    let mut runner = station.runner;
    runner.close(true);
    Ok(runner)
}

/// The TD at the table answers at once what the players say aloud (which piece a pawn
/// became, where a hidden piece went).
fn answer_as_td(
    station: &mut SimStation,
    table: &mut SimTable,
    truth: &crate::rules::Match,
    t_ms: Millis,
    out: &[Output],
    each: &mut impl FnMut(&MatchRunner, &Input, &[Output]),
) {
    let mut pending: Vec<TdAction> = truthful_answers(truth, out);
    while let Some(action) = pending.pop() {
        let input = Input::Td { t_ms, action };
        let more = station.apply(table, &input);
        each(&station.runner, &input, &more);
        pending.extend(truthful_answers(truth, &more));
    }
}

/// How finely simulated play steps the boards when clocks are driven: a clock command
/// leaves at most this long after the arbiter decides it (the live worker sends it at
/// once).
pub const STEP_MS: Millis = 5;

/// The live station's wiring in simulated time: what simulated boards report is applied
/// to a [`MatchRunner`] as it happens, deadlines fall on time, and the clock commands the
/// arbiter decides go back through the boards' links (one at a time, acked), exactly as
/// the session's arbiter thread and the board workers do.
pub struct SimStation {
    pub runner: MatchRunner,
    /// Time the boards have reached.
    pub now: Millis,
    /// Every output, with the time of the input that gave it.
    pub log: Vec<(Millis, Output)>,
}

impl SimStation {
    #[must_use]
    pub fn new(runner: MatchRunner) -> SimStation {
        SimStation {
            runner,
            now: 0,
            log: Vec::new(),
        }
    }

    /// One input, its clock commands handed to the boards' links.
    pub fn apply(&mut self, table: &mut SimTable, input: &Input) -> Vec<Output> {
        let out = self.runner.apply(input);
        for o in &out {
            if let Output::Clock(order) = o {
                table.clock_command(order.board, order.id, order.command.clone());
            }
            self.log.push((input.t_ms(), o.clone()));
        }
        out
    }

    /// Runs the boards up to `t` in steps, applying what they report and letting
    /// deadlines fall (as the live loop's ticks do). `each` sees every input and what it
    /// gave; raw bytes go to `chunks`.
    pub fn run(
        &mut self,
        table: &mut SimTable,
        t: Millis,
        mut each: impl FnMut(&mut SimStation, &mut SimTable, &Input, &[Output]),
        mut chunks: impl FnMut(&crate::device::capture::CaptureChunk),
    ) {
        while self.now < t {
            let next = (self.now + STEP_MS).min(t);
            for o in table.run_until(next) {
                if let Some(c) = o.chunk() {
                    chunks(c);
                }
                if let Some(ev) = o.event() {
                    let input = Input::Board(ev.clone());
                    let out = self.apply(table, &input);
                    each(self, table, &input, &out);
                }
            }
            if self
                .runner
                .arbiter()
                .next_deadline()
                .is_some_and(|d| d <= next)
            {
                let input = Input::Tick { t_ms: next };
                let out = self.apply(table, &input);
                each(self, table, &input, &out);
            }
            self.now = next;
        }
    }
}

/// The two simulated boards: as the demo's (board B turned 180°, its clock on the right),
/// with the match's time control on their clocks.
fn table_configs(
    tc: TimeControl,
    plans: ByBoard<ClockPlan>,
    serials: &[String; 2],
) -> [EmulatorConfig; 2] {
    let clock = ClockConfig {
        base_ms: tc.base_ms,
        increment_ms: tc.increment_ms,
        delay_ms: tc.delay_ms,
        ..ClockConfig::default()
    };
    // Where Tandem is the clock, the board has none: presses come from the buttons.
    let clock_of = |b: BoardId, c: ClockConfig| (plans[b] != ClockPlan::Tandem).then_some(c);
    [
        EmulatorConfig {
            serial: serials[0].clone(),
            clock: clock_of(BoardId::A, clock.clone()),
            ..EmulatorConfig::default()
        },
        EmulatorConfig {
            serial: serials[1].clone(),
            orientation: crate::dgt::Orientation::Rotated,
            clock: clock_of(
                BoardId::B,
                ClockConfig {
                    white_side: crate::dgt::ClockSide::Right,
                    ..clock
                },
            ),
            ..EmulatorConfig::default()
        },
    ]
}

/// The simulated boards as `boards.ron` names them: by serial number, virtual profile.
fn station(configs: &[EmulatorConfig; 2]) -> Station {
    Station {
        boards: BoardId::BOTH
            .into_iter()
            .zip(configs)
            .map(|(board, c)| StationBoard {
                board,
                port: PortSpec::Serial(c.serial.clone()),
                profile: "virtual".into(),
            })
            .collect(),
    }
}
