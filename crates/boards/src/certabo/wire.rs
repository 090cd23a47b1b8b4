//! The Certabo frames: what the board streams (text) and the LED bytes the host writes.
//!
//! The board streams frames without being asked, each a `:`, decimal numbers separated by
//! spaces, then a line break (`\r\n`):
//!
//! - an RFID board's frame holds 320 numbers, five chip bytes a square, the squares from a8
//!   along each rank to h1 (a8 b8 … h8, a7 … h1); a square without a piece reads zeros (a chip
//!   with more than two zero bytes is no chip: [`Chip::is_none`]);
//! - a Sentio board's (TabuTronic's, no chips) holds 8 numbers, one a rank from the eighth, a bit
//!   a square, the high bit file a.
//!
//! Letters some boards put in a frame (`L`, `D`: which lights they have) are passed over. The
//! host lights squares with 8 bytes, byte `8 - rank`, bit `1 << file` (a = bit 0).

use std::collections::VecDeque;

use touchmove_core::decode::StreamDecoder;

use shakmaty::{Bitboard, File, Rank, Square};

/// How many numbers an RFID board's frame holds.
pub const RFID_NUMBERS: usize = 320;
/// How many numbers a Sentio board's frame holds.
pub const SENTIO_NUMBERS: usize = 8;
/// The longest frame read (a 320-number frame is at most 1,281 characters): a longer line is
/// noise, dropped so that it cannot hold back the frames after it.
pub const LINE_MAX: usize = 2048;

/// What one chip under a square reads: five bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Chip(pub [u8; 5]);

impl Chip {
    /// No chip: all zeros.
    pub const NONE: Chip = Chip([0; 5]);

    /// Whether the square holds no chip: more than two of its bytes are zero (as Certabo's own
    /// software reads it; an empty square may show stray values).
    pub fn is_none(&self) -> bool {
        self.0.iter().filter(|&&byte| byte == 0).count() > 2
    }
}

impl std::fmt::Display for Chip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [a, b, c, d, e] = self.0;
        write!(f, "{a} {b} {c} {d} {e}")
    }
}

/// One frame of the board's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reading {
    /// An RFID board's: the chip under each square, a8 first along each rank, then down to h1
    /// ([`square_at`]).
    Chips(Box<[Chip; 64]>),
    /// A Sentio board's: the squares occupied.
    Occupancy(Bitboard),
}

/// The square of the `index`th square of a frame (0: a8, 7: h8, 8: a7 … 63: h1).
pub fn square_at(index: usize) -> Option<Square> {
    let rank = 7u32.checked_sub(u32::try_from(index / 8).ok()?)?;
    let file = u32::try_from(index % 8).ok()?;
    Some(Square::from_coords(
        File::try_from(file).ok()?,
        Rank::try_from(rank).ok()?,
    ))
}

/// The index in a frame of `square` (a8: 0, h1: 63).
pub fn index_of(square: Square) -> usize {
    (7 - usize::from(square.rank())) * 8 + usize::from(square.file())
}

/// The 8 LED bytes that light `squares`: byte `8 - rank`, bit `1 << file`.
pub fn encode_leds(squares: Bitboard) -> [u8; 8] {
    let mut bytes = [0u8; 8];
    for square in squares {
        if let Some(byte) = bytes.get_mut(7 - usize::from(square.rank())) {
            *byte |= 1 << u32::from(square.file());
        }
    }
    bytes
}

/// The squares 8 LED bytes light.
pub fn decode_leds(bytes: &[u8]) -> Bitboard {
    let mut squares = Bitboard::EMPTY;
    for (row, &byte) in bytes.iter().take(8).enumerate() {
        for file in 0..8u32 {
            if byte & (1 << file) != 0
                && let Some(square) = square_at(row * 8 + file as usize)
            {
                squares.add(square);
            }
        }
    }
    squares
}

/// The text of `reading` as the board streams it (the emulator's side): `:`, the numbers, a
/// line break.
pub fn encode_reading(reading: &Reading) -> Vec<u8> {
    let numbers: Vec<String> = match reading {
        Reading::Chips(chips) => chips
            .iter()
            .flat_map(|chip| chip.0.iter().map(u8::to_string))
            .collect(),
        Reading::Occupancy(occupied) => (0..8)
            .map(|row| {
                let byte = (0..8u32).fold(0u8, |byte, file| {
                    let lit = square_at(row * 8 + file as usize)
                        .is_some_and(|square| occupied.contains(square));
                    if lit { byte | (0x80 >> file) } else { byte }
                });
                byte.to_string()
            })
            .collect(),
    };
    format!(":{} \r\n", numbers.join(" ")).into_bytes()
}

/// What the decoder found: an intact frame, or a line that made none.
pub type Decoded = Result<Reading, Corrupt>;

/// A line that made no frame, dropped, with why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Corrupt {
    /// Exactly the bytes dropped.
    pub dropped: Vec<u8>,
    /// Why, in words.
    pub why: String,
}

