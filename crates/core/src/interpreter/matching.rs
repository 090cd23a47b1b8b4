//! What the board shows, compared with what the game expects: the current position, a legal
//! move from it, a correction of the last move, an earlier position, or one displaced piece.

use shakmaty::{Bitboard, Chess, Move, Position, Role, Square};

use super::Interpreter;
use super::geometry::{landing_square, landing_squares};
use super::legal::LegalMoves;

/// How the board relates to the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Relation {
    /// The board shows the current position.
    Current,
    /// The board shows the current position after this legal move.
    Next(Move),
    /// The board shows the previous position after this move instead of the last one.
    Correction(Move),
    /// The board shows the position this many plies back.
    Earlier(usize),
    /// The board shows the reply to a move it showed a moment ago (that move, then this one).
    AfterLeft(Move),
    /// None of these.
    Unmatched,
}

impl Interpreter {
    /// Compares the board with every position the game could be in now.
    pub(super) fn relate(&self) -> Relation {
        let position = self.game.position();
        if self.sensed.board.shows(position.board()) {
            return Relation::Current;
        }
        if let Some(m) = self.matching_move(position, &self.turn.legal, self.turn.start_seq) {
            return Relation::Next(m);
        }
        if let Some(m) = self.matching_correction() {
            return Relation::Correction(m);
        }
        // A reply to the move the board showed a moment ago is that: in a repetition it may
        // also show a position some plies back, which taking them back would reach the other
        // way round (the last moved first).
        if let Some(m) = self.matching_reply_to_left() {
            return Relation::AfterLeft(m);
        }
        if let Some(plies) = self.matching_earlier() {
            return Relation::Earlier(plies);
        }
        Relation::Unmatched
    }

    /// The legal move from `position` that the board shows, if one does. On an
    /// occupancy-only board a capture also needs its victim square emptied and filled again
    /// after order number `since`, and an unidentified promotion piece is reported as a queen
    /// (the choice is resolved when the move is decided).
    pub(super) fn matching_move(
        &self,
        position: &Chess,
        legal: &LegalMoves,
        since: u32,
    ) -> Option<Move> {
        let diff = self.sensed.board.occupied() ^ position.board().occupied();
        // The same squares occupied: only a Chess960 castling that transposes the king and its
        // rook (its footprint is empty) can show it, on a board that names the pieces.
        if diff.is_empty() && self.sensed.board.differences(position.board()).is_empty() {
            return None;
        }
        let mut best: Option<(Move, u32)> = None;
        for m in legal.with_footprint(diff) {
            if !self.fits(position, m, since) {
                continue;
            }
            // The move whose piece came to rest last; a castling's last is its king's or its
            // rook's (in Chess960 the king's part alone may be a king move made a moment before).
            let order = landing_squares(m)
                .into_iter()
                .map(|square| self.sensed.motions.placed_at(square))
                .max()
                .unwrap_or_else(|| self.sensed.motions.placed_at(landing_square(m)));
            if best.is_none_or(|(_, best_order)| order > best_order) {
                best = Some((m, order));
            }
        }
        best.map(|(m, _)| m)
    }

    /// Whether the board's evidence supports `m`, beyond its occupancy.
    fn fits(&self, position: &Chess, m: Move, since: u32) -> bool {
        if let Move::Normal {
            from,
            to,
            capture: Some(_),
            promotion,
            ..
        } = m
        {
            // A promotion's new piece comes from off the board, not from `from`: it may be set
            // down before the pawn is lifted.
            let mover = if promotion.is_some() { to } else { from };
            let identified = self.sensed.board.identified_at(to).is_some();
            if !identified && !self.sensed.motions.captured_on(to, mover, since) {
                return false;
            }
        }
        if let Move::Normal {
            to,
            promotion: Some(role),
            ..
        } = m
            && self.sensed.board.identified_at(to).is_none()
            && role != Role::Queen
        {
            return false;
        }
        let after = self.sensed.board.identified_any().then(|| {
            let mut after = position.clone();
            after.play_unchecked(m);
            after
        });
        after.is_none_or(|after| self.sensed.board.shows(after.board()))
    }

