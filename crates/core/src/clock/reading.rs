//! What a physical clock reports about itself: both times, the side that runs, and its flags.
//! Protocol drivers (the DGT BWTIME report) translate into this; the game clock follows it.

use shakmaty::{ByColor, Color};

use super::side::ClockSide;
use crate::event::ClockTimes;

/// The flag a clock shows for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Flag {
    /// The time of a period ran out and the clock went on into the next one: a flag fall only
    /// if the player had not made the period's moves (the clock cannot tell; the game can).
    PeriodEnded,
    /// The player's last period ran out: the clock is blocked at zero.
    Fallen,
}

/// One report of a physical clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockReading {
    /// Both players' remaining time as the clock shows it.
    pub times: ClockTimes,
    /// The side whose time runs (`None`: the clock is stopped).
    pub running: Option<Color>,
    /// The flag each player's side of the clock shows, if any.
    pub flags: ByColor<Option<Flag>>,
    /// The side of the clock that shows White's time, once the host has settled it; `None`
    /// while it is unknown or for a clock without sides.
    pub white_side: Option<ClockSide>,
    /// Whether the clock says its battery is low (`None`: it says nothing of it). A board's
    /// health, not the game's: the sensor log does not keep it.
    pub battery_low: Option<bool>,
}

impl ClockReading {
    /// A reading without flags.
    pub fn new(times: ClockTimes, running: Option<Color>) -> ClockReading {
        ClockReading {
            times,
            running,
            flags: ByColor::new_with(|_| None),
            white_side: None,
            battery_low: None,
        }
    }

    /// The same reading with what the clock says of its battery.
    pub fn with_battery_low(mut self, low: bool) -> ClockReading {
        self.battery_low = Some(low);
        self
    }

    /// The same reading with White's time known to be on the clock's `white_side`.
    pub fn with_white_side(mut self, white_side: Option<ClockSide>) -> ClockReading {
        self.white_side = white_side;
        self
    }

    /// The same reading with `flag` shown on `color`'s side.
    pub fn with_flag(mut self, color: Color, flag: Flag) -> ClockReading {
        *self.flags.get_mut(color) = Some(flag);
        self
    }
}
