//! Host → board commands and their bytes, both ways: [`encode`] writes what a host sends;
//! [`ReceivedCommandDecoder`] reads what an (emulated) board receives. The commands the
//! protocol forbids (EEPROM dump, bus mode, boot loader) have no [`HostCommand`] variant, so they
//! cannot be sent; a board receiving one is told ([`ReceivedCommand`]).

mod decode;

pub use decode::{ReceivedCommand, ReceivedCommandDecoder, UnreadCommand};

use crate::dgt::wire::protocol::{clock_command, command};

/// A host → board command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostCommand {
    /// Back to idle; no reply.
    Reset,
    /// Ask for a BWTIME clock report.
    SendClock,
    /// Ask for a BOARD_DUMP.
    SendBoard,
    /// Field updates, plus BWTIME at least every second.
    SendUpdate,
    /// Field updates only.
    SendUpdateBoard,
    /// Ask for the SERIALNR.
    ReturnSerialNumber,
    /// Ask for the BUSADRES.
    ReturnBusAddress,
    /// Ask for the TRADEMARK.
    SendTrademark,
    /// Field updates, plus BWTIME only when the clock changes.
    SendUpdateNice,
    /// Ask for the BATTERY_STATUS (Bluetooth boards).
    SendBatteryStatus,
    /// Ask for the VERSION.
    SendVersion,
    /// Ask for the LONG_SERIALNR.
    ReturnLongSerialNumber,
    /// A command for the clock plugged into the board.
    Clock(ClockCommand),
}

impl HostCommand {
    /// Whether every board answers this command itself (not its clock, not only a Bluetooth
    /// board): an answer owed, by which the session knows the board is there.
    pub fn expects_answer(&self) -> bool {
        matches!(
            self,
            HostCommand::SendBoard
                | HostCommand::ReturnSerialNumber
                | HostCommand::ReturnBusAddress
                | HostCommand::SendTrademark
                | HostCommand::SendVersion
                | HostCommand::ReturnLongSerialNumber
        )
    }
}

/// Eight ASCII characters for the clock's display (anything else is replaced by `?`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockText([u8; 8]);

impl ClockText {
    /// The first eight characters of `text`, padded with spaces; characters that are not
    /// printable ASCII become `?`.
    pub fn new(text: &str) -> ClockText {
        let mut bytes = [b' '; 8];
        for (byte, c) in bytes.iter_mut().zip(text.chars()) {
            *byte = u8::try_from(c)
                .ok()
                .filter(|b| b.is_ascii_graphic() || *b == b' ')
                .unwrap_or(b'?');
        }
        ClockText(bytes)
    }

    /// The eight bytes sent.
    pub fn bytes(&self) -> [u8; 8] {
        self.0
    }

    /// The text of eight bytes as received (kept as they are).
    pub fn from_bytes(bytes: [u8; 8]) -> ClockText {
        ClockText(bytes)
    }
}

/// A time to set on one side of the clock (binary values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ClockSetting {
    /// Hours.
    pub hours: u8,
    /// Minutes.
    pub minutes: u8,
    /// Seconds.
    pub seconds: u8,
}

/// Which side's clock runs after a set-and-run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockRun {
    /// The left player's clock.
    Left,
    /// The right player's clock.
    Right,
    /// Neither: both stopped.
    Neither,
}

/// A clock command (sent inside the `0x2b` wrapper).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClockCommand {
    /// Show eight characters (DGT 3000), beeping or not.
    Display {
        /// The characters.
        text: ClockText,
        /// Whether the clock beeps too.
        beep: bool,
    },
    /// Beep.
    Beep {
        /// How long, as the clock counts it.
        duration: u8,
    },
    /// Set both times and run one side.
    SetAndRun {
        /// The left player's time.
        left: ClockSetting,
        /// The right player's time.
        right: ClockSetting,
        /// Which clock runs.
        run: ClockRun,
    },
    /// Back to the time display.
    EndDisplay,
    /// Ask for the clock's version.
    Version,
}

/// The bytes of `command`.
pub fn encode(command: &HostCommand) -> Vec<u8> {
    let mut out = Vec::new();
    encode_into(command, &mut out);
    out
}

