//! A two-sided chess clock (FIDE Article 6), sans-IO: the time is passed in, never read.
//!
//! One side runs at a time. The player who completes a move presses: their clock stops, the
//! period's increment is added to them, and, when the move completes the period's move count,
//! the next period's time is added (unused time carries over); then the opponent's clock
//! runs. With a delay, the first seconds of each move are not counted. The clock can also
//! follow a physical clock: [`ChessClock::sync`] takes the times and the running side from its
//! reports and counts on from there.
//!
//! A clock without periods (`?` or `-`) has no time of its own: both sides show zero and no
//! flag falls until a [`ChessClock::sync`] gives it times.

use shakmaty::{ByColor, Color};

use super::time_control::{Bonus, Period, Schedule, TimeControl};
use crate::event::ClockTimes;
use crate::sensor::Millis;

/// A two-sided chess clock following a time control.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChessClock {
    /// The periods, or `None` when the time control has none.
    schedule: Option<Schedule>,
    /// The clock has times to count down (from its schedule or a physical clock's report).
    timed: bool,
    /// Each side's time and progress through the schedule.
    sides: ByColor<Side>,
    /// The side whose clock runs.
    running: Option<Color>,
    /// When the running side's time was last brought up to date.
    since: Millis,
    /// When the running side's current move began (its delay counts from here).
    move_start: Millis,
}

/// One side of the clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Side {
    /// The time left as of the clock's `since` (when running) or now (when stopped).
    remaining: Millis,
    /// The index of the period this side plays in.
    period: usize,
    /// The moves this side has completed in its current period.
    moves_in_period: u32,
}

/// Why a press was not counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PressError {
    /// The side that pressed is not the side whose clock runs.
    #[error("{color} pressed, but {color}'s clock is not running")]
    NotRunning {
        /// The side that pressed.
        color: Color,
    },
    /// The side that pressed had no time left: its flag fell before the press.
    #[error("{color} pressed after {color}'s flag fell")]
    FlagFallen {
        /// The side that pressed.
        color: Color,
    },
}

impl ChessClock {
    /// A stopped clock set for the first period of `time_control`, created at `now`.
    pub fn new(time_control: TimeControl, now: Millis) -> ChessClock {
        let schedule = match time_control {
            TimeControl::Timed(schedule) => Some(schedule),
            TimeControl::Unknown | TimeControl::Untimed => None,
        };
        let first = schedule.as_ref().map_or(0, |s| period_ms(s.period(0)));
        let side = Side {
            remaining: first,
            ..Side::default()
        };
        ChessClock {
            timed: schedule.is_some(),
            schedule,
            sides: ByColor::new_with(|_| side),
            running: None,
            since: now,
            move_start: now,
        }
    }

    /// Starts `color`'s clock at `now` (the other side's stops, with nothing added).
    pub fn start(&mut self, color: Color, now: Millis) {
        self.settle(now);
        self.run(color, now);
    }

    /// `color` completed a move and pressed at `now`: their increment and, at the end of a
    /// period, the next period's time are added to them, and the opponent's clock runs.
    ///
    /// A press by a side whose clock is not running changes nothing. A press after the flag
    /// fell stops the clock without adding time.
    pub fn press(&mut self, color: Color, now: Millis) -> Result<(), PressError> {
        if self.running != Some(color) {
            return Err(PressError::NotRunning { color });
        }
        self.settle(now);
        if self.timed && self.sides.get(color).remaining == 0 {
            self.running = None;
            return Err(PressError::FlagFallen { color });
        }
        self.complete_move(color);
        self.run(!color, now);
        Ok(())
    }

    /// The time `color` has left at `now`.
    pub fn remaining(&self, color: Color, now: Millis) -> Millis {
        let remaining = self.sides.get(color).remaining;
        match self.running {
            Some(running) if running == color => remaining.saturating_sub(self.charged(now)),
            _ => remaining,
        }
    }

    /// The side whose clock runs, if any.
    pub fn running(&self) -> Option<Color> {
        self.running
    }

    /// A side with no time left at `now` (the running side first), if any.
    pub fn flag(&self, now: Millis) -> Option<Color> {
        if !self.timed {
            return None;
        }
        let mut candidates = self.running.into_iter().chain([Color::White, Color::Black]);
        candidates.find(|&color| self.remaining(color, now) == 0)
    }

    /// Adds `ms` to `color`'s time (e.g. the two minutes of FIDE 7.5.5).
    pub fn add_time(&mut self, color: Color, ms: Millis) {
        let side = self.sides.get_mut(color);
        side.remaining = side.remaining.saturating_add(ms);
    }

