//! Streaming decoders of ChessLink frames, for the host (the board's replies) and for an
//! emulated board (the host's commands): bytes in any chunks, frames out, with what could not
//! be read reported as corrupt and skipped up to the next frame's letter.
//!
//! A frame's length follows from its letter, so a frame is complete when that many characters
//! have come. Its block parity must match; noise, a lost character or a wrong check makes it
//! corrupt, and decoding starts again at the next character that can begin a frame.

use std::collections::VecDeque;

use touchmove_core::decode::StreamDecoder;

use shakmaty::Board;

use super::{BoardReply, HostCommand, LED_COUNT, block_parity, board_order, from_hex, piece_of};

/// What a decoder found in the bytes: a whole frame with a good check, or characters that make
/// no frame.
pub type Decoded<T> = Result<T, Corrupt>;

/// Characters that make no frame (noise, a bad check, a frame cut short), dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Corrupt {
    /// The characters dropped (top bits cleared).
    pub dropped: Vec<u8>,
}

/// Decodes the board's replies (the host's side).
pub type ReplyDecoder = FrameDecoder<BoardReply>;

/// Decodes the host's commands (an emulated board's side).
pub type CommandDecoder = FrameDecoder<HostCommand>;

/// A streaming decoder of frames of one direction.
#[derive(Debug, Clone)]
pub struct FrameDecoder<T> {
    buffer: Vec<u8>,
    out: VecDeque<Decoded<T>>,
    length_of: fn(u8) -> Option<usize>,
    parse: fn(&[u8]) -> Option<T>,
}

impl FrameDecoder<BoardReply> {
    /// A decoder of the board's replies.
    pub fn replies() -> ReplyDecoder {
        FrameDecoder::new(reply_length, parse_reply)
    }
}

impl FrameDecoder<HostCommand> {
    /// A decoder of the host's commands.
    pub fn commands() -> CommandDecoder {
        FrameDecoder::new(command_length, parse_command)
    }
}

impl<T> StreamDecoder for FrameDecoder<T> {
    type Frame = T;
    type Error = Corrupt;

    /// Takes bytes from the line (the parity bit, if the driver left it, is ignored).
    fn push(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.push_char(byte & 0x7f);
        }
    }

    /// The line went quiet: a frame begun and not ended never will be. Its characters are
    /// dropped, except whole frames among them (a noise character that looked like a frame's
    /// letter holds back the frames after it until the length it promised has come).
    fn finish(&mut self) {
        while !self.buffer.is_empty() {
            let frame = std::mem::take(&mut self.buffer);
            self.resync(frame);
        }
    }

    /// The next thing decoded, if any.
    fn poll(&mut self) -> Option<Decoded<T>> {
        self.out.pop_front()
    }
}

impl<T> FrameDecoder<T> {
    fn new(length_of: fn(u8) -> Option<usize>, parse: fn(&[u8]) -> Option<T>) -> FrameDecoder<T> {
        FrameDecoder {
            buffer: Vec::new(),
            out: VecDeque::new(),
            length_of,
            parse,
        }
    }

    /// Whether a frame has begun and not ended.
    pub fn pending(&self) -> bool {
        !self.buffer.is_empty()
    }

    fn push_char(&mut self, c: u8) {
        if self.buffer.is_empty() && (self.length_of)(c).is_none() {
            self.drop_chars(vec![c]);
            return;
        }
        self.buffer.push(c);
        let Some(length) = self.buffer.first().and_then(|&lead| (self.length_of)(lead)) else {
            return;
        };
        if self.buffer.len() < length {
            return;
        }
        let frame = std::mem::take(&mut self.buffer);
        match checked(&frame).and_then(self.parse) {
            Some(decoded) => self.out.push_back(Ok(decoded)),
            None => self.resync(frame),
        }
    }

    /// A frame that did not read: its first character is dropped and the rest read again,
    /// from the next character that can begin a frame.
    fn resync(&mut self, frame: Vec<u8>) {
        let restart = frame
            .iter()
            .skip(1)
            .position(|&c| (self.length_of)(c).is_some())
            .map_or(frame.len(), |at| at + 1);
        let (dropped, rest) = frame.split_at(restart.min(frame.len()));
        self.drop_chars(dropped.to_vec());
        for &c in rest {
            self.push_char(c);
        }
    }