/// Appends the bytes of `command` to `out`.
fn encode_into(host_command: &HostCommand, out: &mut Vec<u8>) {
    let byte = match host_command {
        HostCommand::Reset => command::RESET,
        HostCommand::SendClock => command::SEND_CLK,
        HostCommand::SendBoard => command::SEND_BRD,
        HostCommand::SendUpdate => command::SEND_UPDATE,
        HostCommand::SendUpdateBoard => command::SEND_UPDATE_BRD,
        HostCommand::ReturnSerialNumber => command::RETURN_SERIALNR,
        HostCommand::ReturnBusAddress => command::RETURN_BUSADRES,
        HostCommand::SendTrademark => command::SEND_TRADEMARK,
        HostCommand::SendUpdateNice => command::SEND_UPDATE_NICE,
        HostCommand::SendBatteryStatus => command::SEND_BATTERY_STATUS,
        HostCommand::SendVersion => command::SEND_VERSION,
        HostCommand::ReturnLongSerialNumber => command::RETURN_LONG_SERIALNR,
        HostCommand::Clock(clock) => return encode_clock(clock, out),
    };
    out.push(byte);
}

/// Appends a wrapped clock command: `0x2b, size, 0x03, cmd, data…, 0x00`, where size counts
/// the bytes after itself.
fn encode_clock(clock: &ClockCommand, out: &mut Vec<u8>) {
    let (code, data) = clock_code_and_data(clock);
    // At most nine data bytes, so the size fits a byte.
    let size = (data.len() + 3) as u8;
    out.extend_from_slice(&[
        command::CLOCK_MESSAGE,
        size,
        clock_command::START_MESSAGE,
        code,
    ]);
    out.extend_from_slice(&data);
    out.push(clock_command::END_MESSAGE);
}

impl ClockSetting {
    /// The time set, in ms.
    pub fn millis(&self) -> touchmove_core::sensor::Millis {
        let seconds = u64::from(self.hours) * 3600 + u64::from(self.minutes) * 60;
        (seconds + u64::from(self.seconds)) * 1000
    }
}

impl ClockCommand {
    /// The command's code (what a clock's acknowledgement names).
    pub fn code(&self) -> u8 {
        clock_code_and_data(self).0
    }

    /// The clock command `code` with `data` stands for, if it is one this host knows with data
    /// of its shape.
    pub fn decode(code: u8, data: &[u8]) -> Option<ClockCommand> {
        Some(match (code, data) {
            (clock_command::DISPLAY, &[c0, c1, c2, c3, c4, c5, c6, c7, beep]) => {
                let beep = match beep {
                    clock_command::DISPLAY_BEEP => true,
                    clock_command::DISPLAY_QUIET => false,
                    _ => return None,
                };
                ClockCommand::Display {
                    text: ClockText::from_bytes([c0, c1, c2, c3, c4, c5, c6, c7]),
                    beep,
                }
            }
            (clock_command::BEEP, &[duration]) => ClockCommand::Beep { duration },
            (clock_command::SET_AND_RUN, &[lh, lm, ls, rh, rm, rs, run]) => {
                let setting = |hours, minutes, seconds| ClockSetting {
                    hours,
                    minutes,
                    seconds,
                };
                let run = match run {
                    clock_command::RUN_LEFT => ClockRun::Left,
                    clock_command::RUN_RIGHT => ClockRun::Right,
                    clock_command::RUN_NEITHER => ClockRun::Neither,
                    _ => return None,
                };
                ClockCommand::SetAndRun {
                    left: setting(lh, lm, ls),
                    right: setting(rh, rm, rs),
                    run,
                }
            }
            (clock_command::END_DISPLAY, &[]) => ClockCommand::EndDisplay,
            (clock_command::VERSION, &[]) => ClockCommand::Version,
            _ => return None,
        })
    }
}

