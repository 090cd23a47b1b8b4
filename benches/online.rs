//! `touchmove online` against a local stand-in for the Lichess Board API
//! (`tests/common/lichess.rs`, in this process). The board is an emulated DGT board with a
//! DGT 3000 on a real pseudo-terminal whose hands play White's moves of real games and carry out
//! Black's as shown; the stand-in plays Black's after 300 ms. Measured:
//!
//! - how soon the player's move is sent: from the `move` line on the session's standard output
//!   (written when the interpreter decides the move) to the move's request arriving at the
//!   stand-in, both instants read on this process's clock;
//! - how closely the DGT 3000 follows the server's clock: the session's recording holds the
//!   server's lines (`#server-line`, with `wtime`/`btime`) and the clock's own reports
//!   (`#clock-reading`) on one time axis. The clock shows whole seconds, rounded up, and reports
//!   each change of its display: a report that shows the running side's time changed is made at
//!   the instant that time is exactly what it shows. That time against the server's for the
//!   same side at the same instant (its last state's time, less what has run since) is the
//!   offset.
//!
//! Run with `cargo bench --locked --bench online`.

// Tests and benchmarks stop on what they did not expect: the workspace's denial of `unwrap`,
// `expect`, indexing and `panic!` is for the code input reaches, not for them.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

#[path = "../tests/common/lichess.rs"]
#[allow(
    dead_code,
    reason = "the stand-in's other helpers serve the integration tests"
)]
mod lichess;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Position};
use touchmove_simulation::pgn_games::read_games;

use lichess::{GAME, Script, StandIn, TOKEN};

/// The games: the first three of the chess.js benchmark file, 30 plies each.
const GAMES: &str = "fixtures/corpus/chessjs-benchmark.pgn";

/// The plies played of each game.
const PLIES: usize = 30;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    println!(
        "command: cargo bench --bench online (argv: {})",
        args.join(" ")
    );
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(GAMES);
    let games: Vec<_> = read_games(std::fs::File::open(&path).expect("the games"))
        .filter_map(Result::ok)
        .filter(|game| game.start == Chess::default() && game.moves.len() >= PLIES)
        .take(3)
        .collect();
    let mut sent = Vec::new();
    let mut offsets = Vec::new();
    for (number, game) in games.iter().enumerate() {
        let moves = &game.moves[..PLIES];
        let played = play(number, moves);
        sent.extend(played.sent);
        offsets.extend(played.offsets);
    }
    report(&mut sent);
    report_offsets(&mut offsets);
}

/// What one game measured, in ms.
struct Played {
    /// Each of White's moves' delay from its decision to its request's arrival.
    sent: Vec<f64>,
    /// The clock's offsets from the server's clock (the clock's time less the server's).
    offsets: Vec<f64>,
}

