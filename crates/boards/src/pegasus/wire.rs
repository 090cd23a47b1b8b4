//! The DGT Pegasus's bytes: the DGT board protocol ([`crate::dgt::wire`]) over the Nordic UART
//! service, with what the Pegasus adds and changes.
//!
//! - The host's one-byte commands are DGT's: `40` reset, `42` board dump, `44` field updates
//!   (board only: the Pegasus has no clock), `45` serial number, `4c` battery, `4d` version.
//! - The board's messages are DGT's, framed as DGT frames them (an id with bit 7 set, the whole
//!   length in two 7-bit bytes), but a square holds `00` (empty) or `01` (occupied): the board
//!   senses occupancy, not pieces. Squares are numbered as DGT numbers them (0 is a8, 63 h1).
//! - The LEDs: `60`, a length byte (what follows, the final `00` included), then `05`, speed,
//!   repeat, brightness, the squares lit, `00`; `60 02 00 00` puts every LED out.
//! - The battery's message (`a0`) starts with the charge in percent.

use shakmaty::Square;

use crate::dgt::wire::protocol::{index_from_square, square_from_index};

/// The Nordic UART service the board is reached through (other devices use it too: it does not
/// tell a Pegasus by itself).
pub const UART_SERVICE: &str = "6e400001-b5a3-f393-e0a9-e50e24dcca9e";
/// The characteristic the host writes to (the board's receive line).
pub const UART_WRITE: &str = "6e400002-b5a3-f393-e0a9-e50e24dcca9e";
/// The characteristic the board notifies on (its transmit line).
pub const UART_NOTIFY: &str = "6e400003-b5a3-f393-e0a9-e50e24dcca9e";

/// The LED command's first byte.
pub const LEDS: u8 = 0x60;
/// The developer-key command's first byte (the board's answer, if any, is ignored).
pub const DEVELOPER_KEY: u8 = 0x63;
/// The LED sub-command that lights a list of squares.
pub const LEDS_LIST: u8 = 0x05;
/// The speed, repeat and brightness touchmove lights squares with: mid speed, repeated until
/// changed, middle brightness (the directions of these bytes are not confirmed on hardware).
pub const LEDS_STYLE: [u8; 3] = [0x03, 0x00, 0x02];

/// The bytes that light `squares` and no other (all out when there are none).
pub fn encode_leds(squares: &[Square]) -> Vec<u8> {
    if squares.is_empty() {
        return vec![LEDS, 0x02, 0x00, 0x00];
    }
    let mut payload = vec![LEDS_LIST];
    payload.extend_from_slice(&LEDS_STYLE);
    payload.extend(squares.iter().map(|&square| index_from_square(square)));
    payload.push(0x00);
    let mut bytes = vec![LEDS, u8::try_from(payload.len()).unwrap_or(u8::MAX)];
    bytes.extend_from_slice(&payload);
    bytes
}

/// The squares an LED command's payload (the bytes after its length byte) lights: none for
/// "all out" or another sub-command.
pub fn decode_leds(payload: &[u8]) -> Vec<Square> {
    match payload.split_first() {
        Some((&LEDS_LIST, rest)) => {
            // The last byte ends the list (a8, square 0, may be in it).
            let squares = rest.get(LEDS_STYLE.len()..).unwrap_or_default();
            let squares = squares.strip_suffix(&[0x00]).unwrap_or(squares);
            squares
                .iter()
                .filter_map(|&index| square_from_index(index))
                .collect()
        }
        _ => Vec::new(),
    }
}

/// The charge in percent a battery message's payload says, if it says one.
pub fn battery_percent(payload: &[u8]) -> Option<u8> {
    payload.first().copied().filter(|&percent| percent <= 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_led_out_is_as_the_dgt_app_sends_it() {
        assert_eq!(encode_leds(&[]), [0x60, 0x02, 0x00, 0x00]);
    }

    #[test]
    fn squares_are_lit_by_their_dgt_numbers() {
        // e2 is 52 (0x34), e4 36 (0x24): a8 is 0, h1 63.
        assert_eq!(
            encode_leds(&[Square::E2, Square::E4]),
            [0x60, 0x07, 0x05, 0x03, 0x00, 0x02, 0x34, 0x24, 0x00]
        );
        let payload = [0x05, 0x03, 0x00, 0x02, 0x34, 0x24, 0x00];
        assert_eq!(decode_leds(&payload), [Square::E2, Square::E4]);
        // a8 is square 0, as the list's end is: only the last byte ends it.
        let a8 = encode_leds(&[Square::A8]);
        assert_eq!(decode_leds(a8.get(2..).unwrap_or_default()), [Square::A8]);
    }

    #[test]
    fn the_battery_says_its_charge() {
        assert_eq!(battery_percent(&[0x58, 0, 0, 0, 0, 0, 0, 0, 2]), Some(88));
        assert_eq!(battery_percent(&[0xff]), None);
        assert_eq!(battery_percent(&[]), None);
    }
}
