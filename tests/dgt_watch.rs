//! `touchmove emulate dgt` and `touchmove watch --port` as real processes over a real
//! pseudo-terminal: what `watch` decides live equals what `replay` decides on the log `watch`
//! recorded, and the record is the game that was played — with captures, castling both ways,
//! en passant, promotion and under-promotion, a board turned round, noise on the line, and the
//! cable pulled in the middle of a move.

use crate::common;

use std::path::Path;
use std::process::Stdio;

use serde_json::Value;

use common::emulator::emulate;
use common::watching::{Watched, replay_with, source_game, watch_board};

/// Runs `watch` against an emulated DGT board started with `emulate_args`.
fn watch(name: &str, emulate_args: &[&str]) -> Watched {
    watch_with(name, emulate_args, &[])
}

/// Runs `watch WATCH_ARGS` against an emulated DGT board started with `emulate_args`.
fn watch_with(name: &str, emulate_args: &[&str], watch_args: &[&str]) -> Watched {
    watch_board("dgt", name, emulate_args, watch_args)
}

/// `touchmove replay --json` on `log`.
fn replay(log: &Path) -> Vec<Value> {
    replay_with(log, &[])
}

/// Clean hands were watched: the live decisions equal the replay of the recording, and there
/// is no ruling (a clock press read as the wrong player's, or weighed before its move was
/// reported, would show here as an illegal move: a press without a move).
fn assert_clean_and_replayed(name: &str, watched: &Watched) {
    assert_eq!(
        watched.events,
        replay(&watched.record),
        "{name}: live decisions differ from the replay of the recording"
    );
    let rulings: Vec<&Value> = watched
        .events
        .iter()
        .filter(|e| e["kind"] == "illegal" || e["kind"] == "violation")
        .collect();
    assert!(
        rulings.is_empty(),
        "{name}: rulings in clean play: {rulings:?}"
    );
}

/// Watches a PGN game played on the emulated board and checks both equalities.
fn check_game(name: &str, pgn: &str, number: usize, extra: &[&str]) {
    let path = format!("fixtures/{pgn}");
    let game = number.to_string();
    let mut args = vec![
        "--pgn",
        path.as_str(),
        "--game",
        game.as_str(),
        "--speed",
        "20",
    ];
    args.extend_from_slice(extra);
    let watched = watch(name, &args);
    let live = &watched.events;
    assert_clean_and_replayed(name, &watched);
    let log = std::fs::read_to_string(&watched.record).expect("the recording");
    for color in ["white", "black"] {
        assert!(
            log.contains(&format!("clock {color}")),
            "{name}: no clock press by {color} recorded"
        );
    }
    let recorded = common::recorded_games(live);
    assert_eq!(
        recorded,
        vec![source_game(pgn, number)],
        "{name}: not the game played"
    );
}

#[test]
fn captures_castling_both_ways_en_passant_and_under_promotion() {
    check_game("coverage", "games/coverage.pgn", 1, &[]);
}

#[test]
fn a_queen_promotion() {
    // Game 29 of the chess.js benchmark: 19. exf8=Q+ (a queen promotion with capture and
    // check), and the game goes on after it.
    let (pgn, number) = ("corpus/chessjs-benchmark.pgn", 29);
    assert!(
        source_game(pgn, number)
            .iter()
            .any(|san| san.contains("=Q")),
        "{pgn} game {number} has no queen promotion"
    );
    check_game("promotion", pgn, number, &[]);
}

#[test]
fn a_board_turned_round() {
    check_game("rotated", "games/coverage.pgn", 1, &["--rotated"]);
}

#[test]
fn a_clock_with_white_on_its_right_beside_a_board_turned_round() {
    // As in a real recording: the board turned round, White on the clock's right. Which side is
    // White's is learnt from the first press on the running clock, not assumed.
    check_game(
        "white-right",
        "games/coverage.pgn",
        1,
        &["--rotated", "--white-on-clock", "right"],
    );
}

#[test]
fn a_clock_with_white_on_its_right_the_board_the_right_way_round() {
    let name = "white-right-board-normal";
    check_game(
        name,
        "games/coverage.pgn",
        1,
        &["--white-on-clock", "right"],
    );
}

#[test]
fn noise_bursts_on_the_line() {
    check_game(
        "noise",
        "games/coverage.pgn",
        1,
        &["--noise", "3", "--seed", "7"],
    );
}

