//! The streaming decoder: bytes in any pieces, frames and corruption reports out.
//!
//! Bytes are collected up to the next 0x00 delimiter, which COBS guarantees appears nowhere
//! inside a frame; the bytes collected are then un-stuffed and checked. Whatever went wrong,
//! the decoder starts afresh after the delimiter, so corruption costs at most the frame it hit
//! (or two, if it destroyed the delimiter between them) and the next intact frame decodes. The
//! items never depend on how the input was split.

use crate::cobs::{self, CobsError};
use crate::decode::{CorruptReason, decode_raw};
use crate::frame::Frame;
use crate::wire::{DELIMITER, MAX_ENCODED, MAX_RAW};

/// One item of the decoded stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Decoded {
    /// An intact frame.
    Frame(Frame),
    /// Bytes between two delimiters that were not a frame, dropped.
    Corrupt(Corrupt),
}

/// A report of dropped bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Corrupt {
    /// Why they were dropped.
    pub reason: CorruptReason,
    /// How many bytes were dropped, not counting the delimiter.
    pub dropped: usize,
}

/// Decodes frames from bytes pushed in any pieces; holds at most one encoded frame
/// ([`MAX_WIRE`](crate::MAX_WIRE) bytes) and never allocates.
///
/// ```
/// use touchmove_firmware_protocol::{
///     Action, Change, Decoded, Decoder, Frame, MAX_WIRE, Message, Square, encode,
/// };
///
/// let lifted = Frame {
///     seq: 7,
///     message: Message::Change(Change {
///         square: Square::new(12).expect("e2"),
///         action: Action::Lifted,
///         piece: None,
///         time_ms: 1500,
///     }),
/// };
/// let mut wire = [0x00; MAX_WIRE];
/// let length = encode(&lifted, &mut wire).expect("a frame fits");
/// // A byte of noise and its delimiter, then the frame split in two pieces.
/// let mut decoder = Decoder::new();
/// let noise: Vec<Decoded> = decoder.push(&[0x42, 0x00]).collect();
/// assert!(matches!(noise[..], [Decoded::Corrupt(_)]), "noise is reported, never a frame");
/// let (head, tail) = wire[..length].split_at(3);
/// assert_eq!(decoder.push(head).count(), 0);
/// let decoded: Vec<Decoded> = decoder.push(tail).collect();
/// assert_eq!(decoded, [Decoded::Frame(lifted)]);
/// ```
#[derive(Debug, Clone)]
pub struct Decoder {
    /// The bytes of the frame being received.
    buffer: [u8; MAX_ENCODED],
    /// How many bytes of `buffer` are in use.
    len: usize,
    /// Bytes received since the last delimiter that did not fit into `buffer`.
    overflow: usize,
}

impl Default for Decoder {
    fn default() -> Decoder {
        Decoder::new()
    }
}

impl Decoder {
    /// A decoder at the start of a frame.
    pub const fn new() -> Decoder {
        Decoder {
            buffer: [0x00; MAX_ENCODED],
            len: 0,
            overflow: 0,
        }
    }

    /// How many bytes since the last delimiter wait for the next one.
    pub fn buffered(&self) -> usize {
        self.len + self.overflow
    }

    /// Feeds one byte; a delimiter ends the frame and yields what it was (nothing for an empty
    /// frame: a sender may send lone delimiters).
    pub fn push_byte(&mut self, byte: u8) -> Option<Decoded> {
        if byte == DELIMITER {
            return self.finish();
        }
        match self.buffer.get_mut(self.len) {
            Some(slot) => {
                *slot = byte;
                self.len += 1;
            }
            None => self.overflow = self.overflow.saturating_add(1),
        }
        None
    }

    /// Feeds bytes; the items they complete, in order.
    pub fn push<'a>(&'a mut self, bytes: &'a [u8]) -> impl Iterator<Item = Decoded> + 'a {
        bytes.iter().filter_map(|&byte| self.push_byte(byte))
    }

    /// Ends the frame at a delimiter: decodes it and starts afresh.
    fn finish(&mut self) -> Option<Decoded> {
        let (len, overflow) = (self.len, self.overflow);
        self.len = 0;
        self.overflow = 0;
        let dropped = len.saturating_add(overflow);
        if dropped == 0 {
            return None;
        }
        let corrupt = |reason| Some(Decoded::Corrupt(Corrupt { reason, dropped }));
        if overflow > 0 {
            return corrupt(CorruptReason::TooLong);
        }
        let mut raw = [0x00; MAX_RAW];
        let encoded = self.buffer.get(..len).unwrap_or_default();
        let raw_length = match cobs::decode(encoded, &mut raw) {
            Ok(raw_length) => raw_length,
            Err(CobsError::Malformed) => return corrupt(CorruptReason::Cobs),
            Err(CobsError::TooLong) => return corrupt(CorruptReason::TooLong),
        };
        match decode_raw(raw.get(..raw_length).unwrap_or_default()) {
            Ok(frame) => Some(Decoded::Frame(frame)),
            Err(reason) => corrupt(reason),
        }
    }
}
