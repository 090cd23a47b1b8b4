//! A frame: a message and the sender's sequence number.

use crate::message::Message;

/// One frame, in either direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Frame {
    /// The sender's sequence number: 0x00 for the first frame after reset, then one more
    /// (wrapping) for each frame sent; each direction counts on its own.
    pub seq: u8,
    /// What the frame says.
    pub message: Message,
}
