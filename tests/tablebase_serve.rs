//! `serve --syzygy DIR`: the console shows what the tables say of a board's position beside
//! its result buttons, to the operator only; a finished game's report is judged by them.
//! A DGT board emulated from a set-up KRvK position plays a forced mate: Black (Kh8, to move
//! against Kg6 and Ra1) has Kg8 alone, then Ra8 mates.

use std::time::Duration;

use serde_json::Value;

use crate::common::browser::Browser;
use crate::common::emulator::emulate_board;
use crate::common::http::{request, sse_until};
use crate::common::serving::{serve_command, start};
use crate::common::watching::replay_with;

const TOKEN: &str = "tables-s3cret-0123456789";
const START: &str = "7k/8/6K1/8/8/8/8/R7 b - - 0 1";

/// `/api/boards` as the operator (with the token) or the public sees it: board `north`.
fn board(address: &str, operator: bool) -> Value {
    let mut head = format!("Host: {address}\r\n");
    if operator {
        head.push_str(&format!("Authorization: Bearer {TOKEN}\r\n"));
    }
    let (status, body) = request(address, "GET /api/boards", &head);
    assert_eq!(status, 200, "{body}");
    let boards: Vec<Value> = serde_json::from_str(&body).expect("JSON");
    boards
        .into_iter()
        .find(|b| b["name"] == "north")
        .expect("board north")
}

#[test]
fn the_console_shows_the_tables_result_to_the_operator_and_the_report_is_judged_by_them() {
    let dir = tempfile::tempdir().expect("a folder");
    let log = dir.path().join("krvk.log");
    // Each move waits 20 s for the page to be looked at (the emulator plays the log's times;
    // a DGT board names its pieces).
    std::fs::write(
        &log,
        format!(
            "touchmove-log 1\n@start {START}\n20000 lift h8 k\n20300 place g8 k\n\
             40000 lift a1 R\n40300 place a8 R\n"
        ),
    )
    .expect("written");
    let log_arg = log.to_str().expect("UTF-8");
    let emulator = emulate_board("dgt", &["--log", log_arg, "--grace-ms", "600000"]);
    let board_arg = format!("north={}", emulator.port);
    let tables = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/syzygy");
    let record = tempfile::tempdir().expect("a folder for the records");
    let record_arg = record.path().to_str().expect("UTF-8");
    let engine = crate::common::tools::stockfish();
    let mut command = serve_command(&[
        "--board",
        &board_arg,
        "--start",
        START,
        "--console",
        "--syzygy",
        tables,
        "--analyse",
        &engine,
        "--analyse-ms",
        "300",
        "--record-dir",
        record_arg,
    ]);
    command.env("TOUCHMOVE_TOKEN", TOKEN);
    let served = start(command);
    let address = served.address.as_str();
    // Black to move is mated two plies on: a loss at DTZ -2 (runtime::tablebase's test).
    let seen = board(address, true);
    assert_eq!(seen["tablebase"]["wdl"], "loss", "{seen}");
    assert_eq!(seen["tablebase"]["dtz"], -2, "{seen}");
    assert_eq!(seen["tablebase"]["best"], "Kg8", "{seen}");
    assert!(
        board(address, false).get("tablebase").is_none(),
        "the public is not told"
    );
    // The analysis of the start says the tables' result with the engine's.
    let analysed = sse_until(
        address,
        "/api/boards/north/events",
        Duration::from_secs(60),
        |event| event["kind"] == "analysis" && event["ply"] == 0,
    );
    let analysis = analysed.last().cloned().unwrap_or_default();
    assert_eq!(
        analysis["tablebase"],
        serde_json::json!({"wdl": "loss", "dtz": -2, "best": "Kg8", "turn": "black"}),
        "{analysis}"
    );
    let within = Duration::from_secs(30);
    let browser = Browser::start(1600, 900);
    browser.open(&format!("http://{address}/console"));
    browser.type_into("#token", TOKEN);
    browser.click("#sign-in");
    let said = browser.text_when(
        "#boards tr[data-board='north'] .tablebase",
        within,
        |text| !text.is_empty(),
    );
    assert_eq!(said, "tablebase: White wins (DTZ 2)");
    if let Ok(dir) = std::env::var("TOUCHMOVE_SCREENSHOTS") {
        browser.screenshot(&std::path::Path::new(&dir).join("console-tablebase.png"));
    }
    // Kg8: White mates in one ply.
    sse_until(
        address,
        "/api/boards/north/events",
        Duration::from_secs(60),
        |event| event["kind"] == "move" && event["san"] == "Kg8",
    );
    let said = browser.text_when(
        "#boards tr[data-board='north'] .tablebase",
        within,
        |text| text.contains("DTZ 1"),
    );
    assert_eq!(said, "tablebase: White wins (DTZ 1)");
    // Ra8#: the game's report, judged by the tables.
    let live = sse_until(
        address,
        "/api/boards/north/events",
        Duration::from_secs(60),
        |event| event["kind"] == "result",
    );
    // The recording replays to the analyses said live, the tables' words in them.
    let analyses = |events: &[Value]| -> Vec<Value> {
        events
            .iter()
            .filter(|e| e["kind"] == "analysis")
            .cloned()
            .collect()
    };
    let replayed = replay_with(&record.path().join("north-game1.log"), &[]);
    assert!(!analyses(&live).is_empty());
    assert_eq!(analyses(&replayed), analyses(&live));
    let head = format!("Host: {address}\r\nAuthorization: Bearer {TOKEN}\r\n");
    let (status, body) = request(address, "GET /api/boards/north/report", &head);
    assert_eq!(status, 200, "{body}");
    let report: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(
        report["engine"], "the engine analysing beside the board and the Syzygy tables",
        "{report}"
    );
    assert_eq!(report["evals"][1]["table"]["dtz"], 1, "{report}");
    let pgn = report["pgn"].as_str().unwrap_or_default();
    let words = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    // After Kg8 (its clock's comment first), the tables' word; after the mate, the board's.
    let (_, after_kg8) = words.split_once("1... Kg8 ").expect("Kg8 in the PGN");
    let (kg8, mate) = after_kg8.split_once("2. Ra8#").expect("Ra8# in the PGN");
    assert!(
        kg8.contains("{tablebase: White wins (DTZ 1); in hand 0.3 s}"),
        "{pgn}"
    );
    assert!(!mate.contains("tablebase"), "{pgn}");
    drop(served);
    drop(emulator);
}
