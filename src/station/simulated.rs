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
use crate::arbiter::journal::JournalHeader;
use crate::arbiter::{Input, Output, TdAction};
use crate::device::profile::{PortSpec, Station, StationBoard};
use crate::rules::{MatchResult, TimeControl};
use crate::sim::emulator::{ClockConfig, EmulatorConfig};
use crate::sim::performer::Style;
use crate::sim::table::{Chooser, Rehearsal};
use crate::sim::td::truthful_answers;
use crate::{BoardId, Millis};

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
    let configs = table_configs(rules.time_control, &play.serials);
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
    let mut rehearsal = Rehearsal::new(rules, &configs, &play.style, Chooser::Natural, play.seed);
    rehearsal.set_max_plies(play.game_plies);
    let mut last: Millis = 0;
    let mut apply = |runner: &mut MatchRunner, input: Input, truth: &crate::rules::Match| {
        let mut pending = vec![input];
        while let Some(input) = pending.pop() {
            let out = runner.apply(&input);
            each(runner, &input, &out);
            // The TD's answers come at once, as the player says them aloud.
            for action in truthful_answers(truth, &out) {
                pending.push(Input::Td {
                    t_ms: input.t_ms(),
                    action,
                });
            }
        }
    };
    let mut feed = |runner: &mut MatchRunner,
                    batch: Vec<crate::sim::SimOutput>,
                    truth: &crate::rules::Match|
     -> anyhow::Result<()> {
        for o in batch {
            if let (Some(c), Some(capture)) = (o.chunk(), capture.as_mut()) {
                capture
                    .write_chunk(c.t_ms, c.board, &c.bytes)
                    .context("writing the capture")?;
            }
            if let Some(ev) = o.event() {
                last = last.max(ev.t_ms);
                apply(runner, Input::Board(ev.clone()), truth);
            }
        }
        Ok(())
    };
    while let Some(batch) = rehearsal.step() {
        feed(&mut runner, batch, &rehearsal.truth)?;
    }
    // The last reports (a press still travelling) arrive after the game.
    let tail = rehearsal.table.run_until(rehearsal.now() + 5000);
    feed(&mut runner, tail, &rehearsal.truth)?;
    // Time passes after the last report: presses still being judged are decided.
    let end = last + TAIL_MS;
    apply(&mut runner, Input::Tick { t_ms: end }, &rehearsal.truth);
    if runner.arbiter().game().result().is_none() {
        let result = match rehearsal.truth.result() {
            Some(r) => r.clone(),
            None => super::demo::adjudication(&runner.arbiter().view()),
        };
        let result = MatchResult {
            t_ms: Some(end),
            ..result
        };
        apply(
            &mut runner,
            Input::Td {
                t_ms: end,
                action: TdAction::DeclareResult { result },
            },
            &rehearsal.truth,
        );
    }
    if let Some(capture) = capture.as_mut() {
        capture.flush().context("writing the capture")?;
    }
    runner.close(true);
    Ok(runner)
}

/// The two simulated boards: as the demo's (board B turned 180°, its clock on the right),
/// with the match's time control on their clocks.
fn table_configs(tc: TimeControl, serials: &[String; 2]) -> [EmulatorConfig; 2] {
    let clock = ClockConfig {
        base_ms: tc.base_ms,
        increment_ms: tc.increment_ms,
        delay_ms: tc.delay_ms,
        ..ClockConfig::default()
    };
    [
        EmulatorConfig {
            serial: serials[0].clone(),
            clock: Some(clock.clone()),
            ..EmulatorConfig::default()
        },
        EmulatorConfig {
            serial: serials[1].clone(),
            orientation: crate::dgt::Orientation::Rotated,
            clock: Some(ClockConfig {
                white_side: crate::dgt::ClockSide::Right,
                ..clock
            }),
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
