//! The spectator page in a real browser: headless Chromium opens it from `tandem station
//! --web` running on two virtual boards (pseudo-terminals, found by serial number like
//! USB boards), a move played on a board appears in the page within two seconds, the page
//! catches up after the network was away, and a screenshot shows both boards.
//!
//! Chromium is found on PATH or installed with apt-get (`.ci/run` installs it for CI).
//! Where it cannot be had the test says so loudly and stops; under CI it fails instead.

#![allow(clippy::unwrap_used)] // tests may unwrap

use std::io::BufRead as _;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use shakmaty::{Color, Piece, Role, Square};
use tandem::BoardId;
use tandem::sim::emulator::PhysicalAction;
use tandem::sim::virtual_board::VirtualBoardHandle;
use tandem::station::demo::DemoBoards;

use crate::common::browser::{self, Browser};
use crate::common::live::temp_dir;
use crate::common::proxy::Wifi;

/// The station, killed when dropped.
struct Station(Child);

impl Drop for Station {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn play(board: &VirtualBoardHandle, from: Square, to: Square, piece: Piece) -> Instant {
    board.act(PhysicalAction::Lift { square: from });
    std::thread::sleep(Duration::from_millis(300));
    board.act(PhysicalAction::Place { square: to, piece });
    std::thread::sleep(Duration::from_millis(400));
    board.act(PhysicalAction::PressClock { by: piece.color });
    Instant::now()
}

/// Share of a region's pixels in the light squares' colour (#f0d9b5).
fn light_share(img: &image::RgbaImage, x0: u32, x1: u32) -> f64 {
    let mut light = 0u64;
    let mut all = 0u64;
    for y in 0..img.height() {
        for x in x0..x1.min(img.width()) {
            let p = img.get_pixel(x, y).0;
            all += 1;
            if p[0].abs_diff(240) < 6 && p[1].abs_diff(217) < 6 && p[2].abs_diff(181) < 6 {
                light += 1;
            }
        }
    }
    light as f64 / all.max(1) as f64
}

#[test]
fn a_move_on_a_virtual_board_reaches_the_page_in_a_real_browser_within_two_seconds() {
    let exe = match browser::chromium() {
        Ok(p) => p,
        Err(why) => {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI must run the browser test, but there is no Chromium: {why}"
            );
            eprintln!(
                "\n{0}\n!!! SKIPPED: the web page's browser test did not run: {why}\n!!! \
                 (install Debian's chromium, or set TANDEM_CHROMIUM to a Chromium)\n{0}\n",
                "!".repeat(78)
            );
            return;
        }
    };
    let dir = temp_dir("web-browser");
    let registry = dir.join("registry");
    let boards = DemoBoards::spawn(Some(registry.clone()), 9).unwrap();
    for b in BoardId::BOTH {
        boards.handle(b).unwrap().act(PhysicalAction::SetUpStart);
    }
    let serial = |b: BoardId| boards.handle(b).unwrap().serial().to_owned();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tandem"))
        // The players set and start the clocks, as before Tandem drove them.
        .args([
            "station",
            "--profile",
            "virtual",
            "--web",
            "127.0.0.1:0",
            "--clocks",
            "read",
        ])
        .args([
            "--board-a",
            &serial(BoardId::A),
            "--board-b",
            &serial(BoardId::B),
        ])
        .arg("--data-dir")
        .arg(&dir)
        .args(["--seconds", "180"])
        .env("TANDEM_RUNTIME_DIR", &registry)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    // Its output is read all along (a full pipe would hold the station up).
    let stdout = child.stdout.take().unwrap();
    let station = Station(child);
    let (tx, rx) = mpsc::channel::<serde_json::Value>();
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
    let web = rx.recv_timeout(Duration::from_secs(20)).unwrap();
    assert_eq!(web["event"], "web", "{web}");
    let url = web["urls"][0].as_str().unwrap().to_owned();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    // The browser reaches the station through the hall's Wi-Fi (a relay that can drop).
    let upstream: std::net::SocketAddr = web["addr"].as_str().unwrap().parse().unwrap();
    let wifi = Wifi::to(upstream);
    let url = format!("http://{}/", wifi.addr());

    let browser = Browser::launch(&exe, &url, 1366, 860).unwrap();
    let mut page = browser.page().unwrap();
    page.resize(1366, 860, false).unwrap();
    page.wait_for(
        "document.querySelectorAll('.board .sq').length === 128 \
         && document.querySelectorAll('#col-A .piece').length === 32 \
         && document.querySelectorAll('#col-B .piece').length === 32 \
         && document.getElementById('status').textContent === 'live'",
        Duration::from_secs(30),
    )
    .unwrap();
    // Board A with White at the bottom, board B with Black at the bottom, as they sit.
    let corners = page
        .eval(
            "[...document.querySelectorAll('#col-A .sq')].at(-8).dataset.square + ' ' + \
             [...document.querySelectorAll('#col-B .sq')].at(-8).dataset.square + ' ' + \
             document.querySelector('#col-A [data-square=a1]').className",
        )
        .unwrap();
    assert_eq!(corners, "a1 h8 sq dark");

