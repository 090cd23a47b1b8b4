//! `touchmove emulate hall` and `touchmove watch --protocol hall` as real processes over a real
//! pseudo-terminal: the live decisions equal the replay of what `watch` recorded, the record is
//! the game played, with noise on the line and with dropped frames (the host notices the gap
//! and recovers through a snapshot without losing or inventing a move).

use crate::common;

use common::watching::{replay_with, source_game, watch_board};

/// Plays the coverage game on an emulated Hall board with `extra` options and checks both
/// equalities; returns the sensor log `watch` recorded.
fn check(name: &str, extra: &[&str]) -> String {
    let mut args = vec!["--pgn", "fixtures/games/coverage.pgn", "--speed", "20"];
    args.extend_from_slice(extra);
    let watched = watch_board("hall", name, &args, &common::SCALED_WINDOWS);
    let live = watched.events;
    assert_eq!(
        live,
        replay_with(&watched.record, &common::SCALED_WINDOWS),
        "{name}: live decisions differ from the replay of the recording"
    );
    assert_eq!(
        common::recorded_games(&live),
        vec![source_game("games/coverage.pgn", 1)],
        "{name}: not the game played"
    );
    std::fs::read_to_string(&watched.record).expect("the recording")
}

#[test]
fn a_game_on_a_hall_board() {
    let recorded = check("clean", &[]);
    assert!(
        recorded
            .lines()
            .any(|line| line == "@board hall via touchmove watch"),
        "the recording does not name the Hall board:\n{recorded}"
    );
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

#[test]
fn the_result_gesture_on_an_occupancy_board() {
    // The DGT log of the gesture played on a Hall board (its letters ignored): the kings
    // set down on d4 and d5 after 2... Nc6 are a draw, and nothing else, live as replayed.
    let args = ["--log", "fixtures/live/result-gesture.log", "--speed", "1"];
    let watched = watch_board("hall", "gesture", &args, &[]);
    assert_eq!(
        watched.events,
        replay_with(&watched.record, &[]),
        "gesture: live decisions differ from the replay of the recording"
    );
    assert_eq!(
        common::recorded_games(&watched.events),
        vec![vec!["e4", "e5", "Nf3", "Nc6"]]
    );
    let last = watched.events.last().expect("events");
    assert_eq!(
        (&last["kind"], &last["result"], &last["reason"]),
        (
            &serde_json::Value::from("result"),
            &serde_json::Value::from("1/2-1/2"),
            &serde_json::Value::from("gesture")
        ),
        "{:?}",
        watched.events
    );
    assert_eq!(watched.events.len(), 5, "{:?}", watched.events);
}
