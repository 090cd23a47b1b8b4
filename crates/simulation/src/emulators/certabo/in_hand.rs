//! What each side holds, lifted from the board and not set down again: a piece set down that
//! nothing its side holds matches came from off the board, a promotion's new piece (the
//! player then types it at the host: a Sentio board cannot tell it).

use shakmaty::{ByColor, Piece, Role, Square};

/// The pieces each side lifted from the board and has not set down again, with the squares
/// they were lifted from.
#[derive(Debug, Clone, Default)]
pub(super) struct InHand {
    /// Where each was lifted from, and its role, by side.
    held: ByColor<Vec<(Square, Role)>>,
}

impl InHand {
    /// `piece` was lifted from `square`.
    pub(super) fn lifted(&mut self, square: Square, piece: Piece) {
        self.held.get_mut(piece.color).push((square, piece.role));
    }

    /// `piece` was set down on `square`: whether it came from off the board, its side holding
    /// none such (a promotion's new piece). A piece of the other side lifted from that square
    /// was captured there: it is off the board for good.
    pub(super) fn set_down(&mut self, square: Square, piece: Piece) -> bool {
        self.held
            .get_mut(!piece.color)
            .retain(|&(lifted_from, _)| lifted_from != square);
        let held = self.held.get_mut(piece.color);
        match held.iter().rposition(|&(_, role)| role == piece.role) {
            Some(at) => {
                held.remove(at);
                false
            }
            None => piece.role != Role::Pawn,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Color;

    fn piece(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    #[test]
    fn a_piece_set_down_as_it_was_lifted_moved_and_one_from_off_the_board_is_a_promotion_s() {
        let (white, black) = (Color::White, Color::Black);
        let mut hand = InHand::default();
        // A bishop moved; the queen moved, a pawn of each side knocked off and put back
        // meanwhile.
        hand.lifted(Square::C1, piece(white, Role::Bishop));
        assert!(!hand.set_down(Square::F4, piece(white, Role::Bishop)));
        hand.lifted(Square::D1, piece(white, Role::Queen));
        hand.lifted(Square::G7, piece(black, Role::Bishop));
        hand.lifted(Square::E4, piece(white, Role::King));
        assert!(!hand.set_down(Square::E4, piece(white, Role::King)));
        assert!(!hand.set_down(Square::G7, piece(black, Role::Bishop)));
        assert!(!hand.set_down(Square::D3, piece(white, Role::Queen)));
        // Black's bishop takes White's on a1: White's is off the board for good.
        hand.lifted(Square::A1, piece(white, Role::Bishop));
        hand.lifted(Square::B2, piece(black, Role::Bishop));
        assert!(!hand.set_down(Square::A1, piece(black, Role::Bishop)));
        // A white bishop set down from off the board, the pawn still on the seventh rank: a
        // promotion's (FIDE 4.6 c), not the captured one.
        hand.lifted(Square::D8, piece(black, Role::Rook));
        assert!(hand.set_down(Square::D8, piece(white, Role::Bishop)));
        // The pawn placed on the last rank, lifted, and a knight set down (4.6 a).
        hand.lifted(Square::E7, piece(white, Role::Pawn));
        assert!(!hand.set_down(Square::E8, piece(white, Role::Pawn)));
        hand.lifted(Square::E8, piece(white, Role::Pawn));
        assert!(hand.set_down(Square::E8, piece(white, Role::Knight)));
    }
}
