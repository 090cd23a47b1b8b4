//! A UCI engine for the tests: Debian's Stockfish as a child process, talked to through the
//! library's sans-IO session by a small loop of the test's own (lines out, lines in with their
//! time, deadlines handed back).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move};
use touchmove::engine::{EngineConfig, EngineEvent, EngineSession, SearchLimits};

/// Stockfish: on the PATH, or where Debian puts it (a test fails saying how to get it when it
/// is in neither).
pub fn stockfish() -> String {
    super::tools::stockfish()
}

/// The engine's process and the session that talks to it.
pub struct Engine {
    pub child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    pub session: EngineSession,
    epoch: Instant,
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Engine {
    pub fn start(config: EngineConfig) -> Engine {
        let mut child = super::child::command(stockfish())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("Stockfish starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
            session: EngineSession::new(config, 0),
            epoch: Instant::now(),
        }
    }

    pub fn now(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// Runs the conversation until an event comes.
    pub fn next_event(&mut self) -> EngineEvent {
        loop {
            while let Some(line) = self.session.poll_transmit() {
                writeln!(self.stdin, "{line}").expect("the engine reads");
            }
            if let Some(event) = self.session.poll_event() {
                return event;
            }
            let wait = self
                .session
                .poll_timeout()
                .map_or(Duration::from_secs(60), |at| {
                    Duration::from_millis(at.saturating_sub(self.now()))
                });
            match self.lines.recv_timeout(wait) {
                Ok(line) => {
                    let now = self.now();
                    self.session.handle_line(now, &line);
                }
                Err(RecvTimeoutError::Timeout) => {
                    let now = self.now();
                    self.session.handle_timeout(now);
                }
                Err(RecvTimeoutError::Disconnected) => panic!("the engine ended"),
            }
        }
    }

    /// The engine's move (the search's progress skipped), or what came instead.
    pub fn next_move(&mut self) -> EngineEvent {
        loop {
            match self.next_event() {
                EngineEvent::Info { .. } => {}
                other => return other,
            }
        }
    }
}

impl Engine {
    /// The engine's move after `moves` from the start, searched within `limits`.
    pub fn best(&mut self, moves: &[Move], limits: SearchLimits) -> Move {
        self.best_from(&Chess::default(), moves, limits)
    }

    /// The engine's move after `moves` from `start`, searched within `limits`.
    pub fn best_from(&mut self, start: &Chess, moves: &[Move], limits: SearchLimits) -> Move {
        let now = self.now();
        self.session.go(now, start, moves, limits);
        match self.next_move() {
            EngineEvent::BestMove { chess_move, .. } => chess_move,
            other => panic!("not a move: {other:?}"),
        }
    }
}
