//! One side's turn: the legal moves of its position, its touches, and what its board has shown
//! so far. The interpreter keeps the current turn and the one before it (whose move may still
//! be corrected).

use shakmaty::{Move, Position, Role, Square};

use super::legal::LegalMoves;
use super::trace::Trace;
use crate::rules::Game;
use crate::sensor::Millis;

/// A turn of the game.
#[derive(Debug, Clone)]
pub(super) struct Turn {
    /// The legal moves of the turn's position.
    pub(super) legal: LegalMoves,
    /// The touches made in the turn.
    pub(super) trace: Trace,
    /// The board's motions' order number when the turn began (a capture must have emptied and
    /// filled its victim's square since).
    pub(super) start_seq: u32,
    /// The promotion piece entered for the turn's move (a board that cannot identify it).
    pub(super) promotion: Option<Role>,
    /// The illegal move completed in the turn (from, to), not to be completed twice.
    pub(super) completed_illegal: Option<(Square, Square)>,
    /// A move the board showed and left before it was decided, in case the reply moved it on.
    pub(super) left_candidate: Option<LeftCandidate>,
    /// The square of the one piece of the side to move seen lifted in the turn and still in
    /// hand when the board was next heard by a full report: moves made unseen since began
    /// with that piece's (a touched piece must be moved, 4.3.1).
    pub(super) seen_in_hand: Option<Square>,
}

/// A pending move the board left before it was decided, remembered in case the opponent's
/// reply is what moved the board on.
#[derive(Debug, Clone, Copy)]
pub(super) struct LeftCandidate {
    pub(super) m: Move,
    /// Whether `m` replaces the last move (from the position before it).
    pub(super) correction: bool,
    pub(super) t: Millis,
    pub(super) touches: usize,
}

impl Turn {
    /// The turn of the side to move in `game`'s current position, begun at motion `start_seq`.
    pub(super) fn new(game: &Game, start_seq: u32) -> Turn {
        let position = game.position();
        Turn {
            legal: LegalMoves::from_list(game.legal_moves()),
            trace: Trace::new(position.board(), position.turn()),
            start_seq,
            promotion: None,
            completed_illegal: None,
            left_candidate: None,
            seen_in_hand: None,
        }
    }

    /// Begins the turn of the side to move in `game`'s current position at motion
    /// `start_seq`, reusing this one's allocations.
    pub(super) fn restart(&mut self, game: &Game, start_seq: u32) {
        let position = game.position();
        self.legal.refill(game.legal_moves());
        self.trace.restart(position.board(), position.turn());
        self.start_seq = start_seq;
        self.promotion = None;
        self.completed_illegal = None;
        self.left_candidate = None;
        self.seen_in_hand = None;
    }
}
