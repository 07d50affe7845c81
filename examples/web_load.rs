//! Load on the spectators' web server: `tandem station --web` playing its demo match, and
//! N push-stream clients on loopback. Reports, for the same running station, its CPU and
//! memory without clients and with them, whether every client got every update (each
//! update names the one it follows: a gap, a second snapshot or a closed stream is a
//! loss), and the delay from the arbiter publishing a view to a client reading it.
//!
//! `cargo build --release && cargo run --release --example web_load -- target/release/tandem [CLIENTS] [SECONDS] [WARMUP]`
//! (defaults: 500 clients, 60 s each phase, 20 s of warm-up). The clients run on one
//! thread (a current-thread tokio runtime), so that they take at most one of the
//! machine's cores.

#![allow(clippy::unwrap_used)] // a tool, not the station

use std::io::BufRead as _;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

/// Clock ticks a second in /proc (USER_HZ, 100 on Linux).
const HZ: f64 = 100.0;

fn proc_cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command's closing parenthesis: utime is the 12th, stime the 13th.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let n = |i: usize| f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    n(11) + n(12)
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// `"name":123` in a JSON text.
fn number(text: &str, name: &str) -> Option<u64> {
    let key = format!("\"{name}\":");
    let at = text.find(&key)? + key.len();
    let digits: String = text[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// What one client saw.
#[derive(Default)]
struct Seen {
    views: u64,
    /// Snapshots past the first, other than a new game's first view (a loss).
    resnapshots: u64,
    games: u64,
    game: u64,
    gaps: u64,
    last_seq: u64,
    closed: bool,
    delays_ms: Vec<u32>,
}

/// One client: opens the stream and reads it until `stop`.
async fn client(
    addr: std::net::SocketAddr,
    stop: Arc<AtomicBool>,
    connected: Arc<AtomicU64>,
) -> Seen {
    let mut seen = Seen::default();
    let Ok(mut s) = tokio::net::TcpStream::connect(addr).await else {
        seen.closed = true;
        return seen;
    };
    let req =
        "GET /api/matches/1/events HTTP/1.1\r\nHost: load\r\nAccept: text/event-stream\r\n\r\n";
    if s.write_all(req.as_bytes()).await.is_err() {
        seen.closed = true;
        return seen;
    }
    let mut buf = vec![0u8; 64 * 1024];
    let mut pending: Vec<u8> = Vec::new();
    let mut counted = false;
    while !stop.load(Ordering::Relaxed) {
        let n = match tokio::time::timeout(Duration::from_millis(200), s.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => {
                seen.closed = true;
                break;
            }
            Ok(Ok(n)) => n,
            Err(_) => continue,
        };
        let now = unix_ms();
        pending.extend_from_slice(&buf[..n]);
        while let Some(end) = pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = pending.drain(..=end).collect();
            let Some(data) = line.strip_prefix(b"data: {\"match\":") else {
                continue;
            };
            let text = String::from_utf8_lossy(data);
            let seq = number(&text, "seq").unwrap_or(0);
            let game = number(&text, "game").unwrap_or(0);
            match number(&text, "prev") {
                // `"prev":null` reads as no number: a snapshot, the first one, or a new
                // game's first view; any other is an update lost.
                None => {
                    if !counted {
                        counted = true;
                        connected.fetch_add(1, Ordering::Relaxed);
                    } else if game == seen.game {
                        seen.resnapshots += 1;
                    } else if seq != seen.last_seq + 1 {
                        seen.gaps += 1;
                    }
                    if game != seen.game {
                        seen.games += 1;
                    }
                    seen.game = game;
                }
                Some(prev) => {
                    if prev != seen.last_seq {
                        seen.gaps += 1;
                    }
                    if let Some(p) = number(&text, "published_unix_ms") {
                        seen.delays_ms.push(now.saturating_sub(p) as u32);
                    }
                }
            }
            seen.views += 1;
            seen.last_seq = seq;
        }
    }
    seen
}

fn percentile(sorted: &[u32], p: f64) -> u32 {
    if sorted.is_empty() {
        return 0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// CPU (% of one core) and RSS (mean, max MiB) of `pid` over `secs`, sampled each second.
fn watch(pid: u32, secs: u64) -> (f64, f64, f64) {
    let t0 = proc_cpu_ticks(pid);
    let start = Instant::now();
    let mut rss = Vec::new();
    while start.elapsed() < Duration::from_secs(secs) {
        std::thread::sleep(Duration::from_secs(1));
        rss.push(rss_kib(pid) as f64 / 1024.0);
    }
    let cpu = (proc_cpu_ticks(pid) - t0) as f64 / HZ / start.elapsed().as_secs_f64() * 100.0;
    let mean = rss.iter().sum::<f64>() / rss.len().max(1) as f64;
    let max = rss.iter().copied().fold(0.0, f64::max);
    (cpu, mean, max)
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let exe = args
        .first()
        .cloned()
        .unwrap_or_else(|| "target/release/tandem".into());
    let clients: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(500);
    let secs: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(60);
    let warmup: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(20);
    let data = std::env::temp_dir().join(format!("tandem-web-load-{}", std::process::id()));
    let mut station = Command::new(&exe)
        .args(["station", "--web", "127.0.0.1:0", "--demo-seed", "3"])
        .arg("--data-dir")
        .arg(&data)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()?;
    let pid = station.id();
    let stdout = station.stdout.take().unwrap();
    let moves = Arc::new(AtomicU64::new(0));
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    {
        let moves = moves.clone();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
            {
                if line.contains("\"event\":\"move\"") {
                    moves.fetch_add(1, Ordering::Relaxed);
                }
                let _ = tx.send(line);
            }
        });
    }
    let first = rx.recv_timeout(Duration::from_secs(20))?;
    let web: serde_json::Value = serde_json::from_str(&first)?;
    let addr: std::net::SocketAddr = web["addr"].as_str().unwrap_or_default().parse()?;
    // Nobody reads the rest of the channel; the thread keeps the pipe drained.
    drop(rx);
    eprintln!(
        "station pid {pid} on {addr}; warming up {warmup} s (load {})",
        load_average()
    );
    std::thread::sleep(Duration::from_secs(warmup));

    let m0 = moves.load(Ordering::Relaxed);
    let (cpu0, rss0, rss0_max) = watch(pid, secs);
    let moves0 = moves.load(Ordering::Relaxed) - m0;
    eprintln!(
        "without clients: {cpu0:.1} % CPU, RSS {rss0:.1} MiB (max {rss0_max:.1}), {moves0} moves"
    );

    let stop = Arc::new(AtomicBool::new(false));
    let connected = Arc::new(AtomicU64::new(0));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let handles: Vec<_> = (0..clients)
        .map(|_| rt.spawn(client(addr, stop.clone(), connected.clone())))
        .collect();
    let runner = std::thread::spawn(move || {
        rt.block_on(async {
            let mut out = Vec::new();
            for h in handles {
                out.push(h.await.unwrap_or_default());
            }
            out
        })
    });
    let wait = Instant::now();
    while (connected.load(Ordering::Relaxed) as usize) < clients
        && wait.elapsed() < Duration::from_secs(30)
    {
        std::thread::sleep(Duration::from_millis(50));
    }
    let joined = connected.load(Ordering::Relaxed);
    eprintln!(
        "{joined} of {clients} clients connected in {:.1} s",
        wait.elapsed().as_secs_f64()
    );
    let m1 = moves.load(Ordering::Relaxed);
    let self0 = proc_cpu_ticks(std::process::id());
    let (cpu1, rss1, rss1_max) = watch(pid, secs);
    let self_cpu = (proc_cpu_ticks(std::process::id()) - self0) as f64 / HZ / secs as f64 * 100.0;
    let moves1 = moves.load(Ordering::Relaxed) - m1;
    // In-flight updates reach every client before they stop reading.
    std::thread::sleep(Duration::from_secs(1));
    stop.store(true, Ordering::Relaxed);
    let seen: Vec<Seen> = runner.join().unwrap_or_default();
    let _ = station.kill();
    let _ = station.wait();
    let _ = std::fs::remove_dir_all(&data);

    let last = seen.iter().map(|s| s.last_seq).max().unwrap_or(0);
    let closed = seen.iter().filter(|s| s.closed).count();
    let gaps: u64 = seen.iter().map(|s| s.gaps).sum();
    let resnapshots: u64 = seen.iter().map(|s| s.resnapshots).sum();
    let games = seen.iter().map(|s| s.games).max().unwrap_or(0);
    let behind = seen.iter().filter(|s| s.last_seq != last).count();
    let views: Vec<u64> = seen.iter().map(|s| s.views).collect();
    let mut delays: Vec<u32> = seen
        .iter()
        .flat_map(|s| s.delays_ms.iter().copied())
        .collect();
    delays.sort_unstable();
    println!("| | without clients | with {clients} stream clients |");
    println!("|---|---|---|");
    println!("| station CPU (% of one core, mean over {secs} s) | {cpu0:.1} | {cpu1:.1} |");
    println!(
        "| station RSS (mean / max) | {rss0:.1} / {rss0_max:.1} MiB | {rss1:.1} / {rss1_max:.1} MiB |"
    );
    println!("| moves played meanwhile | {moves0} | {moves1} |");
    println!();
    println!(
        "clients connected {joined}/{clients}; closed early {closed}; updates per client {}–{} \
         over {games} game(s); gaps {gaps}; extra snapshots {resnapshots}; clients not at the \
         last update ({last}) {behind}",
        views.iter().min().unwrap_or(&0),
        views.iter().max().unwrap_or(&0)
    );
    println!(
        "delay from publish to client over {} updates: p50 {} ms, p90 {} ms, p99 {} ms, max {} ms",
        delays.len(),
        percentile(&delays, 0.5),
        percentile(&delays, 0.9),
        percentile(&delays, 0.99),
        delays.last().copied().unwrap_or(0)
    );
    println!(
        "the clients' own CPU: {self_cpu:.1} % of one core; load average now {}",
        load_average()
    );
    Ok(())
}