/// Plays `moves` against the stand-in: what it measured.
fn play(number: usize, moves: &[shakmaty::Move]) -> Played {
    let mut position = Chess::default();
    let mut sans = Vec::new();
    let mut ucis = Vec::new();
    for &m in moves {
        sans.push(shakmaty::san::SanPlus::from_move(position.clone(), m).to_string());
        ucis.push(UciMove::from_standard(m).to_string());
        position.play_unchecked(m);
    }
    let standin = StandIn::start(Script::new(Color::White, &ucis));
    let dir = std::env::temp_dir().join(format!(
        "touchmove-online-bench-{}-{number}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("a directory");
    let pgn = dir.join("game.pgn");
    std::fs::write(&pgn, lichess::script_pgn("bench", &sans)).expect("written");
    let (mut emulator, port) = emulate(&pgn);
    let log = dir.join("game.log");
    let mut online = Command::new(env!("CARGO_BIN_EXE_touchmove"))
        .env("LICHESS_TOKEN", TOKEN)
        .args(["online", "--lichess-url", &standin.url, "--games", "1"])
        .args(["--protocol", "dgt", "--port", &port, "--json"])
        .args(["--slide-ms", "50", "--bounce-ms", "10"])
        .arg("--record")
        .arg(&log)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("online starts");
    let lines = stamped_lines(&mut online);
    // White's moves as the session decided them, each with the instant its line was read.
    let mut decided = Vec::new();
    while let Ok((at, line)) = lines.recv_timeout(Duration::from_secs(120)) {
        let Ok(event) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        if event["kind"] == "move" && event["color"] == "white" {
            decided.push((at, event["uci"].as_str().unwrap_or("").to_owned()));
        }
        if event["kind"] == "result" {
            break;
        }
    }
    let _ = online.wait();
    let _ = emulator.kill();
    let _ = emulator.wait();
    let recording = std::fs::read_to_string(&log).expect("the recording");
    let _ = std::fs::remove_dir_all(&dir);
    let arrived: Vec<(Instant, String)> = standin
        .received()
        .into_iter()
        .filter(|r| r.method == "POST" && r.status == 200)
        .filter_map(|r| {
            let prefix = format!("/api/board/game/{GAME}/move/");
            r.path
                .strip_prefix(&prefix)
                .map(|uci| (r.at, uci.to_owned()))
        })
        .collect();
    assert_eq!(
        decided.iter().map(|(_, uci)| uci).collect::<Vec<_>>(),
        arrived.iter().map(|(_, uci)| uci).collect::<Vec<_>>(),
        "every move decided arrived, once, in order"
    );
    let sent = decided
        .iter()
        .zip(&arrived)
        .map(|((line, _), (request, _))| {
            if request >= line {
                request.duration_since(*line).as_secs_f64() * 1e3
            } else {
                -(line.duration_since(*request).as_secs_f64() * 1e3)
            }
        })
        .collect();
    Played {
        sent,
        offsets: clock_offsets(&recording),
    }
}

/// The server's clock as its last state gave it: when it was read, each side's time then, and
/// the side whose time runs (`None`: the game is not going on).
#[derive(Clone, Copy)]
struct ServerClock {
    t: f64,
    white: f64,
    black: f64,
    running: Option<Color>,
}

impl ServerClock {
    /// `color`'s time at `t` on the server's clock.
    fn at(&self, color: Color, t: f64) -> f64 {
        let time = match color {
            Color::White => self.white,
            Color::Black => self.black,
        };
        if self.running == Some(color) {
            time - (t - self.t)
        } else {
            time
        }
    }
}

/// How long after a server's state a clock report may still be the clock's own, the host's
/// setting of the state on its way (a command and its answer on the line).
const SETTING_MS: f64 = 100.0;

/// The clock's offsets from the server's in a session's recording, in ms: at each report of the
/// clock whose running side's display changed, that side's time less the server's. A report
/// made at the very instant (the same ms) a state arrived is weighed against the state before:
/// the clock cannot have been told yet. So is a report made within [`SETTING_MS`] of a state
/// that still runs the side the state before ran: the host's setting was on its way (the clock
/// reports what it shows, and the setting crosses the report on the line).
fn clock_offsets(recording: &str) -> Vec<f64> {
    // The server's last two states.
    let (mut before, mut last): (Option<ServerClock>, Option<ServerClock>) = (None, None);
    let mut shown: Option<(Color, f64)> = None;
    let mut offsets = Vec::new();
    for line in recording.lines() {
        if let Some(rest) = line.strip_prefix("#server-line ") {
            if let Some(state) = server_state(rest) {
                before = last.replace(state);
            }
        } else if let Some(rest) = line.strip_prefix("#clock-reading ") {
            let Some((t, white, black, running)) = reading(rest) else {
                continue;
            };
            // The server's own times, taken by the game as a reading: not the clock's.
            if last.is_some_and(|s| s.white == white && s.black == black) {
                continue;
            }
            let not_yet_set = last.is_some_and(|s| {
                t <= s.t
                    || (t <= s.t + SETTING_MS
                        && s.running != running
                        && before.is_some_and(|b| b.running == running))
            });
            let server = if not_yet_set { before } else { last };
            let Some(color) = running else {
                shown = None;
                continue;
            };
            let time = if color == Color::White { white } else { black };
            let changed = shown.is_some_and(|(side, before)| side == color && before != time);
            shown = Some((color, time));
            if let Some(server) = server.filter(|s| s.running.is_some() && changed) {
                offsets.push(time - server.at(color, t));
            }
        }
    }
    offsets
}

/// A server line's clock, if it is a game's state (`gameState`, or `gameFull`'s `state`).
fn server_state(rest: &str) -> Option<ServerClock> {
    let (t, json) = rest.split_once(' ')?;
    let value: Value = serde_json::from_str(json).ok()?;
    let state = if value["type"] == "gameFull" {
        &value["state"]
    } else if value["type"] == "gameState" {
        &value
    } else {
        return None;
    };
    let plies = state["moves"].as_str()?.split_whitespace().count();
    let running = (state["status"] == "started").then_some(if plies % 2 == 0 {
        Color::White
    } else {
        Color::Black
    });
    Some(ServerClock {
        t: t.parse().ok()?,
        white: state["wtime"].as_f64()?,
        black: state["btime"].as_f64()?,
        running,
    })
}

/// A `#clock-reading`'s time, White's and Black's ms and the side running.
fn reading(rest: &str) -> Option<(f64, f64, f64, Option<Color>)> {
    let mut fields = rest.split_whitespace();
    let t = fields.next()?.parse().ok()?;
    let white = fields.next()?.parse().ok()?;
    let black = fields.next()?.parse().ok()?;
    let running = match fields.next()? {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    };
    Some((t, white, black, running))
}

/// `touchmove emulate dgt` playing `pgn`'s White moves and following Black's; its port.
fn emulate(pgn: &std::path::Path) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_touchmove"))
        .args(["emulate", "dgt", "--pgn"])
        .arg(pgn)
        .args(["--follow", "black", "--speed", "5"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the emulator starts");
    let lines = stamped_lines(&mut child);
    let (_, first) = lines
        .recv_timeout(Duration::from_secs(30))
        .expect("the emulator's port");
    let port = first
        .strip_prefix("port: ")
        .expect("`port: PATH`")
        .to_owned();
    // The rest of its output is not read: it is drained by the thread.
    (child, port)
}

/// The child's standard output, line by line, each with the instant it was read.
fn stamped_lines(child: &mut Child) -> Receiver<(Instant, String)> {
    let stdout = child.stdout.take().expect("piped stdout");
    let (send, lines) = channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if send.send((Instant::now(), line)).is_err() {
                // Nobody listens: keep draining so that the child never blocks.
                continue;
            }
        }
    });
    lines
}

