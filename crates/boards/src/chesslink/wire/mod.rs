//! The Millennium ChessLink wire format, both directions: what the host sends, what the board
//! answers, each encoded and decoded here together.
//!
//! Every frame is printable ASCII: a command letter (upper case from the host, the same letter
//! in lower case in the board's answer), its data as characters, and a block parity check: the
//! XOR of every character before it, sent as two upper-case hex digits. The line is 7 data bits
//! with odd parity; the parity bit is the serial driver's, and a byte's top bit is ignored here
//! (a pseudo-terminal passes it through).

mod decoder;

pub use decoder::{CommandDecoder, Corrupt, Decoded, FrameDecoder, ReplyDecoder};

use shakmaty::{Board, Color, Piece, Role, Square};

/// What the host asks of the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostCommand {
    /// `S`: the whole board's pieces.
    Status,
    /// `L`: the flash pattern of all 81 LEDs (LED 1 in the a8 corner, 9 in a1, 73 in h8, 81 in
    /// h1), each a byte whose bits, b7 first, are shown one slot each; `slot_time` in units of
    /// 4.096 ms.
    Leds {
        /// The length of one slot of the pattern, in units of 4.096 ms.
        slot_time: u8,
        /// The 81 LEDs' patterns.
        patterns: Box<[u8; LED_COUNT]>,
    },
    /// `X`: every LED off.
    LedsOff,
    /// `T`: a hardware reset (no answer; the board scans again after about 3 s).
    Reset,
    /// `V`: the firmware version.
    Version,
    /// `W`: writes `value` at `address` of the board's E2ROM.
    Write {
        /// The E2ROM address.
        address: u8,
        /// The byte written.
        value: u8,
    },
    /// `R`: reads the E2ROM at `address`.
    Read {
        /// The E2ROM address.
        address: u8,
    },
}

/// What the board sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardReply {
    /// `s`: the pieces on the board (an answer to `S`, or an automatic report).
    Status(Board),
    /// `l`: the LED pattern was taken.
    Leds,
    /// `x`: the LEDs are off.
    LedsOff,
    /// `v`: the firmware version, high and low.
    Version(u8, u8),
    /// `w`: `value` was written at `address`.
    Written {
        /// The E2ROM address.
        address: u8,
        /// The byte written.
        value: u8,
    },
    /// `r`: the E2ROM holds `value` at `address`.
    Read {
        /// The E2ROM address.
        address: u8,
        /// The byte read.
        value: u8,
    },
}

/// How many LEDs the board has (9 by 9, at the squares' corners).
pub const LED_COUNT: usize = 81;

/// The LEDs (0-based) at `square`'s four corners: LED columns run from the a-file's outer edge
/// to the h-file's, nine LEDs each from the eighth rank's outer edge to the first's.
pub fn corners(square: Square) -> [usize; 4] {
    let column = usize::from(square.file());
    let row = 7 - usize::from(square.rank());
    let at = |column: usize, row: usize| column * 9 + row;
    [
        at(column, row),
        at(column, row + 1),
        at(column + 1, row),
        at(column + 1, row + 1),
    ]
}

/// The E2ROM address of the automatic reports setting.
pub const E2ROM_AUTO_REPORTS: u8 = 0x02;

/// The E2ROM address of the scan time (units of 2.048 ms; 20 by default).
pub const E2ROM_SCAN_TIME: u8 = 0x01;

/// The default scan time: 20 units of 2.048 ms, 40.96 ms.
pub const DEFAULT_SCAN_TIME: u8 = 0x14;

/// Automatic reports value: a status report at the scan that sees any change (no debounce).
pub const AUTO_REPORTS_ON_CHANGE: u8 = 0b011;

/// Automatic reports value: a status report on any change, after a 2-scan debounce.
pub const AUTO_REPORTS_ON_CHANGE_DEBOUNCED: u8 = 0b100;

/// The frame of `command`, block parity included.
pub fn encode_command(command: &HostCommand) -> Vec<u8> {
    let mut frame = Vec::new();
    match command {
        HostCommand::Status => frame.push(b'S'),
        HostCommand::Leds {
            slot_time,
            patterns,
        } => {
            frame.push(b'L');
            push_hex(&mut frame, *slot_time);
            for &pattern in patterns.iter() {
                push_hex(&mut frame, pattern);
            }
        }
        HostCommand::LedsOff => frame.push(b'X'),
        HostCommand::Reset => frame.push(b'T'),
        HostCommand::Version => frame.push(b'V'),
        HostCommand::Write { address, value } => {
            frame.push(b'W');
            push_hex(&mut frame, *address);
            push_hex(&mut frame, *value);
        }
        HostCommand::Read { address } => {
            frame.push(b'R');
            push_hex(&mut frame, *address);
        }
    }
    seal(frame)
}

