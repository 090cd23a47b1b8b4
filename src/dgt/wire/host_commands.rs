//! Decoding the host → board byte stream into commands, one byte at a time.
//!
//! Commands are single bytes, except clock commands, wrapped as
//! `0x2b, size, 0x03, cmd, data…, 0x00` (size counts the bytes after itself). Anything else is
//! reported as [`ReceivedCommand::Unknown`] or [`ReceivedCommand::MalformedClock`]; decoding never fails.

use crate::dgt::wire::protocol::clock_command::{
    END_MESSAGE as CLOCK_MESSAGE_END, START_MESSAGE as CLOCK_MESSAGE_START,
};
use crate::dgt::wire::protocol::command;

/// The smallest size of a wrapped clock command: `0x03`, the command code and `0x00`.
const MIN_CLOCK_SIZE: u8 = 3;

/// The largest size accepted; a larger one is taken for noise. The longest real command (a
/// DGT 3000 display text) is well below it.
const MAX_CLOCK_SIZE: u8 = 0x20;

/// What a board receives from the host. Unlike [`crate::dgt::wire::command::HostCommand`] (what a host
/// may send), it includes the commands a host must never send and bytes that are no command at
/// all: an emulated board has to cope with them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReceivedCommand {
    /// `0x40`: back to idle.
    Reset,
    /// `0x41`: send a BWTIME clock report.
    SendClock,
    /// `0x42`: send a BOARD_DUMP.
    SendBoard,
    /// `0x43`: field updates, plus BWTIME at least every second.
    SendUpdate,
    /// `0x44`: field updates only.
    SendUpdateBoard,
    /// `0x45`: send the SERIALNR.
    ReturnSerialNr,
    /// `0x46`: send the BUSADRES.
    ReturnBusAddress,
    /// `0x47`: send the TRADEMARK.
    SendTrademark,
    /// `0x4b`: field updates, plus BWTIME when the clock changes.
    SendUpdateNice,
    /// `0x4c`: send the BATTERY_STATUS.
    SendBatteryStatus,
    /// `0x4d`: send the VERSION.
    SendVersion,
    /// `0x55`: send the LONG_SERIALNR.
    ReturnLongSerialNr,
    /// `0x49`: EEPROM dump (hosts must never send it).
    EepromDump,
    /// `0x4a`: back to bus mode (hosts must never send it).
    BusMode,
    /// `0x4e`: boot loader (hosts must never send it).
    BootLoader,
    /// A well-formed wrapped clock command.
    Clock(ClockCommand),
    /// A byte that is no command.
    Unknown(u8),
    /// A clock-command wrapper that broke off: the bytes consumed, `0x2b` first.
    MalformedClock(Vec<u8>),
}

/// A clock command from its wrapper: `0x2b, size, 0x03, code, data…, 0x00`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClockCommand {
    /// The command code ([`crate::dgt::wire::protocol::clock_command`]).
    pub code: u8,
    /// The bytes between the code and the final `0x00`.
    pub data: Vec<u8>,
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
    match byte {
        command::RESET => ReceivedCommand::Reset,
        command::SEND_CLK => ReceivedCommand::SendClock,
        command::SEND_BRD => ReceivedCommand::SendBoard,
        command::SEND_UPDATE => ReceivedCommand::SendUpdate,
        command::SEND_UPDATE_BRD => ReceivedCommand::SendUpdateBoard,
        command::RETURN_SERIALNR => ReceivedCommand::ReturnSerialNr,
        command::RETURN_BUSADRES => ReceivedCommand::ReturnBusAddress,
        command::SEND_TRADEMARK => ReceivedCommand::SendTrademark,
        command::SEND_UPDATE_NICE => ReceivedCommand::SendUpdateNice,
        command::SEND_BATTERY_STATUS => ReceivedCommand::SendBatteryStatus,
        command::SEND_VERSION => ReceivedCommand::SendVersion,
        command::RETURN_LONG_SERIALNR => ReceivedCommand::ReturnLongSerialNr,
        0x49 => ReceivedCommand::EepromDump,
        0x4a => ReceivedCommand::BusMode,
        0x4e => ReceivedCommand::BootLoader,
        other => ReceivedCommand::Unknown(other),
    }
}

/// A complete wrapper body (`0x03, code, data…, 0x00`) as a command.
fn wrapped(size: u8, body: Vec<u8>) -> ReceivedCommand {
    match body.as_slice() {
        [CLOCK_MESSAGE_START, code, data @ .., CLOCK_MESSAGE_END] => {
            ReceivedCommand::Clock(ClockCommand {
                code: *code,
                data: data.to_vec(),
            })
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

    fn decode(bytes: &[u8]) -> Vec<ReceivedCommand> {
        ReceivedCommandDecoder::new().feed_all(bytes)
    }

    #[test]
    fn single_byte_commands() {
        use ReceivedCommand::*;
        let bytes = [
            0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x4b, 0x4c, 0x4d, 0x55, 0x49, 0x4a,
            0x4e,
        ];
        let expected = [
            Reset,
            SendClock,
            SendBoard,
            SendUpdate,
            SendUpdateBoard,
            ReturnSerialNr,
            ReturnBusAddress,
            SendTrademark,
            SendUpdateNice,
            SendBatteryStatus,
            SendVersion,
            ReturnLongSerialNr,
            EepromDump,
            BusMode,
            BootLoader,
        ];
        assert_eq!(decode(&bytes), expected);
    }

    #[test]
    fn unknown_bytes_are_reported() {
        assert_eq!(
            decode(&[0x00, 0xff, 0x4d]),
            [
                ReceivedCommand::Unknown(0x00),
                ReceivedCommand::Unknown(0xff),
                ReceivedCommand::SendVersion
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
                ReceivedCommand::Clock(ClockCommand {
                    code: 0x0b,
                    data: vec![0x05]
                }),
                ReceivedCommand::SendBoard
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
            [ReceivedCommand::Clock(ClockCommand {
                code: 0x0a,
                data: vec![0x00, 0x05, 0x00, 0x00, 0x04, 0x1e, 0x01]
            })]
        );
    }

    #[test]
    fn broken_wrappers_are_reported_and_decoding_goes_on() {
        assert_eq!(
            decode(&[0x2b, 0x7f, 0x4d]),
            [
                ReceivedCommand::MalformedClock(vec![0x2b, 0x7f]),
                ReceivedCommand::SendVersion
            ]
        );
        assert_eq!(
            decode(&[0x2b, 0x04, 0x42, 0x4d]),
            [
                ReceivedCommand::MalformedClock(vec![0x2b, 0x04, 0x42]),
                ReceivedCommand::SendVersion
            ]
        );
        assert_eq!(
            decode(&[0x2b, 0x03, 0x03, 0x0b, 0x01, 0x41]),
            [
                ReceivedCommand::MalformedClock(vec![0x2b, 0x03, 0x03, 0x0b, 0x01]),
                ReceivedCommand::SendClock
            ]
        );
    }

    #[test]
    fn reset_forgets_a_half_command() {
        let mut decoder = ReceivedCommandDecoder::new();
        assert_eq!(decoder.feed_all(&[0x2b, 0x04, 0x03]), []);
        decoder.reset();
        assert_eq!(decoder.feed_all(&[0x4d]), [ReceivedCommand::SendVersion]);
    }
}
