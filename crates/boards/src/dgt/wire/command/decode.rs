//! Decoding the host → board byte stream into commands, one byte at a time (an emulated
//! board's side).
//!
//! Commands are single bytes, except clock commands, wrapped as
//! `0x2b, size, 0x03, cmd, data…, 0x00` (size counts the bytes after itself). Anything else is
//! reported as [`ReceivedCommand::Unknown`] or [`ReceivedCommand::MalformedClock`]; decoding never fails.

use super::{ClockCommand, HostCommand};
use crate::dgt::wire::protocol::clock_command::{
    END_MESSAGE as CLOCK_MESSAGE_END, START_MESSAGE as CLOCK_MESSAGE_START,
};
use crate::dgt::wire::protocol::command;

/// The smallest size of a wrapped clock command: `0x03`, the command code and `0x00`.
const MIN_CLOCK_SIZE: u8 = 3;

/// The largest size accepted; a larger one is taken for noise. The longest real command (a
/// DGT 3000 display text) is well below it.
const MAX_CLOCK_SIZE: u8 = 0x20;

/// What a board receives from the host: a command a host may send, one the protocol forbids,
/// or bytes that are no command at all (an emulated board has to cope with them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReceivedCommand {
    /// A command a host may send.
    Command(HostCommand),
    /// `0x49`: EEPROM dump (hosts must never send it).
    EepromDump,
    /// `0x4a`: back to bus mode (hosts must never send it).
    BusMode,
    /// `0x4e`: boot loader (hosts must never send it).
    BootLoader,
    /// A well-formed clock-command wrapper whose code or data no [`ClockCommand`] has.
    OtherClock {
        /// The command code ([`crate::dgt::wire::protocol::clock_command`]).
        code: u8,
        /// The bytes between the code and the final `0x00`.
        data: Vec<u8>,
    },
    /// A byte that is no command.
    Unknown(u8),
    /// A clock-command wrapper that broke off: the bytes consumed, `0x2b` first.
    MalformedClock(Vec<u8>),
}

/// Where the decoder is in a clock-command wrapper.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
enum State {
    /// Between commands.
    #[default]
    Idle,
    /// `0x2b` seen; the size comes next.
    Size,
    /// Inside the wrapper: the bytes after the size, and how many there will be.
    Body { size: u8, body: Vec<u8> },
}

/// A streaming decoder of host → board bytes.
#[derive(Debug, Clone, Default)]
pub struct ReceivedCommandDecoder {
    state: State,
}

impl ReceivedCommandDecoder {
    /// A decoder between commands.
    pub fn new() -> ReceivedCommandDecoder {
        ReceivedCommandDecoder::default()
    }

    /// Forgets a half-received clock command.
    pub fn reset(&mut self) {
        self.state = State::Idle;
    }

    /// Takes one byte; the command it completes, if any.
    pub fn feed(&mut self, byte: u8) -> Option<ReceivedCommand> {
        match std::mem::take(&mut self.state) {
            State::Idle => self.start(byte),
            State::Size => self.size(byte),
            State::Body { size, body } => self.body(size, body, byte),
        }
    }

    /// Every command that `bytes` complete, in order.
    pub fn feed_all(&mut self, bytes: &[u8]) -> Vec<ReceivedCommand> {
        bytes.iter().filter_map(|&byte| self.feed(byte)).collect()
    }

    fn start(&mut self, byte: u8) -> Option<ReceivedCommand> {
        if byte == command::CLOCK_MESSAGE {
            self.state = State::Size;
            return None;
        }
        Some(single(byte))
    }

    fn size(&mut self, size: u8) -> Option<ReceivedCommand> {
        if !(MIN_CLOCK_SIZE..=MAX_CLOCK_SIZE).contains(&size) {
            return Some(ReceivedCommand::MalformedClock(vec![
                command::CLOCK_MESSAGE,
                size,
            ]));
        }
        self.state = State::Body {
            size,
            body: Vec::with_capacity(usize::from(size)),
        };
        None
    }