    /// A different move from the previous position, while the player to move has not touched
    /// one of his own pieces and a piece of the previous mover has been lifted since (or, on a
    /// board that samples occupancy, the last move's piece set down elsewhere from the hand):
    /// the last move being corrected.
    fn matching_correction(&self) -> Option<Move> {
        let previous = self.previous.as_ref()?;
        if self.turn.trace.has_binding_touch_of(self.game.turn()) {
            return None;
        }
        let before_last = self.game.earlier(1)?;
        let last = self.game.last_move()?;
        let m = self
            .matching_move(before_last, &previous.legal, previous.start_seq)
            .filter(|m| *m != last)?;
        let moved_on = self.turn.trace.lifted_any_of(self.game.position().them());
        (moved_on || self.landed_from_hand(last, m)).then_some(m)
    }

    /// Whether `m`, from the previous position, shows where the piece of the last move really
    /// went, on a board that samples occupancy: the piece, in hand between frames, lands
    /// elsewhere, the last move's landing square never left since. A piece knocked off and put
    /// back beside a piece in hand shows that piece's capture of it; a knock beside it may also
    /// be caught up as its move and a reply under way. (A quiet move seen made would have to
    /// leave its square to show `m`.) A piece set down where the side to move may promote may
    /// be its new piece instead, set down before the pawn is lifted.
    fn landed_from_hand(&self, last: Move, m: Move) -> bool {
        self.samples_occupancy()
            && m.from() == last.from()
            && !self.may_be_promotion_piece(landing_square(m))
            && !self
                .turn
                .trace
                .lifted_any_of(shakmaty::Bitboard::from_square(landing_square(last)))
    }

    /// Whether a piece set down on `square` may be the new piece of the side to move's
    /// promotion there, set down before its pawn is lifted.
    pub(super) fn may_be_promotion_piece(&self, square: Square) -> bool {
        self.turn
            .legal
            .moves()
            .iter()
            .any(|m| m.promotion().is_some() && m.to() == square)
    }

    /// How many plies back the position is that the board shows, if it is an earlier one. One
    /// of the mover's pieces set on an illegal square may recreate a position of a repetition
    /// several plies back: that is an illegal placement, not a takeback of several plies.
    pub(super) fn matching_earlier(&self) -> Option<usize> {
        // Taking the last move back means lifting the piece it moved; without that evidence an
        // occupancy-only board may only look like an earlier position (a promotion's new piece
        // set down on a square the last move emptied).
        let last = self.game.last_move()?;
        if !self
            .sensed
            .motions
            .lifted_since(landing_square(last), self.turn.start_seq)
        {
            return None;
        }
        let on_board = self.sensed.board.occupied().count();
        for plies in 1..=self.game.plies() {
            let position = self.game.earlier(plies)?;
            let count = position.board().occupied().count();
            if count > on_board {
                return None;
            }
            if count == on_board && self.sensed.board.shows(position.board()) {
                return (plies == 1 || self.displacement().is_none()).then_some(plies);
            }
        }
        None
    }

    /// A reply to the move the board showed a moment ago, while the moved piece is still where
    /// that move put it.
    fn matching_reply_to_left(&self) -> Option<Move> {
        let left = self.turn.left_candidate?;
        if !self
            .sensed
            .board
            .occupied()
            .contains(landing_square(left.m))
        {
            return None;
        }
        let mut after = if left.correction {
            self.game.earlier(1)?.clone()
        } else {
            self.game.position().clone()
        };
        after.play_unchecked(left.m);
        let legal = LegalMoves::of(&after);
        self.matching_move(&after, &legal, self.turn.start_seq)
            .map(|_| left.m)
    }

    /// One of the mover's pieces moved from `from` to `to`, where no legal move takes it, and
    /// nothing else differs: an illegal placement (not yet an illegal move).
    pub(super) fn displacement(&self) -> Option<(Square, Square)> {
        let position = self.game.position();
        let expected = position.board().occupied();
        let actual = self.sensed.board.occupied();
        let from = (expected & !actual).single_square()?;
        let piece = position.board().piece_at(from)?;
        if piece.color != position.turn() {
            return None;
        }
        let extra = actual & !expected;
        let to = if extra.is_empty() {
            self.displaced_onto_opponent(position, from)?
        } else {
            extra.single_square()?
        };
        let identified = self.sensed.board.identified_at(to);
        identified.is_none_or(|p| p == piece).then_some((from, to))
    }

