//! `serve --public-delay`: the public sees every board that late, the operator (the console, any
//! request with the operator's token) live. A fast demo board plays under a 30 s delay: while
//! the console shows its moves, a public client learns nothing of them (the boards, the stream,
//! the PGN, the stats, the Lichess push); once the delay has passed, the public sees the same events, each no
//! sooner than the delay after the session made it, and times no later than the delay allows.

use crate::common;

use std::time::{Duration, Instant};

use serde_json::Value;

use common::browser::Browser;
use common::http::{get, request, sse_data, sse_until};
use common::push_stand_in::StandIn;
use common::serving::{serve_command, start};

const TOKEN: &str = "delay-s3cret-0123456789";

const DELAY_S: u64 = 30;
const DELAY_MS: u64 = DELAY_S * 1_000;

/// Board 1's summary, as the public (no token) or the operator sees it.
fn board_one(address: &str, operator: bool) -> Value {
    let head = if operator {
        format!("Host: {address}\r\nAuthorization: Bearer {TOKEN}\r\n")
    } else {
        format!("Host: {address}\r\n")
    };
    let (status, body) = request(address, "GET /api/boards", &head);
    assert_eq!(status, 200, "{body}");
    let boards: Vec<Value> = serde_json::from_str(&body).expect("JSON");
    boards.into_iter().next().expect("board 1")
}

/// Board 1's stream path, as the public or the operator (with the token) reads it.
fn stream_path(operator: bool) -> String {
    if operator {
        format!("/api/boards/1/events?token={TOKEN}")
    } else {
        "/api/boards/1/events".to_owned()
    }
}

/// The plies of `summary`.
fn plies(summary: &Value) -> u64 {
    summary["ply"].as_u64().expect("plies")
}

