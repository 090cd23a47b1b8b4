//! `touchmove play`'s hints, with real parts: Stockfish plays White on an emulated DGT board
//! whose hands carry out its first move as the clock shows it and then leave Black (the
//! player) to think; the player asks for a hint at the keyboard and on the live page (headless
//! Chromium), then resigns. A hint is shown (the clock's display, the page, the stream) and
//! changes nothing in the game.

use crate::common;

use std::io::Write;
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};

use common::emulator::emulate_with;
use common::tools::stockfish;

#[test]
fn a_hint_typed_or_asked_on_the_page_is_shown_and_changes_nothing_in_the_record() {
    let dir = std::env::temp_dir().join(format!("touchmove-play-hint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    // The hands follow White (the engine) and have no move of their own to play: after White's
    // first move the board waits for Black.
    let script = dir.join("game.pgn");
    std::fs::write(&script, "[Event \"hint\"]\n\n*\n").expect("written");
    let emulator_log = dir.join("emulator.log");
    let board = emulate_with(
        "dgt",
        &[
            "-v",
            "--pgn",
            script.to_str().expect("a path"),
            "--follow",
            "white",
            "--speed",
            "5",
            "--grace-ms",
            "300000",
        ],
        Stdio::from(std::fs::File::create(&emulator_log).expect("a log")),
    );
    let (pgn, log) = (dir.join("out.pgn"), dir.join("game.log"));
    let mut play = common::bin()
        .args(["play", "--engine", &stockfish(), "--depth", "6"])
        .args(["--color", "black", "--port", &board.port, "--json"])
        .args(["--listen", "127.0.0.1:0"])
        .args(common::SHORT_WINDOWS)
        .args(["--pgn", pgn.to_str().expect("a path")])
        .args(["--record", log.to_str().expect("a path")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("play starts");
    let said = common::child::lines_of(play.stderr.take().expect("stderr"));
    let address = common::child::page_address(&said);
    std::thread::spawn(move || {
        while let Ok(line) = said.recv() {
            eprintln!("{line}");
        }
    });
    let lines = common::child::lines_of(play.stdout.take().expect("stdout"));
    let mut events: Vec<Value> = Vec::new();
    let until = |events: &mut Vec<Value>, done: &dyn Fn(&Value) -> bool| -> Value {
        loop {
            let line = lines
                .recv_timeout(Duration::from_secs(120))
                .unwrap_or_else(|_| panic!("play went quiet; so far: {events:?}"));
            let event: Value = serde_json::from_str(&line).expect("JSON");
            events.push(event.clone());
            if done(&event) {
                return event;
            }
        }
    };
    // The engine's first move, carried out: Black (the player) to move.
    until(&mut events, &|e| e["kind"] == "move" && e["ply"] == 1);
    let mut keys = play.stdin.take().expect("stdin");
    writeln!(keys, "hint").expect("typed");
    let typed = until(&mut events, &|e| e["kind"] == "hint");
    // The page: its hint button asks again; the hint is shown as an engine's move is, marked.
    let browser = common::browser::Browser::start(1280, 800);
    browser.open(&address);
    let within = Duration::from_secs(60);
    browser.text_when("#hints", within, |_| true);
    browser.click("#ask-hint");
    let clicked = until(&mut events, &|e| e["kind"] == "hint");
    // (Shown in capitals by the page's style.)
    let label = browser.text_when("#engine-label", within, |text| {
        text.eq_ignore_ascii_case("hint")
    });
    let shown = browser.text_when("#engine-move", within, |text| !text.is_empty());
    if let Ok(dir) = std::env::var("TOUCHMOVE_SCREENSHOTS") {
        browser.screenshot(&std::path::Path::new(&dir).join("play-hint.png"));
    }
    drop(browser);
    writeln!(keys, "resign").expect("typed");
    until(&mut events, &|e| e["kind"] == "result");
    common::child::interrupt(&play);
    assert!(play.wait().expect("play ends").success());
    while let Ok(line) = lines.recv_timeout(Duration::from_secs(60)) {
        events.push(serde_json::from_str(&line).expect("JSON"));
    }
    drop(board);

    // Each hint is a legal Black move after White's first, said with its score from Black's
    // side; the page showed the second, marked as a hint.
    let first = events
        .iter()
        .find(|e| e["kind"] == "move" && e["ply"] == 1)
        .expect("White's move");
    let mut position = Chess::default();
    let white: UciMove = first["uci"].as_str().expect("uci").parse().expect("UCI");
    position.play_unchecked(white.to_move(&position).expect("legal"));
    for hint in [&typed, &clicked] {
        assert_eq!(hint["color"], "black", "{hint}");
        let uci: UciMove = hint["uci"].as_str().expect("uci").parse().expect("UCI");
        assert!(uci.to_move(&position).is_ok(), "{hint}");
        assert!(hint["score_cp"].is_i64() || hint["mate"].is_i64(), "{hint}");
    }
    assert!(label.eq_ignore_ascii_case("hint"), "{label}");
    assert_eq!(shown, clicked["san"].as_str().expect("san"));
    // The clock's display showed it, marked: `H` and the move.
    let emulated = std::fs::read_to_string(&emulator_log).expect("the emulator's log");
    let text: String = format!("H {}", typed["san"].as_str().expect("san"))
        .chars()
        .take(8)
        .collect();
    assert!(
        emulated.contains(&format!("the clock shows `{text}`")),
        "{emulated}"
    );
    // Nothing changed in the game: one move, then Black's resignation; no takeback, no
    // ruling. The record says the hints in comments, the log keeps them, and the recording
    // replays to the session.
    let kinds: Vec<&str> = events.iter().filter_map(|e| e["kind"].as_str()).collect();
    let moves = kinds.iter().filter(|kind| **kind == "move").count();
    assert_eq!(moves, 1, "{kinds:?}");
    for kind in ["takeback", "violation", "illegal", "execution"] {
        assert!(!kinds.contains(&kind), "{kinds:?}");
    }
    let result = events
        .iter()
        .find(|e| e["kind"] == "result")
        .expect("a result");
    assert_eq!(result["result"], "1-0");
    let text = std::fs::read_to_string(&pgn).expect("the PGN");
    let games = common::python_chess_games(std::slice::from_ref(&text));
    assert_eq!(
        games,
        vec![vec![vec![first["san"].as_str().expect("san").to_owned()]]]
    );
    let comment = format!(
        "hint: {}, the engine's best move for black, shown at the player's request",
        typed["san"].as_str().expect("san")
    );
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains(&comment), "{text}");
    let recorded = std::fs::read_to_string(&log).expect("the log");
    assert_eq!(
        recorded.lines().filter(|l| l.starts_with("#hint ")).count(),
        2,
        "{recorded}"
    );
    let replayed = common::touchmove_ok(&["replay", "--json", log.to_str().expect("a path")]);
    let replayed = common::json_lines(replayed.as_bytes());
    let decided: Vec<&Value> = events
        .iter()
        .filter(|e| !crate::common::live_only(e))
        .collect();
    assert_eq!(replayed.iter().collect::<Vec<_>>(), decided);
    let _ = std::fs::remove_dir_all(&dir);
}
