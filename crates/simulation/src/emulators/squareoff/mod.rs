//! An emulated Square Off, sans-IO: the host's messages and the time go in, the board's
//! messages come out, each a notification of its own.
//!
//! [`SquareOffBoardEmulator`] never reads a clock, a port or a file. The board senses which
//! squares are occupied, nothing more, and reports each change as it happens (`0#e2u*`,
//! `0#e4d*`). It answers the occupancy asked (`30#R*`) file by file, lights the squares the
//! lights message (`25#…*`) names and keeps the last result shown (`27#…*`). It has no arm
//! driven here and no buttons: the script's clock presses are not the board's, and its
//! promotion choices are the player's at the host ([`Notice::ChosenAtHost`]). Unplugged (the
//! Bluetooth link dropped, the board switched off) it reads and sends nothing while the hands
//! go on; plugged in again it has forgotten its lights.

mod options;
#[cfg(test)]
mod tests;

use shakmaty::{Bitboard, Square};

pub use options::HELP;

pub use super::occupancy::EmulatorConfig;
use super::occupancy::{Happening, OccupancyBoard};
use crate::emulation::follow::Follower;
use crate::emulation::{EmulatedBoard, Notice};
use touchmove_boards::squareoff::wire::Corrupt;
use touchmove_boards::squareoff::wire::{
    BoardMessage, LIGHTS, Message, MessageDecoder, OCCUPANCY, OCCUPANCY_ASKED, OPEN, RESULT, lit,
};
use touchmove_core::decode::StreamDecoder;
use touchmove_core::sensor::Millis;

/// An emulated Square Off.
#[derive(Debug)]
pub struct SquareOffBoardEmulator {
    board: OccupancyBoard,
    decoder: MessageDecoder,
    /// The last result the host showed (`wt`, `bl`, `dw`).
    result: Option<String>,
}

impl SquareOffBoardEmulator {
    /// A board set up as `config` says, powered up at emulator time 0.
    pub fn new(config: EmulatorConfig) -> SquareOffBoardEmulator {
        SquareOffBoardEmulator {
            board: OccupancyBoard::new(config),
            decoder: MessageDecoder::new(),
            result: None,
        }
    }

    /// The board with hands that carry out the moves of `follower`'s side as its lights show
    /// them (the move's two squares lit, and no other).
    pub(crate) fn with_follower(mut self, follower: Follower) -> SquareOffBoardEmulator {
        self.board = self.board.with_follower(follower);
        self
    }

    /// The occupied squares now.
    pub fn occupied(&self) -> Bitboard {
        self.board.occupied()
    }

    /// The squares lit now, as the host named them.
    pub fn leds(&self) -> &[Square] {
        self.board.leds()
    }

    /// The last result the host showed on the board (`wt`, `bl`, `dw`).
    pub fn result(&self) -> Option<&str> {
        self.result.as_deref()
    }

    /// What the board's bytes answer of what happened: each change reported as it happens.
    fn happened(&mut self, happening: Happening) {
        match happening {
            Happening::Changed { square, placed } => {
                let report = if placed {
                    BoardMessage::Placed(square)
                } else {
                    BoardMessage::Lifted(square)
                };
                self.board.send(report.message().to_board_bytes());
            }
            Happening::Unplugged => self.decoder = MessageDecoder::new(),
        }
    }

    fn message(&mut self, now: Millis, message: Message) {
        self.board.host_spoke(now);
        match (message.code.as_str(), message.body.as_str()) {
            (OCCUPANCY, OCCUPANCY_ASKED) => {
                let answer = BoardMessage::Occupancy(self.board.occupied());
                self.board.send(answer.message().to_board_bytes());
            }
            (LIGHTS, body) => self.board.light(now, lit(body)),
            (RESULT, body) => self.result = Some(body.to_owned()),
            (OPEN, _) => {}
            _ => self.board.notice(Notice::NotUnderstood(format!(
                "{}#{}*",
                message.code, message.body
            ))),
        }
    }
}

impl EmulatedBoard for SquareOffBoardEmulator {
    fn handle_bytes(&mut self, now: Millis, bytes: &[u8]) {
        self.handle_timeout(now);
        if !self.board.plugged() {
            return;
        }
        self.decoder.push(bytes);
        while let Some(decoded) = self.decoder.poll() {
            match decoded {
                Ok(message) => self.message(now, message),
                Err(Corrupt { reason, .. }) => {
                    self.board.notice(Notice::NotUnderstood(reason));
                }
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
