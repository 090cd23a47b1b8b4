//! The snapshot placement: a FEN piece-placement field in which `X` marks an occupied square
//! whose piece the board cannot identify.

use shakmaty::{Bitboard, File, Piece, Rank, Square};

use super::error::PlacementError;
use crate::sensor::BoardSnapshot;

/// The letter for an occupied square whose piece is not identified.
const UNIDENTIFIED: char = 'X';

/// Parses a placement field (eight ranks from 8 down to 1, separated by `/`).
pub(super) fn parse_placement(text: &str) -> Result<BoardSnapshot, PlacementError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(PlacementError::RankCount { found: ranks.len() });
    }
    let mut snapshot = BoardSnapshot::occupancy(Bitboard::EMPTY);
    for (rank, rank_text) in Rank::ALL.into_iter().rev().zip(ranks) {
        parse_rank(rank, rank_text, &mut snapshot)?;
    }
    Ok(snapshot)
}

/// Parses one rank of the placement into `snapshot`.
fn parse_rank(rank: Rank, text: &str, snapshot: &mut BoardSnapshot) -> Result<(), PlacementError> {
    let rank_number = rank_number(rank);
    let mut file_index: u32 = 0;
    for ch in text.chars() {
        let width = match ch {
            '1'..='8' => ch.to_digit(10).unwrap_or(0),
            _ => {
                let square = square_at(rank, file_index);
                mark_square(ch, square, snapshot).ok_or(PlacementError::BadCharacter {
                    rank: rank_number,
                    found: ch,
                })?;
                1
            }
        };
        file_index += width;
        if file_index > 8 {
            return Err(rank_width_error(rank_number, text));
        }
    }
    if file_index == 8 {
        Ok(())
    } else {
        Err(PlacementError::RankWidth {
            rank: rank_number,
            squares: file_index,
        })
    }
}

/// Records the piece letter or `X` on `square`; `None` when `ch` is neither.
///
/// `square` is `None` when the rank is already full; a valid letter is still accepted here and
/// the width check reports the overflow.
fn mark_square(ch: char, square: Option<Square>, snapshot: &mut BoardSnapshot) -> Option<()> {
    let piece = if ch == UNIDENTIFIED {
        None
    } else {
        Some(Piece::from_char(ch)?)
    };
    if let Some(square) = square {
        snapshot.occupied.add(square);
        if let Some(piece) = piece {
            snapshot.pieces.set_piece_at(square, piece);
        }
    }
    Some(())
}

/// The width error for a rank, counting every square the rank text describes.
fn rank_width_error(rank: u8, text: &str) -> PlacementError {
    let squares = text.chars().map(|ch| ch.to_digit(10).unwrap_or(1)).sum();
    PlacementError::RankWidth { rank, squares }
}

/// The square on `rank` at file index `file_index` (0 = a), if it is on the board.
fn square_at(rank: Rank, file_index: u32) -> Option<Square> {
    File::try_from(file_index)
        .ok()
        .map(|file| Square::from_coords(file, rank))
}

/// The chess number of a rank, 1 to 8.
fn rank_number(rank: Rank) -> u8 {
    u8::from(rank) + 1
}

/// Writes the placement of `snapshot`; a square holding an identified piece is written as that
/// piece even if it is missing from `occupied`.
pub fn format_placement(snapshot: &BoardSnapshot) -> String {
    let ranks: Vec<String> = Rank::ALL
        .into_iter()
        .rev()
        .map(|rank| format_rank(snapshot, rank))
        .collect();
    ranks.join("/")
}

/// Writes one rank of the placement.
fn format_rank(snapshot: &BoardSnapshot, rank: Rank) -> String {
    let mut text = String::new();
    let mut empty = 0;
    for file in File::ALL {
        let square = Square::from_coords(file, rank);
        match square_letter(snapshot, square) {
            Some(letter) => {
                push_empty_run(&mut text, &mut empty);
                text.push(letter);
            }
            None => empty += 1,
        }
    }
    push_empty_run(&mut text, &mut empty);
    text
}

