//! The hall's feed inside the web server: what each match shows the hall, with the
//! broadcast delay, released in order to every client.
//!
//! ```text
//!  arbiter thread ── HallTap: View{slot, game, view} ──► unbounded channel (never blocks)
//!                                                           │
//!  feeder task: one delay line a match (its own copy of the spectator views, shared
//!  Arcs), releases each view when it is `delay` old ──► Slot: latest + ring of frames
//!                                                           │ watch (latest seq)
//!                                                           ▼
//!                                   each client's stream reads the ring (briefly locked)
//! ```
//!
//! The only locks are the slots' own, taken briefly by the feeder and by the clients'
//! streams; the arbiter thread takes none of them.

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use bytes::Bytes;
use tokio::sync::{mpsc, watch};

use super::json;
use crate::Millis;
use crate::arbiter::spectator::SpectatorView;
use crate::rules::{RulesPreset, Team};
use crate::station::MAX_BROADCAST_DELAY_MS;

/// Update frames kept per match for clients that fell a little behind or reconnect
/// (`Last-Event-ID`); further behind, a client is sent a snapshot instead.
pub(crate) const RING: usize = 256;

/// Entries a delay line keeps at most (a guard, as in `station::Views`).
const MAX_LINE: usize = 40_000;

/// The set of matches the server shows, shared with the request handlers.
pub(crate) struct Hub {
    /// This run of the server, in event ids (an id from an earlier run means nothing).
    pub run: u64,
    slots: Mutex<Vec<Arc<Slot>>>,
    /// Bumped when the list of matches, a game or a result changes.
    pub directory: watch::Sender<u64>,
    pub delay_ms: AtomicU64,
    /// Standings given by the event; else they are counted from the games seen.
    standings: Mutex<Option<Vec<Standing>>>,
}

/// One match as the hall sees it.
pub(crate) struct Slot {
    pub id: String,
    state: Mutex<SlotState>,
    /// The latest released frame's sequence number.
    pub notify: watch::Sender<u64>,
}

#[derive(Default)]
pub(crate) struct SlotState {
    pub latest: Option<Released>,
    /// The last [`RING`] update frames, in order.
    pub ring: VecDeque<(u64, Bytes)>,
    /// Every game's last view shown, with its teams' key (for the score and standings).
    pub finals: BTreeMap<u32, Arc<SpectatorView>>,
}

/// What the hall of a match sees now.
#[derive(Clone)]
pub(crate) struct Released {
    pub seq: u64,
    pub game: Arc<GameInfo>,
    pub view: Arc<SpectatorView>,
    pub published_unix_ms: u64,
    /// Team names (team WhiteA, team BlackA) and the match score with this game's result.
    pub teams: [String; 2],
    pub score: [f32; 2],
}

/// One game (one live session) shown in a match.
pub(crate) struct GameInfo {
    pub no: u32,
    /// Match time 0 of the game.
    pub epoch: Instant,
    pub event: String,
    pub site: String,
    pub date: String,
    pub time: Option<String>,
    pub rules: RulesPreset,
    /// The teams' names in an event (White A's, Black A's); else named by their players.
    pub teams: Option<[String; 2]>,
}

/// A team's line in the standings.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Standing {
    pub team: String,
    pub games: u32,
    pub points: f32,
}

/// What the feeder is told.
pub(crate) enum News {
    /// A new game begins in a match (the match is created if new).
    Game { slot: String, game: Arc<GameInfo> },
    /// A view the hall may see, as the arbiter published it.
    View {
        slot: Arc<str>,
        game: u32,
        view: Arc<SpectatorView>,
        published_unix_ms: u64,
    },
    /// The match is no longer shown.
    Retire { slot: String },
}

