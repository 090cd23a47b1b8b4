//! A plain HTTP/1.1 client for the tests of `serve`: enough to GET a page, an API answer, a
//! PGN, and to read a Server-Sent Events stream for a while.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The status code and body of `GET path` from `address` (`127.0.0.1:PORT`).
pub fn get(address: &str, path: &str) -> (u16, String) {
    request(
        address,
        &format!("GET {path}"),
        &format!("Host: {address}\r\n"),
    )
}

/// The status code and body of the request `line` (`POST /api/stats/reset`) to `address`,
/// `head` its header lines (each ending in CRLF), with no body.
pub fn request(address: &str, line: &str, head: &str) -> (u16, String) {
    request_with_body(address, line, head, "")
}

/// As [`request`], with `body` as the request's body.
pub fn request_with_body(address: &str, line: &str, head: &str, body: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(address).expect("serve listens");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("a timeout");
    write!(
        stream,
        "{line} HTTP/1.1\r\n{head}Connection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .expect("the request is sent");
    let mut response = Vec::new();
    stream.read_to_end(&mut response).expect("the response");
    let text = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .expect("a status code");
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        unchunk(body)
    } else {
        body.to_owned()
    };
    (status, body)
}

/// A chunked body's content.
fn unchunk(body: &str) -> String {
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, after)) = rest.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.push_str(after.get(..size).unwrap_or(after));
        rest = after.get(size + 2..).unwrap_or("");
    }
    out
}

/// The `data:` lines a Server-Sent Events stream at `path` sends until it has been quiet for
/// `quiet` (the stream is kept open by the server: the test stops reading).
pub fn sse_data(address: &str, path: &str, quiet: Duration) -> Vec<String> {
    let mut reader = open_stream(address, path, quiet);
    let mut data = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut line = String::new();
    while Instant::now() < deadline {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                if let Some(json) = line.trim_end().strip_prefix("data: ") {
                    data.push(json.to_owned());
                }
            }
        }
    }
    data
}

/// The events (`data:` lines, as JSON) a Server-Sent Events stream at `path` sends, up to and
/// including the first for which `last` holds, or until the stream ends or `within` has passed.
pub fn sse_until(
    address: &str,
    path: &str,
    within: Duration,
    last: impl Fn(&serde_json::Value) -> bool,
) -> Vec<serde_json::Value> {
    let mut reader = open_stream(address, path, within);
    let mut events = Vec::new();
    let deadline = Instant::now() + within;
    let mut line = String::new();
    while Instant::now() < deadline {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let Some(json) = line.trim_end().strip_prefix("data: ") else {
                    continue;
                };
                let event: serde_json::Value = serde_json::from_str(json).expect("JSON data");
                let done = last(&event);
                events.push(event);
                if done {
                    break;
                }
            }
        }
    }
    events
}

/// The Server-Sent Events stream at `path`, each read waiting at most `timeout`.
fn open_stream(address: &str, path: &str, timeout: Duration) -> BufReader<TcpStream> {
    let mut stream = TcpStream::connect(address).expect("serve listens");
    stream.set_read_timeout(Some(timeout)).expect("a timeout");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {address}\r\nAccept: text/event-stream\r\n\r\n"
    )
    .expect("the request is sent");
    BufReader::new(stream)
}
