//! A Chess960 game on an emulated DGT board (a real pseudo-terminal; the board names its
//! pieces), watched with `--chess960 N`: simulated hands castle the way the Guidelines
//! recommend (II.3.2.5.1: the king off the board, the rook to its square, the king to its own),
//! each of the Guidelines' four ways in two games: from position 11 a transposition (White) and
//! a king-only castling (Black), from position 48 a rook-only castling (White) and a
//! double-move one (Black). Each game is recorded exactly, with no ruling, its recording
//! replays to the session, and python-chess reads its PGN back as Chess960. A game against
//! Stockfish from position 11 is played too.

use crate::common;

use std::process::Stdio;

use serde_json::Value;

use common::emulator::emulate_with;

/// Starting position 11 of the numbering: QNNRBKRB. White's king f1 beside its g-side rook g1
/// (castling swaps them); Black's c-side rook d8 already where castling puts it (the king
/// alone moves, f8 to c8, once e8 and c8 are cleared).
const POSITION: &str = "11";
const FEN: &str = "qnnrbkrb/pppppppp/8/8/8/8/PPPPPPPP/QNNRBKRB w KQkq - 0 1";
const MOVES: [&str; 8] = ["O-O", "Nd6", "d3", "f6", "e3", "Bf7", "h3", "O-O-O"];

/// A Chess960 game the hands play: its starting position and moves, and its two castlings in
/// UCI (the king taking its rook).
struct Game960 {
    number: &'static str,
    fen: &'static str,
    moves: &'static [&'static str],
    castlings: [(&'static str, &'static str); 2],
}

/// Position 11: White castles by transposition (f1g1), Black by the king alone (f8d8).
const TRANSPOSITION_AND_KING_ONLY: Game960 = Game960 {
    number: POSITION,
    fen: FEN,
    moves: &MOVES,
    castlings: [("O-O", "f1g1"), ("O-O-O", "f8d8")],
};

/// Position 48, BBNNRQKR: White's king already on g1 castles by the rook alone, h1 to f1 over
/// it, once the queen has left f1 (g1h1); Black's king g8 goes to c8 and its rook e8 to d8
/// (double-move, g8e8), once f8, d8 and c8 are cleared.
const ROOK_ONLY_AND_DOUBLE_MOVE: Game960 = Game960 {
    number: "48",
    fen: "bbnnrqkr/pppppppp/8/8/8/8/PPPPPPPP/BBNNRQKR w KQkq - 0 1",
    moves: &[
        "f3", "Nb6", "Qf2", "Ne6", "O-O", "f6", "e3", "Qf7", "d3", "O-O-O",
    ],
    castlings: [("O-O", "g1h1"), ("O-O-O", "g8e8")],
};

#[test]
fn a_chess960_game_on_an_emulated_dgt_board_castles_by_transposition_and_by_the_king_alone() {
    let log = play_960("flag", true, &TRANSPOSITION_AND_KING_ONLY);
    // The recording starts from the position.
    assert!(log.contains(&format!("@start {FEN}\n")), "{log}");
}

#[test]
fn a_chess960_game_castles_by_the_rook_alone_and_by_king_and_rook() {
    let log = play_960("rook-only", true, &ROOK_ONLY_AND_DOUBLE_MOVE);
    assert!(
        log.contains(&format!("@start {}\n", ROOK_ONLY_AND_DOUBLE_MOVE.fen)),
        "{log}"
    );
}

#[test]
fn a_chess960_start_the_board_shows_is_recognised_by_itself() {
    // No --chess960: the DGT board names the pieces of position 11 before the first move.
    let log = play_960("recognised", false, &TRANSPOSITION_AND_KING_ONLY);
    assert!(log.contains(&format!("@start {FEN}\n")), "{log}");
}

/// The game `moves` (SAN) from `fen` as a PGN script for the emulated board's hands, in
/// `dir` (created).
fn write_script(dir: &std::path::Path, fen: &str, moves: &[impl AsRef<str>]) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).expect("a directory");
    let script = dir.join("game.pgn");
    let movetext: Vec<String> = moves
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| {
            let pair: Vec<&str> = pair.iter().map(AsRef::as_ref).collect();
            format!("{}. {}", i + 1, pair.join(" "))
        })
        .collect();
    let tags = format!("[Event \"960\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]");
    std::fs::write(&script, format!("{tags}\n\n{} *\n", movetext.join(" "))).expect("written");
    script
}

