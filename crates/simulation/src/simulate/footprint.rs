//! The simulator's own reading of a move's footprint: where its victim stands, and whether the
//! moved piece could have gone further. Written apart from the interpreter's geometry, from
//! shakmaty's legal moves only, so that a mistake there is not copied into the expectations
//! the interpreter is judged by.

use shakmaty::{Chess, File, Move, Position, Rank, Square};

/// The square of the piece `m` takes, if it takes one (en passant: the pawn beside the target).
pub fn victim(m: Move) -> Option<Square> {
    match m {
        Move::Normal {
            capture: Some(_),
            to,
            ..
        } => Some(to),
        Move::EnPassant { from, to } => Some(Square::from_coords(to.file(), from.rank())),
        _ => None,
    }
}

/// Whether the piece on `from` can legally take the piece on `target` in `pos`.
pub fn takes(pos: &Chess, from: Square, target: Square) -> bool {
    pos.legal_moves()
        .iter()
        .any(|&m| m.from() == Some(from) && victim(m) == Some(target))
}

/// Whether the piece that quiet move `m` (legal in `pos`) moved could have gone on: one more
/// step along its line is a legal move of the same piece (a slider, a pawn's first step, a king
/// stepping towards its castling square), or the move is a rook's part of a legal castling.
pub fn could_go_further(pos: &Chess, m: Move) -> bool {
    let Move::Normal {
        from,
        to,
        capture: None,
        promotion: None,
        ..
    } = m
    else {
        return false;
    };
    let beyond = one_step_beyond(from, to);
    let color = pos.turn();
    pos.legal_moves().iter().any(|&other| match other {
        Move::Normal {
            from: start,
            to: target,
            ..
        } => start == from && Some(target) == beyond,
        Move::Castle { king, rook } => other.castling_side().is_some_and(|side| {
            (king == from && Some(side.king_to(color)) == beyond)
                || (rook == from && side.rook_to(color) == to)
        }),
        _ => false,
    })
}

/// The square one step past `to` on the line from `from` (none off the board, or when the two
/// are not on one rank, file or diagonal).
fn one_step_beyond(from: Square, to: Square) -> Option<Square> {
    let files = i32::from(to.file() as u8) - i32::from(from.file() as u8);
    let ranks = i32::from(to.rank() as u8) - i32::from(from.rank() as u8);
    let on_line = files == 0 || ranks == 0 || files.abs() == ranks.abs();
    if !on_line {
        return None;
    }
    let file: File = to.file().offset(files.signum())?;
    let rank: Rank = to.rank().offset(ranks.signum())?;
    Some(Square::from_coords(file, rank))
}

#[cfg(test)]
mod tests {
    use super::*;
    use touchmove_core::testutil::{position, uci_move};

    fn further(fen: &str, uci: &str) -> bool {
        let pos = position(fen);
        could_go_further(&pos, uci_move(&pos, uci))
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn a_first_pawn_step_and_a_slider_with_room_could_go_on() {
        assert!(further(START, "e2e3"), "e2-e3 could have been e2-e4");
        assert!(!further(START, "e2e4"));
        assert!(!further(START, "g1f3"), "a knight goes nowhere further");
        let open = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1";
        assert!(further(open, "a1a4"), "the rook could go on to a5");
        assert!(
            !further("4k3/R7/8/8/8/8/8/4K3 w - - 0 1", "a7a8"),
            "the edge"
        );
    }

    #[test]
    fn a_king_step_or_a_rook_move_could_become_castling() {
        let castle = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1";
        assert!(further(castle, "e1f1"), "e1-f1 could have been O-O");
        assert!(further(castle, "h1f1"), "the rook's part of O-O");
        assert!(further(castle, "a1d1"), "the rook's part of O-O-O");
        // Without the right to castle, h1-f1 is done: beyond f1 stands the king.
        assert!(!further("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "h1f1"));
    }

    #[test]
    fn the_victim_of_en_passant_stands_beside_the_target() {
        let pos = position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        let m = uci_move(&pos, "e5d6");
        assert_eq!(victim(m), Some(Square::D5));
        assert!(takes(&pos, Square::E5, Square::D5));
        assert!(!takes(&pos, Square::E1, Square::D5));
    }
}
