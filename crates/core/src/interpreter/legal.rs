//! The legal moves of a position with their footprints, computed once per position.

use shakmaty::{Bitboard, Chess, Move, Position, Square};

use super::geometry::occupancy_delta;

/// A position's legal moves, each with the squares whose occupancy it changes.
#[derive(Debug, Clone, Default)]
pub struct LegalMoves {
    moves: Vec<Move>,
    deltas: Vec<Bitboard>,
}

impl LegalMoves {
    /// The legal moves of `position`.
    pub fn of(position: &Chess) -> LegalMoves {
        LegalMoves::from_list(&position.legal_moves())
    }

    /// The moves of `list`, the legal moves of a position.
    pub fn from_list(list: &[Move]) -> LegalMoves {
        let mut legal = LegalMoves::default();
        legal.refill(list);
        legal
    }

    /// Replaces the moves with those of `list`, reusing the allocation.
    pub fn refill(&mut self, list: &[Move]) {
        self.moves.clear();
        self.moves.extend_from_slice(list);
        self.deltas.clear();
        self.deltas.extend(list.iter().map(|&m| occupancy_delta(m)));
    }

    /// Every legal move.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The legal moves whose footprint holds `square`.
    pub fn touching(&self, square: Square) -> impl Iterator<Item = Move> + '_ {
        self.moves
            .iter()
            .zip(&self.deltas)
            .filter(move |(_, delta)| delta.contains(square))
            .map(|(m, _)| *m)
    }

    /// The legal moves whose footprint is exactly `diff`.
    pub fn with_footprint(&self, diff: Bitboard) -> impl Iterator<Item = Move> + '_ {
        self.moves
            .iter()
            .zip(&self.deltas)
            .filter(move |(_, delta)| **delta == diff)
            .map(|(m, _)| *m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::position;

    #[test]
    fn the_moves_with_a_footprint_are_those_whose_squares_it_is_and_no_other() {
        let positions = [
            Chess::default(),
            position("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 2"),
            position("4k3/1P6/8/8/8/8/6p1/4K2R b K - 0 1"),
        ];
        for pos in positions {
            let legal = LegalMoves::of(&pos);
            for &m in legal.moves() {
                let diff = occupancy_delta(m);
                let found: Vec<Move> = legal.with_footprint(diff).collect();
                let every: Vec<Move> = legal
                    .moves()
                    .iter()
                    .copied()
                    .filter(|&other| occupancy_delta(other) == diff)
                    .collect();
                assert_eq!(found, every, "{m:?}");
                assert!(found.contains(&m));
            }
        }
    }
}
