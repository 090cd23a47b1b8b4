//! A physical clock's reports in a sensor log, written as comment lines.
//!
//! Version 1 of the format has no record for a clock's times, and a reader ignores every line
//! that starts with `#`. touchmove writes each report of a physical clock as a comment of a
//! fixed form, so the file stays a valid version-1 log that every other reader reads
//! unchanged, while `touchmove replay` can follow the clock as the live session did:
//!
//! ```text
//! #clock-reading <t> <white-ms> <black-ms> <running> <flags> [<white-side>]
//! ```
//!
//! `<running>` is `white`, `black` or `-` (stopped); `<flags>` is `-` or a comma-separated list
//! of `<color>:fallen` (the last period ran out) and `<color>:period` (a period ran out, the
//! clock went on into the next one). `<white-side>`, when the host had settled which side of
//! the clock is White's, is `white-left` or `white-right` (a resumed session reads it back).
//! A comment that starts with `#clock-reading` but does not
//! have this form stays an ordinary comment.

use shakmaty::Color;

use crate::clock::{ClockReading, ClockSide, Flag};
use crate::event::{ClockTimes, color_name};
use crate::sensor::Millis;

/// The word that starts a clock annotation.
const KEYWORD: &str = "#clock-reading";

/// The comment line (without its line ending) for `reading`, made at `t`.
pub fn format_clock_reading(t: Millis, reading: &ClockReading) -> String {
    let running = reading.running.map_or("-", color_name);
    let flags: Vec<String> = [Color::White, Color::Black]
        .into_iter()
        .filter_map(|color| {
            reading
                .flags
                .get(color)
                .map(|flag| format!("{}:{}", color_name(color), flag_name(flag)))
        })
        .collect();
    let flags = if flags.is_empty() {
        "-".to_owned()
    } else {
        flags.join(",")
    };
    let side = match reading.white_side {
        Some(ClockSide::Left) => " white-left",
        Some(ClockSide::Right) => " white-right",
        None => "",
    };
    format!(
        "{KEYWORD} {t} {} {} {running} {flags}{side}",
        reading.times.white, reading.times.black
    )
}

/// The time and the reading of a clock annotation; `None` for any other line (an ordinary
/// comment among them).
pub fn parse_clock_reading(line: &str) -> Option<(Millis, ClockReading)> {
    let mut fields = line.split(' ').filter(|field| !field.is_empty());
    if fields.next()? != KEYWORD {
        return None;
    }
    // Times beyond what a log may give make the line an ordinary comment.
    let in_range = |ms: &Millis| *ms <= super::fields::MAX_TIME_MS;
    let t = fields.next()?.parse().ok().filter(in_range)?;
    let white = fields.next()?.parse().ok().filter(in_range)?;
    let black = fields.next()?.parse().ok().filter(in_range)?;
    let running = match fields.next()? {
        "-" => None,
        name => Some(name.parse().ok()?),
    };
    let mut reading = ClockReading::new(ClockTimes { white, black }, running);
    match fields.next()? {
        "-" => {}
        list => {
            for item in list.split(',') {
                let (color, flag) = item.split_once(':')?;
                reading = reading.with_flag(color.parse().ok()?, parse_flag(flag)?);
            }
        }
    }
    let white_side = match fields.next() {
        None => None,
        Some("white-left") => Some(ClockSide::Left),
        Some("white-right") => Some(ClockSide::Right),
        Some(_) => return None,
    };
    fields
        .next()
        .is_none()
        .then_some((t, reading.with_white_side(white_side)))
}

fn flag_name(flag: Flag) -> &'static str {
    match flag {
        Flag::Fallen => "fallen",
        Flag::PeriodEnded => "period",
    }
}

fn parse_flag(name: &str) -> Option<Flag> {
    match name {
        "fallen" => Some(Flag::Fallen),
        "period" => Some(Flag::PeriodEnded),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(white: u64, black: u64, running: Option<Color>) -> ClockReading {
        ClockReading::new(ClockTimes { white, black }, running)
    }

    #[test]
    fn a_reading_is_written_in_its_fixed_form() {
        assert_eq!(
            format_clock_reading(1200, &reading(298_000, 300_000, Some(Color::Black))),
            "#clock-reading 1200 298000 300000 black -"
        );
        let flagged = reading(0, 12_000, None)
            .with_flag(Color::White, Flag::Fallen)
            .with_flag(Color::Black, Flag::PeriodEnded);
        assert_eq!(
            format_clock_reading(7, &flagged),
            "#clock-reading 7 0 12000 - white:fallen,black:period"
        );
    }

    #[test]
    fn what_is_written_reads_back() {
        let flagged = reading(0, 5, Some(Color::White)).with_flag(Color::White, Flag::Fallen);
        let sided = reading(3, 4, Some(Color::Black)).with_white_side(Some(ClockSide::Right));
        assert_eq!(
            format_clock_reading(5, &sided),
            "#clock-reading 5 3 4 black - white-right"
        );
        for original in [reading(1, 2, None), flagged, sided] {
            let line = format_clock_reading(99, &original);
            assert_eq!(parse_clock_reading(&line), Some((99, original)), "{line}");
        }
    }

    #[test]
    fn anything_else_is_an_ordinary_comment() {
        for line in [
            "# a note",
            "#clock-readings 1 2 3 - -",
            "#clock-reading",
            "#clock-reading 1 2 3 - ",
            "#clock-reading x 2 3 - -",
            "#clock-reading 1 2 3 red -",
            "#clock-reading 1 2 3 - white:late",
            "#clock-reading 1 2 3 - white",
            "#clock-reading 1 2 3 - - extra",
            "#clock-reading 1 2 3 - - white-left extra",
        ] {
            assert_eq!(parse_clock_reading(line), None, "{line}");
        }
    }
}
