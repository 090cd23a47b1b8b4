//! The open Hall-sensor chessboard protocol: the frames a home-made sensor board and its host
//! exchange, their byte encoding, and a reference debouncing scanner for the board's firmware.
//!
//! The specification is `README.md` next to this crate; `test-vectors.txt` gives the bytes of
//! every frame type. Everything here is `no_std`, allocation-free and sans-IO: the
//! [`encode`] function writes into the caller's buffer, the [`Decoder`] takes bytes in any
//! pieces and yields [`Frame`]s or [`Corrupt`] reports, and the [`Scanner`] turns raw sensor
//! samples into debounced [`Change`] events.

#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod bytes;
mod cobs;
mod crc;
mod decode;
mod decoder;
mod encode;
mod frame;
mod message;
mod piece;
mod scanner;
mod snapshot;
mod square;
mod wire;

pub use crc::crc16;
pub use decode::{CorruptReason, decode_raw};
pub use decoder::{Corrupt, Decoded, Decoder};
pub use encode::{BufferTooSmall, encode};
pub use frame::Frame;
pub use message::{
    Action, Button, Capabilities, Change, FirmwareVersion, Hello, LedPattern, Message, SetLeds,
};
pub use piece::{Color, Piece, Role};
pub use scanner::{Changes, Debounce, Scanner};
pub use snapshot::{PieceCodes, Snapshot};
pub use square::Square;
pub use wire::{
    BAUD_RATE, DELIMITER, MAX_PAYLOAD, MAX_RAW, MAX_WIRE, PROTOCOL_VERSION, frame_type,
};
