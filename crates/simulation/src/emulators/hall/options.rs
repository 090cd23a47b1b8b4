//! A Hall-sensor board emulated from the options every emulated board takes
//! ([`EmulatorOptions`]): the registry's constructor.

use crate::emulation::{BoardOption, EmulatorError, EmulatorOptions, FromOptions, Playing};

use super::{EmulatorConfig, HallBoardEmulator, Script};

/// What a Hall-sensor board does not have: no clock, no orientation it could report (it cannot
/// tell pieces apart).
const LACKING: [BoardOption; 7] = [
    BoardOption::Rotated,
    BoardOption::WhiteOnClock,
    BoardOption::TimeControl,
    BoardOption::Serial,
    BoardOption::ClockModel,
    BoardOption::Sentio,
    BoardOption::AnswerAfter,
];

/// What the emulated board does, for `emulate --help`.
pub const HELP: &str = "\
It speaks the open Hall-sensor protocol (firmware-protocol/README.md) at 115200 baud: at power-up
a 0x00, HELLO (occupancy only, LEDs, buttons) and SNAPSHOT; then each lift and place of the script
as a CHANGE, clock presses, adjustments and promotion choices as BUTTONs, and a HEARTBEAT after a
second without frames. It answers REQUEST_SNAPSHOT with its occupancy and remembers SET_LEDS. The
script starts when the host sends its first frame, unless --no-wait. Noise bursts end with a 0x00,
so each costs no frame but is a corrupt report; --drop-every N loses every Nth CHANGE. While
unplugged (--unplug-at, --unplug-for) the board reads and sends nothing as the hands play on;
plugged in again it powers up as at the start: 0x00, HELLO, SNAPSHOT, its LEDs dark.";

impl FromOptions for HallBoardEmulator {
    /// A board playing `options`; a board that cannot identify pieces ignores a log's letters.
    fn from_options(options: &EmulatorOptions) -> Result<HallBoardEmulator, EmulatorError> {
        options.refuse(&LACKING)?;
        let follower = options.follower_of::<Script>()?;
        let script: Script = options.script(follower.as_ref().map(|(_, opening)| opening))?;
        let mut config = EmulatorConfig::new(script);
        config.playing = Playing::of(options);
        config.drop_every = options.drop_every;
        config.unplug = options.unplug;
        let emulator = HallBoardEmulator::new(config);
        Ok(match follower {
            Some((follower, _)) => emulator.with_follower(follower),
            None => emulator,
        })
    }
}
