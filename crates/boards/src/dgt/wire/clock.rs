//! BWTIME's seven data bytes: a clock report (times and status) or a clock-command
//! acknowledgement.

use shakmaty::Color;

use crate::dgt::wire::payload::PayloadError;
use crate::dgt::wire::protocol::{clock_flag, clock_status};
use touchmove_core::clock::{ClockReading, ClockSide, Flag};
use touchmove_core::event::ClockTimes;
use touchmove_core::sensor::Millis;

/// One player's time as the clock shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ClockTime {
    /// Hours (binary, the low nibble of the hours byte; a clock shows 0–9).
    pub hours: u8,
    /// Minutes, 0–59 (sent in BCD).
    pub minutes: u8,
    /// Seconds, 0–59 (sent in BCD).
    pub seconds: u8,
    /// The flag bits: the high nibble of the hours byte, shifted down, kept raw.
    pub flag: u8,
}

/// A BWTIME time report: both players' times and the clock's status byte, decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockReport {
    /// The right player's time (d0..d2).
    pub right: ClockTime,
    /// The left player's time (d3..d5).
    pub left: ClockTime,
    /// The clock is running.
    pub running: bool,
    /// The lever is high on the right side (the left side is pressed down).
    pub lever_right_high: bool,
    /// The clock's battery is low.
    pub battery_low: bool,
    /// The right player's turn.
    pub right_to_move: bool,
    /// The left player's turn.
    pub left_to_move: bool,
    /// No clock is connected to the board.
    pub no_clock: bool,
}

impl ClockTime {
    /// The display of `millis` remaining: whole seconds rounded up (a clock shows 0:00:00 only
    /// when the time is out), capped at 9:59:59.
    pub fn from_millis(millis: Millis) -> ClockTime {
        let seconds = millis.div_ceil(1000).min(9 * 3600 + 59 * 60 + 59);
        ClockTime {
            hours: (seconds / 3600) as u8,
            minutes: (seconds / 60 % 60) as u8,
            seconds: (seconds % 60) as u8,
            flag: 0,
        }
    }

    /// The same time showing the flag bits `flag`.
    pub fn with_flag(self, flag: u8) -> ClockTime {
        ClockTime { flag, ..self }
    }

    /// The three BWTIME bytes: hours (low nibble, capped at 9 so it is never `0x0a`, which
    /// marks an acknowledgement; flag bits above), minutes and seconds in BCD.
    pub(super) fn bwtime_bytes(self) -> [u8; 3] {
        let hours = self.hours.min(9) | ((self.flag & 0x07) << 4);
        [hours, to_bcd(self.minutes), to_bcd(self.seconds)]
    }

    /// The time shown, in milliseconds.
    pub fn millis(&self) -> Millis {
        let seconds =
            u64::from(self.hours) * 3600 + u64::from(self.minutes) * 60 + u64::from(self.seconds);
        seconds * 1000
    }

    /// The flag its bits show, if any (the final flag first).
    pub fn shown_flag(&self) -> Option<Flag> {
        if self.flag & clock_flag::FINAL != 0 {
            Some(Flag::Fallen)
        } else if self.flag & clock_flag::FLAG != 0 {
            Some(Flag::PeriodEnded)
        } else {
            None
        }
    }
}

impl ClockReport {
    /// The report as the game's clock reads it, with White's time on the clock's `white`
    /// side; `None` when the board says no clock is connected.
    pub fn reading(&self, white: ClockSide) -> Option<ClockReading> {
        if self.no_clock {
            return None;
        }
        let (white_time, black_time) = match white {
            ClockSide::Left => (&self.left, &self.right),
            ClockSide::Right => (&self.right, &self.left),
        };
        let left_color = ClockSide::Left.color(white);
        let running = if !self.running {
            None
        } else if self.left_to_move {
            Some(left_color)
        } else if self.right_to_move {
            Some(!left_color)
        } else {
            None
        };
        let times = ClockTimes {
            white: white_time.millis(),
            black: black_time.millis(),
        };
        let mut reading = ClockReading::new(times, running).with_battery_low(self.battery_low);
        for (color, time) in [(Color::White, white_time), (Color::Black, black_time)] {
            if let Some(flag) = time.shown_flag() {
                reading = reading.with_flag(color, flag);
            }
        }
        Some(reading)
    }
}

/// A BWTIME that acknowledges a clock command (the low nibble of d0 or d3 is 0x0a).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockAck {
    /// The seven data bytes, kept as received.
    pub bytes: [u8; 7],
}

