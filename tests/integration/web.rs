//! The spectators' web server on a live station (virtual boards on pseudo-terminals, the
//! production workers and arbiter thread): the feeds follow the match as the hall may see
//! it, read-only; and hostile clients do not stall the station or the other clients.

#![allow(clippy::unwrap_used)] // tests may unwrap

use std::io::{Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use shakmaty::{Color, Piece, Role, Square};
use tandem::BoardId;
use tandem::arbiter::ArbiterConfig;
use tandem::rules::RulesPreset;
use tandem::sim::emulator::PhysicalAction;
use tandem::sim::virtual_board::VirtualBoardHandle;
use tandem::station::Session;
use tandem::station::demo::DemoBoards;
use tandem::web::{FIRST_MATCH, Limits, WebServer};

use crate::common::http::{self, Sse};
use crate::common::live::{demo_session, header, temp_dir};

/// A live match on two virtual boards (pieces set up, both linked), shown by a web server
/// on a free loopback port.
fn station(name: &str, limits: Limits) -> (DemoBoards, Session, WebServer, SocketAddr) {
    let dir = temp_dir(name);
    let mut config = ArbiterConfig::new(RulesPreset::built_in("uscf-bughouse"));
    config.players = ["Ada", "Boris", "Chen", "Dana"].map(str::to_owned);
    let (boards, session) = demo_session(&dir, 5, header(config, "Web test"));
    for b in BoardId::BOTH {
        boards.handle(b).unwrap().act(PhysicalAction::SetUpStart);
    }
    let web = WebServer::start_with("127.0.0.1:0".parse().unwrap(), 0, limits).unwrap();
    web.show(FIRST_MATCH, &session);
    let addr = web.addr();
    wait(10, "both boards linked and set up", || {
        session
            .view()
            .boards
            .iter()
            .all(|b| b.link.connected && b.started)
    });
    (boards, session, web, addr)
}

fn wait(secs: u64, what: &str, done: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A move by hand: the piece lifted, set down, the clock pressed.
fn play(board: &VirtualBoardHandle, from: Square, to: Square, piece: Piece) {
    board.act(PhysicalAction::Lift { square: from });
    std::thread::sleep(Duration::from_millis(300));
    board.act(PhysicalAction::Place { square: to, piece });
    std::thread::sleep(Duration::from_millis(400));
    board.act(PhysicalAction::PressClock { by: piece.color });
    std::thread::sleep(Duration::from_millis(300));
}

fn piece(color: Color, role: Role) -> Piece {
    Piece { color, role }
}

/// The view events until one whose record holds `plies` plies, all read and in order.
fn views_until(sse: &mut Sse, plies: usize, secs: u64) -> Vec<serde_json::Value> {
    let deadline = Instant::now() + Duration::from_secs(secs);
    let mut seen = Vec::new();
    let mut record = 0;
    while Instant::now() < deadline {
        let Some(e) = sse.next_view(Duration::from_millis(500)) else {
            continue;
        };
        let m = e.json();
        record = m["record"]["from"].as_u64().unwrap() as usize
            + m["record"]["plies"].as_array().unwrap().len();
        seen.push(m);
        if record >= plies {
            return seen;
        }
    }
    panic!("the stream never showed {plies} plies (last: {record})");
}

#[test]
fn the_feeds_follow_the_match_as_the_hall_may_see_it_and_nothing_can_be_done_from_the_web() {
    let (boards, session, web, addr) = station("web-feeds", Limits::default());
    let a = boards.handle(BoardId::A).unwrap();

    // The list of matches, then the match itself. A match is listed once the web's feed
    // has taken its first view from the arbiter thread.
    wait(5, "the match listed", || {
        http::get(addr, "/api/matches").json()["matches"][0]["id"] == "1"
    });
    let list = http::get(addr, "/api/matches").json();
    assert_eq!(list["matches"][0]["id"], "1");
    assert_eq!(list["matches"][0]["teams"][0], "Ada & Dana");
    assert_eq!(list["matches"][0]["teams"][1], "Boris & Chen");
    let page = http::get(addr, "/");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("/app.js"), "{}", page.body);
    assert!(page.header("content-security-policy").is_some());
    assert_eq!(http::get(addr, "/pieces/wq.svg").status, 200);

    // The push stream: the list, then a whole snapshot.
    let mut sse = Sse::open(addr, "/api/matches/1/events", None);
    let first = sse.next(Duration::from_secs(5)).unwrap();
    assert_eq!(first.event, "matches");
    let snap = sse.next_view(Duration::from_secs(5)).unwrap();
    let s = snap.json();
    assert_eq!(s["prev"], serde_json::Value::Null);
    assert_eq!(s["record"]["from"], 0);
    assert_eq!(s["view"]["players"][0], "Ada");

    // e4 e5, then White's bishop moves like a rook: an illegal move nobody has claimed.
    a.act(PhysicalAction::PressClock { by: Color::Black });
    std::thread::sleep(Duration::from_millis(700));
    play(a, Square::E2, Square::E4, piece(Color::White, Role::Pawn));
    play(a, Square::E7, Square::E5, piece(Color::Black, Role::Pawn));
    play(a, Square::F1, Square::F3, piece(Color::White, Role::Bishop));
    let views = views_until(&mut sse, 3, 15);
    // Every step follows the one before; the record is sent as it grows.
    let mut seq = s["seq"].as_u64().unwrap();
    for m in &views {
        assert_eq!(m["prev"].as_u64(), Some(seq), "{m}");
        seq = m["seq"].as_u64().unwrap();
    }
    let td = session.view();
    assert_eq!(td.record[2].san, "Bf1f3", "the TD sees the illegal move");
    assert!(td.record[2].illegal.is_some());
    let now = http::get(addr, "/api/matches/1");
    assert_eq!(now.status, 200);
    let m = now.json();
    let sans: Vec<&str> = m["record"]["plies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["san"].as_str().unwrap())
        .collect();
    assert_eq!(
        sans,
        ["e4", "e5", "Bf3"],
        "spelled like any move for the hall"
    );
    assert!(!now.body.contains("f1f3") && !now.body.to_lowercase().contains("illegal"));
    assert!(!now.body.contains("alerts") && !now.body.contains("sensed"));
    // The BPGN feed too (the station's own match.bpgn says it, for the TD).
    let bpgn = http::get(addr, "/api/matches/1/bpgn");
    assert_eq!(bpgn.status, 200);
    assert!(bpgn.body.contains("1A. e4{"), "{}", bpgn.body);
    assert!(bpgn.body.contains("2A. Bf3{"), "{}", bpgn.body);
    assert!(!bpgn.body.contains("Illegal"), "{}", bpgn.body);
    assert!(session.bpgn().contains("Illegal"), "{}", session.bpgn());
    // A bughouse match has no single-board PGN.
    assert_eq!(http::get(addr, "/api/matches/1/pgn").status, 404);
    // Polling with the ETag costs nothing while nothing changed.
    let tag = bpgn.header("etag").unwrap().to_owned();
    let again = http::raw(
        addr,
        format!(
            "GET /api/matches/1/bpgn HTTP/1.1\r\nHost: t\r\nIf-None-Match: {tag}\r\nConnection: close\r\n\r\n"
        )
        .as_bytes(),
    )
    .unwrap();
    assert!(
        again.status == 304 || again.header("etag") != Some(tag.as_str()),
        "{again:?}"
    );

    // A client back from a Wi-Fi drop with its last event id catches up step by step.
    let back_from = views[0]["seq"].as_u64().unwrap();
    let id = format!(
        "{}-{back_from}",
        snap.id.as_deref().unwrap().split('-').next().unwrap()
    );
    let mut back = Sse::open(addr, "/api/matches/1/events", Some(&id));
    let caught = back.next_view(Duration::from_secs(5)).unwrap().json();
    assert_eq!(caught["prev"].as_u64(), Some(back_from), "{caught}");
    // An id of another run of the server: a whole snapshot.
    let mut stranger = Sse::open(addr, "/api/matches/1/events", Some("1-5"));
    let whole = stranger.next_view(Duration::from_secs(5)).unwrap().json();
    assert_eq!(whole["prev"], serde_json::Value::Null);
    assert_eq!(whole["record"]["plies"].as_array().unwrap().len(), 3);

    // Several matches (the event's case): each its own id, listed with the standings.
    web.show("2", &session);
    wait(5, "a second match listed", || {
        http::get(addr, "/api/matches").json()["matches"]
            .as_array()
            .is_some_and(|m| m.len() == 2)
    });
    wait(5, "the second match shown", || {
        http::get(addr, "/api/matches/2").status == 200
    });
    let list = http::get(addr, "/api/matches").json();
    assert_eq!(list["matches"][1]["id"], "2");
    assert!(list["standings"].is_array());
    let mut second = Sse::open(addr, "/api/matches/2/events", None);
    assert_eq!(
        second.next_view(Duration::from_secs(5)).unwrap().json()["match"],
        "2"
    );
    web.retire("2");
    wait(5, "the second match gone", || {
        http::get(addr, "/api/matches/2").status == 404
    });

    // Read-only: no other method, no body, no file.
    for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"] {
        for path in ["/", "/api/matches/1", "/api/matches/1/events"] {
            let r = http::request(addr, method, path);
            assert_eq!(r.status, 405, "{method} {path}");
            assert_eq!(r.header("allow"), Some("GET, HEAD"));
        }
    }
    let with_body = http::raw(
        addr,
        b"GET /api/matches HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhello",
    )
    .unwrap();
    assert_eq!(with_body.status, 413);
    let head = http::request(addr, "HEAD", "/api/matches/1");
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());
    for path in [
        "/api/matches/1/journal",
        "/api/matches/1/../../match.journal",
        "/match.journal",
        "/etc/passwd",
        "/../Cargo.toml",
        "/api/matches/2",
        "/api/matches/a%2Fb",
    ] {
        assert_eq!(http::get(addr, path).status, 404, "{path}");
    }
    let dir = session.dir().to_path_buf();
    assert!(
        !http::get(addr, "/api/matches/1")
            .body
            .contains(&dir.display().to_string()),
        "no file path reaches the web"
    );
    web.stop();
    session.stop(true);
}

