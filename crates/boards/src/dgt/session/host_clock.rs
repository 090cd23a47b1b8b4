//! A DGT clock the host has set, kept in step with the time control.
//!
//! A clock set by the set-and-run command counts the times down and follows its lever, but adds
//! nothing itself: no increment, no next period's time, no delay, no penalty. The host keeps a
//! model of the time control ([`ChessClock`]) and, whenever the model adds time the clock cannot
//! know of, sets the clock again. Sans-IO: the time is passed in, commands come out.

use shakmaty::Color;

use crate::dgt::wire::command::{ClockCommand, ClockRun, ClockSetting};
use touchmove_core::clock::{Bonus, ChessClock, ClockSide, TimeControl};
use touchmove_core::event::ClockTimes;
use touchmove_core::sensor::Millis;

/// The host's model of a clock it set.
#[derive(Debug, Clone)]
pub struct HostClock {
    clock: ChessClock,
    /// The side of White's time.
    white: ClockSide,
    /// The time control adds time at a press (increment, delay, or a period with a move count).
    adds_at_press: bool,
}

impl HostClock {
    /// A clock set at `now` to the first period of `time_control`, running for `to_move`, with
    /// White's time on `white`; and the command that sets it.
    pub fn start(
        time_control: TimeControl,
        to_move: Color,
        now: Millis,
        white: ClockSide,
    ) -> (HostClock, ClockCommand) {
        let adds_at_press = adds_at_press(&time_control);
        let mut clock = ChessClock::new(time_control, now);
        clock.start(to_move, now);
        let host = HostClock {
            clock,
            white,
            adds_at_press,
        };
        let command = host.set_and_run(now);
        (host, command)
    }

    /// `color` pressed at `now`: the command that puts what the time control adds on the clock,
    /// if it adds anything (a press out of turn changes nothing).
    pub fn pressed(&mut self, color: Color, now: Millis) -> Option<ClockCommand> {
        self.clock.press(color, now).ok()?;
        self.adds_at_press.then(|| self.set_and_run(now))
    }

    /// `color` is given `ms` at `now` (the two minutes of FIDE 7.5.5): the command that puts
    /// them on the clock.
    pub fn add_time(&mut self, color: Color, ms: Millis, now: Millis) -> ClockCommand {
        self.clock.add_time(color, ms);
        self.set_and_run(now)
    }

    /// Both sides' times are `times` at `now` (the arbiter corrected the clock): the command
    /// that puts them on the clock, the running side running on.
    pub fn set_times(&mut self, times: ClockTimes, now: Millis) -> ClockCommand {
        let running = self.clock.running();
        self.clock.sync(times, running, now);
        self.set_and_run(now)
    }

    /// The sides of the clock turned out the other way round (White's time on `white` now):
    /// the command that sets the clock again, each time on its player's side.
    pub fn turned(&mut self, white: ClockSide, now: Millis) -> ClockCommand {
        self.white = white;
        self.set_and_run(now)
    }

    /// The set-and-run command for the model's times at `now`, the running side running.
    fn set_and_run(&self, now: Millis) -> ClockCommand {
        let times = ClockTimes {
            white: self.clock.remaining(Color::White, now),
            black: self.clock.remaining(Color::Black, now),
        };
        set_and_run(times, self.clock.running(), self.white)
    }
}

/// The set-and-run command that puts `times` on the clock (White's on `white`), `running`'s
/// time running (`None`: stopped).
pub fn set_and_run(times: ClockTimes, running: Option<Color>, white: ClockSide) -> ClockCommand {
    let (white_time, black_time) = (setting(times.white), setting(times.black));
    let (left, right) = match white {
        ClockSide::Left => (white_time, black_time),
        ClockSide::Right => (black_time, white_time),
    };
    let run = match running.map(|color| ClockSide::of(color, white)) {
        None => ClockRun::Neither,
        Some(ClockSide::Left) => ClockRun::Left,
        Some(ClockSide::Right) => ClockRun::Right,
    };
    ClockCommand::SetAndRun { left, right, run }
}

/// Whether a clock set by command would miss time the time control adds at a press.
fn adds_at_press(time_control: &TimeControl) -> bool {
    match time_control {
        TimeControl::Timed(schedule) => schedule
            .periods()
            .any(|period| period.bonus != Bonus::None || period.moves.is_some()),
        TimeControl::Unknown | TimeControl::Untimed => false,
    }
}

/// A time as the set-and-run command carries it (whole seconds, rounded up as a clock shows
/// them; hours capped at 255).
fn setting(ms: Millis) -> ClockSetting {
    let seconds = ms.div_ceil(1000);
    ClockSetting {
        hours: u8::try_from(seconds / 3600).unwrap_or(u8::MAX),
        minutes: (seconds / 60 % 60) as u8,
        seconds: (seconds % 60) as u8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn time(minutes: u8, seconds: u8) -> ClockSetting {
        ClockSetting {
            hours: 0,
            minutes,
            seconds,
        }
    }

    fn start(time_control: &str) -> (HostClock, ClockCommand) {
        let time_control = time_control.parse().expect("a time control");
        HostClock::start(time_control, Color::White, 1_000, ClockSide::Left)
    }

    #[test]
    fn the_clock_is_set_to_the_first_period_running_for_white() {
        let (_, command) = start("300+2");
        assert_eq!(
            command,
            ClockCommand::SetAndRun {
                left: time(5, 0),
                right: time(5, 0),
                run: ClockRun::Left
            }
        );
    }

    #[test]
    fn an_increment_is_put_on_the_clock_after_each_press() {
        let (mut clock, _) = start("300+2");
        // White pressed after 10.5 s: 289.5 s + 2 s, shown as 4:52; Black's side runs.
        assert_eq!(
            clock.pressed(Color::White, 11_500),
            Some(ClockCommand::SetAndRun {
                left: time(4, 52),
                right: time(5, 0),
                run: ClockRun::Right
            })
        );
        // A press out of turn changes nothing.
        assert_eq!(clock.pressed(Color::White, 12_000), None);
    }

    #[test]
    fn times_the_arbiter_sets_are_put_on_the_clock_the_running_side_running_on() {
        let (mut clock, _) = start("300+2");
        // White's side runs (White is to move); White on the left.
        let set = ClockTimes {
            white: 240_000,
            black: 180_500,
        };
        assert_eq!(
            clock.set_times(set, 5_000),
            ClockCommand::SetAndRun {
                left: time(4, 0),
                right: time(3, 1),
                run: ClockRun::Left
            }
        );
        // White presses 10 s later: 230 s + 2 s.
        assert_eq!(
            clock.pressed(Color::White, 15_000),
            Some(ClockCommand::SetAndRun {
                left: time(3, 52),
                right: time(3, 1),
                run: ClockRun::Right
            })
        );
    }

    #[test]
    fn sudden_death_needs_no_help_but_a_penalty_does() {
        let (mut clock, _) = start("300");
        assert_eq!(clock.pressed(Color::White, 2_000), None);
        assert_eq!(
            clock.add_time(Color::White, 120_000, 2_000),
            ClockCommand::SetAndRun {
                left: time(6, 59),
                right: time(5, 0),
                run: ClockRun::Right
            }
        );
    }

    #[test]
    fn white_on_the_right_swaps_the_sides() {
        let time_control: TimeControl = "60+1".parse().expect("a time control");
        let (_, command) = HostClock::start(time_control, Color::Black, 0, ClockSide::Right);
        assert_eq!(
            command,
            ClockCommand::SetAndRun {
                left: time(1, 0),
                right: time(1, 0),
                run: ClockRun::Left
            }
        );
    }
}
