//! A move's times on a physical clock: what the clock showed once the press that completed the
//! move was made, the increment included. A move decided before its press carries the times of
//! that instant; the press (and, on a reporting clock, its report) gives the move its times, said
//! by a `clock` event.

use shakmaty::Color;

use super::Interpreter;
use crate::event::{ClockTimes, EventKind};
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
}

impl Interpreter {
    /// The arbiter gave a player time: on the clock it is no increment of the last move, whose
    /// times, once its press has shown them, are final.
    pub(super) fn times_after_time_added(&mut self) {
        if self.times_due.is_some_and(|due| due.after_press) {
            self.times_due = None;
        }
    }

    /// `color` pressed at `t`, after what the press decided: the last move's times, if it is
    /// `color`'s, follow the press once the clock shows it; the opponent's press makes them
    /// final.
    pub(super) fn times_pressed(&mut self, t: Millis, color: Color) {
        match self.times_due.as_mut() {
            Some(due) if due.mover == color => due.pressed = Some(t),
            // The opponent's press runs the mover's side again: the move's times are final.
            Some(_) => {
                self.times_due = None;
                return;
            }
            None => return,
        }
        self.times_shown(t);
    }

    /// The clock may show the last move's press at `t` (a press, a report): its times follow.
    pub(super) fn times_shown(&mut self, t: Millis) {
        let (Some(due), Some(clock)) = (self.times_due.as_mut(), self.clock.as_ref()) else {
            return;
        };
        let Some(pressed) = due.pressed else {
            return;
        };
        let standing = usize::try_from(due.ply).is_ok_and(|ply| ply <= self.game.plies());
        // Once the mover's side has run again (the opponent pressed: a press weighed late may
        // come after the clock's later reports), the move's times are final.
        if !standing || clock.ran_between(due.mover, pressed, t) {
            self.times_due = None;
            return;
        }
        if !clock.shows_press_of(due.mover, t) {
            return;
        }
        if let Some(times) = due.update(clock.times(t)) {
            let (ply, color) = (due.ply, due.mover);
            self.emit(
                t,
                EventKind::Clock {
                    ply,
                    color,
                    clock: times,
                },
            );
        }
    }
}