    fn body(&mut self, size: u8, mut body: Vec<u8>, byte: u8) -> Option<ReceivedCommand> {
        body.push(byte);
        if body.first() != Some(&CLOCK_MESSAGE_START) {
            return Some(malformed(size, body));
        }
        if body.len() < usize::from(size) {
            self.state = State::Body { size, body };
            return None;
        }
        Some(wrapped(size, body))
    }
}

/// The command a single byte names.
fn single(byte: u8) -> ReceivedCommand {
    let host = match byte {
        command::RESET => HostCommand::Reset,
        command::SEND_CLK => HostCommand::SendClock,
        command::SEND_BRD => HostCommand::SendBoard,
        command::SEND_UPDATE => HostCommand::SendUpdate,
        command::SEND_UPDATE_BRD => HostCommand::SendUpdateBoard,
        command::RETURN_SERIALNR => HostCommand::ReturnSerialNumber,
        command::RETURN_BUSADRES => HostCommand::ReturnBusAddress,
        command::SEND_TRADEMARK => HostCommand::SendTrademark,
        command::SEND_UPDATE_NICE => HostCommand::SendUpdateNice,
        command::SEND_BATTERY_STATUS => HostCommand::SendBatteryStatus,
        command::SEND_VERSION => HostCommand::SendVersion,
        command::RETURN_LONG_SERIALNR => HostCommand::ReturnLongSerialNumber,
        0x49 => return ReceivedCommand::EepromDump,
        0x4a => return ReceivedCommand::BusMode,
        0x4e => return ReceivedCommand::BootLoader,
        other => return ReceivedCommand::Unknown(other),
    };
    ReceivedCommand::Command(host)
}

/// A complete wrapper body (`0x03, code, data…, 0x00`) as a command.
fn wrapped(size: u8, body: Vec<u8>) -> ReceivedCommand {
    match body.as_slice() {
        [CLOCK_MESSAGE_START, code, data @ .., CLOCK_MESSAGE_END] => {
            match ClockCommand::decode(*code, data) {
                Some(clock) => ReceivedCommand::Command(HostCommand::Clock(clock)),
                None => ReceivedCommand::OtherClock {
                    code: *code,
                    data: data.to_vec(),
                },
            }
        }
        _ => malformed(size, body),
    }
}

