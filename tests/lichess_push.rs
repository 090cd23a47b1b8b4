//! `serve --lichess-round` pushing live games to a Lichess broadcast, against a local HTTP
//! server standing in for Lichess (`POST /api/broadcast/round/{id}/push`, as lichess-org/api
//! documents it). Three boards of three protocols, emulated as independent processes on real
//! pseudo-terminals, play a game; the stand-in answers a 500, then a 429, then takes the pushes.
//! Checked: every body reads with python-chess (and pgn-reader) into the boards' games as they stood (never a
//! move that was not played), never two requests at once, the backoff after the 500 and the 429,
//! each board's reply in `/api/boards`; another run: a 401 stops the pushes with a clear
//! message. serve runs with `-vvv` (every crate's traces) and the token is in none of its lines.

use crate::common;

use std::net::TcpStream;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use serde_json::Value;

use common::http::get;
use common::push_stand_in::{Received, StandIn};
use common::serving::{FAST_DEMO, serve_command, start, three_boards};
use common::watching::source_game;

const TOKEN: &str = "lip_touchmoveTestToken0123456789";

/// Lichess's reply to a push of three games: the first and third taken, the second refused.
fn taken() -> String {
    r#"{"games":[{"tags":{"Board":"north"},"moves":7},{"tags":{"Board":"2"},"error":"No move found"},{"tags":{"Board":"3"},"moves":7}]}"#.to_owned()
}

/// serve pushing to `stand_in`, its standard error into `log`, with round 4's players.
fn serve_pushing(
    specs: &[String],
    stand_in: &StandIn,
    log: &std::path::Path,
) -> common::serving::Serve {
    let url = format!("http://{}", stand_in.address);
    let players = log.with_extension("players");
    let file = "# round 4\nnorth | Carlsen, Magnus | Nakamura, Hikaru\n";
    std::fs::write(&players, file).expect("written");
    let players = players.display().to_string();
    let mut args = vec![
        "-vvv",
        "--lichess-round",
        "r0und1d",
        "--lichess-url",
        url.as_str(),
    ];
    args.extend(["--round", "4", "--players", players.as_str()]);
    for spec in specs {
        args.extend(["--board", spec.as_str()]);
    }
    args.extend(common::SCALED_WINDOWS);
    let mut command = serve_command(&args);
    command
        .env("LICHESS_TOKEN", TOKEN)
        .stderr(std::fs::File::create(log).expect("a log file"));
    start(command)
}

