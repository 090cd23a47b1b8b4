//! Piece codes, for boards that identify pieces: a 4-bit code per piece, bit 3 set for Black.
//!
//! | code | piece | code | piece |
//! |---|---|---|---|
//! | 0x1 | white pawn | 0x9 | black pawn |
//! | 0x2 | white knight | 0xa | black knight |
//! | 0x3 | white bishop | 0xb | black bishop |
//! | 0x4 | white rook | 0xc | black rook |
//! | 0x5 | white queen | 0xd | black queen |
//! | 0x6 | white king | 0xe | black king |
//!
//! Code 0x0 means "no piece, or not identified"; 0x7, 0x8 and 0xf are invalid.

/// The colour bit of a piece code.
const BLACK: u8 = 0x08;

/// The side a piece belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Color {
    /// White.
    White,
    /// Black.
    Black,
}

/// What a piece is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Pawn (code 0x1 / 0x9).
    Pawn,
    /// Knight (code 0x2 / 0xa).
    Knight,
    /// Bishop (code 0x3 / 0xb).
    Bishop,
    /// Rook (code 0x4 / 0xc).
    Rook,
    /// Queen (code 0x5 / 0xd).
    Queen,
    /// King (code 0x6 / 0xe).
    King,
}

/// A piece of a given colour and role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// What it is.
    pub role: Role,
}

/// Why a piece code was rejected: it is 0x7, 0x8 or above 0xe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvalidPieceCode;

impl Piece {
    /// The piece a code names: `Ok(None)` for 0x0, an error for an invalid code.
    pub fn from_code(code: u8) -> Result<Option<Piece>, InvalidPieceCode> {
        let color = if code & BLACK == 0 {
            Color::White
        } else {
            Color::Black
        };
        let role = match code & !BLACK {
            0x0 if code == 0x0 => return Ok(None),
            0x1 => Role::Pawn,
            0x2 => Role::Knight,
            0x3 => Role::Bishop,
            0x4 => Role::Rook,
            0x5 => Role::Queen,
            0x6 => Role::King,
            _ => return Err(InvalidPieceCode),
        };
        Ok(Some(Piece { color, role }))
    }

    /// The piece's 4-bit code.
    pub fn code(self) -> u8 {
        let role = match self.role {
            Role::Pawn => 0x1,
            Role::Knight => 0x2,
            Role::Bishop => 0x3,
            Role::Rook => 0x4,
            Role::Queen => 0x5,
            Role::King => 0x6,
        };
        match self.color {
            Color::White => role,
            Color::Black => role | BLACK,
        }
    }

    /// The piece's FEN letter (`PNBRQK` white, `pnbrqk` black).
    pub fn fen(self) -> char {
        let letter = match self.role {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        };
        match self.color {
            Color::White => letter.to_ascii_uppercase(),
            Color::Black => letter,
        }
    }

    /// The piece a FEN letter names.
    pub fn from_fen(letter: char) -> Option<Piece> {
        let code = match letter.to_ascii_lowercase() {
            'p' => 0x1,
            'n' => 0x2,
            'b' => 0x3,
            'r' => 0x4,
            'q' => 0x5,
            'k' => 0x6,
            _ => return None,
        };
        let code = if letter.is_ascii_lowercase() {
            code | BLACK
        } else {
            code
        };
        Piece::from_code(code).ok().flatten()
    }
}

/// The code of an optional piece: 0x0 for `None`.
pub fn code_of(piece: Option<Piece>) -> u8 {
    piece.map_or(0x0, Piece::code)
}

#[cfg(test)]
mod tests {
    use super::{InvalidPieceCode, Piece};

    #[test]
    fn every_code_round_trips_or_is_rejected() {
        for code in 0x00..=0xffu8 {
            match Piece::from_code(code) {
                Ok(Some(piece)) => {
                    assert_eq!(piece.code(), code);
                    assert_eq!(Piece::from_fen(piece.fen()), Some(piece));
                }
                Ok(None) => assert_eq!(code, 0x0),
                Err(InvalidPieceCode) => {
                    assert!(matches!(code, 0x07 | 0x08 | 0x0f..=0xff), "{code:#04x}");
                }
            }
        }
    }

    #[test]
    fn black_has_the_colour_bit() {
        assert_eq!(Piece::from_fen('k').map(Piece::code), Some(0xe));
        assert_eq!(Piece::from_fen('P').map(Piece::code), Some(0x1));
        assert_eq!(Piece::from_fen('x'), None);
    }
}