#[test]
fn blitz_presses_before_the_scan_reports_the_move() {
    // Each press 100 ms after the piece is set down: the lever change arrives before the scan
    // that reports the move. Every press completes its move; none is a press without a move.
    let watched = watch(
        "blitz",
        &["--log", "fixtures/live/blitz-presses.log", "--speed", "1"],
    );
    assert_clean_and_replayed("blitz", &watched);
    assert_eq!(
        common::recorded_games(&watched.events),
        vec![vec!["e4", "e5", "Nf3", "Nc6", "Bb5"]]
    );
}

#[test]
fn the_result_gesture_ends_the_game_live_as_in_the_replay() {
    // The kings set down on d4 (dark) and d5 (light) after 2... Nc6: a draw by the gesture,
    // and nothing else: no move, ruling, takeback or mismatch from the kings' motions.
    let watched = watch(
        "gesture",
        &["--log", "fixtures/live/result-gesture.log", "--speed", "1"],
    );
    assert_clean_and_replayed("gesture", &watched);
    assert_eq!(
        common::recorded_games(&watched.events),
        vec![vec!["e4", "e5", "Nf3", "Nc6"]]
    );
    let kinds: Vec<&Value> = watched.events.iter().map(|e| &e["kind"]).collect();
    assert_eq!(
        kinds.iter().filter(|k| **k == "move").count(),
        4,
        "{kinds:?}"
    );
    let last = watched.events.last().expect("events");
    assert_eq!(
        (&last["kind"], &last["result"], &last["reason"]),
        (
            &Value::from("result"),
            &Value::from("1/2-1/2"),
            &Value::from("gesture")
        ),
        "{:?}",
        watched.events
    );
    assert_eq!(watched.events.len(), 5, "{:?}", watched.events);
}

#[test]
fn a_short_unplug_with_the_port_open_and_moves_made_meanwhile() {
    // The board goes silent for half a second and comes back in its power-up state (idle, no
    // updates) with its port open, as a Bluetooth link dropping does. With this seed and speed
    // 6... e6 and 7. Nf3 are made meanwhile; nothing reports them but the next dump.
    let (pgn, number) = ("corpus/kasparov-deep-blue-1997.pgn", 6);
    let path = format!("fixtures/{pgn}");
    let watched = watch(
        "short-unplug",
        &[
            "--pgn",
            &path,
            "--game",
            "6",
            "--speed",
            "20",
            "--seed",
            "3",
            "--unplug-at",
            "6000",
            "--unplug-for",
            "500",
        ],
    );
    assert_clean_and_replayed("short-unplug", &watched);
    assert_eq!(
        common::recorded_games(&watched.events),
        vec![source_game(pgn, number)],
        "not the game played:\n{}",
        watched.stderr
    );
    let reconstructed = watched
        .events
        .iter()
        .filter(|e| e["reconstructed"] == true)
        .count();
    assert!(
        reconstructed >= 1,
        "no move made during the unplug was reconstructed"
    );
}