/// Waits until `done` holds for board 1 as `operator` or the public sees it.
fn until(address: &str, operator: bool, within: Duration, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + within;
    loop {
        let summary = board_one(address, operator);
        if done(&summary) {
            return summary;
        }
        assert!(
            Instant::now() < deadline,
            "not within {within:?}: {summary}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn the_public_sees_no_move_before_the_delay_and_the_console_sees_each_at_once() {
    let delay = format!("{DELAY_S}s");
    // A demo board five times as fast as hands, the players thinking 1.5 to 2 s: a stream
    // read for its backlog is quiet for a second between moves.
    let mut args = vec![
        "--demo",
        "1",
        "--demo-speed",
        "5",
        "--demo-thinking",
        "1500-2000",
        "--slide-ms",
        "50",
        "--bounce-ms",
        "10",
    ];
    args.extend(["--time-control", "600+5", "--console", "--public-delay"]);
    args.push(delay.as_str());
    // The Lichess push is the public's too.
    let stand_in = StandIn::start(|_| (200, vec![], r#"{"games":[]}"#.to_owned()));
    let url = format!("http://{}", stand_in.address);
    args.extend(["--lichess-round", "r0und1d", "--lichess-url", url.as_str()]);
    let mut command = serve_command(&args);
    command
        .env("TOUCHMOVE_TOKEN", TOKEN)
        .env("LICHESS_TOKEN", "lip_delayTestToken0123456789");
    // Every board of serve is made after this instant: nothing it shows the public can be
    // younger than the delay before `started + DELAY`.
    let started = Instant::now();
    let served = start(command);
    let address = served.address.as_str();

    // The operator sees the game live: three plies.
    let live = until(address, true, Duration::from_secs(DELAY_S), |board| {
        plies(board) >= 3
    });
    assert!(live["last_move"].is_string(), "{live}");
    // The console, with the token, shows them at once.
    let browser = Browser::start(1400, 800);
    browser.open(&format!("http://{address}/console"));
    browser.type_into("#token", TOKEN);
    browser.click("#sign-in");
    let shown = browser.text_when("#boards tbody", Duration::from_secs(10), |text| {
        text.contains("ply ") && !text.contains("ply 0")
    });
    // Meanwhile the public knows nothing the delay hides: still the board as serve began.
    let public = board_one(address, false);
    let pgn = get(address, "/games.pgn").1;
    let stats = get(address, "/api/stats").0;
    let pushed = stand_in.received();
    let early = started.elapsed() < Duration::from_millis(DELAY_MS - 2_000);
    let events = sse_data(address, &stream_path(false), Duration::from_secs(1));
    assert!(
        early,
        "the game took {:?} to reach the console: the delay cannot be checked",
        started.elapsed()
    );
    assert!(shown.contains("game 1"), "{shown}");
    assert_eq!(plies(&public), 0, "{public}");
    assert_eq!(public["started"], false, "{public}");
    assert_eq!(public["last_move"], Value::Null, "{public}");
    assert_eq!(public["board"], "8/8/8/8/8/8/8/8", "{public}");
    assert_eq!(public["since_report_ms"], Value::Null, "{public}");
    assert!(events.is_empty(), "the public's stream: {events:?}");
    assert!(!pgn.contains("1."), "{pgn}");
    for push in &pushed {
        assert!(!push.body.contains("1."), "pushed early: {}", push.body);
    }
    assert_eq!(stats, 401, "the stats count the live events");
    let operator_stats = request(
        address,
        "GET /api/stats",
        &format!("Host: {address}\r\nAuthorization: Bearer {TOKEN}\r\n"),
    );
    assert_eq!(operator_stats.0, 200, "{}", operator_stats.1);
    // The operator's stream has the moves at once.
    sse_until(
        address,
        &stream_path(true),
        Duration::from_secs(10),
        |event| event["kind"] == "move",
    );

    // Once the delay has passed, the public sees the moves: the same events as the operator
    // saw, none made less than the delay before the operator's now.
    let public = until(address, false, Duration::from_secs(2 * DELAY_S), |board| {
        plies(board) >= 3
    });
    assert!(started.elapsed() >= Duration::from_secs(DELAY_S));
    let ply = plies(&public);
    let seen = sse_until(
        address,
        &stream_path(false),
        Duration::from_secs(10),
        |event| event["kind"] == "move" && event["ply"] == ply,
    );
    let operator = board_one(address, true);
    let now = operator["clock"]["t"]
        .as_u64()
        .expect("the operator's session time");
    let public_now = public["clock"]["t"]
        .as_u64()
        .expect("the public's clock time");
    assert!(
        public_now + DELAY_MS <= now + 5,
        "the public's clock stands at {public_now}, the operator's at {now}"
    );
    let last = seen.last().cloned().expect("the public's events");
    // In the same game (the demo may have begun the next one live), the operator's stream
    // goes on from the public's.
    if public["game"] == operator["game"] {
        let live = sse_until(
            address,
            &stream_path(true),
            Duration::from_secs(10),
            |event| *event == last,
        );
        assert!(
            live.starts_with(&seen),
            "the public's events are not the operator's:\n{seen:?}\n{live:?}"
        );
    }
    for event in &seen {
        let t = event["t"].as_u64().expect("a time");
        assert!(t + DELAY_MS <= now + 5, "{event} shown at {now}");
    }
    let pgn = get(address, "/games.pgn").1;
    assert!(pgn.contains("1."), "{pgn}");
    stand_in.until(Duration::from_secs(10), |received| {
        received.last().is_some_and(|push| push.body.contains("1."))
    });
    drop(served);
}

#[test]
fn a_public_delay_is_refused_beside_the_livechess_api_and_a_bad_one_is_explained() {
    let output = common::bin()
        .args([
            "serve",
            "--public-delay",
            "15m",
            "--livechess",
            "127.0.0.1:0",
        ])
        .args(["--demo", "1", "--listen", "127.0.0.1:0"])
        .output()
        .expect("serve runs");
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("--public-delay") && said.contains("--livechess"),
        "{said}"
    );
    let output = common::bin()
        .args(["serve", "--public-delay", "15 minutes", "--demo", "1"])
        .output()
        .expect("serve runs");
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("30s, 15m or 1h"), "{said}");
}
