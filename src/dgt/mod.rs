//! The DGT e-board: its serial protocol, a sans-IO host session, and an emulated board.
//!
//! [`codec::DgtDecoder`] turns the board's bytes into [`message::BoardMessage`]s (noise is
//! reported and skipped); [`command::encode`] writes host commands; [`session::DgtSession`] runs
//! the host side of the link (handshake, keep-alive, rotation, clock commands) without doing any
//! I/O.

pub mod clock;
pub mod codec;
pub mod command;
pub mod message;
pub mod protocol;

#[cfg(test)]
mod codec_tests;
