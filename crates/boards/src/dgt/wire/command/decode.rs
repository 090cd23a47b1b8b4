//! Decoding the host → board byte stream into commands (an emulated board's side), as a
//! [`StreamDecoder`].
//!
//! Commands are single bytes, except clock commands, wrapped as
//! `0x2b, size, 0x03, cmd, data…, 0x00` (size counts the bytes after itself). Anything else is
//! an error with its bytes ([`UnreadCommand`]), and decoding goes on with the next byte.

use std::collections::VecDeque;

use touchmove_core::decode::{StreamDecoder, hex};

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
}

/// Bytes a board received that are no command.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UnreadCommand {
    /// A byte that is no command.
    #[error("unknown command byte {0:#04x}")]
    Unknown(u8),
    /// A clock-command wrapper that broke off (or that the stream's end cut short): the bytes
    /// consumed, `0x2b` first.
    #[error("malformed clock command {}", hex(.0))]
    MalformedClock(Vec<u8>),
}

/// What one byte completes: a command, bytes that are no command, or nothing yet.
type Completed = Option<Result<ReceivedCommand, UnreadCommand>>;

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
///
/// ```
/// use touchmove_boards::dgt::wire::command::{HostCommand, ReceivedCommand, ReceivedCommandDecoder, UnreadCommand};
/// use touchmove_core::decode::StreamDecoder;
///
/// let mut decoder = ReceivedCommandDecoder::new();
/// // SEND_BRD (0x42), a byte no command has, then a clock wrapper the stream's end cuts short.
/// decoder.push(&[0x42, 0x00, 0x2b, 0x04]);
/// decoder.finish();
/// let decoded: Vec<_> = std::iter::from_fn(|| decoder.poll()).collect();
/// assert_eq!(decoded, [
///     Ok(ReceivedCommand::Command(HostCommand::SendBoard)),
///     Err(UnreadCommand::Unknown(0x00)),
///     Err(UnreadCommand::MalformedClock(vec![0x2b, 0x04])),
/// ]);
/// ```
#[derive(Debug, Clone, Default)]
pub struct ReceivedCommandDecoder {
    state: State,
    /// What the bytes pushed so far completed, not yet polled.
    ready: VecDeque<Result<ReceivedCommand, UnreadCommand>>,
}

impl ReceivedCommandDecoder {
    /// A decoder between commands.
    pub fn new() -> ReceivedCommandDecoder {
        ReceivedCommandDecoder::default()
    }

    /// Forgets a half-received clock command (what was completed stays to be polled).
    pub fn reset(&mut self) {
        self.state = State::Idle;
    }

    /// Takes one byte; what it completes, if anything.
    fn feed(&mut self, byte: u8) -> Completed {
        match std::mem::take(&mut self.state) {
            State::Idle => self.start(byte),
            State::Size => self.size(byte),
            State::Body { size, body } => self.body(size, body, byte),
        }
    }

    fn start(&mut self, byte: u8) -> Completed {
        if byte == command::CLOCK_MESSAGE {
            self.state = State::Size;
            return None;
        }
        Some(single(byte))
    }

    fn size(&mut self, size: u8) -> Completed {
        if !(MIN_CLOCK_SIZE..=MAX_CLOCK_SIZE).contains(&size) {
            return Some(Err(UnreadCommand::MalformedClock(vec![
                command::CLOCK_MESSAGE,
                size,
            ])));
        }
        self.state = State::Body {
            size,
            body: Vec::with_capacity(usize::from(size)),
        };
        None
    }

    fn body(&mut self, size: u8, mut body: Vec<u8>, byte: u8) -> Completed {
        body.push(byte);
        if body.first() != Some(&CLOCK_MESSAGE_START) {
            return Some(Err(malformed(size, body)));
        }
        if body.len() < usize::from(size) {
            self.state = State::Body { size, body };
            return None;
        }
        Some(wrapped(size, body))
    }
}

impl StreamDecoder for ReceivedCommandDecoder {
    type Frame = ReceivedCommand;
    type Error = UnreadCommand;

    /// Takes the next bytes the board received.
    fn push(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            if let Some(completed) = self.feed(byte) {
                self.ready.push_back(completed);
            }
        }
    }

    /// The stream ended: a clock command begun is malformed, with the bytes it had.
    fn finish(&mut self) {
        let begun = match std::mem::take(&mut self.state) {
            State::Idle => return,
            State::Size => vec![command::CLOCK_MESSAGE],
            State::Body { size, body } => {
                let mut bytes = vec![command::CLOCK_MESSAGE, size];
                bytes.extend(body);
                bytes
            }
        };
        self.ready
            .push_back(Err(UnreadCommand::MalformedClock(begun)));
    }

    /// The next command, or bytes that are no command, in the order received.
    fn poll(&mut self) -> Option<Result<ReceivedCommand, UnreadCommand>> {
        self.ready.pop_front()
    }
}

/// The command a single byte names.
fn single(byte: u8) -> Result<ReceivedCommand, UnreadCommand> {
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
        0x49 => return Ok(ReceivedCommand::EepromDump),
        0x4a => return Ok(ReceivedCommand::BusMode),
        0x4e => return Ok(ReceivedCommand::BootLoader),
        other => return Err(UnreadCommand::Unknown(other)),
    };
    Ok(ReceivedCommand::Command(host))
}

/// A complete wrapper body (`0x03, code, data…, 0x00`) as a command.
fn wrapped(size: u8, body: Vec<u8>) -> Result<ReceivedCommand, UnreadCommand> {
    match body.as_slice() {
        [CLOCK_MESSAGE_START, code, data @ .., CLOCK_MESSAGE_END] => {
            Ok(match ClockCommand::decode(*code, data) {
                Some(clock) => ReceivedCommand::Command(HostCommand::Clock(clock)),
                None => ReceivedCommand::OtherClock {
                    code: *code,
                    data: data.to_vec(),
                },
            })
        }
        _ => Err(malformed(size, body)),
    }
}