#[test]
fn games_are_pushed_one_request_at_a_time_backing_off_after_errors() {
    let stand_in = StandIn::start(|n| match n {
        0 => (
            500,
            vec![],
            r#"{"error":"oops, with {authorization}"}"#.to_owned(),
        ),
        1 => (429, vec![("Retry-After", "6".to_owned())], String::new()),
        _ => (200, vec![], taken()),
    });
    let (boards, specs) = three_boards();
    let log = std::env::temp_dir().join(format!("touchmove-push-{}.log", std::process::id()));
    let served = serve_pushing(&specs, &stand_in, &log);
    let played = source_game("games/coverage.pgn", 1);

    // Pushes go on until one holds the three games played to their end.
    let received = stand_in.until(Duration::from_secs(120), |received| {
        received.last().is_some_and(|last| {
            last.status == 200 && common::pgn_games(&last.body) == vec![played.clone(); 3]
        })
    });
    for request in &received {
        assert_eq!(request.path, "/api/broadcast/round/r0und1d/push");
        assert_eq!(
            request.authorization.as_deref(),
            Some(format!("Bearer {TOKEN}").as_str())
        );
        assert!(
            request
                .content_type
                .as_deref()
                .is_some_and(|t| t.starts_with("text/plain")),
            "{request:?}"
        );
    }
    assert_eq!(
        stand_in.most_at_once.load(Ordering::SeqCst),
        1,
        "two requests at once"
    );
    for pair in received.windows(2) {
        assert!(
            pair[1].arrived >= pair[0].answered,
            "a request before the last was answered"
        );
    }
    // The backoff: 2 s after the 500 (the first failure); after the 429, its Retry-After of
    // 6 s, longer than the second failure's doubled backoff (4 s).
    let gap = |i: usize| received[i + 1].arrived - received[i].answered;
    assert!(
        gap(0) >= Duration::from_millis(1950),
        "after the 500: {:?}",
        gap(0)
    );
    assert!(
        gap(1) >= Duration::from_millis(5950),
        "after the 429: {:?}",
        gap(1)
    );

    // Every body, read by python-chess: three games, each the game played so far.
    let bodies: Vec<String> = received.iter().map(|r| r.body.clone()).collect();
    for (body, games) in bodies.iter().zip(common::python_chess_games(&bodies)) {
        assert_eq!(
            games,
            common::pgn_games(body),
            "python-chess and pgn-reader differ"
        );
        assert_eq!(games.len(), 3, "{body}");
        for game in games {
            assert!(
                played.starts_with(&game),
                "a move that was not played: {game:?}\n{body}"
            );
        }
    }
    // The tags a broadcast needs: the round, the board, the players from --players.
    let last = bodies.last().cloned().unwrap_or_default();
    for tag in [
        "[Round \"4\"]",
        "[Board \"north\"]",
        "[White \"Carlsen, Magnus\"]",
        "[Black \"Nakamura, Hikaru\"]",
        "[Board \"3\"]",
    ] {
        assert!(last.contains(tag), "{tag} missing:\n{last}");
    }

    // Each board's push as /api/boards shows it: Lichess's reply for its own game.
    let (_, listed) = get(&served.address, "/api/boards");
    let listed: Vec<Value> = serde_json::from_str(&listed).expect("JSON");
    let push = |i: usize| listed[i]["push"].clone();
    assert_eq!(push(0)["state"], "pushed", "{}", push(0));
    assert_eq!(push(0)["moves"], 7, "{}", push(0));
    assert_eq!(push(1)["error"], "No move found", "{}", push(1));
    drop(served);
    drop(boards);
    let said = std::fs::read_to_string(&log).expect("serve's log");
    assert!(said.contains("HTTP 500"), "the 500 is said");
    assert!(
        said.contains("oops, with Bearer [redacted]"),
        "the echoed token is said redacted: {said}"
    );
    assert!(said.contains("HTTP 429"), "the 429 is said");
    assert!(
        said.contains("board 2: lichess refused its game: No move found"),
        "the refused game is said against its board"
    );
    assert!(said.contains("TRACE"), "serve traced nothing: {said}");
    assert!(!said.contains(TOKEN), "the token is in serve's log");
    let _ = std::fs::remove_file(log.with_extension("players"));
    let _ = std::fs::remove_file(&log);
}

