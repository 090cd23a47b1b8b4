//! Decision latency over Bluetooth LE, without a radio: from the moment the Bluetooth stand-in
//! notifies the report that confirms a move to the `move` line of `touchmove watch --json
//! --port ble:NAME` on its standard output. Run with `cargo bench --locked --bench ble_latency`
//! (Debian's `dbus-daemon` needed: `apt-get install -y dbus-daemon`).
//!
//! This program plays a Chessnut board behind the BlueZ stand-in (`touchmove-bluez-standin`)
//! on a private D-Bus bus: it answers the host's commands and sends the whole position every
//! 100 ms, as the board does; the host is the real binary, its real Bluetooth code (btleplug,
//! BlueZ's D-Bus API) reading the notifications through `dbus-daemon`. Each move of real games
//! is shown at once (a capture too); the session takes a change at the report after the one
//! that first showed it, so the notification that decides a move is that second report, and
//! its latency is from its sending to the `move` line. Moves that could still grow (a pawn
//! step, a slider whose line goes on) wait for the slide window by design, and are reported
//! apart.

// Tests and benchmarks stop on what they did not expect: the workspace's denial of `unwrap`,
// `expect`, indexing and `panic!` is for the code input reaches, not for them.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::collections::VecDeque;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use shakmaty::{Board, Chess, Move, Position};
use touchmove::chessnut::wire::{BoardMessage, CommandDecoder, HostCommand, encode_message};
use touchmove::sensor::Millis;
use touchmove_bluez_standin::{Peripheral, StandIn};
use touchmove_simulation::emulation::{EmulatedBoard, Notice};
use touchmove_simulation::pgn_games::read_games;
use touchmove_simulation::simulate::footprint::could_go_further;

#[path = "shared/watch_process.rs"]
mod watch_process;

use touchmove::chessnut::wire::Corrupt;
use touchmove_core::decode::StreamDecoder;
use watch_process::{Watch, spawn_watch};

/// The games played: the first eight of the chess.js benchmark file.
const GAMES: &str = "fixtures/corpus/chessjs-benchmark.pgn";

/// The board's report period (ms), a Chessnut's.
const REPORT_MS: Millis = 100;

/// The name the board advertises.
const NAME: &str = "Chessnut latency bench";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    println!(
        "command: cargo bench --bench ble_latency (argv: {})",
        args.join(" ")
    );
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(GAMES);
    let games: Vec<_> = read_games(std::fs::File::open(&path).expect("the games"))
        .filter_map(Result::ok)
        .take(8)
        .collect();
    let mut at_once = Vec::new();
    let mut windowed = Vec::new();
    for game in &games {
        let played = play(&game.start, &game.moves);
        at_once.extend(played.at_once);
        windowed.extend(played.windowed);
    }
    report("moves decided by a notification", &mut at_once);
    report(
        "moves that wait for the slide window (from the confirming report)",
        &mut windowed,
    );
}

