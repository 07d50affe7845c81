//! One way to run a match: the arbiter with its match folder around it.
//!
//! Live play journals each input, then applies it; replaying a recording (`tandem replay`,
//! the replay viewer, resuming) applies inputs already on record. Either way the runner
//! keeps the alert log and `match.bpgn` current as the arbiter decides, so nobody ever
//! replays a journal to export a match. The runner reads no clock: time comes with the
//! inputs, so live play, simulated play and replays are the same code.

use crate::Millis;
use crate::arbiter::journal::JournalHeader;
use crate::arbiter::{Arbiter, BoardEvent, BoardEventKind, Input, Output};
use crate::dgt::Message;
use crate::notation::{BpgnHeader, write_bpgn};
use crate::rules::Seat;

use super::folder::{AlertLog, JournalWriter, MatchFolder};

/// How long after the last recorded input a finished recording lets deadlines fall (a
/// press judged after its settle time, a drop's grace for the partner board's capture).
pub const TAIL_MS: Millis = 10_000;

/// The folder a live match writes to, with its open files.
pub struct LiveFiles {
    pub folder: MatchFolder,
    pub journal: JournalWriter,
    pub alerts: AlertLog,
}

/// A match being run: the arbiter, the header it was set up with, and (live) its files.
pub struct MatchRunner {
    header: JournalHeader,
    arbiter: Arbiter,
    /// Match time of the last input applied.
    last_t: Millis,
    files: Option<LiveFiles>,
    bpgn: String,
    /// Counts the changes of `bpgn` (for whoever shares it).
    bpgn_revision: u64,
    /// What went wrong with the files, for the TD (the match goes on regardless).
    problem: Option<String>,
}

impl MatchRunner {
    /// A fresh arbiter for the match `header` sets up; no files (a replay).
    #[must_use]
    pub fn new(header: JournalHeader) -> MatchRunner {
        let arbiter = Arbiter::new(header.config.clone());
        let mut runner = MatchRunner {
            header,
            arbiter,
            last_t: 0,
            files: None,
            bpgn: String::new(),
            bpgn_revision: 0,
            problem: None,
        };
        runner.bpgn = runner.current_bpgn();
        runner
    }

    /// From now on inputs are journaled and alerts logged in `files`, and `match.bpgn` is
    /// kept current there (written at once).
    pub fn attach(&mut self, files: LiveFiles) {
        self.files = Some(files);
        self.write_bpgn_file();
    }

    /// Applies inputs already on record (a journal being resumed, a recording replayed):
    /// nothing is journaled again. `each` sees the runner after every input, with what it
    /// gave.
    pub fn replay(&mut self, inputs: &[Input], mut each: impl FnMut(&MatchRunner, &[Output])) {
        for input in inputs {
            let out = self.step(input);
            each(self, &out);
        }
        self.refresh_bpgn(true);
    }

    /// A live input: written to the journal first (an input is never applied unless it is
    /// on disk, or the TD is told the journal failed), then applied.
    pub fn apply(&mut self, input: &Input) -> Vec<Output> {
        if let Some(files) = &mut self.files
            && let Err(e) = files.journal.append(input, is_durable(input))
        {
            self.problem = Some(format!("the journal cannot be written: {e}"));
        }
        let out = self.step(input);
        let record_changed = matches!(input, Input::Td { .. })
            || out.iter().any(|o| {
                matches!(
                    o,
                    Output::Committed { .. } | Output::RecordChanged | Output::MatchEnded(_)
                )
            });
        if let Some(files) = &mut self.files {
            for o in &out {
                if let Output::AlertRaised(a) = o
                    && !files.alerts.append(a)
                {
                    self.problem = Some(format!(
                        "the alert log {} cannot be written",
                        super::folder::ALERTS
                    ));
                }
            }
        }
        self.refresh_bpgn(record_changed);
        out
    }

    fn step(&mut self, input: &Input) -> Vec<Output> {
        self.last_t = self.last_t.max(input.t_ms());
        self.arbiter.handle(input)
    }

