//! `touchmove play --syzygy DIR`: a hint in a position the tables hold is their move, with their
//! result. Stockfish plays Black (Kh8) on an emulated DGT board set up with White's Kg6 and Ra1
//! (the player's); the player asks for a hint at the keyboard, then resigns. Ra8 is the only
//! mate in one: the tables' move, a win one ply away (runtime::tablebase's test).

use crate::common;

use std::io::Write;
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;

use common::child::JsonEvents;
use common::emulator::emulate_with;
use common::tools::stockfish;

const START: &str = "7k/8/6K1/8/8/8/8/R7 w - - 0 1";

#[test]
fn a_hint_in_a_position_the_tables_hold_is_their_move_with_their_result() {
    let dir = tempfile::tempdir().expect("a folder");
    let script = dir.path().join("game.pgn");
    std::fs::write(
        &script,
        format!("[Event \"tables\"]\n[SetUp \"1\"]\n[FEN \"{START}\"]\n\n*\n"),
    )
    .expect("written");
    let board = emulate_with(
        "dgt",
        &[
            "--pgn",
            script.to_str().expect("a path"),
            "--follow",
            "black",
            "--grace-ms",
            "300000",
        ],
        Stdio::piped(),
    );
    let log = dir.path().join("game.log");
    let tables = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/syzygy");
    let mut play = common::bin()
        .args(["play", "--engine", &stockfish(), "--depth", "4"])
        .args([
            "--color",
            "white",
            "--start",
            START,
            "--port",
            &board.port,
            "--json",
        ])
        .args(["--syzygy", tables, "--listen", "127.0.0.1:0"])
        .args(["--record", log.to_str().expect("a path")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("play starts");
    let said = common::child::lines_of(play.stderr.take().expect("stderr"));
    let page = common::child::page_address(&said);
    common::child::forward(said);
    let address = page
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap_or_default()
        .to_owned();
    // The board shows the set-up position: the game is on, White (the player) to move.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let (_, body) = common::http::get(&address, "/api/boards");
        let boards: Vec<Value> = serde_json::from_str(&body).unwrap_or_default();
        if boards.first().is_some_and(|b| b["started"] == true) {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the game did not start: {body}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let mut keys = play.stdin.take().expect("stdin");
    writeln!(keys, "hint").expect("typed");
    let mut events = JsonEvents::of(play.stdout.take().expect("stdout"));
    let hint = events.until(|e| e["kind"] == "hint");
    assert_eq!(hint["san"], "Ra8#", "{hint}");
    assert_eq!(
        hint["tablebase"],
        serde_json::json!({"wdl": "win", "dtz": 1, "best": "Ra8#", "turn": "white"}),
        "{hint}"
    );
    writeln!(keys, "resign").expect("typed");
    events.until(|e| e["kind"] == "result");
    common::child::interrupt(&play);
    assert!(play.wait().expect("play ends").success());
    events.rest();
    // The log keeps the tables' hint: its replay gives it again, the same.
    let recorded = std::fs::read_to_string(&log).expect("the log");
    assert!(
        recorded.contains("#hint ") && recorded.contains(" tb white win 1 Ra8#"),
        "{recorded}"
    );
    let replayed = common::touchmove_ok(&["replay", "--json", log.to_str().expect("a path")]);
    let replayed = common::json_lines(replayed.as_bytes());
    let hints = |events: &[Value]| -> Vec<Value> {
        events
            .iter()
            .filter(|e| e["kind"] == "hint")
            .cloned()
            .collect()
    };
    assert_eq!(hints(&replayed), hints(&events.seen));
    drop(board);
}
