//! The DGT e-board: its serial protocol, a sans-IO host session, and an emulated board.

pub mod board_messages;
pub mod emulator;
pub mod host_commands;
pub mod protocol;
