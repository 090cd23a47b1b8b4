//! The host's bytes as a Pegasus reads them: DGT's one-byte commands, and the LED and
//! developer-key commands, each its first byte, a length byte and that many bytes (the last a
//! `00`).

use std::collections::VecDeque;

use shakmaty::Square;

use touchmove_boards::pegasus::wire::{DEVELOPER_KEY, LEDS, decode_leds};
use touchmove_core::decode::StreamDecoder;

/// A command the board read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// A one-byte DGT command.
    Byte(u8),
    /// Light these squares (none: every LED out).
    Leds(Vec<Square>),
    /// A developer key (kept by no emulated board).
    DeveloperKey,
}

/// The board's reader of the host's bytes.
#[derive(Debug, Default)]
pub struct CommandDecoder {
    pending: VecDeque<u8>,
    /// The bytes the host's silence cut short, not yet polled.
    ended: Option<Vec<u8>>,
}

impl StreamDecoder for CommandDecoder {
    type Frame = Command;
    type Error = String;

    /// Takes bytes from the host.
    fn push(&mut self, bytes: &[u8]) {
        self.pending.extend(bytes);
    }

    /// The host went quiet: the bytes of a command begun are no command.
    fn finish(&mut self) {
        if !self.pending.is_empty() {
            self.ended = Some(self.pending.drain(..).collect());
        }
    }

    /// The next command, what was no command (in words, as `Err`), or `None` while the bytes
    /// so far end in the middle of one.
    fn poll(&mut self) -> Option<Result<Command, String>> {
        let Some(&first) = self.pending.front() else {
            let cut: Vec<u8> = self.ended.take()?;
            return Some(Err(format!("{} bytes of a command cut short", cut.len())));
        };
        if first != LEDS && first != DEVELOPER_KEY {
            self.pending.pop_front();
            return Some(if (0x40..0x80).contains(&first) {
                Ok(Command::Byte(first))
            } else {
                Err(format!("byte {first:#04x}, no command"))
            });
        }
        let len = usize::from(*self.pending.get(1)?);
        if self.pending.len() < len + 2 {
            return None;
        }
        let frame: Vec<u8> = self.pending.drain(..len + 2).collect();
        let payload = frame.get(2..).unwrap_or_default();
        Some(Ok(if first == LEDS {
            Command::Leds(decode_leds(payload))
        } else {
            Command::DeveloperKey
        }))
    }
}
