//! A move's times on a physical clock: what the clock showed once the press that completed the
//! move was made, the increment included. A move decided before its press carries the times of
//! that instant; the press (and, on a reporting clock, its report) gives the move its times, said
//! by a `clock` event.

use shakmaty::Color;

use crate::event::ClockTimes;
use crate::sensor::Millis;

/// The last decided move, whose times wait for its mover's press.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct TimesDue {
    /// The move's ply.
    pub(super) ply: u32,
    /// The side that made it.
    pub(super) mover: Color,
    /// When the mover pressed, once they have since the move was decided.
    pub(super) pressed: Option<Millis>,
    /// The times the move carries so far.
    shown: Option<ClockTimes>,
    /// Whether `shown` already holds times after the press: then only the mover's time may
    /// still change (an increment the host puts on the clock after the press).
    pub(super) after_press: bool,
}

impl TimesDue {
    /// Move `ply` by `mover`, decided with `shown`.
    pub(super) fn new(ply: u32, mover: Color, shown: Option<ClockTimes>) -> TimesDue {
        TimesDue {
            ply,
            mover,
            pressed: None,
            shown,
            after_press: false,
        }
    }

    /// The move's times once the clock shows `now`: the mover's time as shown, the opponent's
    /// as first shown after the press (the opponent's time runs on after it). `None` when
    /// nothing changed.
    pub(super) fn update(&mut self, now: ClockTimes) -> Option<ClockTimes> {
        let times = match self.shown {
            Some(shown) if self.after_press => shown.with(self.mover, now.get(self.mover)),
            _ => now,
        };
        self.after_press = true;
        (self.shown != Some(times)).then(|| {
            self.shown = Some(times);
            times
        })
    }
}
