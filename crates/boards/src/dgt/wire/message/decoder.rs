//! The sans-IO decoder of board → host messages: bytes in any pieces, messages out, noise
//! reported and skipped.
//!
//! The contract is that of a streaming frame decoder: a partial message waits for more bytes; a bad
//! frame is an item of the stream (a [`Corrupt`] error), never an error that stops it. A byte
//! with the top bit set always starts a message, so after anything malformed the decoder drops
//! the bytes up to the next such byte and reports exactly those. The items never depend on how
//! the input was split into pushes.

use std::collections::VecDeque;

use touchmove_core::decode::StreamDecoder;

use crate::dgt::wire::message::{BoardMessage, PayloadError};
use crate::dgt::wire::protocol::{self, message};

/// The longest message of variable length accepted, header included; also the most bytes of
/// noise reported in one [`Corrupt`] item.
pub const MAX_MESSAGE_LENGTH: usize = 512;

/// One item of the decoded stream: a well-formed message, or bytes that were dropped.
pub type Decoded = Result<BoardMessage, Corrupt>;

/// Bytes that were dropped, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Corrupt {
    /// Exactly the bytes dropped, in order.
    pub dropped: Vec<u8>,
    /// What was wrong with them.
    pub reason: CorruptReason,
}

/// Why bytes were dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum CorruptReason {
    /// Bytes with the top bit clear where a message should start.
    #[error("bytes with the top bit clear where a message should start")]
    NotAMessageStart,
    /// A length byte with the top bit set.
    #[error("message {id:#04x}: a length byte with the top bit set")]
    LengthByteHighBit {
        /// The message's first byte.
        id: u8,
    },
    /// A length no message of this kind can have.
    #[error("message {id:#04x}: impossible length {length}")]
    ImpossibleLength {
        /// The message's first byte.
        id: u8,
        /// The total length the header gave.
        length: usize,
    },
    /// A byte with the top bit set inside the message: it was cut short.
    #[error("message {id:#04x}: cut short after {received} of {length} bytes")]
    CutShort {
        /// The message's first byte.
        id: u8,
        /// How many of its bytes came before the byte with the top bit set.
        received: usize,
        /// The total length the header gave.
        length: usize,
    },
    /// The stream ended inside a message.
    #[error("message {id:#04x}: the stream ended after {received} of its bytes")]
    Unfinished {
        /// The message's first byte.
        id: u8,
        /// How many of its bytes came.
        received: usize,
    },
    /// A well-framed message whose data bytes make no sense.
    #[error("message {id:#04x}: {problem}")]
    BadPayload {
        /// The message's first byte.
        id: u8,
        /// What was wrong with the data bytes.
        problem: PayloadError,
    },
}

/// What the bytes at the front of the buffer are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Front {
    /// Not enough bytes to tell.
    Incomplete,
    /// A complete, well-framed message of this total length.
    Message(usize),
    /// Malformed: to be dropped up to the next byte with the top bit set.
    Malformed(CorruptReason),
}

/// Decodes board → host messages from bytes pushed in any pieces, without doing any I/O.
///
/// Push bytes with [`StreamDecoder::push`] and take items with [`StreamDecoder::poll`] until
/// it returns `None`.
#[derive(Debug, Clone, Default)]
pub struct DgtDecoder {
    /// Bytes received and not yet decoded.
    buffer: Vec<u8>,
    /// What the end of the stream made of the bytes left, not yet polled.
    finished: VecDeque<Decoded>,
}

impl StreamDecoder for DgtDecoder {
    type Frame = BoardMessage;
    type Error = Corrupt;

    /// Feeds the next bytes received.
    fn push(&mut self, bytes: &[u8]) {
        self.buffer.extend_from_slice(bytes);
    }

    /// The stream ended: the bytes of a message begun are dropped (after the whole messages
    /// before them).
    fn finish(&mut self) {
        let whole: Vec<Decoded> = std::iter::from_fn(|| self.poll()).collect();
        self.finished.extend(whole);
        if let Some(&id) = self.buffer.first() {
            let dropped = std::mem::take(&mut self.buffer);
            let received = dropped.len();
            let reason = CorruptReason::Unfinished { id, received };
            self.finished.push_back(Err(Corrupt { dropped, reason }));
        }
    }

