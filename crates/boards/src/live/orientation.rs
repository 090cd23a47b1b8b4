//! A board standing the other way round from the way its squares are numbered (told by a
//! spectator's tool, LiveChess's `flip`): what its session reports is turned round before the
//! game sees it, and what the game tells the board is turned back.

use shakmaty::{Bitboard, Square};

use touchmove_core::sensor::{BoardSnapshot, SensorKind};

use super::feedback::Feedback;

/// The square that sits where `square` is when the board is turned round (a1 and h8 change
/// places).
pub fn turned_square(square: Square) -> Square {
    square.flip_vertical().flip_horizontal()
}

/// `snapshot` with every square turned round.
pub fn turned_snapshot(snapshot: &BoardSnapshot) -> BoardSnapshot {
    let mut pieces = snapshot.pieces.clone();
    pieces.rotate_180();
    BoardSnapshot {
        occupied: snapshot
            .occupied
            .into_iter()
            .map(turned_square)
            .collect::<Bitboard>(),
        pieces,
    }
}

/// A report of the board, its squares turned round (a clock press, a j'adoube or a promotion
/// choice has no square and stays as it is).
pub fn turned_sensor(kind: SensorKind) -> SensorKind {
    match kind {
        SensorKind::Lift { square, piece } => SensorKind::Lift {
            square: turned_square(square),
            piece,
        },
        SensorKind::Place { square, piece } => SensorKind::Place {
            square: turned_square(square),
            piece,
        },
        SensorKind::Snapshot(snapshot) => {
            SensorKind::Snapshot(Box::new(turned_snapshot(&snapshot)))
        }
        other @ (SensorKind::Adjust | SensorKind::Clock(_) | SensorKind::Promote(_)) => other,
    }
}

/// What the game tells the board, its squares turned back to the board's numbering.
pub fn turned_feedback(feedback: Feedback) -> Feedback {
    match feedback {
        Feedback::Moved { by, from, to } => Feedback::Moved {
            by,
            from: turned_square(from),
            to: turned_square(to),
        },
        Feedback::Show { from, to, text } => Feedback::Show {
            from: turned_square(from),
            to: turned_square(to),
            text,
        },
        Feedback::Mismatch { squares } => Feedback::Mismatch {
            squares: squares.into_iter().map(turned_square).collect(),
        },
        Feedback::Ambiguous { from, to } => Feedback::Ambiguous {
            from: turned_square(from),
            to: to.into_iter().map(turned_square).collect(),
        },
        Feedback::SetPieces { mut board } => {
            board.rotate_180();
            Feedback::SetPieces { board }
        }
        other @ (Feedback::Started { .. }
        | Feedback::TakenBack { .. }
        | Feedback::Resynced
        | Feedback::TimeAdded { .. }
        | Feedback::ClockSet { .. }
        | Feedback::Times { .. }
        | Feedback::Pending { .. }
        | Feedback::Ended { .. }) => other,
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{Board, Color};

    use super::*;

    #[test]
    fn turning_round_swaps_the_corners_and_twice_is_nothing() {
        assert_eq!(turned_square(Square::A1), Square::H8);
        assert_eq!(turned_square(Square::E2), Square::D7);
        for square in Square::ALL {
            assert_eq!(turned_square(turned_square(square)), square);
        }
    }

    #[test]
    fn a_board_set_up_the_wrong_way_round_reads_as_the_start_position() {
        let mut turned = Board::new();
        turned.rotate_180();
        let snapshot = BoardSnapshot::identified(&turned);
        let read = turned_snapshot(&snapshot);
        assert_eq!(read, BoardSnapshot::identified(&Board::new()));
        // The white king stood on d8 of the board's numbering: it is on e1.
        let lift = SensorKind::Lift {
            square: Square::D8,
            piece: Some(Color::White.king()),
        };
        assert_eq!(
            turned_sensor(lift),
            SensorKind::Lift {
                square: Square::E1,
                piece: Some(Color::White.king())
            }
        );
        let moved = Feedback::Moved {
            by: Color::White,
            from: Square::E2,
            to: Square::E4,
        };
        assert_eq!(
            turned_feedback(moved),
            Feedback::Moved {
                by: Color::White,
                from: Square::D7,
                to: Square::D5
            }
        );
    }

    #[test]
    fn an_unidentified_piece_stays_unidentified() {
        let snapshot = BoardSnapshot::occupancy(Bitboard::from_square(Square::B1));
        let read = turned_snapshot(&snapshot);
        assert_eq!(read.occupied, Bitboard::from_square(Square::G8));
        assert!(read.pieces.occupied().is_empty());
    }
}
