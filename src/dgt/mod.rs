//! The DGT e-board: its serial protocol, a sans-IO host session, and an emulated board.
//!
//! [`codec::DgtDecoder`] turns the board's bytes into [`message::BoardMessage`]s (noise is
//! reported and skipped); [`command::encode`] writes host commands; [`session::DgtSession`] runs
//! the host side of the link (handshake, keep-alive, rotation, clock commands) without doing any
//! I/O.

pub mod board_messages;
pub mod clock;
mod clock_press;
mod clock_queue;
pub mod clock_sides;
pub mod codec;
pub mod command;
pub mod emulator;
pub mod host_clock;
pub mod host_commands;
pub mod link;
mod liveness;
pub mod message;
pub mod orientation;
mod probe;
pub mod protocol;
pub mod session;

/// The DGT e-board protocol: 9600 baud 8N1, a report horizon of one scan and a margin, found by
/// its answer to SEND_VERSION.
pub const PROTOCOL: crate::live::Protocol = crate::live::Protocol {
    name: "dgt",
    summary: "a DGT e-board (9600 baud), with its clock if one is plugged in",
    line: crate::live::SerialLine::eight_n_one(protocol::BAUD_RATE),
    report_horizon_ms: protocol::REPORT_HORIZON_MS,
    new_session: link::new_session,
    probe: Some(crate::live::Probe {
        request: probe::request,
        recognise: probe::recognise,
    }),
    emulator: Some(crate::live::Emulator {
        new: emulator::new_emulator,
        help: emulator::HELP,
    }),
};

#[cfg(test)]
mod codec_tests;
#[cfg(test)]
mod session_tests;
