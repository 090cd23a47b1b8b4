//! The Millennium ChessLink protocol (Millennium eONE, Exclusive, Performance boards; the Magic
//! Chessboard protocol): 38400 baud, 7 data bits, odd parity, 1 stop bit; printable ASCII frames
//! each ended by a block parity check. The board identifies pieces and reports whole positions.
//!
//! - [`wire`]: the frames both ways, their block parity, streaming decoders;
//! - [`session`]: the host's sans-IO session ([`ChessLinkSession`]): positions in, lifts and
//!   placements out, the last move and mismatches on the board's LEDs;

mod probe;
pub mod session;
pub mod wire;

pub use session::ChessLinkSession;

/// The ChessLink protocol, found by its answer to `V`. The report horizon is the scan that
/// sees a change (40.96 ms), the session's hold before a square's change is taken
/// ([`session::HOLD_MS`]), the status asked for then (18 ms on the line) and a margin; the board
/// has no clock, so no press is weighed with it. Its scan period, 40.96 ms, is rounded up.
pub const PROTOCOL: crate::live::Protocol = crate::live::Protocol {
    name: "chesslink",
    summary: "a Millennium ChessLink board (eONE, Exclusive, Performance; 38400 baud 7O1)",
    line: Some(crate::live::SerialLine {
        baud_rate: 38_400,
        data_bits: 7,
        parity: crate::live::Parity::Odd,
        stop_bits: 1,
    }),
    ble: None,
    report_horizon_ms: 150,
    scan_ms: 41,
    new_session: session::new_session,
    probe: Some(crate::live::Probe {
        request: probe::request,
        recognise: probe::recognise,
    }),
    promotion_at_host: false,
};
