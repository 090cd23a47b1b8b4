//! Which side of a DGT clock is White's: never assumed for good, learnt from the clock.
//!
//! A clock may stand either way round beside the board. Until the sides are known, White is
//! taken to sit on the clock's left (on the right when the board stands turned round: a hint,
//! not a rule). The first press of the game made while a clock was running completes a move:
//! the one just decided, or (a quick press) one the board has not reported yet. The side the
//! presser pressed is theirs. A press on a stopped clock
//! proves nothing (an arbiter starting White's time presses Black's side), and so does a press
//! on a clock seen moving its lever bit with the host's settings (a DGT 3000: the press of the
//! side the host just set running goes unseen, so the next press seen may not be of the side
//! that moved last). An option can fix the sides, and then nothing is learnt.

use shakmaty::Color;
use touchmove_core::clock::ClockSide;

/// Which side of the clock is White's, and whether that is settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockSides {
    white: ClockSide,
    settled: bool,
}

impl ClockSides {
    /// Sides fixed by the user: White's time on `white`.
    pub fn fixed(white: ClockSide) -> ClockSides {
        ClockSides {
            white,
            settled: true,
        }
    }

    /// Sides to be learnt, White taken to be on the left until then.
    pub fn unknown() -> ClockSides {
        ClockSides {
            white: ClockSide::Left,
            settled: false,
        }
    }

    /// The side of White's time (as far as is known).
    pub fn white(&self) -> ClockSide {
        self.white
    }

    /// The side of White's time, once that is settled.
    pub fn settled_white(&self) -> Option<ClockSide> {
        self.settled.then_some(self.white)
    }

    /// The board stands turned round (`rotated`) or the right way: until the sides are
    /// learnt, White is taken to sit on the right of a turned board's clock.
    pub fn board_turned(&mut self, rotated: bool) {
        if !self.settled {
            self.white = if rotated {
                ClockSide::Right
            } else {
                ClockSide::Left
            };
        }
    }

    /// The player on `side`, taken to be `presser`, pressed the running clock (or one set by
    /// the host). The first such press settles the sides. Returns whether the sides changed.
    pub fn pressed(&mut self, side: ClockSide, presser: Color) -> bool {
        if self.settled {
            return false;
        }
        self.settled = true;
        // The presser's time is on `side`.
        let white = match presser {
            Color::White => side,
            Color::Black => side.other(),
        };
        std::mem::replace(&mut self.white, white) != white
    }

    /// A recording showed White's time on `white`: the sides are settled so, unless an option
    /// fixed them.
    pub fn recorded(&mut self, white: ClockSide) {
        if !self.settled {
            self.white = white;
            self.settled = true;
        }
    }

    /// The colour of the player on `side`.
    pub fn color_of(&self, side: ClockSide) -> Color {
        side.color(self.white)
    }
}

/// How far the sums compared by [`sides_from_times`] can be from the truth: each of the four
/// times is shown to the second, so each sum is off by up to two seconds.
const TIMES_RESOLUTION_MS: u64 = 2 * 2_000;

/// Which side shows White's time, read from a clock showing `left` and `right` beside the
/// times a recording last saw (`white`, `black`), when the times tell.
///
/// A clock's times only go down (no increment is added while nobody watches, as far as this
/// needs): the right way round, the sum of the two changes is at most the wrong way round's.
/// The times tell when the two sums differ by more than the clock's rounding can make up;
/// two close times (the start of a game, an even race) do not.
pub fn sides_from_times(left: u64, right: u64, white: u64, black: u64) -> Option<ClockSide> {
    let straight = left.abs_diff(white).saturating_add(right.abs_diff(black));
    let crossed = left.abs_diff(black).saturating_add(right.abs_diff(white));
    if crossed > straight.saturating_add(TIMES_RESOLUTION_MS) {
        Some(ClockSide::Left)
    } else if straight > crossed.saturating_add(TIMES_RESOLUTION_MS) {
        Some(ClockSide::Right)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_tell_the_sides_only_beyond_the_clock_s_rounding() {
        // White had 60 s, Black 55 s; 2 s of White's time ran meanwhile.
        assert_eq!(
            sides_from_times(58_000, 55_000, 60_000, 55_000),
            Some(ClockSide::Left)
        );
        assert_eq!(
            sides_from_times(55_000, 58_000, 60_000, 55_000),
            Some(ClockSide::Right)
        );
        // White 9:56:30, Black 9:56:29, then White's time ran 2 s: the sums are 2 s apart at
        // most, whichever way round; only the clock's running side can tell.
        let (white, black) = (35_790_000, 35_789_000);
        assert_eq!(sides_from_times(white - 2_000, black, white, black), None);
        assert_eq!(sides_from_times(black, white - 2_000, white, black), None);
    }

    #[test]
    fn the_first_running_press_settles_the_sides() {
        let mut sides = ClockSides::unknown();
        assert_eq!(
            sides.color_of(ClockSide::Left),
            Color::White,
            "the left until known"
        );
        // White, to move, presses the right side: White sits on the right.
        assert!(sides.pressed(ClockSide::Right, Color::White));
        assert_eq!(sides.color_of(ClockSide::Right), Color::White);
        assert!(
            !sides.pressed(ClockSide::Left, Color::White),
            "settled once"
        );
        assert_eq!(sides.color_of(ClockSide::Left), Color::Black);
        // Black presses its own side: White's is the other.
        let mut sides = ClockSides::unknown();
        assert!(!sides.pressed(ClockSide::Right, Color::Black));
        assert_eq!(sides.white(), ClockSide::Left);
    }

    #[test]
    fn a_turned_board_is_a_hint_until_the_sides_are_learnt() {
        let mut sides = ClockSides::unknown();
        sides.board_turned(true);
        assert_eq!(sides.white(), ClockSide::Right);
        assert!(
            sides.pressed(ClockSide::Left, Color::White),
            "the press overrules the hint"
        );
        sides.board_turned(true);
        assert_eq!(sides.white(), ClockSide::Left);
    }

    #[test]
    fn fixed_sides_learn_nothing() {
        let mut sides = ClockSides::fixed(ClockSide::Right);
        sides.board_turned(false);
        assert!(!sides.pressed(ClockSide::Left, Color::White));
        assert_eq!(sides.color_of(ClockSide::Right), Color::White);
    }
}
