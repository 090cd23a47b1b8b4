//! `touchmove play --coach`: before the engine replies, a move of the player's that loses much
//! is said, and the engine waits until the player plays on (`go`). Stockfish plays Black on an
//! emulated DGT board set up with Black's Ka8 against White's Kb6 and Qc1: Kb8 is Black's only
//! move (a7 and b7 are the white king's), and White mates soon. The hands then play White's
//! 2. Qc8+??: the king takes the queen (c8 is next to b8 and nothing guards it), two kings, a
//! draw. From a mate to a draw is all of White's winning chances: a blunder.

use crate::common;

use std::io::Write;
use std::process::Stdio;

use serde_json::Value;

use common::child::JsonEvents;
use common::emulator::emulate_with;
use common::tools::stockfish;

const START: &str = "k7/8/1K6/8/8/8/8/2Q5 b - - 0 1";

#[test]
fn a_blunder_is_said_before_the_engine_replies_and_the_player_plays_on() {
    let dir = tempfile::tempdir().expect("a folder");
    let script = dir.path().join("game.pgn");
    std::fs::write(
        &script,
        format!("[Event \"coach\"]\n[SetUp \"1\"]\n[FEN \"{START}\"]\n\n1... Kb8 2. Qc8+ Kxc8 *\n"),
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
            "--grace-ms",
            "300000",
        ],
        Stdio::piped(),
    );
    let (pgn, log) = (dir.path().join("out.pgn"), dir.path().join("game.log"));
    let mut play = common::bin()
        .args(["play", "--engine", &stockfish(), "--depth", "6"])
        .args([
            "--color",
            "white",
            "--start",
            START,
            "--port",
            &board.port,
            "--json",
        ])
        .args(["--coach"])
        .args(common::SHORT_WINDOWS)
        .args(["--pgn", pgn.to_str().expect("a path")])
        .args(["--record", log.to_str().expect("a path")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("play starts");
    common::child::forward(common::child::lines_of(play.stderr.take().expect("stderr")));
    let mut events = JsonEvents::of(play.stdout.take().expect("stdout"));
    let coached = events.until(|e| e["kind"] == "coach");
    assert_eq!(coached["san"], "Qc8+", "{coached}");
    assert_eq!(coached["color"], "white", "{coached}");
    assert_eq!(coached["judgement"], "blunder", "{coached}");
    assert_eq!(coached["ply"], 2, "{coached}");
    // A queen up, White wins (the engine's evaluation at least +3: winning chances above
    // 0.5); two kings after the capture are a draw (near 0): more than 0.3 lost.
    let before = coached["before_cp"].as_i64().expect("before_cp");
    assert!(before >= 300, "{coached}");
    let after = coached["after_cp"].as_i64().expect("after_cp");
    assert!(after.abs() < 100, "{coached}");
    // The engine waits: its reply comes only once the player plays on.
    let mut keys = play.stdin.take().expect("stdin");
    writeln!(keys, "go").expect("typed");
    let replied = events.until(|e| e["kind"] == "engine");
    assert_eq!(replied["san"], "Kxc8", "{replied}");
    let kinds: Vec<String> = events
        .seen
        .iter()
        .filter_map(|e| e["kind"].as_str().map(str::to_owned))
        .collect();
    let coach_at = kinds.iter().position(|k| k == "coach");
    let engine_at = kinds.iter().rposition(|k| k == "engine");
    assert!(coach_at < engine_at, "{kinds:?}");
    events.until(|e| e["kind"] == "result");
    common::child::interrupt(&play);
    assert!(play.wait().expect("play ends").success());
    // The PGN says it; the log keeps it, and its replay says it again where it was said.
    let text = std::fs::read_to_string(&pgn).expect("the PGN");
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains(&format!(
            "{{coach: Qc8+ is a blunder ({:+.2} → ",
            before as f64 / 100.0
        )),
        "{text}"
    );
    let recorded = std::fs::read_to_string(&log).expect("the log");
    assert!(recorded.contains("#coach "), "{recorded}");
    let replayed = common::touchmove_ok(&["replay", "--json", log.to_str().expect("a path")]);
    let replayed = common::json_lines(replayed.as_bytes());
    let coach = |events: &[Value]| -> Vec<Value> {
        events
            .iter()
            .filter(|e| e["kind"] == "coach")
            .cloned()
            .collect()
    };
    assert_eq!(coach(&replayed), coach(&events.seen));
    drop(board);
}

#[test]
fn a_blunder_taken_back_is_never_answered_and_the_game_goes_on() {
    // The same position, the board's hands played from a sensor log at fixed times (each
    // Black move well after Stockfish, at depth 6, has chosen it): Kb8, 2. Qc8+?? (said by the
    // coach), the queen taken back to c1, 2. Qc7+ (protected by the king: no warning), Ka8,
    // 3. Qa7#.
    let dir = tempfile::tempdir().expect("a folder");
    let script = dir.path().join("hands.log");
    std::fs::write(
        &script,
        format!(
            "touchmove-log 1\n@start {START}\n3000 lift a8 k\n3300 place b8 k\n\
             5000 lift c1 Q\n5300 place c8 Q\n9000 lift c8 Q\n9300 place c1 Q\n\
             11000 lift c1 Q\n11300 place c7 Q\n14000 lift b8 k\n14300 place a8 k\n\
             16000 lift c7 Q\n16300 place a7 Q\n"
        ),
    )
    .expect("written");
    let board = emulate_with(
        "dgt",
        &[
            "--log",
            script.to_str().expect("a path"),
            "--grace-ms",
            "300000",
        ],
        Stdio::piped(),
    );
    let log = dir.path().join("game.log");
    let mut play = common::bin()
        .args(["play", "--engine", &stockfish(), "--depth", "6"])
        .args([
            "--color",
            "white",
            "--start",
            START,
            "--port",
            &board.port,
            "--json",
        ])
        .args(["--coach", "blunder"])
        .args(["--record", log.to_str().expect("a path")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("play starts");
    common::child::forward(common::child::lines_of(play.stderr.take().expect("stderr")));
    let mut events = JsonEvents::of(play.stdout.take().expect("stdout"));
    events.until(|e| e["kind"] == "result");
    common::child::interrupt(&play);
    assert!(play.wait().expect("play ends").success());
    let said: Vec<String> = events
        .seen
        .iter()
        .filter_map(|e| match e["kind"].as_str() {
            Some("move" | "engine" | "coach") => {
                Some(format!("{} {}", e["kind"].as_str()?, e["san"].as_str()?))
            }
            Some("takeback") => Some(format!("takeback {}", e["ply"])),
            Some("result") => e["result"].as_str().map(str::to_owned),
            _ => None,
        })
        .collect();
    assert_eq!(
        said,
        [
            "engine Kb8",
            "move Kb8",
            "move Qc8+",
            "coach Qc8+",
            "takeback 2",
            "move Qc7+",
            "engine Ka8",
            "move Ka8",
            "move Qa7#",
            "1-0"
        ],
        "{:?}",
        events.seen
    );
    drop(board);
}
