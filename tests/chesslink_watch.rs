//! `touchmove emulate chesslink` and `touchmove watch --protocol chesslink` as real processes
//! over a real pseudo-terminal (38400 baud 7O1 asked of it): the live decisions equal the replay
//! of what `watch` recorded and the record is the game played, with messy hands, noise on the
//! line, and the board unplugged for a moment and for long enough to be lost.

use crate::common;

use common::watching::{Watched, replay_with, source_game, watch_board};

/// Ten times faster: the windows scaled likewise (25 ms, 5 ms).
const TENFOLD_WINDOWS: [&str; 4] = ["--slide-ms", "25", "--bounce-ms", "5"];

/// Plays game `number` of `fixtures/PGN` on an emulated ChessLink board twenty times as fast
/// with `extra` options and checks both equalities.
fn check(name: &str, pgn: &str, number: usize, extra: &[&str]) -> Watched {
    check_at("20", &common::SCALED_WINDOWS, name, pgn, number, extra)
}

/// Plays game `number` of `fixtures/PGN` on an emulated ChessLink board `speed` times as fast,
/// watched with `windows`, with `extra` options, and checks both equalities.
fn check_at(
    speed: &str,
    windows: &[&str],
    name: &str,
    pgn: &str,
    number: usize,
    extra: &[&str],
) -> Watched {
    let path = format!("fixtures/{pgn}");
    let game = number.to_string();
    let mut args = vec!["--pgn", &path, "--game", &game, "--speed", speed];
    args.extend_from_slice(extra);
    let watched = watch_board("chesslink", name, &args, windows);
    assert_eq!(
        watched.events,
        replay_with(&watched.record, windows),
        "{name}: live decisions differ from the replay of the recording"
    );
    assert_eq!(
        common::recorded_games(&watched.events),
        vec![source_game(pgn, number)],
        "{name}: not the game played\nstderr: {}",
        watched.stderr
    );
    watched
}

#[test]
fn messy_hands() {
    let watched = check("messy", "games/coverage.pgn", 1, &["--messy"]);
    assert!(
        watched
            .stderr
            .contains("Millennium ChessLink board, firmware 01.0A"),
        "{}",
        watched.stderr
    );
}

#[test]
fn noise_on_the_line() {
    let watched = check(
        "noise",
        "games/coverage.pgn",
        1,
        &["--noise", "5", "--seed", "3"],
    );
    assert!(
        watched.stderr.contains("made no frame, dropped"),
        "no noise was seen: {}",
        watched.stderr
    );
}

#[test]
fn unplugged_for_a_moment() {
    check(
        "unplug-short",
        "games/coverage.pgn",
        1,
        &["--unplug-at", "1500", "--unplug-for", "300"],
    );
}

/// 1.2 s unplugged: the host asks after 0.5 s of silence and counts the board lost 0.5 s
/// later; at ten times the pace 3. exf6 is made meanwhile (2.6 s into the script), read from
/// the status taken whole when the board answers again.
#[test]
fn unplugged_long_enough_to_be_lost() {
    let watched = check_at(
        "10",
        &TENFOLD_WINDOWS,
        "unplug-long",
        "games/coverage.pgn",
        1,
        &["--unplug-at", "2000", "--unplug-for", "1200"],
    );
    // The board is lost at the end too (the emulator quits): it must come back once first.
    assert!(
        watched
            .links
            .windows(2)
            .any(|pair| pair == ["lost", "back"]),
        "the board was never lost and back: {:?}",
        watched.links
    );
}
