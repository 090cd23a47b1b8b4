//! How long the engine is asked to think: fixed limits, or the clock's times.

use touchmove_core::clock::{Bonus, TimeControl};
use touchmove_core::event::ClockTimes;
use touchmove_core::sensor::Millis;
use touchmove_engine::SearchLimits;

/// How long the engine thinks per move when nothing else is said.
pub const DEFAULT_MOVETIME: Millis = 1000;

/// How long the engine is asked to think.
#[derive(Debug, Clone)]
pub enum Limits {
    /// The same limits for every search.
    Fixed(SearchLimits),
    /// The clock's times, and the increments of the time control's first period.
    Clock {
        /// Each side's increment.
        increment: Millis,
    },
}

impl Limits {
    /// The limits `--depth`, `--movetime` and the game's time control say, in that order of
    /// precedence (none: [`DEFAULT_MOVETIME`]).
    pub fn new(
        depth: Option<u8>,
        movetime: Option<Millis>,
        time_control: Option<&TimeControl>,
    ) -> Limits {
        match (depth, movetime, time_control) {
            (Some(depth), _, _) => Limits::Fixed(SearchLimits::Depth(depth)),
            (None, Some(ms), _) => Limits::Fixed(SearchLimits::MoveTime(ms)),
            (None, None, Some(TimeControl::Timed(schedule))) => {
                let increment = match schedule.period(0).bonus {
                    Bonus::Increment(seconds) => u64::from(seconds) * 1000,
                    Bonus::None | Bonus::Delay(_) => 0,
                };
                Limits::Clock { increment }
            }
            (None, None, _) => Limits::Fixed(SearchLimits::MoveTime(DEFAULT_MOVETIME)),
        }
    }

    /// The limits of a search for a hint: the fixed limits the engine's own moves are searched
    /// with, or with the clock's times (which are the player's to spend) the default movetime.
    pub fn hint(&self) -> SearchLimits {
        match self {
            Limits::Fixed(limits) => *limits,
            Limits::Clock { .. } => SearchLimits::MoveTime(DEFAULT_MOVETIME),
        }
    }

    /// The limits of a search with the clock at `clock`.
    pub fn search(&self, clock: Option<ClockTimes>) -> SearchLimits {
        match (self, clock) {
            (Limits::Fixed(limits), _) => *limits,
            (Limits::Clock { increment }, Some(times)) => SearchLimits::Clock {
                white: times.white,
                black: times.black,
                white_increment: *increment,
                black_increment: *increment,
            },
            (Limits::Clock { .. }, None) => SearchLimits::MoveTime(DEFAULT_MOVETIME),
        }
    }
}
