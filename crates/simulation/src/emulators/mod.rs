//! The emulated boards, one per protocol of the boards' registry
//! (`touchmove_boards::registry`): each speaks its protocol's bytes from a script of simulated
//! hands, sans-IO, for `touchmove emulate`, `demo`, the benchmarks and the live tests.
//!
//! [`find`] gives a protocol's emulator by the protocol's name; a protocol without one is
//! simply absent here.

pub mod certabo;
pub mod chesslink;
pub mod chessnut;
pub mod dgt;
pub mod hall;
pub mod occupancy;
pub mod pegasus;
pub mod squareoff;
#[cfg(test)]
mod testing;

use crate::emulation::{EmulatedBoard, EmulatorError, EmulatorOptions, boxed};

/// How a protocol's board is emulated (`emulate NAME`, the live tests, `demo --board NAME`).
#[derive(Debug, Clone, Copy)]
pub struct Emulator {
    /// The name of the protocol it speaks, as the boards' registry names it.
    pub protocol: &'static str,
    /// A board playing what the options say, or why it cannot.
    pub new: fn(&EmulatorOptions) -> Result<Box<dyn EmulatedBoard + Send>, EmulatorError>,
    /// What the emulated board does, for `emulate --help`.
    pub help: &'static str,
}

/// Every emulator, in the boards' registry order.
pub const EMULATORS: &[Emulator] = &[
    Emulator {
        protocol: touchmove_boards::dgt::PROTOCOL.name,
        new: boxed::<dgt::DgtBoardEmulator>,
        help: dgt::HELP,
    },
    Emulator {
        protocol: touchmove_boards::hall::PROTOCOL.name,
        new: boxed::<hall::HallBoardEmulator>,
        help: hall::HELP,
    },
    Emulator {
        protocol: touchmove_boards::chesslink::PROTOCOL.name,
        new: boxed::<chesslink::ChessLinkBoardEmulator>,
        help: chesslink::HELP,
    },
    Emulator {
        protocol: touchmove_boards::certabo::PROTOCOL.name,
        new: boxed::<certabo::CertaboBoardEmulator>,
        help: certabo::HELP,
    },
    Emulator {
        protocol: touchmove_boards::chessnut::ROBOT_PROTOCOL.name,
        new: chessnut::new_robot,
        help: chessnut::ROBOT_HELP,
    },
    Emulator {
        protocol: touchmove_boards::chessnut::PROTOCOL.name,
        new: boxed::<chessnut::ChessnutBoardEmulator>,
        help: chessnut::HELP,
    },
    Emulator {
        protocol: touchmove_boards::pegasus::PROTOCOL.name,
        new: boxed::<pegasus::PegasusBoardEmulator>,
        help: pegasus::HELP,
    },
    // An eONE is a ChessLink board reached over Bluetooth LE: the same board, the parity bit
    // its link adds being the Bluetooth stand-in's.
    Emulator {
        protocol: touchmove_boards::eone::PROTOCOL.name,
        new: boxed::<chesslink::ChessLinkBoardEmulator>,
        help: chesslink::EONE_HELP,
    },
    Emulator {
        protocol: touchmove_boards::squareoff::PROTOCOL.name,
        new: boxed::<squareoff::SquareOffBoardEmulator>,
        help: squareoff::HELP,
    },
];

/// The emulator of the protocol called `protocol`, if it has one.
pub fn find(protocol: &str) -> Option<&'static Emulator> {
    EMULATORS
        .iter()
        .find(|emulator| emulator.protocol == protocol)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_protocol_of_the_registry_has_its_emulator_and_no_other() {
        let protocols: Vec<&str> = touchmove_boards::registry::names().collect();
        let emulated: Vec<&str> = EMULATORS.iter().map(|e| e.protocol).collect();
        assert_eq!(emulated, protocols);
        for name in protocols {
            assert_eq!(find(name).map(|e| e.protocol), Some(name));
        }
        assert!(find("none").is_none());
    }
}
