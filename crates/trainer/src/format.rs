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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_times_in_tenths_and_long_in_minutes() {
        assert_eq!(seconds(840), "0.8 s");
        assert_eq!(seconds(12_349), "12.3 s");
        assert_eq!(seconds(125_000), "2 min 05 s");
    }
}
