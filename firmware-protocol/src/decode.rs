//! Parsing one frame, already un-stuffed: checks its CRC, length and fields.

use crate::bytes::Reader;
use crate::crc::crc16;
use crate::frame::Frame;
use crate::message::{
    Action, Button, Capabilities, Change, FirmwareVersion, Hello, LedPattern, Message, SetLeds,
};
use crate::piece::Piece;
use crate::snapshot::{PieceCodes, Snapshot};
use crate::square::Square;
use crate::wire::{CRC_LENGTH, HEADER_LENGTH, frame_type};

/// Why bytes between two delimiters are not a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CorruptReason {
    /// The byte stuffing is broken: a code byte points past the delimiter.
    Cobs,
    /// More bytes than the longest frame came before a delimiter.
    TooLong,
    /// Fewer bytes than the shortest frame (header and CRC).
    TooShort,
    /// The CRC does not match.
    Crc {
        /// The CRC computed over the bytes received.
        computed: u16,
        /// The CRC the frame carried.
        received: u16,
    },
    /// The length byte disagrees with the bytes received.
    LengthMismatch {
        /// The payload length the frame declared.
        declared: u8,
        /// The payload length received.
        received: usize,
    },
    /// An intact frame of a type this version does not know (a receiver ignores it, but it
    /// counts for the sequence).
    UnknownType {
        /// The frame type.
        frame_type: u8,
        /// The frame's sequence number (the CRC covers it).
        seq: u8,
    },
    /// A payload length this frame type cannot have.
    BadLength {
        /// The frame type.
        frame_type: u8,
        /// The payload length.
        length: u8,
    },
    /// A field holds a value the protocol does not define.
    BadField {
        /// The frame type.
        frame_type: u8,
    },
}

/// What is wrong with a payload, before the frame type is attached.
enum PayloadError {
    /// Too few or too many bytes.
    Length,
    /// A field out of range.
    Field,
    /// A frame type this version does not know.
    UnknownType,
}

/// Parses an un-stuffed frame: length, type, sequence number, payload, CRC.
pub fn decode_raw(raw: &[u8]) -> Result<Frame, CorruptReason> {
    let body_length = raw
        .len()
        .checked_sub(CRC_LENGTH)
        .filter(|&length| length >= HEADER_LENGTH)
        .ok_or(CorruptReason::TooShort)?;
    let (body, crc) = raw
        .split_at_checked(body_length)
        .ok_or(CorruptReason::TooShort)?;
    check_crc(body, crc)?;
    let mut header = Reader::new(body);
    let [declared, kind, seq] = header.array().ok_or(CorruptReason::TooShort)?;
    let payload = body.get(HEADER_LENGTH..).unwrap_or_default();
    if usize::from(declared) != payload.len() {
        let received = payload.len();
        return Err(CorruptReason::LengthMismatch { declared, received });
    }
    let message = parse_payload(kind, payload).map_err(|error| match error {
        PayloadError::Length => CorruptReason::BadLength {
            frame_type: kind,
            length: declared,
        },
        PayloadError::Field => CorruptReason::BadField { frame_type: kind },
        PayloadError::UnknownType => CorruptReason::UnknownType {
            frame_type: kind,
            seq,
        },
    });
    Ok(Frame {
        seq,
        message: message?,
    })
}

/// Checks the little-endian CRC after `body`.
fn check_crc(body: &[u8], crc: &[u8]) -> Result<(), CorruptReason> {
    let computed = crc16(body);
    let received = match *crc {
        [low, high] => u16::from_le_bytes([low, high]),
        _ => return Err(CorruptReason::TooShort),
    };
    if computed == received {
        Ok(())
    } else {
        Err(CorruptReason::Crc { computed, received })
    }
}

