//! Driving the arbiter from a recording, exactly as live play does: a capture file's raw
//! bytes go through one DGT decoder per board, each decoded message becomes the same
//! [`BoardEvent`] the serial worker would have sent, and deadlines fall as the recorded
//! time passes.

use crate::arbiter::{Arbiter, ArbiterConfig, Input, Output};
use crate::arbiter::{BoardEvent, BoardEventKind};
use crate::device::capture::CaptureChunk;
use crate::dgt::{Decoder, Message};
use crate::{BoardId, Millis};

/// Decoded device events of a capture, in recorded order.
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

/// How long after the last recorded message the replay lets deadlines fall.
pub const TAIL_MS: Millis = 10_000;

/// Runs `events` through a fresh arbiter; `on_output` sees every output as it happens.
pub fn run(cfg: ArbiterConfig, events: &[BoardEvent], on_output: impl FnMut(&Output)) -> Arbiter {
    let inputs: Vec<Input> = events.iter().cloned().map(Input::Board).collect();
    run_inputs(cfg, &inputs, on_output)
}

/// Runs any inputs (a journal's, or a capture's events) through a fresh arbiter, then lets
/// the deadlines after the last input fall.
pub fn run_inputs(
    cfg: ArbiterConfig,
    inputs: &[Input],
    mut on_output: impl FnMut(&Output),
) -> Arbiter {
    let mut arb = Arbiter::new(cfg);
    let mut last = 0;
    for input in inputs {
        last = last.max(input.t_ms());
        for o in arb.handle(input) {
            on_output(&o);
        }
    }
    for o in arb.finish_at(last + TAIL_MS) {
        on_output(&o);
    }
    arb
}

/// Boards that appear in a capture.
#[must_use]
pub fn boards_in(chunks: &[CaptureChunk]) -> Vec<BoardId> {
    let mut b: Vec<BoardId> = chunks.iter().map(|c| c.board).collect();
    b.sort();
    b.dedup();
    b
}
