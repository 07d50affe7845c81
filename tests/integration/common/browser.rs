//! A real browser for the tests: headless Chromium (Debian's `chromium`), found on the
//! machine or installed with apt-get, driven through its DevTools protocol over a
//! WebSocket (evaluate JavaScript in the page, set the window's size, take a screenshot).

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Chromium's path, or why there is none. Looked up once; when missing and this is
/// Debian as root, `apt-get install chromium` is tried once.
pub fn chromium() -> Result<PathBuf, String> {
    static FOUND: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    FOUND.get_or_init(find_or_install).clone()
}

fn find() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("TANDEM_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ]
    .iter()
    .find_map(|name| {
        std::env::var_os("PATH").and_then(|path| {
            std::env::split_paths(&path)
                .map(|d| d.join(name))
                .find(|p| p.is_file())
        })
    })
}

fn find_or_install() -> Result<PathBuf, String> {
    if let Some(p) = find() {
        return Ok(p);
    }
    let apt = Path::new("/usr/bin/apt-get");
    let root = std::env::var("USER").is_ok_and(|u| u == "root")
        || Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| o.stdout.starts_with(b"0"));
    if !apt.exists() || !root {
        return Err(
            "no chromium on PATH, and apt-get cannot install it here (not Debian, or not root)"
                .into(),
        );
    }
    eprintln!("web browser test: installing Debian's chromium with apt-get ...");
    let install = || {
        Command::new(apt)
            .args(["install", "-y", "-qq", "chromium"])
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .is_ok_and(|s| s.success())
    };
    if !install() {
        let _ = Command::new(apt).args(["update", "-qq"]).status();
        if !install() {
            return Err("apt-get install chromium failed".into());
        }
    }
    find().ok_or_else(|| "chromium installed but not found on PATH".into())
}

/// A headless Chromium with one page open, killed when dropped.
pub struct Browser {
    child: Child,
    user_dir: PathBuf,
    port: u16,
}

impl Browser {
    /// Starts Chromium on `url` in a window of `width`×`height` with a fresh profile.
    pub fn launch(exe: &Path, url: &str, width: u32, height: u32) -> Result<Browser, String> {
        let user_dir =
            std::env::temp_dir().join(format!("tandem-chromium-{}-{width}", std::process::id()));
        let _ = std::fs::remove_dir_all(&user_dir);
        let mut child = Command::new(exe)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--no-default-browser-check",
                "--hide-scrollbars",
                "--remote-debugging-port=0",
                "--remote-allow-origins=*",
            ])
            .arg(format!("--user-data-dir={}", user_dir.display()))
            .arg(format!("--window-size={width},{height}"))
            .arg(url)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{}: {e}", exe.display()))?;
        // "DevTools listening on ws://127.0.0.1:PORT/devtools/browser/..." on stderr.
        let stderr = child.stderr.take().ok_or("no stderr")?;
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut sent = false;
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if !sent && let Some(rest) = line.split("ws://127.0.0.1:").nth(1) {
                    let port: String = rest.chars().take_while(char::is_ascii_digit).collect();
                    let _ = tx.send(port);
                    sent = true;
                }
            }
        });
        let port = rx
            .recv_timeout(Duration::from_secs(30))
            .ok()
            .and_then(|p| p.parse().ok());
        let browser = Browser {
            child,
            user_dir,
            port: port.unwrap_or(0),
        };
        if port.is_none() {
            return Err("chromium did not open its DevTools port".into());
        }
        Ok(browser)
    }

    /// The page opened at launch.
    pub fn page(&self) -> Result<Page, String> {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let list = http_get(self.port, "/json/list")?;
            let targets: Value = serde_json::from_str(&list).map_err(|e| e.to_string())?;
            let ws = targets.as_array().and_then(|t| {
                t.iter()
                    .find(|t| t["type"] == "page")
                    .and_then(|t| t["webSocketDebuggerUrl"].as_str())
                    .map(str::to_owned)
            });
            if let Some(ws) = ws {
                return Page::connect(&ws);
            }
            if Instant::now() > deadline {
                return Err(format!("no page target: {list}"));
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.user_dir);
    }
}

