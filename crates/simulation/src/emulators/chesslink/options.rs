//! A ChessLink board emulated from the options every emulated board takes
//! ([`EmulatorOptions`]): the registry's constructor.

use crate::emulation::{BoardOption, EmulatorError, EmulatorOptions, FromOptions, Playing};

use super::{ChessLinkBoardEmulator, EmulatorConfig, Script};

/// What the emulated board does, for `emulate --help`.
pub const HELP: &str = "\
It identifies pieces and reports whole positions at 38400 baud 7O1: a status (`s` and 64 piece
letters, a8 to h1) when asked with `S`, and automatic reports as its E2ROM says (address 02; it
starts with them off, the host sets them). It scans every 41 ms (divided by --speed), answers `V` with firmware 01.0A,
lights the LEDs `L` sets and `X` turns off, and keeps what `W` writes. The script starts with the
host's first intact command, unless --no-wait. Noise bursts come between frames. Unplugged
(--unplug-at, --unplug-for) it reads and sends nothing; plugged in again it has forgotten its last
status and LEDs, not its E2ROM.";

/// What the emulated eONE does, for `emulate --help`.
pub const EONE_HELP: &str = "\
The ChessLink board above, reached over Bluetooth LE behind a BlueZ stand-in (`emulate` prints
`port: ble:MILLENNIUM CHESS emulated`): each character goes on the air with its odd parity bit,
its frames notified on the transparent UART service. Unplugged, its link drops.";

/// What a ChessLink board does not have: no clock, no sequence numbers to lose, no
/// orientation of its own (a board turned round is the host's to notice, not emulated).
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

impl FromOptions for ChessLinkBoardEmulator {
    /// A board playing `options`.
    fn from_options(options: &EmulatorOptions) -> Result<ChessLinkBoardEmulator, EmulatorError> {
        options.refuse(&LACKING)?;
        let follower = options.follower_of::<Script>()?;
        let script: Script = options.script(follower.as_ref().map(|(_, opening)| opening))?;
        let mut config = EmulatorConfig::new(script);
        config.playing = Playing::of(options);
        config.unplug = options.unplug;
        let emulator = ChessLinkBoardEmulator::new(config);
        Ok(match follower {
            Some((follower, _)) => emulator.with_follower(follower),
            None => emulator,
        })
    }
}
