//! The time control as the PGN `TimeControl` tag writes it.
//!
//! The form is the PGN standard's (section 9.6.1): `?` when unknown, `-` when there is none,
//! otherwise periods separated by `:`. A period is `moves/seconds` (that many moves in that
//! time) or `seconds` (sudden death, the rest of the game), optionally followed by
//! `+increment` (Fischer: seconds added after each move). PGN has no notation for a delay;
//! here `seconds d delay` (e.g. `300d5`, `40/5400d30`) means the first `delay` seconds of each
//! move are not counted (a simple, "US" delay). Examples: `40/5400+30:1800+30`, `300+2`,
//! `5400`, `40/7200:3600`, `300d5`.
//!
//! Only the last period may be sudden death; when the last period has a move count it repeats
//! (`40/7200` is 40 moves in two hours, then every further 40 moves in two more hours).

use std::fmt;
use std::num::NonZeroU32;
use std::str::FromStr;

/// A game's time control.
///
/// ```
/// use touchmove_core::clock::{Bonus, TimeControl};
///
/// // The classical control of many opens: 40 moves in 90 minutes, then 30 minutes, with 30
/// // seconds added after every move from the first.
/// let TimeControl::Timed(schedule) = "40/5400+30:1800+30".parse::<TimeControl>()? else {
///     unreachable!("a timed control");
/// };
/// let periods: Vec<_> = schedule.periods().collect();
/// assert_eq!(periods.len(), 2);
/// assert_eq!(periods[0].moves.map(|moves| moves.get()), Some(40));
/// assert_eq!(periods[0].seconds, 5400);
/// assert_eq!(periods[1].moves, None, "sudden death");
/// assert_eq!(periods[1].bonus, Bonus::Increment(30));
/// assert_eq!("-".parse::<TimeControl>()?, TimeControl::Untimed);
/// assert!("40/".parse::<TimeControl>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TimeControl {
    /// `?`: the time control is not known.
    Unknown,
    /// `-`: the game is played without a clock.
    Untimed,
    /// The periods of a timed game.
    Timed(Schedule),
}

/// The periods of a timed game: at least one; only the last may be sudden death.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    /// The first period.
    first: Period,
    /// The periods after the first.
    rest: Vec<Period>,
}

/// One period of a time control.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    /// The moves to make in this period, or `None` for sudden death.
    pub moves: Option<NonZeroU32>,
    /// The time the period adds to the clock, in seconds.
    pub seconds: u32,
    /// The increment or delay of each move in this period.
    pub bonus: Bonus,
}

/// What each move of a period gets beyond the period's time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bonus {
    /// Nothing.
    None,
    /// Fischer: these seconds are added after each move (`+n`).
    Increment(u32),
    /// Delay: the first seconds of each move are not counted (`dn`).
    Delay(u32),
}

/// Why a `TimeControl` tag value could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// A period is empty (the value is empty, or has `::` or a `:` at an end).
    #[error("empty period in time control {text:?}")]
    EmptyPeriod {
        /// The whole value.
        text: String,
    },
    /// A number is missing, has a character other than a digit, or is too large.
    #[error("bad number {number:?} in time control period {period:?}")]
    BadNumber {
        /// The offending number's text.
        number: String,
        /// The period it is in.
        period: String,
    },
    /// A period asks for zero moves.
    #[error("zero moves in time control period {period:?}")]
    ZeroMoves {
        /// The offending period.
        period: String,
    },
    /// A sudden-death period is followed by another period, which could never be reached.
    #[error("sudden-death period {period:?} is not the last of the time control")]
    SuddenDeathNotLast {
        /// The offending period.
        period: String,
    },
}

impl Schedule {
    /// The schedule of these periods; an error when there are none or a sudden-death period
    /// is not the last.
    pub fn new(periods: Vec<Period>) -> Result<Schedule, TimeControlError> {
        let mut periods = periods.into_iter();
        let Some(first) = periods.next() else {
            return Err(TimeControlError::EmptyPeriod {
                text: String::new(),
            });
        };
        let schedule = Schedule {
            first,
            rest: periods.collect(),
        };
        match schedule.unreachable_after_sudden_death() {
            Some(period) => Err(TimeControlError::SuddenDeathNotLast {
                period: period.to_string(),
            }),
            None => Ok(schedule),
        }
    }

