//! A clock press, read from the lever bit of two successive clock reports.
//!
//! A player presses the clock by pushing their own side of the lever down, which raises the
//! other side: after a press the lever is high on the opponent's side, and the opponent's clock
//! runs. So the player on the lever's *low* side after the change is the one who pressed.

use crate::dgt::wire::clock::ClockReport;
use touchmove_core::clock::ClockSide;

/// The side whose player pressed the clock between `previous` and `current`: `None` when the
/// lever did not move, or when either report says no clock is connected (its lever bit means
/// nothing).
pub fn pressed_side(previous: &ClockReport, current: &ClockReport) -> Option<ClockSide> {
    if previous.no_clock || current.no_clock {
        return None;
    }
    if previous.lever_right_high == current.lever_right_high {
        return None;
    }
    // High on the right: the left side was pushed down.
    Some(if current.lever_right_high {
        ClockSide::Left
    } else {
        ClockSide::Right
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dgt::wire::clock::ClockTime;

    fn report(lever_right_high: bool, no_clock: bool) -> ClockReport {
        let time = ClockTime {
            hours: 0,
            minutes: 5,
            seconds: 0,
            flag: 0,
        };
        ClockReport {
            right: time,
            left: time,
            running: true,
            lever_right_high,
            battery_low: false,
            right_to_move: lever_right_high,
            left_to_move: !lever_right_high,
            no_clock,
        }
    }

    #[test]
    fn the_player_on_the_low_side_pressed() {
        let right_high = report(true, false);
        let left_high = report(false, false);
        // The lever rose on the right: the left player pushed their side down.
        assert_eq!(pressed_side(&left_high, &right_high), Some(ClockSide::Left));
        // The lever rose on the left: the right player pressed.
        assert_eq!(
            pressed_side(&right_high, &left_high),
            Some(ClockSide::Right)
        );
    }

    #[test]
    fn no_change_or_no_clock_is_no_press() {
        let right_high = report(true, false);
        assert_eq!(pressed_side(&right_high, &right_high), None);
        let absent = report(false, true);
        assert_eq!(pressed_side(&right_high, &absent), None);
        assert_eq!(pressed_side(&absent, &right_high), None);
    }
}
