//! Shared test helpers: loading fixtures, the replay paths, running the binary, reading PGN.

#![allow(dead_code)]

pub mod ble;
pub mod browser;
pub mod child;
pub mod dgt_board;
pub mod emulator;
pub mod engine;
pub mod http;
pub mod lichess;
pub mod live;
pub mod push_stand_in;
pub mod relay;
pub mod serving;
pub mod tools;
pub mod watching;

use std::fs;
use std::io::{Read, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use pgn_reader::{Reader, SanPlus, Visitor};
use serde_json::Value;
use touchmove::event::GameEvent;
use touchmove::interpreter::Config;
use touchmove::replay::Replay;
use touchmove::sensor_log::{LogDecoder, LogReader, LogRecord};
use touchmove_core::decode::StreamDecoder;

/// Whether a JSON event is a live session's alone (`link`, `battery`, `notice`): a replay of
/// the recording gives the same events less these.
pub fn live_only(event: &Value) -> bool {
    matches!(event["kind"].as_str(), Some("link" | "battery" | "notice"))
}

/// One fixture: a sensor log, the events it must give, and the options to give them.
pub struct Fixture {
    /// The file name without `.log`.
    pub name: String,
    /// The log file.
    pub log: PathBuf,
    /// The log's text.
    pub text: String,
    /// Command-line options from a `# options:` line.
    pub options: Vec<String>,
    /// The expected events, one JSON object each (fields compared: those given).
    pub expected: Vec<Value>,
}

impl Fixture {
    /// A replay with the fixture's options.
    pub fn replay(&self) -> Replay {
        let scan = self.options.iter().any(|o| o == "--scan-ms");
        Replay::new(self.config())
            .with_time_control(self.time_control())
            .with_scan(scan.then_some(self.config().scan_ms))
            .with_board_scans(touchmove::registry::scan_of_board)
    }

    /// The time control a `--time-control` option gives.
    pub fn time_control(&self) -> Option<touchmove::clock::TimeControl> {
        let at = self.options.iter().position(|o| o == "--time-control")?;
        let text = self
            .options
            .get(at + 1)
            .expect("--time-control needs a value");
        Some(
            text.parse()
                .unwrap_or_else(|e| panic!("{}: {e}", self.name)),
        )
    }

    /// The interpreter configuration the options give.
    pub fn config(&self) -> Config {
        let mut config = Config::default();
        let mut options = self.options.iter();
        while let Some(option) = options.next() {
            let mut number = || {
                options
                    .next()
                    .and_then(|n| n.parse::<u64>().ok())
                    .unwrap_or_else(|| panic!("{}: {option} needs a number", self.name))
            };
            match option.as_str() {
                "--casual" => config.strict = false,
                "--slide-ms" => config.slide_ms = number(),
                "--bounce-ms" => config.bounce_ms = number(),
                "--scan-ms" => config.scan_ms = number(),
                "--illegal-limit" => config.illegal_limit = number() as u32,
                "--time-control" => {
                    options.next();
                }
                other => panic!("{}: unknown option {other}", self.name),
            }
        }
        config
    }
}

/// A pseudo-terminal pair whose descriptors no child process inherits. The tests run side by
/// side in one process: a `touchmove` another test spawns must not keep this test's link open
/// (serialport opens both ends without `O_CLOEXEC`).
pub fn pty_pair() -> (tokio_serial::SerialStream, tokio_serial::SerialStream) {
    use std::os::fd::AsRawFd;
    let (board, host) = tokio_serial::SerialStream::pair().expect("a pty pair");
    for fd in [board.as_raw_fd(), host.as_raw_fd()] {
        // SAFETY: fcntl on a descriptor the streams own and keep open.
        let set = unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFD);
            libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC)
        };
        assert_ne!(
            set,
            -1,
            "FD_CLOEXEC on a pty: {}",
            std::io::Error::last_os_error()
        );
    }
    (board, host)
}

/// The directory of the fixtures.
pub fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// Every fixture, sorted by name.
pub fn fixtures() -> Vec<Fixture> {
    let mut logs: Vec<PathBuf> = fs::read_dir(fixture_dir())
        .expect("fixtures/ exists")
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "log"))
        .collect();
    logs.sort();
    logs.into_iter().map(load).collect()
}

