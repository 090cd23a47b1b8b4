//! The sans-IO UCI session (`touchmove::engine`) with a real engine: Stockfish from Debian's
//! packages (`apt-get install stockfish`, installed by `.ci/run`), a child process over pipes.
//! The loop here is the test's own: lines out, lines in with their time, deadlines handed back.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move, Position};
use touchmove::engine::{EngineConfig, EngineEvent, EngineSession, Score, SearchLimits};

/// Stockfish: on the PATH, or where Debian puts it.
fn stockfish() -> String {
    let on_path = Command::new("stockfish")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .map(|mut child| {
            let _ = child.kill();
            let _ = child.wait();
        })
        .is_ok();
    if on_path {
        "stockfish".to_owned()
    } else {
        "/usr/games/stockfish".to_owned()
    }
}

/// The engine's process and the session that talks to it.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    session: EngineSession,
    epoch: Instant,
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Engine {
    fn start(config: EngineConfig) -> Engine {
        let mut child = Command::new(stockfish())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("Stockfish starts (apt-get install stockfish)");
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

    fn now(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// Runs the conversation until an event comes.
    fn next_event(&mut self) -> EngineEvent {
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
    fn next_move(&mut self) -> EngineEvent {
        loop {
            match self.next_event() {
                EngineEvent::Info { .. } => {}
                other => return other,
            }
        }
    }
}

#[test]
fn stockfish_plays_legal_moves_at_a_given_strength() {
    let config = EngineConfig {
        options: vec![("Hash".to_owned(), "16".to_owned())],
        elo: Some(1500),
    };
    let mut engine = Engine::start(config);
    let ready = engine.next_event();
    assert!(
        matches!(&ready, EngineEvent::Ready { name: Some(name) } if name.starts_with("Stockfish")),
        "{ready:?}"
    );
    // Twelve plies, the engine playing both sides, each move legal where it is played.
    let mut position = Chess::default();
    let mut played: Vec<Move> = Vec::new();
    let mut scored = false;
    for _ in 0..12 {
        let now = engine.now();
        engine
            .session
            .go(now, &Chess::default(), &played, SearchLimits::MoveTime(50));
        let chess_move = loop {
            match engine.next_event() {
                EngineEvent::Info { score, .. } => {
                    scored |= matches!(score, Some(Score::Centipawns(_) | Score::Mate(_)));
                }
                EngineEvent::BestMove { chess_move, .. } => break chess_move,
                other => panic!("not a move: {other:?}"),
            }
        };
        assert!(position.is_legal(chess_move), "{chess_move:?}");
        position.play_unchecked(chess_move);
        played.push(chess_move);
    }
    assert!(scored, "no score in the engine's info lines");
}

#[test]
fn stockfish_in_a_mated_position_has_no_move() {
    let mut engine = Engine::start(EngineConfig::default());
    let _ = engine.next_event();
    // Fool's mate: White is mated.
    let mut position = Chess::default();
    let mut played = Vec::new();
    for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        let chess_move = uci
            .parse::<shakmaty::uci::UciMove>()
            .ok()
            .and_then(|m| m.to_move(&position).ok())
            .expect("legal");
        position.play_unchecked(chess_move);
        played.push(chess_move);
    }
    let now = engine.now();
    engine
        .session
        .go(now, &Chess::default(), &played, SearchLimits::Depth(5));
    assert_eq!(engine.next_move(), EngineEvent::NoMove);
}

#[test]
fn a_stockfish_that_stops_answering_is_reported() {
    let mut engine = Engine::start(EngineConfig::default());
    let _ = engine.next_event();
    // A first move, as in a game under way.
    let now = engine.now();
    engine
        .session
        .go(now, &Chess::default(), &[], SearchLimits::MoveTime(50));
    assert!(matches!(engine.next_move(), EngineEvent::BestMove { .. }));
    // The engine is frozen (SIGSTOP) before it is asked again: no bestmove comes.
    let stopped = Command::new("kill")
        .args(["-STOP", &engine.child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(stopped.success());
    let now = engine.now();
    engine
        .session
        .go(now, &Chess::default(), &[], SearchLimits::MoveTime(100));
    let asked = Instant::now();
    assert_eq!(
        engine.next_move(),
        EngineEvent::Unresponsive {
            waiting_for: "bestmove",
            after: 5100
        }
    );
    assert!(asked.elapsed() >= Duration::from_millis(5000));
    let _ = Command::new("kill")
        .args(["-CONT", &engine.child.id().to_string()])
        .status();
}
