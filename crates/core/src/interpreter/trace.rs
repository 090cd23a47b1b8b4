//! What the hands did during one player's turn: which pieces were touched, in which order, and
//! which squares were emptied and filled again. The rulings of Article 4 are read from it once
//! the turn's move is decided.

use shakmaty::{Bitboard, Board, Color, Piece, Square};

use crate::sensor::Millis;

/// One piece touched (lifted) for the first time this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Touch {
    /// The square the piece stood on when the turn began.
    pub square: Square,
    /// The piece.
    pub piece: Piece,
    /// When it was first lifted.
    pub t: Millis,
    /// Lifted right after a j'adoube, or while another piece was in hand (knocked): no touch
    /// if it is put back on its square.
    pub excusable: bool,
    /// Put back on its own square since.
    pub returned: bool,
}

impl Touch {
    /// Whether this touch binds the player under Article 4.
    pub fn counts(&self) -> bool {
        !(self.excusable && self.returned)
    }
}

/// The record of one turn's hand motions.
#[derive(Debug, Clone)]
pub struct Trace {
    start: Board,
    turn: Color,
    touches: Vec<Touch>,
    lifted: Bitboard,
    in_hand: Bitboard,
    hand: u32,
    adjust_armed: bool,
    castle_intent: Option<Square>,
    /// Where and when the king was set down as if to castle.
    castle_intent_at: Option<(Square, Millis)>,
    /// A piece left the board this turn without being seen to (read from a full report): the
    /// touches are not all known.
    unseen: bool,
}

impl Trace {
    /// A new turn on a board that shows `start`.
    pub fn new(start: &Board, turn: Color) -> Trace {
        Trace {
            start: start.clone(),
            turn,
            touches: Vec::new(),
            lifted: Bitboard::EMPTY,
            in_hand: Bitboard::EMPTY,
            hand: 0,
            adjust_armed: false,
            castle_intent: None,
            castle_intent_at: None,
            unseen: false,
        }
    }

    /// Begins a new turn on a board that shows `start`, as [`Trace::new`] does, keeping the
    /// touches' allocation.
    pub fn restart(&mut self, start: &Board, turn: Color) {
        let mut touches = std::mem::take(&mut self.touches);
        touches.clear();
        *self = Trace {
            touches,
            ..Trace::new(start, turn)
        };
    }

    /// A piece left the board this turn unseen (a full report showed it gone).
    pub fn mark_unseen(&mut self) {
        self.unseen = true;
    }

    /// Whether every touch of the turn was seen (else no Article 4 ruling can be made on it).
    pub fn all_seen(&self) -> bool {
        !self.unseen
    }

    /// The touches so far, in order.
    pub fn touches(&self) -> &[Touch] {
        &self.touches
    }

    /// Whether `color` has touched one of its own pieces in a way that binds it.
    pub fn has_binding_touch_of(&self, color: Color) -> bool {
        self.touches
            .iter()
            .any(|touch| touch.counts() && touch.piece.color == color)
    }

    /// The squares, of those the turn began with, whose pieces are off the board now.
    pub fn in_hand(&self) -> Bitboard {
        self.in_hand
    }

    /// Whether no piece is off the board in a hand (lifts and places balance).
    pub fn hand_is_empty(&self) -> bool {
        self.hand == 0
    }

    /// The king's square, when the king was set two squares towards a rook although castling
    /// there was illegal (FIDE 4.4.3).
    pub fn castle_intent(&self) -> Option<Square> {
        self.castle_intent
    }

    /// Where and when the king was set down as if to castle illegally.
    pub fn castle_intent_at(&self) -> Option<(Square, Millis)> {
        self.castle_intent_at
    }

    /// Records that the king on `king` was set down on `to` at `t` as if to castle illegally.
    pub fn note_castle_intent(&mut self, king: Square, to: Square, t: Millis) {
        if self.castle_intent.is_none() {
            self.castle_intent = Some(king);
            self.castle_intent_at = Some((to, t));
        }
    }

    /// The next lift is covered by a j'adoube.
    pub fn arm_adjust(&mut self) {
        self.adjust_armed = true;
    }

    /// Whether `square` held a piece at the start of this turn that has not been lifted yet:
    /// lifting it would be a first touch.
    pub fn is_untouched_origin(&self, square: Square) -> bool {
        self.start.occupied().contains(square) && !self.lifted.contains(square)
    }

    /// Whether a piece that stood on one of `squares` when the turn began has been lifted.
    pub fn lifted_any_of(&self, squares: Bitboard) -> bool {
        self.lifted.intersects(squares)
    }

    /// The piece that stood on `square` when the turn began.
    pub fn origin_piece(&self, square: Square) -> Option<Piece> {
        self.start.piece_at(square)
    }

