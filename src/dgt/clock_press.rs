//! A clock press, read from the lever bit of two successive clock reports.
//!
//! A player presses the clock by pushing their own side of the lever down, which raises the
//! other side: after a press the lever is high on the opponent's side, and the opponent's clock
//! runs. So the player on the lever's *low* side after the change is the one who pressed.

use shakmaty::Color;

use super::clock::ClockReport;

/// The player who pressed the clock between `previous` and `current`: `None` when the lever did
/// not move, or when either report says no clock is connected (its lever bit means nothing).
/// `white_on_left` tells which player sits on the clock's left side.
pub fn pressed_by(
    previous: &ClockReport,
    current: &ClockReport,
    white_on_left: bool,
) -> Option<Color> {
    if previous.no_clock || current.no_clock {
        return None;
    }
    if previous.lever_right_high == current.lever_right_high {
        return None;
    }
    let left_pressed = current.lever_right_high;
    Some(Color::from_white(left_pressed == white_on_left))
}

#[cfg(test)]
mod tests {
    use super::super::clock::ClockTime;
    use super::*;

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
        assert_eq!(
            pressed_by(&left_high, &right_high, true),
            Some(Color::White)
        );
        assert_eq!(
            pressed_by(&left_high, &right_high, false),
            Some(Color::Black)
        );
        // The lever rose on the left: the right player pressed.
        assert_eq!(
            pressed_by(&right_high, &left_high, true),
            Some(Color::Black)
        );
        assert_eq!(
            pressed_by(&right_high, &left_high, false),
            Some(Color::White)
        );
    }

    #[test]
    fn no_change_or_no_clock_is_no_press() {
        let right_high = report(true, false);
        assert_eq!(pressed_by(&right_high, &right_high, true), None);
        let absent = report(false, true);
        assert_eq!(pressed_by(&right_high, &absent, true), None);
        assert_eq!(pressed_by(&absent, &right_high, true), None);
    }
}