/// What a BWTIME carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bwtime {
    /// A time report.
    Report(ClockReport),
    /// An acknowledgement of a clock command.
    Ack(ClockAck),
}

/// Decodes BWTIME's data bytes (exactly seven).
pub fn decode_bwtime(payload: &[u8]) -> Result<Bwtime, PayloadError> {
    let bytes: [u8; 7] = payload.try_into().map_err(|_| PayloadError::WrongLength {
        length: payload.len(),
    })?;
    let [d0, d1, d2, d3, d4, d5, d6] = bytes;
    if is_ack_nibble(d0) || is_ack_nibble(d3) {
        return Ok(Bwtime::Ack(ClockAck { bytes }));
    }
    Ok(Bwtime::Report(ClockReport::from_status(
        clock_time(d0, d1, d2)?,
        clock_time(d3, d4, d5)?,
        d6,
    )))
}

impl ClockReport {
    /// The report of the right and left players' times and a status byte (its bits as
    /// [`clock_status`] names them; others are ignored).
    pub fn from_status(right: ClockTime, left: ClockTime, status: u8) -> ClockReport {
        ClockReport {
            right,
            left,
            running: status & clock_status::RUNNING != 0,
            lever_right_high: status & clock_status::LEVER_RIGHT_HIGH != 0,
            battery_low: status & clock_status::BATTERY_LOW != 0,
            right_to_move: status & clock_status::RIGHT_TO_MOVE != 0,
            left_to_move: status & clock_status::LEFT_TO_MOVE != 0,
            no_clock: status & clock_status::NO_CLOCK != 0,
        }
    }

    /// The status byte that says what the report says.
    pub fn status(&self) -> u8 {
        [
            (self.running, clock_status::RUNNING),
            (self.lever_right_high, clock_status::LEVER_RIGHT_HIGH),
            (self.battery_low, clock_status::BATTERY_LOW),
            (self.right_to_move, clock_status::RIGHT_TO_MOVE),
            (self.left_to_move, clock_status::LEFT_TO_MOVE),
            (self.no_clock, clock_status::NO_CLOCK),
        ]
        .into_iter()
        .filter(|(set, _)| *set)
        .fold(0, |status, (_, bit)| status | bit)
    }
}

/// Whether an hours byte marks an acknowledgement.
fn is_ack_nibble(byte: u8) -> bool {
    byte & 0x0f == clock_status::ACK_NIBBLE
}

/// One player's time from the hours byte (flag bits above) and the BCD minutes and seconds.
fn clock_time(hours: u8, minutes: u8, seconds: u8) -> Result<ClockTime, PayloadError> {
    Ok(ClockTime {
        hours: hours & 0x0f,
        minutes: from_bcd(minutes)?,
        seconds: from_bcd(seconds)?,
        flag: hours >> 4,
    })
}

/// Two decimal digits in one byte (`59` is `0x59`); values above 99 are capped.
fn to_bcd(value: u8) -> u8 {
    let value = value.min(99);
    ((value / 10) << 4) | (value % 10)
}

