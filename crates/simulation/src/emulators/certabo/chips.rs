//! The chips of an emulated Certabo set: each physical piece its own, drawn at random, moving
//! with the piece (lifted into the hand, set down again, captured and kept off the board), and
//! a spare queen of each colour beside the board.

use std::collections::BTreeMap;

use shakmaty::{Board, Color, Piece, Square};

use touchmove_boards::certabo::calibration::SPARE_QUEENS;
use touchmove_boards::certabo::wire::{Chip, index_of};

/// A set's chips, where its pieces are.
#[derive(Debug, Clone)]
pub(super) struct SetOfChips {
    /// The chip under each occupied square.
    on: BTreeMap<Square, (Piece, Chip)>,
    /// Pieces off the board (in hand, captured), the last taken last.
    off: Vec<(Piece, Chip)>,
    /// The dice for chips drawn.
    state: u64,
}

impl SetOfChips {
    /// The pieces of `board`, and a spare queen of each colour off the board, each with a chip
    /// drawn from `seed`.
    pub(super) fn new(board: &Board, seed: u64) -> SetOfChips {
        let mut set = SetOfChips {
            on: BTreeMap::new(),
            off: Vec::new(),
            state: seed ^ 0x9e37_79b9_7f4a_7c15,
        };
        for (square, piece) in board.iter() {
            let chip = set.draw();
            set.on.insert(square, (piece, chip));
        }
        for color in [Color::Black, Color::White] {
            let chip = set.draw();
            set.off.push((color.queen(), chip));
        }
        set
    }

    /// Every piece of the set with its chip, on the board or off it.
    pub(super) fn every_chip(&self) -> impl Iterator<Item = (Piece, Chip)> + '_ {
        self.on.values().chain(self.off.iter()).copied()
    }

    /// A chip no piece of the set has: five bytes, none zero.
    fn draw(&mut self) -> Chip {
        loop {
            // splitmix64
            self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            let bytes = z.to_le_bytes();
            let chip = Chip(std::array::from_fn(|i| {
                bytes.get(i).copied().unwrap_or(1).max(1)
            }));
            let taken = self
                .on
                .values()
                .chain(self.off.iter())
                .any(|&(_, c)| c == chip);
            if !taken {
                return chip;
            }
        }
    }

    /// The piece on `square` is taken off the board (into the hand, or captured).
    pub(super) fn lift(&mut self, square: Square) {
        if let Some(held) = self.on.remove(&square) {
            self.off.push(held);
        }
    }

    /// `piece` is set down on `square`: the one of its kind taken off last (the one in hand; a
    /// promotion's queen is the spare), else one with a chip never seen (a piece from another
    /// set: then `false`).
    pub(super) fn place(&mut self, square: Square, piece: Piece) -> bool {
        self.lift(square);
        let (chip, of_the_set) = match self.off.iter().rposition(|&(p, _)| p == piece) {
            Some(at) => (self.off.remove(at).1, true),
            None => (self.draw(), false),
        };
        self.on.insert(square, (piece, chip));
        of_the_set
    }

    /// The spare queens are set on their squares (d6, d3), for the host to learn their chips.
    pub(super) fn spares_out(&mut self) {
        for (square, piece) in SPARE_QUEENS {
            if !self.on.contains_key(&square) {
                self.place(square, piece);
            }
        }
    }

    /// The spare queens are taken off again.
    pub(super) fn spares_in(&mut self) {
        for (square, _) in SPARE_QUEENS {
            self.lift(square);
        }
    }

    /// The pieces on the board.
    pub(super) fn board(&self) -> Board {
        let mut board = Board::empty();
        for (&square, &(piece, _)) in &self.on {
            board.set_piece_at(square, piece);
        }
        board
    }

    /// The chips as a frame holds them.
    pub(super) fn frame(&self) -> [Chip; 64] {
        let mut frame = [Chip::NONE; 64];
        for (&square, &(_, chip)) in &self.on {
            if let Some(slot) = frame.get_mut(index_of(square)) {
                *slot = chip;
            }
        }
        frame
    }
}
