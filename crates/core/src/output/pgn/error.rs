//! Why the recorder refused an event: the event does not fit the game as recorded so far.

use shakmaty::Color;
use shakmaty::san::SanError;

use crate::sensor_log::IllegalPosition;

/// An event the [`PgnRecorder`](super::PgnRecorder) could not record; nothing was recorded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The SAN of a move event is not a legal move in the recorded position.
    #[error("ply {ply}: `{san}` is not a legal move in {fen}: {source}")]
    IllegalSan {
        /// The ply of the move event.
        ply: u32,
        /// The SAN as given.
        san: String,
        /// The recorded position, as FEN.
        fen: String,
        /// Why the SAN was refused.
        source: SanError,
    },
    /// A move event for the side not to move in the recorded position.
    #[error("ply {ply}: a move by {found:?}, but {expected:?} is to move")]
    WrongSide {
        /// The ply of the move event.
        ply: u32,
        /// The side to move in the recorded position.
        expected: Color,
        /// The side the event names.
        found: Color,
    },
    /// A takeback in a game with no moves recorded.
    #[error("takeback of ply {ply}, but the game has no moves")]
    NothingToTakeBack {
        /// The ply the event retracts.
        ply: u32,
    },
    /// A takeback of a ply that is not the last one recorded.
    #[error("takeback of ply {ply}, but the last recorded ply is {last_ply}")]
    NotTheLastPly {
        /// The ply the event retracts.
        ply: u32,
        /// The last ply recorded.
        last_ply: u32,
    },
    /// A move's clock times for a ply that is not the last one recorded.
    #[error("clock times of ply {ply}, but the last recorded ply is {last_ply}")]
    TimesNotOfTheLastPly {
        /// The ply the times are for.
        ply: u32,
        /// The last ply recorded.
        last_ply: u32,
    },
    /// A result that is not `1-0`, `0-1` or `1/2-1/2`.
    #[error("unknown result `{result}`: expected 1-0, 0-1 or 1/2-1/2")]
    UnknownResult {
        /// The result as given.
        result: String,
    },
    /// A move, takeback or second result after the game's result.
    #[error("the game already ended {result}; a {event} cannot follow")]
    GameOver {
        /// The recorded result.
        result: String,
        /// The kind of the refused event.
        event: &'static str,
    },
    /// A game set up from a position that is no legal chess position.
    #[error("a game set up from an impossible position: {0}")]
    SetUp(#[source] IllegalPosition),
}
