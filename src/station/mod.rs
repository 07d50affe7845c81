//! The station: everything that runs matches on this machine. A match lives in its
//! folder ([`folder::MatchFolder`]); it is run by one [`runner::MatchRunner`] (journal,
//! arbiter, alert log, `match.bpgn`), live inside a [`session::Session`] (board workers
//! and the arbiter thread), or from a recording ([`recording::Recording`]) for `tandem
//! replay`, the replay viewer and resuming. [`demo`] plays game after game on virtual
//! boards, for the window and for `tandem station` alike.

pub mod buttons;
pub mod demo;
pub mod event;
pub mod folder;
pub mod recording;
pub mod runner;
pub mod session;
pub mod simulated;
pub mod views;

use std::sync::Arc;

pub use folder::MatchFolder;
pub use recording::Recording;
pub use runner::MatchRunner;
pub use session::Session;
pub use views::{MAX_BROADCAST_DELAY_MS, Views};

use crate::BoardId;
use crate::arbiter::journal::JournalHeader;
use crate::arbiter::spectator::SpectatorView;
use crate::arbiter::{ArbiterConfig, Timing};
use crate::device::profile::{ConfigError, DeviceProfile, PortSpec, Station, StationBoard};

/// Called whenever there is something new to draw.
pub type Waker = Arc<dyn Fn() + Send + Sync>;

/// Told each view the hall may see, as it changes (the web server's feed; see
/// [`Session::tap_hall`]). Called on the arbiter thread: it must not block.
pub type HallTap = Arc<dyn Fn(&Arc<SpectatorView>) + Send + Sync>;

/// One board to connect.
#[derive(Clone, Debug)]
pub struct BoardPlan {
    pub board: BoardId,
    pub port: PortSpec,
    /// The device profile as the TD named it (a built-in name or a file), for
    /// `boards.ron`.
    pub profile_name: String,
    pub profile: DeviceProfile,
}

impl BoardPlan {
    /// A board with its device profile loaded (`profile`: a built-in name or a file).
    pub fn new(board: BoardId, port: PortSpec, profile: &str) -> Result<BoardPlan, ConfigError> {
        Ok(BoardPlan {
            board,
            port,
            profile_name: profile.to_owned(),
            profile: DeviceProfile::load(profile)?,
        })
    }

    /// The boards of a station file, each with its device profile loaded.
    pub fn for_station(station: &Station) -> Result<Vec<BoardPlan>, ConfigError> {
        station
            .boards
            .iter()
            .map(|b| BoardPlan::new(b.board, b.port.clone(), &b.profile))
            .collect()
    }
}

/// The header of a match starting now: its set-up, the event and site the TD named, the
/// date and time, and each board's timing from its device profile (a Bluetooth board scans
/// at half speed). The window, `tandem station` and the demo all start matches with it.
#[must_use]
pub fn new_header(
    config: ArbiterConfig,
    event: &str,
    site: &str,
    boards: &[BoardPlan],
) -> JournalHeader {
    let mut config = config;
    for p in boards {
        config.timing[p.board] = Timing::for_scan_period(p.profile.scan_period_ms);
    }
    let (date, time) = folder::date_and_time_now();
    JournalHeader {
        config,
        event: event.to_owned(),
        site: site.to_owned(),
        date,
        time: Some(time),
        capture: None,
        round: String::new(),
        teams: None,
    }
}

/// The boards of a match as a station file (`boards.ron`), when there are two.
#[must_use]
pub fn station_of(boards: &[BoardPlan]) -> Option<Station> {
    // A station file names both boards, once each.
    let once = |b: BoardId| boards.iter().filter(|p| p.board == b).count() == 1;
    BoardId::BOTH.into_iter().all(once).then(|| Station {
        boards: boards
            .iter()
            .map(|p| StationBoard {
                board: p.board,
                port: p.port.clone(),
                profile: p.profile_name.clone(),
            })
            .collect(),
    })
}