fn malformed(size: u8, body: Vec<u8>) -> ReceivedCommand {
    let mut bytes = vec![command::CLOCK_MESSAGE, size];
    bytes.extend(body);
    ReceivedCommand::MalformedClock(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dgt::wire::command::{ClockRun, ClockSetting, ClockText};

    fn decode(bytes: &[u8]) -> Vec<ReceivedCommand> {
        ReceivedCommandDecoder::new().feed_all(bytes)
    }

    #[test]
    fn single_byte_commands() {
        use HostCommand::*;
        let bytes = [
            0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x4b, 0x4c, 0x4d, 0x55, 0x49, 0x4a,
            0x4e,
        ];
        let mut expected: Vec<ReceivedCommand> = [
            Reset,
            SendClock,
            SendBoard,
            SendUpdate,
            SendUpdateBoard,
            ReturnSerialNumber,
            ReturnBusAddress,
            SendTrademark,
            SendUpdateNice,
            SendBatteryStatus,
            SendVersion,
            ReturnLongSerialNumber,
        ]
        .into_iter()
        .map(ReceivedCommand::Command)
        .collect();
        expected.extend([
            ReceivedCommand::EepromDump,
            ReceivedCommand::BusMode,
            ReceivedCommand::BootLoader,
        ]);
        assert_eq!(decode(&bytes), expected);
    }

    #[test]
    fn every_command_a_host_encodes_reads_back() {
        let setting = ClockSetting {
            hours: 1,
            minutes: 2,
            seconds: 3,
        };
        let commands = [
            HostCommand::SendUpdateNice,
            HostCommand::Clock(ClockCommand::Display {
                text: ClockText::new("1-0"),
                beep: true,
            }),
            HostCommand::Clock(ClockCommand::Beep { duration: 9 }),
            HostCommand::Clock(ClockCommand::SetAndRun {
                left: setting,
                right: ClockSetting::default(),
                run: ClockRun::Neither,
            }),
            HostCommand::Clock(ClockCommand::EndDisplay),
            HostCommand::Clock(ClockCommand::Version),
        ];
        let bytes: Vec<u8> = commands.iter().flat_map(super::super::encode).collect();
        let expected: Vec<ReceivedCommand> =
            commands.into_iter().map(ReceivedCommand::Command).collect();
        assert_eq!(decode(&bytes), expected);
    }

    #[test]
    fn unknown_bytes_are_reported() {
        assert_eq!(
            decode(&[0x00, 0xff, 0x4d]),
            [
                ReceivedCommand::Unknown(0x00),
                ReceivedCommand::Unknown(0xff),
                ReceivedCommand::Command(HostCommand::SendVersion)
            ]
        );
    }

    #[test]
    fn a_wrapped_beep_across_chunks() {
        let mut decoder = ReceivedCommandDecoder::new();
        assert_eq!(decoder.feed_all(&[0x2b, 0x04, 0x03]), []);
        assert_eq!(
            decoder.feed_all(&[0x0b, 0x05, 0x00, 0x42]),
            [
                ReceivedCommand::Command(HostCommand::Clock(ClockCommand::Beep { duration: 0x05 })),
                ReceivedCommand::Command(HostCommand::SendBoard)
            ]
        );
    }

    #[test]
    fn a_wrapped_set_and_run() {
        let bytes = [
            0x2b, 0x0a, 0x03, 0x0a, 0x00, 0x05, 0x00, 0x00, 0x04, 0x1e, 0x01, 0x00,
        ];
        assert_eq!(
            decode(&bytes),
            // 0:05:00 on the left, 0:04:30 on the right, the left running.
            [ReceivedCommand::Command(HostCommand::Clock(
                ClockCommand::SetAndRun {
                    left: ClockSetting {
                        hours: 0,
                        minutes: 5,
                        seconds: 0
                    },
                    right: ClockSetting {
                        hours: 0,
                        minutes: 4,
                        seconds: 30
                    },
                    run: ClockRun::Left
                }
            ))]
        );
    }

    #[test]
    fn broken_wrappers_are_reported_and_decoding_goes_on() {
        assert_eq!(
            decode(&[0x2b, 0x7f, 0x4d]),
            [
                ReceivedCommand::MalformedClock(vec![0x2b, 0x7f]),
                ReceivedCommand::Command(HostCommand::SendVersion)
            ]
        );
        assert_eq!(
            decode(&[0x2b, 0x04, 0x42, 0x4d]),
            [
                ReceivedCommand::MalformedClock(vec![0x2b, 0x04, 0x42]),
                ReceivedCommand::Command(HostCommand::SendVersion)
            ]
        );
        assert_eq!(
            decode(&[0x2b, 0x03, 0x03, 0x0b, 0x01, 0x41]),
            [
                ReceivedCommand::MalformedClock(vec![0x2b, 0x03, 0x03, 0x0b, 0x01]),
                ReceivedCommand::Command(HostCommand::SendClock)
            ]
        );
    }

    #[test]
    fn a_clock_command_of_unknown_shape_keeps_its_code_and_data() {
        // SET_AND_RUN with a run byte that is none of left, right and neither.
        let bytes = [
            0x2b, 0x0a, 0x03, 0x0a, 0x00, 0x05, 0x00, 0x00, 0x04, 0x1e, 0x07, 0x00,
        ];
        assert_eq!(
            decode(&bytes),
            [ReceivedCommand::OtherClock {
                code: 0x0a,
                data: vec![0x00, 0x05, 0x00, 0x00, 0x04, 0x1e, 0x07]
            }]
        );
    }

    #[test]
    fn reset_forgets_a_half_command() {
        let mut decoder = ReceivedCommandDecoder::new();
        assert_eq!(decoder.feed_all(&[0x2b, 0x04, 0x03]), []);
        decoder.reset();
        assert_eq!(
            decoder.feed_all(&[0x4d]),
            [ReceivedCommand::Command(HostCommand::SendVersion)]
        );
    }
}
