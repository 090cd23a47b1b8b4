//! Boards that report whole positions (a ChessLink board's status, a Chessnut board's report):
//! each reading becomes the lifts and placements it shows, square by square, once a square's
//! change has held ([`PositionReader`]).
//!
//! - The first reading, or the first after [`PositionReader::clear`] (the board was away), is
//!   a full report ([`SensorKind::Snapshot`]: the interpreter compares it with the game); so is
//!   one that differs from the reading before in more than [`MOVE_SQUARES`] squares (no hand
//!   changes that many between two readings: the board was away).
//! - Otherwise each square is debounced on its own: its new reading is taken once a reading a
//!   hold after the first that showed it still shows it, and the squares taken together are
//!   lifts of the pieces that left them, then placements of the pieces that came (one reading
//!   has no order). A flicker or a knock that comes back is never taken, and no square's change
//!   waits for another's.

mod debounce;

use shakmaty::{Board, Square};

use debounce::Debounce;
use touchmove_core::sensor::{BoardSnapshot, Millis, SensorKind};

/// The most squares one move changes (castling: four).
pub const MOVE_SQUARES: usize = 4;

/// The squares in the order a board is read, a8 to h8, then each rank down to a1 to h1: the
/// order events of one reading come in.
pub fn reading_order() -> impl Iterator<Item = Square> {
    (0..8u32)
        .rev()
        .flat_map(|rank| (0..8u32).map(move |file| Square::new(rank * 8 + file)))
}

/// A whole-position board's readings turned into sensor reports.
#[derive(Debug)]
pub struct PositionReader {
    /// The board as taken (what the reports said); `None` when the next reading is a full
    /// report.
    board: Option<Board>,
    /// The last reading, as the board sent it.
    reading: Option<Board>,
    /// The squares whose change is not taken yet.
    debounce: Debounce,
}

impl PositionReader {
    /// A reader that takes a square's change once a reading `hold_ms` after the first that
    /// showed it still shows it.
    pub fn new(hold_ms: Millis) -> PositionReader {
        PositionReader {
            board: None,
            reading: None,
            debounce: Debounce::new(hold_ms),
        }
    }

    /// Forgets the board: the next reading is a full report.
    pub fn clear(&mut self) {
        self.board = None;
        self.reading = None;
        self.debounce.clear();
    }

    /// The board as taken so far, if a reading was.
    pub fn taken(&self) -> Option<&Board> {
        self.board.as_ref()
    }

    /// Takes `reading`, which arrived at `now`: the reports it makes, in order (none while its
    /// changes have not held).
    pub fn read(&mut self, now: Millis, reading: Board) -> Vec<SensorKind> {
        let previous = self.reading.replace(reading.clone());
        let Some(taken) = self.board.clone() else {
            return vec![self.take_whole(reading)];
        };
        let jumped = previous.is_some_and(|previous| {
            reading_order()
                .filter(|&square| previous.piece_at(square) != reading.piece_at(square))
                .count()
                > MOVE_SQUARES
        });
        if jumped {
            return vec![self.take_whole(reading)];
        }
        let changed = self.debounce.read(now, &taken, &reading);
        if changed.is_empty() {
            return Vec::new();
        }
        let mut board = taken.clone();
        for &square in &changed {
            board.discard_piece_at(square);
            if let Some(piece) = reading.piece_at(square) {
                board.set_piece_at(square, piece);
            }
        }
        let lifts = changed.iter().filter_map(|&square| {
            taken.piece_at(square).map(|piece| SensorKind::Lift {
                square,
                piece: Some(piece),
            })
        });
        let places = changed.iter().filter_map(|&square| {
            board.piece_at(square).map(|piece| SensorKind::Place {
                square,
                piece: Some(piece),
            })
        });
        let reports = lifts.chain(places).collect();
        self.board = Some(board);
        reports
    }

    /// When the board is to be read again for a change seen once (none while a reading asked
    /// for is awaited: it will come).
    pub fn read_again_at(&self) -> Option<Millis> {
        self.debounce.read_again_at()
    }

    /// A reading was asked for: no other is asked until it comes.
    pub fn asked(&mut self) {
        self.debounce.asked();
    }

    /// `reading` taken whole: a full report, every square's change forgotten.
    fn take_whole(&mut self, reading: Board) -> SensorKind {
        self.debounce.clear();
        let snapshot = BoardSnapshot::identified(&reading);
        self.board = Some(reading);
        SensorKind::Snapshot(Box::new(snapshot))
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{Color, Piece, Role};

    use super::*;

    const PAWN: Piece = Piece {
        color: Color::White,
        role: Role::Pawn,
    };

    fn moved(board: &Board, from: Square, to: Square) -> Board {
        let mut board = board.clone();
        if let Some(piece) = board.remove_piece_at(from) {
            board.set_piece_at(to, piece);
        }
        board
    }

    #[test]
    fn the_first_reading_is_a_full_report_and_a_held_change_a_lift_then_a_place() {
        let mut reader = PositionReader::new(50);
        let start = Board::new();
        assert!(matches!(
            reader.read(0, start.clone()).as_slice(),
            [SensorKind::Snapshot(_)]
        ));
        let e4 = moved(&start, Square::E2, Square::E4);
        assert_eq!(reader.read(100, e4.clone()), []);
        assert_eq!(
            reader.read(200, e4),
            [
                SensorKind::Lift {
                    square: Square::E2,
                    piece: Some(PAWN)
                },
                SensorKind::Place {
                    square: Square::E4,
                    piece: Some(PAWN)
                },
            ]
        );
    }

    #[test]
    fn a_reading_far_from_the_one_before_is_a_full_report() {
        let mut reader = PositionReader::new(50);
        reader.read(0, Board::new());
        // Five squares at once: no hand does that between two readings.
        let mut away = Board::new();
        for square in [Square::A2, Square::B2, Square::C2, Square::D2, Square::E2] {
            away.discard_piece_at(square);
        }
        assert!(matches!(
            reader.read(100, away).as_slice(),
            [SensorKind::Snapshot(_)]
        ));
    }

    #[test]
    fn the_reading_order_runs_from_a8_to_h1_rank_by_rank() {
        let order: Vec<Square> = reading_order().collect();
        assert_eq!(order.len(), 64);
        assert_eq!(order.first(), Some(&Square::A8));
        assert_eq!(order.get(7), Some(&Square::H8));
        assert_eq!(order.get(8), Some(&Square::A7));
        assert_eq!(order.last(), Some(&Square::H1));
    }
}
