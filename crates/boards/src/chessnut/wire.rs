//! The Chessnut frames, both ways, and a streaming decoder of each side's.
//!
//! Every frame is a kind byte, a length byte, then that many bytes. The board sends:
//!
//! | kind | length | what |
//! |------|--------|------|
//! | `01` | `24`   | a report: 32 position bytes, then a 4-byte little-endian uptime (s) |
//! | `23` | `01`   | an acknowledgement (`23 01 00`) |
//! | `2a` | `02`   | the battery: level (bit 7: charging), then a flag |
//! | `0f` | `01`   | a button (`0f 01 02`: NEW GAME) |
//!
//! The host sends `21 01 00` (start the reports), `29 01 00` (the battery), `0a 08` + 8 bytes
//! (the LEDs, a bit a square) and `0b 04` + frequency and duration, both big-endian (a beep).
//!
//! A Chessnut Move (its robot moves the pieces) takes three more, and answers one:
//!
//! | host sends | what |
//! |------------|------|
//! | `42 21` + 32 position bytes + a flag | the robot sets the pieces to that position (flag `01`: a player's hand stops it; `00`: it goes on regardless); the reports pause while it moves |
//! | `43 20` + 32 bytes | the LEDs, a nibble a square in the position's order: `0` off, `1` red, `2` green, `3` blue |
//! | `41 01 0c` | the battery; answered `41 03 0c`, charging (`1`/`0`), level (0 to 100) |
//!
//! Position bytes hold two squares each, the low nibble first; nibble 0 is h8, then g8 … a8,
//! h7 … a1 (nibble 63). The LED bytes follow the same numbering: byte `i` bit `j` is nibble
//! `8 i + j`.

use std::collections::VecDeque;

use touchmove_core::decode::StreamDecoder;

use shakmaty::{Bitboard, Board, Color, File, Piece, Rank, Role, Square};

use crate::live::positions::reading_order;

/// The service the board reports on (its characteristic `…8262` notifies the reports).
pub const REPORT_SERVICE: &str = "1b7e8261-2877-41c3-b46e-cf057c562023";
/// The characteristic the board's reports are notified on.
pub const REPORT_NOTIFY: &str = "1b7e8262-2877-41c3-b46e-cf057c562023";
/// The service the host's commands go to.
pub const COMMAND_SERVICE: &str = "1b7e8271-2877-41c3-b46e-cf057c562023";
/// The characteristic the host writes its commands to.
pub const COMMAND_WRITE: &str = "1b7e8272-2877-41c3-b46e-cf057c562023";
/// The characteristic the board's other frames (acknowledgements, battery, buttons) are
/// notified on.
pub const REPLY_NOTIFY: &str = "1b7e8273-2877-41c3-b46e-cf057c562023";

/// A report's kind byte.
pub const KIND_REPORT: u8 = 0x01;
/// An acknowledgement's kind byte.
pub const KIND_ACK: u8 = 0x23;
/// The battery's kind byte.
pub const KIND_BATTERY: u8 = 0x2a;
/// A button's kind byte.
pub const KIND_BUTTON: u8 = 0x0f;
/// The NEW GAME button's code.
pub const BUTTON_NEW_GAME: u8 = 0x02;

/// The host's "start the reports" kind byte.
pub const KIND_START_REPORTS: u8 = 0x21;
/// The host's battery request kind byte.
pub const KIND_ASK_BATTERY: u8 = 0x29;
/// The host's LED kind byte.
pub const KIND_LEDS: u8 = 0x0a;
/// The host's beep kind byte.
pub const KIND_BEEP: u8 = 0x0b;

/// A Chessnut Move's "set the pieces to this position" kind byte (its robot moves them).
pub const KIND_ROBOT_SET: u8 = 0x42;
/// A Chessnut Move's coloured LEDs kind byte.
pub const KIND_COLOUR_LEDS: u8 = 0x43;
/// A Chessnut Move's query kind byte (the host's `41 01` + what, the board's `41` + answer).
pub const KIND_QUERY: u8 = 0x41;
/// What a Chessnut Move's query asks for: the battery.
pub const QUERY_BATTERY: u8 = 0x0c;
/// The colour a Chessnut Move's lit squares are lit in (green).
pub const LIGHT_COLOUR: u8 = 0x02;