/// Parses the payload of a frame of type `kind`; an unknown type is reported as such.
fn parse_payload(kind: u8, payload: &[u8]) -> Result<Message, PayloadError> {
    let mut reader = Reader::new(payload);
    let message = match kind {
        frame_type::HELLO => Message::Hello(parse_hello(&mut reader)?),
        frame_type::SNAPSHOT => Message::Snapshot(parse_snapshot(&mut reader)?),
        frame_type::CHANGE => Message::Change(parse_change(&mut reader)?),
        frame_type::BUTTON => parse_button(&mut reader)?,
        frame_type::HEARTBEAT => Message::Heartbeat {
            time_ms: time(&mut reader)?,
        },
        frame_type::REQUEST_SNAPSHOT => Message::RequestSnapshot,
        frame_type::SET_LEDS => Message::SetLeds(parse_set_leds(&mut reader)?),
        frame_type::ACK => Message::Ack {
            seq: byte(&mut reader)?,
        },
        _ => return Err(PayloadError::UnknownType),
    };
    if reader.is_empty() {
        Ok(message)
    } else {
        Err(PayloadError::Length)
    }
}

/// The next byte, or a length error.
fn byte(reader: &mut Reader<'_>) -> Result<u8, PayloadError> {
    reader.u8().ok_or(PayloadError::Length)
}

/// The next little-endian millisecond time, or a length error.
fn time(reader: &mut Reader<'_>) -> Result<u32, PayloadError> {
    reader.u32().ok_or(PayloadError::Length)
}

/// HELLO: version, board id, firmware major, minor, patch, capabilities.
fn parse_hello(reader: &mut Reader<'_>) -> Result<Hello, PayloadError> {
    let protocol_version = byte(reader)?;
    let board_id = reader.array().ok_or(PayloadError::Length)?;
    let [major, minor, patch, capabilities] = reader.array().ok_or(PayloadError::Length)?;
    Ok(Hello {
        protocol_version,
        board_id,
        firmware: FirmwareVersion {
            major,
            minor,
            patch,
        },
        capabilities: Capabilities::from_bits(capabilities),
    })
}

/// SNAPSHOT: occupancy, then optionally 32 bytes of piece codes consistent with it.
fn parse_snapshot(reader: &mut Reader<'_>) -> Result<Snapshot, PayloadError> {
    let occupancy = reader.u64().ok_or(PayloadError::Length)?;
    let pieces = if reader.is_empty() {
        None
    } else {
        let bytes = reader.array().ok_or(PayloadError::Length)?;
        Some(PieceCodes::from_bytes(bytes).map_err(|_| PayloadError::Field)?)
    };
    let snapshot = Snapshot { occupancy, pieces };
    snapshot
        .is_consistent()
        .then_some(snapshot)
        .ok_or(PayloadError::Field)
}

/// CHANGE: square, action, piece code, time.
fn parse_change(reader: &mut Reader<'_>) -> Result<Change, PayloadError> {
    let [square, action, piece] = reader.array().ok_or(PayloadError::Length)?;
    let time_ms = time(reader)?;
    Ok(Change {
        square: Square::new(square).ok_or(PayloadError::Field)?,
        action: Action::from_code(action).ok_or(PayloadError::Field)?,
        piece: Piece::from_code(piece).map_err(|_| PayloadError::Field)?,
        time_ms,
    })
}

/// BUTTON: button, time.
fn parse_button(reader: &mut Reader<'_>) -> Result<Message, PayloadError> {
    let code = byte(reader)?;
    let time_ms = time(reader)?;
    let button = Button::from_code(code).ok_or(PayloadError::Field)?;
    Ok(Message::Button { button, time_ms })
}

/// SET_LEDS: mask, pattern.
fn parse_set_leds(reader: &mut Reader<'_>) -> Result<SetLeds, PayloadError> {
    let mask = reader.u64().ok_or(PayloadError::Length)?;
    let pattern = LedPattern::from_code(byte(reader)?).ok_or(PayloadError::Field)?;
    Ok(SetLeds { mask, pattern })
}
