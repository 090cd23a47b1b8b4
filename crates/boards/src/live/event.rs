//! What a live game has to say: the board shows the start, waits, a decision, a new game set up.

use touchmove_core::event::GameEvent;
use touchmove_core::sensor::{BoardSnapshot, Millis};

/// What the live game has to say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LiveEvent {
    /// The board shows the starting position: the game is being recorded from `t`.
    Started {
        /// When the board first showed the starting position.
        t: Millis,
    },
    /// The board shows neither the starting position nor a game in progress: what it shows.
    Waiting {
        /// The board as seen.
        seen: BoardSnapshot,
    },
    /// A decision of the interpreter.
    Decision(GameEvent),
    /// A promotion waits for the player's choice of piece, which the board cannot tell (the
    /// game awaits it: [`touchmove_core::interpreter::Config::promotion_choice_awaited`]): the
    /// pawn's square and the promotion square. Said once when it begins to wait.
    PromotionAsked {
        /// When it began to wait.
        t: Millis,
        /// Where the pawn came from.
        from: shakmaty::Square,
        /// Where it promotes.
        to: shakmaty::Square,
    },
    /// A new game was set up at `t` (by a spectator's tool, LiveChess's `setup`): it starts
    /// from [`LiveGame::start`](super::LiveGame::start) once the board shows it, and the game before it is over.
    SetUp {
        /// When it was set up.
        t: Millis,
    },
}
