//! The `touchmove` binary as a user meets it: exit codes, messages, output formats, and the PGN
//! read back by python-chess.

use crate::common;

use common::touchmove;

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("touchmove-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("written");
    path
}

#[test]
fn a_malformed_line_fails_with_its_number_after_printing_what_was_decided() {
    let log = temp_file(
        "bad.log",
        "touchmove-log 1\n0 lift e2\n300 place e4\n400 lift z9\n",
    );
    let out = touchmove(&["replay", log.to_str().expect("utf-8 path")], None);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bad.log"), "{stderr}");
    assert!(stderr.contains("line 4"), "{stderr}");
    assert!(stderr.contains("z9"), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "   1. e4\n");
}

#[test]
fn a_missing_log_fails_with_its_name() {
    let out = touchmove(&["replay", "/nonexistent/touchmove.log"], None);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("/nonexistent/touchmove.log"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn rulings_are_not_errors_and_the_text_output_shows_them() {
    let fixture = common::fixture_dir().join("touch-move-4-3-1.log");
    let out = touchmove(&["replay", fixture.to_str().expect("utf-8 path")], None);
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert_eq!(lines[0], "   1. e4");
    assert!(
        lines[1].contains("4.3.1") && lines[1].contains("d2"),
        "{stdout}"
    );
    // The second line of the ruling: the log's touches and the move, with their times.
    assert_eq!(
        lines[2],
        "  evidence: 0 touched d2; 300 put back on d2; 1000 touched e2; 1300 moved to e4"
    );
}

#[test]
fn standard_input_is_read_with_a_dash() {
    let out = touchmove(
        &["replay", "-", "--json"],
        Some("touchmove-log 1\n0 lift g1\n300 place f3\n"),
    );
    assert!(out.status.success());
    let event: serde_json::Value =
        serde_json::from_slice(out.stdout.split(|b| *b == b'\n').next().expect("a line"))
            .expect("JSON");
    assert_eq!(event["san"], "Nf3");
    assert_eq!(event["t"], 300);
}

#[test]
fn quiet_by_default_diagnostics_with_verbose() {
    let fixture = common::fixture_dir().join("bounce-is-noise.log");
    let path = fixture.to_str().expect("utf-8 path");
    let quiet = touchmove(&["replay", path], None);
    assert!(
        quiet.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&quiet.stderr)
    );
    let verbose = touchmove(&["replay", path, "-vv"], None);
    assert!(
        String::from_utf8_lossy(&verbose.stderr).contains("bounce"),
        "{}",
        String::from_utf8_lossy(&verbose.stderr)
    );
}

/// python-chess reads the PGN back to the same moves.
#[test]
fn python_chess_reads_the_pgn_back_to_the_same_moves() {
    common::tools::require_python_chess();
    for name in [
        "new-game-after-result",
        "released-piece-moved-on-4-7",
        "promotion-with-capture",
        "start-from-fen",
    ] {
        let fixture = common::fixture_dir().join(format!("{name}.log"));
        let pgn =
            std::env::temp_dir().join(format!("touchmove-py-{}-{name}.pgn", std::process::id()));
        let out = touchmove(
            &[
                "replay",
                fixture.to_str().expect("path"),
                "--json",
                "--pgn",
                pgn.to_str().expect("path"),
            ],
            None,
        );
        assert!(out.status.success());
        let events: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .collect();
        let text = std::fs::read_to_string(&pgn).expect("the PGN was written");
        let read = common::python_chess_games(&[text])
            .into_iter()
            .next()
            .expect("the games of the one text");
        assert_eq!(read, common::recorded_games(&events), "{name}");
    }
}

#[test]
fn a_time_control_gives_the_pgn_its_tag_and_clock_comments() {
    let fixture = common::fixture_dir().join("clock-increment-and-periods.log");
    let pgn = std::env::temp_dir().join(format!("touchmove-clk-{}.pgn", std::process::id()));
    let out = touchmove(
        &[
            "replay",
            fixture.to_str().expect("path"),
            "--time-control",
            "2/60+10:30",
            "--pgn",
            pgn.to_str().expect("path"),
        ],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&pgn).expect("the PGN");
    assert!(text.contains("[TimeControl \"2/60+10:30\"]"), "{text}");
    // White's first move left 69.7 s (the fixture works the figures out), shown to the second.
    assert!(text.contains("1. e4 {[%clk 0:01:09]}"), "{text}");
    assert!(text.contains("3. Nc3 {[%clk 0:01:47]}"), "{text}");
}

/// The JSON kinds and SANs `replay --json` gives for a fixture with `extra` options.
fn replayed_kinds(fixture: &str, extra: &[&str]) -> Vec<String> {
    let path = common::fixture_dir().join(fixture);
    let mut args = vec!["replay", "--json", path.to_str().expect("utf-8 path")];
    args.extend(extra);
    let out = touchmove(&args, None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| {
            let event: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            let san = event["san"].as_str().unwrap_or_default();
            format!("{} {san}", event["kind"].as_str().unwrap_or_default())
        })
        .collect()
}

#[test]
fn clock_readings_can_be_ignored_as_version_1_reads_comments() {
    let fixture = "clock-reading-final-flag.log";
    assert_eq!(
        replayed_kinds(fixture, &[]),
        // White's press, with the clock's report of its instant, gives e4 its times.
        ["move e4", "clock ", "result "],
        "the clock's flag ends the game"
    );
    assert_eq!(
        replayed_kinds(fixture, &["--ignore-clock-readings"]),
        ["move e4", "move e5"],
        "without the readings nothing ends the game"
    );
}

#[test]
fn output_paths_that_are_not_new_or_regular_files_are_refused_before_anything_runs() {
    let log = temp_file("for-pgn.log", "touchmove-log 1\n0 lift e2\n300 place e4\n");
    let target = temp_file("target.pgn", "precious");
    let link = target.with_file_name("link.pgn");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&target, &link).expect("a symlink");
    let link_text = link.to_str().expect("utf-8 path");
    let log_text = log.to_str().expect("utf-8 path");
    for pgn in [link_text, "/dev/null"] {
        let out = touchmove(&["replay", log_text, "--pgn", pgn], None);
        assert_eq!(out.status.code(), Some(1), "--pgn {pgn} accepted");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(pgn), "the message names {pgn}: {stderr}");
        assert!(out.stdout.is_empty(), "nothing ran");
    }
    assert_eq!(std::fs::read_to_string(&target).expect("kept"), "precious");
    use std::os::unix::fs::FileTypeExt;
    let null = std::fs::metadata("/dev/null").expect("/dev/null");
    assert!(
        null.file_type().is_char_device(),
        "/dev/null is still a device"
    );
    // A live session never overwrites a record, and says what to do instead.
    let out = touchmove(
        &[
            "watch",
            "--port",
            "/nonexistent/port",
            "--give-up-after",
            "0",
            "--record",
            log_text,
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("never overwritten"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&log).expect("kept"),
        "touchmove-log 1\n0 lift e2\n300 place e4\n"
    );
}

