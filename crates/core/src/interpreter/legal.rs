//! The legal moves of a position with their footprints, computed once per position.

use shakmaty::{Bitboard, Chess, Move, MoveList, Position};

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
    pub fn from_list(list: &MoveList) -> LegalMoves {
        let mut legal = LegalMoves::default();
        legal.refill(list);
        legal
    }

    /// Replaces the moves with those of `list`, reusing the allocations.
    pub fn refill(&mut self, list: &MoveList) {
        self.moves.clear();
        self.moves.extend_from_slice(list);
        self.deltas.clear();
        self.deltas.extend(list.iter().map(|&m| occupancy_delta(m)));
    }

    /// Every legal move.
    pub fn moves(&self) -> &[Move] {
        &self.moves
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
