//! The settings of an emulated board: its script, how it stands and misbehaves, who it says it
//! is.

use super::clock::ClockConfig;
use super::script::Script;
use crate::emulation::{Playing, Unplug};
use touchmove_boards::dgt::wire::message::encode::BatteryStatus;

/// What the board says about itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardIdentity {
    /// The VERSION: main and sub (`(1, 2)` is "1.02").
    pub version: (u8, u8),
    /// The SERIALNR's five ASCII digits.
    pub serial: [u8; 5],
    /// The LONG_SERIALNR's ten ASCII digits.
    pub long_serial: [u8; 10],
    /// The TRADEMARK text.
    pub trademark: String,
    /// The BUSADRES.
    pub bus_address: u16,
    /// The BATTERY_STATUS.
    pub battery: BatteryStatus,
}

impl Default for BoardIdentity {
    fn default() -> BoardIdentity {
        BoardIdentity {
            version: (1, 2),
            serial: *b"31415",
            long_serial: *b"3141592653",
            trademark: "touchmove emulated DGT e-board, version 1.02".to_owned(),
            bus_address: 0x0a5e,
            battery: BatteryStatus {
                percent: 87,
                minutes_left: 600,
                status: 0x00,
            },
        }
    }
}

/// The settings of a [`super::DgtBoardEmulator`].
#[derive(Debug, Clone, PartialEq)]
pub struct EmulatorConfig {
    /// What happens on the board.
    pub script: Script,
    /// When the script starts, how fast, on how noisy a line.
    pub playing: Playing,
    /// The board stands turned round: every square it reports is turned by
    /// [`shakmaty::Square::rotate_180`].
    pub rotated: bool,
    /// An unplugging, if any.
    pub unplug: Option<Unplug>,
    /// The clock plugged into the board.
    pub clock: ClockConfig,
    /// What the board says about itself.
    pub identity: BoardIdentity,
}

impl EmulatorConfig {
    /// `script` at normal speed, starting at once, on a clean line, the right way round.
    pub fn new(script: Script) -> EmulatorConfig {
        EmulatorConfig {
            script,
            playing: Playing::default(),
            rotated: false,
            unplug: None,
            clock: ClockConfig::default(),
            identity: BoardIdentity::default(),
        }
    }
}
