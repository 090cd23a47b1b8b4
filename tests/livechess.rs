//! `serve --livechess` as the tools that read e-boards through DGT LiveChess use it: three
//! boards of three protocols, emulated as independent processes on real pseudo-terminals, and a
//! client that speaks LiveChess's protocol over a real WebSocket as those tools do (`eboards`,
//! `subscribe` to each board's `eboardevent` feed, whose messages carry the board each time and
//! the moves only when one more stands; then `setup` and `flip`).
//! What it is told is checked against the games played, worked out with shakmaty.

use crate::common;

use std::collections::{HashMap, VecDeque};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{Chess, EnPassantMode, Position};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

use common::http::get;
use common::serving::{COVERAGE_GAME, serve, three_boards};
use common::watching::source_game;

/// A LiveChess client: calls answered by id, feed messages kept per feed until read.
struct Client {
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    next_id: i64,
    feeds: HashMap<i64, VecDeque<Value>>,
}

impl Client {
    fn connect(address: &str) -> Client {
        Client::connect_from(address, None)
    }

    /// A client whose WebSocket is opened by a page of `origin` (`None`: a native client).
    fn connect_from(address: &str, origin: Option<&str>) -> Client {
        use tungstenite::client::IntoClientRequest;
        let mut request = format!("ws://{address}/api/v1.0")
            .into_client_request()
            .expect("a request");
        if let Some(origin) = origin {
            request
                .headers_mut()
                .insert("Origin", origin.parse().expect("an origin"));
        }
        let (socket, _) = tungstenite::connect(request).expect("a WebSocket");
        if let MaybeTlsStream::Plain(stream) = socket.get_ref() {
            stream
                .set_read_timeout(Some(Duration::from_millis(200)))
                .expect("a read timeout");
        }
        Client {
            socket,
            next_id: 1,
            feeds: HashMap::new(),
        }
    }

    /// The next message, if one comes within the read timeout.
    fn read(&mut self) -> Option<Value> {
        match self.socket.read() {
            Ok(Message::Text(text)) => Some(serde_json::from_str(text.as_str()).expect("JSON")),
            Ok(_) => None,
            Err(tungstenite::Error::Io(error))
                if matches!(
                    error.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                None
            }
            Err(error) => panic!("the WebSocket failed: {error}"),
        }
    }

    /// Sends `text` and returns the response to call `id` (`null`: a call whose id cannot be
    /// read; feed messages meanwhile are kept).
    fn send_for(&mut self, text: String, id: Value) -> Value {
        self.socket.send(Message::Text(text.into())).expect("sent");
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            let Some(message) = self.read() else { continue };
            if message["response"] == "feed" {
                let feed = message["id"].as_i64().expect("a feed id");
                self.feeds.entry(feed).or_default().push_back(message);
            } else if message["id"] == id {
                return message;
            }
        }
        panic!("no response to call {id}");
    }

    /// Call `name` with `param`: its response.
    fn call(&mut self, name: &str, param: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.call_with_id(json!(id), name, param)
    }

    /// Call `name` with `param`, its id `id` (a number or a string): its response.
    fn call_with_id(&mut self, id: Value, name: &str, param: Value) -> Value {
        let text = json!({"call": name, "id": id, "param": param}).to_string();
        self.send_for(text, id)
    }

    /// Feed `feed`'s messages until one satisfies `done` (returned with those before it).
    fn feed_until(&mut self, feed: i64, done: impl Fn(&Value) -> bool) -> Vec<Value> {
        let deadline = Instant::now() + Duration::from_secs(90);
        let mut got = Vec::new();
        while Instant::now() < deadline {
            while let Some(message) = self.feeds.entry(feed).or_default().pop_front() {
                let finished = done(&message["param"]);
                got.push(message);
                if finished {
                    return got;
                }
            }
            if let Some(message) = self.read()
                && message["response"] == "feed"
            {
                let id = message["id"].as_i64().expect("a feed id");
                self.feeds.entry(id).or_default().push_back(message);
            }
        }
        panic!("feed {feed}: not done within 90 s; got {got:?}");
    }
}