/// A wrapper that broke off: its bytes, `0x2b` and the size first.
fn malformed(size: u8, body: Vec<u8>) -> UnreadCommand {
    let mut bytes = vec![command::CLOCK_MESSAGE, size];
    bytes.extend(body);
    UnreadCommand::MalformedClock(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dgt::wire::command::{ClockRun, ClockSetting, ClockText};

    type Decoded = Result<ReceivedCommand, UnreadCommand>;

    fn decode(bytes: &[u8]) -> Vec<Decoded> {
        let mut decoder = ReceivedCommandDecoder::new();
        decoder.push(bytes);
        polled(&mut decoder)
    }

    fn polled(decoder: &mut ReceivedCommandDecoder) -> Vec<Decoded> {
        std::iter::from_fn(|| decoder.poll()).collect()
    }

    fn pushed(decoder: &mut ReceivedCommandDecoder, bytes: &[u8]) -> Vec<Decoded> {
        decoder.push(bytes);
        polled(decoder)
    }

    #[test]
    fn single_byte_commands() {
        use HostCommand::*;
        let bytes = [
            0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x4b, 0x4c, 0x4d, 0x55, 0x49, 0x4a,
            0x4e,
        ];
        let mut expected: Vec<Decoded> = [
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
        .map(|command| Ok(ReceivedCommand::Command(command)))
        .collect();
        expected.extend([
            Ok(ReceivedCommand::EepromDump),
            Ok(ReceivedCommand::BusMode),
            Ok(ReceivedCommand::BootLoader),
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
        let expected: Vec<Decoded> = commands
            .into_iter()
            .map(|command| Ok(ReceivedCommand::Command(command)))
            .collect();
        assert_eq!(decode(&bytes), expected);
    }

    #[test]
    fn unknown_bytes_are_reported() {
        assert_eq!(
            decode(&[0x00, 0xff, 0x4d]),
            [
                Err(UnreadCommand::Unknown(0x00)),
                Err(UnreadCommand::Unknown(0xff)),
                Ok(ReceivedCommand::Command(HostCommand::SendVersion))
            ]
        );
    }

    #[test]
    fn a_wrapped_beep_across_chunks() {
        let mut decoder = ReceivedCommandDecoder::new();
        assert_eq!(pushed(&mut decoder, &[0x2b, 0x04, 0x03]), []);
        assert_eq!(
            pushed(&mut decoder, &[0x0b, 0x05, 0x00, 0x42]),
            [
                Ok(ReceivedCommand::Command(HostCommand::Clock(
                    ClockCommand::Beep { duration: 0x05 }
                ))),
                Ok(ReceivedCommand::Command(HostCommand::SendBoard))
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
            [Ok(ReceivedCommand::Command(HostCommand::Clock(
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
            )))]
        );
    }

    #[test]
    fn broken_wrappers_are_reported_and_decoding_goes_on() {
        assert_eq!(
            decode(&[0x2b, 0x7f, 0x4d]),
            [
                Err(UnreadCommand::MalformedClock(vec![0x2b, 0x7f])),
                Ok(ReceivedCommand::Command(HostCommand::SendVersion))
            ]
        );
        assert_eq!(
            decode(&[0x2b, 0x04, 0x42, 0x4d]),
            [
                Err(UnreadCommand::MalformedClock(vec![0x2b, 0x04, 0x42])),
                Ok(ReceivedCommand::Command(HostCommand::SendVersion))
            ]
        );
        assert_eq!(
            decode(&[0x2b, 0x03, 0x03, 0x0b, 0x01, 0x41]),
            [
                Err(UnreadCommand::MalformedClock(vec![
                    0x2b, 0x03, 0x03, 0x0b, 0x01
                ])),
                Ok(ReceivedCommand::Command(HostCommand::SendClock))
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
            [Ok(ReceivedCommand::OtherClock {
                code: 0x0a,
                data: vec![0x00, 0x05, 0x00, 0x00, 0x04, 0x1e, 0x07]
            })]
        );
    }

    #[test]
    fn reset_forgets_a_half_command() {
        let mut decoder = ReceivedCommandDecoder::new();
        assert_eq!(pushed(&mut decoder, &[0x2b, 0x04, 0x03]), []);
        decoder.reset();
        assert_eq!(
            pushed(&mut decoder, &[0x4d]),
            [Ok(ReceivedCommand::Command(HostCommand::SendVersion))]
        );
    }

    #[test]
    fn a_clock_command_the_stream_s_end_cuts_short_is_malformed_with_its_bytes() {
        let mut decoder = ReceivedCommandDecoder::new();
        assert_eq!(
            pushed(&mut decoder, &[0x4d, 0x2b, 0x04, 0x03, 0x0b]).len(),
            1
        );
        decoder.finish();
        assert_eq!(
            polled(&mut decoder),
            [Err(UnreadCommand::MalformedClock(vec![
                0x2b, 0x04, 0x03, 0x0b
            ]))]
        );
        let mut sized_only = ReceivedCommandDecoder::new();
        sized_only.push(&[0x2b]);
        sized_only.finish();
        assert_eq!(
            polled(&mut sized_only),
            [Err(UnreadCommand::MalformedClock(vec![0x2b]))]
        );
        let mut idle = ReceivedCommandDecoder::new();
        idle.finish();
        assert_eq!(polled(&mut idle), []);
    }
}
