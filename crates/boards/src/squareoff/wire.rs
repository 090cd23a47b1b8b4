//! The Square Off's bytes: ASCII messages `CODE#BODY*` both ways over the Nordic UART
//! service (the host ends its own with `\r\n`, as the Square Off app does).
//!
//! - `0#e2u*`: a piece lifted from e2; `0#e4d*`: a piece set down on e4 (the board's own
//!   report of each change).
//! - `30#R*` asks the squares' occupancy; the answer `30#` then 64 characters, `1` on an
//!   occupied square, `0` elsewhere, a1 a2 … a8 b1 … h8 (file by file).
//! - `25#e2e4*` lights the squares named, and no other; `25#*` puts every light out.
//! - `27#wt*`, `27#bl*`, `27#dw*`: the game won by White, by Black, drawn (the board shows it).
//! - `!#*` opens a game as the Square Off app does.

use shakmaty::{Bitboard, File, Rank, Square};
use touchmove_core::decode::StreamDecoder;

/// The Nordic UART service the board is reached through (a DGT Pegasus uses it too: it does
/// not tell a Square Off by itself).
pub const UART_SERVICE: &str = "6e400001-b5a3-f393-e0a9-e50e24dcca9e";
/// The characteristic the host writes to (the board's receive line).
pub const UART_WRITE: &str = "6e400002-b5a3-f393-e0a9-e50e24dcca9e";
/// The characteristic the board notifies on (its transmit line).
pub const UART_NOTIFY: &str = "6e400003-b5a3-f393-e0a9-e50e24dcca9e";

/// The code of a square's change (`0#e2u*`).
pub const FIELD: &str = "0";
/// The code of the occupancy asked and answered (`30#R*`, `30#0101…*`).
pub const OCCUPANCY: &str = "30";
/// The body that asks the occupancy.
pub const OCCUPANCY_ASKED: &str = "R";
/// The code of the lights (`25#e2e4*`).
pub const LIGHTS: &str = "25";
/// The code of a game's end shown on the board (`27#wt*`).
pub const RESULT: &str = "27";
/// The code that opens a game (`!#*`).
pub const OPEN: &str = "!";

/// The byte that ends a message.
pub const END: u8 = b'*';
/// The byte between a message's code and its body.
pub const SEPARATOR: u8 = b'#';

/// The longest message read (an occupancy answer is 68 bytes); bytes that run longer without
/// an end are dropped.
pub const LONGEST: usize = 96;

/// One message, either way: its code and its body (without the `#` and the `*`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// The code before the `#`.
    pub code: String,
    /// What follows it, up to the `*`.
    pub body: String,
}

impl Message {
    /// The message `code#body*`.
    pub fn new(code: &str, body: &str) -> Message {
        Message {
            code: code.to_owned(),
            body: body.to_owned(),
        }
    }

    /// The bytes the host sends: the message and `\r\n`.
    pub fn to_host_bytes(&self) -> Vec<u8> {
        let mut bytes = self.to_board_bytes();
        bytes.extend_from_slice(b"\r\n");
        bytes
    }

    /// The bytes the board sends: the message alone.
    pub fn to_board_bytes(&self) -> Vec<u8> {
        format!("{}#{}*", self.code, self.body).into_bytes()
    }
}

/// What a message from the board says.
///
/// ```
/// use shakmaty::{Bitboard, File, Square};
/// use touchmove_boards::squareoff::wire::{BoardMessage, Message};
///
/// let lifted = BoardMessage::read(Message::new("0", "e2u"));
/// assert_eq!(lifted, Ok(BoardMessage::Lifted(Square::E2)));
/// assert_eq!(BoardMessage::read(Message::new("0", "e4d")), Ok(BoardMessage::Placed(Square::E4)));
/// assert!(BoardMessage::read(Message::new("0", "e4x")).is_err(), "neither up nor down");
/// // The occupancy answer, file by file from a1: only the a-file's eight squares occupied.
/// let body = format!("{}{}", "1".repeat(8), "0".repeat(56));
/// let occupied = BoardMessage::read(Message::new("30", &body));
/// assert_eq!(occupied, Ok(BoardMessage::Occupancy(Bitboard::from_file(File::A))));
/// // What the host sends ends with a line break.
/// assert_eq!(Message::new("25", "e2e4").to_host_bytes(), b"25#e2e4*\r\n");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardMessage {
    /// A piece was lifted from the square.
    Lifted(Square),
    /// A piece was set down on the square.
    Placed(Square),
    /// The occupied squares, as asked.
    Occupancy(Bitboard),
    /// Another message (read, not used).
    Other(Message),
}

impl BoardMessage {
    /// What `message` says, or what is wrong with it (a change or an occupancy that does not
    /// read as one).
    pub fn read(message: Message) -> Result<BoardMessage, String> {
        match message.code.as_str() {
            FIELD => read_field(&message.body),
            OCCUPANCY if message.body != OCCUPANCY_ASKED => {
                read_occupancy(&message.body).map(BoardMessage::Occupancy)
            }
            _ => Ok(BoardMessage::Other(message)),
        }
    }