/// The position after `sans` from the start.
fn after(sans: &[String]) -> Chess {
    let mut position = Chess::default();
    for san in sans {
        let played = san
            .parse::<San>()
            .expect("SAN")
            .to_move(&position)
            .expect("legal");
        position.play_unchecked(played);
    }
    position
}

fn placement(position: &Chess) -> String {
    position.board().board_fen().to_string()
}

#[test]
fn a_livechess_client_follows_three_boards_and_sets_one_up_and_turns_one_round() {
    let (emulated, _) = three_boards();
    let record = std::env::temp_dir().join(format!("touchmove-livechess-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&record);
    std::fs::create_dir_all(&record).expect("a folder");
    let record_arg = record.display().to_string();
    // The boards are plugged in once the client has set them up: serve is given where they will
    // be, which is nothing yet.
    let plugs: Vec<std::path::PathBuf> =
        (0..3).map(|n| record.join(format!("board-{n}"))).collect();
    let [north, hall, chesslink] = [0, 1, 2].map(|n| plugs[n].display().to_string());
    let specs = [
        format!("north={north}"),
        format!("hall:{hall}"),
        format!("chesslink:{chesslink}"),
    ];
    let mut args = vec!["--livechess", "127.0.0.1:0", "--record-dir", &record_arg];
    for spec in &specs {
        args.extend(["--board", spec.as_str()]);
    }
    args.extend(common::SCALED_WINDOWS);
    let served = serve(&args);
    let livechess = served.livechess_address();
    let played = source_game("games/coverage.pgn", 1);
    let end = after(&played);

    // Subscribed to every board, as Lichess's page and lichess-dgt-boards are.
    let mut client = Client::connect(&livechess);
    let names = ["north", "2", "3"];
    for (feed, name) in (1..).zip(names) {
        let param = json!({"feed": "eboardevent", "id": feed, "param": {"serialnr": name}});
        let answer = client.call("subscribe", param);
        assert_eq!(answer["response"], "call", "{answer}");
        assert_eq!(answer["param"], Value::Null, "{answer}");
        assert!(answer["time"].as_u64().is_some(), "{answer}");
        // Before a client sets the board up, DGT LiveChess says the board and no moves.
        let first = client.feed_until(feed, |_| true);
        let param = &first.last().expect("a message")["param"];
        assert!(param["board"].is_string(), "{param}");
        for field in ["san", "start", "match"] {
            assert!(
                param.get(field).is_none(),
                "{field} before a setup: {param}"
            );
        }
    }
    // Each board set up for a game from the standard start, then plugged in: the games.
    let standard = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    for feed in 1..=3 {
        let setup = json!({"id": feed, "method": "setup", "param": {"fen": standard}});
        let answer = client.call("call", setup);
        assert_eq!(answer["response"], "call", "{answer}");
    }
    for (plug, board) in plugs.iter().zip(&emulated) {
        std::os::unix::fs::symlink(&board.port, plug).expect("plugged in");
    }

    // Each feed, read as Lichess reads it: every SAN not seen yet is a new move.
    for (feed, name) in (1..).zip(names) {
        let messages = client.feed_until(feed, |param| {
            param["san"].as_array().map(Vec::len) == Some(played.len())
        });
        let mut seen: Vec<String> = Vec::new();
        for message in &messages {
            let param = &message["param"];
            assert_eq!(param["serialnr"], name, "{message}");
            // The board in every message, as DGT LiveChess sends it.
            assert!(param["board"].is_string(), "{message}");
            // The moves only when they changed, one more at a time: the last SAN of each
            // message is a new move (some clients read only that).
            let Some(san) = param["san"].as_array() else {
                assert!(param.get("start").is_none(), "{message}");
                continue;
            };
            assert_eq!(
                param["start"],
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
            );
            let san: Vec<String> = san
                .iter()
                .map(|s| s.as_str().expect("a SAN").to_owned())
                .collect();
            if !seen.is_empty() {
                assert_eq!(
                    san.len(),
                    seen.len() + 1,
                    "board {name}: {seen:?} then {san:?}"
                );
            }
            assert!(
                san.starts_with(&seen),
                "board {name}: {seen:?} then {san:?}"
            );
            seen = san;
        }
        assert_eq!(seen, played, "board {name}: not the game played");
        let board_said = messages
            .iter()
            .rev()
            .find_map(|message| message["param"]["board"].as_str())
            .expect("the board, said at least once");
        assert_eq!(board_said, placement(&end), "board {name}");
    }

    // `eboards`, on the socket and over HTTP: the three boards as they stand.
    let listed = client.call("eboards", Value::Null);
    let listed = listed["param"].as_array().expect("a list").clone();
    let serials: Vec<&str> = listed
        .iter()
        .filter_map(|b| b["serialnr"].as_str())
        .collect();
    // Each board by its serial number once it has said one, as DGT LiveChess lists it: the
    // emulated DGT board's SERIALNR (31415), the Hall board's id ("TMHALL01" in hex); a
    // ChessLink board says none, and keeps its name.
    let hall_id: String = b"TMHALL01".iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(serials, ["31415", hall_id.as_str(), "3"]);
    // A client configured with the serial finds the board by it (a number, as some send it),
    // and is answered by the id it gave (a string id too); `sources` names the ports.
    let mut by_serial = Client::connect(&livechess);
    let param = json!({"feed": "eboardevent", "id": 5, "param": {"serialnr": 31415}});
    let answer = by_serial.call("subscribe", param);
    assert_eq!(answer["response"], "call", "{answer}");
    let first = by_serial.feed_until(5, |_| true);
    let said = &first.last().expect("a message")["param"];
    assert_eq!(said["board"], placement(&end).as_str(), "{said}");
    assert_eq!(said["serialnr"], "31415", "{said}");
    let sources = by_serial.call_with_id(json!("sources-1"), "sources", Value::Null);
    assert_eq!(sources["id"], "sources-1", "{sources}");
    let devices: Vec<&str> = sources["param"]
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|source| source["device"].as_str())
        .collect();
    assert_eq!(devices, [north.as_str(), hall.as_str(), chesslink.as_str()]);
    for (eboard, board) in listed.iter().zip([&north, &hall, &chesslink]) {
        assert_eq!(eboard["state"], "ACTIVE", "{eboard}");
        assert_eq!(eboard["board"], placement(&end).as_str(), "{eboard}");
        assert_eq!(eboard["flipped"], false, "{eboard}");
        assert_eq!(eboard["source"], board.as_str(), "{eboard}");
        assert!(eboard.get("battery").is_some() && eboard.get("clock").is_some());
    }
    let (status, body) = get(&livechess, "/api/v1.0/eboards");
    assert_eq!(status, 200);
    let over_http: Vec<Value> = serde_json::from_str(&body).expect("JSON");
    let boards_of = |list: &[Value]| -> Vec<(Value, Value)> {
        list.iter()
            .map(|b| (b["serialnr"].clone(), b["board"].clone()))
            .collect()
    };
    assert_eq!(boards_of(&over_http), boards_of(&listed));

    // `setup` on north's feed: a new game from the position the board shows; it starts at once.
    let fen = Fen::from_position(&end, EnPassantMode::Legal).to_string();
    let answer = client.call(
        "call",
        json!({"id": 1, "method": "setup", "param": {"fen": fen}}),
    );
    assert_eq!(answer["response"], "call", "{answer}");
    let set_up = client.feed_until(1, |param| param["start"] == fen.as_str());
    let last = &set_up.last().expect("a message")["param"];
    assert_eq!(last["san"], json!([]), "{last}");
    assert_eq!(last["match"], true, "{last}");
    // Game 1 was set up before it started (the boards were not there: it stood at the
    // standard start with nothing played, so the set-up was that game, issue 43) and played,
    // and this is game 2, started. The feed may say the set-up a moment before the board's summary
    // says the start: the summary is read until it does, or for ten seconds.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let north_now = loop {
        let (_, summaries) = get(&served.address, "/api/boards");
        let summaries: Vec<Value> = serde_json::from_str(&summaries).expect("JSON");
        let north_now = summaries.into_iter().next().expect("north's summary");
        let started = north_now["game"] == 2 && north_now["started"] == true;
        if started || std::time::Instant::now() > deadline {
            break north_now;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(north_now["game"], 2, "{north_now}");
    assert_eq!(north_now["started"], true, "{north_now}");
    let (_, pgn) = get(&served.address, "/boards/north.pgn");
    assert!(pgn.contains(&format!("[FEN \"{fen}\"]")), "{pgn}");
    let log = std::fs::read_to_string(record.join("north-game2.log")).expect("game 2's log");
    assert!(log.contains(&format!("@start {fen}")), "{log}");

    // `flip` on board 3's feed (a ChessLink board: it tells the pieces apart): the board is
    // read turned round, then the right way again.
    let answer = client.call(
        "call",
        json!({"id": 3, "method": "flip", "param": {"flip": true}}),
    );
    assert_eq!(answer["response"], "call", "{answer}");
    let mut turned = end.board().clone();
    turned.rotate_180();
    let flipped = client.feed_until(3, |param| param["flipped"] == true);
    let param = &flipped.last().expect("a message")["param"];
    assert_eq!(
        param["board"],
        turned.board_fen().to_string().as_str(),
        "{param}"
    );
    assert_eq!(param["match"], false, "{param}");
    client.call(
        "call",
        json!({"id": 3, "method": "flip", "param": {"flip": false}}),
    );
    let back = client.feed_until(3, |param| param["flipped"] == false);
    let param = &back.last().expect("a message")["param"];
    assert_eq!(param["board"], placement(&end).as_str(), "{param}");
    assert_eq!(param["match"], true, "{param}");

    // What it cannot do, it says, with the call's id (`null` when the call is unreadable).
    let refused = [
        (
            client.call(
                "subscribe",
                json!({"feed": "eboardevent", "id": 9, "param": {"serialnr": "nowhere"}}),
            ),
            "no eboard has serialnr nowhere",
        ),
        (
            client.call(
                "call",
                json!({"id": 1, "method": "setup", "param": {"fen": "not a fen"}}),
            ),
            "setup: `not a fen` is no FEN",
        ),
        (
            client.call("call", json!({"id": 8, "method": "flip"})),
            "no feed 8 is subscribed",
        ),
        (
            client.call("shutdown", Value::Null),
            "unknown call `shutdown`",
        ),
    ];
    for (answer, message) in &refused {
        assert_eq!(answer["response"], "error", "{answer}");
        let said = answer["param"]["message"].as_str().unwrap_or_default();
        assert!(said.starts_with(message), "{answer}");
    }
    let garbage = client.send_for("{not json".to_owned(), Value::Null);
    assert_eq!(garbage["response"], "error", "{garbage}");
    drop(emulated);
    let _ = std::fs::remove_dir_all(&record);
}

/// How a LiveChess client takes the moves of a feed message, as its own code does.
#[derive(Clone, Copy, Debug)]
enum Reading {
    /// Lichess's DGT page (lila `ui/dgt/src/play.ts`): a message's `san` equal to the last
    /// taken is a duplicate; otherwise the SANs beyond the last taken list are new.
    Lila,
    /// lichess-dgt-boards (`board-manager.js`): the last SAN of every message that has `san`
    /// is played on a board of its own.
    LastSan,
}

/// The moves a client reading `messages` as `reading` says takes, and the SANs it could not
/// play on its own board (a phantom or a repeated move).
fn taken_moves(messages: &[Value], reading: Reading) -> (Vec<String>, Vec<String>) {
    let mut board = Chess::default();
    let (mut taken, mut refused) = (Vec::new(), Vec::new());
    let mut last: Option<Vec<String>> = None;
    for message in messages {
        let Some(san) = message["param"]["san"].as_array() else {
            continue;
        };
        let san: Vec<String> = san
            .iter()
            .filter_map(|s| s.as_str().map(str::to_owned))
            .collect();
        let new: Vec<String> = match reading {
            Reading::LastSan => san.last().cloned().into_iter().collect(),
            Reading::Lila if san.is_empty() || last.as_ref() == Some(&san) => Vec::new(),
            Reading::Lila => {
                let before = last.as_ref().map_or(san.len().saturating_sub(1), Vec::len);
                san.iter().skip(before).cloned().collect()
            }
        };
        if matches!(reading, Reading::Lila) && !san.is_empty() {
            last = Some(san.clone());
        }
        for text in new {
            let played = text
                .parse::<San>()
                .ok()
                .and_then(|parsed| parsed.to_move(&board).ok());
            match played {
                Some(m) => {
                    board.play_unchecked(m);
                    taken.push(text);
                }
                None => refused.push(text),
            }
        }
    }
    (taken, refused)
}

#[test]
fn lila_s_and_lichess_dgt_boards_call_sequences_take_every_move_once() {
    let played = source_game("games/coverage.pgn", 1);
    let emulated = [
        common::emulator::emulate_board("dgt", &COVERAGE_GAME),
        common::emulator::emulate_board("hall", &COVERAGE_GAME),
    ];
    let dir = tempfile::tempdir().expect("a folder");
    let plugs: Vec<String> = (0..2)
        .map(|n| dir.path().join(format!("board-{n}")).display().to_string())
        .collect();
    let specs = [
        format!("lila={}", plugs[0]),
        format!("node=hall:{}", plugs[1]),
    ];
    let mut args = vec!["--livechess", "127.0.0.1:0"];
    for spec in &specs {
        args.extend(["--board", spec.as_str()]);
    }
    args.extend(common::SCALED_WINDOWS);
    let served = serve(&args);
    let livechess = served.livechess_address();
    let standard = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    // Lichess's page, from its origin, and the Node bridge (no origin): `eboards`, a board
    // found by its serialnr, `subscribe`, `setup` from the standard start.
    let mut clients = [
        (
            Client::connect_from(&livechess, Some("https://lichess.org")),
            Reading::Lila,
            0,
        ),
        (Client::connect(&livechess), Reading::LastSan, 1),
    ];
    for (client, _, index) in &mut clients {
        let boards = client.call("eboards", Value::Null);
        let serialnr = boards["param"][*index]["serialnr"].clone();
        let subscribe = json!({"feed": "eboardevent", "id": 1, "param": {"serialnr": serialnr}});
        assert_eq!(client.call("subscribe", subscribe)["response"], "call");
        let setup = json!({"id": 1, "method": "setup", "param": {"fen": standard}});
        assert_eq!(client.call("call", setup)["response"], "call");
    }
    for (plug, board) in plugs.iter().zip(&emulated) {
        std::os::unix::fs::symlink(&board.port, plug).expect("plugged in");
    }
    for (client, reading, _) in &mut clients {
        let messages = client.feed_until(1, |param| {
            param["san"].as_array().map(Vec::len) == Some(played.len())
        });
        let (taken, refused) = taken_moves(&messages, *reading);
        assert_eq!(taken, played, "{reading:?}: every move once, in order");
        assert_eq!(
            refused,
            Vec::<String>::new(),
            "{reading:?}: no phantom move"
        );
    }
}

#[test]
fn a_burst_of_setups_of_the_position_the_game_stands_at_makes_one_game() {
    let served = serve(&["--demo", "1", "--livechess", "127.0.0.1:0"]);
    let livechess = served.livechess_address();
    // The demo's game is under way: a move stands.
    common::http::sse_until(
        &served.address,
        "/api/boards/1/events",
        Duration::from_secs(60),
        |event| event["kind"] == "move",
    );
    let game_now = || -> Value {
        let (_, body) = get(&served.address, "/api/boards");
        let boards: Vec<Value> = serde_json::from_str(&body).expect("JSON");
        boards.into_iter().next().expect("board 1")
    };
    let before = game_now()["game"].as_u64().expect("a game number");
    let mut client = Client::connect(&livechess);
    let param = json!({"feed": "eboardevent", "id": 1, "param": {"serialnr": "1"}});
    assert_eq!(client.call("subscribe", param)["response"], "call");
    // 200 setups of the standard start in one write, as a tool retrying in a loop sends them.
    let standard = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let burst = |client: &mut Client, first_id: i64, count: i64| -> Vec<Value> {
        for id in first_id..first_id + count {
            let call = json!({"call": "call", "id": id,
                "param": {"id": 1, "method": "setup", "param": {"fen": standard}}});
            client
                .socket
                .write(Message::Text(call.to_string().into()))
                .expect("written");
        }
        client.socket.flush().expect("sent");
        let mut answers = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(120);
        while answers.len() < usize::try_from(count).unwrap_or(0) && Instant::now() < deadline {
            if let Some(message) = client.read()
                && message["response"] != "feed"
            {
                answers.push(message);
            }
        }
        answers
    };
    let answers = burst(&mut client, 100, 200);
    assert_eq!(answers.len(), 200, "every call answered");
    // The first starts the new game; the next are paced while it is on its way (a second at
    // most), and answered as done once the new game stands there with nothing played.
    assert_eq!(answers[0]["response"], "call", "{}", answers[0]);
    for answer in &answers {
        let paced = answer["response"] == "error"
            && answer["param"]["message"]
                .as_str()
                .is_some_and(|said| said.contains("was set up less than 1 s ago"));
        assert!(answer["response"] == "call" || paced, "{answer}");
    }
    // The new game is numbered once the runner has taken the first setup.
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut after = game_now();
    while after["game"].as_u64() == Some(before) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
        after = game_now();
    }
    assert_eq!(after["game"].as_u64(), Some(before + 1), "{after}");
    // Asked again later: done, and nothing starts.
    std::thread::sleep(Duration::from_millis(1_100));
    let again = burst(&mut client, 1_000, 20);
    assert!(again.iter().all(|a| a["response"] == "call"), "{again:?}");
    assert_eq!(game_now()["game"].as_u64(), Some(before + 1));
    let setups = common::http::sse_data(
        &served.address,
        "/api/boards/1/events",
        Duration::from_millis(500),
    );
    let set_up: Vec<&String> = setups.iter().filter(|e| e.contains("\"setup\"")).collect();
    assert_eq!(set_up.len(), 1, "{setups:?}");
}

#[test]
fn another_board_on_a_named_port_is_a_new_board_and_the_old_board_s_feed_is_told_it_is_gone() {
    let emulate = |serial: &str| {
        let mut args = COVERAGE_GAME.to_vec();
        args.extend(["--serial", serial]);
        common::emulator::emulate_board("dgt", &args)
    };
    let first = emulate("11111");
    let second = emulate("22222");
    let dir = tempfile::tempdir().expect("a folder");
    let link = dir.path().join("north");
    std::os::unix::fs::symlink(&first.port, &link).expect("a link");
    let spec = format!("north={}", link.display());
    let served = serve(&["--board", &spec, "--livechess", "127.0.0.1:0"]);
    let livechess = served.livechess_address();
    let summary = || -> Value {
        let (_, body) = get(&served.address, "/api/boards");
        let boards: Vec<Value> = serde_json::from_str(&body).expect("JSON");
        boards.into_iter().next().expect("north")
    };
    // Board 11111 plays; a client follows it by its serial number.
    let deadline = Instant::now() + Duration::from_secs(30);
    while !(summary()["serial"] == "11111" && summary()["ply"].as_u64() >= Some(1)) {
        assert!(Instant::now() < deadline, "{}", summary());
        std::thread::sleep(Duration::from_millis(50));
    }
    let game = summary()["game"].as_u64().expect("a game number");
    let mut client = Client::connect(&livechess);
    let param = json!({"feed": "eboardevent", "id": 1, "param": {"serialnr": "11111"}});
    assert_eq!(client.call("subscribe", param)["response"], "call");
    client.feed_until(1, |param| param["serialnr"] == "11111");
    // Board 11111 goes; board 22222 is plugged in on the same port.
    drop(first);
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&second.port, &link).expect("a link");
    // The feed of 11111 is told it is gone, and says nothing more.
    let gone = client.feed_until(1, |param| param["state"] == "REMOVED");
    let last = &gone.last().expect("a message")["param"];
    assert_eq!(last["serialnr"], "11111", "{last}");
    let said = last["message"].as_str().unwrap_or_default();
    assert!(said.contains("board 22222 answers on its port"), "{said}");
    assert!(last.get("board").is_none(), "{last}");
    // A new board: its own serial in the summary and in eboards, and a new game.
    let now = summary();
    assert_eq!(now["serial"], "22222", "{now}");
    assert_eq!(now["game"].as_u64(), Some(game + 1), "{now}");
    let (_, body) = get(&livechess, "/api/v1.0/eboards");
    let eboards: Vec<Value> = serde_json::from_str(&body).expect("JSON");
    assert_eq!(eboards[0]["serialnr"], "22222", "{eboards:?}");
    drop(served);
    drop(second);
}
