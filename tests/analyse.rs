//! `--analyse`: Stockfish analyses a game between two people as it goes. A demo board of
//! `serve` (simulated hands playing a real game on an emulated DGT board, both sides) is
//! analysed; its stream says `analysis` events, the board page in headless Chromium shows the
//! evaluation as a bar and the line, and the recording replays to the same events.

use crate::common;

use std::time::Duration;

use serde_json::Value;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};

use common::http::sse_until;
use common::serving::{FAST_DEMO, serve};
use common::tools::stockfish;
use common::watching::replay_with;

/// The position after `plies` moves (UCI) from the start.
fn after(moves: &[String], plies: usize) -> Chess {
    let mut position = Chess::default();
    for uci in moves.iter().take(plies) {
        let m = uci
            .parse::<UciMove>()
            .ok()
            .and_then(|m| m.to_move(&position).ok())
            .expect("a legal move");
        position.play_unchecked(m);
    }
    position
}

#[test]
fn a_two_player_game_is_analysed_on_the_page_and_its_recording_says_the_analysis_again() {
    let record = tempfile::tempdir().expect("a directory for the records");
    let record_arg = record.path().display().to_string();
    let engine = stockfish();
    let mut args = FAST_DEMO.to_vec();
    args.extend([
        "--record-dir",
        record_arg.as_str(),
        "--analyse",
        engine.as_str(),
        "--analyse-ms",
        "300",
    ]);
    let mut served = serve(&args);
    let browser = common::browser::Browser::start(1280, 800);
    browser.open(&format!("http://{}/board/1", served.address));
    let events = sse_until(
        &served.address,
        "/api/boards/1/events",
        Duration::from_secs(150),
        |event| event["kind"] == "move" && event["ply"] == 12,
    );
    // The page: a score, a bar of White's share, a line.
    let within = Duration::from_secs(60);
    let score = browser.text_when("#analysis-score", within, |text| !text.is_empty());
    let line = browser.text_when("#analysis-line", within, |text| !text.is_empty());
    let bar = browser.eval("return document.getElementById('eval-white').style.width");
    if let Ok(dir) = std::env::var("TOUCHMOVE_SCREENSHOTS") {
        browser.screenshot(&std::path::Path::new(&dir).join("analyse.png"));
    }
    drop(browser);
    assert!(
        score.starts_with('+')
            || score.starts_with('-')
            || score.starts_with('#')
            || score == "0.00",
        "{score}"
    );
    assert!(line.starts_with(|c: char| c.is_ascii_digit()), "{line}");
    let width: f64 = bar
        .as_str()
        .and_then(|w| w.strip_suffix('%'))
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("the bar's width: {bar}"));
    assert!((0.0..=100.0).contains(&width), "{width}");

    // The stream: analyses of the game's positions as it went, each line legal where it
    // starts, its score from White's side (a mate or centipawns).
    let moves: Vec<String> = events
        .iter()
        .filter(|e| e["kind"] == "move")
        .map(|e| e["uci"].as_str().expect("uci").to_owned())
        .collect();
    let analyses: Vec<&Value> = events.iter().filter(|e| e["kind"] == "analysis").collect();
    let mut plies: Vec<u64> = analyses.iter().filter_map(|a| a["ply"].as_u64()).collect();
    plies.dedup();
    assert!(plies.len() >= 6, "positions analysed: {plies:?}");
    let mut seen = 0;
    for event in &events {
        match event["kind"].as_str() {
            Some("move") => seen += 1,
            Some("analysis") => {
                let ply = usize::try_from(event["ply"].as_u64().expect("ply")).expect("usize");
                // Said for the game as it stands, never ahead of it.
                assert!(ply <= seen, "{event}");
                assert!(
                    event["score_cp"].is_i64() || event["mate"].is_i64(),
                    "{event}"
                );
                let mut position = after(&moves, ply);
                for san in event["pv"].as_array().expect("a line") {
                    let m = san
                        .as_str()
                        .and_then(|san| san.parse::<San>().ok())
                        .and_then(|san| san.to_move(&position).ok())
                        .unwrap_or_else(|| panic!("{san} not legal: {event}"));
                    position.play_unchecked(m);
                }
            }
            _ => {}
        }
    }

    // The recording says each analysis again where it was said. On a loaded machine the page
    // may open after the demo's first game: the stream then starts with the board's next game
    // (a `game` event), whose log begins after it.
    common::child::interrupt(&served.child);
    let _ = served.child.wait();
    let (number, from) = match events.first() {
        Some(first) if first["kind"] == "game" => (first["number"].as_u64().unwrap_or(1), 1),
        _ => (1, 0),
    };
    let replayed = replay_with(
        &record.path().join(format!("1-game{number}.log")),
        &common::SHORT_WINDOWS,
    );
    let streamed: Vec<Value> = events
        .iter()
        .skip(from)
        .filter(|event| !crate::common::live_only(event))
        .cloned()
        .collect();
    assert_eq!(replayed.get(..streamed.len()), Some(streamed.as_slice()));
}