/// The host's decoder of the board's stream: bytes in, frames (or what was not one) out.
///
/// ```
/// use shakmaty::{Bitboard, Rank, Square};
/// use touchmove_boards::certabo::wire::{Corrupt, FrameDecoder, Reading};
/// use touchmove_core::decode::StreamDecoder;
///
/// let mut decoder = FrameDecoder::new();
/// // A Sentio board set up for a game: ranks 8, 7, 2 and 1 full (a byte a rank, from the
/// // eighth), in two pieces, then a line of noise.
/// decoder.push(b":255 255 0 0 ");
/// assert_eq!(decoder.poll(), None, "half a frame waits for the rest");
/// decoder.push(b"0 0 255 255 \r\nnoise\r\n");
/// let full = Bitboard::from_rank(Rank::First)
///     | Bitboard::from_rank(Rank::Second)
///     | Bitboard::from_rank(Rank::Seventh)
///     | Bitboard::from_rank(Rank::Eighth);
/// assert_eq!(decoder.poll(), Some(Ok(Reading::Occupancy(full))));
/// assert!(matches!(decoder.poll(), Some(Err(Corrupt { .. }))));
/// // e2 lifted: the seventh number (rank 2) loses bit 0x08 (file e, the high bit file a).
/// decoder.push(b":255 255 0 0 0 0 247 255\r\n");
/// let lifted = full.without(Square::E2);
/// assert_eq!(decoder.poll(), Some(Ok(Reading::Occupancy(lifted))));
/// ```
#[derive(Debug, Default)]
pub struct FrameDecoder {
    pending: Vec<u8>,
    out: VecDeque<Decoded>,
}

impl StreamDecoder for FrameDecoder {
    type Frame = Reading;
    type Error = Corrupt;

    /// Takes bytes from the board.
    fn push(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            if byte == b'\n' {
                let line = std::mem::take(&mut self.pending);
                if let Some(decoded) = line_frame(line) {
                    self.out.push_back(decoded);
                }
            } else {
                self.pending.push(byte);
                if self.pending.len() > LINE_MAX {
                    let dropped = std::mem::take(&mut self.pending);
                    self.out.push_back(Err(Corrupt {
                        why: format!("a line longer than {LINE_MAX} bytes"),
                        dropped,
                    }));
                }
            }
        }
    }

    /// The stream ended: a line begun without its line break is dropped.
    fn finish(&mut self) {
        if !self.pending.is_empty() {
            let dropped = std::mem::take(&mut self.pending);
            self.out.push_back(Err(Corrupt {
                dropped,
                why: "a line cut short".to_owned(),
            }));
        }
    }

    /// The next thing found, if the bytes so far make one.
    fn poll(&mut self) -> Option<Decoded> {
        self.out.pop_front()
    }
}

impl FrameDecoder {
    /// A decoder with nothing pending.
    pub fn new() -> FrameDecoder {
        FrameDecoder::default()
    }

    /// Whether bytes of a line begun wait for the rest.
    pub fn pending(&self) -> bool {
        !self.pending.is_empty()
    }
}

/// The frame a line (its line break taken off) holds: from its last `:`; `None` for a line
/// with nothing in it.
fn line_frame(line: Vec<u8>) -> Option<Decoded> {
    let corrupt = |line: Vec<u8>, why: String| Err(Corrupt { dropped: line, why });
    let Ok(text) = std::str::from_utf8(&line) else {
        return Some(corrupt(line, "bytes that are no text".to_owned()));
    };
    let body = match text.rfind(':') {
        Some(at) => text.get(at + 1..).unwrap_or_default(),
        None if text.trim().is_empty() => return None,
        None => return Some(corrupt(line.clone(), "a line with no `:`".to_owned())),
    };
    let mut numbers = Vec::with_capacity(RFID_NUMBERS);
    for word in body
        .split(|c: char| c.is_ascii_whitespace() || matches!(c, 'L' | 'D' | '*'))
        .filter(|word| !word.is_empty())
    {
        match word.parse::<u8>() {
            Ok(number) => numbers.push(number),
            Err(_) => {
                return Some(corrupt(
                    line.clone(),
                    format!("`{word}` is no number of 0 to 255"),
                ));
            }
        }
    }
    Some(match numbers.len() {
        RFID_NUMBERS => Ok(Reading::Chips(Box::new(chips(&numbers)))),
        SENTIO_NUMBERS => Ok(Reading::Occupancy(occupancy(&numbers))),
        count => corrupt(
            line.clone(),
            format!(
                "{count} numbers: a frame holds {RFID_NUMBERS} (RFID) or {SENTIO_NUMBERS} (Sentio)"
            ),
        ),
    })
}

/// The 64 chips of 320 numbers.
fn chips(numbers: &[u8]) -> [Chip; 64] {
    let mut chips = [Chip::NONE; 64];
    for (chip, bytes) in chips.iter_mut().zip(numbers.chunks_exact(5)) {
        if let Ok(bytes) = <[u8; 5]>::try_from(bytes) {
            *chip = Chip(bytes);
        }
    }
    chips
}

/// The squares 8 Sentio numbers show occupied (the high bit file a).
fn occupancy(numbers: &[u8]) -> Bitboard {
    let mut occupied = Bitboard::EMPTY;
    for (row, &byte) in numbers.iter().take(8).enumerate() {
        for file in 0..8u32 {
            if byte & (0x80 >> file) != 0
                && let Some(square) = square_at(row * 8 + file as usize)
            {
                occupied.add(square);
            }
        }
    }
    occupied
}

#[cfg(test)]
mod tests;
