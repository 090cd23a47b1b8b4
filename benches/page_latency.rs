//! Report-to-page latency: from the last byte of the field updates that complete a move,
//! written to a DGT board's end of a real pseudo-terminal, to the move appearing in the board
//! page's move list, rendered by a real headless Chromium (Debian's `chromium` and
//! `chromium-driver`) following `touchmove serve --board PTY` over its event stream. Run with
//! `cargo bench --locked --bench page_latency`.
//!
//! The page keeps, with a `MutationObserver`, the wall-clock time at which each move first shows
//! in its list, as pending or as made; the bench takes the wall-clock time of its write. Both
//! clocks are this machine's. Moves that could still grow show pending the moment they are seen
//! and are made when the window closes; the others are made at once.

// Tests and benchmarks stop on what they did not expect: the workspace's denial of `unwrap`,
// `expect`, indexing and `panic!` is for the code input reaches, not for them.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::Value;
use shakmaty::{Chess, Position};
use touchmove_simulation::pgn_games::read_games;
use touchmove_simulation::simulate::footprint::could_go_further;

#[path = "shared/dgt_board.rs"]
mod dgt_board;

#[path = "../tests/common"]
#[allow(
    dead_code,
    reason = "the tests' helpers; this bench uses the browser only"
)]
mod common {
    pub mod browser;
    pub mod child;
    pub mod tools;
}

use common::browser::Browser;
use dgt_board::DgtBoard;

/// The games played: the first four of the chess.js benchmark file.
const GAMES: &str = "fixtures/corpus/chessjs-benchmark.pgn";

/// Keeps, for each ply the move list shows, when it first showed pending and when as made
/// (ms since the epoch, this machine's clock).
const WATCH_LIST: &str = "window.shownAt = {}; \
     new MutationObserver(() => { const now = performance.timeOrigin + performance.now(); \
       for (const span of document.querySelectorAll('#moves span')) { \
         const key = (span.classList.contains('pending') ? 'p' : 'm') + span.dataset.ply; \
         if (!(key in window.shownAt)) window.shownAt[key] = now; } }) \
       .observe(document.getElementById('moves'), { childList: true, subtree: true }); \
     return true;";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    println!(
        "command: cargo bench --bench page_latency (argv: {})",
        args.join(" ")
    );
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(GAMES);
    let games: Vec<_> = read_games(std::fs::File::open(&path).expect("the games"))
        .filter_map(Result::ok)
        .take(4)
        .collect();
    let browser = Browser::start(1600, 1000);
    let mut at_once = Vec::new();
    let mut pending = Vec::new();
    let mut windowed = Vec::new();
    for game in &games {
        let mut board = Played::default();
        play(&browser, &game.start, &game.moves, &mut board);
        at_once.extend(board.at_once);
        pending.extend(board.pending);
        windowed.extend(board.windowed);
    }
    report("moves that cannot be extended, made", &mut at_once);
    report("moves that could grow, shown pending", &mut pending);
    report("the same moves, made (the window closed)", &mut windowed);
}

fn report(what: &str, samples: &mut [f64]) {
    samples.sort_by(f64::total_cmp);
    if samples.is_empty() {
        println!("{what}: none");
        return;
    }
    let pick = |q: f64| samples[((samples.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "{what}: {} moves, median {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        samples.len(),
        pick(0.5),
        pick(0.99),
        samples[samples.len() - 1]
    );
}

/// The latencies of one game's moves, in ms.
#[derive(Default)]
struct Played {
    at_once: Vec<f64>,
    pending: Vec<f64>,
    windowed: Vec<f64>,
}

/// serve started on a board, killed when dropped.
struct Served {
    child: std::process::Child,
    address: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(port: &str) -> Served {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_touchmove"))
        .args(["serve", "--listen", "127.0.0.1:0", "--board", port])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("serve starts");
    let stdout = child.stdout.take().expect("piped");
    let mut first = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut first)
        .expect("serve's first line");
    let address = first
        .trim()
        .strip_prefix("serve: http://")
        .and_then(|rest| rest.strip_suffix('/'))
        .unwrap_or_else(|| panic!("`serve: http://ADDR/` expected, got `{first}`"))
        .to_owned();
    Served { child, address }
}

/// Plays one game on a fresh pty and serve process, the page open on it.
fn play(browser: &Browser, start: &Chess, moves: &[shakmaty::Move], played: &mut Played) {
    let (mut board, _host, name) = DgtBoard::pair();
    let served = serve(&name);
    let mut position = start.clone();
    board.serve_until_updates(position.board());
    browser.open(&format!("http://{}/board/1", served.address));
    browser.text_when("#link", Duration::from_secs(30), |text| {
        text != "connecting"
    });
    assert_eq!(browser.eval(WATCH_LIST), Value::Bool(true));
    for (index, &m) in moves.iter().enumerate() {
        let ply = index + 1;
        let waits = could_go_further(&position, m) || m.is_promotion();
        board.play(&position, m);
        let sent = epoch_ms();
        position.play_unchecked(m);
        let shown = wait_for_ply(browser, &mut board, ply, &position);
        let made = shown.made - sent;
        if waits {
            played.windowed.push(made);
            played.pending.extend(shown.pending.map(|at| at - sent));
        } else {
            played.at_once.push(made);
        }
        if position.is_game_over() {
            break;
        }
    }
}

/// When a ply showed in the page.
struct Shown {
    pending: Option<f64>,
    made: f64,
}

/// Waits until the page shows `ply` as made, answering the host meanwhile (`position` is what
/// the board now shows).
fn wait_for_ply(browser: &Browser, board: &mut DgtBoard, ply: usize, position: &Chess) -> Shown {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        assert!(Instant::now() < deadline, "ply {ply} never showed as made");
        board.answer_host(position.board());
        let at = browser.eval("return window.shownAt;");
        if let Some(made) = at[format!("m{ply}")].as_f64() {
            return Shown {
                pending: at[format!("p{ply}")].as_f64(),
                made,
            };
        }
    }
}

/// Now, in ms since the epoch.
fn epoch_ms() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1e3)
}
