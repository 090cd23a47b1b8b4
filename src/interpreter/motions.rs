//! When each square was last emptied and last filled, in the order the board reported it.
//!
//! An occupancy-only board shows a capture only as "the victim's square was emptied, then filled
//! again after the capturing piece left its square"; these order numbers are that evidence.

use shakmaty::Square;

/// Order numbers of the last lift and last place on every square.
#[derive(Debug, Clone)]
pub struct Motions {
    seq: u32,
    lifted: [u32; 64],
    placed: [u32; 64],
}

impl Default for Motions {
    fn default() -> Motions {
        Motions {
            seq: 0,
            lifted: [0; 64],
            placed: [0; 64],
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
    fn motions_before_the_turn_are_no_evidence() {
        let mut motions = Motions::default();
        motions.lift(Square::D7);
        motions.lift(Square::D1);
        motions.place(Square::D7);
        let turn_start = motions.now();
        assert!(!motions.captured_on(Square::D7, Square::D1, turn_start));
    }
}