/// A report's length: 32 position bytes and a 4-byte uptime.
pub const REPORT_LEN: u8 = 0x24;

/// The longest payload of a kind the decoders do not know that they pass on whole (the replies
/// of other models are a few bytes; a longer length is taken for noise, so that it cannot
/// swallow the frames after it).
const OTHER_MAX: u8 = 0x08;

/// Piece codes 1 to 12, in order (0 is an empty square).
const CODES: [(Color, Role); 12] = [
    (Color::Black, Role::Queen),
    (Color::Black, Role::King),
    (Color::Black, Role::Bishop),
    (Color::Black, Role::Pawn),
    (Color::Black, Role::Knight),
    (Color::White, Role::Rook),
    (Color::White, Role::Pawn),
    (Color::Black, Role::Rook),
    (Color::White, Role::Bishop),
    (Color::White, Role::Knight),
    (Color::White, Role::Queen),
    (Color::White, Role::King),
];

/// What the board sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardMessage {
    /// The pieces as they stand, and the board's uptime in seconds.
    Report {
        /// The pieces.
        board: Board,
        /// Seconds since the board was switched on.
        uptime: u32,
    },
    /// A command was taken.
    Ack,
    /// The battery's level.
    Battery {
        /// The level, 0 to 100 %.
        percent: u8,
        /// Whether the board is charging (bit 7 of the level).
        charging: bool,
    },
    /// A button was pressed: its code ([`BUTTON_NEW_GAME`]).
    Button(u8),
    /// A Chessnut Move's battery (`41 03 0c`, charging, level).
    RobotBattery {
        /// The level, 0 to 100 %.
        percent: u8,
        /// Whether the board is charging.
        charging: bool,
    },
    /// A frame of a kind this host does not use, whole.
    Other(Vec<u8>),
}

/// What the host sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostCommand {
    /// Start the reports (again after every connection).
    StartReports,
    /// Ask the battery's level.
    AskBattery,
    /// Light these squares, and no other.
    Leds(Bitboard),
    /// Beep at `hz` for `ms`.
    Beep {
        /// The frequency (Hz).
        hz: u16,
        /// The duration (ms).
        ms: u16,
    },
    /// A Chessnut Move's robot sets the pieces to `board` (`yield_to_hands`: a player's hand
    /// stops it).
    RobotSet {
        /// The position the pieces are to stand in.
        board: Board,
        /// Whether a player's hand stops the robot (flag `01`).
        yield_to_hands: bool,
    },
    /// A Chessnut Move lights these squares, and no other ([`LIGHT_COLOUR`]).
    ColourLeds(Bitboard),
    /// A Chessnut Move's battery request (`41 01 0c`).
    AskRobotBattery,
}

/// The nibble index of `square`: h8 is 0, a8 7, h7 8, a1 63.
pub fn nibble_of(square: Square) -> usize {
    let rank_from_top = 7 - usize::from(square.rank());
    let file_from_h = 7 - usize::from(square.file());
    rank_from_top * 8 + file_from_h
}

/// The square of nibble index `nibble` (0 to 63).
pub fn square_of(nibble: usize) -> Option<Square> {
    let rank = 7u32.checked_sub(u32::try_from(nibble / 8).ok()?)?;
    let file = 7u32.checked_sub(u32::try_from(nibble % 8).ok()?)?;
    let (rank, file) = (Rank::try_from(rank).ok()?, File::try_from(file).ok()?);
    Some(Square::from_coords(file, rank))
}

/// The code of `piece` (0: an empty square).
pub fn code_of(piece: Option<Piece>) -> u8 {
    let Some(piece) = piece else { return 0 };
    CODES
        .iter()
        .position(|&(color, role)| color == piece.color && role == piece.role)
        .and_then(|index| u8::try_from(index + 1).ok())
        .unwrap_or(0)
}