fn load(log: PathBuf) -> Fixture {
    let name = log
        .file_stem()
        .and_then(|s| s.to_str())
        .expect("a file name")
        .to_owned();
    let text = fs::read_to_string(&log).expect("readable log");
    let options = text
        .lines()
        .find_map(|line| line.strip_prefix("# options:"))
        .map(|rest| rest.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default();
    let expected_path = log.with_extension("expected.jsonl");
    let expected = fs::read_to_string(&expected_path)
        .unwrap_or_else(|_| panic!("{} has no {}", name, expected_path.display()))
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{name}: {e}: {line}")))
        .collect();
    Fixture {
        name,
        log,
        text,
        options,
        expected,
    }
}

/// The events as JSON values; each event's fast line (`GameEvent::write_json`, what `replay
/// --json` prints) is checked to be byte for byte what serde writes.
fn to_values(events: &[GameEvent]) -> Vec<Value> {
    events
        .iter()
        .map(|event| {
            let serde = serde_json::to_vec(event).expect("serialisable");
            let mut fast = Vec::new();
            event.write_json(&mut fast).expect("serialisable");
            assert_eq!(
                String::from_utf8_lossy(&fast),
                String::from_utf8_lossy(&serde),
                "GameEvent::write_json differs from serde"
            );
            serde_json::from_slice(&serde).expect("JSON")
        })
        .collect()
}

/// The whole log decoded at once and replayed.
pub fn replay_whole(fixture: &Fixture) -> Vec<Value> {
    let log = touchmove::sensor_log::read_log(&fixture.text)
        .unwrap_or_else(|e| panic!("{}: {e}", fixture.name));
    let mut replay = fixture.replay();
    let mut out = Vec::new();
    for record in log.records() {
        replay.record(record, &mut |decided| out.push(decided));
    }
    replay.finish(&mut |event| out.push(event));
    to_values(&out)
}

/// The log pushed into the sans-IO decoder one byte at a time, each record replayed as it
/// comes out.
pub fn replay_bytes_one_at_a_time(fixture: &Fixture) -> Vec<Value> {
    let mut decoder = LogDecoder::new();
    let mut replay = fixture.replay();
    let mut out = Vec::new();
    let take = |decoder: &mut LogDecoder, replay: &mut Replay, out: &mut Vec<GameEvent>| {
        while let Some(record) = decoder.poll() {
            let record: LogRecord = record.unwrap_or_else(|e| panic!("{}: {e}", fixture.name));
            replay.record(record, &mut |event| out.push(event));
        }
    };
    for byte in fixture.text.as_bytes() {
        decoder.push(std::slice::from_ref(byte));
        take(&mut decoder, &mut replay, &mut out);
    }
    decoder.finish();
    take(&mut decoder, &mut replay, &mut out);
    replay.finish(&mut |event| out.push(event));
    to_values(&out)
}

/// A reader that returns at most `size` bytes per read.
struct Chunked<'a> {
    bytes: &'a [u8],
    size: usize,
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.size.min(buf.len()).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// The log read through [`LogReader`] from a source giving `size` bytes at a time.
pub fn replay_in_chunks(fixture: &Fixture, size: usize) -> Vec<Value> {
    let source = Chunked {
        bytes: fixture.text.as_bytes(),
        size,
    };
    let mut replay = fixture.replay();
    let mut out = Vec::new();
    for record in LogReader::new(source) {
        let record = record.unwrap_or_else(|e| panic!("{}: {e}", fixture.name));
        replay.record(record, &mut |event| out.push(event));
    }
    replay.finish(&mut |event| out.push(event));
    to_values(&out)
}

/// The interpreter's windows for emulated hands playing twenty times faster than people
/// (`--speed 20`): the 250 ms slide window and the 50 ms bounce scaled the same way.
pub const SCALED_WINDOWS: [&str; 4] = ["--slide-ms", "12", "--bounce-ms", "2"];

/// The interpreter's windows for emulated hands at `--speed 5` and for scripted logs whose
/// moves come quickly: a fifth of the defaults (50 ms slide window, 10 ms bounce).
pub const SHORT_WINDOWS: [&str; 4] = ["--slide-ms", "50", "--bounce-ms", "10"];

/// The built `touchmove` binary, to be run as a child that never outlives its test, its
/// standard error piped ([`child::command`]).
pub fn bin() -> Command {
    let mut command = child::command(env!("CARGO_BIN_EXE_touchmove"));
    // What a run learns of a board (a Certabo board's chips) is kept in a directory of its
    // own: pseudo-terminals' names come back, and another test's board is another board.
    command.env("XDG_DATA_HOME", fresh_data_dir());
    command
}

/// A new directory under the tests' temporary directory, for one run's data.
pub fn fresh_data_dir() -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("data-{}-{n}", std::process::id()))
}

/// Runs the built `touchmove` binary with `args`, `stdin` (if any) on its standard input, and
/// waits for it to finish.
pub fn touchmove(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().expect("stdin");
    if let Some(text) = stdin {
        input.write_all(text.as_bytes()).expect("written");
    }
    drop(input);
    child.wait_with_output().expect("finished")
}

/// Asserts that a live session run with `--give-up-after` ended as it must once its board has
/// gone for good: exit status 1, saying once that it gave up, and no other error (a result it
/// could not write would say so).
pub fn assert_gave_up(output: &Output) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "not given up: {stderr}");
    let gave_up = stderr
        .lines()
        .filter(|line| line.contains("giving up"))
        .count();
    assert_eq!(gave_up, 1, "giving up is said once: {stderr}");
    assert!(
        !stderr.contains("cannot write") && !stderr.contains("could not be written"),
        "{stderr}"
    );
}