/// The frame of `reply`, block parity included.
pub fn encode_reply(reply: &BoardReply) -> Vec<u8> {
    let mut frame = Vec::new();
    match reply {
        BoardReply::Status(board) => {
            frame.push(b's');
            for square in board_order() {
                frame.push(piece_char(board.piece_at(square)));
            }
        }
        BoardReply::Leds => frame.push(b'l'),
        BoardReply::LedsOff => frame.push(b'x'),
        BoardReply::Version(high, low) => {
            frame.push(b'v');
            push_hex(&mut frame, *high);
            push_hex(&mut frame, *low);
        }
        BoardReply::Written { address, value } => {
            frame.push(b'w');
            push_hex(&mut frame, *address);
            push_hex(&mut frame, *value);
        }
        BoardReply::Read { address, value } => {
            frame.push(b'r');
            push_hex(&mut frame, *address);
            push_hex(&mut frame, *value);
        }
    }
    seal(frame)
}

/// A frame's characters' XOR, the block parity check.
pub fn block_parity(characters: &[u8]) -> u8 {
    characters.iter().fold(0, |check, &c| check ^ (c & 0x7f))
}

/// The squares in the order a status lists them: a8 … h8, a7 … h7, …, a1 … h1.
pub fn board_order() -> impl Iterator<Item = Square> {
    (0..8u32)
        .rev()
        .flat_map(|rank| (0..8u32).map(move |file| Square::new(rank * 8 + file)))
}

/// The status character of `piece` (`.` for an empty square).
pub fn piece_char(piece: Option<Piece>) -> u8 {
    piece.map_or(b'.', |piece| piece.char() as u8)
}

/// A status character that is no piece nor `.`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{0:#04x} is no piece code")]
pub struct NotAPiece(pub u8);

/// The piece a status character stands for (`Ok(None)` for an empty square).
pub fn piece_of(character: u8) -> Result<Option<Piece>, NotAPiece> {
    if character == b'.' {
        return Ok(None);
    }
    let role =
        Role::from_char(char::from(character.to_ascii_lowercase())).ok_or(NotAPiece(character))?;
    let color = Color::from_white(character.is_ascii_uppercase());
    Ok(Some(Piece { color, role }))
}

/// Appends `frame`'s block parity as two hex digits.
fn seal(mut frame: Vec<u8>) -> Vec<u8> {
    let check = block_parity(&frame);
    push_hex(&mut frame, check);
    frame
}

/// Appends `byte` as two upper-case hex digits.
fn push_hex(frame: &mut Vec<u8>, byte: u8) {
    frame.push(hex_digit(byte >> 4));
    frame.push(hex_digit(byte & 0x0f));
}

fn hex_digit(nibble: u8) -> u8 {
    match nibble {
        0..=9 => b'0' + nibble,
        _ => b'A' + (nibble - 10),
    }
}

/// The byte two hex digits stand for.
pub(crate) fn from_hex(high: u8, low: u8) -> Option<u8> {
    let value = |digit: u8| {
        char::from(digit)
            .to_digit(16)
            .and_then(|d| u8::try_from(d).ok())
    };
    Some((value(high)? << 4) | value(low)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_request_is_s_and_its_check() {
        // 'S' is 0x53: the check is 0x53 itself.
        assert_eq!(encode_command(&HostCommand::Status), b"S53");
        // 'V' is 0x56.
        assert_eq!(encode_command(&HostCommand::Version), b"V56");
    }

    #[test]
    fn a_write_carries_address_and_value_in_hex() {
        let frame = encode_command(&HostCommand::Write {
            address: E2ROM_AUTO_REPORTS,
            value: AUTO_REPORTS_ON_CHANGE_DEBOUNCED,
        });
        // W 0 2 0 4: 0x57 ^ 0x30 ^ 0x32 ^ 0x30 ^ 0x34 = 0x51.
        assert_eq!(frame, b"W020451");
    }

    #[test]
    fn the_start_position_reads_from_a8() {
        let frame = encode_reply(&BoardReply::Status(Board::new()));
        assert_eq!(frame.len(), 1 + 64 + 2);
        assert_eq!(frame.get(1..9), Some(&b"rnbqkbnr"[..]));
        assert_eq!(frame.get(57..65), Some(&b"RNBQKBNR"[..]));
    }

    #[test]
    fn piece_characters_read_back() {
        for character in b"KQRBNPkqrbnp.".iter().copied() {
            assert_eq!(piece_of(character).map(piece_char), Ok(character));
        }
        assert_eq!(piece_of(b'x'), Err(NotAPiece(b'x')));
    }
}
