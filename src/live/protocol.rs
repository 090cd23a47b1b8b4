//! What the host knows of a board protocol before any byte is exchanged: its name, the serial
//! line its boards speak, and how long its reports can lag behind a clock press. Each protocol
//! states its own ([`crate::dgt::PROTOCOL`], [`crate::hall::PROTOCOL`]); the command line opens
//! ports and weighs presses from it.

use crate::sensor::Millis;

/// A board protocol's facts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Protocol {
    /// The name the command line and recordings use (`dgt`, `hall`).
    pub name: &'static str,
    /// The serial line the protocol's boards speak.
    pub line: SerialLine,
    /// How long after a clock press the board's reports of what happened before it may still
    /// arrive (ms): one scan and a margin on a scanning board, 0 on one that reports each
    /// change as it happens.
    pub report_horizon_ms: Millis,
}

/// A serial line's settings (no flow control: no board of ours uses any).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SerialLine {
    /// Bits per second.
    pub baud_rate: u32,
    /// Data bits per character (5 to 8).
    pub data_bits: u8,
    /// The parity bit.
    pub parity: Parity,
    /// Stop bits (1 or 2).
    pub stop_bits: u8,
}

impl SerialLine {
    /// 8 data bits, no parity, 1 stop bit at `baud_rate` ("8N1").
    pub const fn eight_n_one(baud_rate: u32) -> SerialLine {
        SerialLine {
            baud_rate,
            data_bits: 8,
            parity: Parity::None,
            stop_bits: 1,
        }
    }
}

/// A serial line's parity bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parity {
    /// No parity bit.
    None,
    /// Odd parity.
    Odd,
    /// Even parity.
    Even,
}
