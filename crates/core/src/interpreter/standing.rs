//! Where the record stood: its board and the side to move, compared with a position to tell
//! whether what was kept from there still applies (the record has not moved since).

use shakmaty::{Board, Chess, Color, Position};

/// The record's board and side to move at one time (its castling rights and clocks aside: a
/// move changes the board or the side to move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Standing {
    board: Board,
    turn: Color,
}

impl Standing {
    /// Where `position` stands.
    pub(super) fn of(position: &Chess) -> Standing {
        Standing {
            board: position.board().clone(),
            turn: position.turn(),
        }
    }

    /// Whether `position` stands here.
    pub(super) fn is(&self, position: &Chess) -> bool {
        self.board == *position.board() && self.turn == position.turn()
    }
}

/// Whether `standing`, if any, is where `position` stands.
pub(super) fn stands_at(standing: Option<&Standing>, position: &Chess) -> bool {
    standing.is_some_and(|standing| standing.is(position))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{position, uci_move};

    #[test]
    fn a_position_stands_where_it_was_taken_and_not_after_a_move() {
        let start = Chess::default();
        let standing = Standing::of(&start);
        assert!(standing.is(&start));
        assert!(stands_at(Some(&standing), &start));
        assert!(!stands_at(None, &start));
        let mut moved = start.clone();
        moved.play_unchecked(uci_move(&start, "g1f3"));
        assert!(!standing.is(&moved));
    }

    #[test]
    fn the_side_to_move_tells_two_positions_on_one_board_apart() {
        let white = position("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        let black = position("4k3/8/8/8/8/8/8/4K3 b - - 0 1");
        assert!(!Standing::of(&white).is(&black));
    }
}
