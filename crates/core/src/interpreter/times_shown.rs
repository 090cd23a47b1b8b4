//! The last move's times followed as the clock shows them: after its mover's press, until the
//! opponent's press (or time given by the arbiter) makes them final; each change said by a
//! `clock` event.

use shakmaty::Color;

use super::Interpreter;
use crate::event::EventKind;
use crate::sensor::Millis;

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
