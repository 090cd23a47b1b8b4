//! What a legal move looks like to a sensor board: which squares change, where the victim
//! stands, and whether the move could still grow into a longer one.
//!
//! Legality itself is `shakmaty`'s; this only describes the physical footprint of its moves.

use shakmaty::attacks::between;
use shakmaty::{Bitboard, CastlingSide, Color, Move, Rank, Role, Square};

/// The squares whose occupancy a move changes (emptied or filled). Inlined, with the normal
/// move first and without a branch on its capture: this runs for every legal move of every turn.
#[inline]
pub fn occupancy_delta(m: Move) -> Bitboard {
    if let Move::Normal {
        from, to, capture, ..
    } = m
    {
        return normal_delta(from, to, capture.is_none());
    }
    special_delta(m)
}

/// The squares a normal move from `from` to `to` changes: `to` too when it `fills` it (the
/// move captures nothing there).
#[inline]
fn normal_delta(from: Square, to: Square, fills: bool) -> Bitboard {
    let filled = Bitboard::from(to).0 & u64::from(fills).wrapping_neg();
    Bitboard::from(from) | Bitboard(filled)
}

/// [`occupancy_delta`] of any move, the normal ones taken the slow way.
fn special_delta(m: Move) -> Bitboard {
    match m {
        Move::Normal {
            from, to, capture, ..
        } => normal_delta(from, to, capture.is_none()),
        Move::EnPassant { from, to } => {
            Bitboard::from(from) | Bitboard::from(to) | Bitboard::from(en_passant_victim(from, to))
        }
        Move::Castle { king, rook } => {
            let (king_to, rook_to) = castling_targets(king, rook);
            (Bitboard::from(king) | Bitboard::from(rook))
                ^ (Bitboard::from(king_to) | Bitboard::from(rook_to))
        }
        Move::Put { to, .. } => Bitboard::from(to),
    }
}

/// The square of the piece a move captures, if it captures.
pub fn capture_square(m: Move) -> Option<Square> {
    match m {
        Move::Normal {
            capture: Some(_),
            to,
            ..
        } => Some(to),
        Move::EnPassant { from, to } => Some(en_passant_victim(from, to)),
        _ => None,
    }
}

/// Whether one of `legal` takes the piece on `victim` with the piece on `from`.
pub fn can_capture(legal: &[Move], from: Square, victim: Square) -> bool {
    legal
        .iter()
        .any(|&m| m.from() == Some(from) && capture_square(m) == Some(victim))
}

/// Where the moving piece comes to rest: the target square, or the king's square for castling.
pub fn landing_square(m: Move) -> Square {
    match m {
        Move::Castle { king, rook } => castling_targets(king, rook).0,
        other => other.to(),
    }
}

/// The squares the mover's pieces stand on after the move (the king and rook for castling).
pub fn landing_squares(m: Move) -> Bitboard {
    match m {
        Move::Castle { king, rook } => {
            let (king_to, rook_to) = castling_targets(king, rook);
            Bitboard::from(king_to) | Bitboard::from(rook_to)
        }
        other => Bitboard::from(other.to()),
    }
}

/// The square of the pawn taken en passant by a pawn moving `from` → `to`.
pub fn en_passant_victim(from: Square, to: Square) -> Square {
    Square::from_coords(to.file(), from.rank())
}

/// The king's and the rook's squares after castling with the king on `king` and the rook on
/// `rook` (standard chess).
pub fn castling_targets(king: Square, rook: Square) -> (Square, Square) {
    let side = CastlingSide::from_king_side(king < rook);
    let color = if king.rank() == Rank::First {
        Color::White
    } else {
        Color::Black
    };
    (side.king_to(color), side.rook_to(color))
}

/// Whether the board could still show a different legal move by the same piece, grown from
/// `m`: a pawn or slider that may go further along its line, a king step towards a rook it may
/// castle with, or a rook on the square castling would put it on. `legal` is the position's
/// legal moves, or those of them whose footprint holds `m`'s square of departure (no other can
/// be a growth of `m`).
pub fn can_grow(m: Move, legal: impl IntoIterator<Item = Move>) -> bool {
    let Move::Normal {
        role,
        from,
        to,
        capture: None,
        promotion: None,
    } = m
    else {
        return false;
    };
    legal.into_iter().any(|other| {
        if other.from() == Some(from) && other != m {
            between(from, landing_square(other)).contains(to)
        } else if let (Role::Rook, Move::Castle { king, rook }) = (role, other) {
            rook == from && castling_targets(king, rook).1 == to
        } else {
            false
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{position, uci_move as mv};

    use shakmaty::{Chess, Position};

    fn grows(pos: &Chess, uci: &str) -> bool {
        can_grow(mv(pos, uci), pos.legal_moves())
    }

    #[test]
    fn castling_changes_four_squares() {
        let pos = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let delta = occupancy_delta(mv(&pos, "e1g1"));
        let expected = Bitboard::from(Square::E1)
            | Bitboard::from(Square::F1)
            | Bitboard::from(Square::G1)
            | Bitboard::from(Square::H1);
        assert_eq!(delta, expected);
        let long = occupancy_delta(mv(&pos, "e1c1"));
        assert_eq!(long.count(), 4);
        assert!(long.contains(Square::A1) && long.contains(Square::D1));
    }

    #[test]
    fn en_passant_empties_the_victim_square() {
        let pos = position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
        let m = mv(&pos, "e5d6");
        assert_eq!(capture_square(m), Some(Square::D5));
        assert_eq!(occupancy_delta(m).count(), 3);
    }

    #[test]
    fn which_moves_can_grow() {
        let start = Chess::default();
        assert!(
            grows(&start, "e2e3"),
            "a pawn step may become a double step"
        );
        assert!(!grows(&start, "e2e4"), "a double step cannot grow");
        assert!(!grows(&start, "g1f3"), "a knight move cannot grow");
        let open = position("4k3/8/8/8/8/8/8/R3K2R w K - 0 1");
        assert!(
            grows(&open, "e1f1"),
            "a king step towards a rook it may castle with"
        );
        assert!(!grows(&open, "e1d1"), "no castling on the queen side");
        assert!(grows(&open, "h1f1"), "castling could still follow the rook");
        assert!(grows(&open, "a1b1"), "the rook's line goes on");
        assert!(!grows(&open, "a1a8"), "stopped by the board's edge");
        assert!(!grows(&open, "a1d1"), "stopped by its own king");
        let capture = position("4k3/8/8/6p1/8/8/8/2B1K3 w - - 0 1");
        assert!(grows(&capture, "c1e3"), "the line goes on to a capture");
        assert!(!grows(&capture, "c1g5"), "a capture cannot grow");
    }
}
