//! `touchmove play` end to end: Debian's Stockfish as the engine, an emulated DGT board on a
//! real pseudo-terminal, and hands that play both sides from a script. The script is the game
//! worked out beforehand with Stockfish itself: the human's moves from a second engine (depth
//! 1), the engine's replies from an engine searched as `play --depth 4` searches (one thread, a
//! new game, the same positions in the same order: the same moves). Checked: the moves that
//! stand are the game, each engine move is announced and shown on the DGT clock's display, no
//! wrong execution is reported, the PGN (read back by python-chess and pgn-reader) names the
//! engine and holds the game.

mod common;

use std::process::{Command, Stdio};

use serde_json::Value;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Move, Position};

use common::emulator::emulate_with;
use common::engine::{Engine, stockfish};
use touchmove::engine::{EngineConfig, SearchLimits};

/// The plies played.
const PLIES: usize = 12;

/// The game: White's moves from an engine at depth 1, Black's as `play --depth 4` gets them.
fn game() -> Vec<Move> {
    let mut human = Engine::start(EngineConfig::default());
    let mut engine = Engine::start(EngineConfig::default());
    let _ = (human.next_event(), engine.next_event());
    let mut moves = Vec::new();
    for ply in 0..PLIES {
        let chosen = if ply % 2 == 0 {
            human.best(&moves, SearchLimits::Depth(1))
        } else {
            engine.best(&moves, SearchLimits::Depth(4))
        };
        moves.push(chosen);
    }
    moves
}

fn sans(moves: &[Move]) -> Vec<String> {
    let mut position = Chess::default();
    moves
        .iter()
        .map(|&m| {
            let san = SanPlus::from_move(position.clone(), m).to_string();
            position.play_unchecked(m);
            san
        })
        .collect()
}

#[test]
fn a_game_against_stockfish_on_a_dgt_board() {
    let _turn = common::pty_turn();
    let played = sans(&game());
    let dir = std::env::temp_dir().join(format!("touchmove-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let script = dir.join("game.pgn");
    let movetext: Vec<String> = played
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
        .collect();
    let pgn_text = format!("[Event \"play\"]\n\n{} *\n", movetext.join(" "));
    std::fs::write(&script, pgn_text).expect("written");
    let emulator_log = dir.join("emulator.log");
    let board = emulate_with(
        "dgt",
        &[
            "-v",
            "--pgn",
            script.to_str().expect("a path"),
            "--speed",
            "5",
        ],
        Stdio::from(std::fs::File::create(&emulator_log).expect("a log")),
    );
    let pgn = dir.join("out.pgn");
    let output = Command::new(env!("CARGO_BIN_EXE_touchmove"))
        .args([
            "play",
            "--engine",
            &stockfish(),
            "--depth",
            "4",
            "--color",
            "white",
        ])
        .args(["--port", &board.port, "--json", "--give-up-after", "1"])
        .args(["--slide-ms", "50", "--bounce-ms", "10"])
        .args(["--pgn", pgn.to_str().expect("a path")])
        .output()
        .expect("play runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let events: Vec<Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON"))
        .collect();
    let kinds = |kind: &str| -> Vec<String> {
        events
            .iter()
            .filter(|e| e["kind"] == kind)
            .map(|e| e["san"].as_str().unwrap_or("").to_owned())
            .collect()
    };
    assert_eq!(
        common::recorded_games(&events),
        vec![played.clone()],
        "{stderr}"
    );
    let engine_moves: Vec<String> = played.iter().skip(1).step_by(2).cloned().collect();
    assert_eq!(kinds("engine"), engine_moves, "every engine move announced");
    assert!(kinds("execution").is_empty(), "{events:?}");
    assert!(
        stderr.contains("Stockfish") && stderr.contains("plays Black"),
        "{stderr}"
    );

    // The DGT clock showed each engine move (its display: 8 characters).
    drop(board);
    let shown = std::fs::read_to_string(&emulator_log).expect("the emulator's log");
    for san in &engine_moves {
        let text: String = san.chars().take(8).collect();
        assert!(
            shown.contains(&format!("the clock shows `{text}`")),
            "{san}: {shown}"
        );
    }

    // The PGN: the engine named, the game read back by python-chess and pgn-reader.
    let pgn_text = std::fs::read_to_string(&pgn).expect("the PGN");
    assert!(pgn_text.contains("[Black \"Stockfish"), "{pgn_text}");
    assert!(pgn_text.contains("(depth 4)\"]"), "{pgn_text}");
    assert_eq!(common::pgn_games(&pgn_text), vec![played.clone()]);
    assert_eq!(
        common::python_chess_games(std::slice::from_ref(&pgn_text)),
        vec![vec![played]]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
