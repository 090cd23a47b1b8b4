//! Board → host messages, both ways: [`BoardMessage`] decoded from a framed message's first
//! byte and data bytes, the stream of them framed by [`decoder::DgtDecoder`], and [`encode`]'s
//! bytes of each message an (emulated) board sends.

pub mod decoder;
pub mod encode;
#[cfg(test)]
pub(crate) mod tests;

use shakmaty::{Board, Piece, Square};

use crate::dgt::wire::clock::{Bwtime, ClockAck, ClockReport, decode_bwtime};
pub use crate::dgt::wire::payload::PayloadError;
use crate::dgt::wire::protocol::{self, message};

/// What a square holds according to a DGT piece code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Occupant {
    /// Code 0: the square is empty.
    Empty,
    /// Codes 1–12: an identified piece.
    Piece(Piece),
    /// Codes 13–15: a "magic" piece, which hosts ignore; the code is kept.
    Magic(u8),
}

impl Occupant {
    /// The occupant a piece code names; `None` for codes above 15.
    pub fn from_code(code: u8) -> Option<Occupant> {
        match code {
            0x00 => Some(Occupant::Empty),
            0x0d..=0x0f => Some(Occupant::Magic(code)),
            _ => protocol::piece_from_code(code).map(Occupant::Piece),
        }
    }

    /// The identified piece, if any (magic pieces count as none).
    pub fn piece(self) -> Option<Piece> {
        match self {
            Occupant::Piece(piece) => Some(piece),
            Occupant::Empty | Occupant::Magic(_) => None,
        }
    }
}

/// A BOARD_DUMP: the occupant of every square, as the board numbers them (not un-rotated).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardDump {
    /// Occupants by DGT square number (0 = a8 … 63 = h1).
    occupants: [Occupant; 64],
}

impl BoardDump {
    /// A dump from 64 piece codes in DGT square order.
    pub fn from_codes(codes: &[u8]) -> Result<BoardDump, PayloadError> {
        let codes: &[u8; 64] = codes.try_into().map_err(|_| PayloadError::WrongLength {
            length: codes.len(),
        })?;
        let mut occupants = [Occupant::Empty; 64];
        for (occupant, &code) in occupants.iter_mut().zip(codes) {
            *occupant = Occupant::from_code(code).ok_or(PayloadError::BadPieceCode { code })?;
        }
        Ok(BoardDump { occupants })
    }

    /// The occupant of `square` (as the board numbers its squares).
    pub fn occupant(&self, square: Square) -> Occupant {
        let index = usize::from(protocol::index_from_square(square));
        self.occupants
            .get(index)
            .copied()
            .unwrap_or(Occupant::Empty)
    }

    /// The identified pieces as a board (magic pieces left out), squares as the board numbers
    /// them.
    pub fn board(&self) -> Board {
        let mut board = Board::empty();
        for square in Square::ALL {
            if let Some(piece) = self.occupant(square).piece() {
                board.set_piece_at(square, piece);
            }
        }
        board
    }

    /// The 64 piece codes in DGT square order.
    pub fn codes(&self) -> [u8; 64] {
        let mut codes = [0x00; 64];
        for (code, occupant) in codes.iter_mut().zip(&self.occupants) {
            *code = match *occupant {
                Occupant::Empty => 0x00,
                Occupant::Piece(piece) => protocol::code_from_piece(Some(piece)),
                Occupant::Magic(magic) => magic,
            };
        }
        codes
    }
}

/// A decoded board → host message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardMessage {
    /// BOARD_DUMP: the whole board.
    BoardDump(BoardDump),
    /// FIELD_UPDATE: one square changed (square as the board numbers it).
    FieldUpdate {
        /// The square that changed.
        square: Square,
        /// What it holds now.
        occupant: Occupant,
    },
    /// BWTIME carrying a time report.
    Clock(ClockReport),
    /// BWTIME acknowledging a clock command.
    ClockAck(ClockAck),
    /// SERIALNR: the serial number (five ASCII characters, digits in practice).
    SerialNumber(String),
    /// LONG_SERIALNR: the long serial number (ten ASCII characters, digits in practice).
    LongSerialNumber(String),
    /// VERSION: main and sub version ("1.02" is 1, 2).
    Version {
        /// The main version number.
        main: u8,
        /// The sub version number.
        sub: u8,
    },
    /// TRADEMARK: the board's ASCII trademark text.
    Trademark(String),
    /// BUSADRES: the bus address, from its two 7-bit halves.
    BusAddress(u16),
    /// BATTERY_STATUS: the data bytes, raw.
    BatteryStatus(Vec<u8>),
    /// A message the protocol notes do not describe.
    Unknown {
        /// The message's first byte (`0x80 | id`).
        id: u8,
        /// Its data bytes.
        payload: Vec<u8>,
    },
}

impl BoardMessage {
    /// Decodes a framed message from its first byte and its data bytes (the length already
    /// checked by the framing).
    pub fn decode(first: u8, payload: &[u8]) -> Result<BoardMessage, PayloadError> {
        Ok(match first {
            message::BOARD_DUMP => BoardMessage::BoardDump(BoardDump::from_codes(payload)?),
            message::FIELD_UPDATE => field_update(payload)?,
            message::BWTIME => match decode_bwtime(payload)? {
                Bwtime::Report(report) => BoardMessage::Clock(report),
                Bwtime::Ack(ack) => BoardMessage::ClockAck(ack),
            },
            message::SERIALNR => BoardMessage::SerialNumber(ascii(payload)),
            message::LONG_SERIALNR => BoardMessage::LongSerialNumber(ascii(payload)),
            message::VERSION => {
                let [main, sub] = two_bytes(payload)?;
                BoardMessage::Version { main, sub }
            }
            message::TRADEMARK => BoardMessage::Trademark(ascii(payload)),
            message::BUSADRES => {
                let [high, low] = two_bytes(payload)?;
                BoardMessage::BusAddress((u16::from(high & 0x7f) << 7) | u16::from(low & 0x7f))
            }
            message::BATTERY_STATUS => BoardMessage::BatteryStatus(payload.to_vec()),
            id => BoardMessage::Unknown {
                id,
                payload: payload.to_vec(),
            },
        })
    }
}

/// FIELD_UPDATE's square and piece code.
fn field_update(payload: &[u8]) -> Result<BoardMessage, PayloadError> {
    let [index, code] = two_bytes(payload)?;
    let square = protocol::square_from_index(index).ok_or(PayloadError::BadSquare { index })?;
    let occupant = Occupant::from_code(code).ok_or(PayloadError::BadPieceCode { code })?;
    Ok(BoardMessage::FieldUpdate { square, occupant })
}

/// Exactly two data bytes.
fn two_bytes(payload: &[u8]) -> Result<[u8; 2], PayloadError> {
    payload.try_into().map_err(|_| PayloadError::WrongLength {
        length: payload.len(),
    })
}

/// Data bytes as text (they are 7-bit, hence ASCII).
fn ascii(payload: &[u8]) -> String {
    payload.iter().map(|&byte| char::from(byte)).collect()
}
