//! Hands that answer the lights asking where a piece went: a host that cannot tell where the
//! piece of a move went (a sampling board showed its square emptied, nothing more) lights the
//! square it left and those it may stand on; a person looking at the board lifts the piece
//! where they set it down and sets it back.

use shakmaty::{Bitboard, Board, Piece, Square};

use super::super::chesslink::Change;
use touchmove_core::sensor::Millis;

/// How long a person answering the lights holds the piece before setting it back, in ms of
/// script time: longer than two frames, so that one shows it lifted.
pub const ANSWER_HOLD_MS: Millis = 600;

/// How long a person pauses after setting the piece back before the hands go on, in ms of
/// script time.
pub const ANSWER_PAUSE_MS: Millis = 500;

/// What the answering hands know of their own moves, and the question they see lit.
#[derive(Debug, Clone)]
pub(super) struct Answering {
    /// How long a question stays lit before it is answered, in ms of emulator time.
    after: Millis,
    /// The squares pieces were lifted from since one was last set down.
    lifted: Vec<Square>,
    /// The hands' last move: the square its piece left, the square it was set down on, and the
    /// piece.
    last_move: Option<(Square, Square, Piece)>,
    /// Whether the hands' last change set a piece down.
    set_down_last: bool,
    /// The question lit, and when it is answered.
    asked: Option<(Millis, Bitboard)>,
    /// The lights last answered (not answered twice).
    answered: Bitboard,
}

impl Answering {
    /// Hands that answer a question once it has been lit for `after` ms (emulator time).
    pub(super) fn new(after: Millis) -> Answering {
        Answering {
            after,
            lifted: Vec::new(),
            last_move: None,
            set_down_last: false,
            asked: None,
            answered: Bitboard::EMPTY,
        }
    }

    /// The hands set `piece` down on `square`, or lifted the piece there (`None`). A piece set
    /// down and picked up again at once (slid across a square) goes on with its move: it left
    /// where that move began.
    pub(super) fn changed(&mut self, square: Square, piece: Option<Piece>) {
        let set_down_before = std::mem::replace(&mut self.set_down_last, piece.is_some());
        match piece {
            Some(piece) => {
                let left = self.lifted.iter().find(|&&lifted| lifted != square);
                self.last_move = left.map(|&from| (from, square, piece));
                self.lifted.clear();
            }
            None => {
                let again = self.last_move.filter(|&(_, to, _)| {
                    set_down_before && to == square && self.lifted.is_empty()
                });
                self.lifted.push(again.map_or(square, |(from, _, _)| from));
            }
        }
    }

    /// The hands look at the lights, `lit`, at `now`, the board standing as `board` shows: a
    /// question (the squares of their last move lit, the square it left empty, its piece where
    /// they set it down) not answered yet is answered after its time, unless a piece is in hand
    /// meanwhile (the next move begun).
    pub(super) fn heed(&mut self, now: Millis, lit: Bitboard, board: &Board) {
        let question = self.lifted.is_empty()
            && self.last_move.is_some_and(|(from, to, piece)| {
                lit.contains(from)
                    && lit.contains(to)
                    && board.piece_at(from).is_none()
                    && board.piece_at(to) == Some(piece)
            });
        if !question || lit == self.answered {
            self.asked = None;
        } else if self.asked.is_none_or(|(_, asked)| asked != lit) {
            self.asked = Some((now.saturating_add(self.after), lit));
        }
    }

    /// The lights went out with the board (unplugged): nothing is asked.
    pub(super) fn lights_out(&mut self) {
        self.asked = None;
    }

    /// When a question lit is answered, if one is.
    pub(super) fn due(&self) -> Option<Millis> {
        self.asked.map(|(at, _)| at)
    }

    /// The question lit is answered, the board standing as `board` shows: the piece of the
    /// hands' last move lifted, if it still stands where they set it down, and set back
    /// [`ANSWER_HOLD_MS`] later (script time from the answer).
    pub(super) fn answer(&mut self, board: &Board) -> Option<[Change; 2]> {
        let (_, lit) = self.asked.take()?;
        self.answered = lit;
        let (_, square, piece) = self
            .last_move
            .filter(|&(_, to, piece)| board.piece_at(to) == Some(piece))?;
        let lifted = Change {
            t: 0,
            square,
            piece: None,
        };
        let set_back = Change {
            t: ANSWER_HOLD_MS,
            square,
            piece: Some(piece),
        };
        Some([lifted, set_back])
    }
}
