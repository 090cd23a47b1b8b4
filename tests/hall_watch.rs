//! `touchmove emulate hall` and `touchmove watch --protocol hall` as real processes over a real
//! pseudo-terminal: the live decisions equal the replay of what `watch` recorded, the record is
//! the game played, with noise on the line and with dropped frames (the host notices the gap
//! and recovers through a snapshot without losing or inventing a move).

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;
use touchmove::fidelity::san_list;
use touchmove::pgn_games::read_games;

use common::emulator::emulate_board;

/// The game is played twenty times faster than the simulated hands, so the interpreter's
/// windows are scaled the same way (250 ms slide window → 12 ms, 50 ms bounce → 2 ms).
const SCALED_WINDOWS: [&str; 4] = ["--slide-ms", "12", "--bounce-ms", "2"];

fn replay(log: &Path) -> Vec<Value> {
    let output = Command::new(env!("CARGO_BIN_EXE_touchmove"))
        .args(["replay", "--json"])
        .args(SCALED_WINDOWS)
        .arg(log)
        .output()
        .expect("replay runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

fn source_game(pgn: &str, number: usize) -> Vec<String> {
    let path = common::fixture_dir().join(pgn);
    let game = read_games(std::fs::File::open(path).expect("the PGN"))
        .filter_map(Result::ok)
        .find(|g| g.number == number)
        .expect("the game");
    san_list(&game.start, &game.moves)
}

/// Plays the coverage game on an emulated Hall board with `extra` options and checks both
/// equalities; returns the sensor log `watch` recorded.
fn check(name: &str, extra: &[&str]) -> String {
    let mut args = vec!["--pgn", "fixtures/games/coverage.pgn", "--speed", "20"];
    args.extend_from_slice(extra);
    let emulator = emulate_board("hall", &args);
    let dir = std::env::temp_dir().join(format!("touchmove-hall-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let record = dir.join(format!("{name}.log"));
    let output = Command::new(env!("CARGO_BIN_EXE_touchmove"))
        .args([
            "watch",
            "--protocol",
            "hall",
            "--json",
            "--give-up-after",
            "1",
            "--port",
            &emulator.port,
        ])
        .arg("--record")
        .arg(&record)
        .args(SCALED_WINDOWS)
        .stdin(Stdio::null())
        .output()
        .expect("watch runs");
    assert!(
        output.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let live: Vec<Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    assert_eq!(
        live,
        replay(&record),
        "{name}: live decisions differ from the replay of the recording"
    );
    assert_eq!(
        common::recorded_games(&live),
        vec![source_game("games/coverage.pgn", 1)],
        "{name}: not the game played"
    );
    std::fs::read_to_string(&record).expect("the recording")
}

#[test]
fn a_game_on_a_hall_board() {
    check("clean", &[]);
}

#[test]
fn noise_on_the_line() {
    check("noise", &["--noise", "3", "--seed", "5"]);
}

#[test]
fn dropped_frames_are_recovered_through_a_snapshot() {
    let recorded = check("dropped", &["--drop-every", "7"]);
    // The snapshot the game started from, then one for each gap the host noticed.
    let snapshots = recorded
        .lines()
        .filter(|line| line.contains(" snapshot "))
        .count();
    assert!(
        snapshots >= 3,
        "no resynchronisation after the dropped frames:\n{recorded}"
    );
}

#[test]
fn messy_hands_with_sensor_bounce() {
    check("messy", &["--messy", "--seed", "3"]);
}