    /// When the running side's flag will fall if nobody presses, or `None` when no clock runs
    /// or the clock has no times.
    #[must_use]
    pub fn poll_timeout(&self) -> Option<Millis> {
        let color = self.running.filter(|_| self.timed)?;
        Some(
            self.counting_from()
                .saturating_add(self.sides.get(color).remaining),
        )
    }

    /// Follows a physical clock's report at `now`: its times (`(white_ms, black_ms)`) and the
    /// side whose clock runs. The model counts on from these until the next report; a delay
    /// already under way for the same running side is not granted again.
    pub fn sync(&mut self, times: ClockTimes, running: Option<Color>, now: Millis) {
        self.sides.get_mut(Color::White).remaining = times.white;
        self.sides.get_mut(Color::Black).remaining = times.black;
        self.timed = true;
        if running != self.running {
            self.move_start = now;
        }
        self.running = running;
        self.since = now;
    }

    /// Charges the running side for the time since `since`, and moves `since` to `now`.
    fn settle(&mut self, now: Millis) {
        let charged = self.charged(now);
        if let Some(color) = self.running {
            let side = self.sides.get_mut(color);
            side.remaining = side.remaining.saturating_sub(charged);
        }
        self.since = self.since.max(now);
    }

    /// Starts `color`'s clock and a new move for them at `now`.
    fn run(&mut self, color: Color, now: Millis) {
        self.running = Some(color);
        self.since = now;
        self.move_start = now;
    }

    /// The time the running side is charged between `since` and `now` (none within the delay).
    fn charged(&self, now: Millis) -> Millis {
        now.saturating_sub(self.counting_from())
    }

    /// When the running side's time starts counting: `since`, or the end of the move's delay.
    fn counting_from(&self) -> Millis {
        let delay = self
            .running
            .and_then(|color| self.period_of(color))
            .map_or(0, delay_ms);
        self.since.max(self.move_start.saturating_add(delay))
    }

    /// The period `color` is playing in, when the clock has a schedule.
    fn period_of(&self, color: Color) -> Option<&Period> {
        let index = self.sides.get(color).period;
        self.schedule.as_ref().map(|s| s.period(index))
    }

    /// Counts a completed move for `color`: the increment, then the next period's time when
    /// this move completes the period.
    fn complete_move(&mut self, color: Color) {
        let Some(period) = self.period_of(color).copied() else {
            return;
        };
        let side = self.sides.get_mut(color);
        side.remaining = side.remaining.saturating_add(increment_ms(&period));
        if self.count_move(color) {
            let next = self.period_of(color).map_or(0, period_ms);
            let side = self.sides.get_mut(color);
            side.remaining = side.remaining.saturating_add(next);
        }
    }

    /// Counts a move `color` completed on a physical clock that keeps the times itself: the
    /// period and its move count go on, the times are left to the clock's reports. Returns
    /// whether the move completed the period.
    pub fn count_move(&mut self, color: Color) -> bool {
        let Some(period) = self.period_of(color).copied() else {
            return false;
        };
        let side = self.sides.get_mut(color);
        side.moves_in_period = side.moves_in_period.saturating_add(1);
        let completed = period
            .moves
            .is_some_and(|moves| moves.get() == side.moves_in_period);
        if completed {
            side.period = side.period.saturating_add(1);
            side.moves_in_period = 0;
        }
        completed
    }

    /// Whether `color` still owes moves in a period that has a move count (so running out of
    /// the period's time is a flag fall, FIDE 6.9); `false` when the clock has no schedule.
    pub fn owes_moves(&self, color: Color) -> bool {
        self.period_of(color).is_some_and(|p| p.moves.is_some())
    }
}

/// A period's time in milliseconds.
fn period_ms(period: &Period) -> Millis {
    Millis::from(period.seconds) * 1000
}

/// A period's Fischer increment in milliseconds (zero without one).
fn increment_ms(period: &Period) -> Millis {
    match period.bonus {
        Bonus::Increment(seconds) => Millis::from(seconds) * 1000,
        Bonus::None | Bonus::Delay(_) => 0,
    }
}

/// A period's delay in milliseconds (zero without one).
fn delay_ms(period: &Period) -> Millis {
    match period.bonus {
        Bonus::Delay(seconds) => Millis::from(seconds) * 1000,
        Bonus::None | Bonus::Increment(_) => 0,
    }
}

#[cfg(test)]
mod tests;
