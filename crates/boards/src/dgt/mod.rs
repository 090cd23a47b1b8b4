//! The DGT e-board: its serial protocol and a sans-IO host session (its emulated board is
//! `touchmove-simulation`'s).
//!
//! - [`wire`]: the bytes both ways: the protocol's codes ([`wire::protocol`]), the board's
//!   messages (decoded by [`wire::message::decoder::DgtDecoder`] into [`wire::message::BoardMessage`],
//!   encoded for an emulated board by [`wire::message::encode`]), the host's commands (encoded by
//!   [`wire::command::encode`], decoded for an emulated board by [`wire::command::ReceivedCommandDecoder`]), and
//!   the clock's reports ([`wire::clock`]);
//! - [`session`]: the host's side: [`session::DgtSession`] runs the link (handshake,
//!   keep-alive, rotation, clock commands) without doing any I/O, and [`DgtLink`] puts it behind
//!   the live runner (the clock's sides, the host's clock, presses);

pub mod session;
pub mod wire;

pub use session::DgtSession;
pub use session::link::DgtLink;

/// The DGT e-board protocol: 9600 baud 8N1, a report horizon of one scan and a margin, found by
/// its answer to SEND_VERSION.
pub const PROTOCOL: crate::live::Protocol = crate::live::Protocol {
    name: "dgt",
    summary: "a DGT e-board (9600 baud), with its clock if one is plugged in",
    line: Some(crate::live::SerialLine::eight_n_one(
        wire::protocol::BAUD_RATE,
    )),
    ble: None,
    report_horizon_ms: wire::protocol::REPORT_HORIZON_MS,
    scan_ms: wire::protocol::SCAN_MS,
    new_session: session::link::new_session,
    probe: Some(crate::live::Probe {
        request: session::probe::request,
        recognise: session::probe::recognise,
    }),
    promotion_at_host: false,
};