    /// The opponent's square the piece from `from` was set down on, its occupant removed.
    fn displaced_onto_opponent(&self, position: &Chess, from: Square) -> Option<Square> {
        let mover = position.turn();
        (position.board().by_color(!mover) & self.sensed.board.occupied())
            .into_iter()
            .filter(|&sq| {
                let identified = self.sensed.board.identified_at(sq).map(|p| p.color);
                identified == Some(mover)
                    || (identified.is_none()
                        && self
                            .sensed
                            .motions
                            .captured_on(sq, from, self.turn.start_seq))
            })
            .max_by_key(|&sq| self.sensed.motions.placed_at(sq))
    }

    /// Whether the board can be a move in progress: pieces off the board (in hand), and at most
    /// one piece set down where the position has none, every missing opponent piece being one
    /// the mover's lifted pieces could legally capture. A wrong piece on a square is not.
    pub(super) fn in_progress(&self) -> bool {
        if self.castling_under_way() {
            return true;
        }
        let position = self.game.position();
        let expected = position.board();
        let missing = expected.occupied() & !self.sensed.board.occupied();
        let extra = self.sensed.board.occupied() & !expected.occupied();
        let misidentified = self.sensed.board.differences(expected) & expected.occupied();
        let wrong = (misidentified & self.sensed.board.occupied())
            .into_iter()
            .any(|square| !self.promotion_piece_first(square));
        if wrong || extra.more_than_one() {
            return false;
        }
        if extra.is_empty() {
            return true;
        }
        let lifted_own = missing & position.us();
        (missing & position.them()).into_iter().all(|victim| {
            self.turn.legal.moves().iter().any(|&m| {
                m.from().is_some_and(|from| lifted_own.contains(from))
                    && super::geometry::capture_square(m) == Some(victim)
            })
        })
    }

    /// Whether the board can be a castling under way: the position after a legal castling, but
    /// for its king or its rook (or both) still in hand. In Chess960 the rook may already stand
    /// where the king stood (a transposition, or the Guidelines' recommended way, II.3.2.5.1:
    /// the king off the board, the rook to its square, then the king to its own), which no
    /// single legal move explains.
    fn castling_under_way(&self) -> bool {
        let position = self.game.position();
        self.turn.legal.moves().iter().any(|&m| {
            let Move::Castle { king, rook } = m else {
                return false;
            };
            let (king_to, rook_to) = super::geometry::castling_targets(king, rook);
            let mut after = position.clone();
            after.play_unchecked(m);
            let expected = after.board();
            let sensed = &self.sensed.board;
            let missing = expected.occupied() & !sensed.occupied();
            let extra = sensed.occupied() & !expected.occupied();
            let wrong = sensed.differences(expected) & sensed.occupied();
            let in_hand = Bitboard::from(king_to) | Bitboard::from(rook_to);
            extra.is_empty()
                && wrong.is_empty()
                && !missing.is_empty()
                && (missing & !in_hand).is_empty()
        })
    }

    /// Whether the piece identified on `square` can be a promotion's new piece set down before
    /// the pawn is lifted (FIDE 4.6 allows either order), over the piece it captures: one of the
    /// mover's pieces a pawn may promote to, on a square a legal capture-promotion reaches.
    fn promotion_piece_first(&self, square: Square) -> bool {
        let Some(piece) = self.sensed.board.identified_at(square) else {
            return false;
        };
        piece.color == self.game.turn()
            && self.turn.legal.moves().iter().any(|m| {
                matches!(*m, Move::Normal { to, capture: Some(_), promotion: Some(role), .. }
                    if to == square && role == piece.role)
            })
    }

    /// The squares where the board differs from the nearest expected position (the current
    /// one or one legal move on).
    pub(super) fn differences_from_nearest(&self) -> Vec<Square> {
        let position = self.game.position();
        let mut nearest: Bitboard = self.sensed.board.differences(position.board());
        for &m in self.turn.legal.moves() {
            let mut after = position.clone();
            after.play_unchecked(m);
            let diff = self.sensed.board.differences(after.board());
            if diff.count() < nearest.count() {
                nearest = diff;
            }
        }
        nearest.into_iter().collect()
    }
}
