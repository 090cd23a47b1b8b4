//! A board protocol as the host knows it: its facts (name, serial line, how late its reports
//! may come), how to make its session, how to recognise its board on a port. Each protocol states its
//! own in its folder (`dgt::PROTOCOL`, ...); the registry ([`crate::registry`]) lists them, and
//! the command line knows protocols only from there.

use touchmove_core::clock::{ClockSide, TimeControl};
use touchmove_core::sensor::Millis;

use super::ble::BleProfile;
use super::link::BoardSession;

/// A board protocol.
#[derive(Debug, Clone, Copy)]
pub struct Protocol {
    /// The name the command line and recordings use (`dgt`, `hall`).
    pub name: &'static str,
    /// What its boards are, in a few words (for `--help` and `ports`).
    pub summary: &'static str,
    /// The serial line the protocol's boards speak, for boards reached through a serial port
    /// (USB, serial Bluetooth); `None` for boards reached only otherwise.
    pub line: Option<SerialLine>,
    /// How a board of the protocol is reached over Bluetooth LE, if it can be.
    pub ble: Option<BleProfile>,
    /// How long after a clock press the board's reports of what happened before it may still
    /// arrive (ms): one scan and a margin on a scanning board, 0 on one that reports each
    /// change as it happens.
    pub report_horizon_ms: Millis,
    /// How often the board samples its squares (ms): a change is reported only at the next
    /// scan (DGT: 250). 0 for a board that reports every change as it happens. A rest is a
    /// release only once it lasted the slide window and one scan period
    /// ([`touchmove_core::interpreter::Config::scan_ms`]).
    pub scan_ms: Millis,
    /// A host session for a board of this protocol.
    pub new_session: fn(&SessionOptions) -> Box<dyn BoardSession + Send>,
    /// How a board of this protocol is recognised on a port, if it can be.
    pub probe: Option<Probe>,
    /// Whether a promotion's new piece is entered at the host only: the board neither
    /// identifies pieces nor has promotion buttons (a DGT Pegasus). Then the game waits for
    /// the player's choice (`promote q|r|b|n` typed, or the page) instead of making a queen
    /// nobody chose.
    pub promotion_at_host: bool,
}

impl Protocol {
    /// `config` as a game on a board of this protocol decides: a promotion whose piece is
    /// entered at the host only waits for that choice ([`Protocol::promotion_at_host`]).
    pub fn deciding(
        &self,
        config: touchmove_core::interpreter::Config,
    ) -> touchmove_core::interpreter::Config {
        if self.promotion_at_host {
            config.awaiting_promotion_choice()
        } else {
            config
        }
    }

    /// The timing a board of this protocol decides with when nothing else says (see
    /// [`touchmove_core::timing`]): its report horizon and its scan period.
    pub fn timing(&self) -> touchmove_core::timing::Timing {
        touchmove_core::timing::Timing {
            report_horizon_ms: Some(self.report_horizon_ms),
            scan_ms: Some(self.scan_ms),
            ..Default::default()
        }
    }
}

/// What the game asks of a board's session beyond its protocol (a session ignores what its
/// board cannot do).
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct SessionOptions {
    /// The side of the board's clock White's time is on, when known before the game;
    /// otherwise learnt from the clock.
    pub white_side: Option<ClockSide>,
    /// Set the board's clock to this time control when the game starts.
    pub set_clock: Option<TimeControl>,
}

impl SessionOptions {
    /// Nothing asked: the clock's sides learnt, the clock left alone.
    pub fn new() -> SessionOptions {
        SessionOptions::default()
    }

    /// With White's time on the clock's `white_side`.
    pub fn white_side(mut self, white_side: Option<ClockSide>) -> SessionOptions {
        self.white_side = white_side;
        self
    }

    /// Setting the board's clock to `time_control` when the game starts.
    pub fn set_clock(mut self, time_control: Option<TimeControl>) -> SessionOptions {
        self.set_clock = time_control;
        self
    }
}

/// How a board is recognised on a port, sans-IO: the runner opens the port with the protocol's
/// line, sends `request`, and hands everything read back, from the first byte, to `recognise`
/// until it answers or a timeout passes.
#[derive(Debug, Clone, Copy)]
pub struct Probe {
    /// The bytes that ask a board to say what it is.
    pub request: fn() -> Vec<u8>,
    /// What the board is, from the bytes read so far; `None` while they say nothing of it.
    pub recognise: fn(&[u8]) -> Option<String>,
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
