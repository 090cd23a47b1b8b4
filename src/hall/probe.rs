//! Recognising a Hall-sensor board on a port: it answers REQUEST_SNAPSHOT with a SNAPSHOT (and
//! a board that has just powered up sends its HELLO first).

use touchmove_firmware_protocol::{self as protocol, Decoded, Decoder, Frame, MAX_WIRE, Message};

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
    let mut decoder = Decoder::new();
    let mut found = None;
    for decoded in decoder.push(bytes) {
        let Decoded::Frame(frame) = decoded else {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emulation::{EmulatedBoard, EmulatorOptions, ScriptSource};
    use crate::hall::emulator::HallBoardEmulator;

    #[test]
    fn an_emulated_board_is_recognised_by_its_hello_and_not_before() {
        let game = ScriptSource::Game {
            start: shakmaty::Chess::default(),
            moves: Vec::new(),
            messy: false,
        };
        let mut board = HallBoardEmulator::from_options(&EmulatorOptions::new(game))
            .unwrap_or_else(|error| panic!("{error}"));
        board.handle_bytes(0, &request());
        let bytes: Vec<u8> = std::iter::from_fn(|| board.poll_transmit())
            .flatten()
            .collect();
        let described = recognise(&bytes);
        assert!(
            described
                .as_deref()
                .is_some_and(|text| text.starts_with("Hall-sensor board 544d48414c4c3031")),
            "{described:?}"
        );
        // The power-up delimiter alone says nothing.
        assert_eq!(recognise(&bytes[..1]), None);
    }
}
