//! A DGT board emulated from the options every emulated board takes
//! ([`EmulatorOptions`]): the registry's constructor.

use crate::emulation::{BoardOption, EmulatorError, EmulatorOptions, FromOptions, Playing};
use touchmove_core::clock::{Bonus, TimeControl};
use touchmove_core::sensor::Millis;

use super::{DgtBoardEmulator, EmulatorConfig, Script};

/// What the emulated board does, for `emulate --help`.
pub const HELP: &str = "\
It powers up in bus mode, idle: it answers every request but reports changes only once a host
sends SEND_UPDATE, SEND_UPDATE_BRD or SEND_UPDATE_NICE, which also starts the script (and the
clock: five minutes each or --time-control, White on the left) unless --no-wait. The clock runs
in real time. While unplugged (--unplug-at, --unplug-for) the board reads and sends nothing, and
it comes back in its power-up state (bus mode, idle), its changes meanwhile lost except in a
dump. With --clock 3000 the clock is a DGT 3000 whose lever bit follows a host's set-and-run
(high on the side it sets running), as a press would.";

impl FromOptions for DgtBoardEmulator {
    /// A board playing `options` (every option applies: a DGT board identifies pieces, scans,
    /// has a clock, can stand rotated and be unplugged).
    fn from_options(options: &EmulatorOptions) -> Result<DgtBoardEmulator, EmulatorError> {
        options.refuse(&[
            BoardOption::DropEvery,
            BoardOption::Sentio,
            BoardOption::AnswerAfter,
        ])?;
        let follower = options.follower_of::<Script>()?;
        let script: Script = options.script(follower.as_ref().map(|(_, opening)| opening))?;
        let mut config = EmulatorConfig::new(script);
        config.playing = Playing::of(options);
        config.rotated = options.rotated;
        config.unplug = options.unplug;
        config.clock.white = options.white_on_clock;
        config.clock.model = options.clock_model;
        if let Some(serial) = options.serial {
            config.identity.serial = five_digits(serial);
        }
        if let Some(TimeControl::Timed(schedule)) = &options.time_control {
            let first = schedule.period(0);
            config.clock.initial_ms = Millis::from(first.seconds).saturating_mul(1000);
            if let Bonus::Increment(seconds) = first.bonus {
                config.clock.increment_ms = Millis::from(seconds).saturating_mul(1000);
            }
        }
        let emulator = DgtBoardEmulator::new(config);
        Ok(match follower {
            Some((follower, _)) => emulator.with_follower(follower),
            None => emulator,
        })
    }
}

/// The five ASCII digits of `n` modulo 100000 (a SERIALNR).
fn five_digits(n: u32) -> [u8; 5] {
    let mut digits = [b'0'; 5];
    let mut rest = n % 100_000;
    for digit in digits.iter_mut().rev() {
        // A digit is below 10: it fits in a byte.
        *digit = b'0' + u8::try_from(rest % 10).unwrap_or(0);
        rest /= 10;
    }
    digits
}

#[cfg(test)]
mod serial_tests {
    use super::five_digits;

    #[test]
    fn a_serial_is_five_digits() {
        assert_eq!(&five_digits(27_001), b"27001");
        assert_eq!(&five_digits(42), b"00042");
        assert_eq!(&five_digits(1_234_567), b"34567");
    }
}
