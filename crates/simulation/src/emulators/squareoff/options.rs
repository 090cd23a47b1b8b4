//! A Square Off emulated from the options every emulated board takes ([`EmulatorOptions`]):
//! the registry's constructor.

use crate::emulation::{BoardOption, EmulatorError, EmulatorOptions, FromOptions, Playing};

use super::super::hall::Script;
use super::{EmulatorConfig, SquareOffBoardEmulator};

/// What the emulated board does, for `emulate --help`.
pub const HELP: &str = "\
It senses occupancy only and speaks the Square Off's messages over the Nordic UART service: each
square's change as it happens (`0#e2u*` lifted, `0#e4d*` set down), the occupancy file by file
when asked with `30#R*`, the squares `25#…*` names lit, a result `27#…*` kept. Its arm is not
driven. It has no buttons: the script's clock presses and promotion choices are not its own. The
script starts with the host's first message, unless --no-wait. Unplugged (--unplug-at,
--unplug-for) it reads and sends nothing; plugged in again it has forgotten its lights.";

/// What a Square Off does not have: no clock, no sequence numbers, no serial of the user's
/// choosing, no orientation of its own.
const LACKING: [BoardOption; 8] = [
    BoardOption::Rotated,
    BoardOption::WhiteOnClock,
    BoardOption::TimeControl,
    BoardOption::DropEvery,
    BoardOption::Serial,
    BoardOption::ClockModel,
    BoardOption::Sentio,
    BoardOption::AnswerAfter,
];

impl FromOptions for SquareOffBoardEmulator {
    fn from_options(options: &EmulatorOptions) -> Result<SquareOffBoardEmulator, EmulatorError> {
        options.refuse(&LACKING)?;
        let follower = options.follower_of::<Script>()?;
        let script: Script = options.script(follower.as_ref().map(|(_, opening)| opening))?;
        let mut config = EmulatorConfig::new(script);
        config.playing = Playing::of(options);
        config.unplug = options.unplug;
        let emulator = SquareOffBoardEmulator::new(config);
        Ok(match follower {
            Some((follower, _)) => emulator.with_follower(follower),
            None => emulator,
        })
    }
}