/// Plays `game` on an emulated DGT board watched with `--chess960 N` when `numbered` (else the
/// board's start is recognised); checks what every way of watching it must give; the
/// recording.
fn play_960(name: &str, numbered: bool, game: &Game960) -> String {
    let options: &[&str] = if numbered {
        &["--chess960", game.number]
    } else {
        &[]
    };
    let dir = std::env::temp_dir().join(format!("touchmove-960-{name}-{}", std::process::id()));
    let script = write_script(&dir, game.fen, game.moves);
    let board = emulate_with(
        "dgt",
        &["--pgn", script.to_str().expect("a path"), "--speed", "5"],
        Stdio::null(),
    );
    let (pgn, log) = (dir.join("out.pgn"), dir.join("game.log"));
    let output = common::bin()
        .args(["watch", "--port", &board.port, "--json"])
        .args(options)
        .args(["--give-up-after", "1"])
        .args(common::SHORT_WINDOWS)
        .args(["--pgn", pgn.to_str().expect("a path")])
        .args(["--record", log.to_str().expect("a path")])
        .output()
        .expect("watch runs");
    drop(board);
    common::assert_gave_up(&output);
    let events = common::json_lines(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let played: Vec<String> = game.moves.iter().map(|san| (*san).to_owned()).collect();
    assert_eq!(
        common::recorded_games(&events),
        vec![played.clone()],
        "{stderr}"
    );
    // Castling in Chess960 UCI: the king takes its own rook (f1g1, f8d8).
    let castlings: Vec<(&str, &str)> = events
        .iter()
        .filter(|e| e["kind"] == "move" && e["san"].as_str().is_some_and(|s| s.starts_with("O-O")))
        .map(|e| {
            (
                e["san"].as_str().unwrap_or(""),
                e["uci"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(castlings, game.castlings);
    for kind in ["violation", "illegal", "mismatch", "takeback"] {
        assert!(
            events.iter().all(|e| e["kind"] != kind),
            "{kind}: {events:?}"
        );
    }
    let replayed = common::touchmove_ok(&["replay", "--json", log.to_str().expect("a path")]);
    let replayed = common::json_lines(replayed.as_bytes());
    let decided: Vec<&Value> = events
        .iter()
        .filter(|e| !crate::common::live_only(e))
        .collect();
    assert_eq!(replayed.iter().collect::<Vec<_>>(), decided);
    // python-chess reads the PGN back as Chess960, to the same moves and final position.
    common::tools::require_python_chess();
    let read = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys, chess.pgn\n\
             g = chess.pgn.read_game(open(sys.argv[1]))\n\
             print(g.headers.get('Variant'), g.board().chess960)\n\
             print(' '.join(g.board().variation_san(list(g.mainline_moves())).split()))\n\
             print(g.end().board().fen())",
        ])
        .arg(&pgn)
        .output()
        .expect("python3 runs");
    let read = String::from_utf8_lossy(&read.stdout).into_owned();
    let mut lines = read.lines();
    assert_eq!(lines.next(), Some("Chess960 True"), "{read}");
    let numbered: Vec<String> = game
        .moves
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
        .collect();
    assert_eq!(lines.next(), Some(numbered.join(" ").as_str()), "{read}");
    let last_fen = events
        .iter()
        .rev()
        .find(|e| e["kind"] == "move")
        .and_then(|e| e["fen"].as_str())
        .expect("a last move");
    assert_eq!(lines.next(), Some(last_fen), "{read}");
    let recorded = std::fs::read_to_string(&log).expect("the recording");
    let _ = std::fs::remove_dir_all(&dir);
    recorded
}

/// The game of `play --chess960 11 --depth 4`: White's first move O-O (the transposition), its
/// others from an engine at depth 1, Black's as the engine searched at depth 4 gets them (one
/// thread, a new game, the same positions in the same order: the same moves).
fn engine_game() -> Vec<String> {
    use touchmove::engine::{EngineConfig, SearchLimits};
    let start = touchmove::rules::chess960::position(11).expect("position 11");
    let config = EngineConfig {
        chess960: true,
        ..EngineConfig::default()
    };
    let mut human = common::engine::Engine::start(config.clone());
    let mut engine = common::engine::Engine::start(config);
    let _ = (human.next_event(), engine.next_event());
    let mut moves: Vec<shakmaty::Move> = Vec::new();
    let mut position = start.clone();
    let mut sans = Vec::new();
    for ply in 0..8 {
        let chosen = match ply {
            0 => "O-O"
                .parse::<shakmaty::san::San>()
                .ok()
                .and_then(|san| san.to_move(&position).ok())
                .expect("O-O is legal at the start of position 11"),
            _ if ply % 2 == 0 => human.best_from(&start, &moves, SearchLimits::Depth(1)),
            _ => engine.best_from(&start, &moves, SearchLimits::Depth(4)),
        };
        sans.push(
            shakmaty::san::SanPlus::from_move_and_play_unchecked(&mut position, chosen).to_string(),
        );
        moves.push(chosen);
    }
    sans
}

#[test]
fn a_chess960_game_against_stockfish_is_played_with_uci_chess960() {
    let played = engine_game();
    let dir = std::env::temp_dir().join(format!("touchmove-960-play-{}", std::process::id()));
    let script = write_script(&dir, FEN, &played);
    let board = emulate_with(
        "dgt",
        &[
            "--pgn",
            script.to_str().expect("a path"),
            "--follow",
            "black",
            "--speed",
            "5",
        ],
        Stdio::null(),
    );
    let log = dir.join("game.log");
    let output = common::bin()
        .args([
            "play",
            "--engine",
            &common::tools::stockfish(),
            "--depth",
            "4",
        ])
        .args(["--chess960", POSITION, "--color", "white"])
        .args(["--port", &board.port, "--json", "--give-up-after", "1"])
        .args(common::SHORT_WINDOWS)
        .args(["--record", log.to_str().expect("a path")])
        .output()
        .expect("play runs");
    drop(board);
    common::assert_gave_up(&output);
    let events = common::json_lines(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        common::recorded_games(&events),
        vec![played.clone()],
        "{stderr}"
    );
    let engine: Vec<&str> = events
        .iter()
        .filter(|e| e["kind"] == "engine")
        .filter_map(|e| e["san"].as_str())
        .collect();
    let expected: Vec<&str> = played
        .iter()
        .skip(1)
        .step_by(2)
        .map(String::as_str)
        .collect();
    assert_eq!(engine, expected);
    assert!(
        events.iter().all(|e| e["kind"] != "execution"),
        "{events:?}"
    );
    // The recorded engine moves replay to the session (castling written as in Chess960).
    let replayed = common::touchmove_ok(&["replay", "--json", log.to_str().expect("a path")]);
    let replayed = common::json_lines(replayed.as_bytes());
    let decided: Vec<&Value> = events
        .iter()
        .filter(|e| !crate::common::live_only(e))
        .collect();
    assert_eq!(replayed.iter().collect::<Vec<_>>(), decided);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_log_without_its_start_replays_from_the_chess960_position_given() {
    // Position 11's transposition castling, the recommended way, in a log that does not say its
    // start: from the standard start nothing it shows is a move; from position 11, O-O.
    let dir = std::env::temp_dir().join(format!("touchmove-960-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let log = dir.join("castles.log");
    std::fs::write(
        &log,
        "touchmove-log 1\n0 lift f1 K\n400 lift g1 R\n700 place f1 R\n1000 place g1 K\n",
    )
    .expect("written");
    let path = log.to_str().expect("a path");
    let from_11 = common::json_lines(
        common::touchmove_ok(&["replay", "--json", "--chess960", "11", path]).as_bytes(),
    );
    let moves: Vec<(&str, &str)> = from_11
        .iter()
        .filter(|e| e["kind"] == "move")
        .map(|e| {
            (
                e["san"].as_str().unwrap_or(""),
                e["uci"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(moves, [("O-O", "f1g1")], "{from_11:?}");
    let standard = common::json_lines(common::touchmove_ok(&["replay", "--json", path]).as_bytes());
    assert!(standard.iter().all(|e| e["kind"] != "move"), "{standard:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
