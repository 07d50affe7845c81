//! The virtual board wired to the production link code in *simulated* time: no pty, no
//! threads. Hours of physical play run in seconds, and every event comes out of the same
//! decoder and [`LinkSession`] the serial worker uses.

use std::collections::VecDeque;

use shakmaty::{Piece, Square};

use crate::{BoardId, Millis};

use super::emulator::{BYTE_US, BoardEmulator, EmulatorConfig, PhysicalAction, PhysicalPiece};
use crate::arbiter::BoardEvent;
use crate::device::capture::CaptureChunk;
use crate::device::link::{LinkConfig, LinkOutput, LinkSession};

/// How finely the simulated PC side looks at its port (the worker's read timeout is ~50 ms,
/// but it wakes on every chunk; 5 ms keeps command latency realistic).
const STEP_MS: Millis = 5;

/// Retry interval after a lost link (the worker's `reconnect_poll_ms`).
const RECONNECT_MS: Millis = 1000;

/// Something that happened on the simulated link, in time order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimOutput {
    /// Raw bytes the PC received (what a capture file records).
    Chunk(CaptureChunk),
    /// What the production link code made of them.
    Event(BoardEvent),
}

impl SimOutput {
    #[must_use]
    pub fn event(&self) -> Option<&BoardEvent> {
        match self {
            SimOutput::Event(e) => Some(e),
            SimOutput::Chunk(_) => None,
        }
    }

    #[must_use]
    pub fn chunk(&self) -> Option<&CaptureChunk> {
        match self {
            SimOutput::Chunk(c) => Some(c),
            SimOutput::Event(_) => None,
        }
    }
}

/// Only the events of a batch of outputs.
#[must_use]
pub fn events(outputs: &[SimOutput]) -> Vec<BoardEvent> {
    outputs
        .iter()
        .filter_map(SimOutput::event)
        .cloned()
        .collect()
}

/// One virtual board on a simulated serial link.
#[derive(Debug, Clone)]
pub struct SimBoard {
    board: BoardId,
    emu: BoardEmulator,
    link_cfg: LinkConfig,
    link: LinkSession,
    now: Millis,
    plugged: bool,
    /// PC → board bytes in flight: (arrival time, bytes).
    to_board: VecDeque<(Millis, Vec<u8>)>,
    /// Outputs produced while running up to an action's time, not yet returned.
    pending: Vec<SimOutput>,
    lost_since: Option<Millis>,
    /// The board this link accepts after the first connection.
    expected: Option<crate::device::link::Identity>,
}

impl SimBoard {
    /// A board plugged in at t = 0; the link starts its start-up sequence at once.
    #[must_use]
    pub fn new(board: BoardId, cfg: EmulatorConfig, seed: u64) -> Self {
        Self::with_link(board, cfg, seed, LinkConfig::default())
    }

    #[must_use]
    pub fn with_link(board: BoardId, cfg: EmulatorConfig, seed: u64, link_cfg: LinkConfig) -> Self {
        let emu = BoardEmulator::new(cfg, seed);
        let mut link = LinkSession::new(board, link_cfg.clone(), port_name(board), None);
        let mut s = SimBoard {
            board,
            emu,
            link_cfg,
            link: link.clone(),
            now: 0,
            plugged: true,
            to_board: VecDeque::new(),
            pending: Vec::new(),
            lost_since: None,
            expected: None,
        };
        let out = link.start(0);
        s.link = link;
        s.absorb(0, out);
        s
    }

    #[must_use]
    pub fn board(&self) -> BoardId {
        self.board
    }

    #[must_use]
    pub fn now(&self) -> Millis {
        self.now
    }

    #[must_use]
    pub fn emulator(&self) -> &BoardEmulator {
        &self.emu
    }

    /// For setting the emulator up directly (e.g. before the link connects).
    pub fn emulator_mut(&mut self) -> &mut BoardEmulator {
        &mut self.emu
    }

    #[must_use]
    pub fn link(&self) -> &LinkSession {
        &self.link
    }

    /// Runs everything up to `t`, then applies the action (see [`BoardEmulator::act`]).
    pub fn act(&mut self, t: Millis, action: PhysicalAction) -> Option<PhysicalPiece> {
        let out = self.run_until(t);
        self.pending.extend(out);
        self.emu.act(t.max(self.now), action)
    }

