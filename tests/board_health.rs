//! A board is said to be there only while it answers, and is who it says it is (issue 43):
//! an emulated DGT board whose process is stopped for 20 s with its port open is `lost` on
//! `/api/boards`, `NOTRESPONDING` in LiveChess's `eboards`, and its feed silent, within the
//! protocol's bound and for as long as it is frozen, its reconnections said once; it is back
//! when it answers again.

use crate::common;

use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;

use common::emulator::emulate_board;
use common::http::get;
use common::serving::{COVERAGE_GAME, Serve, serve_command, start};

/// Sends `signal` to the process `pid`.
fn signal(pid: u32, signal: libc::c_int) {
    let pid = libc::pid_t::try_from(pid).expect("a pid");
    // SAFETY: kill has no memory effects; the pid is our own child's, not yet reaped.
    let sent = unsafe { libc::kill(pid, signal) };
    assert_eq!(sent, 0, "cannot signal process {pid}");
}

/// Board `north`'s summary, and its eboard in LiveChess's list.
fn north(served: &Serve, livechess: &str) -> (Value, Value) {
    let (_, body) = get(&served.address, "/api/boards");
    let boards: Vec<Value> = serde_json::from_str(&body).expect("JSON");
    let summary = boards.into_iter().next().expect("north");
    let (_, body) = get(livechess, "/api/v1.0/eboards");
    let eboards: Vec<Value> = serde_json::from_str(&body).expect("JSON");
    let eboard = eboards.into_iter().next().expect("north's eboard");
    (summary, eboard)
}

/// Polls `north` every 100 ms until `done` holds (or `within` passes): what it said last, and
/// how long it took.
fn north_when(
    served: &Serve,
    livechess: &str,
    within: Duration,
    done: impl Fn(&Value, &Value) -> bool,
) -> ((Value, Value), Duration) {
    let started = Instant::now();
    loop {
        let said = north(served, livechess);
        if done(&said.0, &said.1) || started.elapsed() > within {
            return (said, started.elapsed());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_board_frozen_with_its_port_open_is_lost_everywhere_until_it_answers_again() {
    let board = emulate_board("dgt", &COVERAGE_GAME);
    let dir = tempfile::tempdir().expect("a folder");
    let stderr = dir.path().join("serve.stderr");
    let spec = format!("north={}", board.port);
    let mut command = serve_command(&["--board", &spec, "--livechess", "127.0.0.1:0"]);
    command.stderr(Stdio::from(std::fs::File::create(&stderr).expect("a file")));
    let served = start(command);
    let livechess = served.livechess_address();
    let ((summary, eboard), _) =
        north_when(&served, &livechess, Duration::from_secs(30), |s, _| {
            s["link"] == "connected" && s["ply"].as_u64() >= Some(2)
        });
    assert_eq!(summary["link"], "connected", "{summary}");
    assert_eq!(eboard["state"], "ACTIVE", "{eboard}");
    let said_before = std::fs::read_to_string(&stderr).expect("its errors");

    signal(board.child.id(), libc::SIGSTOP);
    // Lost within the DGT protocol's bound: a check every second, answered within 500 ms.
    let ((summary, eboard), took) =
        north_when(&served, &livechess, Duration::from_secs(10), |s, e| {
            s["link"] == "lost" && e["state"] == "NOTRESPONDING"
        });
    assert_eq!(summary["link"], "lost", "{summary}");
    assert_eq!(eboard["state"], "NOTRESPONDING", "{eboard}");
    assert!(took <= Duration::from_millis(2_500), "lost after {took:?}");
    // Lost for as long as it is frozen (its port reopened again and again meanwhile).
    let frozen = Instant::now();
    while frozen.elapsed() < Duration::from_secs(20) {
        let (summary, eboard) = north(&served, &livechess);
        assert_eq!(summary["link"], "lost", "{summary}");
        assert_eq!(eboard["state"], "NOTRESPONDING", "{eboard}");
        std::thread::sleep(Duration::from_millis(250));
    }
    // Its reconnections said once, not every 2 s.
    let said = std::fs::read_to_string(&stderr).expect("its errors");
    let during = said.strip_prefix(&said_before).unwrap_or(&said);
    let reconnections = during
        .lines()
        .filter(|line| line.contains("connected to") || line.contains("the board is gone"))
        .count();
    assert!(reconnections <= 2, "{during}");

    signal(board.child.id(), libc::SIGCONT);
    let ((summary, eboard), took) =
        north_when(&served, &livechess, Duration::from_secs(15), |s, e| {
            s["link"] == "connected" && e["state"] == "ACTIVE"
        });
    assert_eq!(summary["link"], "connected", "{summary}");
    assert_eq!(eboard["state"], "ACTIVE", "{eboard}");
    assert!(took <= Duration::from_secs(5), "back after {took:?}");
    drop(served);
    drop(board);
}

/// An emulated DGT board playing the coverage game whose serial number is `serial`.
fn board_with_serial(serial: &str) -> common::emulator::Emulator {
    let mut args = COVERAGE_GAME.to_vec();
    args.extend(["--serial", serial]);
    emulate_board("dgt", &args)
}

/// Points the link `link` at `target`, replacing what it pointed at.
fn repoint(link: &std::path::Path, target: &str) {
    let _ = std::fs::remove_file(link);
    std::os::unix::fs::symlink(target, link).expect("a link");
}

/// Every board's summary, once `done` holds for them (or 30 s pass).
fn boards_when(served: &Serve, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    let started = Instant::now();
    loop {
        let (_, body) = get(&served.address, "/api/boards");
        let boards: Vec<Value> = serde_json::from_str(&body).expect("JSON");
        if done(&boards) || started.elapsed() > Duration::from_secs(30) {
            return boards;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn another_board_on_a_port_found_by_probing_is_a_board_of_its_own_not_the_one_that_left() {
    let first = board_with_serial("11111");
    let second = board_with_serial("22222");
    let scan = tempfile::tempdir().expect("a folder");
    let link = scan.path().join("board-a");
    repoint(&link, &first.port);
    let dir = scan.path().display().to_string();
    let served = start(serve_command(&["--scan-dir", &dir]));
    let found = boards_when(&served, |boards| {
        boards
            .first()
            .is_some_and(|b| b["serial"] == "11111" && b["ply"].as_u64() >= Some(1))
    });
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["serial"], "11111", "{found:?}");
    // The first board goes; another takes its port's name.
    drop(first);
    repoint(&link, &second.port);
    let boards = boards_when(&served, |boards| {
        boards.len() == 2 && boards[1]["serial"] == "22222"
    });
    assert_eq!(boards.len(), 2, "{boards:?}");
    assert_eq!(boards[0]["name"], "1");
    assert_eq!(
        boards[0]["serial"], "11111",
        "board 1 is still the board that left"
    );
    assert_ne!(boards[0]["link"], "connected", "{boards:?}");
    assert_eq!(boards[1]["name"], "2");
    assert_eq!(boards[1]["serial"], "22222");
    drop(served);
    drop(second);
}
