//! What a board reports: the sensor events every board protocol is normalised into.
//!
//! These are the records of the sensor log (`docs` contract `sensor-log.md`) and the input of
//! the interpreter. Times are whole milliseconds since the log started.

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
///
/// Exhaustive on purpose: these are the sensor log's verbs (`sensor-log.md`), and a new one is
/// a new version of the format that every consumer (the interpreter, the emulators, a board
/// turned round) must handle, so the compiler should point at each.
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
    /// The board's full state, e.g. a DGT board dump or a resync after a reconnect. Boxed: a
    /// snapshot is rare and large, and every other report is a few bytes, moved many times.
    Snapshot(Box<BoardSnapshot>),
}

/// A full picture of the board: which squares are occupied, and the pieces the board identified.
///
/// A square in `occupied` with no piece in `pieces` is occupied by a piece the board cannot
/// identify (`X` in the log).
///
/// ```
/// use shakmaty::{Bitboard, Board, Color, Piece, Role, Square};
/// use touchmove_core::sensor::{BoardSnapshot, SensorKind};
///
/// // An occupancy board set up for a game: 32 squares, no piece known.
/// let mut seen = BoardSnapshot::occupancy(Board::default().occupied());
/// seen.apply(&SensorKind::Lift { square: Square::E2, piece: None });
/// seen.apply(&SensorKind::Place { square: Square::E4, piece: None });
/// assert_eq!(seen.occupied.count(), 32);
/// assert!(seen.occupied.contains(Square::E4) && !seen.occupied.contains(Square::E2));
/// assert_eq!(seen.pieces, Board::empty());
/// // A board that names pieces says which one arrived.
/// let queen = Piece { color: Color::White, role: Role::Queen };
/// seen.apply(&SensorKind::Place { square: Square::E8, piece: Some(queen) });
/// assert_eq!(seen.pieces.piece_at(Square::E8), Some(queen));
/// ```
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

    /// The board after the sensor report `kind`: a lift empties its square, a place fills it
    /// (with the piece, when identified), a snapshot replaces everything; other reports change
    /// nothing.
    pub fn apply(&mut self, kind: &SensorKind) {
        match kind {
            SensorKind::Lift { square, .. } => {
                self.occupied.discard(*square);
                self.pieces.discard_piece_at(*square);
            }
            SensorKind::Place { square, piece } => {
                self.occupied.add(*square);
                match piece {
                    Some(piece) => self.pieces.set_piece_at(*square, *piece),
                    None => self.pieces.discard_piece_at(*square),
                }
            }
            SensorKind::Snapshot(snapshot) => self.clone_from(snapshot),
            SensorKind::Adjust | SensorKind::Clock(_) | SensorKind::Promote(_) => {}
        }
    }
}

impl SensorEvent {
    /// A sensor event at time `t`.
    pub fn new(t: Millis, kind: SensorKind) -> SensorEvent {
        SensorEvent { t, kind }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Color, Square};

    #[test]
    fn lifts_places_and_snapshots_change_the_board_as_reported() {
        let mut seen = BoardSnapshot::identified(&Board::new());
        let pawn = Color::White.pawn();
        seen.apply(&SensorKind::Lift {
            square: Square::E2,
            piece: Some(pawn),
        });
        seen.apply(&SensorKind::Place {
            square: Square::E4,
            piece: None,
        });
        assert!(!seen.occupied.contains(Square::E2) && seen.occupied.contains(Square::E4));
        assert_eq!(seen.pieces.piece_at(Square::E2), None);
        // Placed unidentified: occupied, no piece named.
        assert_eq!(seen.pieces.piece_at(Square::E4), None);
        seen.apply(&SensorKind::Clock(Color::White));
        assert!(seen.occupied.contains(Square::E4));
        let empty = BoardSnapshot::occupancy(Bitboard::EMPTY);
        seen.apply(&SensorKind::Snapshot(Box::new(empty.clone())));
        assert_eq!(seen, empty);
    }
}
