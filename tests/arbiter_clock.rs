//! The arbiter's time on a board whose DGT clock the players run (`serve` without
//! `--time-control`: the host does not drive the clock), as issue 43 asks: time given and
//! clocks set are put on the clock and stay there, or are refused with the reason; never
//! undone by the clock's next report.

use crate::common;

use std::time::Duration;

use serde_json::Value;

use common::emulator::emulate_board;
use common::http::{request_with_body, sse_until};
use common::serving::{Serve, serve_command, start};

const TOKEN: &str = "clock-s3cret-0123456789";

/// An emulated DGT board playing Kasparov - Deep Blue 1997 game 6 at 20 times a person's pace
/// (its clock given `clock_args`), served as `north` without a time control, once its game
/// stands at ply 4 (both players have pressed: the clock's sides are known).
fn served_at_ply_four(clock_args: &[&str]) -> (common::emulator::Emulator, Serve) {
    let mut args = vec![
        "--pgn",
        "fixtures/corpus/kasparov-deep-blue-1997.pgn",
        "--game",
        "6",
        "--speed",
        "20",
    ];
    args.extend_from_slice(clock_args);
    let emulator = emulate_board("dgt", &args);
    let board = format!("north={}", emulator.port);
    let mut command = serve_command(&["--board", board.as_str()]);
    command.env("TOUCHMOVE_TOKEN", TOKEN);
    let served = start(command);
    sse_until(
        &served.address,
        "/api/boards/north/events",
        Duration::from_secs(60),
        |event| event["kind"] == "move" && event["ply"] == 4,
    );
    (emulator, served)
}

/// `POST /api/boards/north/ACTION` with the operator's token: the status and the body.
fn operate(address: &str, action: &str, body: &str) -> (u16, String) {
    let line = format!("POST /api/boards/north/{action}");
    let head = format!("Host: {address}\r\nAuthorization: Bearer {TOKEN}\r\n");
    request_with_body(address, &line, &head, body)
}

/// Black's time in a board's summary or a move's event.
fn black(value: &Value) -> u64 {
    value["clock"]["black"]
        .as_u64()
        .unwrap_or_else(|| panic!("Black's time in {value}"))
}

#[test]
fn time_given_on_a_dgt_clock_the_host_does_not_drive_is_put_on_it_and_stays() {
    let (emulator, served) = served_at_ply_four(&[]);
    let address = served.address.as_str();
    let (status, body) = operate(address, "time", "black 120000");
    assert_eq!(status, 200, "{body}");
    // The answer says what the clock shows now: two minutes more than Black's five minutes
    // less what Black used (at this pace, seconds).
    let answer: Value = serde_json::from_str(&body).expect("the board's state");
    let given = black(&answer);
    assert!((400_000..=420_000).contains(&given), "{answer}");
    let ply = answer["ply"].as_u64().expect("the ply");
    // The game goes on: each move after it carries the clock's times, the DGT clock's reports
    // followed. Black's stays what was given, less what Black uses (seconds at this pace):
    // the clock was set so, and its reports do not undo it.
    let events = sse_until(
        address,
        "/api/boards/north/events",
        Duration::from_secs(60),
        |event| event["kind"] == "move" && event["ply"].as_u64() >= Some(ply + 4),
    );
    let later: Vec<u64> = events
        .iter()
        .filter(|event| event["kind"] == "move" && event["ply"].as_u64() > Some(ply))
        .map(black)
        .collect();
    assert!(later.len() >= 4, "{events:?}");
    for time in later {
        assert!(
            time + 30_000 >= given && time <= given,
            "Black had {given} ms, then {time} ms"
        );
    }
    // Both clocks set: they stay so too.
    let (status, body) = operate(address, "clock", "240000 180000");
    assert_eq!(status, 200, "{body}");
    let answer: Value = serde_json::from_str(&body).expect("the board's state");
    let ply = answer["ply"].as_u64().expect("the ply");
    let events = sse_until(
        address,
        "/api/boards/north/events",
        Duration::from_secs(60),
        |event| event["kind"] == "move" && event["ply"].as_u64() >= Some(ply + 2),
    );
    for event in events
        .iter()
        .filter(|event| event["kind"] == "move" && event["ply"].as_u64() > Some(ply))
    {
        let white = event["clock"]["white"].as_u64().expect("White's time");
        assert!(white <= 240_000 && white + 30_000 >= 240_000, "{event}");
        assert!(
            black(event) <= 180_000 && black(event) + 30_000 >= 180_000,
            "{event}"
        );
    }
    drop(served);
    drop(emulator);
}

#[test]
fn time_for_a_clock_that_adds_its_own_increment_is_refused_with_the_reason() {
    // The clock's own program adds 5 s a move: set from the host it would add nothing more.
    let (emulator, served) = served_at_ply_four(&["--time-control", "300+5"]);
    let address = served.address.as_str();
    for (action, body) in [("time", "black 120000"), ("clock", "240000 180000")] {
        let (status, why) = operate(address, action, body);
        assert_eq!(status, 409, "{action}: {why}");
        assert!(why.contains("adds time by itself (5 s"), "{action}: {why}");
        assert!(why.contains("--time-control"), "{action}: {why}");
    }
    // Nothing happened to the game: no time given, no clock set.
    let events = common::http::sse_data(
        address,
        "/api/boards/north/events",
        Duration::from_millis(500),
    );
    assert!(
        !events
            .iter()
            .any(|line| line.contains("time-added") || line.contains("clock-set")),
        "{events:?}"
    );
    drop(served);
    drop(emulator);
}

#[test]
fn time_typed_at_watch_s_terminal_for_a_clock_that_adds_its_own_increment_is_refused() {
    let emulator = emulate_board(
        "dgt",
        &[
            "--pgn",
            "fixtures/corpus/kasparov-deep-blue-1997.pgn",
            "--game",
            "6",
            "--speed",
            "20",
            "--time-control",
            "300+5",
        ],
    );
    let mut watch = common::child::spawn(
        common::bin()
            .args(["watch", "--protocol", "dgt", "--json"])
            .args(["--port", &emulator.port])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped()),
    );
    let mut keyboard = watch.stdin.take().expect("stdin");
    let lines = common::child::lines_of(watch.stdout.take().expect("stdout"));
    let mut typed = false;
    let refused = loop {
        let line = lines
            .recv_timeout(common::emulator::DEADLINE)
            .expect("watch says more");
        let event: Value = serde_json::from_str(&line).expect("a JSON line");
        assert_ne!(event["kind"], "time-added", "{event}");
        if event["kind"] == "move" && event["ply"] == 4 && !typed {
            std::io::Write::write_all(&mut keyboard, b"time black 120\n").expect("typed");
            typed = true;
        }
        if event["kind"] == "refused" {
            break event;
        }
    };
    assert_eq!(refused["asked"], "time black 120000", "{refused}");
    let why = refused["why"].as_str().unwrap_or_default();
    assert!(why.contains("adds time by itself (5 s"), "{why}");
    common::child::interrupt(&watch);
    assert!(watch.wait().expect("watch ends").success());
    drop(emulator);
}