/// The piece of `code`: `Ok(None)` for an empty square, `Err` for a code no piece has.
pub fn piece_of(code: u8) -> Result<Option<Piece>, u8> {
    if code == 0 {
        return Ok(None);
    }
    let (color, role) = CODES
        .get(usize::from(code).saturating_sub(1))
        .copied()
        .ok_or(code)?;
    Ok(Some(Piece { color, role }))
}

/// The 32 position bytes of `board`.
pub fn encode_position(board: &Board) -> [u8; 32] {
    let mut bytes = [0u8; 32];
    for square in reading_order() {
        let nibble = nibble_of(square);
        let code = code_of(board.piece_at(square));
        if let Some(byte) = bytes.get_mut(nibble / 2) {
            *byte |= if nibble.is_multiple_of(2) {
                code
            } else {
                code << 4
            };
        }
    }
    bytes
}

/// The board 32 position bytes show, or the first square whose code no piece has (with it).
pub fn decode_position(bytes: &[u8]) -> Result<Board, (Square, u8)> {
    let mut board = Board::empty();
    for (index, &byte) in bytes.iter().take(32).enumerate() {
        for (half, code) in [(0, byte & 0x0f), (1, byte >> 4)] {
            let Some(square) = square_of(index * 2 + half) else {
                continue;
            };
            match piece_of(code) {
                Ok(Some(piece)) => board.set_piece_at(square, piece),
                Ok(None) => {}
                Err(code) => return Err((square, code)),
            }
        }
    }
    Ok(board)
}

/// The 8 LED bytes that light `squares`.
pub fn encode_leds(squares: Bitboard) -> [u8; 8] {
    let mut bytes = [0u8; 8];
    for square in squares {
        let nibble = nibble_of(square);
        if let Some(byte) = bytes.get_mut(nibble / 8) {
            *byte |= 1 << (nibble % 8);
        }
    }
    bytes
}

/// The squares 8 LED bytes light.
pub fn decode_leds(bytes: &[u8]) -> Bitboard {
    let mut squares = Bitboard::EMPTY;
    for (index, &byte) in bytes.iter().take(8).enumerate() {
        for bit in 0..8 {
            if byte & (1 << bit) != 0
                && let Some(square) = square_of(index * 8 + bit)
            {
                squares.add(square);
            }
        }
    }
    squares
}

/// The bytes of `command`.
pub fn encode_command(command: &HostCommand) -> Vec<u8> {
    match command {
        HostCommand::StartReports => vec![KIND_START_REPORTS, 0x01, 0x00],
        HostCommand::AskBattery => vec![KIND_ASK_BATTERY, 0x01, 0x00],
        HostCommand::Leds(squares) => {
            let mut bytes = vec![KIND_LEDS, 0x08];
            bytes.extend_from_slice(&encode_leds(*squares));
            bytes
        }
        HostCommand::Beep { hz, ms } => {
            let mut bytes = vec![KIND_BEEP, 0x04];
            bytes.extend_from_slice(&hz.to_be_bytes());
            bytes.extend_from_slice(&ms.to_be_bytes());
            bytes
        }
        HostCommand::RobotSet {
            board,
            yield_to_hands,
        } => {
            let mut bytes = vec![KIND_ROBOT_SET, 0x21];
            bytes.extend_from_slice(&encode_position(board));
            bytes.push(u8::from(*yield_to_hands));
            bytes
        }
        HostCommand::ColourLeds(squares) => {
            let mut bytes = vec![KIND_COLOUR_LEDS, 0x20];
            bytes.extend_from_slice(&encode_colours(*squares));
            bytes
        }
        HostCommand::AskRobotBattery => vec![KIND_QUERY, 0x01, QUERY_BATTERY],
    }
}

/// The 32 coloured-LED bytes that light `squares` in [`LIGHT_COLOUR`] (a nibble a square, in
/// the position's order).
pub fn encode_colours(squares: Bitboard) -> [u8; 32] {
    let mut bytes = [0u8; 32];
    for square in squares {
        let nibble = nibble_of(square);
        if let Some(byte) = bytes.get_mut(nibble / 2) {
            *byte |= if nibble.is_multiple_of(2) {
                LIGHT_COLOUR
            } else {
                LIGHT_COLOUR << 4
            };
        }
    }
    bytes
}

