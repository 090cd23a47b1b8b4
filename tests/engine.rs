//! The sans-IO UCI session (`touchmove::engine`) with a real engine: Stockfish from Debian's
//! packages (`apt-get install stockfish`, installed by `.ci/run`), a child process over pipes.
//! The loop here is the test's own: lines out, lines in with their time, deadlines handed back.

use crate::common;

use std::process::Command;
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move, Position};
use touchmove::engine::{EngineConfig, EngineEvent, Score, SearchLimits, Strength};

use common::engine::Engine;

#[test]
fn stockfish_plays_legal_moves_at_a_given_strength() {
    let config = EngineConfig {
        options: vec![("Hash".to_owned(), "16".to_owned())],
        elo: Some(1500),
        skill: None,
        chess960: false,
    };
    let mut engine = Engine::start(config);
    let ready = engine.next_event();
    assert!(
        matches!(&ready, EngineEvent::Ready { name: Some(name), strength: Some(Strength::Elo(1500)) }
            if name.starts_with("Stockfish")),
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
