//! The game's clock inside the interpreter: a physical clock followed through its reports (its
//! times and flags) or its presses, or, when the board has none, a software clock switched by
//! the decided moves.

use shakmaty::{ByColor, Color};

use crate::clock::{ChessClock, ClockReading, Flag, TimeControl};
use crate::event::ClockTimes;
use crate::sensor::Millis;

/// The time a completed illegal move gives the opponent (FIDE 7.5.5).
pub const ILLEGAL_MOVE_PENALTY_MS: Millis = 120_000;

/// A physical clock shows whole seconds: a side reported less than this above the time the
/// model has for it did not gain time (no increment, period or penalty is so small).
const DISPLAY_RESOLUTION_MS: Millis = 1_000;

/// What switches the clock's sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Driver {
    /// The decided moves (no clock on the board, or none seen yet).
    Moves,
    /// The presses of a physical clock.
    Presses,
    /// A physical clock's reports: its times and flags are followed, and the model neither
    /// counts down to a flag of its own nor adds time.
    Reports,
}

/// How many of a reporting clock's last reports are kept, to give the times of an instant
/// decided late (a press held for the board's reports is weighed with its own time).
const REPORTS_KEPT: usize = 4;

/// A reporting clock's times as the game took them from one report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Reported {
    /// When the report came.
    at: Millis,
    /// Both times as taken (the display's rounding undone).
    times: ClockTimes,
    /// The side running.
    running: Option<Color>,
}

impl Reported {
    /// The times `elapsed` ms after the report.
    fn times_after(&self, elapsed: Millis) -> ClockTimes {
        match self.running {
            Some(color) => self
                .times
                .with(color, self.times.get(color).saturating_sub(elapsed)),
            None => self.times,
        }
    }
}

/// The clock of the game being interpreted.
#[derive(Debug, Clone)]
pub struct GameClock {
    time_control: TimeControl,
    clock: ChessClock,
    driver: Driver,
    /// The flags of the last report (a flag counts when it appears, not while it stays);
    /// `None` before the first report, whose flags are left over from before and never count.
    shown_flags: Option<ByColor<Option<Flag>>>,
    /// While the decided moves switch the clock: the clock as it was before the last move's
    /// switch, with its mover and when it was decided. A first press by that mover after the
    /// decision is when the physical clock really switched.
    before_switch: Option<(ChessClock, Color, Millis)>,
    /// A reporting clock's last reports, the latest last.
    reported: [Option<Reported>; REPORTS_KEPT],
}

impl GameClock {
    /// A clock for `time_control`, running for `to_move` from `now`.
    pub fn new(time_control: TimeControl, to_move: Color, now: Millis) -> GameClock {
        let mut clock = ChessClock::new(time_control.clone(), now);
        clock.start(to_move, now);
        GameClock {
            time_control,
            clock,
            driver: Driver::Moves,
            shown_flags: None,
            before_switch: None,
            reported: [None; REPORTS_KEPT],
        }
    }

    /// A fresh clock of the same time control for a new game (flags still shown by a physical
    /// clock from the last game do not count again).
    pub fn restarted(&self, to_move: Color, now: Millis) -> GameClock {
        GameClock {
            shown_flags: self.shown_flags,
            ..GameClock::new(self.time_control.clone(), to_move, now)
        }
    }

    /// `mover`'s move was decided at `t`: a software clock switches now (a physical one when
    /// its button is pressed); a reporting clock keeps the times, and the move is counted
    /// towards its period here.
    pub fn move_decided(&mut self, mover: Color, t: Millis) {
        match self.driver {
            Driver::Reports => {
                self.clock.count_move(mover);
            }
            // A press the clock refuses (not that side's turn) changes nothing.
            Driver::Moves => {
                self.before_switch = Some((self.clock.clone(), mover, t));
                _ = self.clock.press(mover, t);
            }
            Driver::Presses => {}
        }
    }

    /// `color` pressed the physical clock at `t`: from now on the clock follows the presses
    /// (a reporting clock has switched its sides in its own report). The first press, by the
    /// player whose move was decided before it, switches the clock at the press: the time from
    /// the decision to the press is the mover's, as the physical clock charged it.
    pub fn pressed(&mut self, color: Color, t: Millis) {
        if self.driver == Driver::Reports {
            return;
        }
        let switched_early =
            std::mem::take(&mut self.before_switch).filter(|(_, mover, decided)| {
                self.driver == Driver::Moves && *mover == color && *decided <= t
            });
        if let Some((before, _, _)) = switched_early {
            self.clock = before;
        }
        self.driver = Driver::Presses;
        _ = self.clock.press(color, t);
    }