impl Hub {
    pub fn new(delay_ms: Millis) -> Hub {
        let run = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_secs());
        Hub {
            run,
            slots: Mutex::new(Vec::new()),
            directory: watch::Sender::new(0),
            delay_ms: AtomicU64::new(delay_ms.min(MAX_BROADCAST_DELAY_MS)),
            standings: Mutex::new(None),
        }
    }

    pub fn slots(&self) -> Vec<Arc<Slot>> {
        lock(&self.slots).clone()
    }

    pub fn slot(&self, id: &str) -> Option<Arc<Slot>> {
        lock(&self.slots).iter().find(|s| s.id == id).cloned()
    }

    pub fn delay_ms(&self) -> Millis {
        self.delay_ms.load(Ordering::Relaxed)
    }

    /// New standings; the pages are told only when they changed (the app sets them
    /// every frame).
    pub fn set_standings(&self, rows: Option<Vec<Standing>>) {
        let mut standings = lock(&self.standings);
        if *standings != rows {
            *standings = rows;
            drop(standings);
            self.directory.send_modify(|v| *v += 1);
        }
    }

    /// The event's standings, or the points of every game with a result seen in any
    /// match, by team (a team is its players, whatever board they sit at).
    pub fn standings(&self) -> Vec<Standing> {
        if let Some(rows) = lock(&self.standings).clone() {
            return rows;
        }
        let mut rows: Vec<Standing> = Vec::new();
        for slot in self.slots() {
            let state = slot.state();
            for view in state.finals.values() {
                let Some(result) = &view.result else { continue };
                for (i, team) in [Team::WhiteA, Team::BlackA].into_iter().enumerate() {
                    let name = json::team_name(view, team);
                    let key = team_key(view, team);
                    let points = result.score.get(i).copied().unwrap_or(0.0);
                    match rows.iter_mut().find(|r| team_key_of(&r.team) == key) {
                        Some(r) => {
                            r.games += 1;
                            r.points += points;
                        }
                        None => rows.push(Standing {
                            team: name,
                            games: 1,
                            points,
                        }),
                    }
                }
            }
        }
        rows.sort_by(|a, b| b.points.total_cmp(&a.points).then(a.team.cmp(&b.team)));
        rows
    }
}

impl Slot {
    fn new(id: String) -> Slot {
        Slot {
            id,
            state: Mutex::new(SlotState::default()),
            notify: watch::Sender::new(0),
        }
    }

    /// The slot's state, briefly (never held across an await).
    pub fn state(&self) -> MutexGuard<'_, SlotState> {
        lock(&self.state)
    }

    pub fn latest(&self) -> Option<Released> {
        self.state().latest.clone()
    }
}

impl Released {
    /// Match time of the hall's clocks now: the game's time `delay` ago.
    pub fn hall_ms(&self, delay_ms: Millis) -> Millis {
        let since = self.game.epoch.elapsed().as_millis();
        u64::try_from(since)
            .unwrap_or(u64::MAX)
            .saturating_sub(delay_ms)
    }
}

/// A poisoned lock still holds good data here (a panicking client stream must not take
/// the feed down with it).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A team as the set of its players' names (board and colour may change between games).
fn team_key(view: &SpectatorView, team: Team) -> String {
    team_key_of(&json::team_name(view, team))
}

fn team_key_of(name: &str) -> String {
    let mut names: Vec<String> = name.split(" & ").map(|n| n.trim().to_lowercase()).collect();
    names.sort();
    names.join(" & ")
}

/// One view waiting in a delay line.
struct Entry {
    game: Arc<GameInfo>,
    /// When the hall may see it with no delay (the game's epoch plus the view's time).
    at: Instant,
    view: Arc<SpectatorView>,
    published_unix_ms: u64,
}

/// The delay line of one match.
struct Line {
    slot: Arc<Slot>,
    games: BTreeMap<u32, Arc<GameInfo>>,
    entries: VecDeque<Entry>,
    /// Index in `entries` of what the hall sees.
    shown: Option<usize>,
    seq: u64,
}

/// The feeder: takes the arbiter's views, releases them when they are old enough.
pub(crate) async fn feed(hub: Arc<Hub>, mut news: mpsc::UnboundedReceiver<News>) {
    let mut lines: Vec<Line> = Vec::new();
    loop {
        let wait = next_due(&lines, hub.delay_ms())
            .map_or(Duration::from_millis(250), |d| {
                d.saturating_duration_since(Instant::now())
            })
            // The delay may change at any time: look again a few times a second.
            .min(Duration::from_millis(250));
        tokio::select! {
            n = news.recv() => match n {
                Some(n) => take(&hub, &mut lines, n),
                None => return,
            },
            () = tokio::time::sleep(wait) => {}
        }
        // Everything already queued first, so a burst is released in one go.
        while let Ok(n) = news.try_recv() {
            take(&hub, &mut lines, n);
        }
        let delay = Duration::from_millis(hub.delay_ms());
        let now = Instant::now();
        for line in &mut lines {
            line.release(&hub, now, delay);
        }
    }
}

