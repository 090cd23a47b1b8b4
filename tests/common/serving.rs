//! `touchmove serve` started for a test: its addresses read from what it prints first.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};

use super::emulator::{DEADLINE, Emulator, emulate_board};

/// serve's options for one demo board played five times as fast as hands, the interpreter's
/// windows scaled alike (the players think 0.6 to 0.9 s a move), starting with the demo's
/// first game.
pub const FAST_DEMO: [&str; 12] = [
    "--demo",
    "1",
    "--demo-first",
    "1",
    "--demo-speed",
    "5",
    "--demo-thinking",
    "600-900",
    "--slide-ms",
    "50",
    "--bounce-ms",
    "10",
];

/// The `serve` process; killed when dropped.
pub struct Serve {
    pub child: Child,
    /// Where its pages are (`127.0.0.1:PORT`).
    pub address: String,
    /// Its standard output's lines after the first.
    pub lines: Receiver<String>,
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Serve {
    /// The address of the LiveChess API (`127.0.0.1:PORT`), from the line `livechess:
    /// ws://ADDR/api/v1.0` that follows the first when `--livechess` is given.
    pub fn livechess_address(&self) -> String {
        let line = self.lines.recv_timeout(DEADLINE).expect("a second line");
        line.strip_prefix("livechess: ws://")
            .and_then(|rest| rest.strip_suffix("/api/v1.0"))
            .unwrap_or_else(|| panic!("`livechess: ws://ADDR/api/v1.0` expected, got `{line}`"))
            .to_owned()
    }
}

/// Starts `touchmove serve ARGS --listen 127.0.0.1:0` and reads its address from its first line.
pub fn serve(args: &[&str]) -> Serve {
    start(serve_command(args))
}

/// The command `touchmove serve ARGS --listen 127.0.0.1:0`, its standard error piped (to the
/// test's output, once started).
pub fn serve_command(args: &[&str]) -> Command {
    let mut command = super::bin();
    command
        .arg("serve")
        .args(["--listen", "127.0.0.1:0"])
        .args(args);
    command
}

/// Starts `command` (a `serve_command`) and reads its address from its first line.
pub fn start(mut command: Command) -> Serve {
    let mut child = command
        .stdout(Stdio::piped())
        .spawn()
        .expect("serve starts");
    super::child::forward_stderr(&mut child);
    let stdout = child.stdout.take().expect("piped stdout");
    let (send, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    let first = lines.recv_timeout(DEADLINE).expect("a first line");
    let address = first
        .strip_prefix("serve: http://")
        .and_then(|rest| rest.strip_suffix('/'))
        .unwrap_or_else(|| panic!("`serve: http://ADDR/` expected, got `{first}`"))
        .to_owned();
    Serve {
        child,
        address,
        lines,
    }
}

/// The emulator's arguments for the game of `fixtures/games/coverage.pgn`, played twenty times
/// faster than the simulated hands, the emulator kept for ten minutes after it.
pub const COVERAGE_GAME: [&str; 6] = [
    "--pgn",
    "fixtures/games/coverage.pgn",
    "--speed",
    "20",
    "--grace-ms",
    "600000",
];

/// Three boards of three protocols (DGT, Hall, ChessLink) emulated as processes, each playing
/// the coverage game 20 times faster than hands and staying on after it, as real boards do;
/// with their `--board` specs (`north=PORT`, `hall:PORT`, `chesslink:PORT`).
pub fn three_boards() -> (Vec<Emulator>, Vec<String>) {
    let boards = vec![
        emulate_board("dgt", &COVERAGE_GAME),
        emulate_board("hall", &COVERAGE_GAME),
        emulate_board("chesslink", &COVERAGE_GAME),
    ];
    let specs = vec![
        format!("north={}", boards[0].port),
        format!("hall:{}", boards[1].port),
        format!("chesslink:{}", boards[2].port),
    ];
    (boards, specs)
}
