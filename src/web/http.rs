//! HTTP: connections with their limits, and the routes (GET only).
//!
//! Limits, so that no client can cost the station more than a bounded share: a cap on
//! open connections (past it a short 503), request headers at most [`Limits::max_header_bytes`]
//! and [`Limits::max_headers`] (else 431), headers to arrive within
//! [`Limits::header_timeout`], no request body (413), methods other than GET and HEAD
//! refused (405), and a connection on which no byte moves either way for
//! [`Limits::idle_timeout`] closed: a half-open connection, a client that never reads
//! (its writes stall) and an idle keep-alive alike. Streams ping every 10 s, so a live
//! one always moves bytes.

use std::convert::Infallible;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncReadExt as _, AsyncWrite, AsyncWriteExt as _, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};

use super::assets;
use super::hub::Hub;
use super::json;
use super::stream::{self, WebBody};

/// The server's bounds (see the module's comment).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_connections: usize,
    pub max_header_bytes: usize,
    pub max_headers: usize,
    pub header_timeout: Duration,
    pub idle_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_connections: 1000,
            max_header_bytes: 8 * 1024,
            max_headers: 48,
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
        }
    }
}

/// Accepts connections until `stop` turns true.
pub(crate) async fn serve(
    listener: TcpListener,
    hub: Arc<Hub>,
    limits: Limits,
    mut stop: watch::Receiver<bool>,
) {
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = stop.changed() => return,
        };
        let (socket, _peer) = match accepted {
            Ok(a) => a,
            Err(_) => {
                // Out of file descriptors or similar: let the moment pass.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = socket.set_nodelay(true);
        match permits.clone().try_acquire_owned() {
            Ok(permit) => {
                let hub = hub.clone();
                tokio::spawn(async move {
                    connection(socket, hub, limits).await;
                    drop(permit);
                });
            }
            Err(_) => {
                tokio::spawn(busy(socket));
            }
        }
    }
}

/// Past the connection cap: a short answer, then closed (after a moment's draining of
/// the request, so that the answer is not lost to a reset).
async fn busy(mut socket: TcpStream) {
    let answer = b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        socket.write_all(answer).await?;
        socket.shutdown().await?;
        let mut sink = [0u8; 1024];
        for _ in 0..8 {
            if socket.read(&mut sink).await? == 0 {
                break;
            }
        }
        Ok::<(), io::Error>(())
    })
    .await;
}

/// One connection, closed when no byte has moved either way for the idle timeout.
async fn connection(socket: TcpStream, hub: Arc<Hub>, limits: Limits) {
    let start = Instant::now();
    let activity = Arc::new(AtomicU64::new(0));
    let io = TokioIo::new(Watched {
        inner: socket,
        start,
        activity: activity.clone(),
    });
    let service = hyper::service::service_fn(move |req| {
        let hub = hub.clone();
        async move { Ok::<_, Infallible>(respond(&req, hub)) }
    });
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_header_size(limits.max_header_bytes)
        .max_headers(limits.max_headers)
        .max_buf_size(8192.max(limits.max_header_bytes))
        .serve_connection(io, service);
    let watchdog = async {
        let idle = limits.idle_timeout;
        loop {
            tokio::time::sleep(idle / 4).await;
            let last = Duration::from_millis(activity.load(Ordering::Relaxed));
            if start.elapsed().saturating_sub(last) > idle {
                return;
            }
        }
    };
    // Whichever ends first; dropping the connection closes the socket.
    tokio::select! {
        _ = conn => {}
        () = watchdog => {}
    }
}

/// A socket that notes when a byte last moved.
struct Watched {
    inner: TcpStream,
    start: Instant,
    activity: Arc<AtomicU64>,
}

impl Watched {
    fn moved(&self) {
        let ms = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.activity.store(ms, Ordering::Relaxed);
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let r = Pin::new(&mut this.inner).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            this.moved();
        }
        r
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.inner).poll_write(cx, data);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            this.moved();
        }
        r
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            this.moved();
        }
        r
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

/// The answer to one request.
fn respond(req: &Request<Incoming>, hub: Arc<Hub>) -> Response<WebBody> {
    let head = req.method() == Method::HEAD;
    if req.method() != Method::GET && !head {
        let mut r = plain(StatusCode::METHOD_NOT_ALLOWED, "read-only: GET only\n");
        r.headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return close(r);
    }
    // No request body is read: a request that announces one is refused.
    let has_body = req.headers().contains_key(header::TRANSFER_ENCODING)
        || req
            .headers()
            .get(header::CONTENT_LENGTH)
            .is_some_and(|v| v.as_bytes() != b"0");
    if has_body {
        return close(plain(StatusCode::PAYLOAD_TOO_LARGE, "no request body\n"));
    }
    let mut r = route(req, hub, head);
    let h = r.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    if head {
        *r.body_mut() = WebBody::empty();
    }
    r
}

