//! How long the engine is asked to think: fixed limits, or the clock's times.

use touchmove::clock::{Bonus, TimeControl};
use touchmove::engine::SearchLimits;
use touchmove::event::ClockTimes;
use touchmove::sensor::Millis;

use super::super::args::PlayArgs;

/// How long the engine thinks per move when nothing else is said.
pub const DEFAULT_MOVETIME: Millis = 1000;

/// How long the engine is asked to think.
#[derive(Debug, Clone)]
pub(super) enum Limits {
    Fixed(SearchLimits),
    /// The clock's times, and the increments of the time control's first period.
    Clock {
        increment: Millis,
    },
}

impl Limits {
    pub(super) fn new(args: &PlayArgs) -> Limits {
        match (
            args.depth,
            args.movetime,
            &args.board.interpreter.time_control,
        ) {
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
    pub(super) fn hint(&self) -> SearchLimits {
        match self {
            Limits::Fixed(limits) => *limits,
            Limits::Clock { .. } => SearchLimits::MoveTime(DEFAULT_MOVETIME),
        }
    }

    /// The limits of a search with the clock at `clock`.
    pub(super) fn search(&self, clock: Option<ClockTimes>) -> SearchLimits {
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
