//! One timed change on the emulated board, as a script and the scan model both speak of it.

use shakmaty::{Color, Piece, Square};

use touchmove_core::sensor::Millis;

/// One thing that happens on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// `square` now holds `piece` (`None`: it emptied).
    Square {
        /// The square (as it stands on the table; rotation is applied when reporting).
        square: Square,
        /// What it now holds.
        piece: Option<Piece>,
    },
    /// The player of this colour pressed the clock.
    ClockPress(Color),
    /// The players set the clock again for a new game: its first setting, running for the
    /// side to move first.
    ClockReset,
}

/// A change at a time, in ms of script time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScriptEvent {
    /// When it happens, in ms since the script started (never decreasing along a script).
    pub t: Millis,
    /// What happens.
    pub change: Change,
}

/// Puts `piece` on `square` (or empties it).
pub(super) fn set(board: &mut shakmaty::Board, square: Square, piece: Option<Piece>) {
    match piece {
        Some(piece) => board.set_piece_at(square, piece),
        None => board.discard_piece_at(square),
    }
}