/// Runs the built `touchmove` binary with `args` and no input; panics with its standard error
/// if it fails; its standard output.
pub fn touchmove_ok(args: &[&str]) -> String {
    let output = touchmove(args, None);
    assert!(
        output.status.success(),
        "touchmove {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// What the `touchmove replay --json --pgn` process gave.
pub struct CliRun {
    /// The JSON lines on stdout.
    pub events: Vec<Value>,
    /// The moves of the record, takebacks applied, per the JSON events (every game).
    pub recorded_sans: Vec<Vec<String>>,
    /// The moves of each game of the PGN file, as pgn-reader reads them.
    pub pgn_sans: Vec<Vec<String>>,
    /// The PGN file's text.
    pub pgn_text: String,
}

/// Runs the built binary on the fixture with `--json --pgn`.
pub fn run_cli(fixture: &Fixture) -> CliRun {
    let dir = std::env::temp_dir().join(format!("touchmove-test-{}", std::process::id()));
    fs::create_dir_all(&dir).expect("temp dir");
    let pgn = dir.join(format!("{}.pgn", fixture.name));
    let output = bin()
        .arg("replay")
        .arg(&fixture.log)
        .arg("--json")
        .arg("--pgn")
        .arg(&pgn)
        .args(&fixture.options)
        .output()
        .expect("the binary runs");
    assert!(
        output.status.success(),
        "{}: exit {:?}: {}",
        fixture.name,
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 output");
    let events: Vec<Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    let pgn_text = fs::read_to_string(&pgn).expect("the PGN was written");
    CliRun {
        recorded_sans: recorded_games(&events),
        pgn_sans: pgn_games(&pgn_text),
        pgn_text,
        events,
    }
}

/// The SAN of every game in a JSON event stream, takebacks applied.
pub fn recorded_games(events: &[Value]) -> Vec<Vec<String>> {
    let mut games = vec![Vec::new()];
    for event in events {
        let current = games.last_mut().expect("a game");
        match event["kind"].as_str() {
            Some("move") => {
                let ply = event["ply"].as_u64().expect("ply") as usize;
                current.truncate(ply - 1);
                current.push(event["san"].as_str().expect("san").to_owned());
            }
            Some("takeback") => {
                let ply = event["ply"].as_u64().expect("ply") as usize;
                current.truncate(ply - 1);
            }
            Some("game") => games.push(Vec::new()),
            _ => {}
        }
    }
    games
}

struct SanCollector;

impl Visitor for SanCollector {
    type Tags = ();
    type Movetext = Vec<String>;
    type Output = Vec<String>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(Vec::new())
    }

    fn san(&mut self, movetext: &mut Vec<String>, san: SanPlus) -> ControlFlow<Self::Output> {
        movetext.push(san.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: Vec<String>) -> Vec<String> {
        movetext
    }
}

/// The SAN of every game of a PGN text, as pgn-reader reads it.
pub fn pgn_games(text: &str) -> Vec<Vec<String>> {
    let mut reader = Reader::new(std::io::Cursor::new(text.as_bytes()));
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut SanCollector).expect("readable PGN") {
        games.push(game);
    }
    games
}

/// Every game of each PGN text, as python-chess reads it: each game's moves in SAN (a game
/// python-chess reads with an error fails the test). One python3 process for them all.
pub fn python_chess_games(texts: &[String]) -> Vec<Vec<Vec<String>>> {
    let input = texts.join("\n\u{1}\n");
    let out = python_chess_json(
        "import sys, io, json, chess.pgn\n\
         out = []\n\
         for text in sys.stdin.read().split('\\n\\x01\\n'):\n\
         \x20   games, f = [], io.StringIO(text)\n\
         \x20   while (g := chess.pgn.read_game(f)) is not None:\n\
         \x20       assert not g.errors, g.errors\n\
         \x20       b, sans = g.board(), []\n\
         \x20       for m in g.mainline_moves():\n\
         \x20           sans.append(b.san(m)); b.push(m)\n\
         \x20       games.append(sans)\n\
         \x20   out.append(games)\n\
         print(json.dumps(out))",
        &input,
    );
    serde_json::from_value(out).expect("games")
}

/// What the python3 `script` (which imports python-chess) prints as JSON when given `input`;
/// a script that fails fails the test, with what it said.
pub fn python_chess_json(script: &str, input: &str) -> Value {
    tools::require_python_chess();
    let mut child = child::command("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("written");
    let output = child.wait_with_output().expect("python3 ends");
    assert!(
        output.status.success(),
        "python-chess refused the input: {}\n{input}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("JSON")
}

/// The JSON lines a command printed (`--json`), each one object.
pub fn json_lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

/// The events `replay --json LOG...` printed, by the log each names (its `log` field, taken
/// out); an event without one (a single log's) is `alone`'s.
pub fn events_by_log(stdout: &[u8], alone: &str) -> std::collections::BTreeMap<String, Vec<Value>> {
    let mut by_log: std::collections::BTreeMap<String, Vec<Value>> = Default::default();
    for mut event in json_lines(stdout) {
        let log = match event
            .as_object_mut()
            .and_then(|fields| fields.remove("log"))
        {
            Some(log) => log.as_str().map(str::to_owned).expect("a path"),
            None => alone.to_owned(),
        };
        by_log.entry(log).or_default().push(event);
    }
    by_log
}