#[test]
fn a_watch_killed_mid_game_and_resumed_records_the_whole_game() {
    let (pgn, number) = ("corpus/kasparov-deep-blue-1997.pgn", 6);
    let path = format!("fixtures/{pgn}");
    let emulator = emulate(&["--pgn", &path, "--game", "6", "--speed", "20"]);
    let dir = std::env::temp_dir().join(format!("touchmove-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let record = dir.join("resumed.log");
    let _ = std::fs::remove_file(&record);
    let watch = |extra: &[&str]| {
        common::bin()
            .args([
                "watch",
                "--json",
                "--give-up-after",
                "1",
                "--port",
                &emulator.port,
            ])
            .arg("--record")
            .arg(&record)
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("watch runs")
    };
    // The first watch is killed (SIGKILL) once it has decided four moves.
    let mut first = watch(&[]);
    let moves_seen = common::child::await_lines(&mut first, r#""kind":"move""#, 4);
    assert_eq!(moves_seen, 4, "the first watch decided too little");
    first.kill().expect("killed");
    first.wait().expect("reaped");
    // Without --resume the record is refused, and left as it is.
    let kept = std::fs::read(&record).expect("the recording");
    let refused = watch(&[]).wait_with_output().expect("watch runs");
    assert!(
        !refused.status.success(),
        "an existing record must not be overwritten"
    );
    assert_eq!(std::fs::read(&record).expect("the recording"), kept);
    // With --resume the game goes on to its end.
    let resumed = watch(&["--resume"]).wait_with_output().expect("watch runs");
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    common::assert_gave_up(&resumed);
    let events: Vec<Value> = String::from_utf8_lossy(&resumed.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .filter(|event: &Value| !crate::common::live_only(event))
        .collect();
    assert_eq!(
        events,
        replay(&record),
        "the resumed session differs from the replay of the whole recording"
    );
    assert_eq!(
        common::recorded_games(&events),
        vec![source_game(pgn, number)],
        "not the game played:\n{stderr}"
    );
    let rulings = events
        .iter()
        .filter(|e| e["kind"] == "illegal" || e["kind"] == "violation")
        .count();
    assert_eq!(rulings, 0, "rulings in clean play:\n{stderr}");
}

#[test]
fn the_cable_pulled_in_the_middle_of_a_move() {
    let watched = watch(
        "unplug",
        &[
            "--log",
            "fixtures/live/unplug-mid-move.log",
            "--unplug-at",
            "1500",
            "--unplug-for",
            "3000",
        ],
    );
    // The port is reopened while the board is silent; that is not said again (issue 43): the
    // board's health says it, lost and back.
    let opened = watched.stderr.matches("connected to").count();
    assert_eq!(opened, 1, "{}", watched.stderr);
    // The notices are lines of the stream too, in the terminal's words and order.
    let opened_in_stream = watched
        .notices
        .iter()
        .filter(|notice| notice.starts_with("connected to"))
        .count();
    assert_eq!(opened_in_stream, 1, "{:?}", watched.notices);
    let said: Vec<&str> = watched
        .stderr
        .lines()
        .filter_map(|line| line.strip_prefix("touchmove: "))
        .collect();
    let mut unsaid = watched
        .notices
        .iter()
        .filter(|notice| !said.contains(&notice.as_str()));
    assert_eq!(unsaid.next(), None, "{}", watched.stderr);
    assert!(
        watched
            .notices
            .iter()
            .any(|notice| notice == "the board shows the starting position: recording the game"),
        "{:?}",
        watched.notices
    );
    let lost = watched.stderr.find("board lost");
    let back = watched.stderr.find("board back");
    assert!(
        lost.is_some() && back > lost,
        "the board was never lost and found again:\n{}",
        watched.stderr
    );
    // Lost when unplugged, back when plugged in, lost when the emulator ends.
    assert_eq!(
        watched.links,
        ["lost", "back", "lost"],
        "{}",
        watched.stderr
    );
    assert_eq!(
        watched.events,
        replay(&watched.record),
        "live decisions differ from the replay of the recording"
    );
    assert_eq!(
        common::recorded_games(&watched.events),
        vec![vec!["e4".to_owned(), "e5".to_owned()]]
    );
}

/// Watches the coverage game with a time control and checks that the live decisions equal the
/// replay of the recording with the same time control.
fn watch_clocked(name: &str, time_control: &str) -> Watched {
    let options = ["--time-control", time_control];
    let watched = watch_with(
        name,
        &["--pgn", "fixtures/games/coverage.pgn", "--speed", "20"],
        &options,
    );
    assert_eq!(
        watched.events,
        replay_with(&watched.record, &options),
        "{name}: live decisions differ from the replay of the recording"
    );
    watched
}

#[test]
fn the_dgt_clocks_presses_drive_the_game_clock() {
    let watched = watch_clocked("clock", "300+2");
    assert!(
        !watched.stderr.contains("never acknowledged"),
        "the emulated clock did not acknowledge the time set at the start:\n{}",
        watched.stderr
    );
    let clocked = watched
        .events
        .iter()
        .filter(|e| e["kind"] == "move")
        .all(|e| e["clock"]["white"].is_u64() && e["clock"]["black"].is_u64());
    assert!(clocked, "a move without clock times: {:?}", watched.events);
    assert_eq!(
        common::recorded_games(&watched.events),
        vec![source_game("games/coverage.pgn", 1)],
        "not the game played"
    );
}

#[test]
fn a_flag_falls_the_same_way_live_and_in_the_replay() {
    let watched = watch_clocked("flag", "2");
    let flag = watched
        .events
        .iter()
        .find(|e| e["kind"] == "result")
        .unwrap_or_else(|| panic!("no result: {:?}", watched.events));
    assert_eq!(flag["rule"], "6.9", "{flag}");
}

#[test]
fn the_clock_s_own_reports_give_the_times_and_the_flag_fall() {
    // The emulated DGT clock is set to 3 s a side by `emulate`; `watch` is given no time
    // control, so every clock time and the flag fall can only come from the clock's BWTIME
    // reports (times, and the final flag bit once a side is out of time).
    let watched = watch_with(
        "clock-reports",
        &[
            "--pgn",
            "fixtures/games/coverage.pgn",
            "--speed",
            "20",
            "--time-control",
            "3",
        ],
        &[],
    );
    assert_eq!(
        watched.events,
        replay(&watched.record),
        "live decisions differ from the replay of the recording"
    );
    let result = watched
        .events
        .iter()
        .find(|e| e["kind"] == "result")
        .unwrap_or_else(|| panic!("no result: {:?}", watched.events));
    assert_eq!(result["rule"], "6.9", "{result}");
    let moves: Vec<&Value> = watched
        .events
        .iter()
        .filter(|e| e["kind"] == "move")
        .collect();
    let within_three_seconds = |e: &&Value| {
        let white = e["clock"]["white"].as_u64();
        let black = e["clock"]["black"].as_u64();
        white
            .zip(black)
            .is_some_and(|(w, b)| w <= 3_000 && b <= 3_000)
    };
    // The clock's first report is the first `#clock-reading` line of the recording: every move
    // decided after it has the clock's times.
    let log = std::fs::read_to_string(&watched.record).expect("the recording");
    let first_report: u64 = log
        .lines()
        .find_map(|line| line.strip_prefix("#clock-reading "))
        .and_then(|rest| rest.split(' ').next())
        .map(|t| t.parse().expect("a report's time"))
        .unwrap_or_else(|| panic!("no #clock-reading in the recording:\n{log}"));
    let reported: Vec<&Value> = moves
        .iter()
        .copied()
        .filter(|e| e["t"].as_u64().expect("a move's time") > first_report)
        .collect();
    assert!(
        !reported.is_empty() && reported.iter().all(within_three_seconds),
        "moves after the first report ({first_report}) without the clock's times: {moves:?}"
    );
    let strict = replay_with(&watched.record, &["--ignore-clock-readings"]);
    assert!(
        strict.iter().all(|e| e["rule"] != "6.9"),
        "the flag fall should come from the clock's reports: {strict:?}"
    );
}

/// The fields of an event that do not depend on live timing.
fn outcome(event: &Value) -> Value {
    let mut kept = serde_json::Map::new();
    for key in [
        "kind",
        "color",
        "count",
        "san",
        "uci",
        "result",
        "rule",
        "penalty_ms",
    ] {
        if let Some(value) = event.get(key) {
            kept.insert(key.to_owned(), value.clone());
        }
    }
    Value::Object(kept)
}

#[test]
fn the_dgt_clock_s_press_completes_a_pawn_left_on_the_last_rank() {
    // The fixture's sensor log played on the emulated board with its clock: the lever press
    // that completes the pawn's placement on e8 is an illegal move (7.5.2, two minutes to
    // Black) and the pawn becomes a queen, as in the fixture.
    let fixture = "fixtures/pawn-left-on-last-rank-7-5-2.log";
    let watched = watch_with(
        "last-rank",
        &["--log", fixture, "--time-control", "60"],
        &[
            "--start",
            "8/4P1k1/8/8/8/8/P7/4K3 w - - 0 1",
            "--time-control",
            "60",
        ],
    );
    assert_eq!(
        watched.events,
        replay_with(&watched.record, &["--time-control", "60"]),
        "live decisions differ from the replay of the recording"
    );
    let expected = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(fixture)
            .with_extension("expected.jsonl"),
    )
    .expect("the fixture's expected events");
    let mut expected: Vec<Value> = expected
        .lines()
        .map(|line| outcome(&serde_json::from_str(line).expect("JSON")))
        .collect();
    if let Some(illegal) = expected.first_mut() {
        illegal["penalty_ms"] = 120_000.into();
    }
    let live: Vec<Value> = watched.events.iter().map(outcome).collect();
    assert_eq!(live, expected);
}

#[test]
fn the_host_puts_the_increment_on_a_clock_it_set() {
    // `watch` sets the emulated clock to 60 s a side; the clock adds no increment itself, so
    // a time above 60 s in the clock's reports can only be the host's 5 s increments, set on
    // the clock after each press.
    let watched = watch_clocked("increment", "60+5");
    let above_start = watched
        .events
        .iter()
        .filter(|e| e["kind"] == "move")
        .any(|e| e["clock"]["white"].as_u64().is_some_and(|ms| ms > 60_000));
    assert!(
        above_start,
        "no increment on the clock: {:?}",
        watched.events
    );
    let log = std::fs::read_to_string(&watched.record).expect("the recording");
    let white_above_start = |line: &str| {
        let mut fields = line.split(' ').skip(2);
        fields
            .next()
            .and_then(|ms| ms.parse::<u64>().ok())
            .is_some_and(|ms| ms > 60_000)
    };
    assert!(
        log.lines()
            .filter(|line| line.starts_with("#clock-reading"))
            .any(white_above_start),
        "no report of White's time with increments:\n{log}"
    );
}

#[test]
fn a_draw_agreed_typed_at_the_terminal_ends_the_game_in_the_record_and_its_replay() {
    // 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 on the emulated board, a second a ply; the operator types
    // `draw` once 1... e5 is decided. The game ends there: 1/2-1/2, a draw by agreement (5.2.3,
    // both players have moved), PGN Termination "normal"; the later plies belong to no game.
    let dir = tempfile::tempdir().expect("a temp dir");
    let script = dir.path().join("moves.log");
    let plies = [
        ("e2", "e4", 'P'),
        ("e7", "e5", 'p'),
        ("g1", "f3", 'N'),
        ("b8", "c6", 'n'),
        ("f1", "b5", 'B'),
        ("a7", "a6", 'p'),
    ];
    let mut text = String::from("touchmove-log 1\n@board identifying\n");
    for (i, (from, to, piece)) in plies.iter().enumerate() {
        let t = 1_000 * (i + 1);
        text.push_str(&format!(
            "{t} lift {from} {piece}\n{} place {to} {piece}\n",
            t + 200
        ));
    }
    std::fs::write(&script, text).expect("the script");
    let emulator = emulate(&["--log", script.to_str().expect("a path")]);
    let record = dir.path().join("watched.log");
    let mut watch = common::child::spawn(
        common::bin()
            .args(["watch", "--protocol", "dgt", "--json"])
            .args(["--port", &emulator.port])
            .arg("--record")
            .arg(&record)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped()),
    );
    let mut keyboard = watch.stdin.take().expect("stdin");
    let lines = common::child::lines_of(watch.stdout.take().expect("stdout"));
    let mut events: Vec<Value> = Vec::new();
    while !events.iter().any(|event| event["kind"] == "result") {
        let line = lines
            .recv_timeout(common::emulator::DEADLINE)
            .expect("watch says more");
        let event: Value = serde_json::from_str(&line).expect("a JSON line");
        if event["kind"] == "move" && event["ply"] == 2 {
            std::io::Write::write_all(&mut keyboard, b"draw\n").expect("typed");
        }
        if !crate::common::live_only(&event) {
            events.push(event);
        }
    }
    common::child::interrupt(&watch);
    let status = watch.wait().expect("watch ends");
    assert!(status.success(), "watch ended with {status}");
    let sans: Vec<&str> = events
        .iter()
        .filter(|event| event["kind"] == "move")
        .filter_map(|event| event["san"].as_str())
        .collect();
    assert_eq!(sans, ["e4", "e5"]);
    let result = events.last().expect("the result");
    assert_eq!(result["result"], "1/2-1/2");
    assert_eq!(result["reason"], "draw agreed");
    assert_eq!(result["rule"], "5.2.3");
    assert_eq!(result["termination"], "normal");
    let recorded = std::fs::read_to_string(&record).expect("the recording");
    assert_eq!(
        recorded
            .lines()
            .filter(|line| line.starts_with("#result ") && line.ends_with(" draw-agreed"))
            .count(),
        1,
        "{recorded}"
    );
    // The recording replays to the same decisions, the result included.
    assert_eq!(replay(&record), events);
}
