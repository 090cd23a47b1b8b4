//! A Certabo RFID board's chips: which physical piece each chip is, learnt from the start
//! position, and a chip frame read as pieces with them.
//!
//! The chips are not piece types: each piece has its own. The host learns them with the pieces
//! set up for a game, the spare queens beside them (the black one on d6, the white one on d3, if
//! the set has them), taking for each square the chip it shows in more than half of the last
//! [`FRAMES_TO_LEARN`] frames. A chip learnt is kept per board ([`Chips::to_text`]), and a new
//! calibration adds to what was known (a piece replaced keeps both chips).

use std::collections::{BTreeMap, VecDeque};

use shakmaty::{Bitboard, Board, Color, Piece, Role, Square};

use super::wire::{Chip, index_of};

/// How many frames a calibration takes the majority over (PicoChess takes at least 7).
pub const FRAMES_TO_LEARN: usize = 7;

/// Where the spare queens stand while the chips are learnt: the black one on d6, the white one
/// on d3.
pub const SPARE_QUEENS: [(Square, Piece); 2] = [
    (
        Square::D6,
        Piece {
            color: Color::Black,
            role: Role::Queen,
        },
    ),
    (
        Square::D3,
        Piece {
            color: Color::White,
            role: Role::Queen,
        },
    ),
];

/// A chip on a square that no known piece has: said, never guessed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("an unknown chip ({chip}) on {square}: calibrate again with that piece in the set")]
pub struct UnknownChip {
    /// Where it stands.
    pub square: Square,
    /// What it reads.
    pub chip: Chip,
}

/// Why a chips file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {why}")]
pub struct ChipsFileError {
    /// The line (from 1).
    pub line: usize,
    /// What was wrong.
    pub why: String,
}

/// The chips known on one board.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Chips {
    known: BTreeMap<Chip, Piece>,
}

impl Chips {
    /// The piece whose chip `chip` is, if it is known.
    pub fn piece_of(&self, chip: Chip) -> Option<Piece> {
        self.known.get(&chip).copied()
    }

    /// How many chips are known.
    pub fn len(&self) -> usize {
        self.known.len()
    }

    /// Whether no chip is known.
    pub fn is_empty(&self) -> bool {
        self.known.is_empty()
    }

    /// The pieces a chip frame shows, or the first square (from a8) whose chip no known piece
    /// has.
    pub fn read(&self, chips: &[Chip; 64]) -> Result<Board, UnknownChip> {
        let (board, unknown) = self.read_known(chips);
        unknown.first().map_or(Ok(board), |&unknown| Err(unknown))
    }

    /// The pieces a chip frame shows that known chips name, and the squares (from a8) of the
    /// chips no known piece has, with them.
    pub fn read_known(&self, chips: &[Chip; 64]) -> (Board, Vec<UnknownChip>) {
        let mut board = Board::empty();
        let mut unknown = Vec::new();
        for square in reading_order() {
            let Some(&chip) = chips.get(index_of(square)) else {
                continue;
            };
            if chip.is_none() {
                continue;
            }
            match self.piece_of(chip) {
                Some(piece) => board.set_piece_at(square, piece),
                None => unknown.push(UnknownChip { square, chip }),
            }
        }
        (board, unknown)
    }

    /// These chips and `newer`'s: a chip both know is `newer`'s piece.
    pub fn merged(mut self, newer: Chips) -> Chips {
        self.known.extend(newer.known);
        self
    }

    /// The chips as a file holds them: a line a chip, its piece's letter (FEN's) then its five
    /// numbers.
    pub fn to_text(&self) -> String {
        self.known
            .iter()
            .map(|(chip, piece)| format!("{} {chip}\n", piece.char()))
            .collect()
    }

