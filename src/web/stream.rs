//! One client's push stream (server-sent events) and the response bodies.
//!
//! Each client has a small task that copies frames from its match's ring into a channel
//! of [`CLIENT_QUEUE`] frames that the connection drains. A client that does not read
//! fills its channel and its task waits; meanwhile nothing queues for it (the ring is
//! shared and bounded), and when it reads again it is sent what it missed from the ring,
//! or, fallen further behind, one snapshot: stale updates are dropped, never queued.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use tokio::sync::mpsc;

use super::hub::{Hub, RING, Slot};
use super::json;

/// Frames waiting for one client's connection (its socket buffers hold more).
const CLIENT_QUEUE: usize = 4;

/// A ping this often: the page's clocks are set right and a dead connection is noticed
/// (the page reconnects after three missed pings).
pub(crate) const PING: Duration = Duration::from_secs(10);

/// Behind by more than this many frames, a client is sent one snapshot instead.
const MAX_CATCH_UP: u64 = 64;

/// A response body: whole, or a stream of frames.
pub(crate) enum WebBody {
    Whole(Option<Bytes>),
    Stream(mpsc::Receiver<Bytes>),
}

impl WebBody {
    pub fn whole(b: impl Into<Bytes>) -> WebBody {
        WebBody::Whole(Some(b.into()))
    }

    pub fn empty() -> WebBody {
        WebBody::Whole(None)
    }
}

impl Body for WebBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        match self.get_mut() {
            WebBody::Whole(b) => Poll::Ready(b.take().map(|b| Ok(Frame::data(b)))),
            WebBody::Stream(rx) => rx.poll_recv(cx).map(|b| b.map(|b| Ok(Frame::data(b)))),
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(self, WebBody::Whole(None))
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            WebBody::Whole(Some(b)) => SizeHint::with_exact(b.len() as u64),
            WebBody::Whole(None) => SizeHint::with_exact(0),
            WebBody::Stream(_) => SizeHint::default(),
        }
    }
}

/// Starts a client's stream of `slot`, caught up from `since` (the last event id it saw)
/// when the ring still has it, else from a snapshot.
pub(crate) fn open(hub: Arc<Hub>, slot: Arc<Slot>, since: Option<u64>) -> WebBody {
    let (tx, rx) = mpsc::channel(CLIENT_QUEUE);
    tokio::spawn(async move {
        // Ends when the client has gone (its connection dropped the body).
        let _ = follow(&hub, &slot, since, &tx).await;
    });
    WebBody::Stream(rx)
}

type Gone = mpsc::error::SendError<Bytes>;

async fn follow(
    hub: &Hub,
    slot: &Slot,
    since: Option<u64>,
    tx: &mpsc::Sender<Bytes>,
) -> Result<(), Gone> {
    let mut seq_rx = slot.notify.subscribe();
    let mut dir_rx = hub.directory.subscribe();
    // Reconnect after 2 s; then the list of matches, then the view.
    tx.send(Bytes::from_static(b"retry: 2000\n\n")).await?;
    tx.send(json::sse(None, "matches", &json::directory(hub)))
        .await?;
    dir_rx.mark_unchanged();
    let mut seen = since;
    catch_up(hub, slot, &mut seen, tx).await?;
    let mut ping = tokio::time::interval(PING);
    ping.reset();
    loop {
        tokio::select! {
            changed = seq_rx.changed() => {
                if changed.is_err() {
                    return Ok(());
                }
                catch_up(hub, slot, &mut seen, tx).await?;
            }
            changed = dir_rx.changed() => {
                if changed.is_err() {
                    return Ok(());
                }
                tx.send(json::sse(None, "matches", &json::directory(hub))).await?;
            }
            _ = ping.tick() => {
                tx.send(json::ping(slot.latest().as_ref(), hub.delay_ms())).await?;
            }
            () = tx.closed() => return Ok(()),
        }
    }
}

/// Sends what the client has not seen: the frames after `seen` from the ring, or one
/// snapshot when it is further behind (or new).
async fn catch_up(
    hub: &Hub,
    slot: &Slot,
    seen: &mut Option<u64>,
    tx: &mpsc::Sender<Bytes>,
) -> Result<(), Gone> {
    enum Next {
        Nothing,
        Frames(Vec<(u64, Bytes)>),
        Snapshot(super::hub::Released),
    }
    let next = {
        let state = slot.state();
        match (&state.latest, *seen) {
            (None, _) => Next::Nothing,
            (Some(l), Some(s)) if s == l.seq => Next::Nothing,
            (Some(l), Some(s))
                if s < l.seq
                    && l.seq - s <= MAX_CATCH_UP
                    && state.ring.front().is_some_and(|(first, _)| *first <= s + 1) =>
            {
                let skip =
                    usize::try_from(s + 1 - state.ring.front().map_or(0, |f| f.0)).unwrap_or(RING);
                Next::Frames(state.ring.iter().skip(skip).cloned().collect())
            }
            (Some(l), _) => Next::Snapshot(l.clone()),
        }
    };
    match next {
        Next::Nothing => {}
        Next::Frames(frames) => {
            for (seq, f) in frames {
                tx.send(f).await?;
                *seen = Some(seq);
            }
        }
        Next::Snapshot(r) => {
            let delay = hub.delay_ms();
            let text = json::message(&slot.id, &r, None, r.hall_ms(delay), delay);
            let id = json::event_id(hub.run, r.seq);
            tx.send(json::sse(Some(&id), "view", &text)).await?;
            *seen = Some(r.seq);
        }
    }
    Ok(())
}