    /// The physical clock reported `reading` at `t`: from now on its times and flags are the
    /// clock's. Returns the side whose flag this report shows falling, if any: a final flag,
    /// or the end of a period whose moves the player had not made.
    pub fn follow(&mut self, reading: &ClockReading, t: Millis) -> Option<Color> {
        // The first report sets the times: until then they were the model's guess.
        let times = if self.driver == Driver::Reports {
            self.without_display_rounding(reading, t)
        } else {
            reading.times
        };
        self.driver = Driver::Reports;
        self.before_switch = None;
        self.clock.sync(times, reading.running, t);
        self.reported.rotate_left(1);
        if let Some(latest) = self.reported.last_mut() {
            *latest = Some(Reported {
                at: t,
                times,
                running: reading.running,
            });
        }
        let shown = self
            .shown_flags
            .replace(reading.flags)
            .unwrap_or(reading.flags);
        let appeared = ByColor::new_with(|color| {
            let flag = *reading.flags.get(color);
            flag.filter(|_| flag != *shown.get(color))
        });
        let fell = |color: Color| match appeared.get(color) {
            Some(Flag::Fallen) => true,
            Some(Flag::PeriodEnded) => self.clock.owes_moves(color),
            None => false,
        };
        // When both appear at once, the side whose time was running fell first.
        reading
            .running
            .into_iter()
            .chain([Color::White, Color::Black])
            .find(|&color| fell(color))
    }

    /// The times of `reading` at `t`, but a side reported less than the display's resolution
    /// above the model's time keeps the model's: the clock shows whole seconds, rounded up,
    /// and the side did not gain time. (The model, set from such reports, stays at or above
    /// the true time and comes down to it.)
    fn without_display_rounding(&self, reading: &ClockReading, t: Millis) -> ClockTimes {
        let kept = |color: Color| {
            let shown = reading.times.get(color);
            let model = self.clock.remaining(color, t);
            let rounded = shown > model && shown - model < DISPLAY_RESOLUTION_MS;
            if rounded { model } else { shown }
        };
        ClockTimes {
            white: kept(Color::White),
            black: kept(Color::Black),
        }
    }

    /// Both players' remaining time at `t`. On a reporting clock, an instant before its last
    /// report counts from the last report before it (a press weighed late, with its own time,
    /// is not given the times of a later press).
    pub fn times(&self, t: Millis) -> ClockTimes {
        if let Some(then) = self.report_in_force(t) {
            return then.times_after(t.saturating_sub(then.at));
        }
        ClockTimes {
            white: self.clock.remaining(Color::White, t),
            black: self.clock.remaining(Color::Black, t),
        }
    }

    /// Whether the times at `t` already show `mover`'s press: a clock switched by presses
    /// switched at it; a reporting clock once a report shows the opponent's side running.
    pub fn shows_press_of(&self, mover: Color, t: Millis) -> bool {
        match self.driver {
            Driver::Reports => {
                let running = match self.report_in_force(t) {
                    Some(then) => then.running,
                    None => self.clock.running(),
                };
                running == Some(!mover)
            }
            Driver::Presses => true,
            Driver::Moves => false,
        }
    }

    /// Whether a reporting clock reported `color`'s side running after `from` and up to `to`.
    pub fn ran_between(&self, color: Color, from: Millis, to: Millis) -> bool {
        self.driver == Driver::Reports
            && self
                .reported
                .iter()
                .flatten()
                .any(|then| then.at > from && then.at <= to && then.running == Some(color))
    }

    /// On a reporting clock, for an instant `t` before its last report, the last report before
    /// it (a press held for the board's reports is weighed with its own time, after later
    /// reports have come).
    fn report_in_force(&self, t: Millis) -> Option<&Reported> {
        let latest = self.reported.iter().flatten().last()?;
        if self.driver != Driver::Reports || latest.at <= t {
            return None;
        }
        self.reported
            .iter()
            .flatten()
            .rev()
            .find(|then| then.at <= t)
    }

    /// When the running side's flag falls, if a side is running.
    pub fn flag_due(&self) -> Option<Millis> {
        if self.driver == Driver::Reports {
            return None;
        }
        self.clock.poll_timeout()
    }

    /// The side whose flag has fallen at `t`, if any (a reporting clock says so itself).
    pub fn fallen(&self, t: Millis) -> Option<Color> {
        if self.driver == Driver::Reports {
            return None;
        }
        self.clock.flag(t)
    }