/// The squares 32 coloured-LED bytes light, in any colour.
pub fn decode_colours(bytes: &[u8]) -> Bitboard {
    let mut squares = Bitboard::EMPTY;
    for (index, &byte) in bytes.iter().take(32).enumerate() {
        for (half, colour) in [(0, byte & 0x0f), (1, byte >> 4)] {
            if colour != 0
                && let Some(square) = square_of(index * 2 + half)
            {
                squares.add(square);
            }
        }
    }
    squares
}

/// The bytes of `message` (the board's side: the emulator's).
pub fn encode_message(message: &BoardMessage) -> Vec<u8> {
    match message {
        BoardMessage::Report { board, uptime } => {
            let mut bytes = vec![KIND_REPORT, REPORT_LEN];
            bytes.extend_from_slice(&encode_position(board));
            bytes.extend_from_slice(&uptime.to_le_bytes());
            bytes
        }
        BoardMessage::Ack => vec![KIND_ACK, 0x01, 0x00],
        BoardMessage::Battery { percent, charging } => {
            let level = (*percent).min(100) | if *charging { 0x80 } else { 0 };
            vec![KIND_BATTERY, 0x02, level, 0x00]
        }
        BoardMessage::Button(code) => vec![KIND_BUTTON, 0x01, *code],
        BoardMessage::RobotBattery { percent, charging } => vec![
            KIND_QUERY,
            0x03,
            QUERY_BATTERY,
            u8::from(*charging),
            (*percent).min(100),
        ],
        BoardMessage::Other(bytes) => bytes.clone(),
    }
}

/// What a decoder found: an intact frame, or bytes that made none.
pub type Decoded<T> = Result<T, Corrupt>;

/// Bytes that made no frame, dropped, with why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Corrupt {
    /// Exactly the bytes dropped.
    pub dropped: Vec<u8>,
    /// Why, in words.
    pub why: String,
}

/// A frame's length as its kind requires: `Some(len)` for a kind of known length, `None` for a
/// kind whose frames may be of any length up to [`OTHER_MAX`].
type Lengths = fn(u8) -> Option<u8>;

/// The lengths of the board's frames.
fn board_lengths(kind: u8) -> Option<u8> {
    match kind {
        KIND_REPORT => Some(REPORT_LEN),
        KIND_ACK | KIND_BUTTON => Some(0x01),
        KIND_BATTERY => Some(0x02),
        _ => None,
    }
}

/// The lengths of the host's frames.
fn host_lengths(kind: u8) -> Option<u8> {
    match kind {
        KIND_START_REPORTS | KIND_ASK_BATTERY | KIND_QUERY => Some(0x01),
        KIND_LEDS => Some(0x08),
        KIND_BEEP => Some(0x04),
        KIND_ROBOT_SET => Some(0x21),
        KIND_COLOUR_LEDS => Some(0x20),
        _ => None,
    }
}

/// Splits a byte stream into frames: a kind, a length, that many bytes. A known kind whose
/// length is not its own, or an unknown kind longer than any frame, loses its first byte and
/// the search starts again at the next.
#[derive(Debug)]
struct Framer {
    pending: VecDeque<u8>,
    lengths: Lengths,
    /// What the end of the stream dropped, not yet taken.
    ended: Option<Corrupt>,
}

impl Framer {
    fn new(lengths: Lengths) -> Framer {
        Framer {
            pending: VecDeque::new(),
            lengths,
            ended: None,
        }
    }

    fn push(&mut self, bytes: &[u8]) {
        self.pending.extend(bytes);
    }

    /// The next whole frame, a byte that starts none (as `Err`), or, once the bytes so far make
    /// neither, a frame the stream's end cut short (as `Err`); `None` while the bytes so far
    /// end in the middle of a frame.
    fn next(&mut self) -> Option<Result<Vec<u8>, Corrupt>> {
        self.frame().or_else(|| self.ended.take().map(Err))
    }

