//! A clock kept elsewhere (an online game's server) put on the DGT clock.
//!
//! The set-and-run command carries whole seconds: a time such as 591.2 s cannot be put on the
//! clock as it is. The clock shows whole seconds rounded up, so each state of the server's clock
//! is set twice: at once, each time rounded up (the clock shows what the server's clock would,
//! and the right side runs), and again at the instant the running side's time is a whole number
//! of seconds, exact from then on. A clock that was out of reach (the board unplugged, or not
//! heard) while the game's clock ran on is set again once it is back, to the times as they
//! stand then. Sans-IO: the time is passed in, the commands come out.

use shakmaty::Color;

use touchmove_core::clock::ClockSide;
use touchmove_core::event::ClockTimes;
use touchmove_core::sensor::Millis;

use super::host_clock::set_and_run;
use crate::dgt::wire::command::ClockCommand;

/// The setting of the clock waiting for its instant, and the state last followed.
#[derive(Debug, Clone, Default)]
pub struct FollowedClock {
    /// When to send it, and the command.
    pending: Option<(Millis, ClockCommand)>,
    /// The game's clock as last followed: when, its times, the side running, White's side.
    last: Option<(Millis, ClockTimes, Option<Color>, ClockSide)>,
}

impl FollowedClock {
    /// The game's clock stood at `times` at `now`, `running`'s time running: the command that
    /// sets the clock to them (White's on `white`) now; the exact one waits for the next whole
    /// second of the running time (a later state replaces it if it has not been sent).
    pub fn follow(
        &mut self,
        now: Millis,
        times: ClockTimes,
        running: Option<Color>,
        white: ClockSide,
    ) -> ClockCommand {
        self.last = Some((now, times, running, white));
        self.pending = running.map(|color| {
            let time = times.get(color);
            let wait = time % 1000;
            let mut exact = times;
            match color {
                Color::White => exact.white = time - wait,
                Color::Black => exact.black = time - wait,
            }
            (now.saturating_add(wait), set_and_run(exact, running, white))
        });
        // Rounded up as the command carries it: shown as the server's clock would be.
        set_and_run(times, running, white)
    }

    /// The clock is within reach again at `now` (the board plugged in again, or heard again):
    /// the command that sets it to the game's clock as it stands now (the running side's time
    /// counted down since it was last followed), if one is followed. The commands sent while
    /// the clock was out of reach carried times that ran on meanwhile.
    pub fn again(&mut self, now: Millis) -> Option<ClockCommand> {
        let (at, mut times, running, white) = self.last?;
        if let Some(color) = running {
            let ran = now.saturating_sub(at);
            match color {
                Color::White => times.white = times.white.saturating_sub(ran),
                Color::Black => times.black = times.black.saturating_sub(ran),
            }
        }
        Some(self.follow(now, times, running, white))
    }

    /// Nothing more is to be set (the game is over).
    pub fn stop(&mut self) {
        self.pending = None;
        self.last = None;
    }

    /// When the waiting setting is due, if one waits.
    pub fn poll_timeout(&self) -> Option<Millis> {
        self.pending.as_ref().map(|(at, _)| *at)
    }

    /// The setting due at `now`, if one is.
    pub fn due(&mut self, now: Millis) -> Option<ClockCommand> {
        let (at, _) = self.pending.as_ref()?;
        if *at > now {
            return None;
        }
        self.pending.take().map(|(_, command)| command)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dgt::wire::command::{ClockRun, ClockSetting};

    fn setting(minutes: u8, seconds: u8) -> ClockSetting {
        ClockSetting {
            hours: 0,
            minutes,
            seconds,
        }
    }

    #[test]
    fn the_running_time_is_set_when_it_reaches_a_whole_second() {
        let mut clock = FollowedClock::default();
        // White 591.202 s running, Black 605.1 s; White's time on the left.
        let times = ClockTimes {
            white: 591_202,
            black: 605_100,
        };
        // At once, rounded up as the clock shows them: White's 591.202 s 9:52, running, Black's
        // 605.1 s 10:06.
        let now = clock.follow(10_000, times, Some(Color::White), ClockSide::Left);
        assert_eq!(
            now,
            ClockCommand::SetAndRun {
                left: setting(9, 52),
                right: setting(10, 6),
                run: ClockRun::Left,
            }
        );
        assert_eq!(clock.poll_timeout(), Some(10_202));
        assert_eq!(clock.due(10_201), None);
        // At 10.202 s White has 591.000 s: 9:51 exactly; Black's 605.1 s still 10:06.
        assert_eq!(
            clock.due(10_202),
            Some(ClockCommand::SetAndRun {
                left: setting(9, 51),
                right: setting(10, 6),
                run: ClockRun::Left,
            })
        );
        assert_eq!(clock.poll_timeout(), None);
    }

    #[test]
    fn a_later_state_replaces_the_waiting_one_and_a_stopped_clock_is_set_once() {
        let mut clock = FollowedClock::default();
        let times = ClockTimes {
            white: 60_900,
            black: 30_400,
        };
        let _ = clock.follow(0, times, Some(Color::Black), ClockSide::Right);
        assert_eq!(clock.poll_timeout(), Some(400));
        // Stopped: Black 30.4 s as 0:31 on the left, White 60.9 s as 1:01 on the right, at
        // once and only then.
        let now = clock.follow(100, times, None, ClockSide::Right);
        assert_eq!(
            now,
            ClockCommand::SetAndRun {
                left: setting(0, 31),
                right: setting(1, 1),
                run: ClockRun::Neither,
            }
        );
        assert_eq!(clock.poll_timeout(), None);
        let _ = clock.follow(200, times, Some(Color::White), ClockSide::Right);
        clock.stop();
        assert_eq!(clock.due(10_000), None);
        assert_eq!(clock.again(10_000), None, "a game over sets nothing again");
    }

    #[test]
    fn a_clock_back_in_reach_is_set_to_the_times_as_they_stand() {
        let mut clock = FollowedClock::default();
        assert_eq!(clock.again(5_000), None, "nothing followed yet");
        // White 60.5 s running at 1 s; the board unplugged, back at 11 s: White has 50.5 s.
        let times = ClockTimes {
            white: 60_500,
            black: 30_000,
        };
        let _ = clock.follow(1_000, times, Some(Color::White), ClockSide::Left);
        assert_eq!(
            clock.again(11_000),
            Some(ClockCommand::SetAndRun {
                left: setting(0, 51),
                right: setting(0, 30),
                run: ClockRun::Left,
            })
        );
        // Exact at 11.5 s, when White has 50 s.
        assert_eq!(clock.poll_timeout(), Some(11_500));
        assert_eq!(
            clock.due(11_500),
            Some(ClockCommand::SetAndRun {
                left: setting(0, 50),
                right: setting(0, 30),
                run: ClockRun::Left,
            })
        );
    }
}
