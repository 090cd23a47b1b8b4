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

/// How many of the hands' last moves they answer for: each side's last (a question about a
/// move may be lit after the reply to it was made).
const MOVES_ANSWERED: usize = 2;

/// One of the hands' moves: the square its piece left, the square it was set down on, and the
/// piece.
type HandMove = (Square, Square, Piece);

/// What the answering hands know of their own moves, and the question they see lit.
#[derive(Debug, Clone)]
pub(super) struct Answering {
    /// How long a question stays lit before it is answered, in ms of emulator time.
    after: Millis,
    /// The squares pieces were lifted from since one was last set down, and those pieces.
    lifted: Vec<(Square, Option<Piece>)>,
    /// The hands' last moves, the last one last (at most [`MOVES_ANSWERED`]).
    moves: Vec<HandMove>,
    /// Whether the hands' last change set a piece down.
    set_down_last: bool,
    /// The question lit, when it is answered, and the move it asks about.
    asked: Option<(Millis, Bitboard, HandMove)>,
    /// The lights last answered (not answered twice).
    answered: Bitboard,
}

impl Answering {
    /// Hands that answer a question once it has been lit for `after` ms (emulator time).
    pub(super) fn new(after: Millis) -> Answering {
        Answering {
            after,
            lifted: Vec::new(),
            moves: Vec::with_capacity(MOVES_ANSWERED),
            set_down_last: false,
            asked: None,
            answered: Bitboard::EMPTY,
        }
    }

    /// The hands set `piece` down on `square`, or lifted the piece there, `standing` (`piece`
    /// `None`). A piece set down where it was lifted from (knocked off and put back, or a move
    /// given up) moves nothing. A piece set down and picked up again at once (slid across a
    /// square) goes on with its move: it left where that move began. A capture's victim may
    /// be lifted first: the move left where its own piece was lifted.
    pub(super) fn changed(
        &mut self,
        square: Square,
        standing: Option<Piece>,
        piece: Option<Piece>,
    ) {
        let set_down_before = std::mem::replace(&mut self.set_down_last, piece.is_some());
        match piece {
            Some(piece) => {
                let put_back = self
                    .lifted
                    .iter()
                    .rposition(|&lifted| lifted == (square, Some(piece)));
                if let Some(at) = put_back {
                    self.lifted.remove(at);
                    return;
                }
                // The piece's own square, when it was lifted after its victim; else the first
                // lifted (a promotion's new piece came from off the board).
                let elsewhere = |&&(lifted, _): &&(Square, Option<Piece>)| lifted != square;
                let from = self
                    .lifted
                    .iter()
                    .filter(elsewhere)
                    .find(|&&(_, held)| held == Some(piece))
                    .or_else(|| self.lifted.iter().find(elsewhere));
                if let Some(&(from, _)) = from {
                    if self.moves.len() >= MOVES_ANSWERED {
                        self.moves.remove(0);
                    }
                    self.moves.push((from, square, piece));
                }
                self.lifted.clear();
            }
            None => {
                let again = self.moves.last().copied().filter(|&(_, to, _)| {
                    set_down_before && to == square && self.lifted.is_empty()
                });
                if again.is_some() {
                    self.moves.pop();
                }
                self.lifted.push(match again {
                    Some((from, _, moved)) => (from, Some(moved)),
                    None => (square, standing),
                });
            }
        }
    }

    /// The hands look at the lights, `lit`, at `now`, the board standing as `board` shows: a
    /// question (the squares of one of their last moves lit, the square it left empty, its
    /// piece where they set it down) not answered yet is answered after its time, unless a
    /// piece is in hand meanwhile (the next move begun).
    pub(super) fn heed(&mut self, now: Millis, lit: Bitboard, board: &Board) {
        let asked_about = self.moves.iter().rev().copied().find(|&(from, to, piece)| {
            lit.contains(from)
                && lit.contains(to)
                && board.piece_at(from).is_none()
                && board.piece_at(to) == Some(piece)
        });
        let question = asked_about.filter(|_| self.lifted.is_empty() && lit != self.answered);
        match question {
            None => self.asked = None,
            Some(m) if self.asked.is_none_or(|(_, asked, _)| asked != lit) => {
                self.asked = Some((now.saturating_add(self.after), lit, m));
            }
            Some(_) => {}
        }
    }

    /// The lights went out with the board (unplugged): nothing is asked.
    pub(super) fn lights_out(&mut self) {
        self.asked = None;
    }

    /// When a question lit is answered, if one is.
    pub(super) fn due(&self) -> Option<Millis> {
        self.asked.map(|(at, _, _)| at)
    }

    /// The question lit is answered, the board standing as `board` shows: the piece of the
    /// move it asks about lifted, if it still stands where they set it down, and set back
    /// [`ANSWER_HOLD_MS`] later (script time from the answer).
    pub(super) fn answer(&mut self, board: &Board) -> Option<[Change; 2]> {
        let (_, lit, asked_about) = self.asked.take()?;
        self.answered = lit;
        let (_, square, piece) =
            Some(asked_about).filter(|&(_, to, piece)| board.piece_at(to) == Some(piece))?;
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
