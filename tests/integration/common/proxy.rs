//! A TCP relay on loopback standing for the hall's Wi-Fi: it can drop (every connection
//! through it closed, new ones refused) and come back.

use std::io::{Read as _, Write as _};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub struct Wifi {
    addr: SocketAddr,
    down: Arc<AtomicBool>,
    open: Arc<Mutex<Vec<TcpStream>>>,
    stop: Arc<AtomicBool>,
}

impl Wifi {
    /// Relays a free loopback port to `upstream`.
    pub fn to(upstream: SocketAddr) -> Wifi {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("nonblocking");
        let addr = listener.local_addr().expect("addr");
        let down = Arc::new(AtomicBool::new(false));
        let open = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (d, o, s) = (down.clone(), open.clone(), stop.clone());
        std::thread::spawn(move || {
            while !s.load(Ordering::SeqCst) {
                let Ok((client, _)) = listener.accept() else {
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                };
                if d.load(Ordering::SeqCst) {
                    drop(client);
                    continue;
                }
                let _ = client.set_nonblocking(false);
                let Ok(server) = TcpStream::connect(upstream) else {
                    continue;
                };
                if let (Ok(c2), Ok(s2)) = (client.try_clone(), server.try_clone())
                    && let Ok(mut list) = o.lock()
                {
                    list.push(c2);
                    list.push(s2);
                }
                pipe(client.try_clone(), server.try_clone());
                pipe(server.try_clone(), client.try_clone());
            }
        });
        Wifi {
            addr,
            down,
            open,
            stop,
        }
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The network drops: every connection through it is closed, new ones refused.
    pub fn drop_out(&self) {
        self.down.store(true, Ordering::SeqCst);
        if let Ok(mut list) = self.open.lock() {
            for s in list.drain(..) {
                let _ = s.shutdown(Shutdown::Both);
            }
        }
    }

    pub fn come_back(&self) {
        self.down.store(false, Ordering::SeqCst);
    }
}

impl Drop for Wifi {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.drop_out();
    }
}

fn pipe(from: std::io::Result<TcpStream>, to: std::io::Result<TcpStream>) {
    let (Ok(mut from), Ok(mut to)) = (from, to) else {
        return;
    };
    std::thread::spawn(move || {
        let mut buf = [0u8; 16 * 1024];
        while let Ok(n) = from.read(&mut buf) {
            if n == 0 || to.write_all(&buf[..n]).is_err() {
                break;
            }
        }
        let _ = to.shutdown(Shutdown::Write);
    });
}
