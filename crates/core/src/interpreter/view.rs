//! A read-only view of the turn in progress, for a program showing the game (a GUI, the live
//! page): whose move it is, which pieces are in hand, which were touched and what the touches
//! oblige under Article 4.3, and what decision waits for which deadline.

use shakmaty::{Color, Move, Piece, Square};

use crate::sensor::Millis;

/// The turn in progress, as the interpreter sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TurnView {
    /// The side to move.
    pub turn: Color,
    /// The ply the next move will be (from 1).
    pub ply: u32,
    /// Where the turn stands.
    pub state: TurnState,
    /// The pieces off the board now, with the squares they left this turn.
    pub in_hand: Vec<(Square, Piece)>,
    /// Every touch of the turn that binds (not a j'adoube, not a knocked piece put back), in
    /// order, with the moves it allows.
    pub touched: Vec<TouchedPiece>,
    /// The piece the side to move must move (FIDE 4.3.1: the first of its touched pieces that
    /// can be moved), when rulings are made.
    pub must_move: Option<Square>,
    /// The opponent's piece the side to move must capture (FIDE 4.3.2: the first touched that
    /// can be captured), when rulings are made.
    pub must_capture: Option<Square>,
    /// The decision waiting, if any.
    pub pending: Option<PendingDecision>,
}

/// A touched piece.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TouchedPiece {
    /// The square it stood on when the turn began.
    pub square: Square,
    /// The piece.
    pub piece: Piece,
    /// When it was first lifted.
    pub t: Millis,
    /// The legal moves the touch allows: the piece's own moves if it is the mover's, the
    /// captures of it if it is the opponent's.
    pub moves: Vec<Move>,
}

/// Where a turn stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TurnState {
    /// The board shows the current position.
    AtRest,
    /// Pieces are in hand; nothing else differs.
    InHand,
    /// A decision waits ([`TurnView::pending`]).
    Pending,
    /// One of the mover's pieces stands where no legal move takes it.
    Displaced {
        /// The square it left.
        from: Square,
        /// Where it stands.
        to: Square,
    },
    /// The board matches nothing expected.
    Unexplained,
    /// The game is over.
    Closed,
}

/// A decision that waits for the slide window, the clock or the opponent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PendingDecision {
    /// This move, unless the piece goes on or the board changes before `deadline`.
    Move {
        /// The move the board shows.
        chess_move: Move,
        /// Whether it replaces the game's last move (a correction).
        correction: bool,
        /// When it is decided at the latest.
        deadline: Millis,
    },
    /// This promotion, once the player has chosen its piece (the board cannot identify it,
    /// and the choice is awaited: [`crate::Config::promotion_choice_awaited`]); `chess_move`
    /// promotes to a queen until then.
    PromotionChoice {
        /// The move the board shows.
        chess_move: Move,
    },
    /// A takeback of this many plies.
    Takeback {
        /// How many plies back the board stands.
        plies: usize,
        /// When it is decided at the latest.
        deadline: Millis,
    },
}
