//! The emulated chess clock (a DGT XL plugged into the board): two times counting down, a
//! lever, and which side runs. Time is passed in; nothing here reads a clock.

use crate::emulation::{ClockModel, ClockSide};
use shakmaty::Color;

use touchmove_boards::dgt::wire::clock::ClockReport;
use touchmove_boards::dgt::wire::clock::ClockTime;
use touchmove_boards::dgt::wire::protocol::{clock_flag, clock_status};
use touchmove_core::sensor::Millis;

/// How the emulated clock is set up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockConfig {
    /// Each player's time at the start, in ms.
    pub initial_ms: Millis,
    /// The Fischer increment added to a player's time when they press, in ms.
    pub increment_ms: Millis,
    /// The side of the clock that White's time is on.
    pub white: ClockSide,
    /// How the clock reports its lever.
    pub model: ClockModel,
}

impl Default for ClockConfig {
    /// Five minutes each, White on the left.
    fn default() -> ClockConfig {
        ClockConfig {
            initial_ms: 5 * 60_000,
            increment_ms: 0,
            white: ClockSide::Left,
            model: ClockModel::Xl,
        }
    }
}

/// The clock's state: the times left as of `since`, the side that runs, the lever.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct EmulatedClock {
    left: Millis,
    right: Millis,
    running: Option<ClockSide>,
    lever_high: ClockSide,
    since: Millis,
    white: ClockSide,
    increment_ms: Millis,
    model: ClockModel,
}

impl EmulatedClock {
    /// A stopped clock, the lever up on the side of `to_move` (whose time runs first).
    pub(super) fn new(config: ClockConfig, to_move: Color) -> EmulatedClock {
        let mut clock = EmulatedClock {
            left: config.initial_ms,
            right: config.initial_ms,
            running: None,
            lever_high: config.white,
            since: 0,
            white: config.white,
            increment_ms: config.increment_ms,
            model: config.model,
        };
        clock.lever_high = clock.side_of(to_move);
        clock
    }

    fn side_of(&self, color: Color) -> ClockSide {
        match color {
            Color::White => self.white,
            Color::Black => self.white.other(),
        }
    }

    /// Starts the time of the side whose lever is up.
    pub(super) fn start(&mut self, at: Millis) {
        self.settle(at);
        self.running = Some(self.lever_high);
    }

    /// `color` presses: their lever goes down, their increment is added, the other side's
    /// time runs. A side whose time is out stays blocked at zero.
    pub(super) fn press(&mut self, at: Millis, color: Color) {
        self.settle(at);
        let side = self.side_of(color);
        let increment = self.increment_ms;
        let time = self.time_mut(side);
        if *time > 0 {
            *time = time.saturating_add(increment);
        }
        let other = side.other();
        self.lever_high = other;
        self.running = Some(other);
    }

    fn time_mut(&mut self, side: ClockSide) -> &mut Millis {
        match side {
            ClockSide::Left => &mut self.left,
            ClockSide::Right => &mut self.right,
        }
    }

    /// The host sets both times and which side runs (`None`: stopped). A DGT 3000 reports its
    /// lever high on the side set running.
    pub(super) fn set(&mut self, at: Millis, left: Millis, right: Millis, run: Option<ClockSide>) {
        self.settle(at);
        self.left = left;
        self.right = right;
        self.running = run;
        if let (ClockModel::Dgt3000, Some(side)) = (self.model, run) {
            self.lever_high = side;
        }
    }

    /// Takes the running time off up to `at`.
    fn settle(&mut self, at: Millis) {
        let elapsed = at.saturating_sub(self.since);
        match self.running {
            Some(ClockSide::Left) => self.left = self.left.saturating_sub(elapsed),
            Some(ClockSide::Right) => self.right = self.right.saturating_sub(elapsed),
            None => {}
        }
        self.since = self.since.max(at);
    }

    /// The time `side` has left at `at`.
    fn left_at(&self, side: ClockSide, at: Millis) -> Millis {
        let base = match side {
            ClockSide::Left => self.left,
            ClockSide::Right => self.right,
        };
        if self.running == Some(side) {
            base.saturating_sub(at.saturating_sub(self.since))
        } else {
            base
        }
    }