fn route(req: &Request<Incoming>, hub: Arc<Hub>, head: bool) -> Response<WebBody> {
    let path = req.uri().path();
    if let Some(a) = assets::get(path) {
        let mut r = Response::new(WebBody::whole(Bytes::from_static(a.bytes)));
        let h = r.headers_mut();
        h.insert(header::CONTENT_TYPE, HeaderValue::from_static(a.mime));
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static(a.cache));
        if a.mime.starts_with("text/html") {
            h.insert(
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(
                    "default-src 'self'; img-src 'self' data:; style-src 'self'; \
                     script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
                ),
            );
        }
        return r;
    }
    let parts: Vec<&str> = path.trim_end_matches('/').split('/').skip(1).collect();
    match parts.as_slice() {
        ["api", "matches"] => api(json::directory(&hub), "application/json", None),
        ["api", "standings"] => api(
            serde_json::to_string(&hub.standings()).unwrap_or_default(),
            "application/json",
            None,
        ),
        ["api", "matches", id, rest @ ..] if valid_id(id) => match hub.slot(id) {
            Some(slot) => match_route(req, &hub, slot, rest, head),
            None => plain(StatusCode::NOT_FOUND, "no such match\n"),
        },
        _ => plain(StatusCode::NOT_FOUND, "not found\n"),
    }
}

fn match_route(
    req: &Request<Incoming>,
    hub: &Arc<Hub>,
    slot: Arc<super::hub::Slot>,
    rest: &[&str],
    head: bool,
) -> Response<WebBody> {
    if rest == ["events"] {
        let mut r = Response::new(if head {
            WebBody::empty()
        } else {
            stream::open(hub.clone(), slot, since(req, hub.run))
        });
        let h = r.headers_mut();
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/event-stream; charset=utf-8"),
        );
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        h.insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
        h.insert("x-accel-buffering", HeaderValue::from_static("no"));
        return r;
    }
    let Some(latest) = slot.latest() else {
        return plain(StatusCode::SERVICE_UNAVAILABLE, "no view yet\n");
    };
    let tag = format!("\"{}\"", json::event_id(hub.run, latest.seq));
    let fresh = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .is_some_and(|v| v.as_bytes() == tag.as_bytes());
    let (text, mime) = match rest {
        [] => {
            let delay = hub.delay_ms();
            (
                json::message(&slot.id, &latest, None, latest.hall_ms(delay), delay),
                "application/json",
            )
        }
        ["bpgn"] => (
            json::bpgn(&latest),
            "application/x-bughouse-pgn; charset=utf-8",
        ),
        ["pgn"] => match json::pgn(&latest) {
            Some(t) => (t, "application/x-chess-pgn; charset=utf-8"),
            None => {
                return plain(
                    StatusCode::NOT_FOUND,
                    "a bughouse match has no PGN: read its BPGN (bpgn)\n",
                );
            }
        },
        _ => return plain(StatusCode::NOT_FOUND, "not found\n"),
    };
    if fresh {
        let mut r = api(String::new(), mime, Some(&tag));
        *r.status_mut() = StatusCode::NOT_MODIFIED;
        *r.body_mut() = WebBody::empty();
        return r;
    }
    api(text, mime, Some(&tag))
}

/// Where a reconnecting client left off: the `Last-Event-ID` header, or `?since=` (the
/// page passes it when it opens a new stream itself).
fn since(req: &Request<Incoming>, run: u64) -> Option<u64> {
    let header = req
        .headers()
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| json::parse_event_id(run, v));
    header.or_else(|| {
        req.uri()
            .query()?
            .split('&')
            .find_map(|kv| kv.strip_prefix("since="))
            .and_then(|v| json::parse_event_id(run, v))
    })
}

/// A match id: `1`, or an evening's `2.3` (round 2, pairing 3). Only a key to look up,
/// never a path.
fn valid_id(id: &str) -> bool {
    (1..=32).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

fn api(text: String, mime: &'static str, etag: Option<&str>) -> Response<WebBody> {
    let mut r = Response::new(WebBody::whole(text));
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(mime));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    if let Some(tag) = etag.and_then(|t| HeaderValue::from_str(t).ok()) {
        h.insert(header::ETAG, tag);
    }
    r
}

fn plain(status: StatusCode, text: &'static str) -> Response<WebBody> {
    let mut r = Response::new(WebBody::whole(Bytes::from_static(text.as_bytes())));
    *r.status_mut() = status;
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    r
}

/// The connection is closed after this answer (the request may have left bytes unread).
fn close(mut r: Response<WebBody>) -> Response<WebBody> {
    r.headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    r
}