#[test]
fn numeric_options_out_of_range_are_refused_with_a_message() {
    for (option, value) in [
        ("--give-up-after", "-1"),
        ("--give-up-after", "inf"),
        ("--give-up-after", "nan"),
        ("--slide-ms", "99999999"),
    ] {
        let arg = format!("{option}={value}");
        let out = touchmove(&["watch", "--port", "/nonexistent/port", &arg], None);
        assert_eq!(out.status.code(), Some(2), "{option} {value} accepted");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(option), "{option} {value}: {stderr}");
    }
}

#[test]
fn serve_reads_board_specs() {
    // `hall:` names the protocol and leaves no port.
    let output = common::touchmove(&["serve", "--board", "north=hall:"], None);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no port"), "{stderr}");
}

#[test]
fn a_round_of_logs_replays_in_one_process_each_its_own_session_an_unreadable_one_named() {
    // Every fixture that needs no option, and a malformed log among them, in one process.
    let fixtures: Vec<common::Fixture> = common::fixtures()
        .into_iter()
        .filter(|fixture| fixture.options.is_empty())
        .collect();
    assert!(fixtures.len() > 20, "{} fixtures", fixtures.len());
    let bad = temp_file(
        "round-bad.log",
        "touchmove-log 1\n0 lift e2 P\n300 place e4 P\n200 lift e7 p\n",
    );
    let pgn = temp_file("round.pgn", "");
    let mut args: Vec<String> = vec!["replay".into(), "--json".into()];
    args.extend(["--pgn".into(), pgn.display().to_string()]);
    let (first, rest) = fixtures.split_at(fixtures.len() / 2);
    args.extend(
        first
            .iter()
            .map(|fixture| fixture.log.display().to_string()),
    );
    args.push(bad.display().to_string());
    args.extend(rest.iter().map(|fixture| fixture.log.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = touchmove(&args, None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("round-bad.log: malformed log: line 4:"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "1 of {} logs could not be read",
            fixtures.len() + 1
        )),
        "{stderr}"
    );
    // Every event names its log (none is untagged: those would come under "").
    let mut by_log = common::events_by_log(&out.stdout, "");
    // Each log's events are exactly what a process of its own prints for it.
    for fixture in &fixtures {
        let path = fixture.log.display().to_string();
        let alone = touchmove(&["replay", "--json", &path], None);
        assert!(alone.status.success(), "{}", fixture.name);
        let alone = common::json_lines(&alone.stdout);
        let got = by_log.remove(&path).unwrap_or_default();
        assert_eq!(got, alone, "{}", fixture.name);
    }
    // What the malformed log decided before its bad line is kept: 1. e4.
    let kept = by_log
        .remove(&bad.display().to_string())
        .expect("the bad log's events");
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(kept[0]["san"], "e4");
    assert!(by_log.is_empty(), "{:?}", by_log.keys());
    // The PGN holds every log's games, read back by python-chess.
    let text = std::fs::read_to_string(&pgn).expect("the PGN");
    let games = &common::python_chess_games(std::slice::from_ref(&text))[0];
    let logged_games: usize = fixtures
        .iter()
        .map(|fixture| {
            1 + fixture
                .expected
                .iter()
                .filter(|event| event["kind"] == "game")
                .count()
        })
        .sum();
    assert_eq!(games.len(), logged_games + 1);
}

#[test]
fn a_round_replayed_on_several_threads_prints_what_one_thread_prints_in_the_order_given() {
    // Logs of very different lengths (so that the threads finish out of order), a malformed
    // one among them, and a log given twice.
    let fixtures: Vec<common::Fixture> = common::fixtures()
        .into_iter()
        .filter(|fixture| fixture.options.is_empty())
        .collect();
    let bad = temp_file(
        "jobs-bad.log",
        "touchmove-log 1\n0 lift e2 P\n300 place e4 P\n200 lift e7 p\n",
    );
    let mut logs: Vec<String> = fixtures
        .iter()
        .map(|fixture| fixture.log.display().to_string())
        .collect();
    logs.insert(logs.len() / 3, bad.display().to_string());
    let again = logs.first().cloned().expect("a log");
    logs.push(again);
    let run = |jobs: &str, json: bool| {
        let pgn = temp_file(&format!("jobs-{jobs}-{json}.pgn"), "");
        let mut args = vec!["replay", "--jobs", jobs, "--pgn"];
        let pgn_path = pgn.display().to_string();
        args.push(&pgn_path);
        if json {
            args.push("--json");
        }
        args.extend(logs.iter().map(String::as_str));
        let out = touchmove(&args, None);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let pgn = std::fs::read_to_string(&pgn).expect("the PGN");
        (out.stdout, out.stderr, pgn)
    };
    for json in [true, false] {
        let one = run("1", json);
        let three = run("3", json);
        assert!(one.0 == three.0, "stdout differs (json: {json})");
        assert_eq!(
            String::from_utf8_lossy(&one.1),
            String::from_utf8_lossy(&three.1)
        );
        assert_eq!(one.2, three.2, "the PGN differs (json: {json})");
    }
    // In the order given: each log's events together, the logs one after another.
    let (stdout, _, _) = run("3", true);
    let mut order: Vec<String> = Vec::new();
    for event in common::json_lines(&stdout) {
        let log = event["log"].as_str().expect("a log").to_owned();
        if order.last() != Some(&log) {
            order.push(log);
        }
    }
    let with_events: Vec<&String> = logs.iter().filter(|log| order.contains(log)).collect();
    assert_eq!(order.iter().collect::<Vec<_>>(), with_events);
}

#[test]
fn one_log_s_json_carries_no_log_field() {
    let log = temp_file("one.log", "touchmove-log 1\n0 lift e2 P\n300 place e4 P\n");
    let out = touchmove(
        &["replay", "--json", log.to_str().expect("utf-8 path")],
        None,
    );
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("{\"t\":300,\"kind\":\"move\""),
        "{stdout}"
    );
    assert!(!stdout.contains("\"log\""), "{stdout}");
}

