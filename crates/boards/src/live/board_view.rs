//! The board as text, for a terminal watching a live game.

use shakmaty::{Bitboard, Board, File, Rank, Square};

/// An eight-line diagram of `board`, White at the bottom; `unknown` marks occupied squares whose
/// piece is not known (`X`).
pub fn board_diagram(board: &Board, unknown: Bitboard) -> String {
    let mut text = String::with_capacity(8 * 20 + 20);
    for rank in Rank::ALL.into_iter().rev() {
        text.push(rank.char());
        for file in File::ALL {
            let square = Square::from_coords(file, rank);
            text.push(' ');
            text.push(match board.piece_at(square) {
                Some(piece) => piece.char(),
                None if unknown.contains(square) => 'X',
                None => '.',
            });
        }
        text.push('\n');
    }
    text.push_str("  a b c d e f g h\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_reads_with_white_at_the_bottom() {
        let diagram = board_diagram(&Board::new(), Bitboard::EMPTY);
        let lines: Vec<&str> = diagram.lines().collect();
        assert_eq!(lines[0], "8 r n b q k b n r");
        assert_eq!(lines[3], "5 . . . . . . . .");
        assert_eq!(lines[7], "1 R N B Q K B N R");
        assert_eq!(lines[8], "  a b c d e f g h");
    }

    #[test]
    fn unknown_pieces_show_as_x() {
        let diagram = board_diagram(&Board::empty(), Bitboard::from(Square::E4));
        assert_eq!(diagram.lines().nth(4), Some("4 . . . . X . . ."));
    }
}
