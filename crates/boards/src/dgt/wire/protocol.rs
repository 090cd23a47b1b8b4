//! The facts of the DGT e-board serial protocol that both ends share: command and message bytes,
//! piece codes, square numbering, and the clock-command wrapper.
//!
//! Link: 9600 baud, 8 data bits, no parity, 1 stop bit, no flow control. Every board message
//! starts with a byte whose top bit is set (`0x80 | id`), followed by the total length (header
//! included) as two 7-bit halves; data bytes always have the top bit clear.

use shakmaty::{Color, Piece, Role, Square};

/// How often a DGT board samples its squares (ms): its reports of a change come at its next
/// scan, every 200–250 ms; the longest is what a rest must outlast to be a release.
pub const SCAN_MS: touchmove_core::sensor::Millis = 250;

/// How long after a clock press the board's reports of what happened before it may still
/// arrive (ms): one full scan (200–250 ms), since a lever change is reported at once and a
/// square change at the next scan, and a margin for the line.
pub const REPORT_HORIZON_MS: touchmove_core::sensor::Millis = 300;

/// The link's baud rate.
pub const BAUD_RATE: u32 = 9600;

/// Host → board command bytes.
pub mod command {
    /// Back to idle; no reply.
    pub const RESET: u8 = 0x40;
    /// Ask for a BWTIME clock report.
    pub const SEND_CLK: u8 = 0x41;
    /// Ask for a BOARD_DUMP.
    pub const SEND_BRD: u8 = 0x42;
    /// Field updates, plus BWTIME at least every second.
    pub const SEND_UPDATE: u8 = 0x43;
    /// Field updates only.
    pub const SEND_UPDATE_BRD: u8 = 0x44;
    /// Ask for the SERIALNR.
    pub const RETURN_SERIALNR: u8 = 0x45;
    /// Ask for the BUSADRES.
    pub const RETURN_BUSADRES: u8 = 0x46;
    /// Ask for the TRADEMARK text.
    pub const SEND_TRADEMARK: u8 = 0x47;
    /// Field updates, plus BWTIME only when the clock changes (what most hosts use).
    pub const SEND_UPDATE_NICE: u8 = 0x4b;
    /// Ask for the BATTERY_STATUS (Bluetooth boards).
    pub const SEND_BATTERY_STATUS: u8 = 0x4c;
    /// Ask for the VERSION.
    pub const SEND_VERSION: u8 = 0x4d;
    /// Ask for the LONG_SERIALNR.
    pub const RETURN_LONG_SERIALNR: u8 = 0x55;
    /// Wraps a clock command: `0x2b, size, 0x03, cmd, data…, 0x00`.
    pub const CLOCK_MESSAGE: u8 = 0x2b;
    /// Never to be sent: EEPROM dump (~8 KB), bus mode, boot loader.
    pub const NEVER_SEND: [u8; 3] = [0x49, 0x4a, 0x4e];
}

/// Board → host message identifiers (the first byte is `0x80 | id`).
pub mod message {
    /// 64 piece codes, square 0..63; 67 bytes in all.
    pub const BOARD_DUMP: u8 = 0x86;
    /// Clock report or clock-command acknowledgement; 10 bytes in all.
    pub const BWTIME: u8 = 0x8d;
    /// One square changed: square, new piece code; 5 bytes in all.
    pub const FIELD_UPDATE: u8 = 0x8e;
    /// Bus address as two 7-bit halves; 5 bytes in all.
    pub const BUSADRES: u8 = 0x90;
    /// Five ASCII digits; 8 bytes in all.
    pub const SERIALNR: u8 = 0x91;
    /// ASCII text of variable length.
    pub const TRADEMARK: u8 = 0x92;
    /// Main and sub version number (binary); 5 bytes in all.
    pub const VERSION: u8 = 0x93;
    /// Charge, time left, status bits; 12 bytes in practice.
    pub const BATTERY_STATUS: u8 = 0xa0;
    /// Ten ASCII digits; 13 bytes in all.
    pub const LONG_SERIALNR: u8 = 0xa2;

    /// The header of every message: the first byte and the two length bytes.
    pub const HEADER_LENGTH: usize = super::message_length::HEADER;

    /// The total length (header included) of a message whose size the protocol fixes, by its
    /// first byte; `None` for TRADEMARK, BATTERY_STATUS (12 bytes in practice, but not fixed)
    /// and unknown messages.
    pub fn fixed_length(first: u8) -> Option<usize> {
        use super::message_length as len;
        match first {
            BOARD_DUMP => Some(len::BOARD_DUMP),
            BWTIME => Some(len::BWTIME),
            FIELD_UPDATE => Some(len::FIELD_UPDATE),
            BUSADRES => Some(len::BUSADRES),
            VERSION => Some(len::VERSION),
            SERIALNR => Some(len::SERIALNR),
            LONG_SERIALNR => Some(len::LONG_SERIALNR),
            _ => None,
        }
    }

