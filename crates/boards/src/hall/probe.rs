//! Recognising a Hall-sensor board on a port: it answers REQUEST_SNAPSHOT with a SNAPSHOT (and
//! a board that has just powered up sends its HELLO first).

use touchmove_core::decode::StreamDecoder;
use touchmove_firmware_protocol::{self as protocol, Frame, MAX_WIRE, Message};

use super::frames::HallDecoder;

use super::session::describe;

/// A delimiter (ending whatever the board had half-read), then REQUEST_SNAPSHOT numbered 0.
pub(crate) fn request() -> Vec<u8> {
    let frame = Frame {
        seq: 0x00,
        message: Message::RequestSnapshot,
    };
    let mut buffer = [0x00; MAX_WIRE];
    let length = protocol::encode(&frame, &mut buffer).unwrap_or(0);
    let mut bytes = vec![0x00];
    bytes.extend(buffer.iter().take(length));
    bytes
}

/// What the board is once the bytes hold an intact board frame: its HELLO's description if it
/// sent one, else that it speaks the protocol.
pub(crate) fn recognise(bytes: &[u8]) -> Option<String> {
    let mut decoder = HallDecoder::new();
    decoder.push(bytes);
    let mut found = None;
    while let Some(decoded) = decoder.poll() {
        let Ok(frame) = decoded else {
            continue;
        };
        match frame.message {
            Message::Hello(hello) => return Some(describe(&hello)),
            Message::Snapshot(_)
            | Message::Change(_)
            | Message::Button { .. }
            | Message::Heartbeat { .. } => {
                found = Some("Hall-sensor board (open protocol)".to_owned());
            }
            Message::RequestSnapshot | Message::SetLeds(_) | Message::Ack { .. } => {}
        }
    }
    found
}