    /// The BWTIME report at `at`.
    pub(super) fn report(&self, at: Millis) -> ClockReport {
        let mut status = 0;
        if self.running.is_some() {
            status |= clock_status::RUNNING;
        }
        if self.lever_high == ClockSide::Right {
            status |= clock_status::LEVER_RIGHT_HIGH;
        }
        match self.running {
            Some(ClockSide::Right) => status |= clock_status::RIGHT_TO_MOVE,
            Some(ClockSide::Left) => status |= clock_status::LEFT_TO_MOVE,
            None => {}
        }
        ClockReport::from_status(
            self.shown(ClockSide::Right, at),
            self.shown(ClockSide::Left, at),
            status,
        )
    }

    /// What `side` of the display shows at `at`: its time, and the final flag once the time
    /// is out (the clock is then blocked at zero for that player).
    fn shown(&self, side: ClockSide, at: Millis) -> ClockTime {
        let left = self.left_at(side, at);
        let time = ClockTime::from_millis(left);
        if left == 0 {
            time.with_flag(clock_flag::FINAL)
        } else {
            time
        }
    }

    /// When the running side's display (whole seconds, rounded up) next changes after `at`;
    /// `None` when the clock is stopped or the time is out.
    pub(super) fn next_display_change(&self, at: Millis) -> Option<Millis> {
        let side = self.running?;
        let left = self.left_at(side, at);
        (left > 0).then(|| at + left - (left - 1) / 1000 * 1000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_press_runs_the_other_side_and_raises_its_lever() {
        let mut clock = EmulatedClock::new(ClockConfig::default(), Color::White);
        clock.start(0);
        assert_eq!(clock.report(0).status(), 0x01 | 0x08);
        clock.press(2_500, Color::White);
        let report = clock.report(4_000);
        assert_eq!(report.status(), 0x01 | 0x02 | 0x10);
        assert_eq!(report.left, ClockTime::from_millis(297_500));
        assert_eq!(report.right, ClockTime::from_millis(298_500));
    }

    #[test]
    fn a_press_adds_the_increment_and_an_empty_side_shows_its_final_flag() {
        let config = ClockConfig {
            initial_ms: 3_000,
            increment_ms: 2_000,
            ..ClockConfig::default()
        };
        let mut clock = EmulatedClock::new(config, Color::White);
        clock.start(0);
        clock.press(1_000, Color::White);
        let report = clock.report(1_000);
        assert_eq!(report.left, ClockTime::from_millis(4_000));
        assert_eq!(report.right.flag, 0);
        let out = clock.report(10_000);
        assert_eq!(out.right, ClockTime::from_millis(0).with_flag(0x01));
        assert_eq!(out.left.flag, 0);
        assert_eq!(clock.next_display_change(10_000), None);
    }

    #[test]
    fn a_dgt_xl_keeps_its_lever_where_the_hands_left_it_a_dgt_3000_follows_the_host() {
        for (model, lever) in [(ClockModel::Xl, 0x00), (ClockModel::Dgt3000, 0x02)] {
            let config = ClockConfig {
                model,
                ..ClockConfig::default()
            };
            // White (left) to move: the lever is up on the left.
            let mut clock = EmulatedClock::new(config, Color::White);
            clock.start(0);
            // The host sets Black's time (right) running: 0x10 says the right runs; the
            // lever's bit 0x02 (high on the right) only on the DGT 3000.
            clock.set(1_000, 60_000, 60_000, Some(ClockSide::Right));
            assert_eq!(
                clock.report(1_000).status(),
                0x01 | 0x10 | lever,
                "{model:?}"
            );
            // Stopped by the host: the lever stays where it was.
            clock.set(2_000, 60_000, 60_000, None);
            assert_eq!(clock.report(2_000).status(), lever, "{model:?}");
        }
    }

    #[test]
    fn the_display_changes_on_whole_seconds() {
        let mut clock = EmulatedClock::new(ClockConfig::default(), Color::White);
        assert_eq!(clock.next_display_change(0), None);
        clock.start(0);
        assert_eq!(clock.next_display_change(0), Some(1_000));
        assert_eq!(clock.next_display_change(1_000), Some(2_000));
        clock.press(1_250, Color::White);
        assert_eq!(clock.next_display_change(1_250), Some(2_250));
        clock.set(3_000, 10_000, 400, Some(ClockSide::Right));
        assert_eq!(clock.next_display_change(3_000), Some(3_400));
        assert_eq!(clock.next_display_change(3_400), None);
    }
}