#[test]
fn a_refused_token_stops_the_pushes_with_a_clear_message() {
    let stand_in = StandIn::start(|_| (401, vec![], r#"{"error":"No such token"}"#.to_owned()));
    let (boards, specs) = three_boards();
    let log = std::env::temp_dir().join(format!("touchmove-push401-{}.log", std::process::id()));
    let served = serve_pushing(&specs, &stand_in, &log);
    stand_in.until(Duration::from_secs(60), |received| !received.is_empty());
    // The games go on (every board's to its end), and nothing more is sent.
    let played = source_game("games/coverage.pgn", 1);
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        let (_, listed) = get(&served.address, "/api/boards");
        let listed: Vec<Value> = serde_json::from_str(&listed).expect("JSON");
        if listed
            .iter()
            .all(|b| b["ply"].as_u64() == Some(played.len() as u64))
        {
            assert!(
                listed.iter().all(|b| b["push"]["state"] == "stopped"),
                "{listed:?}"
            );
            let error = listed[0]["push"]["error"].as_str().unwrap_or_default();
            assert!(
                error.contains("401") && error.contains("LICHESS_TOKEN"),
                "{error}"
            );
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the games did not end: {listed:?}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(stand_in.received().len(), 1, "a request after the 401");
    drop(served);
    drop(boards);
    let said = std::fs::read_to_string(&log).expect("serve's log");
    assert!(
        said.contains("pushes stopped: Lichess refused the token (HTTP 401)"),
        "{said}"
    );
    assert!(!said.contains(TOKEN), "the token is in serve's log");
    let _ = std::fs::remove_file(log.with_extension("players"));
    let _ = std::fs::remove_file(&log);
}

#[test]
fn without_a_token_serve_says_how_to_give_one() {
    let output = common::bin()
        .args(["serve", "--lichess-round", "abc", "--demo", "1"])
        .env_remove("LICHESS_TOKEN")
        .output()
        .expect("serve runs");
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("LICHESS_TOKEN") && said.contains("study:write"),
        "{said}"
    );
}

/// Sends call `name` with `param` as call `id` on a LiveChess WebSocket; its response (feed
/// messages meanwhile skipped).
fn livechess_call(
    socket: &mut tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>,
    id: i64,
    name: &str,
    param: Value,
) -> Value {
    let text = serde_json::json!({"call": name, "id": id, "param": param}).to_string();
    socket
        .send(tungstenite::Message::Text(text.into()))
        .expect("sent");
    loop {
        if let tungstenite::Message::Text(text) = socket.read().expect("a message") {
            let message: Value = serde_json::from_str(text.as_str()).expect("JSON");
            if message["response"] != "feed" && message["id"] == id {
                return message;
            }
        }
    }
}

#[test]
fn a_game_set_up_anew_leaves_the_finished_one_in_the_round_s_push() {
    let stand_in = StandIn::start(|_| (200, vec![], r#"{"games":[]}"#.to_owned()));
    let url = format!("http://{}", stand_in.address);
    let mut args = FAST_DEMO.to_vec();
    args.extend([
        "--livechess",
        "127.0.0.1:0",
        "--lichess-round",
        "r0und1d",
        "--lichess-url",
        url.as_str(),
    ]);
    let mut command = serve_command(&args);
    command.env("LICHESS_TOKEN", TOKEN);
    let served = start(command);
    let livechess = served.livechess_address();
    let games_of = |received: &Received| common::pgn_games(&received.body);
    // The board's game, pushed with a few moves.
    let received = stand_in.until(Duration::from_secs(90), |received| {
        received
            .last()
            .is_some_and(|last| games_of(last).first().is_some_and(|game| game.len() >= 4))
    });
    let pushed = games_of(received.last().expect("a push"));
    assert_eq!(pushed.len(), 1, "one board, one game");
    // A new game set up on the board through the LiveChess API.
    let (mut socket, _) =
        tungstenite::connect(format!("ws://{livechess}/api/v1.0")).expect("a WebSocket");
    let subscribe = serde_json::json!({"feed": "eboardevent", "id": 1, "param": {"serialnr": "1"}});
    assert_eq!(
        livechess_call(&mut socket, 1, "subscribe", subscribe)["response"],
        "call"
    );
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let setup = serde_json::json!({"id": 1, "method": "setup", "param": {"fen": fen}});
    assert_eq!(
        livechess_call(&mut socket, 2, "call", setup)["response"],
        "call"
    );
    // The round's push now holds both: the finished game (with every move pushed before it
    // ended), then the new one.
    let received = stand_in.until(Duration::from_secs(30), |received| {
        received
            .last()
            .is_some_and(|last| games_of(last).len() == 2)
    });
    let games = games_of(received.last().expect("a push"));
    let finished = games.first().expect("the finished game");
    let before = pushed.first().expect("the game pushed before");
    assert!(
        finished.starts_with(before),
        "{finished:?} does not go on from {before:?}"
    );
    // The new game waits for the board to show its start: nothing played in it yet.
    assert_eq!(games.get(1), Some(&Vec::new()), "{games:?}");
    drop(served);
}