    /// The message that says this.
    pub fn message(&self) -> Message {
        match self {
            BoardMessage::Lifted(square) => Message::new(FIELD, &format!("{square}u")),
            BoardMessage::Placed(square) => Message::new(FIELD, &format!("{square}d")),
            BoardMessage::Occupancy(occupied) => Message::new(OCCUPANCY, &occupancy(*occupied)),
            BoardMessage::Other(message) => message.clone(),
        }
    }
}

/// A change's body: a square and `u` (lifted) or `d` (set down).
fn read_field(body: &str) -> Result<BoardMessage, String> {
    let (square, action) = body
        .split_at_checked(2)
        .ok_or_else(|| format!("change `{body}`: no square"))?;
    let square: Square = square
        .parse()
        .map_err(|_| format!("change `{body}`: `{square}` is no square"))?;
    match action {
        "u" => Ok(BoardMessage::Lifted(square)),
        "d" => Ok(BoardMessage::Placed(square)),
        _ => Err(format!("change `{body}`: `{action}` is neither u nor d")),
    }
}

/// The square at `index` of an occupancy answer (a1 a2 … a8 b1 … h8).
pub fn square_at(index: usize) -> Option<Square> {
    let file = u32::try_from(index / 8).ok()?;
    let rank = u32::try_from(index % 8).ok()?;
    (file < 8).then(|| Square::from_coords(File::new(file), Rank::new(rank)))
}

/// The occupied squares an occupancy answer's body lists.
pub fn read_occupancy(body: &str) -> Result<Bitboard, String> {
    if body.len() != 64 {
        return Err(format!(
            "occupancy of {} characters, not 64: `{body}`",
            body.len()
        ));
    }
    let mut occupied = Bitboard::EMPTY;
    for (index, bit) in body.bytes().enumerate() {
        match (bit, square_at(index)) {
            (b'0', Some(_)) => {}
            (b'1', Some(square)) => occupied.add(square),
            _ => return Err(format!("occupancy `{body}`: `{}` at {index}", bit as char)),
        }
    }
    Ok(occupied)
}

/// The body of an occupancy answer listing `occupied`.
pub fn occupancy(occupied: Bitboard) -> String {
    (0..64)
        .filter_map(square_at)
        .map(|square| if occupied.contains(square) { '1' } else { '0' })
        .collect()
}

/// The message that lights `squares` and no other (every light out when there are none).
pub fn lights(squares: &[Square]) -> Message {
    let body: String = squares.iter().map(ToString::to_string).collect();
    Message::new(LIGHTS, &body)
}

/// The squares a lights message's body names (unreadable pairs are skipped).
pub fn lit(body: &str) -> Vec<Square> {
    body.as_bytes()
        .chunks(2)
        .filter_map(|pair| std::str::from_utf8(pair).ok()?.parse().ok())
        .collect()
}

/// What a reader of messages gives: a whole message, or bytes that were none.
pub type Decoded = Result<Message, Corrupt>;

/// Bytes that were no message, dropped (the reader goes on at the next `*`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Corrupt {
    /// The bytes dropped.
    pub dropped: Vec<u8>,
    /// What was wrong.
    pub reason: String,
}

/// A reader of `CODE#BODY*` messages from a stream of bytes, either side's: line ends and
/// spaces between messages are skipped; a message without `#`, not ASCII, or longer than
/// [`LONGEST`] is dropped as corrupt.
#[derive(Debug, Default)]
pub struct MessageDecoder {
    pending: Vec<u8>,
    /// The stream ended: a message begun will not end.
    finished: bool,
}

impl MessageDecoder {
    /// A reader with nothing read.
    pub fn new() -> MessageDecoder {
        MessageDecoder::default()
    }
}

impl StreamDecoder for MessageDecoder {
    type Frame = Message;
    type Error = Corrupt;

    /// Takes bytes as they came.
    fn push(&mut self, bytes: &[u8]) {
        self.pending.extend_from_slice(bytes);
    }

    /// The stream ended: the bytes of a message begun come out as corrupt, after the whole
    /// messages before them.
    fn finish(&mut self) {
        self.finished = true;
    }

