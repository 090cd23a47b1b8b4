//! A stand-in for Lichess's broadcast push (`POST /api/broadcast/round/{id}/push`, as
//! lichess-org/api documents it): every request kept with its answer, each connection in its
//! own thread, the answers from a script.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One request the stand-in received.
#[derive(Debug, Clone)]
pub struct Received {
    pub path: String,
    pub authorization: Option<String>,
    pub content_type: Option<String>,
    pub body: String,
    /// When it arrived, and when it was answered.
    pub arrived: Instant,
    pub answered: Instant,
    /// The status it was answered with.
    pub status: u16,
}

/// What the stand-in answers the request numbered `n` (from 0).
pub type Script = fn(usize) -> (u16, Vec<(&'static str, String)>, String);

/// An answer: its status, its extra headers, its body.
pub type Answer = (u16, Vec<(&'static str, String)>, String);

/// What the stand-in answers the request numbered `n` (from 0) whose body is the text given:
/// a script with a state of its own (a broadcast round).
pub type Respond = dyn Fn(usize, &str) -> Answer + Send + Sync;

/// A [`Respond`] shared by the connections' threads.
pub type Responder = Arc<Respond>;

/// The stand-in for Lichess: each connection in its own thread, so that two requests at once
/// would be seen as such.
pub struct StandIn {
    /// Where it listens (`127.0.0.1:PORT`).
    pub address: String,
    received: Arc<Mutex<Vec<Received>>>,
    /// The most requests it had at once.
    pub most_at_once: Arc<AtomicUsize>,
}

impl StandIn {
    /// Listens on a free port of this machine, answering from `script`.
    pub fn start(script: Script) -> StandIn {
        StandIn::answering(Arc::new(move |n, _: &str| script(n)))
    }

    /// Listens on a free port of this machine, answering with `respond`.
    pub fn answering(respond: Responder) -> StandIn {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
        let address = listener.local_addr().expect("its address").to_string();
        let received = Arc::new(Mutex::new(Vec::new()));
        let most_at_once = Arc::new(AtomicUsize::new(0));
        let at_once = Arc::new(AtomicUsize::new(0));
        let (log, most) = (Arc::clone(&received), Arc::clone(&most_at_once));
        std::thread::spawn(move || {
            for stream in listener.incoming().map_while(Result::ok) {
                let (log, most, at_once, respond) = (
                    Arc::clone(&log),
                    Arc::clone(&most),
                    Arc::clone(&at_once),
                    Arc::clone(&respond),
                );
                std::thread::spawn(move || {
                    serve_connection(stream, &*respond, &log, &most, &at_once);
                });
            }
        });
        StandIn {
            address,
            received,
            most_at_once,
        }
    }

    /// Every request received so far.
    pub fn received(&self) -> Vec<Received> {
        self.received.lock().expect("the log").clone()
    }

    /// Waits until a received request satisfies `done`; all received until then.
    pub fn until(&self, within: Duration, done: impl Fn(&[Received]) -> bool) -> Vec<Received> {
        let deadline = Instant::now() + within;
        loop {
            let received = self.received();
            if done(&received) {
                return received;
            }
            assert!(
                Instant::now() < deadline,
                "not done within {within:?}: {received:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// Reads requests on one connection (HTTP/1.1 keep-alive) and answers them from the script.
fn serve_connection(
    stream: TcpStream,
    respond: &Respond,
    log: &Mutex<Vec<Received>>,
    most: &AtomicUsize,
    at_once: &AtomicUsize,
) {
    let mut reader = BufReader::new(stream.try_clone().expect("a second handle"));
    let mut writer = stream;
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
            return;
        }
        let arrived = Instant::now();
        let now = at_once.fetch_add(1, Ordering::SeqCst) + 1;
        most.fetch_max(now, Ordering::SeqCst);
        let mut headers = Vec::new();
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).expect("a header");
            let line = line.trim_end().to_owned();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
            }
        }
        let header = |name: &str| {
            headers
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
        };
        let length: usize = header("content-length")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let mut body = vec![0; length];
        reader.read_exact(&mut body).expect("the body");
        let number = log.lock().expect("the log").len();
        let (status, extra, reply) = respond(number, &String::from_utf8_lossy(&body));
        // A server that echoes the request's credentials in its error, as some proxies do.
        let reply = reply.replace(
            "{authorization}",
            &header("authorization").unwrap_or_default(),
        );
        // Lichess takes a while to answer: a second request sent meanwhile would overlap.
        std::thread::sleep(Duration::from_millis(150));
        at_once.fetch_sub(1, Ordering::SeqCst);
        log.lock().expect("the log").push(Received {
            path: request_line
                .split_whitespace()
                .nth(1)
                .unwrap_or("")
                .to_owned(),
            authorization: header("authorization"),
            content_type: header("content-type"),
            body: String::from_utf8_lossy(&body).into_owned(),
            arrived,
            answered: Instant::now(),
            status,
        });
        let mut head = format!(
            "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
            reply.len()
        );
        for (name, value) in extra {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        if writer.write_all(head.as_bytes()).is_err() || writer.write_all(reply.as_bytes()).is_err()
        {
            return;
        }
    }
}