    /// Gives `color` the penalty time of an opponent's completed illegal move.
    pub fn penalty_to(&mut self, color: Color) -> Millis {
        self.add_time(color, ILLEGAL_MOVE_PENALTY_MS);
        ILLEGAL_MOVE_PENALTY_MS
    }

    /// Both sides' times are `times` from `t`, the running side running on from there (a
    /// physical clock is set so by the host: its next report says it).
    pub fn set_times(&mut self, times: ClockTimes, t: Millis) {
        // The arbiter's times stand: a press after the last decided move does not go back to
        // the clock as it was before that move.
        self.before_switch = None;
        let running = self.clock.running();
        self.clock.sync(times, running, t);
    }

    /// Gives `color` `ms` more (a physical clock is set so by the host: its next report says
    /// it).
    pub fn add_time(&mut self, color: Color, ms: Millis) {
        self.clock.add_time(color, ms);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(black: Millis) -> ClockReading {
        ClockReading::new(
            ClockTimes {
                white: 60_000,
                black,
            },
            Some(Color::Black),
        )
    }

    #[test]
    fn a_flag_counts_when_it_appears_not_while_it_stays() {
        let mut clock = GameClock::new(TimeControl::Unknown, Color::White, 0);
        assert_eq!(clock.follow(&reading(1_000), 100), None);
        let fallen = reading(0).with_flag(Color::Black, Flag::Fallen);
        assert_eq!(clock.follow(&fallen, 1_100), Some(Color::Black));
        assert_eq!(clock.follow(&fallen, 2_100), None);
        // A new game on the same clock, the flag still shown: it does not count again.
        let mut next = clock.restarted(Color::White, 2_500);
        assert_eq!(next.follow(&fallen, 3_000), None);
    }

    #[test]
    fn a_flag_in_the_first_report_is_left_over_from_before() {
        let mut clock = GameClock::new(TimeControl::Unknown, Color::White, 0);
        let fallen = reading(0).with_flag(Color::Black, Flag::Fallen);
        assert_eq!(clock.follow(&fallen, 100), None);
        // Cleared (the clock set again), then shown: now it counts.
        assert_eq!(clock.follow(&reading(1_000), 200), None);
        assert_eq!(clock.follow(&fallen, 1_200), Some(Color::Black));
    }

    #[test]
    fn an_instant_before_the_last_report_has_the_times_of_the_report_in_force_then() {
        let mut clock = GameClock::new(TimeControl::Unknown, Color::White, 0);
        let white_runs = |black: Millis| ClockReading {
            running: Some(Color::White),
            ..reading(black)
        };
        clock.follow(&white_runs(60_000), 1_000);
        // White pressed at 3_000: the clock shows 58_000 + 2_000 and Black running.
        clock.follow(&reading(60_000), 3_000);
        // Black pressed at 4_500, the report comes at once.
        clock.follow(&white_runs(60_500), 4_500);
        // A press weighed late with its own time, 3_500: Black had run 500 ms since 3_000.
        assert_eq!(
            clock.times(3_500),
            ClockTimes {
                white: 60_000,
                black: 59_500
            }
        );
        assert!(clock.shows_press_of(Color::White, 3_500));
        assert!(!clock.shows_press_of(Color::White, 4_500));
        // White's side ran again after 3_500 (Black's press), not between 3_000 and 4_000.
        assert!(clock.ran_between(Color::White, 3_500, 5_000));
        assert!(!clock.ran_between(Color::White, 3_000, 4_000));
        // At or after the last report, the model counts on: White runs from 60_000.
        assert_eq!(clock.times(5_000).white, 59_500);
    }

    #[test]
    fn a_reporting_clock_has_no_flag_of_its_own_and_keeps_its_times() {
        let mut clock = GameClock::new("10".parse().expect("a time control"), Color::White, 0);
        assert_eq!(clock.flag_due(), Some(10_000));
        clock.follow(&reading(5_000), 1_000);
        assert_eq!(clock.flag_due(), None);
        assert_eq!(clock.fallen(60_000), None);
        clock.penalty_to(Color::White);
        clock.move_decided(Color::Black, 2_000);
        clock.pressed(Color::Black, 2_000);
        // Only the clock's next report changes the times; until then they count on.
        assert_eq!(
            clock.times(3_000),
            ClockTimes {
                white: 180_000,
                black: 3_000
            }
        );
    }
}