    /// The next message or corrupt run, or `None` while the bytes so far end inside one.
    fn poll(&mut self) -> Option<Decoded> {
        let start = self
            .pending
            .iter()
            .position(|byte| !byte.is_ascii_whitespace());
        self.pending.drain(..start.unwrap_or(self.pending.len()));
        let Some(end) = self.pending.iter().position(|&byte| byte == END) else {
            if self.pending.len() > LONGEST {
                let dropped = std::mem::take(&mut self.pending);
                return Some(Err(Corrupt {
                    dropped,
                    reason: format!("more than {LONGEST} bytes without an end"),
                }));
            }
            if self.finished && !self.pending.is_empty() {
                let dropped = std::mem::take(&mut self.pending);
                return Some(Err(Corrupt {
                    dropped,
                    reason: "a message cut short".to_owned(),
                }));
            }
            return None;
        };
        let whole: Vec<u8> = self.pending.drain(..=end).collect();
        let text = whole.get(..end).unwrap_or_default();
        Some(match read_message(text) {
            Ok(message) => Ok(message),
            Err(reason) => Err(Corrupt {
                dropped: whole,
                reason,
            }),
        })
    }
}

/// A message's text before its `*`.
fn read_message(text: &[u8]) -> Result<Message, String> {
    let text = std::str::from_utf8(text)
        .ok()
        .filter(|text| text.is_ascii())
        .ok_or_else(|| "not ASCII".to_owned())?;
    let (code, body) = text
        .split_once(char::from(SEPARATOR))
        .ok_or_else(|| format!("`{text}` has no `#`"))?;
    if code.is_empty() {
        return Err(format!("`{text}` has no code"));
    }
    Ok(Message::new(code, body))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(bytes: &[u8]) -> Vec<Decoded> {
        let mut decoder = MessageDecoder::new();
        decoder.push(bytes);
        std::iter::from_fn(|| decoder.poll()).collect()
    }

    #[test]
    fn changes_read_as_the_square_and_u_or_d() {
        let read = |text: &[u8]| match decoded(text).pop() {
            Some(Ok(message)) => BoardMessage::read(message),
            other => Err(format!("{other:?}")),
        };
        assert_eq!(read(b"0#e2u*"), Ok(BoardMessage::Lifted(Square::E2)));
        assert_eq!(read(b"0#e4d*"), Ok(BoardMessage::Placed(Square::E4)));
        assert!(read(b"0#e9d*").is_err());
        assert!(read(b"0#e4x*").is_err());
        assert!(read(b"0#*").is_err());
    }

    #[test]
    fn occupancy_lists_the_squares_file_by_file() {
        // The start position: on each file, ranks 1, 2, 7 and 8.
        let start: String = "11000011".repeat(8);
        assert_eq!(
            read_occupancy(&start),
            Ok(shakmaty::Board::default().occupied())
        );
        // a2 is the second character, b1 the ninth, h8 the last.
        let mut only = vec!['0'; 64];
        for at in [1, 8, 63] {
            only[at] = '1';
        }
        let only: String = only.into_iter().collect();
        let squares: Vec<Square> = read_occupancy(&only)
            .unwrap_or_default()
            .into_iter()
            .collect();
        assert_eq!(squares, [Square::B1, Square::A2, Square::H8]);
        assert_eq!(occupancy(Bitboard::EMPTY), "0".repeat(64));
        assert!(read_occupancy("0101").is_err());
        assert!(read_occupancy(&"2".repeat(64)).is_err());
    }

    #[test]
    fn the_host_s_messages_end_with_a_line_end_as_the_app_s() {
        assert_eq!(
            Message::new(OCCUPANCY, OCCUPANCY_ASKED).to_host_bytes(),
            b"30#R*\r\n"
        );
        assert_eq!(
            lights(&[Square::E2, Square::E4]).to_host_bytes(),
            b"25#e2e4*\r\n"
        );
        assert_eq!(lights(&[]).to_host_bytes(), b"25#*\r\n");
        assert_eq!(lit("e2e4"), [Square::E2, Square::E4]);
        assert_eq!(lit(""), []);
    }

    #[test]
    fn messages_split_anywhere_or_run_together_read_whole() {
        let mut decoder = MessageDecoder::new();
        decoder.push(b"0#e2");
        assert_eq!(decoder.poll(), None);
        decoder.push(b"u*\r\n0#e4d*30#R*");
        let messages: Vec<Decoded> = std::iter::from_fn(|| decoder.poll()).collect();
        assert_eq!(
            messages,
            [
                Ok(Message::new("0", "e2u")),
                Ok(Message::new("0", "e4d")),
                Ok(Message::new("30", "R")),
            ]
        );
    }

    #[test]
    fn a_run_without_a_separator_or_an_end_is_dropped_and_reading_goes_on() {
        let runs = decoded(b"garbage*0#e2u*");
        assert!(
            matches!(runs.first(), Some(Err(Corrupt { .. }))),
            "{runs:?}"
        );
        assert_eq!(runs.get(1), Some(&Ok(Message::new("0", "e2u"))));
        let long = decoded(&[b'x'; LONGEST + 1]);
        assert!(
            matches!(long.first(), Some(Err(Corrupt { .. }))),
            "{long:?}"
        );
        let unended = decoded(&[0xff, b'#', b'*']);
        assert!(
            matches!(unended.first(), Some(Err(Corrupt { .. }))),
            "{unended:?}"
        );
    }
}
