//! The feeds' JSON and text, as the README documents them (stable interfaces).
//!
//! A **view message** is what the hall of a match sees at one moment:
//!
//! ```json
//! {"match":"1","seq":57,"prev":56,"game":3,"event":"Club night",
//!  "published_unix_ms":1763900000000,"hall_ms":123456,"delay_s":0,
//!  "teams":["Ada & Dana","Boris & Chen"],"score":[1.0,0.5],
//!  "view":{ SpectatorView without its record },
//!  "record":{"from":40,"plies":[ ...the plies from index 40 on... ]}}
//! ```
//!
//! `prev` is the `seq` it follows (`null`: a whole snapshot, `record.from` is 0). A client
//! keeps the record: it cuts it to `from` plies and appends `plies`.

use bytes::Bytes;
use serde::Serialize;
use shakmaty::Color;

use super::hub::{Hub, Released, Standing};
use crate::BoardId;
use crate::Millis;
use crate::arbiter::spectator::{PublicBoard, PublicPly, PublicResult, SpectatorView};
use crate::notation::bpgn::{BpgnHeader, FeedEnd, FeedPly, write_bpgn_feed, write_pgn_clk};
use crate::rules::{Seat, Team, TimeControl};

/// The spectator view without its move list (sent apart, as a delta).
#[derive(Serialize)]
struct Head<'a> {
    t_ms: Millis,
    rules_name: &'a str,
    rules_title: &'a str,
    bughouse: bool,
    time_control: &'a TimeControl,
    players: &'a [String; 4],
    boards: &'a [PublicBoard],
    result: Option<&'a PublicResult>,
}

#[derive(Serialize)]
struct RecordPart<'a> {
    from: usize,
    plies: &'a [PublicPly],
}

#[derive(Serialize)]
struct Message<'a> {
    #[serde(rename = "match")]
    id: &'a str,
    seq: u64,
    prev: Option<u64>,
    game: u32,
    event: &'a str,
    published_unix_ms: u64,
    hall_ms: Millis,
    delay_s: f64,
    teams: &'a [String; 2],
    score: [f32; 2],
    view: Head<'a>,
    record: RecordPart<'a>,
}

/// A view message as JSON; `before` (its seq and view) makes it a delta of the record.
pub(crate) fn message(
    id: &str,
    r: &Released,
    before: Option<(u64, &SpectatorView)>,
    hall_ms: Millis,
    delay_ms: Millis,
) -> String {
    let v = &r.view;
    let from = before.map_or(0, |(_, b)| {
        if std::sync::Arc::ptr_eq(&b.record, &v.record) {
            v.record.len()
        } else {
            b.record
                .iter()
                .zip(v.record.iter())
                .take_while(|(x, y)| x == y)
                .count()
        }
    });
    let m = Message {
        id,
        seq: r.seq,
        prev: before.map(|(s, _)| s),
        game: r.game.no,
        event: &r.game.event,
        published_unix_ms: r.published_unix_ms,
        hall_ms,
        delay_s: delay_ms as f64 / 1000.0,
        teams: &r.teams,
        score: r.score,
        view: Head {
            t_ms: v.t_ms,
            rules_name: &v.rules_name,
            rules_title: &v.rules_title,
            bughouse: v.bughouse,
            time_control: &v.time_control,
            players: &v.players,
            boards: &v.boards,
            result: v.result.as_ref(),
        },
        record: RecordPart {
            from,
            plies: v.record.get(from..).unwrap_or_default(),
        },
    };
    serde_json::to_string(&m).unwrap_or_default()
}

/// A view message as a server-sent event (`id: <run>-<seq>`, `event: view`).
pub(crate) fn frame(
    id: &str,
    run: u64,
    r: &Released,
    before: Option<(u64, &SpectatorView)>,
    hall_ms: Millis,
    delay_ms: Millis,
) -> Bytes {
    sse(
        Some(&event_id(run, r.seq)),
        "view",
        &message(id, r, before, hall_ms, delay_ms),
    )
}

pub(crate) fn event_id(run: u64, seq: u64) -> String {
    format!("{run}-{seq}")
}

/// `<run>-<seq>` back to the seq, if it is of this run.
pub(crate) fn parse_event_id(run: u64, text: &str) -> Option<u64> {
    let (r, s) = text.trim().split_once('-')?;
    (r.parse::<u64>().ok()? == run)
        .then(|| s.parse().ok())
        .flatten()
}