    fn drop_chars(&mut self, chars: Vec<u8>) {
        if let Some(Err(Corrupt { dropped })) = self.out.back_mut() {
            dropped.extend(chars);
        } else {
            self.out.push_back(Err(Corrupt { dropped: chars }));
        }
    }
}

/// The frame without its check, when the check is right.
fn checked(frame: &[u8]) -> Option<&[u8]> {
    let (body, check) = frame.split_at(frame.len().checked_sub(2)?);
    let [high, low] = check else {
        return None;
    };
    (from_hex(*high, *low)? == block_parity(body)).then_some(body)
}

/// The length of a reply beginning with `lead`, check included.
fn reply_length(lead: u8) -> Option<usize> {
    match lead {
        b's' => Some(1 + 64 + 2),
        b'l' | b'x' => Some(3),
        b'v' | b'w' | b'r' => Some(7),
        _ => None,
    }
}

/// The length of a command beginning with `lead`, check included.
fn command_length(lead: u8) -> Option<usize> {
    match lead {
        b'S' | b'X' | b'T' | b'V' => Some(3),
        b'L' => Some(1 + 2 + 2 * LED_COUNT + 2),
        b'W' => Some(7),
        b'R' => Some(5),
        _ => None,
    }
}

/// The bytes two hex digits at `at` of `body` stand for.
fn hex_at(body: &[u8], at: usize) -> Option<u8> {
    from_hex(*body.get(at)?, *body.get(at + 1)?)
}

fn parse_reply(body: &[u8]) -> Option<BoardReply> {
    let (&lead, data) = body.split_first()?;
    Some(match lead {
        b's' => {
            let mut board = Board::empty();
            for (square, &c) in board_order().zip(data) {
                if let Some(piece) = piece_of(c).ok()? {
                    board.set_piece_at(square, piece);
                }
            }
            BoardReply::Status(board)
        }
        b'l' => BoardReply::Leds,
        b'x' => BoardReply::LedsOff,
        b'v' => BoardReply::Version(hex_at(data, 0)?, hex_at(data, 2)?),
        b'w' => BoardReply::Written {
            address: hex_at(data, 0)?,
            value: hex_at(data, 2)?,
        },
        b'r' => BoardReply::Read {
            address: hex_at(data, 0)?,
            value: hex_at(data, 2)?,
        },
        _ => return None,
    })
}

