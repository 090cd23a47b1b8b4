//! The game's clock inside the interpreter: a physical clock followed through its presses, or,
//! when the board has none, a software clock switched by the decided moves.

use shakmaty::Color;

use crate::clock::{ChessClock, TimeControl};
use crate::event::ClockTimes;
use crate::sensor::Millis;

/// The time a completed illegal move gives the opponent (FIDE 7.5.5).
pub const ILLEGAL_MOVE_PENALTY_MS: Millis = 120_000;

/// The clock of the game being interpreted.
#[derive(Debug, Clone)]
pub struct GameClock {
    time_control: TimeControl,
    clock: ChessClock,
    physical: bool,
}

impl GameClock {
    /// A clock for `time_control`, running for `to_move` from time 0.
    pub fn new(time_control: TimeControl, to_move: Color) -> GameClock {
        let mut clock = ChessClock::new(time_control.clone(), 0);
        clock.start(to_move, 0);
        GameClock {
            time_control,
            clock,
            physical: false,
        }
    }

    /// A fresh clock of the same time control for a new game.
    pub fn restarted(&self, to_move: Color) -> GameClock {
        GameClock::new(self.time_control.clone(), to_move)
    }

    /// `mover`'s move was decided at `t`: a software clock switches now (a physical one when
    /// its button is pressed).
    pub fn move_decided(&mut self, mover: Color, t: Millis) {
        if !self.physical {
            // A press the clock refuses (not that side's turn) changes nothing.
            let _ = self.clock.press(mover, t);
        }
    }

    /// `color` pressed the physical clock at `t`: from now on the clock follows the presses.
    pub fn pressed(&mut self, color: Color, t: Millis) {
        self.physical = true;
        let _ = self.clock.press(color, t);
    }

    /// Both players' remaining time at `t`.
    pub fn times(&self, t: Millis) -> ClockTimes {
        ClockTimes {
            white: self.clock.remaining(Color::White, t),
            black: self.clock.remaining(Color::Black, t),
        }
    }

    /// When the running side's flag falls, if a side is running.
    pub fn flag_due(&self) -> Option<Millis> {
        self.clock.poll_timeout()
    }

    /// The side whose flag has fallen at `t`, if any.
    pub fn fallen(&self, t: Millis) -> Option<Color> {
        self.clock.flag(t)
    }

    /// Gives `color` the penalty time of an opponent's completed illegal move.
    pub fn penalty_to(&mut self, color: Color) -> Millis {
        self.clock.add_time(color, ILLEGAL_MOVE_PENALTY_MS);
        ILLEGAL_MOVE_PENALTY_MS
    }
}
