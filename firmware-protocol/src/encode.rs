//! The encoder: a frame to its bytes on the wire, written into the caller's buffer.

use crate::bytes::{Full, Writer};
use crate::cobs;
use crate::crc::crc16;
use crate::frame::Frame;
use crate::message::{Change, Hello, Message};
use crate::piece::code_of;
use crate::snapshot::Snapshot;
use crate::wire::{DELIMITER, HEADER_LENGTH, MAX_RAW};

/// The output buffer cannot hold the frame; [`MAX_WIRE`](crate::MAX_WIRE) bytes always
/// suffice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BufferTooSmall;

impl From<Full> for BufferTooSmall {
    fn from(_: Full) -> BufferTooSmall {
        BufferTooSmall
    }
}

/// Writes `frame` as it goes on the wire (COBS-encoded, then the 0x00 delimiter) to the start of
/// `out`, and returns how many bytes it took (at most [`MAX_WIRE`](crate::MAX_WIRE)).
pub fn encode(frame: &Frame, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
    let mut raw = [0x00; MAX_RAW];
    let raw_length = encode_raw(frame, &mut raw)?;
    let mut wire = Writer::new(out);
    cobs::encode(raw.get(..raw_length).unwrap_or_default(), &mut wire)?;
    wire.put(DELIMITER)?;
    Ok(wire.len())
}

/// Writes the frame before COBS: length, type, sequence number, payload, CRC (little-endian).
fn encode_raw(frame: &Frame, raw: &mut [u8]) -> Result<usize, Full> {
    let mut writer = Writer::new(raw);
    writer.put_all(&[0x00, frame.message.frame_type(), frame.seq])?;
    write_payload(&frame.message, &mut writer)?;
    let payload_length = writer.len() - HEADER_LENGTH;
    writer.set(0, u8::try_from(payload_length).map_err(|_| Full)?)?;
    let crc = crc16(writer.written());
    writer.put_all(&crc.to_le_bytes())?;
    Ok(writer.len())
}

/// Writes a message's payload.
fn write_payload(message: &Message, out: &mut Writer<'_>) -> Result<(), Full> {
    match *message {
        Message::Hello(hello) => write_hello(&hello, out),
        Message::Snapshot(snapshot) => write_snapshot(&snapshot, out),
        Message::Change(change) => write_change(&change, out),
        Message::Button { button, time_ms } => {
            out.put(button.code())?;
            out.put_all(&time_ms.to_le_bytes())
        }
        Message::Heartbeat { time_ms } => out.put_all(&time_ms.to_le_bytes()),
        Message::RequestSnapshot => Ok(()),
        Message::SetLeds(leds) => {
            out.put_all(&leds.mask.to_le_bytes())?;
            out.put(leds.pattern.code())
        }
        Message::Ack { seq } => out.put(seq),
    }
}

/// HELLO: version, board id, firmware major, minor, patch, capabilities.
fn write_hello(hello: &Hello, out: &mut Writer<'_>) -> Result<(), Full> {
    out.put(hello.protocol_version)?;
    out.put_all(&hello.board_id)?;
    let firmware = hello.firmware;
    out.put_all(&[firmware.major, firmware.minor, firmware.patch])?;
    out.put(hello.capabilities.bits())
}

/// SNAPSHOT: occupancy, then the packed piece codes if any.
fn write_snapshot(snapshot: &Snapshot, out: &mut Writer<'_>) -> Result<(), Full> {
    out.put_all(&snapshot.occupancy.to_le_bytes())?;
    match snapshot.pieces {
        Some(pieces) => out.put_all(&pieces.bytes()),
        None => Ok(()),
    }
}

/// CHANGE: square, action, piece code, time.
fn write_change(change: &Change, out: &mut Writer<'_>) -> Result<(), Full> {
    out.put_all(&[
        change.square.index(),
        change.action.code(),
        code_of(change.piece),
    ])?;
    out.put_all(&change.time_ms.to_le_bytes())
}
