//! An emulated DGT Pegasus, sans-IO: host command bytes and the time go in, the board's
//! messages come out, each a notification of its own.
//!
//! [`PegasusBoardEmulator`] never reads a clock, a port or a file. The board senses which
//! squares are occupied, nothing more. It answers the DGT commands a Pegasus answers: the board
//! dump (`01` on an occupied square, `00` elsewhere), the version (1.0), the serial numbers,
//! the trademark and the battery ([`BATTERY_PERCENT`]); once the host turns field updates on
//! (`44`) it reports each square's change as it happens, until a reset (`40`). It lights the
//! squares the LED command (`60`) lists. It has no buttons: the script's clock presses are not
//! the board's, and its promotion choices are the player's at the host
//! ([`Notice::ChosenAtHost`]). Unplugged (the Bluetooth link dropped, the board
//! switched off) it reads and sends nothing while the hands go on; plugged in again it has
//! forgotten the updates and its LEDs.

mod commands;
mod options;
#[cfg(test)]
mod tests;

use shakmaty::{Bitboard, Square};

pub use commands::{Command, CommandDecoder};
pub use options::HELP;

pub use super::occupancy::EmulatorConfig;
use super::occupancy::{Happening, OccupancyBoard};
use crate::emulation::follow::Follower;
use crate::emulation::{EmulatedBoard, Notice};
use touchmove_boards::dgt::wire::message::encode;
use touchmove_boards::dgt::wire::protocol::{command, index_from_square, message};
use touchmove_core::decode::StreamDecoder;
use touchmove_core::sensor::Millis;

/// The battery level the emulated board answers with.
pub const BATTERY_PERCENT: u8 = 88;

/// The long serial number the emulated board answers with.
pub const SERIAL: &[u8; 10] = b"P000000001";

/// An emulated DGT Pegasus.
#[derive(Debug)]
pub struct PegasusBoardEmulator {
    board: OccupancyBoard,
    decoder: CommandDecoder,
    /// Whether field updates are on.
    updates: bool,
}

impl PegasusBoardEmulator {
    /// A board set up as `config` says, powered up at emulator time 0.
    pub fn new(config: EmulatorConfig) -> PegasusBoardEmulator {
        PegasusBoardEmulator {
            board: OccupancyBoard::new(config),
            decoder: CommandDecoder::default(),
            updates: false,
        }
    }

    /// The board with hands that carry out the moves of `follower`'s side as its LEDs show
    /// them (the move's two squares lit, and no other).
    pub(crate) fn with_follower(mut self, follower: Follower) -> PegasusBoardEmulator {
        self.board = self.board.with_follower(follower);
        self
    }

    /// The occupied squares now.
    pub fn occupied(&self) -> Bitboard {
        self.board.occupied()
    }

    /// The squares lit now, as the host listed them.
    pub fn leds(&self) -> &[Square] {
        self.board.leds()
    }

    /// What the board's bytes answer of what happened.
    fn happened(&mut self, happening: Happening) {
        match happening {
            Happening::Changed { square, placed } => {
                if self.updates {
                    self.board.send(encode::field_update(
                        index_from_square(square),
                        u8::from(placed),
                    ));
                }
            }
            Happening::Unplugged => {
                self.updates = false;
                self.decoder = CommandDecoder::default();
            }
        }
    }

    fn dump(&self) -> Vec<u8> {
        let mut codes = [0u8; 64];
        for square in self.board.occupied() {
            if let Some(code) = codes.get_mut(usize::from(index_from_square(square))) {
                *code = 0x01;
            }
        }
        encode::board_dump(&codes)
    }

    fn command(&mut self, now: Millis, command: Command) {
        self.board.host_spoke(now);
        let answer = match command {
            Command::Byte(command::RESET) => {
                self.updates = false;
                None
            }
            Command::Byte(command::SEND_BRD) => Some(self.dump()),
            Command::Byte(command::SEND_UPDATE_BRD) => {
                self.updates = true;
                None
            }
            Command::Byte(command::RETURN_LONG_SERIALNR) => Some(encode::long_serial_nr(SERIAL)),
            Command::Byte(command::RETURN_SERIALNR) => Some(encode::serial_nr(b"00001")),
            Command::Byte(command::SEND_TRADEMARK) => Some(encode::trademark(
                "Digital Game Technology (emulated Pegasus)",
            )),
            Command::Byte(command::SEND_VERSION) => Some(encode::version(1, 0)),
            Command::Byte(command::SEND_BATTERY_STATUS) => Some(encode::message(
                message::BATTERY_STATUS,
                &[BATTERY_PERCENT, 0, 0, 0, 0, 0, 0, 0, 2],
            )),
            Command::Byte(other) => {
                self.board.notice(Notice::Refused(other));
                None
            }
            Command::Leds(squares) => {
                self.board.light(now, squares);
                None
            }
            Command::DeveloperKey => None,
        };
        if let Some(answer) = answer {
            self.board.send(answer);
        }
    }
}

impl EmulatedBoard for PegasusBoardEmulator {
    fn handle_bytes(&mut self, now: Millis, bytes: &[u8]) {
        self.handle_timeout(now);
        if !self.board.plugged() {
            return;
        }
        self.decoder.push(bytes);
        while let Some(decoded) = self.decoder.poll() {
            match decoded {
                Ok(command) => self.command(now, command),
                Err(what) => self.board.notice(Notice::NotUnderstood(what)),
            }
        }
    }

    fn handle_timeout(&mut self, now: Millis) {
        while let Some(happening) = self.board.advance(now) {
            self.happened(happening);
        }
    }

    fn poll_timeout(&self) -> Option<Millis> {
        self.board.poll_timeout()
    }

    fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.board.poll_transmit()
    }

    fn script_done(&self) -> bool {
        self.board.script_done()
    }

    fn poll_notice(&mut self) -> Option<Notice> {
        self.board.poll_notice()
    }

    fn screen(&mut self, _now: Millis, record: Bitboard) {
        self.board.screen(record);
    }
}