    /// Whether `byte` can start a message: its top bit is set (data bytes always have it clear).
    pub fn is_message_start(byte: u8) -> bool {
        byte & 0x80 != 0
    }
}

/// The bits of BWTIME's status byte (d6), and the acknowledgement marker.
pub mod clock_status {
    /// The clock is running.
    pub const RUNNING: u8 = 0x01;
    /// The lever is high on the right side.
    pub const LEVER_RIGHT_HIGH: u8 = 0x02;
    /// The clock's battery is low.
    pub const BATTERY_LOW: u8 = 0x04;
    /// The left player's turn: the left display counts down (0x08/0x09 in real recordings).
    pub const LEFT_TO_MOVE: u8 = 0x08;
    /// The right player's turn: the right display counts down (0x12/0x13 in real recordings).
    pub const RIGHT_TO_MOVE: u8 = 0x10;
    /// No clock is connected.
    pub const NO_CLOCK: u8 = 0x20;
    /// The low nibble of d0 or d3 that marks a BWTIME as a clock-command acknowledgement.
    pub const ACK_NIBBLE: u8 = 0x0a;
}

/// The flag bits of a BWTIME time: the high nibble of the hours byte (d0 or d3), shifted down.
/// The protocol notes say only "flag bits"; these are the meanings DGT's protocol header gives
/// them, as the common host drivers read them.
pub mod clock_flag {
    /// The player's final flag: the last period ran out and the clock is blocked at zero.
    pub const FINAL: u8 = 0x01;
    /// The clock counts time per move for this player.
    pub const TIME_PER_MOVE: u8 = 0x02;
    /// The player's flag is shown: a period ran out (in a multi-period control the clock goes
    /// on into the next one).
    pub const FLAG: u8 = 0x04;
}

/// Clock command codes (inside the `0x2b` wrapper).
pub mod clock_command {
    /// Ask the clock for its version.
    pub const VERSION: u8 = 0x09;
    /// Set and run the times (binary values).
    pub const SET_AND_RUN: u8 = 0x0a;
    /// Beep.
    pub const BEEP: u8 = 0x0b;
    /// Show 8 ASCII characters (DGT 3000).
    pub const DISPLAY: u8 = 0x0c;
    /// Back to the time display.
    pub const END_DISPLAY: u8 = 0x03;
    /// The byte after the size in the wrapper, before the command code.
    pub const START_MESSAGE: u8 = 0x03;
    /// The last byte of the wrapper.
    pub const END_MESSAGE: u8 = 0x00;
    /// DISPLAY's last data byte when the clock should beep (common driver practice).
    pub const DISPLAY_BEEP: u8 = 0x03;
    /// DISPLAY's last data byte when the clock should stay quiet (common driver practice).
    pub const DISPLAY_QUIET: u8 = 0x01;
    /// SET_AND_RUN's last data byte: the left clock runs (common driver practice).
    pub const RUN_LEFT: u8 = 0x01;
    /// SET_AND_RUN's last data byte: the right clock runs (common driver practice).
    pub const RUN_RIGHT: u8 = 0x02;
    /// SET_AND_RUN's last data byte: neither clock runs (common driver practice).
    pub const RUN_NEITHER: u8 = 0x04;
}

/// The total lengths (header included) of the board messages whose length is fixed.
pub mod message_length {
    /// The three header bytes every message starts with.
    pub const HEADER: usize = 3;
    /// BOARD_DUMP: header and 64 piece codes.
    pub const BOARD_DUMP: usize = 67;
    /// BWTIME: header and 7 bytes of clock data.
    pub const BWTIME: usize = 10;
    /// FIELD_UPDATE: header, square, piece code.
    pub const FIELD_UPDATE: usize = 5;
    /// BUSADRES: header and two 7-bit halves.
    pub const BUSADRES: usize = 5;
    /// SERIALNR: header and 5 ASCII digits.
    pub const SERIALNR: usize = 8;
    /// VERSION: header, main and sub version.
    pub const VERSION: usize = 5;
    /// BATTERY_STATUS: header and 9 bytes (the length seen in practice).
    pub const BATTERY_STATUS: usize = 12;
    /// LONG_SERIALNR: header and 10 ASCII digits.
    pub const LONG_SERIALNR: usize = 13;
}

