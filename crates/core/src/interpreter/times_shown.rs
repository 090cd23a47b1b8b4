//! The last move's times followed as the clock shows them: after its mover's press, until the
//! opponent's press (or time given by the arbiter) makes them final; each change said by a
//! `clock` event.

use shakmaty::Color;

use super::Interpreter;
use super::move_times::TimesShown;
use crate::event::EventKind;
use crate::sensor::Millis;

impl Interpreter {
    /// The arbiter gave a player time: on the clock it is no increment of the last move, whose
    /// times, once its press has shown them, are final.
    pub(super) fn times_after_time_added(&mut self) {
        if self
            .times_due
            .is_some_and(|due| due.final_after_time_added())
        {
            self.times_due = None;
        }
    }

    /// `color` pressed at `t`, after what the press decided: the last move's times, if it is
    /// `color`'s, follow the press once the clock shows it; the opponent's press makes them
    /// final.
    pub(super) fn times_pressed(&mut self, t: Millis, color: Color) {
        let Some(due) = self.times_due.as_mut() else {
            return;
        };
        if !due.press(t, color) {
            self.times_due = None;
            return;
        }
        self.times_shown(t);
    }

    /// The clock may show the last move's press at `t` (a press, a report): its times follow.
    pub(super) fn times_shown(&mut self, t: Millis) {
        let (Some(due), Some(clock)) = (self.times_due.as_mut(), self.clock.as_ref()) else {
            return;
        };
        match due.shown(t, clock, self.game.plies()) {
            TimesShown::Unchanged => {}
            TimesShown::Final => self.times_due = None,
            TimesShown::Changed { ply, color, times } => self.emit(
                t,
                EventKind::Clock {
                    ply,
                    color,
                    clock: times,
                },
            ),
        }
    }
}
