//! The errors a sensor log can contain, each naming the line and the evidence.

use shakmaty::fen::ParseFenError;
use shakmaty::{Chess, PositionError};

/// Why shakmaty refuses a position as a game's start: its error, compared by the faults it
/// found (the position it holds is the refused one).
#[derive(Debug, Clone, thiserror::Error)]
#[error(transparent)]
pub struct IllegalPosition(pub Box<PositionError<Chess>>);

impl PartialEq for IllegalPosition {
    fn eq(&self, other: &IllegalPosition) -> bool {
        self.0.kinds() == other.0.kinds()
    }
}

impl Eq for IllegalPosition {}

impl From<PositionError<Chess>> for IllegalPosition {
    fn from(error: PositionError<Chess>) -> IllegalPosition {
        IllegalPosition(Box::new(error))
    }
}

impl From<Box<PositionError<Chess>>> for IllegalPosition {
    fn from(error: Box<PositionError<Chess>>) -> IllegalPosition {
        IllegalPosition(error)
    }
}

/// A malformed line of a sensor log: where it is and what was wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct LogError {
    /// The 1-based number of the offending line (for an error at the end of the input, the
    /// number the next line would have had).
    pub line: usize,
    /// What was wrong.
    pub kind: LineError,
}

/// What can be wrong with one line of a sensor log.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// The line is not valid UTF-8.
    #[error("invalid UTF-8 after {valid_up_to} valid bytes")]
    InvalidUtf8 {
        /// How many bytes at the start of the line are valid UTF-8.
        valid_up_to: usize,
    },
    /// The first line that is neither blank nor a comment is not the header.
    #[error("expected the header `touchmove-log 1`, found `{found}`")]
    WrongHeader {
        /// The text found instead.
        found: String,
    },
    /// The input ended before a header line was seen.
    #[error("expected the header `touchmove-log 1`, found the end of the input")]
    MissingHeader,
    /// A metadata line (`@key`) after the first event.
    #[error("metadata `@{key}` after the first event; metadata must come before any event")]
    MetadataAfterEvent {
        /// The metadata key.
        key: String,
    },
    /// A line of just `@`, naming no key.
    #[error("metadata line with no key after `@`")]
    EmptyMetadataKey,
    /// A known metadata key without its value.
    #[error("`@{key}` needs a value after the key")]
    MissingMetadataValue {
        /// The metadata key.
        key: String,
    },
    /// The same known metadata key given twice.
    #[error("`@{key}` given again; it was first given on line {first_line}")]
    DuplicateMetadata {
        /// The metadata key.
        key: String,
        /// The line where the key was first given.
        first_line: usize,
    },
    /// The `@report-horizon-ms` value is not a number of milliseconds in range.
    #[error("bad `@report-horizon-ms` value `{text}`: expected whole milliseconds, at most 60000")]
    BadReportHorizon {
        /// The text found.
        text: String,
    },
    /// An `@slide-ms` or `@bounce-ms` value that is not a number of milliseconds in range.
    #[error("bad `@{key}` value `{text}`: expected whole milliseconds, at most 60000")]
    BadWindow {
        /// The key (`slide-ms`, `bounce-ms`).
        key: String,
        /// The text found.
        text: String,
    },
    /// The `@engine` value is not a side.
    #[error("bad `@engine` value `{text}`: expected `white` or `black`")]
    BadEngineSide {
        /// The text found.
        text: String,
    },
    /// The `@date` value is not a PGN date `YYYY.MM.DD`.
    #[error("bad `@date` value `{text}`: expected YYYY.MM.DD")]
    BadDate {
        /// The text found.
        text: String,
    },
    /// The `@promotion-choice` value is not `awaited`.
    #[error("bad `@promotion-choice` value `{text}`: expected `awaited`")]
    BadPromotionChoice {
        /// The text found.
        text: String,
    },
    /// The `@online` value is not a server, a game and a side.
    #[error("bad `@online` value `{text}`: expected `<server> <game> white|black`")]
    BadOnline {
        /// The text found.
        text: String,
    },
    /// The `@start` FEN does not parse.
    #[error("`@start` FEN `{fen}` does not parse: {source}")]
    BadFen {
        /// The FEN text as found.
        fen: String,
        /// Why shakmaty rejected it.
        source: ParseFenError,
    },
    /// The `@start` FEN parses but is not a playable standard-chess position.
    #[error("`@start` FEN `{fen}` is not a playable position: {source}")]
    IllegalStartPosition {
        /// The FEN text as found.
        fen: String,
        /// Why shakmaty rejected the position.
        source: IllegalPosition,
    },
    /// The line is longer than a log's lines may be.
    #[error("line longer than 65536 bytes, starting `{start}`")]
    LineTooLong {
        /// The line's first bytes.
        start: String,
    },
    /// The time is later than any log may give.
    #[error("time {t} is beyond the latest a log may give (1000000000000 ms, about 31 years)")]
    TimeTooLate {
        /// The time found.
        t: u64,
    },
    /// The time field is not whole milliseconds.
    #[error("bad time `{text}`: expected whole milliseconds (digits only)")]
    BadTime {
        /// The time field as found.
        text: String,
    },
    /// The time is earlier than the previous event's.
    #[error("time {t} is earlier than the previous event's time {previous}; times never decrease")]
    TimeWentBack {
        /// The time on this line.
        t: u64,
        /// The time of the previous event.
        previous: u64,
    },
    /// A time with no verb after it.
    #[error("expected a verb after the time")]
    MissingVerb,
    /// A verb the format does not define.
    #[error("unknown verb `{verb}`: expected one of lift, place, adjust, clock, promote, snapshot")]
    UnknownVerb {
        /// The verb as found.
        verb: String,
    },
    /// A verb with too few or too many arguments.
    #[error("`{verb}` takes {expected} argument(s), found {found}")]
    WrongArgumentCount {
        /// The verb.
        verb: &'static str,
        /// How many arguments the verb takes, in words (`1 or 2`, `0`, ...).
        expected: &'static str,
        /// How many were found.
        found: usize,
    },
    /// A square that is not `a1` to `h8` in lower case.
    #[error("bad square `{text}`: expected a1 to h8 in lower case")]
    BadSquare {
        /// The square as found.
        text: String,
    },
    /// A piece that is not one FEN letter.
    #[error("bad piece `{text}`: expected one of PNBRQK (white) or pnbrqk (black)")]
    BadPiece {
        /// The piece as found.
        text: String,
    },
    /// A colour that is not `white` or `black`.
    #[error("bad colour `{text}`: expected white or black")]
    BadColour {
        /// The colour as found.
        text: String,
    },
    /// A promotion choice that is not `q`, `r`, `b` or `n`.
    #[error("bad promotion piece `{text}`: expected q, r, b or n")]
    BadPromote {
        /// The choice as found.
        text: String,
    },
    /// A snapshot whose placement is not a valid piece-placement field.
    #[error("bad snapshot placement `{placement}`: {reason}")]
    BadPlacement {
        /// The placement as found.
        placement: String,
        /// What is wrong with it.
        reason: PlacementError,
    },
    /// Bytes were pushed into the decoder after [`finish`](crate::decode::StreamDecoder::finish).
    #[error("input pushed after the end of the input was signalled")]
    PushedAfterFinish,
}

/// What can be wrong with a snapshot's piece placement.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlacementError {
    /// Not exactly eight ranks separated by `/`.
    #[error("expected 8 ranks separated by `/`, found {found}")]
    RankCount {
        /// The number of ranks found.
        found: usize,
    },
    /// A character that is not a digit 1-8, a FEN piece letter or `X`.
    #[error("rank {rank}: unexpected `{found}`; expected a digit 1-8, a piece letter or X")]
    BadCharacter {
        /// The chess rank (8 is the first in the field).
        rank: u8,
        /// The offending character.
        found: char,
    },
    /// A rank that does not describe exactly eight squares.
    #[error("rank {rank} describes {squares} squares, expected 8")]
    RankWidth {
        /// The chess rank (8 is the first in the field).
        rank: u8,
        /// The number of squares it describes.
        squares: u32,
    },
}