    /// The end of a recording: the deadlines after its last input fall (presses still
    /// being judged are decided), as `tandem replay` has always done.
    pub fn finish(&mut self) -> Vec<Output> {
        let out = self.arbiter.finish_at(self.last_t + TAIL_MS);
        self.refresh_bpgn(true);
        out
    }

    /// The BPGN the recording gives once finished (what `tandem replay` writes for this
    /// match's journal), without touching the live state.
    #[must_use]
    pub fn finished_bpgn(&self) -> String {
        let mut arbiter = self.arbiter.clone();
        arbiter.finish_at(self.last_t + TAIL_MS);
        bpgn_of(&self.header, &arbiter)
    }

    /// The end of a live run: `match.bpgn` as the finished recording gives it (equal to
    /// `tandem replay match.journal`), and the folder marked closed if asked.
    pub fn close(&mut self, mark_closed: bool) {
        let text = self.finished_bpgn();
        if let Some(files) = &self.files {
            files.folder.write_bpgn(&text).ok();
            if mark_closed {
                files.folder.mark_closed().ok();
            }
        }
    }

    /// The match as BPGN, as it stands.
    #[must_use]
    pub fn bpgn(&self) -> &str {
        &self.bpgn
    }

    /// Changes whenever [`Self::bpgn`] does.
    #[must_use]
    pub fn bpgn_revision(&self) -> u64 {
        self.bpgn_revision
    }

    #[must_use]
    pub fn arbiter(&self) -> &Arbiter {
        &self.arbiter
    }

    /// The arbiter, once the run is over.
    #[must_use]
    pub fn into_arbiter(self) -> Arbiter {
        self.arbiter
    }

    #[must_use]
    pub fn header(&self) -> &JournalHeader {
        &self.header
    }

    #[must_use]
    pub fn folder(&self) -> Option<&MatchFolder> {
        self.files.as_ref().map(|f| &f.folder)
    }

    /// Match time of the last input.
    #[must_use]
    pub fn last_t_ms(&self) -> Millis {
        self.last_t
    }

    /// A problem with the match's files, if any.
    #[must_use]
    pub fn problem(&self) -> Option<&str> {
        self.problem.as_deref()
    }

    /// Rebuilds the BPGN when the record may have changed, and keeps `match.bpgn` equal.
    fn refresh_bpgn(&mut self, changed: bool) {
        if !changed {
            return;
        }
        let text = self.current_bpgn();
        if text != self.bpgn {
            self.bpgn = text;
            self.bpgn_revision += 1;
            self.write_bpgn_file();
        }
    }

    fn write_bpgn_file(&mut self) {
        if let Some(files) = &self.files
            && let Err(e) = files.folder.write_bpgn(&self.bpgn)
        {
            self.problem = Some(format!("{} cannot be written: {e}", super::folder::BPGN));
        }
    }

    fn current_bpgn(&self) -> String {
        bpgn_of(&self.header, &self.arbiter)
    }
}

/// The BPGN of a match: the event, site, date and time its header names, the players as
/// the arbiter has them (the TD may have renamed them).
#[must_use]
pub fn bpgn_of(header: &JournalHeader, arbiter: &Arbiter) -> String {
    let mut h = BpgnHeader {
        event: header.event.clone(),
        site: header.site.clone(),
        date: header.date.clone(),
        round: header.round.clone(),
        time: header.time.clone(),
        ..BpgnHeader::default()
    };
    for seat in Seat::ALL {
        h.set_player(seat, arbiter.player(seat));
    }
    write_bpgn(arbiter.game(), &h)
}

/// Inputs recovery cannot do without are synced to disk at once: clock messages (the
/// presses, the clock's buttons), what became of clock commands, connects and
/// disconnects, and the TD's decisions.
fn is_durable(input: &Input) -> bool {
    matches!(
        input,
        Input::Td { .. }
            | Input::Board(BoardEvent {
                kind: BoardEventKind::Message(Message::Clock(_) | Message::ClockAck(_))
                    | BoardEventKind::ClockCommand { .. }
                    | BoardEventKind::Connected { .. }
                    | BoardEventKind::Disconnected { .. },
                ..
            })
    )
}
