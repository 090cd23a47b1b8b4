//! What the result gesture's watch keeps: what the kings' motions can change as it stood
//! before a king moved (`BeforeWatch`), and what the kings have done since (`GestureWatch`);
//! the centre squares and the result two kings on them give.

use shakmaty::{Color, KnownOutcome, Move, Square};

use super::board::Sensed;
use super::catch_up::Undecided;
use super::decisions::Decisions;
use super::game_clock::GameClock;
use super::guess::Guess;
use super::held::Held;
use super::move_times::TimesDue;
use super::phase::{Input, Phase};
use super::sync::Sync;
use super::turn::Turn;
use crate::rules::Game;
use crate::sensor::Millis;

/// The four centre squares.
pub(super) const CENTRE: [Square; 4] = [Square::D4, Square::D5, Square::E4, Square::E5];

/// Whether `square` is one of the four centre squares.
pub(super) fn is_centre(square: Square) -> bool {
    CENTRE.contains(&square)
}

/// What the kings' motions can change, as it stood before the first of them: everything the
/// interpreter decides and holds, but not its settings (changed meanwhile, they stand), the
/// board as sensed (the kings stand where they now are) or the watch itself.
#[derive(Debug, Clone)]
pub(super) struct BeforeWatch {
    pub(super) game: Game,
    pub(super) game_number: u32,
    /// The board as sensed is the present one; its other parts (the frames, the last change)
    /// go back.
    pub(super) sensed: Sensed,
    pub(super) turn: Turn,
    pub(super) previous: Option<Turn>,
    pub(super) phase: Phase,
    pub(super) held: Held,
    pub(super) touches_before_event: usize,
    pub(super) sync: Sync,
    pub(super) guess: Guess,
    pub(super) clock: Option<GameClock>,
    pub(super) input: Input,
    pub(super) times_due: Option<TimesDue>,
    pub(super) pending_said: Option<Move>,
    pub(super) decisions: Decisions,
    pub(super) undecided: Undecided,
}

/// A gesture that may be under way: what the kings' motions can change as it stood before a
/// king moved, and what the kings have done since.
#[derive(Debug, Clone)]
pub(super) struct GestureWatch {
    /// Before the first king motion (the decisions kept back since then are dropped if the
    /// gesture is made).
    before: BeforeWatch,
    /// The kings' squares when the watch began, White's then Black's.
    started: [Option<Square>; 2],
    /// Whether each king has been away from its square since the watch began.
    moved: [bool; 2],
    /// Both kings on centre squares since this time, with the result they give.
    shown: Option<(Millis, KnownOutcome)>,
}

/// Where a watch stands after the kings' motions were looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Watched {
    /// Both kings stand on centre squares (since the time the watch keeps): a gesture may be
    /// made.
    Showing,
    /// Both kings went out and came back to where they stood: as if they had not moved.
    Back,
    /// The kings came to rest elsewhere: no gesture; the decisions kept back go out as made.
    AtRest,
    /// A king is in hand, or on a centre square it did not start from: watched on.
    Open,
}

impl GestureWatch {
    /// A watch that begins with `before`, the kings on `started`.
    pub(super) fn new(before: BeforeWatch, started: [Option<Square>; 2]) -> GestureWatch {
        GestureWatch {
            before,
            started,
            moved: [false; 2],
            shown: None,
        }
    }

    /// Since when both kings have stood on centre squares, and the result they give.
    pub(super) fn shown(&self) -> Option<(Millis, KnownOutcome)> {
        self.shown
    }

    /// What the kings' motions can change, as it stood before a king moved.
    pub(super) fn into_before(self) -> BeforeWatch {
        self.before
    }

    /// The kings now `located`, their squares in the game `homes`, the board last changed at
    /// `changed_at`: where the watch stands.
    pub(super) fn review(
        &mut self,
        located: [Option<Square>; 2],
        homes: [Option<Square>; 2],
        changed_at: Millis,
    ) -> Watched {
        for ((moved, at), started) in self.moved.iter_mut().zip(located).zip(self.started) {
            *moved |= at != started;
        }
        if let Some(result) = gesture_result(located) {
            if self.shown.is_none_or(|(_, shown)| shown != result) {
                self.shown = Some((changed_at, result));
            }
            return Watched::Showing;
        }
        self.shown = None;
        let open = located.iter().zip(homes).any(|(at, home)| match at {
            None => true,
            Some(square) => is_centre(*square) && Some(*square) != home,
        });
        if self.moved == [true, true] && located == self.started && homes == self.started {
            Watched::Back
        } else if open {
            Watched::Open
        } else {
            Watched::AtRest
        }
    }
}

/// The index of `color` in a pair of kings.
pub(super) fn slot(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The result two kings on `squares` give, if both stand on centre squares.
fn gesture_result(squares: [Option<Square>; 2]) -> Option<KnownOutcome> {
    let [Some(white), Some(black)] = squares else {
        return None;
    };
    if !(is_centre(white) && is_centre(black)) || white == black {
        return None;
    }
    Some(match (white.is_light(), black.is_light()) {
        (true, true) => KnownOutcome::Decisive {
            winner: Color::White,
        },
        (false, false) => KnownOutcome::Decisive {
            winner: Color::Black,
        },
        _ => KnownOutcome::Draw,
    })
}
