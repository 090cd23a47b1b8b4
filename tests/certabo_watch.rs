//! Certabo boards as real processes over a real pseudo-terminal (`touchmove emulate certabo`,
//! `touchmove watch --protocol certabo`): an RFID board, its chips drawn at random per piece and
//! learnt from the start position with the spare queens (the registry's own game is in
//! `every_protocol.rs`), unplugged mid-game.

use crate::common;

use common::watching::{Watched, replay_with, source_game, watch_board};

#[test]
fn an_rfid_board_unplugged_mid_game_is_read_whole_again_and_the_game_goes_on() {
    // At 4 times a player's pace the spare queens come off 750 ms after the host's first
    // bytes, then the game lasts about 15 s; the board is unplugged 3 s into the game, for 3 s
    // (the emulator's own time, not the script's): as the Chessnut's drop in `ble_watch.rs`.
    let args = [
        "--pgn",
        "fixtures/games/coverage.pgn",
        "--speed",
        "4",
        "--unplug-at",
        "3750",
        "--unplug-for",
        "3000",
    ];
    let watched = watch_board("certabo", "unplugged", &args, &common::SCALED_WINDOWS);
    assert_followed_through_the_unplug(&watched, source_game("games/coverage.pgn", 1));
}

/// Asserts that `watched` recorded `game`, said the board lost while unplugged and back when
/// plugged in again (and lost for good when the emulator ends), and decided live what a replay
/// of its recording decides.
fn assert_followed_through_the_unplug(watched: &Watched, game: Vec<String>) {
    assert_eq!(
        common::recorded_games(&watched.events),
        vec![game],
        "not the game played\nstderr: {}",
        watched.stderr
    );
    assert_eq!(
        watched.links.get(..2),
        Some(&["lost".to_owned(), "back".to_owned()][..]),
        "{}",
        watched.stderr
    );
    assert_eq!(
        watched.events,
        replay_with(&watched.record, &common::SCALED_WINDOWS),
        "live decisions differ from the replay of the recording"
    );
}

#[test]
fn a_board_calibrated_once_is_known_when_watched_again() {
    // The same board twice: the emulator draws the pieces' chips from its seed.
    let emulate_args = [
        "--pgn",
        "fixtures/games/coverage.pgn",
        "--speed",
        "4",
        "--seed",
        "11",
    ];
    let data = common::fresh_data_dir();
    let links = tempfile::tempdir().expect("a folder for the port's stable name");
    let link = links.path().join("usb-Certabo-board");
    let calibrated = {
        let board = common::emulator::emulate_board("certabo", &emulate_args);
        common::watching::link_to(&link, &board.port);
        common::bin()
            .env("XDG_DATA_HOME", &data)
            .args(["calibrate", "--port"])
            .arg(&link)
            .output()
            .expect("calibrate runs")
    };
    let said = String::from_utf8_lossy(&calibrated.stdout);
    assert!(
        calibrated.status.success(),
        "{said}\n{}",
        String::from_utf8_lossy(&calibrated.stderr)
    );
    // 32 pieces and the two spare queens.
    assert!(
        said.contains("the pieces' chips learnt: 34 chips\nkept for this board in"),
        "{said}"
    );
    let kept = common::watching::Kept {
        data: &data,
        link: &link,
    };
    let watched = common::watching::watch_board_kept(
        "certabo",
        "calibrated",
        &emulate_args,
        &common::SCALED_WINDOWS,
        Some(&kept),
    );
    assert_eq!(
        common::recorded_games(&watched.events),
        vec![source_game("games/coverage.pgn", 1)],
        "not the game played\nstderr: {}",
        watched.stderr
    );
    assert!(
        !watched.stderr.contains("learning the pieces' chips")
            && !watched.stderr.contains("chips learnt"),
        "the chips learnt again: {}",
        watched.stderr
    );
}

#[test]
fn a_sentio_board_s_game_with_captures_hidden_within_a_frame_is_followed_through_an_unplug() {
    // A Sentio board senses occupancy only, a frame every 250 ms: the hands take a victim off
    // and set the capturing piece down within one frame, so 2. exd5 Qxd5 show as e4, then d8,
    // emptied; the host catches them up from the order the frames showed. Unplugged as the
    // RFID board above. (A game whose captures the board cannot tell apart, such as 5. gxh8=N
    // or gxf8=N in coverage.pgn, is not followed to its end: docs/boards.md.)
    let dir = tempfile::tempdir().expect("a folder");
    let pgn = dir.path().join("sentio.pgn");
    let game = "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. d4 Nf6 5. Nf3 Bf5 6. Bd2 e6 7. Bc4 Bb4 \
                8. O-O O-O *";
    std::fs::write(&pgn, format!("[Event \"sentio\"]\n\n{game}\n")).expect("written");
    let args = [
        "--sentio",
        "--pgn",
        pgn.to_str().expect("a path"),
        "--speed",
        "4",
        "--unplug-at",
        "3750",
        "--unplug-for",
        "3000",
    ];
    let watched = watch_board("certabo", "sentio", &args, &common::SCALED_WINDOWS);
    let played: Vec<String> = game
        .split_whitespace()
        .filter(|token| !token.ends_with('.') && *token != "*")
        .map(str::to_owned)
        .collect();
    assert_followed_through_the_unplug(&watched, played);
}

#[test]
fn a_sentio_board_asks_where_a_capture_went_and_the_hands_answer() {
    // 3. exd5 made within a frame: the board shows e4 emptied, nothing more, and exf5 shows the
    // same. The host asks (an `ambiguous` event, the LEDs on e4, d5 and f5); the hands, once
    // the LEDs have asked for a second, lift the pawn where they set it and set it back, and
    // the capture is decided: the game is followed to its end.
    let dir = tempfile::tempdir().expect("a folder");
    let pgn = dir.path().join("asked.pgn");
    let game = "1. e4 d5 2. Nc3 f5 3. exd5 Nf6 4. Bc4 Nxd5 5. Nxd5 *";
    std::fs::write(&pgn, format!("[Event \"asked\"]\n\n{game}\n")).expect("written");
    let args = [
        "--sentio",
        "--answer-after",
        "1000",
        "--pgn",
        pgn.to_str().expect("a path"),
        "--speed",
        "4",
    ];
    let watched = watch_board("certabo", "asked", &args, &common::SCALED_WINDOWS);
    let asked: Vec<&serde_json::Value> = watched
        .events
        .iter()
        .filter(|event| event["kind"] == "ambiguous")
        .collect();
    let first = asked.first().expect("asked where the pawn went");
    assert_eq!(first["from"], "e4", "{asked:?}");
    assert_eq!(first["to"], serde_json::json!(["d5", "f5"]), "{asked:?}");
    let moves: Vec<(&str, u64)> = watched
        .events
        .iter()
        .filter(|event| event["kind"] == "move")
        .filter_map(|event| Some((event["san"].as_str()?, event["t"].as_u64()?)))
        .collect();
    let sans: Vec<&str> = moves.iter().map(|&(san, _)| san).collect();
    assert_eq!(
        sans,
        [
            "e4", "d5", "Nc3", "f5", "exd5", "Nf6", "Bc4", "Nxd5", "Nxd5"
        ]
    );
    // Answered, not told apart by the later moves (4... Nxd5 only after exd5): decided before
    // the reply was.
    let decided_at = |ply: usize| moves.get(ply).map(|&(_, t)| t);
    assert!(decided_at(4) < decided_at(5), "{moves:?}");
}
