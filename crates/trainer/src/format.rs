//! Times as a report writes them.

use touchmove_core::sensor::Millis;

/// `0.8 s`, `12.3 s`, `2 min 05 s`.
pub fn seconds(ms: Millis) -> String {
    let tenths = ms / 100;
    if ms < 60_000 {
        format!("{}.{} s", tenths / 10, tenths % 10)
    } else {
        let seconds = ms / 1000;
        format!("{} min {:02} s", seconds / 60, seconds % 60)
    }
}

/// PGN's elapsed move time, `h:mm:ss.t` (`[%emt 0:00:12.3]`): tenths of a second, as
/// `[%clk]` may have them.
pub fn emt(ms: Millis) -> String {
    let tenths = ms / 100;
    let seconds = tenths / 10;
    format!(
        "{}:{:02}:{:02}.{}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60,
        tenths % 10
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_times_in_tenths_and_long_in_minutes() {
        assert_eq!(seconds(840), "0.8 s");
        assert_eq!(seconds(12_349), "12.3 s");
        assert_eq!(seconds(125_000), "2 min 05 s");
    }

    #[test]
    fn elapsed_move_times_keep_tenths() {
        assert_eq!(emt(700), "0:00:00.7");
        assert_eq!(emt(3_723_450), "1:02:03.4");
    }
}