    /// The periods in order.
    pub fn periods(&self) -> impl Iterator<Item = &Period> {
        std::iter::once(&self.first).chain(&self.rest)
    }

    /// The period with this index (from 0); past the end, the last one, which repeats.
    pub fn period(&self, index: usize) -> &Period {
        match index.checked_sub(1) {
            None => &self.first,
            Some(i) => self.rest.get(i).unwrap_or_else(|| self.last()),
        }
    }

    /// The last period.
    pub fn last(&self) -> &Period {
        self.rest.last().unwrap_or(&self.first)
    }

    /// A sudden-death period that is followed by another, if any.
    fn unreachable_after_sudden_death(&self) -> Option<&Period> {
        let count = self.rest.len() + 1;
        self.periods()
            .take(count - 1)
            .find(|period| period.moves.is_none())
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        match text {
            "?" => Ok(TimeControl::Unknown),
            "-" => Ok(TimeControl::Untimed),
            _ => parse_schedule(text).map(TimeControl::Timed),
        }
    }
}

/// The periods of `text`, separated by `:`.
fn parse_schedule(text: &str) -> Result<Schedule, TimeControlError> {
    let periods = text
        .split(':')
        .map(|period| parse_period(text, period))
        .collect::<Result<Vec<_>, _>>()?;
    Schedule::new(periods)
}

/// One period of the whole value `text`: `[moves/]seconds[+increment|ddelay]`.
fn parse_period(text: &str, period: &str) -> Result<Period, TimeControlError> {
    if period.is_empty() {
        return Err(TimeControlError::EmptyPeriod {
            text: text.to_owned(),
        });
    }
    let (moves, timing) = match period.split_once('/') {
        Some((moves, timing)) => (Some(parse_moves(period, moves)?), timing),
        None => (None, period),
    };
    let (seconds, bonus) = split_bonus(timing);
    Ok(Period {
        moves,
        seconds: parse_number(period, seconds)?,
        bonus: match bonus {
            None => Bonus::None,
            Some(('+', n)) => Bonus::Increment(parse_number(period, n)?),
            Some((_, n)) => Bonus::Delay(parse_number(period, n)?),
        },
    })
}

/// The seconds of a period's timing, and its bonus mark (`+` or `d`) with the bonus number.
fn split_bonus(timing: &str) -> (&str, Option<(char, &str)>) {
    match timing.find(['+', 'd']) {
        Some(at) => {
            let (seconds, rest) = timing.split_at(at);
            let mut chars = rest.chars();
            let mark = chars.next().map(|mark| (mark, chars.as_str()));
            (seconds, mark)
        }
        None => (timing, None),
    }
}

/// A period's move count: a number other than zero.
fn parse_moves(period: &str, moves: &str) -> Result<NonZeroU32, TimeControlError> {
    NonZeroU32::new(parse_number(period, moves)?).ok_or_else(|| TimeControlError::ZeroMoves {
        period: period.to_owned(),
    })
}

/// A number of decimal digits only (no sign, no space) that fits a `u32`.
fn parse_number(period: &str, number: &str) -> Result<u32, TimeControlError> {
    let digits = !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit());
    digits
        .then(|| number.parse().ok())
        .flatten()
        .ok_or_else(|| TimeControlError::BadNumber {
            number: number.to_owned(),
            period: period.to_owned(),
        })
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Unknown => f.write_str("?"),
            TimeControl::Untimed => f.write_str("-"),
            TimeControl::Timed(schedule) => schedule.fmt(f),
        }
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.first.fmt(f)?;
        self.rest
            .iter()
            .try_for_each(|period| write!(f, ":{period}"))
    }
}

impl fmt::Display for Period {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(moves) = self.moves {
            write!(f, "{moves}/")?;
        }
        write!(f, "{}", self.seconds)?;
        match self.bonus {
            Bonus::None => Ok(()),
            Bonus::Increment(seconds) => write!(f, "+{seconds}"),
            Bonus::Delay(seconds) => write!(f, "d{seconds}"),
        }
    }
}

#[cfg(test)]
mod tests;