/// The letter of `square`: its piece, `X` if occupied but unidentified, `None` if empty.
fn square_letter(snapshot: &BoardSnapshot, square: Square) -> Option<char> {
    match snapshot.pieces.piece_at(square) {
        Some(piece) => Some(piece.char()),
        None if snapshot.occupied.contains(square) => Some(UNIDENTIFIED),
        None => None,
    }
}

/// Writes a pending run of empty squares as a digit, and resets it.
fn push_empty_run(text: &mut String, empty: &mut u32) {
    if let Some(digit) = char::from_digit(*empty, 10).filter(|_| *empty > 0) {
        text.push(digit);
    }
    *empty = 0;
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Board, Color};

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";

    #[test]
    fn the_start_position_parses_to_the_start_board() {
        let snapshot = parse_placement(START).expect("valid placement");
        assert_eq!(snapshot, BoardSnapshot::identified(&Board::default()));
    }

    #[test]
    fn x_marks_occupied_unidentified_squares() {
        let snapshot = parse_placement("X7/8/8/8/4P3/8/8/6kX").expect("valid placement");
        let mut occupied = Bitboard::EMPTY;
        occupied.add(Square::A8);
        occupied.add(Square::E4);
        occupied.add(Square::G1);
        occupied.add(Square::H1);
        assert_eq!(snapshot.occupied, occupied);
        assert_eq!(
            snapshot.pieces.piece_at(Square::E4),
            Some(Color::White.pawn())
        );
        assert_eq!(
            snapshot.pieces.piece_at(Square::G1),
            Some(Color::Black.king())
        );
        assert_eq!(snapshot.pieces.piece_at(Square::A8), None);
        assert_eq!(snapshot.pieces.piece_at(Square::H1), None);
        assert_eq!(snapshot.pieces.occupied().count(), 2);
    }

    #[test]
    fn placement_errors_name_the_rank() {
        assert_eq!(
            parse_placement("8/8/8/8/8/8/8"),
            Err(PlacementError::RankCount { found: 7 })
        );
        assert_eq!(
            parse_placement("8/8/8/8/8/8/8/8/8"),
            Err(PlacementError::RankCount { found: 9 })
        );
        assert_eq!(
            parse_placement("8/8/7/8/8/8/8/8"),
            Err(PlacementError::RankWidth {
                rank: 6,
                squares: 7
            })
        );
        assert_eq!(
            parse_placement("8/8/8/8/8/8/8/4PPPPP"),
            Err(PlacementError::RankWidth {
                rank: 1,
                squares: 9
            })
        );
        assert_eq!(
            parse_placement("8/8/8/8/8/8/8/44X"),
            Err(PlacementError::RankWidth {
                rank: 1,
                squares: 9
            })
        );
        assert_eq!(
            parse_placement("8/x7/8/8/8/8/8/8"),
            Err(PlacementError::BadCharacter {
                rank: 7,
                found: 'x'
            })
        );
        assert_eq!(
            parse_placement("8/8/8/8/0PPPPPPPP/8/8/8"),
            Err(PlacementError::BadCharacter {
                rank: 4,
                found: '0'
            })
        );
        assert_eq!(
            parse_placement("8/8/8/8/9/8/8/8"),
            Err(PlacementError::BadCharacter {
                rank: 4,
                found: '9'
            })
        );
    }

    #[test]
    fn formatting_writes_runs_pieces_and_x() {
        let mut snapshot = BoardSnapshot::identified(&Board::default());
        snapshot.pieces.discard_piece_at(Square::E2);
        assert_eq!(
            format_placement(&snapshot),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPXPPP/RNBQKBNR"
        );
        assert_eq!(
            format_placement(&BoardSnapshot::occupancy(Bitboard::EMPTY)),
            "8/8/8/8/8/8/8/8"
        );
    }
}