    /// Applies `action` when the simulation reaches `t`.
    pub fn schedule(&mut self, t: Millis, action: PhysicalAction) {
        self.emu.schedule(t, action);
    }

    /// See [`BoardEmulator::slide`].
    pub fn slide(
        &mut self,
        t0: Millis,
        from: Square,
        via: &[Square],
        to: Square,
        piece: Piece,
        step_ms: u64,
    ) -> Millis {
        self.emu.slide(t0, from, via, to, piece, step_ms)
    }

    /// A clock command from the PC now, through the production link (sent when no other
    /// waits for its ack; its outcome comes out as a `ClockCommand` event).
    pub fn clock_command(&mut self, id: u64, command: crate::dgt::ClockCommand) {
        let out = self.link.clock_command(self.now, id, command);
        self.absorb(self.now, out);
    }

    /// The USB cable is pulled at `t`: the board goes dark, the PC reports the loss.
    pub fn unplug(&mut self, t: Millis) {
        let out = self.run_until(t);
        self.pending.extend(out);
        self.plugged = false;
        self.to_board.clear();
        let lost = self.link.lose(self.now, "unplugged");
        self.absorb(self.now, lost);
    }

    /// Plugged back in at `t`: the board powers up idle and the PC runs the start-up
    /// sequence again, expecting the same board.
    pub fn replug(&mut self, t: Millis) {
        let out = self.run_until(t);
        self.pending.extend(out);
        self.emu.power_cycle(self.now);
        self.plugged = true;
        let expected = Some(self.link.identity().clone()).filter(|i| i.display().is_some());
        self.link = LinkSession::new(
            self.board,
            self.link_cfg.clone(),
            port_name(self.board),
            expected,
        );
        let out = self.link.start(self.now);
        self.absorb(self.now, out);
    }

    /// Like the worker: a lost link is retried after a second, expecting the same board.
    fn restart_if_lost(&mut self, now: Millis) {
        if self.link.lost_reason().is_none() {
            self.lost_since = None;
            return;
        }
        let since = *self.lost_since.get_or_insert(now);
        if now.saturating_sub(since) >= RECONNECT_MS {
            self.lost_since = None;
            self.restart(now);
        }
    }

    fn restart(&mut self, now: Millis) {
        let known = self.link.identity().clone();
        let expected = self
            .expected
            .clone()
            .or(Some(known).filter(|i| i.display().is_some()));
        self.expected.clone_from(&expected);
        self.link = LinkSession::new(
            self.board,
            self.link_cfg.clone(),
            port_name(self.board),
            expected,
        );
        let out = self.link.start(now);
        self.absorb(now, out);
    }

    fn absorb(&mut self, t: Millis, out: LinkOutput) {
        if !out.write.is_empty() && self.plugged {
            let wire_ms = (BYTE_US * out.write.len() as u64).div_ceil(1000);
            self.to_board.push_back((t + wire_ms, out.write));
        }
        self.pending
            .extend(out.events.into_iter().map(SimOutput::Event));
    }

    /// Runs the board and the link up to `t`; returns everything that happened since the
    /// last call, in time order.
    pub fn run_until(&mut self, t: Millis) -> Vec<SimOutput> {
        while self.now < t {
            let next = (self.now + STEP_MS).min(t);
            while let Some((at, _)) = self.to_board.front() {
                if *at > next {
                    break;
                }
                if let Some((at, bytes)) = self.to_board.pop_front() {
                    self.emu.receive_from_pc(at.max(self.emu.now()), &bytes);
                }
            }
            self.emu.advance_to(next);
            let chunks = self.emu.take_output();
            if self.plugged {
                for (tm, bytes) in chunks {
                    self.pending.push(SimOutput::Chunk(CaptureChunk {
                        t_ms: tm,
                        board: self.board,
                        bytes: bytes.clone(),
                    }));
                    let out = self.link.receive(tm, &bytes);
                    self.absorb(tm, out);
                }
                let out = self.link.tick(next);
                self.absorb(next, out);
                self.restart_if_lost(next);
            }
            self.now = next;
        }
        std::mem::take(&mut self.pending)
    }
}

fn port_name(board: BoardId) -> String {
    format!("sim:{board}")
}