/// The length of a message as its two header bytes (7-bit halves).
pub fn length_bytes(total: usize) -> [u8; 2] {
    [((total >> 7) & 0x7f) as u8, (total & 0x7f) as u8]
}

/// The total length a message's two header bytes give.
pub fn length_from_bytes(high: u8, low: u8) -> usize {
    (usize::from(high & 0x7f) << 7) | usize::from(low & 0x7f)
}

/// The piece a DGT piece code names: 0 empty, 1–6 white pawn, rook, knight, bishop, king,
/// queen, 7–12 the same in black; 13–15 ("magic" pieces) and anything else: `None`.
pub fn piece_from_code(code: u8) -> Option<Piece> {
    let (color, index) = match code {
        0x01..=0x06 => (Color::White, code - 0x01),
        0x07..=0x0c => (Color::Black, code - 0x07),
        _ => return None,
    };
    let role = match index {
        0 => Role::Pawn,
        1 => Role::Rook,
        2 => Role::Knight,
        3 => Role::Bishop,
        4 => Role::King,
        _ => Role::Queen,
    };
    Some(Piece { color, role })
}

/// The DGT piece code of `piece` (`None`: 0, the empty square).
pub fn code_from_piece(piece: Option<Piece>) -> u8 {
    let Some(piece) = piece else {
        return 0x00;
    };
    let index = match piece.role {
        Role::Pawn => 0,
        Role::Rook => 1,
        Role::Knight => 2,
        Role::Bishop => 3,
        Role::King => 4,
        Role::Queen => 5,
    };
    match piece.color {
        Color::White => 0x01 + index,
        Color::Black => 0x07 + index,
    }
}

/// The square a DGT square number names, for a board the right way round: 0 = a8, 1 = b8, …,
/// 7 = h8, 8 = a7, …, 63 = h1 (shakmaty's numbering flipped vertically). `None` for numbers
/// above 63.
pub fn square_from_index(index: u8) -> Option<Square> {
    (index < 64).then(|| Square::new(u32::from(index)).flip_vertical())
}

/// The DGT square number of `square` (the inverse of [`square_from_index`]).
pub fn index_from_square(square: Square) -> u8 {
    u8::from(square.flip_vertical())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_numbers_start_at_a8() {
        assert_eq!(square_from_index(0), Some(Square::A8));
        assert_eq!(square_from_index(7), Some(Square::H8));
        assert_eq!(square_from_index(8), Some(Square::A7));
        assert_eq!(square_from_index(63), Some(Square::H1));
        assert_eq!(square_from_index(64), None);
        for index in 0..64 {
            let square = square_from_index(index).expect("a square");
            assert_eq!(index_from_square(square), index);
        }
    }

    #[test]
    fn piece_codes_follow_the_protocol() {
        assert_eq!(piece_from_code(0x01), Some(Color::White.pawn()));
        assert_eq!(piece_from_code(0x02), Some(Color::White.rook()));
        assert_eq!(piece_from_code(0x05), Some(Color::White.king()));
        assert_eq!(piece_from_code(0x06), Some(Color::White.queen()));
        assert_eq!(piece_from_code(0x07), Some(Color::Black.pawn()));
        assert_eq!(piece_from_code(0x0c), Some(Color::Black.queen()));
        assert_eq!(piece_from_code(0x00), None);
        assert_eq!(piece_from_code(0x0d), None);
        for code in 0x00..=0x0c {
            assert_eq!(code_from_piece(piece_from_code(code)), code);
        }
    }

    #[test]
    fn lengths_are_two_seven_bit_halves() {
        assert_eq!(length_bytes(67), [0x00, 0x43]);
        assert_eq!(length_bytes(200), [0x01, 0x48]);
        assert_eq!(length_from_bytes(0x01, 0x48), 200);
    }

    #[test]
    fn fixed_lengths_follow_the_protocol() {
        assert_eq!(message::fixed_length(0x86), Some(67));
        assert_eq!(message::fixed_length(0x8d), Some(10));
        assert_eq!(message::fixed_length(0x8e), Some(5));
        assert_eq!(message::fixed_length(0xa2), Some(13));
        assert_eq!(message::fixed_length(0x92), None);
        assert_eq!(message::fixed_length(0xa0), None);
        assert!(message::is_message_start(0x80));
        assert!(!message::is_message_start(0x7f));
    }

    #[test]
    fn a_turned_board_swaps_a1_and_h8() {
        assert_eq!(Square::A1.rotate_180(), Square::H8);
        assert_eq!(Square::E2.rotate_180(), Square::D7);
    }
}
