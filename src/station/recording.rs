//! One way to load a recording: a capture file or a journal becomes a match header and the
//! arbiter's inputs, exactly as live play produced them. A capture's raw bytes go through
//! one DGT decoder per board and each decoded message becomes the same [`BoardEvent`] the
//! serial worker would have sent; a journal already holds the inputs (TD decisions too).
//!
//! `tandem replay`, the replay viewer, resuming a match and its export all load through
//! here and run through one [`MatchRunner`](super::runner::MatchRunner).

use std::path::Path;

use anyhow::Context as _;

use crate::arbiter::journal::{self, JournalHeader};
use crate::arbiter::{ArbiterConfig, BoardEvent, BoardEventKind, Input, Output};
use crate::device::capture::{CaptureChunk, parse_capture};
use crate::dgt::{Decoder, Message};
use crate::rules::RulesPreset;
use crate::{BoardId, Millis};

use super::runner::MatchRunner;

/// What a recording was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A journal; `torn_tail`: its last record was cut short (a power cut) and left out.
    Journal { torn_tail: bool },
    /// A capture of the boards' raw bytes (no TD decisions, no header).
    Capture,
}

/// A recorded match: its set-up and every input, in order.
#[derive(Clone, Debug)]
pub struct Recording {
    pub header: JournalHeader,
    pub inputs: Vec<Input>,
    pub source: Source,
}

impl Recording {
    /// Reads a journal, or a capture played under `rules` (a preset name or file: a
    /// capture does not say which rules it was played under). Errors name the file, line
    /// and column.
    pub fn load(path: &Path, rules: &str) -> anyhow::Result<Recording> {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        if journal::is_journal(&text) {
            return Self::from_journal(&text)
                .map_err(|e| anyhow::anyhow!("{}:{e}", path.display()));
        }
        let chunks = parse_capture(&text).map_err(|e| e.in_file(path))?;
        let rules = RulesPreset::load(rules).map_err(anyhow::Error::msg)?;
        Ok(Self::from_capture(&chunks, rules))
    }

    /// A journal's text.
    pub fn from_journal(text: &str) -> Result<Recording, journal::JournalError> {
        let j = journal::parse_journal(text)?;
        Ok(Recording {
            header: j.header,
            inputs: j.inputs,
            source: Source::Journal {
                torn_tail: j.torn_tail,
            },
        })
    }

    /// A capture's chunks, played under `rules`; the event is unknown (`?`).
    #[must_use]
    pub fn from_capture(chunks: &[CaptureChunk], rules: RulesPreset) -> Recording {
        Recording {
            header: bare_header(ArbiterConfig::new(rules)),
            inputs: capture_events(chunks)
                .into_iter()
                .map(Input::Board)
                .collect(),
            source: Source::Capture,
        }
    }

    /// Inputs under a set-up (a test, a tool): the event is unknown (`?`).
    #[must_use]
    pub fn of_inputs(config: ArbiterConfig, inputs: Vec<Input>) -> Recording {
        Recording {
            header: bare_header(config),
            inputs,
            source: Source::Journal { torn_tail: false },
        }
    }

    /// Board events under a set-up, as a capture gives them.
    #[must_use]
    pub fn of_events(config: ArbiterConfig, events: &[BoardEvent]) -> Recording {
        Recording {
            header: bare_header(config),
            inputs: events.iter().cloned().map(Input::Board).collect(),
            source: Source::Capture,
        }
    }

    /// Runs the recording through a fresh [`MatchRunner`] as `tandem replay` does, the
    /// end of the recording included (deadlines after its last input fall); `on_output`
    /// sees every output as it happens.
    pub fn replay(&self, mut on_output: impl FnMut(&Output)) -> MatchRunner {
        let mut runner = MatchRunner::new(self.header.clone());
        runner.replay(&self.inputs, |_, out| out.iter().for_each(&mut on_output));
        runner.finish().iter().for_each(on_output);
        runner
    }

    /// Match time of the last input.
    #[must_use]
    pub fn last_t_ms(&self) -> Millis {
        self.inputs.iter().map(Input::t_ms).max().unwrap_or(0)
    }
}

/// A header that knows only the set-up (event and site unknown).
fn bare_header(config: ArbiterConfig) -> JournalHeader {
    JournalHeader {
        config,
        event: "?".into(),
        site: "?".into(),
        date: String::new(),
        time: None,
        capture: None,
        round: String::new(),
        teams: None,
    }
}

/// Decoded board events of a capture, in recorded order.
#[must_use]
pub fn capture_events(chunks: &[CaptureChunk]) -> Vec<BoardEvent> {
    let mut decoders = [Decoder::new(), Decoder::new()];
    let mut events = Vec::new();
    let mut msgs = Vec::new();
    for c in chunks {
        msgs.clear();
        decoders[c.board.index()].push(&c.bytes, &mut msgs);
        for m in msgs.drain(..) {
            if matches!(m, Message::Garbage { .. }) {
                continue;
            }
            events.push(BoardEvent {
                board: c.board,
                t_ms: c.t_ms,
                kind: BoardEventKind::Message(m),
            });
        }
    }
    events
}

/// Boards that appear in a capture.
#[must_use]
pub fn boards_in(chunks: &[CaptureChunk]) -> Vec<BoardId> {
    let mut b: Vec<BoardId> = chunks.iter().map(|c| c.board).collect();
    b.sort();
    b.dedup();
    b
}
