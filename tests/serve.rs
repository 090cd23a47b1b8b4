//! `touchmove serve` as a person uses it: boards emulated as independent processes on real
//! pseudo-terminals (a DGT, a Hall-sensor and a ChessLink board; a Chessnut board behind the
//! BlueZ stand-in, reached through the real Bluetooth code), `serve --board ...` watching
//! them, and what it serves checked: `/api/boards` and `/games.pgn` (read back by python-chess)
//! equal the games played, each board's event stream equals the replay of the sensor log serve
//! recorded, and the pages, rendered by headless Chromium (over WebDriver), show the games.

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;

use common::browser::Browser;
use common::emulator::emulate_board;
use common::http::{get, sse_data, sse_until};
use common::serving::serve;
use common::watching::{replay_with, source_game};

/// Waits until there are `count` boards and every one's game has `plies` plies, or the
/// deadline.
fn wait_for_boards(address: &str, count: usize, plies: u64) -> Vec<Value> {
    let deadline = std::time::Instant::now() + Duration::from_secs(90);
    loop {
        let boards = wait_for_plies(address, plies);
        if boards.len() >= count || std::time::Instant::now() > deadline {
            return boards;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Waits until every board's summary says its game has `plies` plies, or the deadline.
fn wait_for_plies(address: &str, plies: u64) -> Vec<Value> {
    let deadline = std::time::Instant::now() + Duration::from_secs(90);
    loop {
        let (status, body) = get(address, "/api/boards");
        assert_eq!(status, 200, "{body}");
        let boards: Vec<Value> = serde_json::from_str(&body).expect("JSON");
        let done = boards
            .iter()
            .all(|board| board["ply"].as_u64() == Some(plies));
        if done || std::time::Instant::now() > deadline {
            return boards;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn three_boards_of_three_protocols_served_live() {
    let game = ["--pgn", "fixtures/games/coverage.pgn", "--speed", "20"];
    let dgt = emulate_board("dgt", &game);
    let hall = emulate_board("hall", &game);
    let chesslink = emulate_board("chesslink", &game);
    let record = std::env::temp_dir().join(format!("touchmove-serve-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&record);
    let boards = [
        format!("north={}", dgt.port),
        format!("hall:{}", hall.port),
        format!("chesslink:{}", chesslink.port),
    ];
    let mut args = vec!["--round", "4"];
    for board in &boards {
        args.extend(["--board", board.as_str()]);
    }
    let record_arg = record.display().to_string();
    args.extend(["--record-dir", record_arg.as_str()]);
    args.extend(common::SCALED_WINDOWS);
    let served = serve(&args);
    let played = source_game("games/coverage.pgn", 1);
    let plies = played.len() as u64;

    // The hall's API: every board, in the order given, named as asked, with the game played.
    let summaries = wait_for_plies(&served.address, plies);
    let names: Vec<&str> = summaries
        .iter()
        .filter_map(|b| b["name"].as_str())
        .collect();
    assert_eq!(names, ["north", "2", "3"]);
    let protocols: Vec<&str> = summaries
        .iter()
        .filter_map(|b| b["protocol"].as_str())
        .collect();
    assert_eq!(protocols, ["dgt", "hall", "chesslink"]);
    for summary in &summaries {
        assert_eq!(summary["ply"].as_u64(), Some(plies), "{summary}");
    }

    // Each board's stream: the game played, and what replaying serve's recording decides.
    for name in ["north", "2", "3"] {
        let path = format!("/api/boards/{name}/events");
        let events: Vec<Value> = sse_data(&served.address, &path, Duration::from_secs(1))
            .iter()
            .map(|line| serde_json::from_str(line).expect("a JSON event"))
            .collect();
        assert_eq!(
            common::recorded_games(&events),
            vec![played.clone()],
            "board {name}: not the game played"
        );
        let game_events: Vec<Value> = events
            .into_iter()
            .filter(|event| event["kind"] != "link")
            .collect();
        let log = record.join(format!("{name}-game1.log"));
        assert_eq!(
            game_events,
            replay_with(&log, &common::SCALED_WINDOWS),
            "board {name}: the stream differs from the replay of its recording"
        );
    }

    // The PGN a broadcast polls: three games in board order, read back by python-chess.
    let (status, pgn) = get(&served.address, "/games.pgn");
    assert_eq!(status, 200);
    assert_eq!(common::pgn_games(&pgn), vec![played.clone(); 3]);
    assert!(
        pgn.contains("[Round \"4\"]") && pgn.contains("[Board \"north\"]"),
        "{pgn}"
    );
    let read_back = common::python_chess_games(std::slice::from_ref(&pgn));
    assert_eq!(
        read_back,
        vec![vec![played.clone(); 3]],
        "python-chess reads other games"
    );
    let (status, one) = get(&served.address, "/boards/north.pgn");
    assert_eq!(status, 200);
    assert_eq!(common::pgn_games(&one), vec![played.clone()]);

    // The pages as a person sees them: every board on the hall, the moves on a board page.
    let browser = Browser::start(1600, 1000);
    browser.open(&format!("http://{}/", served.address));
    let within = Duration::from_secs(10);
    let hall_text = browser.text_when("#boards", within, |text| text.contains("Board 3"));
    for name in ["Board north", "Board 2", "Board 3"] {
        assert!(
            hall_text.contains(name),
            "the hall misses {name}:\n{hall_text}"
        );
    }
    if let Ok(dir) = std::env::var("TOUCHMOVE_SCREENSHOTS") {
        browser.screenshot(&std::path::Path::new(&dir).join("hall.png"));
    }
    browser.open(&format!("http://{}/board/north", served.address));
    let moves = browser.text_when("#moves", within, |text| {
        text.split_whitespace().count() == played.len()
    });
    let shown: Vec<&str> = moves.split_whitespace().collect();
    assert_eq!(shown, played, "the board page's move list");
    if let Ok(dir) = std::env::var("TOUCHMOVE_SCREENSHOTS") {
        browser.screenshot(&std::path::Path::new(&dir).join("board.png"));
    }
    let (status, _) = get(&served.address, "/board/nowhere");
    assert_eq!(status, 404);
    drop((dgt, hall, chesslink));
    let _ = std::fs::remove_dir_all(&record);
}

/// What a person sees happen: a ruling appears with its article, and an unplugged board shows
/// as lost, then as back.
#[test]
fn a_ruling_and_an_unplugged_board_show_on_their_pages() {
    // The browser first: on a loaded machine it takes seconds to start, and the page must be
    // open before the board is unplugged.
    let browser = Browser::start(1600, 1000);
    // Messy hands, seed 1: rook-first castling at plies 14 and 15 (FIDE 4.4.2, worked out
    // with `touchmove simulate fixtures/games/coverage.pgn --board identifying --style messy
    // --seed 0`, whose game 1 has seed 1).
    let ruled = emulate_board(
        "dgt",
        &[
            "--pgn",
            "fixtures/games/coverage.pgn",
            "--speed",
            "20",
            "--messy",
            "--seed",
            "1",
        ],
    );
    // Unplugged 4 s after the start (serve started and the page opened well before) for 3 s: a
    // request unanswered for half a second is a board lost.
    let unplugged = emulate_board(
        "dgt",
        &[
            "--pgn",
            "fixtures/games/coverage.pgn",
            "--speed",
            "20",
            "--unplug-at",
            "4000",
            "--unplug-for",
            "3000",
        ],
    );
    let boards = [
        format!("ruled={}", ruled.port),
        format!("unplugged={}", unplugged.port),
    ];
    let mut args = Vec::new();
    for board in &boards {
        args.extend(["--board", board.as_str()]);
    }
    args.extend(common::SCALED_WINDOWS);
    let served = serve(&args);
    browser.open(&format!("http://{}/board/unplugged", served.address));
    let within = Duration::from_secs(20);
    let lost = browser.text_when("#link", within, |text| text == "lost");
    assert_eq!(lost, "lost", "the unplugged board never showed as lost");
    let back = browser.text_when("#link", within, |text| text == "connected");
    assert_eq!(
        back, "connected",
        "the unplugged board never showed as back"
    );
    browser.open(&format!("http://{}/board/ruled", served.address));
    let rulings = browser.text_when("#rulings", within, |text| {
        text.matches("4.4.2").count() == 2
    });
    assert_eq!(
        rulings.matches("4.4.2").count(),
        2,
        "the two rook-first castlings are not shown: {rulings}"
    );
    assert!(rulings.contains("before the king"), "{rulings}");
    drop((ruled, unplugged));
}

#[test]
fn a_bluetooth_board_is_served_beside_a_serial_one_and_its_dropped_link_comes_back() {
    // The Chessnut board behind the BlueZ stand-in on a bus of its own, named by its port only
    // (the board tells its family); its link dropped 3 s into the game for 3 s, at four times
    // a player's pace. A Hall board on a pseudo-terminal beside it.
    let bus = common::ble::private_bus();
    let dropped = [
        "--pgn",
        "fixtures/games/coverage.pgn",
        "--speed",
        "4",
        "--unplug-at",
        "3000",
        "--unplug-for",
        "3000",
        "--grace-ms",
        "600000",
    ];
    let chessnut = common::ble::emulate_on(&bus, "chessnut", &dropped, Stdio::inherit());
    let hall = emulate_board("hall", &common::serving::COVERAGE_GAME);
    let record = tempfile::tempdir().expect("a directory for the records");
    let record_arg = record.path().display().to_string();
    let boards = [
        format!("air={}", chessnut.port),
        format!("hall:{}", hall.port),
    ];
    let mut command = common::serving::serve_command(&["--record-dir", record_arg.as_str()]);
    for board in &boards {
        command.args(["--board", board.as_str()]);
    }
    command
        .args(common::SCALED_WINDOWS)
        .env(common::ble::BUS_VARIABLE, &bus.address);
    let served = common::serving::start(command);
    let played = source_game("games/coverage.pgn", 1);
    let summaries = wait_for_plies(&served.address, played.len() as u64);
    let protocols: Vec<&str> = summaries
        .iter()
        .filter_map(|b| b["protocol"].as_str())
        .collect();
    assert_eq!(protocols, ["chessnut", "hall"]);
    for (name, drops) in [("air", true), ("2", false)] {
        let path = format!("/api/boards/{name}/events");
        let events: Vec<Value> = sse_data(&served.address, &path, Duration::from_secs(1))
            .iter()
            .map(|line| serde_json::from_str(line).expect("a JSON event"))
            .collect();
        assert_eq!(
            common::recorded_games(&events),
            vec![played.clone()],
            "board {name}: not the game played"
        );
        let links: Vec<&str> = events
            .iter()
            .filter(|event| event["kind"] == "link")
            .filter_map(|event| event["state"].as_str())
            .collect();
        assert_eq!(links.contains(&"lost"), drops, "board {name}: {links:?}");
        let game_events: Vec<Value> = events
            .into_iter()
            .filter(|event| event["kind"] != "link")
            .collect();
        let log = record.path().join(format!("{name}-game1.log"));
        assert_eq!(
            game_events,
            replay_with(&log, &common::SCALED_WINDOWS),
            "board {name}: the stream differs from the replay of its recording"
        );
    }
    let (status, pgn) = get(&served.address, "/games.pgn");
    assert_eq!(status, 200);
    assert_eq!(common::pgn_games(&pgn), vec![played.clone(); 2]);
    drop(served);
    drop((chessnut, hall));
}

#[test]
fn a_demo_board_plays_its_games_one_after_another() {
    // Board 4 plays game 4 of the demo's file (Sipic – White, 51 plies, 1-0 by mate), then
    // game 5 (Gligo – Firi). Five times as fast as the hands, the windows scaled alike.
    let record = tempfile::tempdir().expect("a directory for the records");
    let record_arg = record.path().display().to_string();
    let windows = common::SHORT_WINDOWS;
    let mut args = vec![
        "--record-dir",
        record_arg.as_str(),
        "--demo",
        "4",
        "--demo-first",
        "1",
        "--demo-speed",
        "5",
        "--demo-thinking",
        "600-900",
    ];
    args.extend(windows);
    let served = serve(&args);
    let new_game = std::cell::Cell::new(false);
    let events = sse_until(
        &served.address,
        "/api/boards/4/events",
        Duration::from_secs(150),
        |event| {
            if event["kind"] == "game" {
                new_game.set(true);
            }
            new_game.get() && event["kind"] == "move" && event["ply"] == 2
        },
    );
    let first = source_game("corpus/demo.pgn", 4);
    let second = source_game("corpus/demo.pgn", 5);
    assert_eq!(first.len(), 51);
    assert_eq!(
        common::recorded_games(&events),
        vec![first, second[..2].to_vec()],
        "board 4 did not play game 4 to the end, then game 5"
    );
    let kinds: Vec<&str> = events
        .iter()
        .filter_map(|event| event["kind"].as_str())
        // Moves, what is pending before them and their clock times are the record above.
        .filter(|kind| !matches!(*kind, "move" | "pending" | "clock" | "link"))
        .collect();
    assert_eq!(kinds, ["result", "game"], "{events:?}");
    let result = events.iter().find(|event| event["kind"] == "result");
    assert_eq!(
        result.map(|event| &event["result"]),
        Some(&Value::from("1-0"))
    );
    // The board's summary and PGN name the second game's players.
    let (_, body) = get(&served.address, "/api/boards");
    let boards: Vec<Value> = serde_json::from_str(&body).expect("JSON");
    let board = boards
        .iter()
        .find(|board| board["name"] == "4")
        .expect("board 4");
    assert_eq!(board["game"], 2);
    assert_eq!(board["players"]["white"], "Gligo,Marko");
    let (_, pgn) = get(&served.address, "/boards/4.pgn");
    assert!(pgn.contains("[White \"Gligo,Marko\"]"), "{pgn}");
    // One log per game: replaying game 4's log decides what its stream said, to the set-up for
    // the next game (its last report starts game 2); game 5's log (still being written) begins
    // with what the stream has said of game 5.
    let game_events: Vec<Value> = events
        .iter()
        .filter(|event| event["kind"] != "link")
        .cloned()
        .collect();
    let split = game_events
        .iter()
        .position(|event| event["kind"] == "game")
        .expect("a game event");
    let first_log = record.path().join("4-game1.log");
    assert_eq!(
        replay_with(&first_log, &windows),
        game_events[..=split],
        "the first game's stream differs from the replay of its log"
    );
    let second = replay_with(&record.path().join("4-game2.log"), &windows);
    let streamed = &game_events[split + 1..];
    assert_eq!(
        second.get(..streamed.len()),
        Some(streamed),
        "the second game's stream differs from the replay of its log"
    );
}

#[test]
fn the_demo_plays_game_after_game_saying_each_result_until_ctrl_c() {
    let mut child = common::bin()
        .args(["demo", "--speed", "40", "--listen", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("demo starts");
    common::child::forward_stderr(&mut child);
    let stdout = child.stdout.take().expect("piped stdout");
    let mut reader = BufReader::new(stdout);
    let mut first = String::new();
    reader.read_line(&mut first).expect("a first line");
    // The rest of the terminal's output is kept, read as it comes so that the demo never
    // waits on a full pipe.
    let terminal = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut reader, &mut text);
        text
    });
    let address = first
        .trim()
        .strip_prefix("serve: http://")
        .and_then(|rest| rest.strip_suffix("/board/1"))
        .unwrap_or_else(|| panic!("`serve: http://ADDR/board/1` expected, got `{first}`"))
        .to_owned();
    let (status, page) = get(&address, "/board/1");
    assert_eq!(status, 200);
    assert!(page.contains("board.js"), "{page}");
    // The page's stream carries the demo's game in progress from its start (the first,
    // Vlasova – Kvachko, mate in 53 plies, unless a loaded machine connected later) to its
    // result, then the board set up again for the next game and its first move. One board
    // plays the demo's first eight games in turn.
    let new_game = std::cell::Cell::new(false);
    let events = sse_until(
        &address,
        "/api/boards/1/events",
        Duration::from_secs(150),
        |event| {
            if event["kind"] == "game" {
                new_game.set(true);
            }
            new_game.get() && event["kind"] == "move"
        },
    );
    let games: Vec<Vec<String>> = (1..=8)
        .map(|number| source_game("corpus/demo.pgn", number))
        .collect();
    let recorded = common::recorded_games(&events);
    let current = games
        .iter()
        .position(|game| recorded.first() == Some(game))
        .unwrap_or_else(|| panic!("not a whole demo game: {recorded:?}"));
    let next = &games[(current + 1) % games.len()];
    assert_eq!(recorded, vec![games[current].clone(), next[..1].to_vec()]);
    // Every demo game ends in mate, given by the side that made the last move.
    let winner = if games[current].len() % 2 == 1 {
        "1-0"
    } else {
        "0-1"
    };
    let result = events.iter().find(|event| event["kind"] == "result");
    assert_eq!(
        result.map(|event| (&event["result"], &event["reason"])),
        Some((&Value::from(winner), &Value::from("checkmate")))
    );
    // Still served after the game it started with; Ctrl-C ends it cleanly.
    let (status, _) = get(&address, "/api/boards");
    assert_eq!(status, 200);
    common::child::interrupt(&child);
    let status = child.wait().expect("demo ends");
    assert!(status.success(), "{status}");
    let terminal = terminal.join().expect("the terminal's output");
    assert!(
        terminal.contains(&format!("result {winner} (checkmate, 5.1.1)"))
            && terminal.contains("new game 2"),
        "{terminal}"
    );
}

#[test]
fn boards_found_by_their_probe_and_plugged_in_later_join_the_hall() {
    // A directory of links to ports, as /dev/serial/by-id is: one board there from the start,
    // another linked in once serve runs (plugged in during the event).
    let ports = tempfile::tempdir().expect("a directory for the ports");
    let scan_dir = ports.path().display().to_string();
    let game = ["--pgn", "fixtures/games/coverage.pgn", "--speed", "20"];
    let first = emulate_board("dgt", &game);
    std::os::unix::fs::symlink(&first.port, ports.path().join("board-a")).expect("a link");
    let mut args = vec!["--scan-dir", scan_dir.as_str()];
    args.extend(common::SCALED_WINDOWS);
    let served = serve(&args);
    let played = source_game("games/coverage.pgn", 1);
    let plies = played.len() as u64;
    let boards = wait_for_boards(&served.address, 1, plies);
    assert_eq!(boards.len(), 1, "{boards:?}");
    assert_eq!(boards[0]["name"], "1");
    assert_eq!(boards[0]["protocol"], "dgt");
    let second = emulate_board("dgt", &game);
    std::os::unix::fs::symlink(&second.port, ports.path().join("board-b")).expect("a link");
    let boards = wait_for_boards(&served.address, 2, plies);
    let names: Vec<&str> = boards.iter().filter_map(|b| b["name"].as_str()).collect();
    assert_eq!(names, ["1", "2"], "the board plugged in later did not join");
    let board_b = ports.path().join("board-b").display().to_string();
    assert_eq!(boards[1]["port"], board_b.as_str());
    for board in &boards {
        assert_eq!(board["ply"].as_u64(), Some(plies), "{board}");
    }
    let events = sse_until(
        &served.address,
        "/api/boards/2/events",
        Duration::from_secs(5),
        |event| event["kind"] == "move" && event["ply"].as_u64() == Some(plies),
    );
    assert_eq!(common::recorded_games(&events), vec![played]);
    drop((first, second));
}

/// The 64 pieces a FEN's placement puts on the board, a8 first (`""` for an empty square).
fn squares_of(fen: &str) -> Vec<String> {
    let mut squares = Vec::new();
    for c in fen.split(' ').next().unwrap_or_default().chars() {
        match c {
            '/' => {}
            '1'..='8' => squares.extend((0..c.to_digit(10).unwrap_or(0)).map(|_| String::new())),
            piece => squares.push(piece.to_string()),
        }
    }
    squares
}

/// The FEN of the standard position after `sans`.
fn fen_after(sans: &[String]) -> String {
    use shakmaty::{Chess, EnPassantMode, Position, fen::Fen, san::San};
    let mut position = Chess::default();
    for san in sans {
        let m = san
            .parse::<San>()
            .expect("a SAN")
            .to_move(&position)
            .expect("a legal move");
        position.play_unchecked(m);
    }
    Fen::from_position(&position, EnPassantMode::Legal).to_string()
}

/// What the board page's diagram shows, a8 first: each square's piece as a FEN letter.
const DIAGRAM: &str = "return Array.from(document.querySelectorAll('#board .sq')).map((sq) => { \
     const pc = sq.querySelector('.pc'); if (!pc) return ''; \
     const role = {'\u{265A}': 'k', '\u{265B}': 'q', '\u{265C}': 'r', '\u{265D}': 'b', \
     '\u{265E}': 'n', '\u{265F}': 'p'}[pc.textContent] || '?'; \
     return pc.classList.contains('w') ? role.toUpperCase() : role; });";

/// The page's move list (its words) and its diagram, read in one script so that both are of
/// one moment.
fn page_moves_and_diagram(browser: &Browser) -> (Vec<String>, Vec<String>) {
    let script = format!(
        "const moves = (document.querySelector('#moves') || {{innerText: ''}}).innerText; \
         const diagram = (function () {{ {DIAGRAM} }})(); return [moves, diagram];"
    );
    let (moves, drawn): (String, Vec<String>) =
        serde_json::from_value(browser.eval(&script)).expect("the list and 64 squares");
    (
        moves.split_whitespace().map(str::to_string).collect(),
        drawn,
    )
}

/// The ply the server says the demo board's game has reached, once it is past `after` (or what
/// it is when a minute has gone by).
fn ply_past(address: &str, after: u64) -> Option<u64> {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let (_, body) = get(address, "/api/boards");
        let boards: Vec<Value> = serde_json::from_str(&body).expect("JSON");
        let ply = boards.first().and_then(|board| board["ply"].as_u64());
        if ply > Some(after) || std::time::Instant::now() > deadline {
            return ply;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// One demo board playing the demo's first game at human speed, its players thinking 1.2 to
/// 2 s a move.
const HUMAN_DEMO: [&str; 6] = [
    "--demo",
    "1",
    "--demo-first",
    "1",
    "--demo-thinking",
    "1200-2000",
];

#[test]
fn the_page_follows_a_game_as_it_is_played() {
    // One demo board at human speed, its players thinking 1.2 to 2 s. The game goes on at its
    // own pace whatever the page and the test do (on a loaded machine the browser may open after
    // the first moves): four times at least, and past the sixth move, each time the server says the game has moved on, the page must soon
    // show at least those moves, the game's own, and the diagram the position after them. How
    // soon is the page-latency benchmark's measure; here the bound is only there to end.
    let served = serve(&HUMAN_DEMO);
    let browser = Browser::start(1600, 1000);
    browser.open(&format!("http://{}/board/1", served.address));
    let game = source_game("corpus/demo.pgn", 1);
    let mut reached = 0;
    let mut looked_at = 0;
    while reached < 6 || looked_at < 4 {
        let ply = ply_past(&served.address, reached);
        let Some(ply) = ply.filter(|ply| *ply > reached) else {
            panic!("the game did not go on past ply {reached}: the server says {ply:?}");
        };
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        let (shown, drawn) = loop {
            let (shown, drawn) = page_moves_and_diagram(&browser);
            let caught_up = shown.len() as u64 >= ply
                && drawn == squares_of(&fen_after(&game[..shown.len().min(game.len())]));
            if caught_up || std::time::Instant::now() > deadline {
                break (shown, drawn);
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        assert!(
            shown.len() as u64 >= ply,
            "the server is at ply {ply}, the page's list shows {shown:?}"
        );
        assert_eq!(
            shown,
            game[..shown.len()],
            "the page's list is not the game"
        );
        let expected = squares_of(&fen_after(&game[..shown.len()]));
        assert_eq!(drawn, expected, "the diagram after move {}", shown.len());
        reached = ply;
        looked_at += 1;
    }
}

/// Keeps, in the page, every move its list shows as pending (the span's ply and text): a
/// `MutationObserver` sees each one however briefly it stood.
const WATCH_PENDING: &str = "window.pendingSeen = []; \
     new MutationObserver((records) => { for (const record of records) { \
       for (const node of record.addedNodes) { if (node.nodeType !== 1) continue; \
         for (const span of [node, ...node.querySelectorAll('span')]) { \
           if (span.classList.contains('pending')) \
             window.pendingSeen.push([Number(span.dataset.ply), span.textContent]); } } } }) \
       .observe(document.getElementById('moves'), { childList: true, subtree: true }); \
     return true;";

#[test]
fn the_page_shows_a_move_pending_the_moment_it_is_seen() {
    // A demo board (a DGT board: a move that could still grow waits for the window and a scan,
    // or the press) at human speed.
    let served = serve(&HUMAN_DEMO);
    let browser = Browser::start(1600, 1000);
    browser.open(&format!("http://{}/board/1", served.address));
    browser.text_when("#link", Duration::from_secs(30), |text| {
        text != "connecting"
    });
    assert_eq!(browser.eval(WATCH_PENDING), Value::Bool(true));
    let game = source_game("corpus/demo.pgn", 1);
    let plies = 10u64;
    let summaries = wait_for_plies(&served.address, plies);
    assert!(
        summaries.iter().all(|b| b["ply"].as_u64() >= Some(plies)),
        "the game did not go on: {summaries:?}"
    );
    // Every move shown pending, once the list has it as a move, is the move the game made at
    // that ply; and some were shown pending.
    browser.text_when("#moves", Duration::from_secs(30), |text| {
        text.split_whitespace().count() as u64 >= plies
    });
    let seen: Vec<(usize, String)> =
        serde_json::from_value(browser.eval("return window.pendingSeen;")).expect("pairs");
    let decided: Vec<(usize, String)> = seen
        .into_iter()
        .filter(|(ply, _)| *ply as u64 <= plies)
        .collect();
    assert!(!decided.is_empty(), "no move was shown pending");
    for (ply, san) in &decided {
        assert_eq!(
            game.get(ply - 1),
            Some(san),
            "ply {ply} shown pending as {san}"
        );
    }
}

/// An emulated DGT board playing game 6 of Kasparov - Deep Blue 1997 twenty times faster than
/// the simulated hands.
fn dgt_board_playing_game_six() -> common::emulator::Emulator {
    emulate_board(
        "dgt",
        &[
            "--pgn",
            "fixtures/corpus/kasparov-deep-blue-1997.pgn",
            "--game",
            "6",
            "--speed",
            "20",
        ],
    )
}

#[test]
fn a_served_board_killed_mid_game_and_resumed_records_the_whole_game() {
    let emulator = dgt_board_playing_game_six();
    let record = tempfile::tempdir().expect("a directory for the records");
    let record_arg = record.path().display().to_string();
    let board = format!("north={}", emulator.port);
    let args = [
        "--board",
        board.as_str(),
        "--record-dir",
        record_arg.as_str(),
    ];
    // The first serve is killed (SIGKILL) once it has decided four moves.
    let first = serve(&args);
    let events = sse_until(
        &first.address,
        "/api/boards/north/events",
        Duration::from_secs(60),
        |event| event["kind"] == "move" && event["ply"] == 4,
    );
    assert_eq!(common::recorded_games(&events)[0].len(), 4);
    let game_id = |address: &str| {
        let (_, pgn) = get(address, "/boards/north.pgn");
        pgn.lines()
            .find_map(|line| line.strip_prefix("[GameId \"")?.strip_suffix("\"]"))
            .map(str::to_owned)
    };
    let named = game_id(&first.address).expect("the game's GameId");
    drop(first);
    let log = record.path().join("north-game1.log");
    let header = std::fs::read_to_string(&log).expect("the recording");
    assert!(
        header.contains(&format!("\n@game-id {named}\n")),
        "{header}"
    );
    let kept = std::fs::read(&log).expect("the recording");
    // Without --resume the record is refused, and left as it is.
    let refused = common::bin()
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(args)
        .output()
        .expect("serve runs");
    assert!(
        !refused.status.success(),
        "an existing record must not be overwritten"
    );
    assert_eq!(std::fs::read(&log).expect("the recording"), kept);
    // With --resume the game goes on to its end, and the stream holds all of it.
    let mut resumed_args = args.to_vec();
    resumed_args.push("--resume");
    let resumed = serve(&resumed_args);
    let game = source_game("corpus/kasparov-deep-blue-1997.pgn", 6);
    let summaries = wait_for_boards(&resumed.address, 1, game.len() as u64);
    assert_eq!(summaries[0]["ply"].as_u64(), Some(game.len() as u64));
    assert_eq!(summaries[0]["game"], 1);
    // The resumed game keeps its name: a broadcast keeps it in its chapter.
    assert_eq!(game_id(&resumed.address), Some(named));
    let events: Vec<Value> = sse_data(
        &resumed.address,
        "/api/boards/north/events",
        Duration::from_secs(1),
    )
    .iter()
    .map(|line| serde_json::from_str(line).expect("a JSON event"))
    .filter(|event: &Value| event["kind"] != "link")
    .collect();
    assert_eq!(common::recorded_games(&events), vec![game]);
    assert_eq!(
        events,
        replay_with(&log, &[]),
        "the resumed stream differs from the replay of the whole recording"
    );
    drop(emulator);
}

/// serve with one demo board whose clock runs (its players thinking 4 to 6 s a move), on
/// `address`.
fn serve_clocked_demo(address: &str) -> common::serving::Serve {
    let mut command = common::bin();
    command
        .args(["serve", "--listen", address, "--demo", "1"])
        .args(["--time-control", "300+2", "--demo-thinking", "4000-6000"]);
    common::serving::start(command)
}

/// Kills `served` and checks, in `browser`, that the page says `offline` at `css` within 5 s
/// with its clocks stopped (`clocks`: the clocks' selector); then serve starts again on the
/// same address and the page comes back by itself (`back` at `css`). Returns the new serve.
/// The seconds a clock's text (`4:58`, `1:02:03`) shows.
fn clock_seconds(text: &str) -> Option<u64> {
    text.trim().split(':').try_fold(0u64, |seconds, part| {
        Some(seconds * 60 + part.parse::<u64>().ok()?)
    })
}

fn killed_and_back(
    browser: &Browser,
    served: common::serving::Serve,
    css: &str,
    clocks: &str,
    back: &str,
) -> common::serving::Serve {
    let address = served.address.clone();
    let running = format!("{clocks}.running");
    let live = browser.text_when(css, Duration::from_secs(30), |text| text == back);
    assert_eq!(live, back);
    let killed = std::time::Instant::now();
    drop(served);
    // The page read (its state and its clocks in one script) until it says offline: the clocks
    // it then shows are never earlier than those it showed last before (issue 43: they jumped
    // back two seconds).
    // A clock's time is its last child's text (a card's clock says White or Black before it).
    let read = format!(
        "return [document.querySelector('{css}').textContent, \
         [...document.querySelectorAll('{clocks}')].map(c => c.lastChild ? c.lastChild.textContent : '')]"
    );
    let mut last_online: Vec<u64> = Vec::new();
    let (said, offline_clocks) = loop {
        let seen = browser.eval(&read);
        let said = seen[0].as_str().unwrap_or_default().to_owned();
        let clocks: Vec<u64> = seen[1]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c.as_str().and_then(clock_seconds))
            .collect();
        if said.starts_with("offline") || killed.elapsed() > Duration::from_secs(5) {
            break (said, clocks);
        }
        last_online = clocks;
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(said.starts_with("offline"), "{css} still says `{said}`");
    assert!(
        killed.elapsed() < Duration::from_secs(5),
        "{:?}",
        killed.elapsed()
    );
    assert_eq!(offline_clocks.len(), last_online.len());
    assert!(!offline_clocks.is_empty(), "no clock read at {clocks}");
    for (offline, online) in offline_clocks.iter().zip(&last_online) {
        assert!(
            offline <= online,
            "offline {offline_clocks:?} after {last_online:?}"
        );
    }
    // The clocks stand: no side runs, and what they show does not change.
    let shown = |browser: &Browser| {
        browser.eval(&format!(
            "return [...document.querySelectorAll('{clocks}')].map(c => c.textContent).join(' ')"
        ))
    };
    let before = shown(browser);
    assert_eq!(
        browser.eval(&format!(
            "return document.querySelectorAll('{running}').length"
        )),
        0
    );
    let after = browser.text_when(css, Duration::from_millis(1500), |_| false);
    assert!(after.starts_with("offline"), "{after}");
    assert_eq!(shown(browser), before, "the clocks ran on while offline");
    if let Ok(dir) = std::env::var("TOUCHMOVE_SCREENSHOTS") {
        let name = if css == "#status" {
            "hall-offline.png"
        } else {
            "board-offline.png"
        };
        browser.screenshot(&std::path::Path::new(&dir).join(name));
    }
    // serve again on the same address: the page is live again by itself.
    let again = serve_clocked_demo(&address);
    let live = browser.text_when(css, Duration::from_secs(30), |text| text == back);
    assert_eq!(live, back, "the page did not come back");
    again
}

#[test]
fn a_page_says_offline_within_five_seconds_of_serve_s_end_and_comes_back_with_it() {
    let address = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .to_string();
    let served = serve_clocked_demo(&address);
    let browser = Browser::start(1280, 800);
    browser.open(&format!("http://{address}/"));
    // The clock runs before serve goes.
    let clock = browser.text_when(".card .clock.running", Duration::from_secs(30), |t| {
        !t.is_empty()
    });
    assert!(!clock.is_empty(), "no clock ran on the hall");
    let served = killed_and_back(&browser, served, "#status", ".card .clock", "live");
    browser.open(&format!("http://{address}/board/1"));
    let served = killed_and_back(&browser, served, "#link", ".player .clock", "connected");
    drop(served);
}

#[test]
fn the_operator_gives_time_notes_and_declares_a_draw_with_the_token_and_without_it_nothing_changes()
{
    let emulator = dgt_board_playing_game_six();
    let record = tempfile::tempdir().expect("a directory for the records");
    let record_arg = record.path().display().to_string();
    let board = format!("north={}", emulator.port);
    let token = "arb-s3cret-token-0123456789";
    let mut command = common::serving::serve_command(&[
        "--board",
        board.as_str(),
        "--record-dir",
        record_arg.as_str(),
        "--time-control",
        "5400+30",
    ]);
    command.env("TOUCHMOVE_TOKEN", token);
    let served = common::serving::start(command);
    let address = served.address.as_str();
    sse_until(
        address,
        "/api/boards/north/events",
        Duration::from_secs(60),
        |event| event["kind"] == "move" && event["ply"] == 4,
    );
    let line = "POST /api/boards/north/result";
    let host = format!("Host: {address}\r\n");
    let declare = |head: &str, body: &str| {
        common::http::request_with_body(address, line, &format!("{host}{head}"), body)
    };
    let operator = format!("Authorization: Bearer {token}\r\n");
    // Without the token, or with another, refused, though from this machine.
    assert_eq!(declare("", "draw-agreed").0, 401);
    assert_eq!(
        declare("Authorization: Bearer guess\r\n", "draw-agreed").0,
        401
    );
    // Two minutes more for Black, the operator's only.
    let give = |head: &str, body: &str| {
        let line = "POST /api/boards/north/time";
        common::http::request_with_body(address, line, &format!("{host}{head}"), body)
    };
    assert_eq!(give("", "black 120000").0, 401);
    assert_eq!(give(&operator, "black soon").0, 400);
    let (status, body) = give(&operator, "black 120000");
    assert_eq!(status, 200, "{body}");
    // The arbiter's note, the operator's only.
    let note = |head: &str, body: &str| {
        let line = "POST /api/boards/north/note";
        common::http::request_with_body(address, line, &format!("{host}{head}"), body)
    };
    let said = "Black's phone rang: warning";
    assert_eq!(note("", said).0, 401);
    let (status, body) = note(&operator, said);
    assert_eq!(status, 200, "{body}");
    // Words that declare nothing.
    let (status, body) = declare(&operator, "draw please");
    assert_eq!(status, 400, "{body}");
    assert!(get(address, "/api/boards").1.contains("\"result\":null"));
    // With the token: the game ends drawn by agreement, answered with the board's new state.
    let (status, body) = declare(&operator, "draw-agreed");
    assert_eq!(status, 200, "{body}");
    let summary: Value = serde_json::from_str(&body).expect("the board's state");
    assert_eq!(summary["result"], "1/2-1/2");
    let ply = summary["ply"].as_u64().expect("plies");
    assert!(ply >= 4, "{summary}");
    // Once over, the game takes no other result, and no position is reinstated.
    assert_eq!(declare(&operator, "adjudicated 1-0").0, 409);
    let reinstate = |head: &str, body: &str| {
        let line = "POST /api/boards/north/reinstate";
        common::http::request_with_body(address, line, &format!("{host}{head}"), body)
    };
    assert_eq!(reinstate("", "1").0, 401);
    assert_eq!(reinstate(&operator, "the last").0, 400);
    assert_eq!(reinstate(&operator, "1").0, 409);
    let events: Vec<Value> = sse_data(address, "/api/boards/north/events", Duration::from_secs(1))
        .iter()
        .map(|line| serde_json::from_str(line).expect("a JSON event"))
        .filter(|event: &Value| event["kind"] != "link")
        .collect();
    let result = events
        .iter()
        .find(|event| event["kind"] == "result")
        .expect("a result on the stream");
    assert_eq!(result["reason"], "draw agreed");
    assert_eq!(result["rule"], "5.2.3");
    assert_eq!(result["termination"], "normal");
    let noted = events
        .iter()
        .find(|event| event["kind"] == "note")
        .expect("the note on the stream");
    assert_eq!(noted["text"], said);
    let added = events
        .iter()
        .find(|event| event["kind"] == "time-added")
        .expect("the time given on the stream");
    assert_eq!(added["color"], "black");
    assert_eq!(added["ms"], 120_000);
    // Black's clock shows it: two minutes more than before, less what Black used since.
    let at = events
        .iter()
        .position(|event| event["kind"] == "time-added")
        .unwrap_or_default();
    let before = events[..at]
        .iter()
        .rev()
        .filter(|event| event["kind"] == "move" || event["kind"] == "clock")
        .find_map(|event| event["clock"]["black"].as_u64())
        .expect("Black's time before");
    let black = added["clock"]["black"]
        .as_u64()
        .expect("Black's time after");
    assert!(
        black > before && black <= before + 120_000,
        "{before} then {added}"
    );
    let (status, pgn) = get(address, "/games.pgn");
    assert_eq!(status, 200);
    assert!(pgn.contains("[Result \"1/2-1/2\"]"), "{pgn}");
    assert!(pgn.contains("[Termination \"normal\"]"), "{pgn}");
    let words = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("{arbiter: Black's phone rang: warning}"),
        "{pgn}"
    );
    // The recording keeps it, and replays to the stream.
    let log = record.path().join("north-game1.log");
    let recorded = std::fs::read_to_string(&log).expect("the recording");
    assert!(
        recorded
            .lines()
            .any(|line| line.starts_with("#result ") && line.ends_with(" draw-agreed")),
        "{recorded}"
    );
    assert!(
        recorded
            .lines()
            .any(|line| line.starts_with("#time-added ") && line.ends_with(" black 120000")),
        "{recorded}"
    );
    assert!(
        recorded
            .lines()
            .any(|line| line.starts_with("#note ") && line.ends_with(said)),
        "{recorded}"
    );
    assert_eq!(events, replay_with(&log, &["--time-control", "5400+30"]));
    drop(served);
    drop(emulator);
}

#[test]
fn serve_with_no_listen_takes_a_free_port_when_8080_is_taken_and_says_it() {
    // 8080 taken: by this test, or by whatever already holds it on this machine.
    let _held = std::net::TcpListener::bind("127.0.0.1:8080");
    let mut command = common::bin();
    command
        .args(["serve", "--demo", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut served = command.spawn().expect("serve starts");
    let said = common::child::lines_of(served.stderr.take().expect("its errors"));
    let out = common::child::lines_of(served.stdout.take().expect("its output"));
    let first = out
        .recv_timeout(Duration::from_secs(30))
        .expect("serve says where it serves");
    let address = first
        .strip_prefix("serve: http://")
        .and_then(|rest| rest.strip_suffix('/'))
        .unwrap_or_else(|| panic!("{first}"));
    assert!(address.starts_with("127.0.0.1:"), "{first}");
    assert!(!address.ends_with(":8080"), "{first}");
    let taken = std::iter::from_fn(|| said.recv_timeout(Duration::from_secs(10)).ok())
        .find(|line| line.contains("is taken"))
        .expect("serve says 8080 is taken");
    assert_eq!(
        taken,
        format!(
            "touchmove: 127.0.0.1:8080 is taken: serving on {address} instead (--listen ADDR to \
             choose)"
        )
    );
    assert_eq!(get(address, "/api/boards").0, 200);
    let _ = served.kill();
    let _ = served.wait();
}

#[test]
fn a_result_stays_on_the_page_until_the_next_game_s_first_move_and_finished_games_are_listed() {
    let emulator = emulate_board(
        "dgt",
        &["--log", "tests/data/two-games.log", "--grace-ms", "600000"],
    );
    let board = format!("north={}", emulator.port);
    let served = serve(&["--board", board.as_str()]);
    let address = served.address.as_str();
    let browser = Browser::start(1280, 900);
    browser.open(&format!("http://{address}/board/north"));
    let within = Duration::from_secs(30);
    browser.text_when("#result", within, |text| text.starts_with("0-1"));
    // a.tsv of lichess-org/chess-openings: `A00 Barnes Opening: Fool's Mate 1. f3 e5 2. g4 Qh4#`.
    let fools_mate = "A00 · Barnes Opening: Fool's Mate";
    let opening = browser.text_when("#opening", within, |text| text == fools_mate);
    assert_eq!(opening, fools_mate);
    // The game's report, from the log's times: each piece set down 400 ms after its lift, each
    // move's first lift a second after the last move's release (f3's turn began with the log).
    let said = browser.text_when("#report-accuracy", within, |text| !text.is_empty());
    assert_eq!(said, "times and touches (no engine analysed)");
    let rows = browser.eval(
        "return [...document.querySelectorAll('#report-moves tr')].slice(1) \
           .map((row) => [...row.cells].slice(0, 3).map((cell) => cell.textContent))",
    );
    assert_eq!(
        rows,
        serde_json::json!([
            ["1. f3", "", "0.4 s"],
            ["1... e5", "1.0 s", "0.4 s"],
            ["2. g4", "1.0 s", "0.4 s"],
            ["2... Qh4#", "1.0 s", "0.4 s"]
        ])
    );
    let (status, svg) = get(address, "/api/boards/north/report.svg");
    assert_eq!(status, 200);
    // No engine analysed: the times alone, the clocks' (the emulated board's clock ran).
    assert!(
        svg.starts_with("<svg") && svg.contains("Clocks (minutes left)"),
        "{svg}"
    );
    assert!(!svg.contains("Evaluation"), "{svg}");
    // The pieces set up again: the next game begins, and the result stays, as the last game's.
    sse_until(address, "/api/boards/north/events", within, |event| {
        event["kind"] == "game" && event["number"] == 2
    });
    let shown = browser.text_when("#result", within, |text| text.starts_with("last game"));
    assert_eq!(shown, "last game: 0-1 · checkmate");
    let finished = browser.text_when("#finished", within, |text| text.contains("0-1"));
    assert!(finished.contains("? – ? 0-1 PGN"), "{finished}");
    let pgn = browser.eval(
        "const a = document.querySelector('#finished a'); \
         return decodeURIComponent(a.href.split(',').slice(1).join(','))",
    );
    let pgn = pgn.as_str().unwrap_or_default();
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert!(
        pgn.contains("[ECO \"A00\"]\n[Opening \"Barnes Opening: Fool's Mate\"]"),
        "{pgn}"
    );
    let sans: Vec<String> = ["f3", "e5", "g4", "Qh4#"].map(str::to_owned).to_vec();
    assert_eq!(common::pgn_games(pgn), vec![sans], "{pgn}");
    // One game is one game: the board's PGN is the current game alone, its finished game
    // listed once.
    if let Ok(dir) = std::env::var("TOUCHMOVE_SCREENSHOTS") {
        browser.screenshot(&std::path::Path::new(&dir).join("board-last-game.png"));
    }
    let (_, current) = get(address, "/boards/north.pgn");
    assert_eq!(current.matches("[Event ").count(), 1, "{current}");
    assert!(!current.contains("Qh4"), "{current}");
    let (_, listed) = get(address, "/api/boards/north/games");
    let listed: Vec<Value> = serde_json::from_str(&listed).expect("JSON");
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0]["result"], "0-1");
    // The next game's first move: its result box is empty again.
    sse_until(address, "/api/boards/north/events", within, |event| {
        event["kind"] == "move" && event["san"] == "e4"
    });
    // b.tsv: `B00 King's Pawn Game 1. e4`.
    // A game going on has no report.
    let (status, _) = get(address, "/api/boards/north/report");
    assert_eq!(status, 404);
    let kings_pawn = "B00 · King's Pawn Game";
    let opening = browser.text_when("#opening", within, |text| text == kings_pawn);
    assert_eq!(opening, kings_pawn);
    let hidden = "return document.getElementById('result').hidden";
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while browser.eval(hidden) != Value::Bool(true) {
        assert!(std::time::Instant::now() < deadline, "the result stayed");
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(served);
    drop(emulator);
}
