//! `serve` tried as an attacker would, while a board plays: only the operator changes a game,
//! and no client can starve the boards or take the process's memory. Each attack is made for
//! real, over TCP, against a running serve with a demo board and the LiveChess API:
//! - a page of another site opening the LiveChess WebSocket, or posting a change (its
//!   `Origin`), and a page that rebinds its own name to this address (its `Host`);
//! - changes on an address other machines reach, with and without the operator's token;
//! - a flood of `setup` calls (one new game);
//! - a client that sends calls and never reads;
//! - a 10 MB message, and a long FEN quoted back;
//! - connections that send their headers one byte at a time.
//!
//! Read-only clients (the e-board pages of lichess.org and chess.com, native clients with no
//! `Origin`) are still served throughout.

use crate::common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::os::fd::FromRawFd;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::client::IntoClientRequest;
use tungstenite::http::HeaderValue;
use tungstenite::{Message, WebSocket};

use common::http::request;
use common::serving::{FAST_DEMO as DEMO, Serve, serve_command, start};

/// serve with a demo board and the LiveChess API, on loopback, with `extra` arguments.
fn serve_demo(extra: &[&str]) -> (Serve, String) {
    let mut args = vec!["--livechess", "127.0.0.1:0"];
    args.extend(DEMO);
    args.extend(extra);
    let served = start(serve_command(&args));
    let livechess = served.livechess_address();
    (served, livechess)
}

