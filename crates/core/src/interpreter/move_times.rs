//! A move's times on a physical clock: what the clock showed once the press that completed the
//! move was made, the increment included. A move decided before its press carries the times of
//! that instant; the press (and, on a reporting clock, its report) gives the move its times, said
//! by a `clock` event.

use shakmaty::Color;

use super::game_clock::GameClock;
use crate::event::ClockTimes;
use crate::sensor::Millis;

/// The last decided move, whose times wait for its mover's press.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct TimesDue {
    /// The move's ply.
    ply: u32,
    /// The side that made it.
    mover: Color,
    /// When the mover pressed, once they have since the move was decided.
    pressed: Option<Millis>,
    /// The times the move carries so far.
    shown: Option<ClockTimes>,
    /// Whether `shown` already holds times after the press: then only the mover's time may
    /// still change (an increment the host puts on the clock after the press).
    after_press: bool,
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
    fn update(&mut self, now: ClockTimes) -> Option<ClockTimes> {
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

    /// The arbiter gave a player time: on the clock it is no increment of this move, so its
    /// times are final once its press has shown them (`true`).
    pub(super) fn final_after_time_added(&self) -> bool {
        self.after_press
    }

    /// `color` pressed at `t`: the mover's press is waited for on the clock (`true`); the
    /// opponent's runs the mover's side again, and the move's times are final (`false`).
    pub(super) fn press(&mut self, t: Millis, color: Color) -> bool {
        if color != self.mover {
            return false;
        }
        self.pressed = Some(t);
        true
    }

    /// What the clock at `t` says of the move's times, the game standing `plies` plies long.
    pub(super) fn shown(&mut self, t: Millis, clock: &GameClock, plies: usize) -> TimesShown {
        let Some(pressed) = self.pressed else {
            return TimesShown::Unchanged;
        };
        let standing = usize::try_from(self.ply).is_ok_and(|ply| ply <= plies);
        // Once the mover's side has run again (the opponent pressed: a press weighed late may
        // come after the clock's later reports), the move's times are final.
        if !standing || clock.ran_between(self.mover, pressed, t) {
            return TimesShown::Final;
        }
        if !clock.shows_press_of(self.mover, t) {
            return TimesShown::Unchanged;
        }
        match self.update(clock.times(t)) {
            Some(times) => TimesShown::Changed {
                ply: self.ply,
                color: self.mover,
                times,
            },
            None => TimesShown::Unchanged,
        }
    }
}

/// What the clock says of the last move's times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TimesShown {
    /// Nothing new (no press yet, or the clock does not show it yet, or the same times).
    Unchanged,
    /// The move's times changed: said by a `clock` event.
    Changed {
        /// The move's ply.
        ply: u32,
        /// The side that made it.
        color: Color,
        /// Its times now.
        times: ClockTimes,
    },
    /// The move's times are final: nothing is waited for any more.
    Final,
}