/// The value of a two-digit BCD byte.
fn from_bcd(byte: u8) -> Result<u8, PayloadError> {
    let (tens, units) = (byte >> 4, byte & 0x0f);
    if tens > 9 || units > 9 {
        return Err(PayloadError::BadBcd { byte });
    }
    Ok(tens * 10 + units)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_decodes_bcd_times_flags_and_status() {
        // Right 1:23:45 with flag bit 0x1, left 0:05:09; running, lever high right, left's turn.
        let bytes = [0x11, 0x23, 0x45, 0x00, 0x05, 0x09, 0x0b];
        let Ok(Bwtime::Report(report)) = decode_bwtime(&bytes) else {
            panic!("a report expected");
        };
        assert_eq!(
            report.right,
            ClockTime {
                hours: 1,
                minutes: 23,
                seconds: 45,
                flag: 1
            }
        );
        assert_eq!(
            report.left,
            ClockTime {
                hours: 0,
                minutes: 5,
                seconds: 9,
                flag: 0
            }
        );
        assert!(report.running && report.lever_right_high && report.left_to_move);
        assert!(!report.battery_low && !report.right_to_move && !report.no_clock);
    }

    #[test]
    fn every_status_bit_has_its_field() {
        let Ok(Bwtime::Report(report)) = decode_bwtime(&[0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x34])
        else {
            panic!("a report expected");
        };
        assert!(report.battery_low && report.right_to_move && report.no_clock);
        assert!(!report.running && !report.lever_right_high && !report.left_to_move);
    }

    #[test]
    fn a_nibble_of_0a_in_d0_or_d3_is_an_acknowledgement() {
        let right = [0x0a, 0x09, 0x01, 0x00, 0x00, 0x00, 0x00];
        assert_eq!(
            decode_bwtime(&right),
            Ok(Bwtime::Ack(ClockAck { bytes: right }))
        );
        let left = [0x00, 0x00, 0x00, 0x1a, 0x0b, 0x00, 0x00];
        assert_eq!(
            decode_bwtime(&left),
            Ok(Bwtime::Ack(ClockAck { bytes: left }))
        );
    }

    #[test]
    fn a_non_bcd_byte_is_rejected() {
        assert_eq!(
            decode_bwtime(&[0x00, 0x5a, 0x00, 0x00, 0x00, 0x00, 0x00]),
            Err(PayloadError::BadBcd { byte: 0x5a })
        );
        assert_eq!(
            decode_bwtime(&[0x00, 0x00, 0x00, 0x00, 0x00, 0x60 | 0x0f, 0x00]),
            Err(PayloadError::BadBcd { byte: 0x6f })
        );
    }

    fn report_of(bytes: [u8; 7]) -> ClockReport {
        match decode_bwtime(&bytes) {
            Ok(Bwtime::Report(report)) => report,
            other => panic!("a report expected, got {other:?}"),
        }
    }

    #[test]
    fn a_reading_puts_each_side_s_time_on_its_player() {
        // Right 0:04:58, left 1:02:03, running, the left player's turn.
        let report = report_of([0x00, 0x04, 0x58, 0x01, 0x02, 0x03, 0x09]);
        let white_left = report.reading(ClockSide::Left).expect("a clock");
        assert_eq!(
            white_left.times,
            ClockTimes {
                white: 3_723_000,
                black: 298_000
            }
        );
        assert_eq!(white_left.running, Some(Color::White));
        assert_eq!(white_left.battery_low, Some(false));
        let low = report_of([0x00, 0x04, 0x58, 0x01, 0x02, 0x03, 0x0d]);
        assert_eq!(
            low.reading(ClockSide::Left).and_then(|r| r.battery_low),
            Some(true)
        );
        let white_right = report.reading(ClockSide::Right).expect("a clock");
        assert_eq!(white_right.times.white, 298_000);
        assert_eq!(white_right.running, Some(Color::Black));
    }

    #[test]
    fn a_stopped_clock_runs_for_nobody_and_no_clock_gives_no_reading() {
        let stopped = report_of([0x00, 0x05, 0x00, 0x00, 0x05, 0x00, 0x08]);
        assert_eq!(
            stopped.reading(ClockSide::Left).map(|r| r.running),
            Some(None)
        );
        let absent = report_of([0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20]);
        assert_eq!(absent.reading(ClockSide::Left), None);
    }

    #[test]
    fn the_flag_bits_become_flags() {
        // Left: final flag at 0:00:00; right: the period flag at 0:59:00.
        let report = report_of([0x40, 0x59, 0x00, 0x10, 0x00, 0x00, 0x01]);
        let reading = report.reading(ClockSide::Left).expect("a clock");
        assert_eq!(*reading.flags.get(Color::White), Some(Flag::Fallen));
        assert_eq!(*reading.flags.get(Color::Black), Some(Flag::PeriodEnded));
        // The time-per-move bit alone is no flag.
        let per_move = report_of([0x20, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01]);
        let reading = per_move.reading(ClockSide::Left).expect("a clock");
        assert_eq!(reading.flags.get(Color::Black), &None);
    }

    #[test]
    fn the_bwtime_bytes_decode_to_the_same_time() {
        for (millis, flag) in [
            (0, 0),
            (1, 0),
            (59_999, 0x04),
            (3_723_000, 0x01),
            (u64::MAX, 0x07),
        ] {
            let time = ClockTime::from_millis(millis).with_flag(flag);
            let [hours, minutes, seconds] = time.bwtime_bytes();
            assert_eq!(clock_time(hours, minutes, seconds), Ok(time), "{millis} ms");
        }
    }

    #[test]
    fn a_wrong_length_is_rejected_not_a_panic() {
        assert_eq!(
            decode_bwtime(&[0x00; 6]),
            Err(PayloadError::WrongLength { length: 6 })
        );
    }
}
