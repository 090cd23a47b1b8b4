//! The Millennium ChessLink protocol (Millennium eONE, Exclusive, Performance boards; the Magic
//! Chessboard protocol): 38400 baud, 7 data bits, odd parity, 1 stop bit; printable ASCII frames
//! each ended by a block parity check. The board identifies pieces and reports whole positions.
//!
//! So far the wire format ([`wire`], [`decoder`]); the host session, the emulated board and the
//! command line's `--protocol chesslink` come with the protocol registry (issue 11).

pub mod decoder;
pub mod wire;

/// The ChessLink protocol's facts. The report horizon is three default scans (40.96 ms each:
/// the scan that sees a change and a 2-scan debounce of the automatic reports) and a margin.
pub const PROTOCOL: crate::live::Protocol = crate::live::Protocol {
    name: "chesslink",
    line: crate::live::SerialLine {
        baud_rate: 38_400,
        data_bits: 7,
        parity: crate::live::Parity::Odd,
        stop_bits: 1,
    },
    report_horizon_ms: 150,
};