    /// The next item, or `None` until more bytes are pushed.
    fn poll(&mut self) -> Option<Decoded> {
        if let Some(decoded) = self.finished.pop_front() {
            return Some(decoded);
        }
        match front(&self.buffer) {
            Front::Incomplete => None,
            Front::Message(length) => Some(self.take_message(length)),
            Front::Malformed(reason) => {
                let end = resync_point(&self.buffer)?;
                let dropped = self.buffer.drain(..end).collect();
                Some(Err(Corrupt { dropped, reason }))
            }
        }
    }
}

impl DgtDecoder {
    /// A decoder expecting the start of a message.
    pub fn new() -> DgtDecoder {
        DgtDecoder::default()
    }

    /// How many bytes wait for more input.
    pub fn buffered(&self) -> usize {
        self.buffer.len()
    }

    /// Takes the complete message of `length` bytes at the front and decodes it.
    fn take_message(&mut self, length: usize) -> Decoded {
        let bytes: Vec<u8> = self.buffer.drain(..length).collect();
        let first = bytes.first().copied().unwrap_or_default();
        let payload = bytes.get(message::HEADER_LENGTH..).unwrap_or_default();
        match BoardMessage::decode(first, payload) {
            Ok(decoded) => Ok(decoded),
            Err(problem) => Err(Corrupt {
                dropped: bytes,
                reason: CorruptReason::BadPayload { id: first, problem },
            }),
        }
    }
}

/// Classifies the bytes at the front of `buffer`.
fn front(buffer: &[u8]) -> Front {
    let Some(&first) = buffer.first() else {
        return Front::Incomplete;
    };
    if !message::is_message_start(first) {
        return Front::Malformed(CorruptReason::NotAMessageStart);
    }
    let header = buffer.get(1..).unwrap_or_default();
    if header
        .iter()
        .take(message::HEADER_LENGTH - 1)
        .any(|&byte| message::is_message_start(byte))
    {
        return Front::Malformed(CorruptReason::LengthByteHighBit { id: first });
    }
    let (Some(&high), Some(&low)) = (buffer.get(1), buffer.get(2)) else {
        return Front::Incomplete;
    };
    let length = protocol::length_from_bytes(high, low);
    if !is_possible_length(first, length) {
        return Front::Malformed(CorruptReason::ImpossibleLength { id: first, length });
    }
    body(buffer, first, length)
}

/// Classifies a message whose header is good: complete, waiting, or cut short.
fn body(buffer: &[u8], first: u8, length: usize) -> Front {
    let received = buffer.get(..length).unwrap_or(buffer);
    let cut = received
        .iter()
        .skip(message::HEADER_LENGTH)
        .position(|&byte| message::is_message_start(byte));
    match cut {
        Some(offset) => Front::Malformed(CorruptReason::CutShort {
            id: first,
            received: message::HEADER_LENGTH + offset,
            length,
        }),
        None if received.len() == length => Front::Message(length),
        None => Front::Incomplete,
    }
}

/// Whether a message starting with `first` can be `length` bytes long.
fn is_possible_length(first: u8, length: usize) -> bool {
    match message::fixed_length(first) {
        Some(fixed) => length == fixed,
        None => (message::HEADER_LENGTH..=MAX_MESSAGE_LENGTH).contains(&length),
    }
}

/// Where malformed bytes at the front end: at the first byte after the first one with the top
/// bit set, or after [`MAX_MESSAGE_LENGTH`] bytes; `None` while neither is in the buffer.
fn resync_point(buffer: &[u8]) -> Option<usize> {
    let next_start = buffer
        .iter()
        .take(MAX_MESSAGE_LENGTH)
        .skip(1)
        .position(|&byte| message::is_message_start(byte))
        .map(|offset| offset + 1);
    next_start.or((buffer.len() >= MAX_MESSAGE_LENGTH).then_some(MAX_MESSAGE_LENGTH))
}
