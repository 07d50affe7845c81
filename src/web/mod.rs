//! The spectators' web server: a read-only page for the hall's phones and live feeds, the
//! only place in Tandem that speaks HTTP.
//!
//! It shows what the projector shows and nothing else: it reads only the
//! [`SpectatorView`](crate::arbiter::spectator::SpectatorView)s a live match publishes,
//! through a [`HallTap`](crate::station::HallTap) (a channel: the arbiter never waits on
//! the server), and releases them with the same broadcast delay as the projector
//! ([`WebServer::set_delay_ms`]; the app passes its projector setting on every frame).
//! Built around a set of matches from the start: each has an id (`"1"` today), and
//! [`WebServer::show`] points a match at the live session playing it, game after game.
//!
//! - [`hub`]: the delay line of each match and the released frames (the feeder task).
//! - [`stream`]: one client's push stream (server-sent events) and the response bodies.
//! - [`http`]: connections, their limits, and the routes (GET only).
//! - [`json`]: the feeds' JSON, BPGN and PGN (the README documents them as interfaces).
//! - [`assets`]: the page (HTML, CSS, JS, the pieces), built into the binary.
//!
//! hyper and tokio: hyper is the HTTP implementation under most of Rust's web stack, and
//! its connection builder exposes the limits a public server in a hall needs (header size
//! and count, header read timeout); a dozen fixed GET routes need no router.

mod assets;
mod http;
mod hub;
mod json;
mod stream;

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{mpsc, watch};

pub use http::Limits;
pub use hub::Standing;

use crate::Millis;
use crate::arbiter::spectator::SpectatorView;
use crate::event::Event;
use crate::station::event::LiveMatch;
use crate::station::{HallTap, MAX_BROADCAST_DELAY_MS, Session};
use hub::{GameInfo, Hub, News};

/// The id of the match when only one is played (an event gives each of its own).
pub const FIRST_MATCH: &str = "1";

/// The web server, running on its own threads until stopped or dropped.
pub struct WebServer {
    runtime: Option<tokio::runtime::Runtime>,
    hub: Arc<Hub>,
    news: mpsc::UnboundedSender<News>,
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    /// Which session each match shows (its folder), and its game number there.
    shown: Mutex<HashMap<String, (PathBuf, u32)>>,
}

impl WebServer {
    /// Listens on `addr` (port 0: any free port; see [`Self::addr`]) with the default
    /// limits and a broadcast delay of `delay_ms`.
    pub fn start(addr: SocketAddr, delay_ms: Millis) -> std::io::Result<WebServer> {
        Self::start_with(addr, delay_ms, Limits::default())
    }

    pub fn start_with(
        addr: SocketAddr,
        delay_ms: Millis,
        limits: Limits,
    ) -> std::io::Result<WebServer> {
        // Bound here, so that a port in use is said at once to whoever asked for it.
        let listener = std::net::TcpListener::bind(addr)?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("web")
            .enable_io()
            .enable_time()
            .build()?;
        let hub = Arc::new(Hub::new(delay_ms));
        let (news, news_rx) = mpsc::unbounded_channel();
        let (stop, stop_rx) = watch::channel(false);
        let listener = {
            let _guard = runtime.enter();
            tokio::net::TcpListener::from_std(listener)?
        };
        runtime.spawn(hub::feed(hub.clone(), news_rx));
        runtime.spawn(http::serve(listener, hub.clone(), limits, stop_rx));
        Ok(WebServer {
            runtime: Some(runtime),
            hub,
            news,
            addr,
            stop,
            shown: Mutex::new(HashMap::new()),
        })
    }

    /// The address listened on.
    #[must_use]
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The addresses to type in a phone's browser: the machine's network addresses when
    /// listening on all of them (`0.0.0.0`), the one given otherwise.
    #[must_use]
    pub fn urls(&self) -> Vec<String> {
        urls_for(self.addr)
    }

    /// The broadcast delay (the projector's): the page runs this far behind live.
    pub fn set_delay_ms(&self, ms: Millis) {
        self.hub
            .delay_ms
            .store(ms.min(MAX_BROADCAST_DELAY_MS), Ordering::Relaxed);
    }

    #[must_use]
    pub fn delay_ms(&self) -> Millis {
        self.hub.delay_ms()
    }

