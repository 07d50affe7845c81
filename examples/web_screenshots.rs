//! The README's pictures of the spectator page: the demo played on two virtual boards
//! (the station's own demo, through the real serial code), the web server on loopback,
//! and headless Chromium's screenshots at a phone's size held upright and a laptop's.
//!
//! `cargo run --example web_screenshots -- [OUT_DIR] [AFTER_SECONDS]`
//! (defaults: `docs`, 100 s of play, by then pieces are in hand). Needs Chromium
//! (Debian's `chromium`, or `TANDEM_CHROMIUM`).

#![allow(clippy::unwrap_used)] // a tool, not the station

#[path = "../tests/integration/common/browser.rs"]
mod browser;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tandem::arbiter::ArbiterConfig;
use tandem::rules::RulesPreset;
use tandem::station::demo::{self, DemoStation};
use tandem::station::new_header;
use tandem::web::{FIRST_MATCH, WebServer};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = PathBuf::from(args.first().map_or("docs", String::as_str));
    let after: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let exe = browser::chromium().map_err(anyhow::Error::msg)?;
    let root = std::env::temp_dir().join(format!("tandem-web-shots-{}", std::process::id()));
    let mut config = ArbiterConfig::new(RulesPreset::built_in("uscf-bughouse"));
    config.players = demo::names();
    let header = new_header(config, "Club night", "?", &[]);
    let mut demo = DemoStation::start(
        &root,
        &root.join("registry"),
        header,
        7,
        demo::GAME_PLIES,
        Arc::new(|| {}),
    )?;
    let web = WebServer::start("127.0.0.1:0".parse()?, 0)?;
    let url = format!("http://{}/", web.addr());
    eprintln!("{url}: playing {after} s before the pictures");
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(after) {
        demo.follow()?;
        if let Some(s) = demo.session() {
            web.show(FIRST_MATCH, s);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    std::fs::create_dir_all(&out)?;
    for (name, w, h, mobile) in [
        ("web-phone", 390, 844, true),
        ("web-laptop", 1366, 860, false),
    ] {
        let b = browser::Browser::launch(&exe, &url, w, h).map_err(anyhow::Error::msg)?;
        let mut page = b.page().map_err(anyhow::Error::msg)?;
        page.resize(w, h, mobile).map_err(anyhow::Error::msg)?;
        page.wait_for(
            "document.querySelectorAll('.board .sq').length === 128 \
             && document.getElementById('status').textContent === 'live'",
            Duration::from_secs(20),
        )
        .map_err(anyhow::Error::msg)?;
        // A moment for the pieces' pictures.
        std::thread::sleep(Duration::from_millis(800));
        let png = page.screenshot().map_err(anyhow::Error::msg)?;
        let path = out.join(format!("{name}.png"));
        std::fs::write(&path, png)?;
        eprintln!("{}", path.display());
    }
    web.stop();
    demo.stop();
    let _ = std::fs::remove_dir_all(&root);
    Ok(())
}
