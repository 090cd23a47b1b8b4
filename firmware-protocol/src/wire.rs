//! The constants of the link: speed, framing sizes and frame type bytes.

/// The link's baud rate (8 data bits, no parity, 1 stop bit, no flow control).
pub const BAUD_RATE: u32 = 115_200;

/// The protocol version a HELLO announces.
pub const PROTOCOL_VERSION: u8 = 0x01;

/// The byte that ends every frame on the wire (and so starts the next one): COBS leaves no
/// other zero byte.
pub const DELIMITER: u8 = 0x00;

/// The largest payload of any frame: SNAPSHOT with piece codes (8 + 32 bytes).
pub const MAX_PAYLOAD: usize = 40;

/// The bytes of a frame before the payload: length, type, sequence number.
pub const HEADER_LENGTH: usize = 3;

/// The bytes of the CRC after the payload.
pub const CRC_LENGTH: usize = 2;

/// The largest frame before COBS encoding: header, payload, CRC.
pub const MAX_RAW: usize = HEADER_LENGTH + MAX_PAYLOAD + CRC_LENGTH;

/// The largest COBS-encoded frame, without its delimiter (one overhead byte below 254 bytes).
pub const MAX_ENCODED: usize = MAX_RAW + 1;

/// The largest frame on the wire: COBS-encoded frame and delimiter.
pub const MAX_WIRE: usize = MAX_ENCODED + 1;

/// Frame type bytes; the top bit is set on host → board frames.
pub mod frame_type {
    /// Board → host: who the board is and what it can do.
    pub const HELLO: u8 = 0x01;
    /// Board → host: the full occupancy, optionally with piece codes.
    pub const SNAPSHOT: u8 = 0x02;
    /// Board → host: one square was lifted or placed.
    pub const CHANGE: u8 = 0x03;
    /// Board → host: a button was pressed.
    pub const BUTTON: u8 = 0x04;
    /// Board → host: the board is alive; its clock.
    pub const HEARTBEAT: u8 = 0x05;
    /// Host → board: send a SNAPSHOT now.
    pub const REQUEST_SNAPSHOT: u8 = 0x81;
    /// Host → board: set square LEDs.
    pub const SET_LEDS: u8 = 0x82;
    /// Host → board: a board frame was received.
    pub const ACK: u8 = 0x83;
}