    /// The next whole frame, or a byte that starts none (as `Err`).
    fn frame(&mut self) -> Option<Result<Vec<u8>, Corrupt>> {
        let kind = *self.pending.front()?;
        let len = *self.pending.get(1)?;
        let fits = match (self.lengths)(kind) {
            Some(own) => len == own,
            None => len <= OTHER_MAX,
        };
        if !fits {
            self.pending.pop_front();
            return Some(Err(Corrupt {
                dropped: vec![kind],
                why: format!("a frame of kind {kind:#04x} cannot be {len:#04x} bytes long"),
            }));
        }
        let total = usize::from(len) + 2;
        if self.pending.len() < total {
            return None;
        }
        Some(Ok(self.pending.drain(..total).collect()))
    }

    /// Whether bytes of a frame begun wait for the rest.
    fn pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// The stream ended: what waits (a frame cut short) is dropped, and said by
    /// [`Framer::next`] once.
    fn finish(&mut self) {
        let dropped: Vec<u8> = self.pending.drain(..).collect();
        if !dropped.is_empty() {
            self.ended = Some(Corrupt {
                dropped,
                why: "a frame cut short".to_owned(),
            });
        }
    }
}

/// The host's decoder of what the board sends.
///
/// ```
/// use shakmaty::Board;
/// use touchmove_boards::chessnut::wire::{BoardMessage, MessageDecoder};
/// use touchmove_core::decode::StreamDecoder;
///
/// let mut decoder = MessageDecoder::new();
/// // An acknowledgement, the battery (0xd5: bit 7 charging, 0x55 = 85 %), a NEW GAME button.
/// decoder.push(&[0x23, 0x01, 0x00, 0x2a, 0x02, 0xd5, 0x00, 0x0f, 0x01, 0x02]);
/// assert_eq!(decoder.poll(), Some(Ok(BoardMessage::Ack)));
/// let battery = BoardMessage::Battery { percent: 85, charging: true };
/// assert_eq!(decoder.poll(), Some(Ok(battery)));
/// assert_eq!(decoder.poll(), Some(Ok(BoardMessage::Button(0x02))));
/// // A report of an empty board (32 zero position bytes), up for 10 s (little-endian).
/// let mut report = vec![0x01, 0x24];
/// report.extend([0x00; 32]);
/// report.extend([0x0a, 0x00, 0x00, 0x00]);
/// decoder.push(&report);
/// let empty = BoardMessage::Report { board: Board::empty(), uptime: 10 };
/// assert_eq!(decoder.poll(), Some(Ok(empty)));
/// assert_eq!(decoder.poll(), None);
/// ```
#[derive(Debug)]
pub struct MessageDecoder {
    framer: Framer,
}

impl Default for MessageDecoder {
    fn default() -> MessageDecoder {
        MessageDecoder::new()
    }
}

impl MessageDecoder {
    /// A decoder with nothing pending.
    pub fn new() -> MessageDecoder {
        MessageDecoder {
            framer: Framer::new(board_lengths),
        }
    }

    /// Whether a frame begun waits for the rest.
    pub fn pending(&self) -> bool {
        self.framer.pending()
    }
}

impl StreamDecoder for MessageDecoder {
    type Frame = BoardMessage;
    type Error = Corrupt;

    /// Takes bytes from the board.
    fn push(&mut self, bytes: &[u8]) {
        self.framer.push(bytes);
    }

    /// The link went quiet: a frame cut short is dropped, what it held said.
    fn finish(&mut self) {
        self.framer.finish();
    }

    /// The next thing found, if the bytes so far make one.
    fn poll(&mut self) -> Option<Decoded<BoardMessage>> {
        Some(self.framer.next()?.and_then(message))
    }
}