/// One server-sent event (data on one line: JSON has no raw newlines).
pub(crate) fn sse(id: Option<&str>, event: &str, data: &str) -> Bytes {
    let mut s = String::with_capacity(data.len() + 64);
    if let Some(id) = id {
        s.push_str("id: ");
        s.push_str(id);
        s.push('\n');
    }
    s.push_str("event: ");
    s.push_str(event);
    s.push_str("\ndata: ");
    s.push_str(data);
    s.push_str("\n\n");
    Bytes::from(s)
}

/// The player's name, or the seat (`White A`) when none was given.
pub(crate) fn player_name(view: &SpectatorView, seat: Seat) -> String {
    let name = view.player(seat).trim();
    if name.is_empty() || name == "?" {
        let color = if seat.color == Color::White {
            "White"
        } else {
            "Black"
        };
        format!("{color} {}", seat.board)
    } else {
        name.to_owned()
    }
}

/// `Ada & Dana`: a team's players, board A first (on a single board, the player).
pub(crate) fn team_name(view: &SpectatorView, team: Team) -> String {
    let [a, b] = team.seats();
    if view.boards.len() < 2 {
        return player_name(view, a);
    }
    format!("{} & {}", player_name(view, a), player_name(view, b))
}

#[derive(Serialize)]
struct MatchEntry<'a> {
    id: &'a str,
    event: &'a str,
    game: u32,
    rules_title: &'a str,
    bughouse: bool,
    teams: &'a [String; 2],
    score: [f32; 2],
    plies: usize,
    result: Option<&'a PublicResult>,
}

#[derive(Serialize)]
struct Directory<'a> {
    matches: Vec<MatchEntry<'a>>,
    standings: Vec<Standing>,
    delay_s: f64,
}

/// `/api/matches`: every match shown, and the standings.
pub(crate) fn directory(hub: &Hub) -> String {
    let latest: Vec<(String, Released)> = hub
        .slots()
        .iter()
        .filter_map(|s| s.latest().map(|r| (s.id.clone(), r)))
        .collect();
    let d = Directory {
        matches: latest
            .iter()
            .map(|(id, r)| MatchEntry {
                id,
                event: &r.game.event,
                game: r.game.no,
                rules_title: &r.view.rules_title,
                bughouse: r.view.bughouse,
                teams: &r.teams,
                score: r.score,
                plies: r.view.record.len(),
                result: r.view.result.as_ref(),
            })
            .collect(),
        standings: hub.standings(),
        delay_s: hub.delay_ms() as f64 / 1000.0,
    };
    serde_json::to_string(&d).unwrap_or_default()
}

/// `event: ping`: the hall's clock time now, so that a client's clocks stay right.
pub(crate) fn ping(r: Option<&Released>, delay_ms: Millis) -> Bytes {
    let data = match r {
        Some(r) => format!(
            "{{\"game\":{},\"hall_ms\":{}}}",
            r.game.no,
            r.hall_ms(delay_ms)
        ),
        None => "{}".to_owned(),
    };
    sse(None, "ping", &data)
}

fn header(r: &Released) -> BpgnHeader {
    let mut h = BpgnHeader {
        event: r.game.event.clone(),
        site: r.game.site.clone(),
        date: r.game.date.clone(),
        time: r.game.time.clone(),
        ..BpgnHeader::default()
    };
    for seat in Seat::ALL {
        h.set_player(seat, r.view.player(seat));
    }
    h
}

fn feed_plies(view: &SpectatorView) -> Vec<FeedPly<'_>> {
    view.record
        .iter()
        .map(|p| FeedPly {
            seat: Seat::new(p.board, p.color),
            number: p.number,
            san: &p.san,
            clock_ms: p.clock_ms,
        })
        .collect()
}

fn feed_end(view: &SpectatorView) -> Option<FeedEnd<'_>> {
    view.result.as_ref().map(|r| FeedEnd {
        token: r.token,
        text: &r.text,
    })
}

/// The match's BPGN as the hall may read it.
pub(crate) fn bpgn(r: &Released) -> String {
    write_bpgn_feed(
        &header(r),
        &r.game.rules,
        &feed_plies(&r.view),
        feed_end(&r.view),
    )
}

/// A single board's PGN with `[%clk]` clocks; `None` for a bughouse match.
pub(crate) fn pgn(r: &Released) -> Option<String> {
    if r.view.bughouse || r.view.boards.iter().any(|b| b.id != BoardId::A) {
        return None;
    }
    Some(write_pgn_clk(
        &header(r),
        &r.game.rules,
        &feed_plies(&r.view),
        feed_end(&r.view),
    ))
}