    /// Match `id` shows `session` (call it as often as you like: a session already shown
    /// changes nothing; a new one is the match's next game).
    pub fn show(&self, id: &str, session: &Session) {
        let mut shown = self
            .shown
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let game = match shown.get(id) {
            Some((dir, _)) if dir == session.dir() => return,
            Some((_, n)) => n + 1,
            None => 1,
        };
        shown.insert(id.to_owned(), (session.dir().to_path_buf(), game));
        drop(shown);
        let header = session.header();
        let info = Arc::new(GameInfo {
            no: game,
            epoch: session.epoch(),
            event: header.event.clone(),
            site: header.site.clone(),
            date: header.date.clone(),
            time: header.time.clone(),
            rules: header.config.rules.clone(),
            teams: header.teams.clone(),
        });
        let _ = self.news.send(News::Game {
            slot: id.to_owned(),
            game: info,
        });
        session.tap_hall(self.tap(id, game));
    }

    /// The tap a live session feeds match `id`'s game `game` through.
    fn tap(&self, id: &str, game: u32) -> HallTap {
        let news = self.news.clone();
        let slot: Arc<str> = Arc::from(id);
        Arc::new(move |view: &Arc<SpectatorView>| {
            // An unbounded channel: sending never blocks the arbiter thread.
            let _ = news.send(News::View {
                slot: slot.clone(),
                game,
                view: view.clone(),
                published_unix_ms: unix_ms(),
            });
        })
    }

    /// An evening on the page: every live match under its pairing's id (`1.2`: round 1,
    /// pairing 2; a pairing's next game is that match's next game), the standings of
    /// `hall` (the event as the hall may know it, behind the broadcast delay); a match
    /// no longer live is taken off.
    pub fn show_evening(&self, live: &[LiveMatch], hall: &Event) {
        let mut ids = Vec::new();
        for m in live {
            let id = m.game().pairing_label();
            self.show(&id, m.session());
            ids.push(id);
        }
        self.keep_only(&ids);
        let rows = hall
            .standings()
            .into_iter()
            .map(|s| Standing {
                team: hall.team_name(s.team),
                games: s.games,
                #[allow(clippy::cast_possible_truncation)]
                points: s.points as f32,
            })
            .collect();
        self.set_standings(Some(rows));
    }

    /// Every match shown but those of `ids` is taken off.
    pub fn keep_only(&self, ids: &[String]) {
        let gone: Vec<String> = self
            .shown
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .keys()
            .filter(|id| !ids.contains(id))
            .cloned()
            .collect();
        for id in gone {
            self.retire(&id);
        }
    }

    /// Match `id` is no longer shown.
    pub fn retire(&self, id: &str) {
        self.shown
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(id);
        let _ = self.news.send(News::Retire {
            slot: id.to_owned(),
        });
    }

    /// The event's standings (`None`: counted from the games the server has shown).
    pub fn set_standings(&self, rows: Option<Vec<Standing>>) {
        self.hub.set_standings(rows);
    }

    /// Stops listening and closes every connection.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        let _ = self.stop.send(true);
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_timeout(Duration::from_secs(1));
        }
    }
}

impl Drop for WebServer {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// `--web`'s value: `HOST:PORT`, or a port alone for every network address
/// (`8080` = `0.0.0.0:8080`).
pub fn parse_addr(text: &str) -> Result<SocketAddr, String> {
    let t = text.trim();
    if let Ok(port) = t.trim_start_matches(':').parse::<u16>() {
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), port));
    }
    t.parse().map_err(|_| {
        format!("`{t}` is no address to listen on (examples: 0.0.0.0:8080, 127.0.0.1:8080, 8080)")
    })
}

/// The URLs a browser can reach `addr` by.
#[must_use]
pub fn urls_for(addr: SocketAddr) -> Vec<String> {
    let port = addr.port();
    let url = |ip: IpAddr| match ip {
        IpAddr::V4(v4) => format!("http://{v4}:{port}/"),
        IpAddr::V6(v6) => format!("http://[{v6}]:{port}/"),
    };
    if !addr.ip().is_unspecified() {
        return vec![url(addr.ip())];
    }
    let mut ips: Vec<IpAddr> = if_addrs::get_if_addrs()
        .unwrap_or_default()
        .into_iter()
        .map(|i| i.ip())
        .filter(|ip| ip.is_ipv4() && !ip.is_loopback())
        .collect();
    // The hall's network first (private ranges), then others.
    ips.sort_by_key(|ip| match ip {
        IpAddr::V4(v4) => (!v4.is_private(), *v4),
        IpAddr::V6(_) => (true, Ipv4Addr::UNSPECIFIED),
    });
    ips.dedup();
    if ips.is_empty() {
        ips.push(IpAddr::V4(Ipv4Addr::LOCALHOST));
    }
    ips.into_iter().map(url).collect()
}

fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}
