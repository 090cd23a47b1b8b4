//! A Chessnut board plugged in by USB: the same frames as over Bluetooth LE, carried in USB HID
//! reports, sans-IO. What the host needs besides the frames: which HID device is a Chessnut
//! board, where a frame ends in an input report, and how far apart its writes must be.
//!
//! Source (protocol facts, no code): the vendor's SDK, chessnutech/EasyLinkSDK `sdk/EasyLink.cpp`
//! (vendor 0x2d80, product ids whose high byte is 0x80 to 0x86, usage page 0xFF00, writes at
//! least 200 ms apart, a report's second byte the length of what follows the first two).
//! **Untested on hardware**: no USB HID device can be made on the machines this was built on.

use touchmove_core::sensor::Millis;

/// The USB vendor id of Chessnut boards.
pub const VENDOR_ID: u16 = 0x2d80;

/// The high bytes of the product ids of Chessnut boards (the low byte is the model's).
pub const PRODUCT_FAMILIES: [u16; 7] = [0x8000, 0x8100, 0x8200, 0x8300, 0x8400, 0x8500, 0x8600];

/// The HID usage page of the board's interface that carries the frames (vendor-defined).
pub const USAGE_PAGE: u16 = 0xFF00;

/// How long after a write the board takes the next: writes closer together are lost.
pub const WRITE_INTERVAL_MS: Millis = 200;

/// Whether a HID interface with these identifiers is a Chessnut board's frame interface.
pub fn is_chessnut(vendor_id: u16, product_id: u16, usage_page: u16) -> bool {
    vendor_id == VENDOR_ID
        && usage_page == USAGE_PAGE
        && PRODUCT_FAMILIES.contains(&(product_id & 0xFF00))
}

/// The frame an input report holds: its kind, its length byte and that many bytes (a report
/// is padded to the interface's report size). A report too short to say is passed whole, for
/// the frame decoder to judge.
pub fn frame_of(report: &[u8]) -> &[u8] {
    let Some(&length) = report.get(1) else {
        return report;
    };
    let end = usize::from(length).saturating_add(2).min(report.len());
    report.get(..end).unwrap_or(report)
}

/// Paces the writes to a board over USB: each at least [`WRITE_INTERVAL_MS`] after the one
/// before.
#[derive(Debug, Clone, Copy, Default)]
pub struct WritePacer {
    last: Option<Millis>,
}

impl WritePacer {
    /// A pacer before any write.
    pub fn new() -> WritePacer {
        WritePacer::default()
    }

    /// When the next write may go, asked at `now`: at once, or [`WRITE_INTERVAL_MS`] after the
    /// last.
    pub fn next_at(&self, now: Millis) -> Millis {
        self.last
            .map_or(now, |last| last.saturating_add(WRITE_INTERVAL_MS).max(now))
    }

    /// A write went at `at`.
    pub fn wrote(&mut self, at: Millis) {
        self.last = Some(at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_vendor_s_boards_on_its_own_usage_page_are_chessnut_boards() {
        assert!(is_chessnut(0x2d80, 0x8001, 0xFF00));
        assert!(is_chessnut(0x2d80, 0x86a2, 0xFF00));
        assert!(!is_chessnut(0x2d80, 0x8701, 0xFF00), "another family");
        assert!(
            !is_chessnut(0x2d80, 0x8001, 0x0001),
            "its keyboard-like interface"
        );
        assert!(!is_chessnut(0x10c4, 0x8001, 0xFF00), "another vendor");
    }

    #[test]
    fn a_report_holds_its_kind_its_length_and_that_many_bytes() {
        // The acknowledgement of `21 01 00`, padded to a 64-byte report.
        let mut report = vec![0x23, 0x01, 0x00];
        report.resize(64, 0);
        assert_eq!(frame_of(&report), [0x23, 0x01, 0x00]);
        // A position report: 0x24 bytes after the first two, 38 in all.
        let mut report = vec![0x01, 0x24];
        report.resize(64, 0x11);
        assert_eq!(frame_of(&report).len(), 38);
        // Shorter than it says: what there is.
        assert_eq!(frame_of(&[0x01, 0x24, 0x58]), [0x01, 0x24, 0x58]);
        assert_eq!(frame_of(&[0x01]), [0x01]);
    }

    #[test]
    fn writes_go_two_hundred_ms_apart_at_least() {
        let mut pacer = WritePacer::new();
        assert_eq!(pacer.next_at(1_000), 1_000, "the first at once");
        pacer.wrote(1_000);
        assert_eq!(pacer.next_at(1_050), 1_200);
        assert_eq!(pacer.next_at(1_500), 1_500);
        pacer.wrote(1_500);
        assert_eq!(pacer.next_at(1_500), 1_700);
    }
}
