//! Encoding the board → host messages an (emulated) DGT board sends.
//!
//! Every message is `0x80 | id`, the total length (header included) as two 7-bit halves, then
//! the payload. Payload bytes always have the top bit clear: [`message`] masks them, so a byte
//! with the top bit set only ever starts a message.

use crate::dgt::wire::clock::ClockReport;
use crate::dgt::wire::protocol::clock_status::ACK_NIBBLE as CLOCK_ACK_NIBBLE;
use crate::dgt::wire::protocol::{length_bytes, message as id, message_length as len};

/// The longest payload a message can carry: the length field has 14 bits.
const MAX_PAYLOAD: usize = 0x3fff - len::HEADER;

/// A BATTERY_STATUS report, in the emulator's layout (see [`battery_status`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatteryStatus {
    /// The charge, in percent (0..=100).
    pub percent: u8,
    /// The time the charge lasts, in minutes (up to 14 bits).
    pub minutes_left: u16,
    /// Status bits: bit 0 charging, bit 1 battery low.
    pub status: u8,
}

/// A message: `0x80 | id` (given as the full first byte), the length halves and the payload,
/// every payload byte with its top bit cleared. A payload too long for the length field is cut.
pub fn message(first: u8, payload: &[u8]) -> Vec<u8> {
    let payload = payload.get(..MAX_PAYLOAD).unwrap_or(payload);
    let mut bytes = Vec::with_capacity(len::HEADER + payload.len());
    bytes.push(first | 0x80);
    bytes.extend(length_bytes(len::HEADER + payload.len()));
    bytes.extend(payload.iter().map(|byte| byte & 0x7f));
    bytes
}

/// BOARD_DUMP: the 64 piece codes, indexed by DGT square number (0 = a8 … 63 = h1).
pub fn board_dump(codes: &[u8; 64]) -> Vec<u8> {
    message(id::BOARD_DUMP, codes)
}

/// FIELD_UPDATE: square `index` (DGT numbering) now holds piece `code` (0: it emptied).
pub fn field_update(index: u8, code: u8) -> Vec<u8> {
    message(id::FIELD_UPDATE, &[index, code])
}

/// BWTIME: a time report, right player's time first, then the left's, then the status.
pub fn bwtime(report: &ClockReport) -> Vec<u8> {
    let [rh, rm, rs] = report.right.bwtime_bytes();
    let [lh, lm, ls] = report.left.bwtime_bytes();
    message(id::BWTIME, &[rh, rm, rs, lh, lm, ls, report.status()])
}

/// BWTIME as the acknowledgement of clock command `command`: d0 and d3 carry the
/// acknowledgement nibble `0x0a`, d1 is `0x10` and d2 the acknowledged command code.
pub fn bwtime_ack(command: u8) -> Vec<u8> {
    message(
        id::BWTIME,
        &[
            CLOCK_ACK_NIBBLE,
            0x10,
            command,
            CLOCK_ACK_NIBBLE,
            0x00,
            0x00,
            0x00,
        ],
    )
}

/// VERSION: main and sub version (`1, 2` is "1.02").
pub fn version(main: u8, sub: u8) -> Vec<u8> {
    message(id::VERSION, &[main, sub])
}

/// SERIALNR: five ASCII digits.
pub fn serial_nr(digits: &[u8; 5]) -> Vec<u8> {
    message(id::SERIALNR, digits)
}

/// LONG_SERIALNR: ten ASCII digits.
pub fn long_serial_nr(digits: &[u8; 10]) -> Vec<u8> {
    message(id::LONG_SERIALNR, digits)
}

/// TRADEMARK: the text, each non-ASCII character sent as `?`.
pub fn trademark(text: &str) -> Vec<u8> {
    let ascii: Vec<u8> = text
        .chars()
        .map(|c| if c.is_ascii() { c as u8 } else { b'?' })
        .collect();
    message(id::TRADEMARK, &ascii)
}

/// BUSADRES: the bus address as two 7-bit halves (high first).
pub fn bus_address(address: u16) -> Vec<u8> {
    message(id::BUSADRES, &[(address >> 7) as u8, address as u8])
}