fn report(what: &str, samples: &mut [Duration]) {
    samples.sort();
    if samples.is_empty() {
        println!("{what}: none");
        return;
    }
    let pick = |q: f64| samples[((samples.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "{what}: {} moves, median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        samples.len(),
        pick(0.5).as_secs_f64() * 1e3,
        pick(0.99).as_secs_f64() * 1e3,
        samples[samples.len() - 1].as_secs_f64() * 1e3
    );
}

/// What the bench shows and what the board sent when.
#[derive(Default)]
struct Shared {
    /// The pieces the board shows now.
    board: Board,
    /// When each report went to the stand-in to be notified, with the pieces it held.
    reports: Vec<(Instant, Board)>,
}

/// A Chessnut board the bench moves the pieces of: it answers the host, and reports what
/// [`Shared::board`] holds every [`REPORT_MS`] once the host has started the reports.
struct BenchBoard {
    shared: Arc<Mutex<Shared>>,
    decoder: CommandDecoder,
    out: VecDeque<(Vec<u8>, Option<Board>)>,
    next_report: Option<Millis>,
}

impl BenchBoard {
    fn send(&mut self, message: &BoardMessage) {
        self.out.push_back((encode_message(message), None));
    }
}

impl EmulatedBoard for BenchBoard {
    fn handle_bytes(&mut self, now: Millis, bytes: &[u8]) {
        self.decoder.push(bytes);
        while let Some(decoded) = self.decoder.poll() {
            match decoded {
                Ok(HostCommand::StartReports) => {
                    self.send(&BoardMessage::Ack);
                    self.next_report.get_or_insert(now);
                }
                Ok(HostCommand::AskBattery) => self.send(&BoardMessage::Battery {
                    percent: 90,
                    charging: false,
                }),
                Ok(_) => self.send(&BoardMessage::Ack),
                Err(Corrupt { .. }) => {}
            }
        }
        self.handle_timeout(now);
    }

    fn handle_timeout(&mut self, now: Millis) {
        while let Some(at) = self.next_report.filter(|&at| at <= now) {
            let board = self
                .shared
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .board
                .clone();
            let bytes = encode_message(&BoardMessage::Report {
                board: board.clone(),
                uptime: 0,
            });
            self.out.push_back((bytes, Some(board)));
            self.next_report = Some(at + REPORT_MS);
        }
    }

    fn poll_timeout(&self) -> Option<Millis> {
        self.next_report
    }

    fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        let (bytes, report) = self.out.pop_front()?;
        if let Some(board) = report {
            self.shared
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .reports
                .push((Instant::now(), board));
        }
        Some(bytes)
    }

    fn script_done(&self) -> bool {
        false
    }

    fn poll_notice(&mut self) -> Option<Notice> {
        None
    }
}

/// A private `dbus-daemon` bus; stopped when dropped.
struct Bus {
    child: Child,
    address: String,
    _dir: tempfile::TempDir,
}

impl Drop for Bus {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn private_bus() -> Bus {
    let dir = tempfile::tempdir().expect("a folder for the bus");
    let mut child = Command::new("dbus-daemon")
        .args(["--session", "--nofork", "--print-address"])
        .arg(format!(
            "--address=unix:path={}",
            dir.path().join("bus").display()
        ))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("dbus-daemon starts (apt-get install -y dbus-daemon)");
    let mut address = String::new();
    BufReader::new(child.stdout.take().expect("its output"))
        .read_line(&mut address)
        .expect("the bus's address");
    Bus {
        child,
        address: address.trim().to_owned(),
        _dir: dir,
    }
}

/// The latencies of one game's moves.
struct Played {
    at_once: Vec<Duration>,
    windowed: Vec<Duration>,
}

/// Plays one game on a fresh bus, stand-in and watch process.
fn play(start: &Chess, moves: &[Move]) -> Played {
    let bus = private_bus();
    let shared = Arc::new(Mutex::new(Shared {
        board: start.board().clone(),
        reports: Vec::new(),
    }));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    let board = BenchBoard {
        shared: Arc::clone(&shared),
        decoder: CommandDecoder::new(),
        out: VecDeque::new(),
        next_report: None,
    };
    let profile = touchmove::chessnut::PROTOCOL
        .ble
        .expect("a Bluetooth profile");
    let peripheral = Peripheral {
        name: NAME.to_owned(),
        address: "C0:FF:EE:00:00:02".to_owned(),
        rssi: -50,
        advertised: Vec::new(),
        profile,
        board: Box::new(board),
    };
    let standin = runtime
        .block_on(StandIn::serve(&bus.address, vec![peripheral]))
        .expect("the stand-in serves");
    let port = format!("ble:{NAME}");
    let watch = spawn_watch(
        &["--protocol", "chessnut", "--port", &port],
        &[("DBUS_SYSTEM_BUS_ADDRESS", &bus.address)],
    );
    let mut position = start.clone();
    // The game starts once a report after the first has shown the starting position.
    while reports_showing(&shared, start.board()).len() < 3 {
        thread::sleep(Duration::from_millis(20));
    }
    let mut played = Played {
        at_once: Vec::new(),
        windowed: Vec::new(),
    };
    for (index, &m) in moves.iter().enumerate() {
        let waits = could_go_further(&position, m) || m.is_promotion();
        position.play_unchecked(m);
        shared.lock().unwrap_or_else(PoisonError::into_inner).board = position.board().clone();
        let ply = format!("\"ply\":{}", index + 1);
        let decided = wait_for(&watch, |line| {
            line.contains("\"kind\":\"move\"") && line.contains(&ply)
        });
        // The second report that showed the move confirmed it: the notification that decided it.
        let confirmed = reports_showing(&shared, position.board()).get(1).copied();
        let Some(confirmed) = confirmed else {
            panic!(
                "ply {}: decided before a second report showed it",
                index + 1
            );
        };
        let latency = decided.saturating_duration_since(confirmed);
        if waits {
            played.windowed.push(latency);
        } else {
            played.at_once.push(latency);
        }
        shared
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .reports
            .clear();
    }
    drop(watch);
    drop(standin);
    played
}

/// When the reports sent since the last clearing that showed `board` were sent.
fn reports_showing(shared: &Mutex<Shared>, board: &Board) -> Vec<Instant> {
    shared
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .reports
        .iter()
        .filter(|(_, shown)| shown == board)
        .map(|(sent, _)| *sent)
        .collect()
}

/// Waits (a minute at most) for a line of watch's that `wanted` accepts; when it was read.
fn wait_for(watch: &Watch, wanted: impl Fn(&str) -> bool) -> Instant {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let (at, line) = watch
            .lines
            .recv_timeout(left)
            .expect("watch said what was waited for within a minute");
        if wanted(&line) {
            return at;
        }
    }
}
