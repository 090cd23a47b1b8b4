//! Every board protocol in the registry, as real processes over a real pseudo-terminal: its
//! emulated board (`touchmove emulate NAME`) is found by `touchmove ports`, and a game played on
//! it and watched through `touchmove watch --protocol NAME` is the game played, live as in the
//! replay of the recording. A protocol added to the registry is checked here without a line of
//! this file changing (one reached over Bluetooth LE in `ble_watch.rs`, likewise).

use crate::common;

use common::emulator::emulate_board;
use common::watching::{replay_with, source_game, watch_board};

#[test]
fn every_protocol_s_emulated_board_plays_the_game_watched() {
    // Every protocol has its emulated board (`touchmove_simulation::emulators`' own test);
    // those reached through a serial port are emulated on a pseudo-terminal.
    for protocol in touchmove::registry::PROTOCOLS {
        if protocol.line.is_none() {
            continue;
        }
        let name = protocol.name;
        let args = ["--pgn", "fixtures/games/coverage.pgn", "--speed", "20"];
        let watched = watch_board(name, "registry", &args, &common::SCALED_WINDOWS);
        assert_eq!(
            watched.events,
            replay_with(&watched.record, &common::SCALED_WINDOWS),
            "{name}: live decisions differ from the replay of the recording"
        );
        assert_eq!(
            common::recorded_games(&watched.events),
            vec![source_game("games/coverage.pgn", 1)],
            "{name}: not the game played\nstderr: {}",
            watched.stderr
        );
        let recorded = std::fs::read_to_string(&watched.record).expect("the recording");
        let board_line = format!("@board {name} via touchmove watch");
        assert!(
            recorded.lines().any(|line| line == board_line),
            "{name}: the recording does not name its board"
        );
    }
}

#[test]
fn ports_finds_every_protocol_s_emulated_board() {
    for protocol in touchmove::registry::PROTOCOLS {
        if protocol.probe.is_none() || protocol.line.is_none() {
            continue;
        }
        let emulator = emulate_board(protocol.name, &["--pgn", "fixtures/games/coverage.pgn"]);
        let output = common::bin()
            .args(["ports", &emulator.port])
            .output()
            .expect("ports runs");
        assert!(output.status.success());
        let stdout = String::from_utf8_lossy(&output.stdout);
        let line = stdout
            .lines()
            .find(|line| line.starts_with(&emulator.port))
            .unwrap_or_else(|| panic!("the pty is not listed:\n{stdout}"));
        let named = format!("(--protocol {})", protocol.name);
        assert!(line.ends_with(&named), "{}: {line}", protocol.name);
    }
}