    /// The chips a file holds ([`Chips::to_text`]); blank lines and `#` comments are passed
    /// over.
    pub fn from_text(text: &str) -> Result<Chips, ChipsFileError> {
        let mut known = BTreeMap::new();
        for (number, line) in text.lines().enumerate() {
            let line_number = number.saturating_add(1);
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let error = |why: String| ChipsFileError {
                line: line_number,
                why,
            };
            let mut words = line.split_ascii_whitespace();
            let letter = words.next().unwrap_or_default();
            let piece = match letter.chars().collect::<Vec<_>>().as_slice() {
                [c] => Piece::from_char(*c),
                _ => None,
            }
            .ok_or_else(|| error(format!("`{letter}` is no piece's letter (PNBRQK, pnbrqk)")))?;
            let numbers = words
                .map(|word| {
                    word.parse::<u8>()
                        .map_err(|_| error(format!("`{word}` is no number of 0 to 255")))
                })
                .collect::<Result<Vec<u8>, _>>()?;
            let chip = <[u8; 5]>::try_from(numbers.as_slice())
                .map(Chip)
                .map_err(|_| error(format!("{} numbers: a chip has 5", numbers.len())))?;
            if chip.is_none() {
                return Err(error(format!("`{chip}` reads as no chip")));
            }
            known.insert(chip, piece);
        }
        Ok(Chips { known })
    }
}

/// What learning the chips has come to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Learning {
    /// Not enough frames yet.
    NotYet,
    /// The last frames do not agree on these squares of the start position (a piece missing,
    /// moved, or read unsteadily): the host says which, and goes on taking frames.
    Unsettled(Bitboard),
    /// The chips learnt.
    Learnt(Chips),
}

/// Learns a board's chips from frames of the start position (the spare queens beside it).
#[derive(Debug, Default)]
pub struct Calibrator {
    frames: VecDeque<Box<[Chip; 64]>>,
}

impl Calibrator {
    /// A calibration with no frame yet.
    pub fn new() -> Calibrator {
        Calibrator::default()
    }

    /// Takes a frame: what the last [`FRAMES_TO_LEARN`] frames come to.
    pub fn take(&mut self, chips: &[Chip; 64]) -> Learning {
        self.frames.push_back(Box::new(*chips));
        while self.frames.len() > FRAMES_TO_LEARN {
            self.frames.pop_front();
        }
        if self.frames.len() < FRAMES_TO_LEARN {
            return Learning::NotYet;
        }
        let mut known = BTreeMap::new();
        let mut seen: BTreeMap<Chip, Square> = BTreeMap::new();
        let mut unsettled = Bitboard::EMPTY;
        let setup = Board::new();
        let pieces = setup
            .iter()
            .map(|(square, piece)| (square, piece, true))
            .chain(
                SPARE_QUEENS
                    .iter()
                    .map(|&(square, piece)| (square, piece, false)),
            );
        for (square, piece, required) in pieces {
            match self.majority(square) {
                Some(chip) if !chip.is_none() => {
                    // One chip read on two squares is no piece's: neither is learnt.
                    if let Some(&other) = seen.get(&chip) {
                        unsettled.add(square);
                        unsettled.add(other);
                    }
                    seen.insert(chip, square);
                    known.insert(chip, piece);
                }
                Some(_) if !required => {}
                _ => unsettled.add(square),
            }
        }
        if unsettled.is_empty() {
            Learning::Learnt(Chips { known })
        } else {
            Learning::Unsettled(unsettled)
        }
    }

    /// The chip `square` shows in more than half of the frames kept, if one does.
    fn majority(&self, square: Square) -> Option<Chip> {
        let mut counts: BTreeMap<Chip, usize> = BTreeMap::new();
        for frame in &self.frames {
            let chip = frame.get(index_of(square)).copied().unwrap_or(Chip::NONE);
            let chip = if chip.is_none() { Chip::NONE } else { chip };
            let count = counts.entry(chip).or_insert(0);
            *count = count.saturating_add(1);
        }
        counts
            .into_iter()
            .find(|&(_, count)| count > self.frames.len() / 2)
            .map(|(chip, _)| chip)
    }
}

/// The squares in the order a frame holds them, a8 to h1.
fn reading_order() -> impl Iterator<Item = Square> {
    (0..64).filter_map(super::wire::square_at)
}

#[cfg(test)]
mod tests;
