//! Which way round the board stands, read from a dump of the start position, and undoing a
//! turned board.

use shakmaty::Board;

/// How the board stands relative to the connector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Orientation {
    /// The right way round: White on the connector side.
    Normal,
    /// Turned round: Black on the connector side.
    Rotated,
}

/// The orientation a board (squares as the board numbers them) reveals: it does when it shows
/// the standard start position, either way round; any other position reveals nothing.
pub fn start_position_orientation(board: &Board) -> Option<Orientation> {
    let start = Board::default();
    if *board == start {
        Some(Orientation::Normal)
    } else if turned_round(board) == start {
        Some(Orientation::Rotated)
    } else {
        None
    }
}

/// The board with every piece moved to the square that sits where it is when the board is
/// turned round.
fn turned_round(board: &Board) -> Board {
    let mut turned = board.clone();
    turned.rotate_180();
    turned
}

#[cfg(test)]
mod tests {
    use shakmaty::{Color, Square};

    use super::*;

    #[test]
    fn the_start_position_reveals_the_orientation() {
        let start = Board::default();
        assert_eq!(
            start_position_orientation(&start),
            Some(Orientation::Normal)
        );
        let turned = turned_round(&start);
        assert_ne!(turned, start);
        assert_eq!(turned.piece_at(Square::A1), Some(Color::Black.rook()));
        assert_eq!(turned.piece_at(Square::D1), Some(Color::Black.king()));
        assert_eq!(
            start_position_orientation(&turned),
            Some(Orientation::Rotated)
        );
        assert_eq!(turned_round(&turned), start);
    }

    #[test]
    fn other_positions_reveal_nothing() {
        let mut board = Board::default();
        board.discard_piece_at(Square::E2);
        board.set_piece_at(Square::E4, Color::White.pawn());
        assert_eq!(start_position_orientation(&board), None);
        assert_eq!(start_position_orientation(&turned_round(&board)), None);
        assert_eq!(start_position_orientation(&Board::empty()), None);
    }
}
