//! A small HTTP/1.1 client for the web server's tests: plain requests, raw bytes, and a
//! server-sent events reader. Blocking, with timeouts, on loopback only.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// An answer: status, headers (names lower-cased) and body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

/// Sends `request` as it is and reads the answer until the server closes.
pub fn raw(addr: SocketAddr, request: &[u8]) -> std::io::Result<Answer> {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(5))?;
    s.set_read_timeout(Some(Duration::from_secs(10)))?;
    s.write_all(request)?;
    let mut bytes = Vec::new();
    s.read_to_end(&mut bytes)?;
    parse(&bytes)
}

/// `GET path` (or another method), the connection closed after the answer.
pub fn request(addr: SocketAddr, method: &str, path: &str) -> Answer {
    let req = format!("{method} {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
    raw(addr, req.as_bytes()).unwrap_or_else(|e| panic!("{method} {path}: {e}"))
}

pub fn get(addr: SocketAddr, path: &str) -> Answer {
    request(addr, "GET", path)
}

fn parse(bytes: &[u8]) -> std::io::Result<Answer> {
    let text = String::from_utf8_lossy(bytes);
    let (head, body) = text.split_once("\r\n\r\n").ok_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("no HTTP answer: {text:?}"),
        )
    })?;
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_lowercase(), v.trim().to_owned()))
        .collect();
    Ok(Answer {
        status,
        headers,
        body: body.to_owned(),
    })
}

/// One server-sent event.
#[derive(Clone, Debug)]
pub struct Event {
    pub id: Option<String>,
    pub event: String,
    pub data: String,
}

impl Event {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.data).unwrap_or_else(|e| panic!("not JSON ({e}): {self:?}"))
    }
}

/// A client following a push stream.
pub struct Sse {
    reader: BufReader<TcpStream>,
}

impl Sse {
    /// Opens `path`, sending `Last-Event-ID` when given.
    pub fn open(addr: SocketAddr, path: &str, last_id: Option<&str>) -> Sse {
        let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).expect("connect");
        s.set_read_timeout(Some(Duration::from_millis(500)))
            .expect("timeout");
        let last = last_id.map_or(String::new(), |id| format!("Last-Event-ID: {id}\r\n"));
        let req =
            format!("GET {path} HTTP/1.1\r\nHost: test\r\nAccept: text/event-stream\r\n{last}\r\n");
        s.write_all(req.as_bytes()).expect("request");
        let mut reader = BufReader::new(s);
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut status = String::new();
        // Headers, then the chunked body's lines (chunk sizes are told apart below).
        loop {
            let mut line = String::new();
            match reader.read_line(&mut line) {
                Ok(0) => panic!("stream closed before its headers"),
                Ok(_) => {
                    if status.is_empty() {
                        status = line.clone();
                    }
                    if line == "\r\n" {
                        break;
                    }
                }
                Err(_) if Instant::now() < deadline => {}
                Err(e) => panic!("no stream headers: {e}"),
            }
        }
        assert!(status.contains(" 200 "), "stream refused: {status}");
        Sse { reader }
    }

    /// The next event within `timeout` (pings included), `None` if none came.
    pub fn next(&mut self, timeout: Duration) -> Option<Event> {
        let deadline = Instant::now() + timeout;
        let mut ev = Event {
            id: None,
            event: String::new(),
            data: String::new(),
        };
        let mut any = false;
        let mut line = String::new();
        while Instant::now() < deadline {
            match self.reader.read_line(&mut line) {
                Ok(0) => return None,
                Ok(_) => {
                    let l = line.trim_end_matches(['\r', '\n']);
                    if l.is_empty() {
                        if any {
                            return Some(ev);
                        }
                    } else if let Some(v) = l.strip_prefix("id: ") {
                        ev.id = Some(v.to_owned());
                        any = true;
                    } else if let Some(v) = l.strip_prefix("event: ") {
                        ev.event = v.to_owned();
                        any = true;
                    } else if let Some(v) = l.strip_prefix("data: ") {
                        ev.data = v.to_owned();
                        any = true;
                    }
                    // Anything else is chunk framing (hex sizes) or `retry:`.
                    line.clear();
                }
                // A timeout keeps what was read of the line so far.
                Err(_) => {}
            }
        }
        None
    }

    /// The next `view` event within `timeout`.
    pub fn next_view(&mut self, timeout: Duration) -> Option<Event> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            match self.next(deadline.saturating_duration_since(Instant::now())) {
                Some(e) if e.event == "view" => return Some(e),
                Some(_) => {}
                None => return None,
            }
        }
        None
    }
}