fn take(hub: &Hub, lines: &mut Vec<Line>, news: News) {
    match news {
        News::Game { slot, game } => {
            if !lines.iter().any(|l| l.slot.id == slot) {
                let s = Arc::new(Slot::new(slot.clone()));
                lock(&hub.slots).push(s.clone());
                lines.push(Line {
                    slot: s,
                    games: BTreeMap::new(),
                    entries: VecDeque::new(),
                    shown: None,
                    seq: 0,
                });
                hub.directory.send_modify(|v| *v += 1);
            }
            if let Some(line) = lines.iter_mut().find(|l| l.slot.id == slot) {
                line.games.insert(game.no, game);
            }
        }
        News::View {
            slot,
            game,
            view,
            published_unix_ms,
        } => {
            let Some(line) = lines.iter_mut().find(|l| *l.slot.id == *slot) else {
                return;
            };
            let Some(info) = line.games.get(&game).cloned() else {
                return;
            };
            // Kept in order even if a clock disagrees (a resumed game's epoch is earlier).
            let at = (info.epoch + Duration::from_millis(view.t_ms))
                .max(line.entries.back().map_or(info.epoch, |e| e.at));
            line.entries.push_back(Entry {
                game: info,
                at,
                view,
                published_unix_ms,
            });
        }
        News::Retire { slot } => {
            lines.retain(|l| l.slot.id != slot);
            lock(&hub.slots).retain(|s| s.id != slot);
            hub.directory.send_modify(|v| *v += 1);
        }
    }
}

/// When the next view falls due in any line.
fn next_due(lines: &[Line], delay_ms: Millis) -> Option<Instant> {
    let delay = Duration::from_millis(delay_ms);
    lines
        .iter()
        .filter_map(|l| {
            let next = l.shown.map_or(0, |i| i + 1);
            l.entries.get(next).map(|e| e.at + delay)
        })
        .min()
}

impl Line {
    /// Releases what the hall may see at `now`: every view that fell due since the last
    /// one shown, in order (each is a change the hall saw); a step back (the delay was
    /// made longer) or a long jump is released as one whole snapshot.
    fn release(&mut self, hub: &Hub, now: Instant, delay: Duration) {
        if self.entries.is_empty() {
            return;
        }
        let cutoff = now.checked_sub(delay);
        let due = cutoff.map_or(0, |c| self.entries.partition_point(|e| e.at <= c));
        // Nothing old enough yet: the oldest view, as the projector shows it.
        let target = due.saturating_sub(1);
        match self.shown {
            Some(shown) if target == shown => {}
            Some(shown) if target > shown && target - shown <= RING => {
                for i in shown + 1..=target {
                    self.publish(hub, i, true);
                }
            }
            _ => self.publish(hub, target, false),
        }
        self.shown = Some(target);
        self.prune(now);
    }

    /// Makes entry `i` what the hall sees; `step`: it follows the one shown before.
    fn publish(&mut self, hub: &Hub, i: usize, step: bool) {
        let Some(entry) = self.entries.get(i) else {
            return;
        };
        // Steps are released in order: the one before is the one shown before.
        let before = if step {
            i.checked_sub(1).and_then(|p| self.entries.get(p))
        } else {
            None
        };
        // A delta only within one game; a new game starts with its whole record.
        let before = before.filter(|b| b.game.no == entry.game.no);
        self.seq += 1;
        let seq = self.seq;
        let delay_ms = hub.delay_ms();
        let mut state = self.slot.state();
        state.finals.insert(entry.game.no, entry.view.clone());
        while state.finals.len() > 1000 {
            state.finals.pop_first();
        }
        let earlier = earlier_points(&state.finals, entry.game.no, &entry.view);
        let current = entry.view.result.as_ref().map_or([0.0, 0.0], |r| r.score);
        let released = Released {
            seq,
            game: entry.game.clone(),
            view: entry.view.clone(),
            published_unix_ms: entry.published_unix_ms,
            teams: entry.game.teams.clone().unwrap_or_else(|| {
                [
                    json::team_name(&entry.view, Team::WhiteA),
                    json::team_name(&entry.view, Team::BlackA),
                ]
            }),
            score: [earlier[0] + current[0], earlier[1] + current[1]],
        };
        let frame = json::frame(
            &self.slot.id,
            hub.run,
            &released,
            before.map(|b| (seq - 1, b.view.as_ref())),
            released.hall_ms(delay_ms),
            delay_ms,
        );
        let news = match &state.latest {
            Some(old) => {
                old.game.no != released.game.no
                    || old.view.result.is_some() != released.view.result.is_some()
            }
            None => true,
        };
        state.ring.push_back((seq, frame));
        while state.ring.len() > RING {
            state.ring.pop_front();
        }
        state.latest = Some(released);
        drop(state);
        self.slot.notify.send_replace(seq);
        if news {
            hub.directory.send_modify(|v| *v += 1);
        }
    }

