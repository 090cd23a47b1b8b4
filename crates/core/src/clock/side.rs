//! The two sides of a physical clock, as the players see it from the board: which one shows
//! White's time is learnt, given, or recorded, and everything else follows from it.

use std::fmt;
use std::str::FromStr;

use shakmaty::Color;

/// A side of a two-sided clock: its left or its right half, as the players see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClockSide {
    /// The left half.
    Left,
    /// The right half.
    Right,
}

impl ClockSide {
    /// Both sides, left first.
    pub const ALL: [ClockSide; 2] = [ClockSide::Left, ClockSide::Right];

    /// The other side.
    #[must_use]
    pub fn other(self) -> ClockSide {
        match self {
            ClockSide::Left => ClockSide::Right,
            ClockSide::Right => ClockSide::Left,
        }
    }

    /// The side of `color`'s time when White's is on `white`.
    #[must_use]
    pub fn of(color: Color, white: ClockSide) -> ClockSide {
        match color {
            Color::White => white,
            Color::Black => white.other(),
        }
    }

    /// Whose time this side shows when White's is on `white`.
    #[must_use]
    pub fn color(self, white: ClockSide) -> Color {
        Color::from_white(self == white)
    }

    /// `left` or `right`.
    pub fn as_str(self) -> &'static str {
        match self {
            ClockSide::Left => "left",
            ClockSide::Right => "right",
        }
    }
}

impl fmt::Display for ClockSide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A text that is neither `left` nor `right`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected `left` or `right`")]
pub struct ParseClockSideError;

impl FromStr for ClockSide {
    type Err = ParseClockSideError;

    fn from_str(text: &str) -> Result<ClockSide, ParseClockSideError> {
        match text {
            "left" => Ok(ClockSide::Left),
            "right" => Ok(ClockSide::Right),
            _ => Err(ParseClockSideError),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_s_colour_follows_white_s_side() {
        for white in ClockSide::ALL {
            for color in Color::ALL {
                assert_eq!(ClockSide::of(color, white).color(white), color);
            }
            assert_eq!(white.color(white), Color::White);
            assert_eq!(white.other().color(white), Color::Black);
        }
        for side in ClockSide::ALL {
            assert_eq!(side.as_str().parse(), Ok(side));
        }
        assert_eq!("middle".parse::<ClockSide>(), Err(ParseClockSideError));
    }
}
