//! The Millennium ChessLink protocol (Millennium eONE, Exclusive, Performance boards; the Magic
//! Chessboard protocol): 38400 baud, 7 data bits, odd parity, 1 stop bit; printable ASCII frames
//! each ended by a block parity check. The board identifies pieces and reports whole positions.
//!
//! So far the wire format ([`wire`], [`decoder`]); the host session, the emulated board and the
//! command line's `--protocol chesslink` come with the protocol registry (issue 11).

pub mod decoder;
pub mod wire;
