//! SNAPSHOT's content: the occupancy bitboard and, on boards that identify pieces, a piece code
//! per square.

use crate::piece::{InvalidPieceCode, Piece, code_of};
use crate::square::Square;

/// The board's full state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Snapshot {
    /// Occupied squares: bit `n` is square `n` (a1 = bit 0, h8 = bit 63).
    pub occupancy: u64,
    /// The piece on every square, when the board identifies pieces; a square is occupied
    /// without an identified piece when its code is 0x0.
    pub pieces: Option<PieceCodes>,
}

/// 64 piece codes packed two to a byte: square `2k` in the low nibble of byte `k`, square
/// `2k + 1` in its high nibble. Every code is valid (see [`Piece::from_code`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PieceCodes([u8; 32]);

impl PieceCodes {
    /// The packed size in bytes.
    pub const LENGTH: usize = 32;

    /// No piece on any square.
    pub const fn empty() -> PieceCodes {
        PieceCodes([0x00; 32])
    }

    /// The packed codes, if every nibble is a valid piece code.
    pub fn from_bytes(bytes: [u8; 32]) -> Result<PieceCodes, InvalidPieceCode> {
        for byte in bytes {
            Piece::from_code(byte & 0x0f)?;
            Piece::from_code(byte >> 4)?;
        }
        Ok(PieceCodes(bytes))
    }

    /// The packed bytes.
    pub const fn bytes(&self) -> [u8; 32] {
        self.0
    }

    /// The piece on `square` (`None`: empty or not identified).
    pub fn get(&self, square: Square) -> Option<Piece> {
        let byte = self.0.get(usize::from(square.index() / 2)).copied()?;
        let code = if square.index().is_multiple_of(2) {
            byte & 0x0f
        } else {
            byte >> 4
        };
        Piece::from_code(code).ok().flatten()
    }

    /// These codes with `piece` on `square`.
    pub fn with(mut self, square: Square, piece: Option<Piece>) -> PieceCodes {
        let code = code_of(piece);
        if let Some(byte) = self.0.get_mut(usize::from(square.index() / 2)) {
            *byte = if square.index().is_multiple_of(2) {
                (*byte & 0xf0) | code
            } else {
                (*byte & 0x0f) | (code << 4)
            };
        }
        self
    }

    /// The squares that have a piece code.
    pub fn identified(&self) -> u64 {
        Square::all()
            .filter(|&square| self.get(square).is_some())
            .fold(0, |mask, square| mask | square.bit())
    }
}

impl Snapshot {
    /// Whether the piece codes agree with the occupancy: no piece on an empty square.
    pub fn is_consistent(&self) -> bool {
        self.pieces
            .is_none_or(|pieces| pieces.identified() & !self.occupancy == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::{PieceCodes, Snapshot};
    use crate::piece::Piece;
    use crate::square::Square;

    #[test]
    fn nibbles_are_low_for_even_squares() {
        let (a1, b1) = (Square::new(0), Square::new(1));
        let (Some(a1), Some(b1)) = (a1, b1) else {
            unreachable!("a1 and b1 are squares")
        };
        let codes = PieceCodes::empty()
            .with(a1, Piece::from_fen('R'))
            .with(b1, Piece::from_fen('n'));
        assert_eq!(codes.bytes().first(), Some(&0xa4));
        assert_eq!(codes.get(b1), Piece::from_fen('n'));
        assert_eq!(codes.identified(), 0b11);
        let snapshot = Snapshot {
            occupancy: 0b01,
            pieces: Some(codes),
        };
        assert!(!snapshot.is_consistent());
    }

    #[test]
    fn invalid_nibbles_are_rejected() {
        let mut bytes = [0u8; 32];
        bytes[31] = 0x70;
        assert!(PieceCodes::from_bytes(bytes).is_err());
    }
}