/// Opens the LiveChess WebSocket at `address` (`/api/v1.0` and `query`) with `headers`: the
/// socket, or the status it was refused with.
fn websocket(
    address: &str,
    query: &str,
    headers: &[(&'static str, &str)],
) -> Result<WebSocket<TcpStream>, u16> {
    websocket_on(
        TcpStream::connect(address).expect("serve listens"),
        address,
        query,
        headers,
    )
}

fn websocket_on(
    stream: TcpStream,
    address: &str,
    query: &str,
    headers: &[(&'static str, &str)],
) -> Result<WebSocket<TcpStream>, u16> {
    let mut request = format!("ws://{address}/api/v1.0{query}")
        .into_client_request()
        .expect("a request");
    for (name, value) in headers {
        request
            .headers_mut()
            .insert(*name, HeaderValue::from_str(value).expect("a header"));
    }
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("a timeout");
    match tungstenite::client::client(request, stream) {
        Ok((socket, _)) => Ok(socket),
        Err(tungstenite::HandshakeError::Failure(tungstenite::Error::Http(response))) => {
            Err(response.status().as_u16())
        }
        Err(error) => panic!("the handshake failed: {error}"),
    }
}

/// Sends call `name` with `param` as call `id` and returns its response (feed messages
/// meanwhile are skipped).
fn call(socket: &mut WebSocket<TcpStream>, id: i64, name: &str, param: Value) -> Value {
    let text = json!({"call": name, "id": id, "param": param}).to_string();
    socket.send(Message::Text(text.into())).expect("sent");
    loop {
        match socket.read().expect("a message") {
            Message::Text(text) => {
                let message: Value = serde_json::from_str(text.as_str()).expect("JSON");
                if message["response"] != "feed" && message["id"] == id {
                    return message;
                }
            }
            _ => continue,
        }
    }
}

/// Subscribes feed 1 to board 1.
fn subscribe(socket: &mut WebSocket<TcpStream>) {
    let answer = call(
        socket,
        100,
        "subscribe",
        json!({"feed": "eboardevent", "id": 1, "param": {"serialnr": "1"}}),
    );
    assert_eq!(answer["response"], "call", "{answer}");
}

/// The message of an error response.
fn refusal(answer: &Value) -> String {
    assert_eq!(answer["response"], "error", "{answer}");
    answer["param"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// A setup of board 1 from the standard position, as call `id`.
fn setup(socket: &mut WebSocket<TcpStream>, id: i64) -> Value {
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    call(
        socket,
        id,
        "call",
        json!({"id": 1, "method": "setup", "param": {"fen": fen}}),
    )
}

/// Board 1's summary once a move of its game stands (a set-up of the standard start is then a
/// new game, not the game as it stands: issue 43), within 30 s.
fn board_under_way(address: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let now = board(address);
        if now["ply"].as_u64() >= Some(1) || Instant::now() > deadline {
            return now;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `/api/stats`, read.
fn stats(address: &str) -> Value {
    let (status, body) = common::http::get(address, "/api/stats");
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).expect("JSON")
}

/// Board 1's summary.
fn board(address: &str) -> Value {
    let (status, body) = common::http::get(address, "/api/boards");
    assert_eq!(status, 200, "{body}");
    let boards: Vec<Value> = serde_json::from_str(&body).expect("JSON");
    boards.into_iter().next().expect("board 1")
}

#[test]
fn a_page_of_another_site_can_neither_change_nor_read_a_game() {
    let (served, livechess) = serve_demo(&[]);
    let address = served.address.clone();
    // A cross-site WebSocket is refused; the e-board pages of lichess.org and chess.com, and a
    // native client with no Origin, are served.
    let evil = [("Origin", "https://evil.example")];
    assert_eq!(websocket(&livechess, "", &evil).err(), Some(403));
    for origin in ["https://lichess.org", "https://www.chess.com"] {
        let mut socket = websocket(&livechess, "", &[("Origin", origin)]).expect(origin);
        subscribe(&mut socket);
        let listed = call(&mut socket, 2, "eboards", Value::Null);
        // Board 1: by its name until the demo board has said its serial number (27001).
        let serialnr = &listed["param"][0]["serialnr"];
        assert!(serialnr == "1" || serialnr == "27001", "{listed}");
    }
    let mut native = websocket(&livechess, "", &[]).expect("a native client");
    subscribe(&mut native);
    // A cross-site POST is refused; a page of serve's own, or a native client, is taken.
    let own = format!("Host: {address}\r\n");
    let (status, said) = request(
        &address,
        "POST /api/stats/reset",
        &format!("{own}Origin: https://evil.example\r\n"),
    );
    assert_eq!(status, 403, "{said}");
    assert!(said.contains("https://evil.example"), "{said}");
    let (status, _) = request(
        &address,
        "POST /api/stats/reset",
        &format!("{own}Origin: http://{address}\r\n"),
    );
    assert_eq!(status, 204);
    let (status, _) = request(&address, "POST /api/stats/reset", &own);
    assert_eq!(status, 204);
    // A page that rebinds its own name to this address reads nothing, on either server; the
    // same requests by this server's names are answered.
    for (server, path) in [(&address, "/api/boards"), (&livechess, "/api/v1.0/eboards")] {
        let (status, said) = request(
            server,
            &format!("GET {path}"),
            "Host: evil.example:8080\r\n",
        );
        assert_eq!(status, 421, "{said}");
        assert!(
            !said.contains("serialnr") && !said.contains("\"fen\""),
            "{said}"
        );
        for host in [server.as_str(), "localhost"] {
            let (status, _) = request(server, &format!("GET {path}"), &format!("Host: {host}\r\n"));
            assert_eq!(status, 200, "{host}{path}");
        }
    }
    let rebinding = [("Host", "evil.example")];
    assert_eq!(websocket(&livechess, "", &rebinding).err(), Some(421));
    // The board played on throughout, never seen lost.
    assert_eq!(board(&address)["link"], "connected");
}

#[test]
fn on_an_address_others_reach_only_the_operator_s_token_changes_a_game() {
    let everywhere = |token: Option<&str>| {
        let mut command = common::bin();
        command
            .args(["serve", "--listen", "0.0.0.0:0", "--livechess", "0.0.0.0:0"])
            .args(DEMO)
            .env_remove("TOUCHMOVE_TOKEN");
        if let Some(token) = token {
            command.env("TOUCHMOVE_TOKEN", token);
        }
        let served = start(command);
        let livechess = served.livechess_address();
        (served, livechess)
    };
    // No token: read, never changed.
    let (served, livechess) = everywhere(None);
    let host = format!("Host: {}\r\n", served.address);
    let (status, said) = request(&served.address, "POST /api/stats/reset", &host);
    assert_eq!(status, 403, "{said}");
    assert!(said.contains("TOUCHMOVE_TOKEN"), "{said}");
    let mut socket = websocket(&livechess, "", &[]).expect("a reader");
    subscribe(&mut socket);
    let said = refusal(&setup(&mut socket, 2));
    assert!(said.contains("nothing may be changed"), "{said}");
    assert_eq!(board(&served.address)["game"], 1);
    drop(served);
    // With a token: changes with it only, as a header or (a browser's WebSocket) a query.
    let token = "op-s3cret-token-0123456789";
    let (served, livechess) = everywhere(Some(token));
    let host = format!("Host: {}\r\n", served.address);
    let (status, _) = request(&served.address, "POST /api/stats/reset", &host);
    assert_eq!(status, 401);
    let wrong = format!("{host}Authorization: Bearer op-s3cret\r\n");
    let (status, _) = request(&served.address, "POST /api/stats/reset", &wrong);
    assert_eq!(status, 401);
    let right = format!("{host}Authorization: Bearer {token}\r\n");
    let (status, _) = request(&served.address, "POST /api/stats/reset", &right);
    assert_eq!(status, 204);
    let mut reader = websocket(&livechess, "", &[]).expect("a reader");
    subscribe(&mut reader);
    assert!(refusal(&setup(&mut reader, 2)).contains("token"));
    let query = format!("?token={token}");
    let mut operator = websocket(&livechess, &query, &[]).expect("the operator");
    subscribe(&mut operator);
    board_under_way(&served.address);
    let answer = setup(&mut operator, 2);
    assert_eq!(answer["response"], "call", "{answer}");
    let deadline = Instant::now() + Duration::from_secs(20);
    while board(&served.address)["game"] != 2 {
        assert!(Instant::now() < deadline, "the set-up was not taken");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_setup_flood_makes_one_game_the_others_paced_or_taken_as_done() {
    let records = tempfile::tempdir().expect("a folder for the records");
    let dir = records.path().display().to_string();
    let (served, livechess) = serve_demo(&["--record-dir", &dir]);
    let mut socket = websocket(&livechess, "", &[]).expect("a client");
    subscribe(&mut socket);
    board_under_way(&served.address);
    let answers: Vec<Value> = (2..52).map(|id| setup(&mut socket, id)).collect();
    // The first takes a new game; each of the others is refused while that one is on its
    // way (a set-up a second at most), or taken as done once the new game stands there with
    // nothing played: one new game in all.
    assert_eq!(answers[0]["response"], "call", "{}", answers[0]);
    for answer in &answers {
        let paced = answer["response"] == "error" && refusal(answer).contains("less than 1 s ago");
        assert!(answer["response"] == "call" || paced, "{answer}");
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    while board(&served.address)["game"].as_u64() == Some(1) {
        assert!(Instant::now() < deadline, "the set-up was not taken");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(board(&served.address)["game"], 2);
    let logs = std::fs::read_dir(records.path())
        .expect("the records")
        .count();
    assert!(logs <= 2, "{logs} logs for one set-up");
}

/// A TCP connection to `address` whose receive buffer is as small as the kernel allows, so
/// that a client that does not read is seen at once.
fn small_window(address: &str) -> TcpStream {
    let address: std::net::SocketAddrV4 = address.parse().expect("an IPv4 address");
    // SAFETY: plain socket calls on a descriptor this function owns until it is handed over.
    unsafe {
        let fd = libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0);
        assert!(fd >= 0, "a socket");
        let size: libc::c_int = 1024;
        libc::setsockopt(
            fd,
            libc::SOL_SOCKET,
            libc::SO_RCVBUF,
            std::ptr::addr_of!(size).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        );
        let sockaddr = libc::sockaddr_in {
            sin_family: libc::AF_INET as libc::sa_family_t,
            sin_port: address.port().to_be(),
            sin_addr: libc::in_addr {
                s_addr: u32::from(*address.ip()).to_be(),
            },
            sin_zero: [0; 8],
        };
        let connected = libc::connect(
            fd,
            std::ptr::addr_of!(sockaddr).cast(),
            std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t,
        );
        assert_eq!(connected, 0, "connected");
        TcpStream::from_raw_fd(fd)
    }
}

/// The resident memory of process `pid`, KiB.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("its status");
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
        .expect("VmRSS")
}

#[test]
fn a_client_that_never_reads_is_dropped_and_costs_little() {
    // Twenty boards: each `eboards` answer is some 8 KB, so that a client that reads nothing
    // fills what the kernel holds for it within seconds.
    let mut args = vec!["--livechess", "127.0.0.1:0", "--demo", "20"];
    args.extend(["--demo-thinking", "20000-40000"]);
    let served = start(serve_command(&args));
    let livechess = served.livechess_address();
    let before = rss_kib(served.child.id());
    let stream = small_window(&livechess);
    // The flood's own writes stop blocking once serve has stopped reading it.
    stream
        .set_write_timeout(Some(Duration::from_secs(2)))
        .expect("a timeout");
    let mut socket = websocket_on(stream, &livechess, "", &[]).expect("a client");
    subscribe(&mut socket);
    // Calls as fast as it can send them, never reading an answer.
    let flood = json!({"call": "eboards", "id": 7, "param": null}).to_string();
    let deadline = Instant::now() + Duration::from_secs(60);
    while stats(&served.address)["clients_dropped"] == 0 {
        assert!(Instant::now() < deadline, "the client was never dropped");
        for _ in 0..50 {
            if socket.send(Message::Text(flood.clone().into())).is_err() {
                break;
            }
        }
        // A reader alongside is still served.
        let mut reader = websocket(&livechess, "", &[]).expect("a reader");
        let listed = call(&mut reader, 1, "eboards", Value::Null);
        assert_eq!(listed["response"], "call");
    }
    let after = rss_kib(served.child.id());
    assert!(
        after < before + 64 * 1024,
        "serve grew from {before} KiB to {after} KiB"
    );
    // The board was read on time throughout: never reported lost.
    assert_eq!(board(&served.address)["link"], "connected");
    let mut stream = TcpStream::connect(&served.address).expect("serve listens");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("a timeout");
    write!(
        stream,
        "GET /api/boards/1/events HTTP/1.1\r\nHost: {}\r\n\r\n",
        served.address
    )
    .expect("sent");
    let mut head = [0u8; 512];
    let n = stream.read(&mut head).expect("a stream's head");
    let head = String::from_utf8_lossy(&head[..n]);
    assert!(
        head.starts_with("HTTP/1.1 200") && head.contains("text/event-stream"),
        "{head}"
    );
}

#[test]
fn a_message_too_big_ends_its_connection_and_a_refusal_quotes_little() {
    let (served, livechess) = serve_demo(&[]);
    let mut socket = websocket(&livechess, "", &[]).expect("a client");
    let huge = "x".repeat(10 * 1024 * 1024);
    // The server closes the connection once the frame's header says how long it is.
    let _ = socket.send(Message::Text(huge.into()));
    let closed = loop {
        match socket.read() {
            Ok(Message::Close(_)) | Err(_) => break true,
            Ok(_) => continue,
        }
    };
    assert!(closed);
    // A FEN too long to be one is refused quoting its first characters only.
    let mut socket = websocket(&livechess, "", &[]).expect("a client");
    subscribe(&mut socket);
    let fen = "r".repeat(12_000);
    let answer = call(
        &mut socket,
        2,
        "call",
        json!({"id": 1, "method": "setup", "param": {"fen": fen}}),
    );
    let said = refusal(&answer);
    assert!(said.len() < 300 && said.contains('…'), "{said}");
    assert_eq!(board(&served.address)["link"], "connected");
}

#[test]
fn connections_that_send_their_headers_slowly_are_cut_off() {
    let (served, _) = serve_demo(&[]);
    let started = Instant::now();
    let mut slow: Vec<TcpStream> = (0..20)
        .map(|_| {
            let mut stream = TcpStream::connect(&served.address).expect("serve listens");
            stream
                .write_all(b"GET /api/boards HTTP/1.1\r\n")
                .expect("sent");
            stream
        })
        .collect();
    // One byte of a header every half second, on every connection, until each is closed.
    let mut open = slow.len();
    while open > 0 {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{open} slow connections still open after 30 s"
        );
        std::thread::sleep(Duration::from_millis(500));
        open = 0;
        for stream in &mut slow {
            if stream.write_all(b"X").is_ok() && stream.flush().is_ok() {
                open += 1;
            }
        }
    }
    assert!(
        started.elapsed() >= Duration::from_secs(5),
        "closed too soon"
    );
    // Meanwhile, and after, a client that asks properly is answered.
    assert_eq!(board(&served.address)["link"], "connected");
}

#[test]
fn an_oversized_body_is_refused_in_touchmove_s_words_with_its_limit() {
    let token = "op-s3cret-token-0123456789";
    let mut command = serve_command(DEMO.as_slice());
    command.env("TOUCHMOVE_TOKEN", token);
    let served = start(command);
    let head = format!(
        "Host: {}\r\nAuthorization: Bearer {token}\r\n",
        served.address
    );
    for (action, limit) in [("note", 500), ("time", 64)] {
        let line = format!("POST /api/boards/1/{action}");
        let body = "x".repeat(limit + 1);
        let (status, said) = common::http::request_with_body(&served.address, &line, &head, &body);
        assert_eq!(status, 413, "{action}: {said}");
        assert_eq!(
            said.trim(),
            format!("the request's body is over its limit of {limit} bytes"),
            "{action}"
        );
    }
}