/// Half-open connections, huge headers, malformed requests, a slow sender, clients that
/// never read and a full house: the station keeps judging moves and a good client keeps
/// getting every update.
#[test]
fn hostile_clients_do_not_stall_the_station_or_the_other_clients() {
    let limits = Limits {
        max_connections: 60,
        header_timeout: Duration::from_secs(1),
        idle_timeout: Duration::from_secs(3),
        ..Limits::default()
    };
    let (boards, session, web, addr) = station("web-hostile", limits);
    let rules = RulesPreset::built_in("uscf-bughouse");
    let mut hands = boards.play(rules, 3, 40);
    let mut good = Sse::open(addr, "/api/matches/1/events", None);
    let first = good.next_view(Duration::from_secs(5)).unwrap().json();
    let mut seq = first["seq"].as_u64().unwrap();

    // Half-open: connected, nothing sent.
    let silent: Vec<TcpStream> = (0..10).map(|_| TcpStream::connect(addr).unwrap()).collect();
    // Clients that open the stream and never read a byte of it.
    let deaf: Vec<TcpStream> = (0..10)
        .map(|_| {
            let mut s = TcpStream::connect(addr).unwrap();
            s.write_all(b"GET /api/matches/1/events HTTP/1.1\r\nHost: t\r\n\r\n")
                .unwrap();
            s
        })
        .collect();
    // Huge headers: refused with 431, the connection closed.
    let huge = format!(
        "GET / HTTP/1.1\r\nHost: t\r\nX-Junk: {}\r\n\r\n",
        "a".repeat(64 * 1024)
    );
    let r = http::raw(addr, huge.as_bytes());
    assert!(
        r.as_ref().map_or(true, |a| a.status == 431),
        "huge headers: {r:?}"
    );
    let many: String = (0..200).map(|i| format!("X-H{i}: v\r\n")).collect();
    let r = http::raw(
        addr,
        format!("GET / HTTP/1.1\r\nHost: t\r\n{many}\r\n").as_bytes(),
    );
    assert!(r.as_ref().map_or(true, |a| a.status == 431), "{r:?}");
    // Malformed requests: 400 (or closed), never an answer with content.
    for junk in [
        &b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage\r\n\r\n"[..],
        b"GET\r\n\r\n",
        b"HELLO WORLD\r\n\r\n",
        b"GET / HTTP/9.9\r\n\r\n",
        b"GET /api/matches HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    ] {
        if let Ok(a) = http::raw(addr, junk) {
            assert!(a.status >= 400, "{junk:?}: {a:?}");
        }
    }
    // A slow sender: a byte every quarter second never finishes its headers in time.
    let mut slow = TcpStream::connect(addr).unwrap();
    slow.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    for b in b"GET / HTTP/1.1\r\nHost: slow\r\n" {
        if slow.write_all(&[*b]).is_err() {
            break;
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    let mut rest = Vec::new();
    match slow.read_to_end(&mut rest) {
        Ok(_) => assert!(rest.is_empty() || rest.starts_with(b"HTTP/1.1 408")),
        Err(e) => assert!(
            !matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ),
            "the slow sender kept its connection: {e}"
        ),
    }

    // A full house: past the cap, a short 503 (the silent ones are let go soon).
    let crowd: Vec<TcpStream> = (0..60)
        .filter_map(|_| TcpStream::connect(addr).ok())
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let refused = http::get(addr, "/api/matches");
    assert!(
        refused.status == 503 || refused.status == 200,
        "{refused:?}"
    );
    let saw_busy = refused.status == 503;
    drop(crowd);

    // Meanwhile the good client got every update in order, and the station played on.
    let plies_before = session.view().record.len();
    let deadline = Instant::now() + Duration::from_secs(12);
    let mut updates = 0;
    while Instant::now() < deadline {
        if let Some(e) = good.next_view(Duration::from_millis(500)) {
            let m = e.json();
            assert_eq!(m["prev"].as_u64(), Some(seq), "an update was lost: {m}");
            seq = m["seq"].as_u64().unwrap();
            updates += 1;
        }
    }
    let plies_after = session.view().record.len();
    assert!(
        plies_after > plies_before,
        "the station stopped judging moves"
    );
    assert!(updates > 5, "only {updates} updates");
    assert!(saw_busy, "the connection cap was never reached");
    // The half-open and never-reading connections have been closed by now.
    for mut s in silent {
        s.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
        let mut buf = [0u8; 64];
        assert!(
            matches!(s.read(&mut buf), Ok(0) | Err(_)),
            "a half-open connection was kept"
        );
    }
    // Past the cap again, the server answers as before.
    assert_eq!(http::get(addr, "/api/matches").status, 200);
    drop(deaf);
    hands.stop();
    web.stop();
    session.stop(true);
}

/// The app with `--web`: its live match on the page, with the projector's delay, and the
/// address with its QR code in the top bar.
#[test]
fn the_app_serves_its_live_match_with_the_projectors_delay_and_shows_the_address() {
    use egui_kittest::Harness;
    use egui_kittest::kittest::{NodeT as _, Queryable as _};
    use tandem::ui::{Options, TandemApp};

    let dir = temp_dir("web-app");
    let mut config = ArbiterConfig::new(RulesPreset::built_in("uscf-bughouse"));
    config.players = ["Ada", "Boris", "Chen", "Dana"].map(str::to_owned);
    let (_boards, session) = demo_session(&dir, 5, header(config, "Web app test"));
    let opts = Options {
        data_dir: dir.clone(),
        web: Some("127.0.0.1:0".parse().unwrap()),
        delay_s: 0,
        ..Options::default()
    };
    let mut h = Harness::builder()
        .with_size([1600.0, 900.0])
        .build_eframe(move |cc| TandemApp::with_source(&cc.egui_ctx, Box::new(session), opts));
    h.step();
    let label = h
        .get_by_label_contains("Web: http://127.0.0.1:")
        .accesskit_node()
        .label()
        .unwrap();
    let url = label.trim_start_matches("Web: ").to_owned();
    let addr: SocketAddr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .unwrap();
    // The page shows the app's match.
    wait(10, "the app's match on the web", || {
        http::get(addr, "/api/matches").json()["matches"][0]["teams"][0] == "Ada & Dana"
    });
    // The projector's broadcast delay is the page's.
    h.state_mut().projector.delay_s = 30;
    h.step();
    assert_eq!(http::get(addr, "/api/matches").json()["delay_s"], 30.0);
    // A click on the address: the address in large type, and its QR code.
    h.get_by_label(&label).click();
    h.run();
    h.get_by_label("Spectators' page");
    assert!(h.query_all_by_label(&url).count() >= 1);
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_evening_on_the_web_lists_every_live_match_and_the_standings() {
    use std::io::BufRead as _;
    use std::process::{Command, Stdio};

    let dir = temp_dir("web-evening");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tandem"))
        .args([
            "event",
            "run",
            "--demo",
            "--teams",
            "4",
            "--web",
            "127.0.0.1:0",
        ])
        .args(["--seconds", "90", "--data-dir"])
        .arg(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<serde_json::Value>();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if let Ok(v) = serde_json::from_str(&line) {
                let _ = tx.send(v);
            }
        }
    });
    let web = loop {
        let v = rx.recv_timeout(Duration::from_secs(30)).unwrap();
        if v["event"] == "web" {
            break v;
        }
    };
    let addr: SocketAddr = web["addr"].as_str().unwrap().parse().unwrap();
    // Four teams: two matches of round 1 at once, each under its pairing's id.
    let end = Instant::now() + Duration::from_secs(40);
    let listing = loop {
        let list = http::get(addr, "/api/matches").json();
        let ids: Vec<String> = list["matches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["id"].as_str().unwrap().to_owned())
            .collect();
        if ids.len() == 2 || Instant::now() > end {
            break (ids, list);
        }
        std::thread::sleep(Duration::from_millis(300));
    };
    let (mut ids, list) = listing;
    ids.sort();
    assert_eq!(ids, ["1.1", "1.2"], "{list}");
    let standings = list["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 4, "every team in the standings: {list}");
    // A match is named by its teams' names, as the standings name them.
    let team_names: Vec<&str> = standings
        .iter()
        .map(|s| s["team"].as_str().unwrap())
        .collect();
    for m in list["matches"].as_array().unwrap() {
        for t in m["teams"].as_array().unwrap() {
            assert!(team_names.contains(&t.as_str().unwrap()), "{t} in {list}");
        }
    }
    // Each match's own feed follows its own boards.
    for id in &ids {
        let m = http::get(addr, &format!("/api/matches/{id}")).json();
        assert_eq!(m["match"], id.as_str(), "{m}");
        assert_eq!(m["view"]["boards"].as_array().unwrap().len(), 2, "{m}");
    }
    child.kill().ok();
    child.wait().ok();
    std::fs::remove_dir_all(&dir).ok();
}