    /// A piece left `square` at `t`; `touch` says whether it counts as a touch at all (a piece of
    /// the player who just moved, lifted to finish that move, does not).
    pub fn lift(&mut self, square: Square, t: Millis, touch: bool) {
        let simultaneous = self
            .touches
            .iter_mut()
            .rev()
            .find(|other| other.t == t && self.in_hand.contains(other.square));
        // Two pieces lifted at the same instant: either may be the one knocked.
        if let Some(other) = simultaneous {
            other.excusable = true;
        }
        let excusable = std::mem::take(&mut self.adjust_armed) || self.hand > 0;
        self.hand += 1;
        if self.is_untouched_origin(square) {
            self.lifted.add(square);
            self.in_hand.add(square);
            if let (true, Some(piece)) = (touch, self.origin_piece(square)) {
                self.touches.push(Touch {
                    square,
                    piece,
                    t,
                    excusable,
                    returned: false,
                });
            }
        }
    }

    /// The touch of the piece just lifted from `square`, if it is one, may have been a knock:
    /// put back, it binds no one.
    pub fn excuse(&mut self, square: Square) {
        if let Some(touch) = self.touches.iter_mut().rev().find(|t| t.square == square) {
            touch.excusable = true;
        }
    }

    /// Takes over `touches`, made while the previous turn's move was still being decided:
    /// those of pieces that stand where this turn began count as this turn's first touches;
    /// the ones whose squares are in `off_board` are still in hand.
    pub fn adopt(&mut self, touches: &[Touch], off_board: Bitboard) {
        for touch in touches {
            if self.start.piece_at(touch.square) != Some(touch.piece)
                || self.lifted.contains(touch.square)
            {
                continue;
            }
            self.lifted.add(touch.square);
            if off_board.contains(touch.square) {
                self.in_hand.add(touch.square);
                self.hand = self.hand.saturating_add(1);
            }
            self.touches.push(*touch);
        }
    }

    /// A piece arrived on `square`.
    pub fn place(&mut self, square: Square) {
        self.hand = self.hand.saturating_sub(1);
        if self.in_hand.contains(square) {
            self.in_hand.discard(square);
            if let Some(touch) = self.touches.iter_mut().find(|t| t.square == square) {
                touch.returned = true;
            }
        } else if let Some(last) = self.last_in_hand() {
            self.in_hand.discard(last);
        }
    }

    /// The piece most likely set down on a square it did not come from: the mover's piece
    /// lifted last (an opponent's piece in hand is waiting to go back, or is captured).
    fn last_in_hand(&self) -> Option<Square> {
        self.touches
            .iter()
            .rev()
            .filter(|t| t.piece.color == self.turn)
            .map(|t| t.square)
            .find(|sq| self.in_hand.contains(*sq))
    }

    /// Binds the turn to the piece that stood on `square` (after a completed illegal move,
    /// FIDE 7.5.1: the replacement move is bound by 4.3 to the piece that was moved).
    pub fn bind(&mut self, square: Square, t: Millis) {
        if let Some(piece) = self.origin_piece(square) {
            self.lifted.add(square);
            self.touches.push(Touch {
                square,
                piece,
                t,
                excusable: false,
                returned: false,
            });
        }
    }

    /// Forgets the touches after the first `len` (they belonged to the next turn).
    pub fn truncate_touches(&mut self, len: usize) {
        self.touches.truncate(len);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_lifted_and_put_back_is_a_binding_touch() {
        let mut trace = Trace::new(&Board::new(), Color::White);
        trace.lift(Square::D2, 10, true);
        trace.place(Square::D2);
        assert_eq!(trace.touches().len(), 1);
        assert!(trace.touches()[0].counts());
        assert!(trace.hand_is_empty());
    }

    #[test]
    fn a_piece_knocked_while_another_is_in_hand_and_put_back_is_no_touch() {
        let mut trace = Trace::new(&Board::new(), Color::White);
        trace.lift(Square::G1, 10, true);
        trace.lift(Square::H2, 20, true);
        trace.place(Square::H2);
        trace.place(Square::F3);
        assert!(trace.touches()[0].counts());
        assert!(!trace.touches()[1].counts());
    }

    #[test]
    fn adjust_covers_the_next_lift_only() {
        let mut trace = Trace::new(&Board::new(), Color::White);
        trace.arm_adjust();
        trace.lift(Square::D2, 10, true);
        trace.place(Square::D2);
        trace.lift(Square::E2, 30, true);
        trace.place(Square::E2);
        assert!(!trace.touches()[0].counts());
        assert!(trace.touches()[1].counts());
    }
}