/// The message a whole frame of the board's is.
fn message(frame: Vec<u8>) -> Decoded<BoardMessage> {
    let payload = frame.get(2..).unwrap_or_default();
    match frame.first().copied() {
        Some(KIND_REPORT) => {
            let position = payload.get(..32).unwrap_or_default();
            let uptime = payload
                .get(32..36)
                .and_then(|bytes| <[u8; 4]>::try_from(bytes).ok())
                .map_or(0, u32::from_le_bytes);
            match decode_position(position) {
                Ok(board) => Ok(BoardMessage::Report { board, uptime }),
                Err((square, code)) => Err(Corrupt {
                    why: format!("a report shows code {code:#x} on {square}: no piece has it"),
                    dropped: frame,
                }),
            }
        }
        Some(KIND_ACK) => Ok(BoardMessage::Ack),
        Some(KIND_BATTERY) => {
            let level = payload.first().copied().unwrap_or(0);
            Ok(BoardMessage::Battery {
                percent: (level & 0x7f).min(100),
                charging: level & 0x80 != 0,
            })
        }
        Some(KIND_BUTTON) => Ok(BoardMessage::Button(payload.first().copied().unwrap_or(0))),
        Some(KIND_QUERY) if payload.first() == Some(&QUERY_BATTERY) && payload.len() == 3 => {
            Ok(BoardMessage::RobotBattery {
                percent: payload.get(2).copied().unwrap_or(0).min(100),
                charging: payload.get(1) == Some(&1),
            })
        }
        _ => Ok(BoardMessage::Other(frame)),
    }
}

/// The board's decoder of what the host sends (the emulator's).
#[derive(Debug)]
pub struct CommandDecoder {
    framer: Framer,
}

impl Default for CommandDecoder {
    fn default() -> CommandDecoder {
        CommandDecoder::new()
    }
}

impl CommandDecoder {
    /// A decoder with nothing pending.
    pub fn new() -> CommandDecoder {
        CommandDecoder {
            framer: Framer::new(host_lengths),
        }
    }
}

impl StreamDecoder for CommandDecoder {
    type Frame = HostCommand;
    type Error = Corrupt;

    /// Takes bytes from the host.
    fn push(&mut self, bytes: &[u8]) {
        self.framer.push(bytes);
    }

    /// The host went quiet: a frame cut short is dropped, what it held said.
    fn finish(&mut self) {
        self.framer.finish();
    }

    /// The next command found, or what was not one, if the bytes so far make either.
    fn poll(&mut self) -> Option<Decoded<HostCommand>> {
        Some(self.framer.next()?.and_then(command))
    }
}

/// The command a whole frame of the host's is.
fn command(frame: Vec<u8>) -> Decoded<HostCommand> {
    let payload = frame.get(2..).unwrap_or_default();
    let pair = |at: usize| {
        payload
            .get(at..at.saturating_add(2))
            .and_then(|bytes| <[u8; 2]>::try_from(bytes).ok())
            .map_or(0, u16::from_be_bytes)
    };
    match frame.first().copied() {
        Some(KIND_START_REPORTS) => Ok(HostCommand::StartReports),
        Some(KIND_ASK_BATTERY) => Ok(HostCommand::AskBattery),
        Some(KIND_LEDS) => Ok(HostCommand::Leds(decode_leds(payload))),
        Some(KIND_BEEP) => Ok(HostCommand::Beep {
            hz: pair(0),
            ms: pair(2),
        }),
        Some(KIND_ROBOT_SET) => match decode_position(payload.get(..32).unwrap_or_default()) {
            Ok(board) => Ok(HostCommand::RobotSet {
                board,
                yield_to_hands: payload.get(32) == Some(&1),
            }),
            Err((square, code)) => Err(Corrupt {
                why: format!("a position to set shows code {code:#x} on {square}: no piece has it"),
                dropped: frame,
            }),
        },
        Some(KIND_COLOUR_LEDS) => Ok(HostCommand::ColourLeds(decode_colours(payload))),
        Some(KIND_QUERY) if payload.first() == Some(&QUERY_BATTERY) => {
            Ok(HostCommand::AskRobotBattery)
        }
        _ => Err(Corrupt {
            why: "no command of this host's".to_owned(),
            dropped: frame,
        }),
    }
}

#[cfg(test)]
mod tests;
