//! A Certabo board emulated from the options every emulated board takes
//! ([`EmulatorOptions`]): the registry's constructor.

use crate::emulation::{BoardOption, EmulatorError, EmulatorOptions, FromOptions, Playing};

use super::super::chesslink::Script;
use super::{CertaboBoardEmulator, EmulatorConfig};

/// What the emulated board does, for `emulate --help`.
pub const HELP: &str = "\
An RFID board (or, with --sentio, a Sentio board: occupancy only) streaming a frame every 250 ms
(divided by --speed), unasked: `:`, the five chip numbers of each square from a8 to h1 (each piece
its own chip, drawn from --seed), then a line break; a Sentio board's 8 numbers, a rank each. The
RFID board's spare queens stand on d6 and d3 (in a game from the standard start) until 3 s after
the host's first bytes (for the host to learn their chips); the script starts then, and a promotion's queen is the spare. The host's
bytes are LED frames of 8 bytes. Noise bursts come between frames. Unplugged (--unplug-at,
--unplug-for) it reads and sends nothing; plugged in again it streams, its LEDs out. With
--answer-after MS, a Sentio board's hands answer the LEDs asking where a piece went (lit MS ms): the
piece lifted where they set it and set back.";

/// What a Certabo board does not have: no clock, no sequence numbers to lose, no serial number
/// it tells, no orientation of its own.
const LACKING: [BoardOption; 6] = [
    BoardOption::Rotated,
    BoardOption::WhiteOnClock,
    BoardOption::TimeControl,
    BoardOption::DropEvery,
    BoardOption::Serial,
    BoardOption::ClockModel,
];

impl FromOptions for CertaboBoardEmulator {
    /// A board playing `options`.
    fn from_options(options: &EmulatorOptions) -> Result<CertaboBoardEmulator, EmulatorError> {
        options.refuse(&LACKING)?;
        // An RFID board knows where each piece went: it never asks.
        if !options.sentio {
            options.refuse(&[BoardOption::AnswerAfter])?;
        }
        let follower = options.follower_of::<Script>()?;
        let script: Script = options.script(follower.as_ref().map(|(_, opening)| opening))?;
        let mut config = EmulatorConfig::new(script);
        config.playing = Playing::of(options);
        config.unplug = options.unplug;
        config.sentio = options.sentio;
        config.answer_after = options.answer_after;
        let emulator = CertaboBoardEmulator::new(config);
        Ok(match follower {
            Some((follower, _)) => emulator.with_follower(follower),
            None => emulator,
        })
    }
}
