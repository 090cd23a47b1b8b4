//! The chess clock (FIDE Article 6), sans-IO: time controls, a two-sided clock model driven by
//! presses or by a physical clock's reports ([`ClockReading`]), the ruling when a flag falls,
//! and `%clk` text.
//!
//! Nothing here reads a clock: the time is passed in as [`Millis`](crate::sensor::Millis).

pub mod flag;
pub mod format;
pub mod model;
pub mod reading;
pub mod side;
pub mod time_control;

pub use flag::flag_result;
pub use format::clk;
pub use model::{ChessClock, PressError};
pub use reading::{ClockReading, Flag};
pub use side::{ClockSide, ParseClockSideError};
pub use time_control::{Bonus, Period, Schedule, TimeControl, TimeControlError};
