//! A clock time as the PGN `%clk` comment command writes it: `h:mm:ss`.

use crate::sensor::Millis;

/// `h:mm:ss` for a time in milliseconds, as in `[%clk 1:30:00]`: the hours unpadded and not
/// limited to 24, fractions of a second dropped (the time a clock shows).
pub fn clk(ms: Millis) -> String {
    let seconds = ms / 1000;
    format!(
        "{}:{:02}:{:02}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ninety_minutes_is_one_thirty() {
        assert_eq!(clk(90 * 60 * 1000), "1:30:00");
    }

    #[test]
    fn minutes_and_seconds_are_two_digits() {
        assert_eq!(clk(((2 * 60 + 5) * 60 + 7) * 1000), "2:05:07");
        assert_eq!(clk(59_000), "0:00:59");
    }

    #[test]
    fn zero_is_all_zeros() {
        assert_eq!(clk(0), "0:00:00");
    }

    #[test]
    fn fractions_of_a_second_are_dropped() {
        assert_eq!(clk(61_999), "0:01:01");
    }

    #[test]
    fn hours_go_past_a_day() {
        assert_eq!(clk(100 * 3600 * 1000), "100:00:00");
    }
}