/// The offsets' spread: how far the clock was from the server's clock.
fn report_offsets(offsets: &mut [f64]) {
    offsets.sort_by(|a, b| a.abs().total_cmp(&b.abs()));
    if offsets.is_empty() {
        println!("the clock never showed a running time");
        return;
    }
    let pick = |q: f64| offsets[((offsets.len() as f64 - 1.0) * q).round() as usize].abs();
    let within = offsets.iter().filter(|o| o.abs() <= 200.0).count();
    let (low, high) = offsets
        .iter()
        .fold((f64::MAX, f64::MIN), |(l, h), &o| (l.min(o), h.max(o)));
    println!(
        "the DGT 3000's running time against the server's clock: {} display changes, \
         |offset| median {:.0} ms, p99 {:.0} ms, max {:.0} ms (from {:.0} to {:+.0} ms); \
         {within} within 200 ms",
        offsets.len(),
        pick(0.5),
        pick(0.99),
        pick(1.0),
        low,
        high
    );
}

fn report(samples: &mut [f64]) {
    samples.sort_by(f64::total_cmp);
    if samples.is_empty() {
        println!("no move was sent");
        return;
    }
    let pick = |q: f64| samples[((samples.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "the player's move, from its decision (the `move` line) to its request at the server: \
         {} moves, median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        samples.len(),
        pick(0.5),
        pick(0.99),
        samples[samples.len() - 1]
    );
}
