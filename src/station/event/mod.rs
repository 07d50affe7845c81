//! An evening at the station: the event core ([`crate::event`]) kept in its folder, its
//! games played as matches, each in its own match folder.
//!
//! - [`folder`]: the event folder (`event.ron`, standings, the evening's BPGN, one match
//!   folder a game).
//! - [`simulate`]: a whole event on simulated boards in simulated time
//!   (`tandem event simulate`), through the same runner and folders as live play.
//! - [`live`]: several matches live at once on this station, each with its own boards,
//!   arbiter thread, journal and folder; resumed from their journals after a crash.

pub mod folder;
pub mod live;
pub mod simulate;

pub use folder::EventFolder;
pub use live::{EventNews, EventStation, LiveMatch};

use crate::BoardId;
use crate::arbiter::journal::JournalHeader;
use crate::arbiter::{ArbiterConfig, ClockPlan};
use crate::device::profile::PortSpec;
use crate::event::{Event, GameRef, Table, TableClocks};

use super::{BoardPlan, new_header};

/// The header of a game's match starting now: the event's rules and time control, the
/// players by seat as the pairing and colours put them, the table's clocks (driven ones
/// restarted after a pause by their own play/pause button when the station has no
/// `console`), the event's name and site, and the game's place (`2.3`) for the BPGN's
/// Round.
#[must_use]
pub fn game_header(
    event: &Event,
    g: GameRef,
    boards: &[BoardPlan],
    console: bool,
) -> JournalHeader {
    let mut config = ArbiterConfig::new(event.preset().clone());
    config.players = event.players(g);
    let table = event
        .pairing(g.round, g.pairing)
        .and_then(|p| p.table)
        .and_then(|t| event.tables.get(t));
    if table.is_some_and(|t| t.clocks == TableClocks::Drive) {
        config.clocks = crate::ByBoard {
            a: ClockPlan::Drive,
            b: ClockPlan::Drive,
        };
        config.clock_button_resumes = !console;
    }
    let mut header = new_header(config, &event.setup.name, &event.setup.site, boards);
    header.round = event.game_label(g);
    header.teams = event
        .sides(g)
        .map(|[a, b]| [event.team_name(a), event.team_name(b)]);
    header
}

/// A table's two boards, found by serial number (or port) with the table's profile.
pub fn table_plans(table: &Table) -> anyhow::Result<Vec<BoardPlan>> {
    [(BoardId::A, &table.a), (BoardId::B, &table.b)]
        .into_iter()
        .map(|(board, port)| {
            BoardPlan::new(board, PortSpec::parse(port), &table.profile).map_err(anyhow::Error::msg)
        })
        .collect()
}

/// Tables of virtual boards for a demo or a simulation: table `i` has serial numbers
/// `10001 + 2i` (board A) and `10002 + 2i` (board B).
#[must_use]
pub fn virtual_tables(n: usize) -> Vec<Table> {
    (0..n)
        .map(|i| Table {
            a: (10_001 + 2 * i).to_string(),
            b: (10_002 + 2 * i).to_string(),
            profile: "virtual".to_owned(),
            clocks: TableClocks::Read,
        })
        .collect()
}
