//! A Pegasus emulated from the options every emulated board takes ([`EmulatorOptions`]): the
//! registry's constructor.

use crate::emulation::{BoardOption, EmulatorError, EmulatorOptions, FromOptions, Playing};

use super::super::hall::Script;
use super::{EmulatorConfig, PegasusBoardEmulator};

/// What the emulated board does, for `emulate --help`.
pub const HELP: &str = "\
It senses occupancy only and speaks the DGT board protocol: a dump (`01` on an occupied square)
when asked with `42`, each square's change as it happens once `44` turns updates on (until `40`),
version 1.0, serial P000000001, a battery of 88 %, the squares the LED command `60` lists lit. It
has no buttons: the script's clock presses and promotion choices are not its own. The script starts
with the host's first command, unless --no-wait. Unplugged (--unplug-at, --unplug-for) it reads
and sends nothing; plugged in again it has forgotten the updates and its LEDs.";

/// What a Pegasus does not have: no clock, no sequence numbers, no serial of the user's
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

impl FromOptions for PegasusBoardEmulator {
    fn from_options(options: &EmulatorOptions) -> Result<PegasusBoardEmulator, EmulatorError> {
        options.refuse(&LACKING)?;
        let follower = options.follower_of::<Script>()?;
        let script: Script = options.script(follower.as_ref().map(|(_, opening)| opening))?;
        let mut config = EmulatorConfig::new(script);
        config.playing = Playing::of(options);
        config.unplug = options.unplug;
        let emulator = PegasusBoardEmulator::new(config);
        Ok(match follower {
            Some((follower, _)) => emulator.with_follower(follower),
            None => emulator,
        })
    }
}
