//! Tests of the clock model: increments, delays, periods, flags, added time and syncing.

use shakmaty::Color::{Black, White};

use super::{ChessClock, PressError};
use crate::clock::time_control::TimeControl;
use crate::event::ClockTimes;
use crate::sensor::Millis;

const SECOND: Millis = 1000;
const MINUTE: Millis = 60 * SECOND;

/// A stopped clock for the time control `text`, created at 0.
fn clock(text: &str) -> ChessClock {
    let control: TimeControl = text.parse().expect("a valid time control");
    ChessClock::new(control, 0)
}

/// Plays `moves` moves for each side from `start`, each taking `each` ms; returns the time of
/// the last press.
fn play(clock: &mut ChessClock, moves: u32, start: Millis, each: Millis) -> Millis {
    let mut now = start;
    for _ in 0..moves {
        for color in [White, Black] {
            now += each;
            clock
                .press(color, now)
                .expect("a press by the running side");
        }
    }
    now
}

#[test]
fn a_new_clock_is_stopped_on_the_first_period() {
    let clock = clock("40/5400+30:1800+30");
    assert_eq!(clock.running(), None);
    assert_eq!(clock.remaining(White, 10 * MINUTE), 90 * MINUTE);
    assert_eq!(clock.poll_timeout(), None);
    assert_eq!(clock.flag(100 * MINUTE), None);
}

#[test]
fn the_running_side_counts_down_and_the_other_does_not() {
    let mut clock = clock("300+2");
    clock.start(White, 1000);
    assert_eq!(clock.running(), Some(White));
    assert_eq!(clock.remaining(White, 11 * SECOND), 290 * SECOND);
    assert_eq!(clock.remaining(Black, 11 * SECOND), 300 * SECOND);
}

#[test]
fn the_increment_is_added_after_each_move() {
    let mut clock = clock("300+2");
    clock.start(White, 0);
    assert_eq!(clock.press(White, 10 * SECOND), Ok(()));
    assert_eq!(clock.running(), Some(Black));
    assert_eq!(clock.remaining(White, 20 * SECOND), 292 * SECOND);
    assert_eq!(clock.press(Black, 25 * SECOND), Ok(()));
    assert_eq!(clock.remaining(Black, 25 * SECOND), 287 * SECOND);
    assert_eq!(clock.remaining(White, 26 * SECOND), 291 * SECOND);
}

#[test]
fn the_delay_is_not_counted_and_starts_again_each_move() {
    let mut clock = clock("300d5");
    clock.start(White, 0);
    assert_eq!(clock.remaining(White, 4 * SECOND), 300 * SECOND);
    assert_eq!(clock.remaining(White, 8 * SECOND), 297 * SECOND);
    clock.press(White, 8 * SECOND).expect("white runs");
    assert_eq!(clock.remaining(White, 9 * SECOND), 297 * SECOND);
    assert_eq!(clock.remaining(Black, 13 * SECOND), 300 * SECOND);
    assert_eq!(clock.remaining(Black, 14 * SECOND), 299 * SECOND);
}

#[test]
fn a_move_within_the_delay_costs_nothing() {
    let mut clock = clock("300d5");
    clock.start(White, 0);
    clock.press(White, 3 * SECOND).expect("white runs");
    assert_eq!(clock.remaining(White, 3 * SECOND), 300 * SECOND);
}

#[test]
fn the_flag_falls_after_the_delay_and_the_time() {
    let mut clock = clock("300d5");
    clock.start(White, 0);
    assert_eq!(clock.poll_timeout(), Some(305 * SECOND));
    assert_eq!(clock.flag(305 * SECOND - 1), None);
    assert_eq!(clock.flag(305 * SECOND), Some(White));
}

#[test]
fn completing_the_period_adds_the_next_periods_time_to_the_unused_time() {
    let mut clock = clock("40/5400+30:1800+30");
    clock.start(White, 0);
    let now = play(&mut clock, 39, 0, MINUTE);
    let after_39 = 90 * MINUTE - 39 * MINUTE + 39 * 30 * SECOND;
    assert_eq!(clock.remaining(White, now), after_39);
    let now = play(&mut clock, 1, now, MINUTE);
    let after_40 = after_39 - MINUTE + 30 * SECOND + 30 * MINUTE;
    assert_eq!(clock.remaining(White, now), after_40);
    assert_eq!(clock.remaining(Black, now), after_40);
    let now = play(&mut clock, 1, now, MINUTE);
    assert_eq!(clock.remaining(White, now), after_40 - MINUTE + 30 * SECOND);
}

#[test]
fn a_sudden_death_period_adds_its_time_once() {
    let mut clock = clock("1/60:30");
    clock.start(White, 0);
    let now = play(&mut clock, 1, 0, SECOND);
    assert_eq!(clock.remaining(White, now), 89 * SECOND);
    let now = play(&mut clock, 2, now, SECOND);
    assert_eq!(clock.remaining(White, now), 87 * SECOND);
}

#[test]
fn a_last_period_with_a_move_count_repeats() {
    let mut clock = clock("2/60");
    clock.start(White, 0);
    let now = play(&mut clock, 2, 0, SECOND);
    assert_eq!(clock.remaining(White, now), 118 * SECOND);
    let now = play(&mut clock, 2, now, SECOND);
    assert_eq!(clock.remaining(White, now), 176 * SECOND);
}

