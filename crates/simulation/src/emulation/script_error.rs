//! Why an emulated board's script could not be made, whatever the board.

use shakmaty::Square;

use crate::simulate::SimulateError;
use touchmove_core::sensor::Millis;
use touchmove_core::sensor_log::IllegalPosition;

/// Why a script could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScriptError {
    /// The log's start position is not a legal position.
    #[error("the log's start position is not legal: {0}")]
    BadStart(#[source] IllegalPosition),
    /// A piece was placed (or shown in a snapshot) without saying which, on a board that
    /// identifies every piece.
    #[error("at {t} ms: the piece on {square} is not identified (an occupancy-board log?)")]
    UnidentifiedPiece {
        /// When.
        t: Millis,
        /// Where.
        square: Square,
    },
    /// The game could not be simulated.
    #[error(transparent)]
    Simulate(#[from] SimulateError),
}