#[test]
fn the_text_output_writes_moves_in_the_notation_asked_for_and_json_stays_san() {
    let log = temp_file(
        "notation.log",
        "touchmove-log 1\n0 lift e2 P\n300 place e4 P\n1000 lift d7 p\n1300 place d5 p\n\
         2000 lift d5 p\n2100 lift e4 P\n2400 place d5 P\n",
    );
    let path = log.to_str().expect("utf-8 path");
    let text = |notation: &str| {
        let out = touchmove(&["replay", "--notation", notation, path], None);
        assert!(out.status.success(), "{notation}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert_eq!(text("san"), "   1. e4\n   1... d5\n   2. exd5\n");
    assert_eq!(text("long"), "   1. e2-e4\n   1... d7-d5\n   2. e4xd5\n");
    assert_eq!(text("ru"), "   1. e4\n   1... d5\n   2. e:d5\n");
    assert_eq!(text("ru-long"), "   1. e2-e4\n   1... d7-d5\n   2. e4:d5\n");
    let json = touchmove(&["replay", "--json", "--notation", "ru-long", path], None);
    assert!(String::from_utf8_lossy(&json.stdout).contains("\"san\":\"exd5\""));
    let bad = touchmove(&["replay", "--notation", "cyrillic", path], None);
    assert!(!bad.status.success());
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert!(
        stderr.contains("expected one of san, long, figurine, ru, ru-long"),
        "{stderr}"
    );
}

/// The long options `touchmove SUBCOMMAND --help` offers (`--help` itself aside).
fn offered_options(subcommand: &str) -> Vec<String> {
    let help = common::touchmove_ok(&[subcommand, "--help"]);
    let mut options: Vec<String> = help
        .lines()
        .filter_map(|line| {
            let line = line.trim_start();
            let line = line.strip_prefix("-v, ").unwrap_or(line);
            let option = line.split([' ', ',', '=']).next()?.trim_end_matches("...");
            let offered = option.starts_with("--") && !matches!(option, "--help" | "--verbose");
            offered.then(|| option.to_owned())
        })
        .collect();
    options.dedup();
    options
}

#[test]
fn docs_serve_s_synopsis_lists_every_option_serve_offers() {
    let docs = std::fs::read_to_string("docs/serve.md").expect("docs/serve.md");
    let synopsis = docs
        .split("```")
        .nth(1)
        .expect("the synopsis, the first code block");
    let options = offered_options("serve");
    assert!(options.len() > 20, "{options:?}");
    let missing: Vec<&String> = options
        .iter()
        .filter(|option| {
            !synopsis
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .any(|word| word == option.as_str())
        })
        .collect();
    assert!(
        missing.is_empty(),
        "docs/serve.md's synopsis lacks {missing:?}"
    );
}

#[test]
fn a_board_named_the_way_its_family_is_not_reached_is_refused_at_once() {
    // (With --give-up-after, a board tried again and again would end too, but saying it gave up.)
    for (protocol, port, said) in [
        (
            "chessnut",
            "/dev/ttyUSB0",
            "a chessnut board is not reached through a serial port: it speaks Bluetooth LE",
        ),
        (
            "pegasus",
            "",
            "a pegasus board is not reached through a serial port: it speaks Bluetooth LE",
        ),
        (
            "dgt",
            "ble:DGT_PEGASUS",
            "a dgt board is not reached over Bluetooth LE: give its serial port",
        ),
    ] {
        let mut command = common::bin();
        command.args(["watch", "--protocol", protocol, "--give-up-after", "1"]);
        if !port.is_empty() {
            command.args(["--port", port]);
        }
        let output = command.output().expect("watch runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains(said), "{protocol} {port}: {stderr}");
        assert!(!stderr.contains("giving up"), "{stderr}");
    }
}

/// `touchmove ARGS replay FIXTURE`'s standard output.
fn replayed_text(args: &[&str], fixture: &str) -> String {
    let fixture = common::fixture_dir().join(fixture);
    let mut all = args.to_vec();
    all.extend(["replay", fixture.to_str().expect("utf-8 path")]);
    let out = touchmove(&all, None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_text_output_says_moves_by_default_and_the_details_with_v() {
    // The fixture's decisions (its .expected.jsonl): moves at plies 1-5, and pending at ply 3
    // (Bc4) and ply 5 (Qf3, nothing, Qg4). Ply 3 is White's second move, ply 5 White's third.
    let pending = "a-move-that-could-still-grow-is-said-pending-at-once.log";
    let moves = "   1. e4\n   1... e5\n   2. Bc4\n   2... Nf6\n   3. Qh5\n";
    assert_eq!(replayed_text(&[], pending), moves);
    assert_eq!(
        replayed_text(&["-v"], pending),
        "   1. e4\n   1... e5\npending 2. Bc4\n   2. Bc4\n   2... Nf6\npending 3. Qf3\n\
         nothing pending for white's move 3\npending 3. Qg4\n   3. Qh5\n"
    );
    // A clock's times (the moves' and each press's) are details too: 298700 ms is 0:04:58.
    let clocked = "a-move-s-times-are-the-clock-s-after-its-press.log";
    assert_eq!(
        replayed_text(&[], clocked),
        "   1. e4\n   1... e5\n   2. Nf3\n"
    );
    let detailed = replayed_text(&["-v"], clocked);
    let lines: Vec<&str> = detailed.lines().collect();
    assert_eq!(
        lines[..2],
        [
            "   1. e4   (clock white 0:04:58, black 0:05:00)",
            "clock after white's move 1: white 0:05:00, black 0:05:00"
        ]
    );
    assert_eq!(
        lines.last().copied(),
        Some("clock after white's move 2: white 0:05:00, black 0:05:00")
    );
}

/// `touchmove watch` (text) of an emulated DGT board playing the coverage game, with
/// `watch_args`: its standard output, piped (not a terminal).
fn watched_text(watch_args: &[&str]) -> String {
    let board = common::emulator::emulate_board(
        "dgt",
        &["--pgn", "fixtures/games/coverage.pgn", "--speed", "20"],
    );
    let out = common::bin()
        .args([
            "watch",
            "--protocol",
            "dgt",
            "--give-up-after",
            "1",
            "--port",
            &board.port,
        ])
        .args(common::SCALED_WINDOWS)
        .args(watch_args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("watch runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_board_is_shown_after_each_move_only_when_asked_off_a_terminal() {
    let plies = common::watching::source_game("games/coverage.pgn", 1).len();
    let footer = "  a b c d e f g h";
    // A move's line begins with its number and a dot (`   1. e4`, `   1... e5`); a rank of the
    // board with its digit alone (`8 r n b q k b n r`).
    let moves = |text: &str| {
        text.lines()
            .filter_map(|line| line.split_whitespace().next())
            .filter(|first| first.ends_with('.') && first.starts_with(|c: char| c.is_ascii_digit()))
            .count()
    };
    let plain = watched_text(&[]);
    assert_eq!(moves(&plain), plies, "{plain}");
    assert!(
        !plain.contains(footer),
        "a board without --diagram:\n{plain}"
    );
    let shown = watched_text(&["--diagram"]);
    assert_eq!(moves(&shown), plies, "{shown}");
    assert_eq!(
        shown.lines().filter(|line| *line == footer).count(),
        plies,
        "one board after each move:\n{shown}"
    );
}
