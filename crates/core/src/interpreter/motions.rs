//! When each square was last emptied and last filled, in the order the board reported it.
//!
//! An occupancy-only board shows a capture only as "the victim's square was emptied, then filled
//! again after the capturing piece left its square"; these order numbers are that evidence.

use shakmaty::Square;

use crate::sensor::Millis;

/// When a square was last emptied or filled: the time and the board report it came in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Stamp {
    t: Millis,
    report: u32,
}

/// A piece's rest on a square: set down at `since`, standing there `ms`, seen over `reports` of
/// the board's reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rest {
    /// When it was set down.
    pub since: Millis,
    /// How long it stood there before it was lifted.
    pub ms: Millis,
    /// The reports it was seen standing in (the one that showed it set down, and each later one
    /// before the one that showed it lifted).
    pub reports: u32,
}

/// Order numbers of the last lift and last place on every square, with their times.
#[derive(Debug, Clone)]
pub struct Motions {
    seq: u32,
    lifted: [u32; 64],
    placed: [u32; 64],
    lifted_at: [Stamp; 64],
    placed_at: [Stamp; 64],
    /// The board's reports so far (changes reported at one instant are one report).
    reports: u32,
    last_report: Option<Millis>,
}

impl Default for Motions {
    fn default() -> Motions {
        Motions {
            seq: 0,
            lifted: [0; 64],
            placed: [0; 64],
            lifted_at: [Stamp::default(); 64],
            placed_at: [Stamp::default(); 64],
            reports: 0,
            last_report: None,
        }
    }
}

impl Motions {
    /// The order number of the latest motion (0 before any).
    pub fn now(&self) -> u32 {
        self.seq
    }

    /// A piece left `square`.
    pub fn lift(&mut self, square: Square) {
        self.seq = self.seq.saturating_add(1);
        if let Some(slot) = self.lifted.get_mut(usize::from(square)) {
            *slot = self.seq;
        }
    }

    /// A piece arrived on `square`.
    pub fn place(&mut self, square: Square) {
        self.seq = self.seq.saturating_add(1);
        if let Some(slot) = self.placed.get_mut(usize::from(square)) {
            *slot = self.seq;
        }
    }

    /// A piece left `square` at `t`.
    pub fn lift_at(&mut self, square: Square, t: Millis) {
        self.lift(square);
        let stamp = self.stamp(t);
        if let Some(slot) = self.lifted_at.get_mut(usize::from(square)) {
            *slot = stamp;
        }
    }

    /// A piece arrived on `square` at `t`.
    pub fn place_at(&mut self, square: Square, t: Millis) {
        self.place(square);
        let stamp = self.stamp(t);
        if let Some(slot) = self.placed_at.get_mut(usize::from(square)) {
            *slot = stamp;
        }
    }

    /// The stamp of a change at `t`: a report at a new instant is the next report.
    fn stamp(&mut self, t: Millis) -> Stamp {
        if self.last_report != Some(t) {
            self.reports = self.reports.saturating_add(1);
            self.last_report = Some(t);
        }
        Stamp {
            t,
            report: self.reports,
        }
    }

    /// When `square` was last filled (0 before any).
    pub fn placed_time(&self, square: Square) -> Millis {
        stamp_at(&self.placed_at, square).t
    }

    /// When `square` was last emptied (0 before any).
    pub fn lifted_time(&self, square: Square) -> Millis {
        stamp_at(&self.lifted_at, square).t
    }

    /// The last rest on `square` that ended in a lift: from its last filling to its last
    /// emptying, when it was filled before it was emptied.
    pub fn rest_on(&self, square: Square) -> Option<Rest> {
        if order_at(&self.placed, square) == 0
            || order_at(&self.lifted, square) <= order_at(&self.placed, square)
        {
            return None;
        }
        let placed = stamp_at(&self.placed_at, square);
        let lifted = stamp_at(&self.lifted_at, square);
        Some(Rest {
            since: placed.t,
            ms: lifted.t.saturating_sub(placed.t),
            reports: lifted.report.saturating_sub(placed.report),
        })
    }

    /// Whether the piece on `square` was lifted after order number `since`.
    pub fn lifted_since(&self, square: Square, since: u32) -> bool {
        order_at(&self.lifted, square) > since
    }

    /// When `square` was last filled (0: not since the start).
    pub fn placed_at(&self, square: Square) -> u32 {
        order_at(&self.placed, square)
    }

    /// Whether `victim` was emptied after order number `since`, and filled again after that and
    /// after the piece on `from` was lifted: a capture on `victim` by that piece.
    pub fn captured_on(&self, victim: Square, from: Square, since: u32) -> bool {
        let emptied = order_at(&self.lifted, victim);
        let filled = order_at(&self.placed, victim);
        emptied > since && filled > emptied && filled > order_at(&self.lifted, from)
    }
}

/// The stamp kept for `square` (every square has one: 64 entries).
fn stamp_at(stamps: &[Stamp; 64], square: Square) -> Stamp {
    stamps.get(usize::from(square)).copied().unwrap_or_default()
}

/// The order number kept for `square` (every square has one: 64 entries).
fn order_at(numbers: &[u32; 64], square: Square) -> u32 {
    numbers.get(usize::from(square)).copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_piece_first_and_victim_first_are_both_captures() {
        let mut own_first = Motions::default();
        own_first.lift(Square::C1);
        own_first.lift(Square::G5);
        own_first.place(Square::G5);
        assert!(own_first.captured_on(Square::G5, Square::C1, 0));

        let mut victim_first = Motions::default();
        victim_first.lift(Square::G5);
        victim_first.lift(Square::C1);
        victim_first.place(Square::G5);
        assert!(victim_first.captured_on(Square::G5, Square::C1, 0));
    }

    #[test]
    fn a_victim_put_back_before_the_piece_was_lifted_is_no_capture() {
        let mut motions = Motions::default();
        motions.lift(Square::D7);
        motions.place(Square::D7);
        motions.lift(Square::D1);
        assert!(!motions.captured_on(Square::D7, Square::D1, 0));
    }

    #[test]
    fn a_rest_is_timed_and_counted_in_reports() {
        let mut motions = Motions::default();
        motions.lift_at(Square::A1, 1000);
        motions.place_at(Square::E1, 1400);
        assert_eq!(motions.rest_on(Square::E1), None);
        // Two more reports (other squares) while the rook stands on e1, one of two changes.
        motions.lift_at(Square::E8, 1600);
        motions.place_at(Square::D8, 1800);
        motions.lift_at(Square::D7, 1800);
        motions.lift_at(Square::E1, 2020);
        assert_eq!(
            motions.rest_on(Square::E1),
            Some(Rest {
                since: 1400,
                ms: 620,
                reports: 3
            })
        );
    }

    #[test]
    fn motions_before_the_turn_are_no_evidence() {
        let mut motions = Motions::default();
        motions.lift(Square::D7);
        motions.lift(Square::D1);
        motions.place(Square::D7);
        let turn_start = motions.now();
        assert!(!motions.captured_on(Square::D7, Square::D1, turn_start));
    }
}