fn parse_command(body: &[u8]) -> Option<HostCommand> {
    let (&lead, data) = body.split_first()?;
    Some(match lead {
        b'S' => HostCommand::Status,
        b'X' => HostCommand::LedsOff,
        b'T' => HostCommand::Reset,
        b'V' => HostCommand::Version,
        b'L' => {
            let slot_time = hex_at(data, 0)?;
            let mut patterns = Box::new([0u8; LED_COUNT]);
            for (index, pattern) in patterns.iter_mut().enumerate() {
                *pattern = hex_at(data, 2 + 2 * index)?;
            }
            HostCommand::Leds {
                slot_time,
                patterns,
            }
        }
        b'W' => HostCommand::Write {
            address: hex_at(data, 0)?,
            value: hex_at(data, 2)?,
        },
        b'R' => HostCommand::Read {
            address: hex_at(data, 0)?,
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::{encode_command, encode_reply};
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_flush_frees_the_frames_a_noise_letter_held_back() {
        let mut decoder = FrameDecoder::replies();
        // 's' promises 67 characters; the 3 of `x` and its check come after it.
        decoder.push(b"s");
        decoder.push(&encode_reply(&BoardReply::LedsOff));
        assert_eq!(decoder.poll(), None);
        assert!(decoder.pending());
        decoder.finish();
        assert_eq!(
            decoder.poll(),
            Some(Err(Corrupt {
                dropped: b"s".to_vec()
            }))
        );
        assert_eq!(decoder.poll(), Some(Ok(BoardReply::LedsOff)));
        assert!(!decoder.pending());
    }

    proptest! {
        #[test]
        fn any_bytes_in_any_chunks_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600), chunk in 1usize..80) {
            let mut replies = FrameDecoder::replies();
            let mut commands = FrameDecoder::commands();
            for piece in bytes.chunks(chunk) {
                replies.push(piece);
                commands.push(piece);
            }
            while replies.poll().is_some() {}
            while commands.poll().is_some() {}
        }
    }

    fn replies(bytes: &[u8]) -> Vec<Decoded<BoardReply>> {
        let mut decoder = FrameDecoder::replies();
        decoder.push(bytes);
        std::iter::from_fn(|| decoder.poll()).collect()
    }

    #[test]
    fn every_reply_reads_back_in_any_chunks() {
        let sent = [
            BoardReply::Status(Board::new()),
            BoardReply::Leds,
            BoardReply::LedsOff,
            BoardReply::Version(1, 3),
            BoardReply::Written {
                address: 2,
                value: 4,
            },
            BoardReply::Read {
                address: 1,
                value: 20,
            },
        ];
        let bytes: Vec<u8> = sent.iter().flat_map(encode_reply).collect();
        for chunk in [1, 2, 5, 64, bytes.len()] {
            let mut decoder = FrameDecoder::replies();
            for piece in bytes.chunks(chunk) {
                decoder.push(piece);
            }
            let frames: Vec<BoardReply> = std::iter::from_fn(|| decoder.poll())
                .filter_map(|decoded| decoded.ok())
                .collect();
            assert_eq!(frames, sent, "chunks of {chunk}");
        }
    }

    #[test]
    fn every_command_reads_back() {
        let mut patterns = Box::new([0u8; LED_COUNT]);
        if let Some(first) = patterns.first_mut() {
            *first = 0xc4;
        }
        let sent = [
            HostCommand::Status,
            HostCommand::Leds {
                slot_time: 5,
                patterns,
            },
            HostCommand::LedsOff,
            HostCommand::Reset,
            HostCommand::Version,
            HostCommand::Write {
                address: 2,
                value: 4,
            },
            HostCommand::Read { address: 1 },
        ];
        let mut decoder = FrameDecoder::commands();
        for command in &sent {
            decoder.push(&encode_command(command));
        }
        let frames: Vec<Decoded<HostCommand>> = std::iter::from_fn(|| decoder.poll()).collect();
        let expected: Vec<Decoded<HostCommand>> = sent.into_iter().map(Ok).collect();
        assert_eq!(frames, expected);
    }

    #[test]
    fn a_parity_bit_left_by_the_driver_is_ignored() {
        // 'v' with odd parity set is 0xf6 ('v' = 0x76 has 5 bits set: its parity bit is 0; take
        // '1' = 0x31, 3 bits: 0; '0' = 0x30, 2 bits: set 0xb0).
        let with_parity: Vec<u8> = encode_reply(&BoardReply::Version(1, 0))
            .into_iter()
            .map(|c| if c.count_ones() % 2 == 0 { c | 0x80 } else { c })
            .collect();
        assert_eq!(replies(&with_parity), [Ok(BoardReply::Version(1, 0))]);
    }

    #[test]
    fn noise_and_a_bad_check_are_dropped_and_the_next_frame_reads() {
        let mut bytes = b"??".to_vec();
        // A version reply with a wrong check, then a good one.
        bytes.extend(b"v010300");
        bytes.extend(encode_reply(&BoardReply::LedsOff));
        let decoded = replies(&bytes);
        assert_eq!(decoded.last(), Some(&Ok(BoardReply::LedsOff)));
        let dropped: usize = decoded
            .iter()
            .map(|d| match d {
                Err(Corrupt { dropped }) => dropped.len(),
                Ok(_) => 0,
            })
            .sum();
        assert_eq!(dropped, 2 + 7, "the noise and the whole bad frame");
    }

    #[test]
    fn a_cut_frame_does_not_swallow_the_next() {
        // A status cut short after 10 characters, then a whole LEDs-off reply: the cut frame's
        // length runs into the next, its check fails, and reading starts again at the 'x'.
        let mut bytes = encode_reply(&BoardReply::Status(Board::new()));
        bytes.truncate(10);
        bytes.extend(encode_reply(&BoardReply::LedsOff));
        let mut tail = encode_reply(&BoardReply::Version(1, 3));
        // Enough bytes after it for the cut frame's length (67) to be reached: until then the
        // decoder cannot know the frame was cut (a session resets it when the line goes quiet).
        for _ in 0..20 {
            tail.extend(encode_reply(&BoardReply::Leds));
        }
        bytes.extend(tail);
        let frames: Vec<BoardReply> = replies(&bytes)
            .into_iter()
            .filter_map(|decoded| decoded.ok())
            .collect();
        assert_eq!(frames.first(), Some(&BoardReply::LedsOff));
        assert_eq!(frames.get(1), Some(&BoardReply::Version(1, 3)));
    }
}