    // White plays e4 on board A, by hand; from the clock press to the page.
    let a = boards.handle(BoardId::A).unwrap();
    a.act(PhysicalAction::PressClock { by: Color::Black });
    std::thread::sleep(Duration::from_millis(700));
    let pawn = |color| Piece {
        color,
        role: Role::Pawn,
    };
    let pressed = play(a, Square::E2, Square::E4, pawn(Color::White));
    page.wait_for(
        "document.querySelector('#col-A .moves').textContent.includes('1. e4') \
         && document.querySelector('#col-A [data-square=e4] .piece')?.alt === 'white pawn' \
         && !document.querySelector('#col-A [data-square=e2] .piece')",
        Duration::from_secs(5),
    )
    .unwrap();
    let took = pressed.elapsed();
    eprintln!("e4: from the clock press to the page in {took:?}");
    assert!(
        took < Duration::from_secs(2),
        "the page showed e4 after {took:?}"
    );
    let running = page
        .eval(
            "document.querySelector('#col-A .player.team-ba .clock').classList.contains('running')",
        )
        .unwrap();
    assert_eq!(running, true, "Black's clock runs after White's press");

    // A screenshot shows both boards (laptop: side by side).
    let png = page.screenshot().unwrap();
    let shot = std::env::temp_dir().join("tandem-web-browser-laptop.png");
    std::fs::write(&shot, &png).unwrap();
    let img = image::load_from_memory(&png).unwrap().to_rgba8();
    let (w, h) = img.dimensions();
    assert_eq!((w, h), (1366, 860));
    let (left, right) = (light_share(&img, 0, w / 2), light_share(&img, w / 2, w));
    eprintln!(
        "screenshot {}: light squares {:.0}% of the left half, {:.0}% of the right",
        shot.display(),
        left * 100.0,
        right * 100.0
    );
    assert!(left > 0.12 && right > 0.12, "both boards in the screenshot");

    // A phone held upright: the boards one above the other.
    page.resize(390, 844, true).unwrap();
    let stacked = page
        .eval(
            "document.getElementById('col-B').getBoundingClientRect().top >= \
             document.getElementById('col-A').getBoundingClientRect().bottom",
        )
        .unwrap();
    assert_eq!(stacked, true);
    page.resize(1366, 860, false).unwrap();

    // The Wi-Fi drops; a move is played meanwhile; back on the network, the page catches up.
    wifi.drop_out();
    page.wait_for(
        "document.getElementById('status').textContent !== 'live'",
        Duration::from_secs(5),
    )
    .unwrap();
    play(a, Square::E7, Square::E5, pawn(Color::Black));
    std::thread::sleep(Duration::from_secs(2));
    let before = page
        .eval("document.querySelector('#col-A .moves').textContent")
        .unwrap();
    assert!(
        !before.as_str().unwrap().contains("e5"),
        "the network is down, yet: {before}"
    );
    wifi.come_back();
    let back = page
        .wait_for(
            "document.querySelector('#col-A .moves').textContent.includes('1… e5') \
             && document.getElementById('status').textContent === 'live'",
            Duration::from_secs(15),
        )
        .unwrap();
    eprintln!("caught up {back:?} after the network came back");

    // A promoted pawn is marked and pieces in hand are counted: the page drawing a view
    // with a queen on a8 that was a pawn, and two knights in White's hand.
    let marked = page
        .eval(
            "(() => { const m = structuredClone(state.msg); m.prev = null; \
             m.record = {from: 0, plies: state.record}; \
             m.view.boards[0].pieces = 'Q~3k3/8/8/8/8/8/8/4K3'; \
             m.view.boards[0].white_reserve.knight = 2; apply(m); \
             const a8 = document.querySelector('#col-A [data-square=a8]'); \
             const held = document.querySelector('#col-A .player.team-wa .reserve'); \
             return [a8.querySelector('.piece').alt, !!a8.querySelector('.badge'), \
                     held.querySelectorAll('.piece').length, held.textContent].join(' '); })()",
        )
        .unwrap();
    assert_eq!(marked, "white queen true 1 2");
    drop(page);
    drop(browser);
    drop(wifi);
    drop(station);
    let _ = std::fs::remove_dir_all(&dir);
}
