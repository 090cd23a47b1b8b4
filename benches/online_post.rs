//! How soon `touchmove online` sends the player's move: from the `move` line on its standard
//! output (written when the interpreter decides the move) to the move's request arriving at a
//! local stand-in for the Lichess Board API (`tests/common/lichess.rs`, in this process), both
//! instants read on this process's clock. The board is an emulated DGT board on a real
//! pseudo-terminal whose hands play White's moves of real games and carry out Black's as shown;
//! the stand-in plays Black's after 300 ms. Run with `cargo bench --locked --bench online_post`.

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
        "command: cargo bench --bench online_post (argv: {})",
        args.join(" ")
    );
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(GAMES);
    let games: Vec<_> = read_games(std::fs::File::open(&path).expect("the games"))
        .filter_map(Result::ok)
        .filter(|game| game.start == Chess::default() && game.moves.len() >= PLIES)
        .take(3)
        .collect();
    let mut samples = Vec::new();
    for (number, game) in games.iter().enumerate() {
        let moves = &game.moves[..PLIES];
        samples.extend(play(number, moves));
    }
    report(&mut samples);
}

/// Plays `moves` against the stand-in; each of White's moves' delay from its decision to its
/// request's arrival, in ms.
fn play(number: usize, moves: &[shakmaty::Move]) -> Vec<f64> {
    let mut position = Chess::default();
    let mut sans = Vec::new();
    let mut ucis = Vec::new();
    for &m in moves {
        sans.push(shakmaty::san::SanPlus::from_move(position.clone(), m).to_string());
        ucis.push(UciMove::from_standard(m).to_string());
        position.play_unchecked(m);
    }
    let standin = StandIn::start(Script {
        player: Color::White,
        moves: ucis.clone(),
        reply: Duration::from_millis(300),
        clock: (600_000, 2_000),
        cut_stream_after: None,
        rate_limit_moves: Vec::new(),
        fail_moves: Vec::new(),
    });
    let dir = std::env::temp_dir().join(format!(
        "touchmove-online-bench-{}-{number}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("a directory");
    let pgn = dir.join("game.pgn");
    let movetext: Vec<String> = sans
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
        .collect();
    std::fs::write(
        &pgn,
        format!("[Event \"bench\"]\n\n{} *\n", movetext.join(" ")),
    )
    .expect("written");
    let (mut emulator, port) = emulate(&pgn);
    let mut online = Command::new(env!("CARGO_BIN_EXE_touchmove"))
        .env("LICHESS_TOKEN", TOKEN)
        .args(["online", "--lichess-url", &standin.url, "--games", "1"])
        .args(["--protocol", "dgt", "--port", &port, "--json"])
        .args(["--slide-ms", "50", "--bounce-ms", "10"])
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
    decided
        .iter()
        .zip(&arrived)
        .map(|((line, _), (request, _))| {
            if request >= line {
                request.duration_since(*line).as_secs_f64() * 1e3
            } else {
                -(line.duration_since(*request).as_secs_f64() * 1e3)
            }
        })
        .collect()
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
