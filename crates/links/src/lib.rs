//! How touchmove reaches a board: its serial port, its Bluetooth LE link (`ble:NAME`,
//! `ble:ADDRESS`) or a Chessnut board's USB HID device (`hid`, `hid:PATH`), each a byte port the
//! runner (`touchmove_runtime::runner`) reads and writes the same way. What a transport carries
//! is said by the protocol (`touchmove_boards::live::Protocol`): its serial line and probe, its
//! Bluetooth profile; here are only the transports.
//!
//! - [`board`]: the board's protocol told from its port and `--protocol`, and
//!   [`board::BoardConnector`], the connector of any port.
//! - [`serial`]: serial ports opened with the protocol's line, listed, and probed.
//! - [`ble`]: Bluetooth LE boards found, connected and subscribed to, through btleplug.
//! - [`hid`]: Chessnut boards plugged in by USB, through hidapi.
//! - [`learnt`]: what a session learnt of a board, kept for its next session.
//! - [`frames_in`]: the frames of a transport that delivers whole frames, as a byte stream.

pub mod ble;
pub mod board;
pub mod frames_in;
pub mod hid;
pub mod learnt;
pub mod serial;