/// BATTERY_STATUS, 12 bytes: charge %, minutes left as two 7-bit halves (high first), the
/// status bits, then five reserved zero bytes.
pub fn battery_status(battery: &BatteryStatus) -> Vec<u8> {
    let minutes = battery.minutes_left;
    message(
        id::BATTERY_STATUS,
        &[
            battery.percent.min(100),
            (minutes >> 7) as u8,
            minutes as u8,
            battery.status,
            0x00,
            0x00,
            0x00,
            0x00,
            0x00,
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dgt::wire::clock::ClockTime;

    #[test]
    fn field_update_is_five_bytes() {
        assert_eq!(field_update(0x0c, 0x01), [0x8e, 0x00, 0x05, 0x0c, 0x01]);
        assert_eq!(field_update(0x34, 0x00), [0x8e, 0x00, 0x05, 0x34, 0x00]);
    }

    #[test]
    fn board_dump_is_67_bytes_in_square_order() {
        let mut codes = [0x00; 64];
        codes[0] = 0x08;
        codes[63] = 0x02;
        let dump = board_dump(&codes);
        assert_eq!(dump.len(), 67);
        assert_eq!(dump.get(..4), Some(&[0x86, 0x00, 0x43, 0x08][..]));
        assert_eq!(dump.last(), Some(&0x02));
    }

    #[test]
    fn bwtime_reports_bcd_times_right_first() {
        let report = ClockReport::from_status(
            ClockTime::from_millis(4 * 60_000 + 59_500),
            ClockTime::from_millis(3_600_000 + 12 * 60_000 + 7_000),
            0x01 | 0x02 | 0x08,
        );
        assert_eq!(
            bwtime(&report),
            [0x8d, 0x00, 0x0a, 0x00, 0x05, 0x00, 0x01, 0x12, 0x07, 0x0b]
        );
    }

    #[test]
    fn clock_times_round_up_and_never_look_like_an_ack() {
        assert_eq!(
            ClockTime::from_millis(1),
            ClockTime {
                hours: 0,
                minutes: 0,
                seconds: 1,
                flag: 0
            }
        );
        assert_eq!(ClockTime::from_millis(0), ClockTime::default());
        let huge = ClockTime::from_millis(100 * 3_600_000);
        assert_eq!(
            huge,
            ClockTime {
                hours: 9,
                minutes: 59,
                seconds: 59,
                flag: 0
            }
        );
        let report = ClockReport::from_status(huge, huge, 0);
        assert_eq!(
            bwtime(&report),
            [0x8d, 0x00, 0x0a, 0x09, 0x59, 0x59, 0x09, 0x59, 0x59, 0x00]
        );
    }

    #[test]
    fn flag_bits_go_into_the_hours_high_nibble() {
        let report = ClockReport::from_status(
            ClockTime::from_millis(0).with_flag(0x01),
            ClockTime::from_millis(3_600_000).with_flag(0x04),
            0x01,
        );
        assert_eq!(
            bwtime(&report),
            [0x8d, 0x00, 0x0a, 0x10, 0x00, 0x00, 0x41, 0x00, 0x00, 0x01]
        );
    }

    #[test]
    fn bwtime_ack_carries_the_ack_nibble_and_the_command() {
        assert_eq!(
            bwtime_ack(0x0b),
            [0x8d, 0x00, 0x0a, 0x0a, 0x10, 0x0b, 0x0a, 0x00, 0x00, 0x00]
        );
    }

    #[test]
    fn identity_messages() {
        assert_eq!(version(1, 2), [0x93, 0x00, 0x05, 0x01, 0x02]);
        assert_eq!(
            serial_nr(b"31415"),
            [0x91, 0x00, 0x08, 0x33, 0x31, 0x34, 0x31, 0x35]
        );
        assert_eq!(
            long_serial_nr(b"0123456789"),
            [
                0xa2, 0x00, 0x0d, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39
            ]
        );
        assert_eq!(bus_address(0x0123), [0x90, 0x00, 0x05, 0x02, 0x23]);
        assert_eq!(trademark("Dé"), [0x92, 0x00, 0x05, 0x44, 0x3f]);
    }

    #[test]
    fn battery_status_is_twelve_bytes() {
        let battery = BatteryStatus {
            percent: 87,
            minutes_left: 600,
            status: 0x01,
        };
        assert_eq!(
            battery_status(&battery),
            [
                0xa0, 0x00, 0x0c, 0x57, 0x04, 0x58, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00
            ]
        );
    }

    #[test]
    fn payload_bytes_never_have_the_top_bit_set() {
        let bytes = message(0x12, &[0xff, 0x80, 0x7f]);
        assert_eq!(bytes, [0x92, 0x00, 0x06, 0x7f, 0x00, 0x7f]);
        let long = message(0x12, &[b'a'; 200]);
        assert_eq!(long.get(..3), Some(&[0x92, 0x01, 0x4b][..]));
        assert_eq!(long.len(), 203);
    }
}