/// A clock command's code and data bytes.
fn clock_code_and_data(clock: &ClockCommand) -> (u8, Vec<u8>) {
    match clock {
        ClockCommand::Display { text, beep } => {
            let mut data = text.bytes().to_vec();
            data.push(if *beep {
                clock_command::DISPLAY_BEEP
            } else {
                clock_command::DISPLAY_QUIET
            });
            (clock_command::DISPLAY, data)
        }
        ClockCommand::Beep { duration } => (clock_command::BEEP, vec![*duration]),
        ClockCommand::SetAndRun { left, right, run } => {
            let run = match run {
                ClockRun::Left => clock_command::RUN_LEFT,
                ClockRun::Right => clock_command::RUN_RIGHT,
                ClockRun::Neither => clock_command::RUN_NEITHER,
            };
            let data = vec![
                left.hours,
                left.minutes,
                left.seconds,
                right.hours,
                right.minutes,
                right.seconds,
                run,
            ];
            (clock_command::SET_AND_RUN, data)
        }
        ClockCommand::EndDisplay => (clock_command::END_DISPLAY, Vec::new()),
        ClockCommand::Version => (clock_command::VERSION, Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_byte_commands() {
        let expected = [
            (HostCommand::Reset, 0x40),
            (HostCommand::SendClock, 0x41),
            (HostCommand::SendBoard, 0x42),
            (HostCommand::SendUpdate, 0x43),
            (HostCommand::SendUpdateBoard, 0x44),
            (HostCommand::ReturnSerialNumber, 0x45),
            (HostCommand::ReturnBusAddress, 0x46),
            (HostCommand::SendTrademark, 0x47),
            (HostCommand::SendUpdateNice, 0x4b),
            (HostCommand::SendBatteryStatus, 0x4c),
            (HostCommand::SendVersion, 0x4d),
            (HostCommand::ReturnLongSerialNumber, 0x55),
        ];
        for (host_command, byte) in expected {
            assert_eq!(encode(&host_command), vec![byte], "{host_command:?}");
            assert!(!command::NEVER_SEND.contains(&byte));
        }
    }

    #[test]
    fn display_is_wrapped_with_its_beep_byte() {
        let display = ClockCommand::Display {
            text: ClockText::new("e4 ok"),
            beep: true,
        };
        assert_eq!(
            encode(&HostCommand::Clock(display)),
            vec![
                0x2b, 0x0c, 0x03, 0x0c, 0x65, 0x34, 0x20, 0x6f, 0x6b, 0x20, 0x20, 0x20, 0x03, 0x00
            ]
        );
        let quiet = ClockCommand::Display {
            text: ClockText::new("abcdefghij"),
            beep: false,
        };
        assert_eq!(
            encode(&HostCommand::Clock(quiet)),
            vec![
                0x2b, 0x0c, 0x03, 0x0c, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x01, 0x00
            ]
        );
    }

    #[test]
    fn clock_text_replaces_what_is_not_ascii() {
        assert_eq!(ClockText::new("é\tb").bytes(), *b"??b     ");
    }

    #[test]
    fn beep_end_display_and_version() {
        let beep = HostCommand::Clock(ClockCommand::Beep { duration: 0x10 });
        assert_eq!(encode(&beep), vec![0x2b, 0x04, 0x03, 0x0b, 0x10, 0x00]);
        let end = HostCommand::Clock(ClockCommand::EndDisplay);
        assert_eq!(encode(&end), vec![0x2b, 0x03, 0x03, 0x03, 0x00]);
        let version = HostCommand::Clock(ClockCommand::Version);
        assert_eq!(encode(&version), vec![0x2b, 0x03, 0x03, 0x09, 0x00]);
    }

    #[test]
    fn set_and_run_sends_binary_times_left_first() {
        let set = ClockCommand::SetAndRun {
            left: ClockSetting {
                hours: 1,
                minutes: 30,
                seconds: 0,
            },
            right: ClockSetting {
                hours: 0,
                minutes: 59,
                seconds: 45,
            },
            run: ClockRun::Right,
        };
        assert_eq!(
            encode(&HostCommand::Clock(set)),
            vec![
                0x2b, 0x0a, 0x03, 0x0a, 0x01, 0x1e, 0x00, 0x00, 0x3b, 0x2d, 0x02, 0x00
            ]
        );
        for (run, byte) in [
            (ClockRun::Left, 0x01),
            (ClockRun::Right, 0x02),
            (ClockRun::Neither, 0x04),
        ] {
            let set = ClockCommand::SetAndRun {
                left: ClockSetting::default(),
                right: ClockSetting::default(),
                run,
            };
            assert_eq!(encode(&HostCommand::Clock(set)).get(10), Some(&byte));
        }
    }

    #[test]
    fn encode_into_appends() {
        let mut out = vec![0x4d];
        encode_into(&HostCommand::SendBoard, &mut out);
        assert_eq!(out, vec![0x4d, 0x42]);
    }
}
