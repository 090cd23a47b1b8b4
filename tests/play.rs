//! `touchmove play` end to end: Debian's Stockfish as the engine, an emulated board (DGT, Hall,
//! ChessLink on a real pseudo-terminal; Chessnut, Pegasus, eONE behind the BlueZ stand-in,
//! reached through the real Bluetooth code), and emulated hands that play White from a script and
//! carry out Black's moves as the host shows them (`emulate --follow black`: the DGT clock's
//! text, the lit squares). The script is the game worked out beforehand with Stockfish itself:
//! the human's moves from a second engine (depth 1), the engine's replies from an engine
//! searched as `play --depth 4` searches (one thread, a new game, the same positions in the
//! same order: the same moves), so the game played must be that game. Checked: the moves that
//! stand are the game, each engine move is announced, shown on the board and carried out by the
//! hands as shown, no wrong execution is reported, the PGN (read back by python-chess and
//! pgn-reader) names the engine and holds the game.

use crate::common;

use std::process::{Command, Stdio};

use serde_json::Value;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Move, Position};

use common::ble::emulate_any;
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

/// What `play` made of a game on an emulated `board`: its JSON events and standard error,
/// its PGN, and the emulator's log.
struct Played {
    events: Vec<Value>,
    stderr: String,
    pgn: String,
    emulator: String,
    /// What `touchmove replay --json` makes of the session's recording.
    replayed: Vec<Value>,
}

/// Plays `played` (SAN) on an emulated `board`, White's moves the human's, Black's Stockfish's
/// at depth 4.
fn play_on(board: &str, played: &[String]) -> Played {
    play_with(board, played, &[], &[])
}

/// As `play_on`, the emulator given `emulated_args` too and `play` given `play_args`.
fn play_with(board: &str, played: &[String], emulated_args: &[&str], play_args: &[&str]) -> Played {
    // A folder of its own: several games on one protocol run side by side.
    static GAMES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let number = GAMES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "touchmove-play-{board}-{}-{number}",
        std::process::id()
    ));
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
    let mut emulate_args = vec![
        "-v",
        "--pgn",
        script.to_str().expect("a path"),
        "--follow",
        "black",
        "--speed",
        "5",
    ];
    emulate_args.extend_from_slice(emulated_args);
    let emulated = emulate_any(
        board,
        &emulate_args,
        Stdio::from(std::fs::File::create(&emulator_log).expect("a log")),
    );
    let pgn = dir.join("out.pgn");
    let log = dir.join("game.log");
    let output = common::bin()
        .args([
            "play",
            "--engine",
            &stockfish(),
            "--depth",
            "4",
            "--color",
            "white",
        ])
        .args(["--protocol", board, "--port", &emulated.port, "--json"])
        .envs(emulated.env())
        .args(["--give-up-after", "1"])
        .args(common::SHORT_WINDOWS)
        .args(play_args)
        .args(["--pgn", pgn.to_str().expect("a path")])
        .args(["--record", log.to_str().expect("a path")])
        .output()
        .expect("play runs");
    drop(emulated);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    common::assert_gave_up(&output);
    let played = Played {
        events: common::json_lines(&output.stdout),
        stderr,
        pgn: std::fs::read_to_string(&pgn).expect("the PGN"),
        emulator: std::fs::read_to_string(&emulator_log).expect("the emulator's log"),
        // With no option: the log states the windows the session watched with.
        replayed: replay_json(&log),
    };
    let _ = std::fs::remove_dir_all(&dir);
    played
}

