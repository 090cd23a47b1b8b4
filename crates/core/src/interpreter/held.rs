//! Reports held back before they are taken in: a lift for the bounce window, an opponent's
//! lift or placement for the rest of its instant (a scan's changes come in the board's own
//! order: the mover's go first), a clock press for the report horizon (a scanning board reports
//! a move after the lever).

use shakmaty::{Color, Piece, Square};

use crate::sensor::Millis;

/// The reports held back: lifts for the bounce window, an opponent's lift or placement to the
/// end of its instant, a clock press for the report horizon.
#[derive(Debug, Clone, Default)]
pub(super) struct Held {
    /// Lifts held for the bounce window (those of one instant together).
    pub(super) lifts: Vec<HeldLift>,
    /// An opponent's lift reported while the mover's piece was in hand, held to see what else
    /// was reported at the same instant (see the interpreter's `reply_lift`).
    pub(super) reply: Option<HeldLift>,
    /// An opponent's piece reported set down while the mover's piece was in hand, held to the
    /// end of its instant (see the interpreter's `reply_arrival`).
    pub(super) reply_place: Option<HeldPlace>,
    /// A clock press waiting for the reports that may still be on their way.
    pub(super) press: Option<HeldPress>,
    /// The other side's press made while `press` waited with its presser's piece in hand: it
    /// goes after `press` (presses are weighed in order, and weighing `press` before the
    /// arrival on its way would take a move made for no move).
    pub(super) next_press: Option<HeldPress>,
}

impl Held {
    /// Drops everything held (what it was is decided otherwise).
    pub(super) fn clear(&mut self) {
        self.lifts.clear();
        self.reply = None;
        self.reply_place = None;
        self.press = None;
        self.next_press = None;
    }

    /// Whether a report held back was made before `deadline`: a lift made before a window
    /// closed may be a real lift or a bounce, and a press made before it decides what the
    /// deadline would have; either is waited for.
    pub(super) fn made_before(&self, deadline: Millis) -> bool {
        self.lifts.first().is_some_and(|h| h.t < deadline)
            || self.press.is_some_and(|p| p.t < deadline)
    }
}

/// A lift held back for the bounce window (lifts reported at the same instant are held
/// together: their order is unclear).
#[derive(Debug, Clone, Copy)]
pub(super) struct HeldLift {
    pub(super) t: Millis,
    pub(super) square: Square,
    pub(super) piece: Option<Piece>,
}

/// An opponent's piece set down, held to the end of its instant.
#[derive(Debug, Clone, Copy)]
pub(super) struct HeldPlace {
    pub(super) t: Millis,
    pub(super) square: Square,
    pub(super) piece: Option<Piece>,
}

/// A clock press waiting for the reports that may still be on their way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct HeldPress {
    pub(super) t: Millis,
    pub(super) color: Color,
    /// The horizon passed with the presser's piece still in hand: a hand that presses has
    /// let go of the piece, so its arrival was not reported yet (a restarted board's next
    /// dump will show it). The press waits for the next report of a piece set down.
    pub(super) until_placed: bool,
}
