//! The open protocol's frames as a host reads them: the firmware crate's decoder (no_std,
//! allocation-free, one byte at a time, shared with the boards) behind the project's one
//! decoder shape, [`StreamDecoder`].

use std::collections::VecDeque;

use touchmove_core::decode::StreamDecoder;
use touchmove_firmware_protocol::{Corrupt, DELIMITER, Decoded, Decoder, Frame};

/// Frames from the bytes of either side, in any pieces: an intact frame, or the bytes between
/// two delimiters that made none (the next frame decodes after the delimiter).
///
/// ```
/// use touchmove_boards::hall::frames::HallDecoder;
/// use touchmove_core::decode::StreamDecoder;
/// use touchmove_firmware_protocol::{Frame, MAX_WIRE, Message, encode};
///
/// let heartbeat = Frame { seq: 3, message: Message::Heartbeat { time_ms: 1000 } };
/// let mut wire = [0x00; MAX_WIRE];
/// let length = encode(&heartbeat, &mut wire).expect("a heartbeat fits");
/// let mut decoder = HallDecoder::new();
/// decoder.push(&[0x13, 0x37, 0x00]);
/// decoder.push(&wire[..length]);
/// assert!(matches!(decoder.poll(), Some(Err(_))), "noise before a delimiter");
/// assert_eq!(decoder.poll(), Some(Ok(heartbeat)));
/// assert_eq!(decoder.poll(), None);
/// ```
#[derive(Debug, Clone, Default)]
pub struct HallDecoder {
    decoder: Decoder,
    out: VecDeque<Result<Frame, Corrupt>>,
}

impl HallDecoder {
    /// A decoder at the start of a frame.
    pub fn new() -> HallDecoder {
        HallDecoder::default()
    }

    /// Takes one item of the firmware decoder's.
    fn take(&mut self, decoded: Option<Decoded>) {
        match decoded {
            Some(Decoded::Frame(frame)) => self.out.push_back(Ok(frame)),
            Some(Decoded::Corrupt(corrupt)) => self.out.push_back(Err(corrupt)),
            None => {}
        }
    }
}

impl StreamDecoder for HallDecoder {
    type Frame = Frame;
    type Error = Corrupt;

    fn push(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            let decoded = self.decoder.push_byte(byte);
            self.take(decoded);
        }
    }

    /// The stream ended: the bytes since the last delimiter are read as a frame whose
    /// delimiter never came (whole, or corrupt).
    fn finish(&mut self) {
        let decoded = self.decoder.push_byte(DELIMITER);
        self.take(decoded);
    }

    fn poll(&mut self) -> Option<Result<Frame, Corrupt>> {
        self.out.pop_front()
    }
}