#[test]
fn the_flag_falls_when_the_running_sides_time_is_exhausted() {
    let mut clock = clock("300+2");
    clock.start(White, 0);
    assert_eq!(clock.poll_timeout(), Some(300 * SECOND));
    assert_eq!(clock.flag(300 * SECOND - 1), None);
    assert_eq!(clock.flag(300 * SECOND), Some(White));
    assert_eq!(clock.remaining(White, 400 * SECOND), 0);
}

#[test]
fn after_a_press_the_opponents_flag_is_next() {
    let mut clock = clock("300+2");
    clock.start(White, 0);
    clock.press(White, 10 * SECOND).expect("white runs");
    assert_eq!(clock.poll_timeout(), Some(310 * SECOND));
    assert_eq!(clock.flag(310 * SECOND), Some(Black));
}

#[test]
fn a_press_after_the_flag_fell_adds_nothing_and_stops_the_clock() {
    let mut clock = clock("300+2");
    clock.start(White, 0);
    assert_eq!(
        clock.press(White, 301 * SECOND),
        Err(PressError::FlagFallen { color: White })
    );
    assert_eq!(clock.running(), None);
    assert_eq!(clock.remaining(White, 302 * SECOND), 0);
    assert_eq!(clock.flag(302 * SECOND), Some(White));
}

#[test]
fn a_press_by_the_side_not_running_changes_nothing() {
    let mut clock = clock("300+2");
    let stopped = clock.clone();
    assert_eq!(
        clock.press(White, SECOND),
        Err(PressError::NotRunning { color: White })
    );
    assert_eq!(clock, stopped);
    clock.start(White, 0);
    let running = clock.clone();
    assert_eq!(
        clock.press(Black, SECOND),
        Err(PressError::NotRunning { color: Black })
    );
    assert_eq!(clock, running);
}

#[test]
fn added_time_goes_to_the_side_named() {
    let mut clock = clock("300+2");
    clock.start(White, 0);
    clock.add_time(Black, 2 * MINUTE);
    assert_eq!(clock.remaining(Black, 10 * SECOND), 420 * SECOND);
    assert_eq!(clock.remaining(White, 10 * SECOND), 290 * SECOND);
}

#[test]
fn added_time_to_the_running_side_moves_its_flag() {
    let mut clock = clock("300+2");
    clock.start(White, 0);
    clock.add_time(White, 2 * MINUTE);
    assert_eq!(clock.poll_timeout(), Some(420 * SECOND));
    assert_eq!(clock.flag(419 * SECOND), None);
}

#[test]
fn an_unknown_time_control_has_no_flag_until_synced() {
    let mut clock = clock("?");
    clock.start(White, 0);
    assert_eq!(clock.flag(10 * MINUTE), None);
    assert_eq!(clock.poll_timeout(), None);
    assert_eq!(clock.press(White, SECOND), Ok(()));
    assert_eq!(clock.running(), Some(Black));
    clock.sync(
        ClockTimes {
            white: 60 * SECOND,
            black: 30 * SECOND,
        },
        Some(Black),
        2 * SECOND,
    );
    assert_eq!(clock.remaining(Black, 12 * SECOND), 20 * SECOND);
    assert_eq!(clock.remaining(White, 12 * SECOND), 60 * SECOND);
    assert_eq!(clock.poll_timeout(), Some(32 * SECOND));
    assert_eq!(clock.flag(32 * SECOND), Some(Black));
}

#[test]
fn a_report_overrides_the_models_times_and_running_side() {
    let mut clock = clock("300+2");
    clock.start(White, 0);
    clock.sync(
        ClockTimes {
            white: 250 * SECOND,
            black: 280 * SECOND,
        },
        Some(Black),
        40 * SECOND,
    );
    assert_eq!(clock.running(), Some(Black));
    assert_eq!(clock.remaining(White, 50 * SECOND), 250 * SECOND);
    assert_eq!(clock.remaining(Black, 50 * SECOND), 270 * SECOND);
    clock.sync(
        ClockTimes {
            white: 250 * SECOND,
            black: 270 * SECOND,
        },
        None,
        50 * SECOND,
    );
    assert_eq!(clock.running(), None);
    assert_eq!(clock.remaining(Black, 90 * SECOND), 270 * SECOND);
}

#[test]
fn a_reported_zero_is_a_fallen_flag_even_when_not_running() {
    let mut clock = clock("300+2");
    clock.sync(
        ClockTimes {
            white: 0,
            black: 280 * SECOND,
        },
        Some(Black),
        40 * SECOND,
    );
    assert_eq!(clock.flag(41 * SECOND), Some(White));
}

#[test]
fn a_report_during_the_delay_does_not_grant_it_again() {
    let mut clock = clock("300d5");
    clock.start(White, 0);
    clock.sync(
        ClockTimes {
            white: 300 * SECOND,
            black: 300 * SECOND,
        },
        Some(White),
        3 * SECOND,
    );
    assert_eq!(clock.remaining(White, 6 * SECOND), 299 * SECOND);
    assert_eq!(clock.poll_timeout(), Some(305 * SECOND));
}

#[test]
fn a_report_that_switches_sides_starts_a_new_delay() {
    let mut clock = clock("300d5");
    clock.start(White, 0);
    clock.sync(
        ClockTimes {
            white: 298 * SECOND,
            black: 300 * SECOND,
        },
        Some(Black),
        10 * SECOND,
    );
    assert_eq!(clock.remaining(Black, 15 * SECOND), 300 * SECOND);
    assert_eq!(clock.remaining(Black, 16 * SECOND), 299 * SECOND);
}
