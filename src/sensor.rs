//! What a board reports: the sensor events every board protocol is normalised into.
//!
//! These are the records of the sensor log (`docs` contract `sensor-log.md`) and the input of the
//! [`Interpreter`](crate::interpreter::Interpreter). Times are whole milliseconds since the log
//! started.

use shakmaty::{Bitboard, Board, Color, Piece, Role, Square};

/// Milliseconds since the log (or the live session) started.
pub type Millis = u64;

/// One report from the board, stamped with the time it was seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SensorEvent {
    /// When the report was seen, in milliseconds since the log started.
    pub t: Millis,
    /// What was reported.
    pub kind: SensorKind,
}

/// The kinds of report a board makes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SensorKind {
    /// A piece left `square`; `piece` is set when the board identifies pieces.
    Lift {
        /// The square the piece left.
        square: Square,
        /// The piece, when the board can tell.
        piece: Option<Piece>,
    },
    /// A piece arrived on `square`; `piece` is set when the board identifies pieces.
    Place {
        /// The square the piece arrived on.
        square: Square,
        /// The piece, when the board can tell.
        piece: Option<Piece>,
    },
    /// The player having the move declared an adjustment (j'adoube, FIDE 4.2.1).
    Adjust,
    /// That player pressed the clock.
    Clock(Color),
    /// A promotion choice entered on a board that cannot identify pieces.
    Promote(Role),
    /// The board's full state, e.g. a DGT board dump or a resync after a reconnect.
    Snapshot(BoardSnapshot),
}

/// A full picture of the board: which squares are occupied, and the pieces the board identified.
///
/// A square in `occupied` with no piece in `pieces` is occupied by a piece the board cannot
/// identify (`X` in the log).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardSnapshot {
    /// Every occupied square.
    pub occupied: Bitboard,
    /// The identified pieces; a subset of `occupied`.
    pub pieces: Board,
}

impl BoardSnapshot {
    /// A snapshot in which every piece of `board` is identified.
    pub fn identified(board: &Board) -> BoardSnapshot {
        BoardSnapshot {
            occupied: board.occupied(),
            pieces: board.clone(),
        }
    }

    /// A snapshot of an occupancy-only board: the squares of `occupied`, no piece identified.
    pub fn occupancy(occupied: Bitboard) -> BoardSnapshot {
        BoardSnapshot {
            occupied,
            pieces: Board::empty(),
        }
    }
}

impl SensorEvent {
    /// A sensor event at time `t`.
    pub fn new(t: Millis, kind: SensorKind) -> SensorEvent {
        SensorEvent { t, kind }
    }
}
