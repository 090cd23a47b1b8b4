//! The DGT e-board: its serial protocol, a sans-IO host session, and an emulated board.

pub mod protocol;
