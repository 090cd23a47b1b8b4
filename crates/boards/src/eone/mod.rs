//! The Millennium eONE over Bluetooth LE: the ChessLink protocol ([`crate::chesslink`]) carried
//! by the Microchip "transparent UART" service of the board's Bluetooth module, each character
//! with its odd parity bit set as the serial line would carry it. The board identifies pieces
//! and reports whole positions; its LEDs sit at the squares' corners.
//!
//! Sources (protocol facts, no code): domschl/python-mchess `chess_link_bluepy.py` (the
//! service, the characteristics, the parity bit on every byte written, the name); the
//! EdNekebno/DGTCentaur mods' ChessLink emulator over BLE (the name `MILLENNIUM CHESS`, no
//! service in the advertisement, odd parity both ways, the same service and characteristics).
//! Not confirmed: the least time between two writes (100 ms is the pace python-mchess keeps),
//! and whether the board's module takes a command longer than one packet in one write (an LED
//! frame is 167 characters: BlueZ sends it as a long write, which the module must accept).

/// The Microchip transparent UART service (the RN487x modules'; other devices share it, so an
/// eONE is told by its name).
pub const UART_SERVICE: &str = "49535343-fe7d-4ae5-8fa9-9fafd205e455";

/// The characteristic the host writes.
pub const UART_WRITE: &str = "49535343-8841-43f4-a8d4-ecbe34729bb3";

/// The characteristic the board notifies on.
pub const UART_NOTIFY: &str = "49535343-1e4d-4bd9-ba61-23c647249616";

/// Each character with its odd parity bit (the top bit) set as a 7O1 line carries it: the
/// eight bits hold an odd number of ones.
///
/// ```
/// use touchmove_boards::eone::with_parity;
///
/// // `S` (0x53, four ones) gains the top bit; `V` (0x56, four ones) too; `1` (0x31, three
/// // ones) is sent as it is.
/// assert_eq!(with_parity(b"SV1"), [0xd3, 0xd6, 0x31]);
/// assert!(with_parity(b"S53").iter().all(|byte| byte.count_ones() % 2 == 1));
/// ```
pub fn with_parity(bytes: &[u8]) -> Vec<u8> {
    bytes
        .iter()
        .map(|&byte| {
            let data = byte & 0x7f;
            if data.count_ones() % 2 == 0 {
                data | 0x80
            } else {
                data
            }
        })
        .collect()
}

/// The Millennium eONE, over Bluetooth LE: the ChessLink session and timing (its scans are the
/// serial boards'); the link adds its own delivery, within the report horizon's margin.
pub const PROTOCOL: crate::live::Protocol = crate::live::Protocol {
    name: "eone",
    summary: "a Millennium eONE over Bluetooth LE (the ChessLink protocol)",
    line: None,
    ble: Some(crate::live::BleProfile {
        services: &[],
        names: &["MILLENNIUM CHESS"],
        gatt: &[crate::live::GattService {
            uuid: UART_SERVICE,
            characteristics: &[UART_WRITE, UART_NOTIFY],
        }],
        write: UART_WRITE,
        write_with_response: true,
        write_gap_ms: 100,
        notify: &[UART_NOTIFY],
        notify_of: crate::live::first_notify,
        to_air: Some(with_parity),
        // The ChessLink decoder ignores the top bit.
        from_air: None,
    }),
    report_horizon_ms: crate::chesslink::PROTOCOL.report_horizon_ms,
    scan_ms: crate::chesslink::PROTOCOL.scan_ms,
    new_session: crate::chesslink::session::new_session,
    probe: None,
    promotion_at_host: false,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chesslink::wire::{CommandDecoder, HostCommand, encode_command};
    use touchmove_core::decode::StreamDecoder;

    #[test]
    fn every_character_goes_on_the_air_with_an_odd_number_of_ones() {
        // 'V' = 0x56 (four ones: the parity bit is set), 'v' = 0x76 (five: it is not), '0' =
        // 0x30 (two: set), '7' = 0x37 (five: not).
        assert_eq!(with_parity(b"Vv07"), vec![0xd6, 0x76, 0xb0, 0x37]);
        for byte in 0..=0xffu8 {
            let [on_air] = with_parity(&[byte])[..] else {
                panic!("one byte in, one out");
            };
            assert_eq!(on_air.count_ones() % 2, 1, "{byte:#04x}");
            assert_eq!(on_air & 0x7f, byte & 0x7f, "{byte:#04x}");
        }
    }

    #[test]
    fn a_command_with_its_parity_reads_back_through_the_chesslink_decoder() {
        let on_air = with_parity(&encode_command(&HostCommand::Status));
        // 'S' = 0x53 (four ones) and its check "53" ('5' = 0x35, four; '3' = 0x33, four).
        assert_eq!(on_air, vec![0xd3, 0xb5, 0xb3]);
        let mut decoder = CommandDecoder::commands();
        decoder.push(&on_air);
        assert_eq!(decoder.poll(), Some(Ok(HostCommand::Status)));
    }
}
