//! Where the interpreter stands: the turn's phase and what waits in it, where the input stands,
//! how a lift came to be known, what completed an illegal move and how a move came to be
//! decided. Plain states, owned by the interpreter and its sub-states alike.

use shakmaty::{Move, Square};

use crate::sensor::Millis;

/// Something the board shows that waits for the slide window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pending {
    /// A legal move that could still grow; `correction` when it replaces the last move.
    Move { m: Move, correction: bool },
    /// The board shows the position this many plies back.
    Takeback { plies: usize },
}

/// Where the turn stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    /// The board shows the current position.
    AtRest,
    /// Pieces are off the board (in hand); nothing else differs. While moves made unseen are
    /// looked for, the board is also weighed when it has been quiet for the window
    /// (`quiet_at`): a piece missing may have been captured unseen. `rested`: it was weighed
    /// at the window's end and nothing was caught up, and `quiet_at` is then when the board,
    /// still unchanged, is said to differ (`STALLED_MS`).
    InHand {
        quiet_at: Option<Millis>,
        rested: bool,
    },
    /// A decision waits for the slide window, the clock or the opponent.
    Pending { what: Pending, deadline: Millis },
    /// One of the mover's pieces stands on a square no legal move reaches.
    Displaced {
        from: Square,
        to: Square,
        completed: bool,
    },
    /// The board matches nothing expected; weighed when it has been quiet for the window
    /// (`quiet_at`): moves made unseen are caught up if one sequence explains it, else the
    /// mismatch is reported (once).
    Unexplained { quiet_at: Option<Millis> },
    /// The game is over; waiting for the starting position for a new game.
    Closed,
}

/// Where the input stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Input {
    /// Nothing taken yet.
    Awaited,
    /// Taken since the first event or clock reading (which started the clock).
    Flowing,
    /// Ended (`Interpreter::finish`): what is pending is decided as the windows would close,
    /// and no flag falls.
    Ended,
}

/// How a lift came to be known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Seen {
    /// Reported as it happened: a touch, in its order.
    Hand,
    /// Read from the difference of a full report (a dump after a reconnect): which piece was
    /// touched first cannot be known, so it binds no one.
    Snapshot,
    /// An opponent's piece reported leaving at the same instant as the mover's piece arrived
    /// elsewhere: taken after the arrival (the opponent's first lift), but the mover's hand
    /// may as well have knocked it, so put back it binds no one.
    Unordered,
}

/// What completed an illegal move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Completion {
    /// The mover's clock press.
    Press,
    /// The opponent lifting the piece on this square to reply.
    Reply(Square),
}

/// How a move came to be decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Decided {
    /// The board showed it being made.
    Seen,
    /// The board showed it replacing the last move.
    Correction,
    /// Made while nobody was listening: the only shortest sequence to what the board shows.
    Reconstructed,
}
