//! Decision latency over a pseudo-terminal: from the last byte of the field updates that
//! complete a move, written to the board's end of a pty, to the `move` line of
//! `touchmove watch --json` on its standard output. Run with
//! `cargo bench --locked --bench dgt_latency`.
//!
//! This program plays the board: it answers the handshake and the keep-alives, then makes each
//! move of real games as the field updates a DGT board sends (departure and arrival in one scan;
//! a capture as the arrival over the victim). Moves that could still grow (a pawn step, a slider
//! whose line goes on) wait for the slide window by design; they are reported apart, and so is
//! the time to their `pending` line, which says them the moment they are seen (what a page or a
//! clock's display shows first).

// Tests and benchmarks stop on what they did not expect: the workspace's denial of `unwrap`,
// `expect`, indexing and `panic!` is for the code input reaches, not for them.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::time::{Duration, Instant};

use shakmaty::{Board, Chess, Move, Position};
use touchmove_simulation::pgn_games::read_games;
use touchmove_simulation::simulate::footprint::could_go_further;

#[path = "shared/dgt_board.rs"]
mod dgt_board;
#[path = "shared/watch_process.rs"]
mod watch_process;

use dgt_board::DgtBoard;
use watch_process::{Watch, spawn_watch};

/// The games played: the first eight of the chess.js benchmark file.
const GAMES: &str = "fixtures/corpus/chessjs-benchmark.pgn";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    println!(
        "command: cargo bench --bench dgt_latency (argv: {})",
        args.join(" ")
    );
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(GAMES);
    let games: Vec<_> = read_games(std::fs::File::open(&path).expect("the games"))
        .filter_map(Result::ok)
        .take(8)
        .collect();
    let mut at_once = Vec::new();
    let mut windowed = Vec::new();
    let mut pending = Vec::new();
    for game in &games {
        let played = play(&game.start, &game.moves);
        at_once.extend(played.fast);
        windowed.extend(played.slow);
        pending.extend(played.pending);
    }
    report("moves that cannot be extended", &mut at_once);
    report("moves that wait for the slide window", &mut windowed);
    report(
        "the same moves said pending (a pending line before the move)",
        &mut pending,
    );
}

fn report(what: &str, samples: &mut [Duration]) {
    samples.sort();
    let pick = |q: f64| samples[((samples.len() as f64 - 1.0) * q).round() as usize];
    if samples.is_empty() {
        println!("{what}: none");
        return;
    }
    println!(
        "{what}: {} moves, median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        samples.len(),
        pick(0.5).as_secs_f64() * 1e3,
        pick(0.99).as_secs_f64() * 1e3,
        samples[samples.len() - 1].as_secs_f64() * 1e3
    );
}

/// The latencies of one game's moves.
struct Played {
    /// Moves decided at once.
    fast: Vec<Duration>,
    /// Moves that wait for the window, to their `move` line.
    slow: Vec<Duration>,
    /// The same, to their `pending` line, where one came.
    pending: Vec<Duration>,
}

/// Plays one game on a fresh pty and watch process; returns the latencies of the moves decided
/// at once and of those that wait for the window.
fn play(start: &Chess, moves: &[Move]) -> Played {
    let (mut board, _host, name) = DgtBoard::pair();
    let watch = spawn_watch(&["--port", &name], &[]);
    let mut position = start.clone();
    board.serve_until_updates(position.board());
    let mut fast = Vec::new();
    let mut slow = Vec::new();
    let mut pending = Vec::new();
    for (index, &m) in moves.iter().enumerate() {
        let waits = could_go_further(&position, m) || m.is_promotion();
        board.play(&position, m);
        let sent = Instant::now();
        let mut after = position.clone();
        after.play_unchecked(m);
        let (said, decided) = wait_for_ply(&mut board, &watch, index + 1, after.board());
        let latency = decided.saturating_duration_since(sent);
        if waits {
            slow.push(latency);
            pending.extend(said.map(|said| said.saturating_duration_since(sent)));
        } else {
            fast.push(latency)
        }
        position.play_unchecked(m);
        if position.is_game_over() {
            break;
        }
    }
    Played {
        fast,
        slow,
        pending,
    }
}

/// Waits for watch's `move` line of `ply`, answering keep-alives meanwhile (a request for the
/// board's dump with `shown`, what the board now shows); returns when its first `pending` line
/// came, if one did, and when the move came.
fn wait_for_ply(
    board: &mut DgtBoard,
    watch: &Watch,
    ply: usize,
    shown: &Board,
) -> (Option<Instant>, Instant) {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut pending = None;
    loop {
        assert!(Instant::now() < deadline, "ply {ply} was never decided");
        while let Ok((at, line)) = watch.lines.try_recv() {
            let event: serde_json::Value = serde_json::from_str(&line).expect("JSON");
            if event["ply"] != ply {
                continue;
            }
            if event["kind"] == "pending" && event["san"].is_string() {
                pending.get_or_insert(at);
            }
            if event["kind"] == "move" {
                return (pending, at);
            }
        }
        board.answer_host(shown);
    }
}