fn http_get(port: u16, path: &str) -> Result<String, String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(Duration::from_secs(10)))
        .map_err(|e| e.to_string())?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )
    .map_err(|e| e.to_string())?;
    // DevTools keeps the connection open: read the body by its length.
    let mut bytes = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = s.read(&mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            break;
        }
        bytes.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&bytes);
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let len = head
                .lines()
                .find_map(|l| {
                    let (name, value) = l.split_once(':')?;
                    name.eq_ignore_ascii_case("content-length")
                        .then(|| value.trim().parse::<usize>().ok())
                        .flatten()
                })
                .unwrap_or(usize::MAX);
            if body.len() >= len {
                return Ok(body.to_owned());
            }
        }
    }
    let text = String::from_utf8_lossy(&bytes);
    Ok(text
        .split_once("\r\n\r\n")
        .map_or(String::new(), |(_, b)| b.to_owned()))
}

/// One page, spoken to through the DevTools protocol.
pub struct Page {
    ws: tungstenite::WebSocket<TcpStream>,
    next_id: u64,
}

impl Page {
    fn connect(url: &str) -> Result<Page, String> {
        let host = url
            .trim_start_matches("ws://")
            .split('/')
            .next()
            .ok_or("bad DevTools URL")?;
        let stream = TcpStream::connect(host).map_err(|e| e.to_string())?;
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .map_err(|e| e.to_string())?;
        let (ws, _) = tungstenite::client(url, stream).map_err(|e| e.to_string())?;
        Ok(Page { ws, next_id: 1 })
    }

    /// A DevTools command and its result.
    pub fn call(&mut self, method: &str, params: Value) -> Result<Value, String> {
        let id = self.next_id;
        self.next_id += 1;
        let msg = json!({"id": id, "method": method, "params": params});
        self.ws
            .send(tungstenite::Message::text(msg.to_string()))
            .map_err(|e| e.to_string())?;
        loop {
            let reply = self.ws.read().map_err(|e| e.to_string())?;
            let tungstenite::Message::Text(text) = reply else {
                continue;
            };
            let v: Value = serde_json::from_str(text.as_str()).map_err(|e| e.to_string())?;
            if v["id"].as_u64() == Some(id) {
                if let Some(err) = v.get("error") {
                    return Err(format!("{method}: {err}"));
                }
                return Ok(v["result"].clone());
            }
        }
    }

    /// The value of a JavaScript expression in the page.
    pub fn eval(&mut self, expression: &str) -> Result<Value, String> {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true}),
        )?;
        if let Some(e) = r.get("exceptionDetails") {
            return Err(format!("{expression}: {e}"));
        }
        Ok(r["result"]["value"].clone())
    }

    /// Waits until `expression` is true in the page; how long it took.
    pub fn wait_for(&mut self, expression: &str, timeout: Duration) -> Result<Duration, String> {
        let start = Instant::now();
        loop {
            if self.eval(expression)? == Value::Bool(true) {
                return Ok(start.elapsed());
            }
            if start.elapsed() > timeout {
                return Err(format!("not true within {timeout:?}: {expression}"));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The page laid out as on a screen of `width`×`height` (a phone: `mobile`).
    pub fn resize(&mut self, width: u32, height: u32, mobile: bool) -> Result<(), String> {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}),
        )
        .map(|_| ())
    }

    /// A PNG of what the page shows.
    pub fn screenshot(&mut self) -> Result<Vec<u8>, String> {
        let r = self.call("Page.captureScreenshot", json!({"format": "png"}))?;
        let data = r["data"].as_str().ok_or("no screenshot data")?;
        base64(data).ok_or_else(|| "screenshot is not base64".into())
    }
}

/// Standard base64 (with padding) to bytes.
fn base64(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        })
    };
    let bytes: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    for chunk in bytes.chunks(4) {
        let pad = chunk.iter().rev().take_while(|&&b| b == b'=').count();
        let mut n = 0u32;
        for (i, &b) in chunk.iter().enumerate() {
            let v = if b == b'=' { 0 } else { value(b)? };
            n |= v << (18 - 6 * i);
        }
        let three = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&three[..3 - pad.min(2)]);
    }
    Some(out)
}