/// The events `touchmove replay --json` decides from the recording at `log`, with no option:
/// the log states the report horizon and the windows the session decided with.
fn replay_json(log: &std::path::Path) -> Vec<Value> {
    let output = common::bin()
        .args(["replay", "--json", log.to_str().expect("a path")])
        .output()
        .expect("replay runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    common::json_lines(&output.stdout)
}

/// The checks every board gets: the game stands, each engine move announced, no wrong
/// execution, the engine named in the PGN, which reads back as the game; the hands carried out
/// each engine move as the board showed it.
fn check_game(result: &Played, played: &[String]) {
    check_game_carried_out_by(result, played, ("the hands carry out ", ", as shown"));
}

/// As [`check_game`], each engine move carried out as the emulator's log says between
/// `carried.0` and `carried.1` (the hands', a robot's).
fn check_game_carried_out_by(result: &Played, played: &[String], carried: (&str, &str)) {
    let (events, stderr) = (&result.events, &result.stderr);
    // Live equals replay: the recording (its engine notes included) replays to every decision
    // the session made, the engine's moves among them; the link's state is the live session's.
    let decided: Vec<&Value> = events.iter().filter(|e| !common::live_only(e)).collect();
    let replayed: Vec<&Value> = result.replayed.iter().collect();
    assert_eq!(replayed, decided, "{stderr}");
    let kinds = |kind: &str| -> Vec<String> {
        events
            .iter()
            .filter(|e| e["kind"] == kind)
            .map(|e| e["san"].as_str().unwrap_or("").to_owned())
            .collect()
    };
    assert_eq!(
        common::recorded_games(events),
        vec![played.to_vec()],
        "{stderr}"
    );
    let engine_moves: Vec<String> = played.iter().skip(1).step_by(2).cloned().collect();
    assert_eq!(kinds("engine"), engine_moves, "every engine move announced");
    assert!(kinds("execution").is_empty(), "{events:?}");
    // Each engine move was carried out as the board was told, and nothing else.
    let followed: Vec<&str> = result
        .emulator
        .lines()
        .filter_map(|line| line.split(carried.0).nth(1))
        .filter_map(|rest| rest.strip_suffix(carried.1))
        .collect();
    assert_eq!(followed, engine_moves, "{}", result.emulator);
    // Each engine move with the score of the engine's last info line.
    for engine in events.iter().filter(|e| e["kind"] == "engine") {
        assert!(
            engine["score_cp"].is_i64() || engine["mate"].is_i64(),
            "{engine}"
        );
    }
    assert!(
        stderr.contains("Stockfish") && stderr.contains("plays Black"),
        "{stderr}"
    );
    let pgn = &result.pgn;
    assert!(pgn.contains("[Black \"Stockfish"), "{pgn}");
    assert!(pgn.contains("(depth 4)\"]"), "{pgn}");
    assert_eq!(common::pgn_games(pgn), vec![played.to_vec()]);
    assert_eq!(
        common::python_chess_games(std::slice::from_ref(pgn)),
        vec![vec![played.to_vec()]]
    );
}

#[test]
fn a_game_against_stockfish_on_a_dgt_board() {
    let played = sans(&game());
    let result = play_on("dgt", &played);
    check_game(&result, &played);
    // The DGT clock showed each engine move (its display: 8 characters).
    for san in played.iter().skip(1).step_by(2) {
        let text: String = san.chars().take(8).collect();
        let shown = format!("the clock shows `{text}`");
        assert!(
            result.emulator.contains(&shown),
            "{san}: {}",
            result.emulator
        );
    }
}

/// A game against Stockfish on an emulated DGT board with a DGT 3000 (its lever bit follows the
/// host's settings), the clock set to ten minutes and two seconds a move, the hands pressing as
/// `presses` says: every check of a game, and no ruling (the engine's side, whose moves the
/// player carries out, is never judged for a press; the host's settings are no presses).
fn a_dgt_3000_game_pressing(presses: &str) {
    let played = sans(&game());
    let hands = [
        "--clock",
        "3000",
        "--presses",
        presses,
        "--thinking",
        "300-2000",
    ];
    let result = play_with("dgt", &played, &hands, &["--time-control", "600+2"]);
    check_game(&result, &played);
    let rulings: Vec<&Value> = result
        .events
        .iter()
        .filter(|e| e["kind"] == "violation" || e["kind"] == "illegal")
        .collect();
    assert_eq!(rulings, Vec::<&Value>::new(), "{}", result.stderr);
}

#[test]
fn a_player_who_presses_after_every_move_carried_out_earns_no_ruling_on_a_dgt_3000() {
    a_dgt_3000_game_pressing("every");
}

#[test]
fn a_player_who_presses_after_their_own_moves_only_earns_no_ruling_on_a_dgt_3000() {
    a_dgt_3000_game_pressing("own");
}

#[test]
fn a_player_who_never_presses_earns_no_ruling_on_a_dgt_3000() {
    a_dgt_3000_game_pressing("never");
}

#[test]
fn a_game_against_stockfish_on_a_hall_board() {
    let played = sans(&game());
    check_game(&play_on("hall", &played), &played);
}

#[test]
fn a_game_against_stockfish_on_a_chesslink_board() {
    let played = sans(&game());
    check_game(&play_on("chesslink", &played), &played);
}

#[test]
fn a_game_against_stockfish_on_a_certabo_rfid_board() {
    // The chips learnt from the start position and the spare queens, then the game.
    let played = sans(&game());
    check_game(&play_on("certabo", &played), &played);
}

#[test]
fn a_game_against_stockfish_on_a_certabo_sentio_board() {
    // Occupancy only: each move, the player's and the engine's carried out as the lights
    // show, is told from the squares that empty and fill.
    let played = sans(&game());
    let result = play_with("certabo", &played, &["--sentio"], &[]);
    check_game(&result, &played);
    // Told a Sentio board, the host said what it cannot sense.
    assert!(
        result.stderr.contains("a Sentio board senses occupancy"),
        "{}",
        result.stderr
    );
}

// The Bluetooth families, through the real Bluetooth code and the BlueZ stand-in: the hands
// carry out each engine move as the board's lights show it.

#[test]
fn a_game_against_stockfish_on_a_chessnut_board_over_bluetooth() {
    let played = sans(&game());
    check_game(&play_on("chessnut", &played), &played);
}

#[test]
fn a_game_against_stockfish_on_a_chessnut_move_whose_robot_carries_out_the_engine_s_moves() {
    let played = sans(&game());
    let result = play_on("chessnut-move", &played);
    check_game_carried_out_by(&result, &played, ("the robot carries out ", ", as sent"));
    // The hands carried out none of them: they played White's moves only.
    assert!(
        !result.emulator.contains("the hands carry out"),
        "{}",
        result.emulator
    );
    // No engine move earned a ruling. (That the board's silence while its robot moves is no
    // lost link is the session's unit tests': timed here, a loaded machine could starve the
    // emulator as long.)
    assert!(
        result
            .events
            .iter()
            .all(|e| e["kind"] != "violation" && e["kind"] != "illegal"),
        "{}",
        result.stderr
    );
}

#[test]
fn a_game_against_stockfish_on_a_pegasus_over_bluetooth() {
    let played = sans(&game());
    check_game(&play_on("pegasus", &played), &played);
}

#[test]
fn a_game_against_stockfish_on_an_eone_over_bluetooth() {
    let played = sans(&game());
    check_game(&play_on("eone", &played), &played);
}

#[test]
fn a_game_against_stockfish_on_a_square_off_over_bluetooth() {
    let played = sans(&game());
    check_game(&play_on("squareoff", &played), &played);
}

/// A log line for moving `m`'s piece (the move's own squares; a plain move, no capture).
fn lift_place(t: u64, position: &Chess, from: shakmaty::Square, to: shakmaty::Square) -> String {
    let piece = position
        .board()
        .piece_at(from)
        .map(|p| p.char().to_string())
        .unwrap_or_default();
    format!("{t} lift {from} {piece}\n{} place {to} {piece}\n", t + 300)
}

#[test]
fn a_wrongly_carried_out_engine_move_is_reported_and_waited_for_and_a_takeback_asks_again() {
    // What the engine answers to 1. e4 when asked as play asks it.
    let e4 = "e2e4"
        .parse::<shakmaty::uci::UciMove>()
        .ok()
        .and_then(|m| m.to_move(&Chess::default()).ok())
        .expect("e4");
    let mut engine = Engine::start(EngineConfig::default());
    let _ = engine.next_event();
    let reply = engine.best(&[e4], SearchLimits::Depth(4));
    drop(engine);
    let mut after_e4 = Chess::default();
    after_e4.play_unchecked(e4);
    let reply_san = SanPlus::from_move(after_e4.clone(), reply).to_string();
    // The hands play another pawn move for Black first, put it back, then the engine's.
    let (wrong_from, wrong_to) = if reply_san == "d5" {
        (shakmaty::Square::C7, shakmaty::Square::C5)
    } else {
        (shakmaty::Square::D7, shakmaty::Square::D5)
    };
    let wrong_san = SanPlus::from_move(
        after_e4.clone(),
        Move::Normal {
            role: shakmaty::Role::Pawn,
            from: wrong_from,
            capture: None,
            to: wrong_to,
            promotion: None,
        },
    )
    .to_string();
    let (reply_from, reply_to) = match shakmaty::uci::UciMove::from_standard(reply) {
        shakmaty::uci::UciMove::Normal { from, to, .. } => (from, to),
        other => panic!("{other:?}"),
    };
    let start = Chess::default();
    let mut log = String::from("touchmove-log 1\n");
    log.push_str(&lift_place(
        0,
        &start,
        shakmaty::Square::E2,
        shakmaty::Square::E4,
    ));
    log.push_str(&lift_place(3000, &after_e4, wrong_from, wrong_to));
    let mut wrong = after_e4.board().clone();
    if let Some(pawn) = wrong.remove_piece_at(wrong_from) {
        wrong.set_piece_at(wrong_to, pawn);
    }
    let piece = |board: &shakmaty::Board, square| {
        board
            .piece_at(square)
            .map(|p| p.char().to_string())
            .unwrap_or_default()
    };
    let p = piece(&wrong, wrong_to);
    log.push_str(&format!(
        "6000 lift {wrong_to} {p}\n6300 place {wrong_from} {p}\n"
    ));
    log.push_str(&lift_place(9000, &after_e4, reply_from, reply_to));
    // Then both moves taken back (the engine's reply first), and 1. d4 instead.
    let mut after_reply = after_e4.clone();
    after_reply.play_unchecked(reply);
    let r = piece(after_reply.board(), reply_to);
    log.push_str(&format!(
        "12000 lift {reply_to} {r}\n12300 place {reply_from} {r}\n"
    ));
    log.push_str("15000 lift e4 P\n15300 place e2 P\n18000 lift d2 P\n18300 place d4 P\n");
    let dir = std::env::temp_dir().join(format!("touchmove-play-wrong-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let script = dir.join("hands.log");
    std::fs::write(&script, &log).expect("written");
    let board = emulate_with(
        "dgt",
        &["--log", script.to_str().expect("a path")],
        Stdio::piped(),
    );
    let recording = dir.join("game.log");
    let output = common::bin()
        .args(["play", "--engine", &stockfish(), "--depth", "4"])
        .args(["--port", &board.port, "--json", "--give-up-after", "1"])
        .args(["--record", recording.to_str().expect("a path")])
        .output()
        .expect("play runs");
    common::assert_gave_up(&output);
    let events = common::json_lines(&output.stdout);
    let executions: Vec<&Value> = events.iter().filter(|e| e["kind"] == "execution").collect();
    assert_eq!(executions.len(), 1, "{log}\n{events:?}");
    let execution = executions[0];
    assert_eq!(
        execution["message"],
        format!("carry out {reply_san}, not {wrong_san}").as_str()
    );
    assert_eq!(
        execution["squares"],
        serde_json::json!([reply_from.to_string(), reply_to.to_string()])
    );
    // The wrong move never stood; the engine's did, then both went back, and d4 stands.
    let moved: Vec<&str> = events
        .iter()
        .filter(|e| e["kind"] == "move")
        .filter_map(|e| e["san"].as_str())
        .collect();
    assert_eq!(moved, ["e4", reply_san.as_str(), "d4"], "{events:?}");
    assert_eq!(common::recorded_games(&events), vec![vec!["d4".to_owned()]]);
    // The engine was asked again after d4: its move is announced (and not carried out).
    let last_engine = events.iter().rev().find(|e| e["kind"] == "engine");
    let last_move = events.iter().rev().find(|e| e["kind"] == "move");
    assert!(
        last_engine
            .zip(last_move)
            .is_some_and(|(engine, moved)| engine["t"].as_u64() >= moved["t"].as_u64()),
        "{events:?}"
    );
    // Live equals replay: the wrong execution, the takeback and the engine's choices too.
    let decided: Vec<&Value> = events.iter().filter(|e| !common::live_only(e)).collect();
    let replayed = replay_json(&recording);
    assert_eq!(replayed.iter().collect::<Vec<_>>(), decided);
    // No Article 4 ruling for the engine's side.
    assert!(
        events
            .iter()
            .all(|e| e["kind"] != "violation" || e["color"] != "black"),
        "{events:?}"
    );
    drop(board);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_killed_mid_game_is_started_again_and_the_game_goes_on() {
    use std::io::{BufRead, BufReader};
    let dir = std::env::temp_dir().join(format!("touchmove-play-kill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let script = dir.join("hands.log");
    std::fs::write(&script, "touchmove-log 1\n0 lift e2 P\n300 place e4 P\n").expect("written");
    let board = emulate_with(
        "dgt",
        &[
            "--log",
            script.to_str().expect("a path"),
            "--grace-ms",
            "60000",
        ],
        Stdio::piped(),
    );
    let mut play = common::bin()
        .args(["play", "--engine", &stockfish(), "--movetime", "2000"])
        .args(["--port", &board.port, "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("play starts");
    let stdout = play.stdout.take().expect("stdout");
    let event = |line: String| -> Value { serde_json::from_str(&line).expect("JSON") };
    // The decisions, in order (the notices, the terminal's words, left out).
    let mut lines = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .map(event)
        .filter(|event| !common::live_only(event));
    // The human's move: the engine is thinking (two seconds); it is killed.
    let first = lines.next().expect("an event");
    assert_eq!(first["san"], "e4", "{first}");
    let killed = Command::new("pkill")
        .args(["-KILL", "-P", &play.id().to_string(), "-x", "stockfish"])
        .status()
        .expect("pkill runs");
    assert!(killed.success(), "no engine to kill");
    // Started again, asked again: its move comes.
    let next = lines.next().expect("an event");
    assert_eq!(next["kind"], "engine", "{next}");
    let _ = Command::new("kill")
        .args(["-INT", &play.id().to_string()])
        .status();
    let output = play.wait_with_output().expect("play ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        // Seen ended when read, or killed while it was being written to.
        [
            "the engine ended",
            "the engine stopped reading",
            "cannot read the engine"
        ]
        .iter()
        .any(|said| stderr.contains(said))
            && stderr.contains("the engine is started again (1)"),
        "{stderr}"
    );
    drop(board);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The score as the page writes it, from an `engine` event (whose scores are from the engine's
/// side): from White's side, as every GUI writes it: `+0.31`, `-1.50`, `#3`, `#-2`.
fn score_text(event: &Value) -> String {
    let side = if event["color"] == "black" { -1 } else { 1 };
    let white = |score: Option<i64>| score.map(|score| score * side);
    match (
        white(event["mate"].as_i64()),
        white(event["score_cp"].as_i64()),
    ) {
        (Some(mate), _) => format!("#{mate}"),
        (None, Some(cp)) => {
            let sign = if cp > 0 { "+" } else { "" };
            format!("{sign}{:.2}", cp as f64 / 100.0)
        }
        (None, None) => String::new(),
    }
}

/// `san` played after `moves` from the start.
fn then(moves: &[Move], san: &str) -> Move {
    let mut position = Chess::default();
    for &m in moves {
        position.play_unchecked(m);
    }
    san.parse::<shakmaty::san::San>()
        .ok()
        .and_then(|san| san.to_move(&position).ok())
        .unwrap_or_else(|| panic!("{san} after {moves:?}"))
}

#[test]
fn the_live_page_shows_the_engine_s_move_its_score_and_that_it_was_carried_out_and_a_resignation() {
    use std::time::Duration;
    // White plays e4 and Nf3 from the script; Stockfish's replies are carried out as shown.
    let mut engine = Engine::start(EngineConfig::default());
    let _ = engine.next_event();
    let mut moves = vec![then(&[], "e4")];
    moves.push(engine.best(&moves, SearchLimits::Depth(4)));
    moves.push(then(&moves, "Nf3"));
    moves.push(engine.best(&moves, SearchLimits::Depth(4)));
    drop(engine);
    let played = sans(&moves);
    // The page writes them as `--notation ru-long` says (the library's notation, worked out
    // here; the page's script writes its own).
    let notation = touchmove::output::notation::Notation::RuLong;
    let shown: Vec<String> = played
        .iter()
        .zip(&moves)
        .map(|(san, &m)| notation.write(san, m))
        .collect();
    let dir = std::env::temp_dir().join(format!("touchmove-play-page-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let script = dir.join("game.pgn");
    let movetext = format!("1. {} {} 2. {}", played[0], played[1], played[2]);
    std::fs::write(&script, format!("[Event \"play\"]\n\n{movetext} *\n")).expect("written");
    let board = emulate_with(
        "dgt",
        &[
            "--pgn",
            script.to_str().expect("a path"),
            "--follow",
            "black",
            "--speed",
            "5",
            "--grace-ms",
            "120000",
        ],
        Stdio::piped(),
    );
    let recording = dir.join("game.log");
    let mut play = common::bin()
        .args(["play", "--engine", &stockfish(), "--depth", "4"])
        .args(["--port", &board.port, "--json", "--listen", "127.0.0.1:0"])
        .args(["--notation", "ru-long"])
        .args(common::SHORT_WINDOWS)
        .args(["--record", recording.to_str().expect("a path")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("play starts");
    // With --json the page's address is said on standard error.
    let said = common::child::lines_of(play.stderr.take().expect("stderr"));
    let address = common::child::page_address(&said);
    let events = common::child::lines_of(play.stdout.take().expect("stdout"));
    let browser = common::browser::Browser::start(1280, 800);
    browser.open(&address);
    let within = Duration::from_secs(60);
    let list = browser.text_when("#moves", within, |text| {
        text.split_whitespace().count() == played.len()
    });
    assert_eq!(list.split_whitespace().collect::<Vec<_>>(), shown);
    let note = browser.text_when("#engine-note", within, |text| text == "played");
    assert_eq!(note, "played");
    let shown_move = browser.text_when("#engine-move", within, |_| true);
    let shown_score = browser.text_when("#engine-score", within, |_| true);
    let black = browser.text_when("#black-name", within, |text| text.contains("Stockfish"));
    assert!(black.contains("(depth 4)"), "{black}");
    if let Ok(dir) = std::env::var("TOUCHMOVE_SCREENSHOTS") {
        browser.screenshot(&std::path::Path::new(&dir).join("play.png"));
    }
    // The human resigns at the keyboard: White loses, on the page too.
    {
        use std::io::Write;
        let mut keys = play.stdin.take().expect("stdin");
        writeln!(keys, "resign").expect("typed");
    }
    let result = browser.text_when("#result", within, |text| !text.is_empty());
    assert_eq!(result, "0-1 · resignation");
    if let Ok(dir) = std::env::var("TOUCHMOVE_SCREENSHOTS") {
        browser.screenshot(&std::path::Path::new(&dir).join("play-resigned.png"));
    }
    drop(browser);
    let _ = Command::new("kill")
        .args(["-INT", &play.id().to_string()])
        .status();
    let status = play.wait().expect("play ends");
    assert!(status.success());
    drop(board);
    // The page showed the last engine event: its move and its score.
    let events: Vec<Value> = events
        .iter()
        .map(|line| serde_json::from_str::<Value>(&line).expect("JSON"))
        .collect();
    let engine_events: Vec<&Value> = events.iter().filter(|e| e["kind"] == "engine").collect();
    let last = engine_events.last().expect("engine events");
    assert_eq!(last["san"], played[3].as_str());
    assert_eq!(shown_move, shown[3]);
    assert_eq!(shown_score, score_text(last));
    let ended = events
        .iter()
        .find(|e| e["kind"] == "result")
        .expect("a result");
    assert_eq!(
        (&ended["result"], &ended["reason"], &ended["rule"]),
        (&"0-1".into(), &"resignation".into(), &"5.1.2".into())
    );
    // The resignation is in the recording: the replay ends the game so too.
    let decided: Vec<&Value> = events.iter().filter(|e| !common::live_only(e)).collect();
    let replayed = replay_json(&recording);
    assert_eq!(replayed.iter().collect::<Vec<_>>(), decided);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_that_cannot_start_again_leaves_a_two_player_game_with_rulings_for_both_sides() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("touchmove-play-gone-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    // The engine: Stockfish, until the flag file exists; then a program that ends at once.
    let dead = dir.join("dead");
    let engine = dir.join("engine.sh");
    std::fs::write(
        &engine,
        format!(
            "#!/bin/sh\n[ -e '{}' ] && exit 1\nexec '{}'\n",
            dead.display(),
            stockfish()
        ),
    )
    .expect("written");
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    // White plays e4; long after the engine is gone, Black touches d7 and plays e5.
    let script = dir.join("hands.log");
    std::fs::write(
        &script,
        "touchmove-log 1\n0 lift e2 P\n300 place e4 P\n\
         20000 lift d7 p\n20500 place d7 p\n22000 lift e7 p\n22300 place e5 p\n",
    )
    .expect("written");
    let board = emulate_with(
        "dgt",
        &["--log", script.to_str().expect("a path")],
        Stdio::piped(),
    );
    let recording = dir.join("game.log");
    let mut play = common::bin()
        .args(["play", "--engine", engine.to_str().expect("a path")])
        .args(["--movetime", "5000", "--port", &board.port, "--json"])
        .args(["--give-up-after", "1"])
        .args(["--record", recording.to_str().expect("a path")])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("play starts");
    let stdout = play.stdout.take().expect("stdout");
    // The decisions, in order (the notices, the terminal's words, left out).
    let mut lines = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .map(|line| -> Value { serde_json::from_str(&line).expect("JSON") })
        .filter(|event| !common::live_only(event));
    let first = lines.next().expect("an event");
    assert_eq!(first["san"], "e4", "{first}");
    // The engine thinks (five seconds): it can no longer start, and is killed.
    std::fs::write(&dead, "").expect("the flag");
    let killed = Command::new("pkill")
        .args(["-KILL", "-P", &play.id().to_string(), "-x", "stockfish"])
        .status()
        .expect("pkill runs");
    assert!(killed.success(), "no engine to kill");
    let events: Vec<Value> = std::iter::once(first).chain(lines).collect();
    let output = play.wait_with_output().expect("play ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    common::assert_gave_up(&output);
    assert!(
        stderr.contains("after 3 restarts") && stderr.contains("two-player game"),
        "{stderr}"
    );
    // Black's move stands as made, and Black's touch is ruled on as any player's.
    assert_eq!(common::recorded_games(&events), vec![vec!["e4", "e5"]]);
    let rulings: Vec<(&str, &str, &str)> = events
        .iter()
        .filter(|e| e["kind"] == "violation")
        .map(|e| {
            (
                e["rule"].as_str().unwrap_or(""),
                e["color"].as_str().unwrap_or(""),
                e["square"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(rulings, [("4.3.1", "black", "d7")], "{events:?}");
    // And the recording says so: it replays to the same.
    let log = std::fs::read_to_string(&recording).expect("the recording");
    assert!(log.contains("\n#engine-gone "), "{log}");
    let decided: Vec<&Value> = events.iter().filter(|e| !common::live_only(e)).collect();
    let replayed = replay_json(&recording);
    assert_eq!(replayed.iter().collect::<Vec<_>>(), decided);
    drop(board);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_against_stockfish_killed_mid_game_and_resumed_goes_on_to_its_end() {
    // White's moves are legal whatever Stockfish replies (at depth 4 it never blocks a3 or
    // h3); the script's Black moves are not played (the hands follow the board).
    let whites = ["e4", "Nf3", "a3", "h3"];
    let dir = std::env::temp_dir().join(format!("touchmove-play-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let script = dir.join("game.pgn");
    std::fs::write(
        &script,
        "[Event \"play\"]\n\n1. e4 e5 2. Nf3 Nc6 3. a3 a6 4. h3 h6 *\n",
    )
    .expect("written");
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
        Stdio::piped(),
    );
    let record = dir.join("game.log");
    let play = |extra: &[&str]| {
        common::bin()
            .args(["play", "--engine", &stockfish(), "--depth", "4"])
            .args(["--port", &board.port, "--json", "--give-up-after", "1"])
            .args(common::SHORT_WINDOWS)
            .arg("--record")
            .arg(&record)
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("play runs")
    };
    // The first session is killed (SIGKILL) once four moves stand.
    let mut first = play(&[]);
    let moves_seen = common::child::await_lines(&mut first, r#""kind":"move""#, 4);
    assert_eq!(moves_seen, 4, "the first session decided too little");
    first.kill().expect("killed");
    first.wait().expect("reaped");
    // Resumed, the game goes on to its end: the engine answers where it stands, the hands
    // carry its moves out as the board shows them.
    let resumed = play(&["--resume"]).wait_with_output().expect("play runs");
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    common::assert_gave_up(&resumed);
    assert!(stderr.contains("resumed: "), "{stderr}");
    let events: Vec<Value> = common::json_lines(&resumed.stdout)
        .into_iter()
        .filter(|event| !common::live_only(event))
        .collect();
    // White's moves are the script's; Black's are the engine's, each announced and carried
    // out (a new engine process after the resume need not choose as the first would have).
    let games = common::recorded_games(&events);
    assert_eq!(games.len(), 1, "{stderr}");
    let game = &games[0];
    assert_eq!(game.len(), 2 * whites.len(), "{game:?}\n{stderr}");
    let played: Vec<&str> = game.iter().step_by(2).map(String::as_str).collect();
    assert_eq!(played, whites);
    let announced: Vec<&str> = events
        .iter()
        .filter(|e| e["kind"] == "engine")
        .filter_map(|e| e["san"].as_str())
        .collect();
    let blacks: Vec<&str> = game.iter().skip(1).step_by(2).map(String::as_str).collect();
    assert_eq!(blacks, announced, "{events:?}");
    assert!(
        events.iter().all(|e| e["kind"] != "execution"),
        "{events:?}"
    );
    // The recording, across both sessions, replays to what the resumed session printed.
    let replayed = replay_json(&record);
    assert_eq!(replayed, events);
    drop(board);
    let _ = std::fs::remove_dir_all(&dir);
}