    /// Forgets views older than the longest delay (keeping the one shown and all after).
    fn prune(&mut self, now: Instant) {
        let oldest = now.checked_sub(Duration::from_millis(MAX_BROADCAST_DELAY_MS));
        while let Some(shown) = self.shown {
            // Views before the one shown, once the one after them is past any delay.
            let too_old =
                shown > 0 && oldest.is_some_and(|o| self.entries.get(1).is_some_and(|e| e.at <= o));
            // The guard: the oldest go, even the one shown (the next release is whole).
            let too_many = self.entries.len() > MAX_LINE;
            if !(too_many || too_old) {
                break;
            }
            self.entries.pop_front();
            self.shown = shown.checked_sub(1);
        }
        // Games no entry refers to any more (games are numbered in order).
        if let Some(first) = self.entries.front().map(|e| e.game.no) {
            self.games.retain(|&no, _| no >= first);
        }
    }
}

/// Points of earlier games of the match between the same teams (team WhiteA, team
/// BlackA of `view`).
fn earlier_points(
    finals: &BTreeMap<u32, Arc<SpectatorView>>,
    game: u32,
    view: &SpectatorView,
) -> [f32; 2] {
    let keys = [team_key(view, Team::WhiteA), team_key(view, Team::BlackA)];
    let mut pts = [0.0, 0.0];
    for v in finals.range(..game).map(|(_, v)| v) {
        let Some(r) = &v.result else { continue };
        let k = [team_key(v, Team::WhiteA), team_key(v, Team::BlackA)];
        if k == keys {
            pts[0] += r.score[0];
            pts[1] += r.score[1];
        } else if k[0] == keys[1] && k[1] == keys[0] {
            pts[0] += r.score[1];
            pts[1] += r.score[0];
        }
    }
    pts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BoardId;
    use crate::arbiter::{Arbiter, ArbiterConfig, Input, TdAction};
    use crate::rules::{EndReason, MatchResult, Seat};

    /// A match played by TD entries; each move a spectator view at its own time.
    struct Play {
        arb: Arbiter,
        last: Option<Arc<SpectatorView>>,
    }

    impl Play {
        fn new(players: [&str; 4]) -> Play {
            let mut config = ArbiterConfig::new(RulesPreset::built_in("uscf-bughouse"));
            config.players = players.map(str::to_owned);
            Play {
                arb: Arbiter::new(config),
                last: None,
            }
        }

        fn action(&mut self, t_ms: Millis, action: TdAction) -> Arc<SpectatorView> {
            self.arb.handle(&Input::Td { t_ms, action });
            let v = Arc::new(SpectatorView::of(&self.arb.view(), self.last.as_deref()));
            self.last = Some(v.clone());
            v
        }

        fn mv(&mut self, t_ms: Millis, board: BoardId, mv: &str) -> Arc<SpectatorView> {
            self.action(
                t_ms,
                TdAction::AddMove {
                    board,
                    mv: mv.into(),
                },
            )
        }
    }

    fn game(no: u32, epoch: Instant) -> Arc<GameInfo> {
        Arc::new(GameInfo {
            no,
            epoch,
            event: "Test".into(),
            site: "?".into(),
            date: "2026.11.21".into(),
            time: None,
            rules: RulesPreset::built_in("uscf-bughouse"),
            teams: None,
        })
    }

    fn view(slot: &str, game: u32, view: Arc<SpectatorView>) -> News {
        News::View {
            slot: Arc::from(slot),
            game,
            view,
            published_unix_ms: 0,
        }
    }

    /// The frames' JSON in the ring, oldest first.
    fn frames(line: &Line) -> Vec<serde_json::Value> {
        line.slot
            .state()
            .ring
            .iter()
            .map(|(_, b)| {
                let text = std::str::from_utf8(b).unwrap();
                let data = text.lines().find_map(|l| l.strip_prefix("data: ")).unwrap();
                serde_json::from_str(data).unwrap()
            })
            .collect()
    }

    #[test]
    fn views_are_released_in_order_after_the_delay_each_a_delta_of_the_one_before() {
        let hub = Hub::new(60_000);
        let mut lines = Vec::new();
        let epoch = Instant::now();
        take(
            &hub,
            &mut lines,
            News::Game {
                slot: "1".into(),
                game: game(1, epoch),
            },
        );
        let mut play = Play::new(["Ada", "Boris", "Chen", "Dana"]);
        let start = Arc::new(SpectatorView::of(&play.arb.view(), None));
        play.last = Some(start.clone());
        take(&hub, &mut lines, view("1", 1, start));
        for (t, board, mv) in [
            (10_000, BoardId::A, "e4"),
            (11_000, BoardId::B, "d4"),
            (12_000, BoardId::A, "e5"),
        ] {
            let v = play.mv(t, board, mv);
            take(&hub, &mut lines, view("1", 1, v));
        }
        let line = &mut lines[0];
        let delay = Duration::from_millis(60_000);
        // At 1:10.5 match time, a minute behind: the hall sees 0:10, the first move.
        line.release(&hub, epoch + Duration::from_millis(70_500), delay);
        let latest = line.slot.latest().unwrap();
        assert_eq!(latest.view.record.len(), 1);
        // Nothing old enough: the oldest view (the start), as the projector shows it.
        let f = frames(line);
        assert_eq!(f.len(), 1, "a first snapshot, then only what fell due");
        assert_eq!(f[0]["prev"], serde_json::Value::Null);
        assert_eq!(f[0]["record"]["plies"].as_array().unwrap().len(), 1);
        // Two seconds later both other moves fell due: two steps, each a delta.
        line.release(&hub, epoch + Duration::from_millis(72_500), delay);
        let f = frames(line);
        assert_eq!(f.len(), 3);
        assert_eq!(f[1]["prev"], f[0]["seq"]);
        assert_eq!(f[1]["record"]["from"], 1);
        assert_eq!(f[1]["record"]["plies"][0]["san"], "d4");
        assert_eq!(f[2]["record"]["from"], 2);
        assert_eq!(f[2]["record"]["plies"][0]["san"], "e5");
        assert_eq!(f[2]["view"]["boards"][0]["last_move"]["to"], "e5");
        // No alert, no sensor detail in what the hall is sent.
        assert!(f[2]["view"].get("alerts").is_none());
        assert!(f[2]["view"]["boards"][0].get("sensed").is_none());
        // The delay made longer: the hall steps back, with a whole snapshot.
        line.release(
            &hub,
            epoch + Duration::from_millis(72_500),
            Duration::from_millis(61_500),
        );
        let f = frames(line);
        assert_eq!(f.len(), 4);
        assert_eq!(f[3]["prev"], serde_json::Value::Null);
        assert_eq!(f[3]["record"]["from"], 0);
        assert_eq!(f[3]["record"]["plies"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn the_next_game_starts_whole_and_the_score_and_standings_count_the_last() {
        let hub = Hub::new(0);
        let mut lines = Vec::new();
        let epoch = Instant::now();
        take(
            &hub,
            &mut lines,
            News::Game {
                slot: "1".into(),
                game: game(1, epoch),
            },
        );
        let mut first = Play::new(["Ada", "Boris", "Chen", "Dana"]);
        let v = first.mv(1000, BoardId::A, "e4");
        take(&hub, &mut lines, view("1", 1, v));
        let seat = Seat::new(BoardId::A, shakmaty::Color::Black);
        let v = first.action(
            2000,
            TdAction::DeclareResult {
                result: MatchResult {
                    winner: Some(Team::WhiteA),
                    reason: EndReason::Resignation { seat },
                    t_ms: None,
                },
            },
        );
        take(&hub, &mut lines, view("1", 1, v));
        let now = epoch + Duration::from_secs(5);
        lines[0].release(&hub, now, Duration::ZERO);
        assert_eq!(lines[0].slot.latest().unwrap().score, [1.0, 0.0]);
        // The next game, the teams at the other colours (Boris now White on board A).
        take(
            &hub,
            &mut lines,
            News::Game {
                slot: "1".into(),
                game: game(2, epoch + Duration::from_secs(6)),
            },
        );
        let mut second = Play::new(["Boris", "Ada", "Dana", "Chen"]);
        let v = second.mv(500, BoardId::A, "d4");
        take(&hub, &mut lines, view("1", 2, v));
        lines[0].release(&hub, epoch + Duration::from_secs(7), Duration::ZERO);
        let latest = lines[0].slot.latest().unwrap();
        assert_eq!(latest.game.no, 2);
        assert_eq!(latest.teams, ["Boris & Chen", "Ada & Dana"]);
        assert_eq!(latest.score, [0.0, 1.0], "Ada & Dana won the game before");
        let f = frames(&lines[0]);
        let last = f.last().unwrap();
        assert_eq!(last["game"], 2);
        assert_eq!(last["prev"], serde_json::Value::Null, "a new game is whole");
        assert_eq!(last["record"]["plies"][0]["san"], "d4");
        let standings = hub.standings();
        assert_eq!(
            standings,
            [
                Standing {
                    team: "Ada & Dana".into(),
                    games: 1,
                    points: 1.0
                },
                Standing {
                    team: "Boris & Chen".into(),
                    games: 1,
                    points: 0.0
                },
            ]
        );
    }
}
