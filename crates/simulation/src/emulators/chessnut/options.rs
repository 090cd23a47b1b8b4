//! A Chessnut board emulated from the options every emulated board takes
//! ([`EmulatorOptions`]): the registry's constructor.

use crate::emulation::{BoardOption, EmulatorError, EmulatorOptions, FromOptions, Playing};

use super::super::chesslink::Script;
use super::{ChessnutBoardEmulator, EmulatorConfig};

/// What the emulated board does, for `emulate --help`.
pub const HELP: &str = "\
It identifies pieces and, once the host writes `21 01 00`, reports the whole position (`01 24`,
32 bytes of piece codes, a 4-byte uptime) every 100 ms (divided by --speed). It acknowledges
commands with `23 01 00`, answers the battery request with 88 %, and lights the squares `0a 08`
sets. The script starts with the host's first intact command, unless --no-wait. Noise bursts come
between frames. Unplugged (--unplug-at, --unplug-for) it reads and sends nothing; plugged in again
it has forgotten the reports and its LEDs.";

/// What a Chessnut board does not have: no clock, no sequence numbers to lose, no serial
/// number it tells, no orientation of its own.
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

/// What the emulated Chessnut Move does, for `emulate --help`.
pub const ROBOT_HELP: &str = "\
A Chessnut board (as `emulate chessnut`) with a robot under it: given a position (`42 21`, 32
bytes of piece codes, a flag), it falls silent (no reports, no acknowledgements), sets the pieces to it (4 s a square changed,
divided by --speed), and reports again. With --follow the robot, not the hands, carries out the
followed side's moves. Its lights are coloured (`43 20`), its battery answered to `41 01 0c`.";

/// A Chessnut Move playing `options` (the registry's constructor).
pub fn new_robot(
    options: &EmulatorOptions,
) -> Result<Box<dyn crate::emulation::EmulatedBoard + Send>, EmulatorError> {
    let mut emulator = ChessnutBoardEmulator::from_options(options)?;
    emulator.robot = true;
    Ok(Box::new(emulator))
}

impl FromOptions for ChessnutBoardEmulator {
    /// A board playing `options`.
    fn from_options(options: &EmulatorOptions) -> Result<ChessnutBoardEmulator, EmulatorError> {
        options.refuse(&LACKING)?;
        let follower = options.follower_of::<Script>()?;
        let script: Script = options.script(follower.as_ref().map(|(_, opening)| opening))?;
        let mut config = EmulatorConfig::new(script);
        config.playing = Playing::of(options);
        config.unplug = options.unplug;
        let emulator = ChessnutBoardEmulator::new(config);
        Ok(match follower {
            Some((follower, _)) => emulator.with_follower(follower),
            None => emulator,
        })
    }
}
