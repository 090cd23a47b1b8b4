//! The registry: every board protocol touchmove speaks, the one list the command line iterates
//! (`watch --protocol NAME`, `emulate NAME`, the `ports` probe, the live tests). A protocol lives
//! in its own folder and states itself as a [`Protocol`]; adding one is its folder and a line
//! here.

use crate::live::Protocol;

/// Every protocol, in the order `ports` probes them and `--help` lists them.
pub const PROTOCOLS: &[&Protocol] = &[
    &crate::dgt::PROTOCOL,
    &crate::hall::PROTOCOL,
    &crate::chesslink::PROTOCOL,
    &crate::certabo::PROTOCOL,
    &crate::chessnut::ROBOT_PROTOCOL,
    &crate::chessnut::PROTOCOL,
    &crate::pegasus::PROTOCOL,
    &crate::eone::PROTOCOL,
    &crate::squareoff::PROTOCOL,
];

/// The protocol called `name`, if there is one.
///
/// ```
/// use touchmove_boards::live::{BoardSession, Parity, SessionOptions};
/// use touchmove_boards::registry;
///
/// // The Millennium ChessLink's serial line: 38400 baud, 7 data bits, odd parity, 1 stop bit.
/// let chesslink = registry::find("chesslink").expect("a protocol of the registry");
/// let line = chesslink.line.expect("a serial board");
/// let shape = (line.baud_rate, line.data_bits, line.parity, line.stop_bits);
/// assert_eq!(shape, (38_400, 7, Parity::Odd, 1));
/// // DGT's: 9600 baud, 8N1.
/// let dgt = registry::find("dgt").and_then(|protocol| protocol.line).expect("serial");
/// assert_eq!((dgt.baud_rate, dgt.data_bits, dgt.parity), (9600, 8, Parity::None));
/// // Each protocol makes its host session, boxed.
/// let mut session = (chesslink.new_session)(&SessionOptions::new());
/// session.connect(0);
/// assert!(session.poll_transmit().is_some(), "the board is asked at once");
/// assert!(registry::find("no-such-board").is_none());
/// assert!(registry::names().any(|name| name == "certabo"));
/// ```
pub fn find(name: &str) -> Option<&'static Protocol> {
    PROTOCOLS
        .iter()
        .copied()
        .find(|protocol| protocol.name == name)
}

/// The scan period of the protocol a log's `@board` text names by its first word, in any case
/// (what `watch`, `play` and `serve` write: `dgt via touchmove watch`; `DGT e-board`), if it
/// names one.
pub fn scan_of_board(board: &str) -> Option<touchmove_core::sensor::Millis> {
    let name = board.split_whitespace().next()?.to_ascii_lowercase();
    find(&name).map(|protocol| protocol.scan_ms)
}

/// The protocols' names, in registry order.
pub fn names() -> impl Iterator<Item = &'static str> {
    PROTOCOLS.iter().map(|protocol| protocol.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_protocol_has_its_own_name_and_is_found_by_it() {
        let names: Vec<&str> = names().collect();
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
        for name in names {
            assert_eq!(find(name).map(|protocol| protocol.name), Some(name));
        }
        assert!(find("none").is_none());
    }

    #[test]
    fn a_log_s_board_text_names_its_protocol_s_scan_by_its_first_word() {
        assert_eq!(scan_of_board("dgt via touchmove watch"), Some(250));
        assert_eq!(scan_of_board("DGT e-board"), Some(250));
        assert_eq!(scan_of_board("hall-v1 demo"), None);
        assert_eq!(scan_of_board("hall via touchmove serve"), Some(0));
        assert_eq!(scan_of_board("dgt-like scans"), None);
        assert_eq!(scan_of_board(""), None);
    }
}
