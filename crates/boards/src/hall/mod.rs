//! Home-made Hall-sensor boards speaking the open protocol of `firmware-protocol/README.md`:
//! the host's sans-IO session, its frames read as the project's decoders are (`frames`), and how
//! its board is recognised.

pub mod frames;
mod probe;
pub mod session;

pub use session::HallSession;

/// The open Hall-sensor protocol's facts: 115200 baud 8N1 (`firmware-protocol/README.md`); the
/// board reports each change as it happens, so presses need no report horizon.
pub const PROTOCOL: crate::live::Protocol = crate::live::Protocol {
    name: "hall",
    summary: "a home-made Hall-sensor board speaking the open protocol (115200 baud)",
    line: Some(crate::live::SerialLine::eight_n_one(
        touchmove_firmware_protocol::BAUD_RATE,
    )),
    ble: None,
    report_horizon_ms: 0,
    scan_ms: 0,
    new_session: session::new_session,
    probe: Some(crate::live::Probe {
        request: probe::request,
        recognise: probe::recognise,
    }),
    promotion_at_host: false,
};
