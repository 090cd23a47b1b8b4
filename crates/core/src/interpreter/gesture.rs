//! The result gesture: both kings set down on centre squares (d4, d5, e4, e5) end the game with
//! the result the convention of DGT boards gives (PicoChess, LiveChess): both on light squares
//! (d5, e4) 1-0, both on dark squares (d4, e5) 0-1, one on each a draw. The four squares touch
//! each other, and kings never stand next to each other in play, so the gesture is never a
//! position of the game.
//!
//! Once a king leaves its square (or an identified king arrives where it does not stand), the
//! interpreter goes on deciding as always, but keeps its decisions back and keeps what the
//! kings' motions can change (`BeforeWatch`: the record, the turn, what was held back and
//! decided, never its settings or the board as sensed) as it was before the king moved. If
//! both kings come to stand on centre squares and rest there (the slide window, and one scan more on a scanning board), the gesture is made:
//! the copy takes over (the kings' motions were no move, no ruling and no takeback), with the
//! board as it now is, decides what was pending before the kings moved, and ends the game. If
//! both kings went out and come back to their squares, the copy takes over too: it was
//! nothing. If instead the kings come to rest elsewhere (a king move, one king out and back),
//! nothing was a gesture and the decisions kept back go out as they were made.

use shakmaty::{Color, Piece, Position, Role, Square};

use super::Interpreter;
use super::gesture_watch::{BeforeWatch, CENTRE, GestureWatch, Watched, is_centre, slot};
use super::phase::Phase;
use crate::rules::Ending;
use crate::sensor::Millis;

/// The reason a gesture's result gives.
pub(super) const REASON: &str = "gesture";

impl Interpreter {
    /// What the kings' motions can change, as it stands now. (Every field named: one added to
    /// the interpreter must be kept here or said not to be.)
    fn before_watch(&self) -> BeforeWatch {
        let Interpreter {
            config: _,
            game,
            game_number,
            sensed,
            turn,
            previous,
            phase,
            held,
            touches_before_event,
            sync,
            guess,
            clock,
            input,
            times_due,
            pending_said,
            decisions,
            gesture: _,
            undecided,
        } = self;
        BeforeWatch {
            game: game.clone(),
            game_number: *game_number,
            sensed: sensed.clone(),
            turn: turn.clone(),
            previous: previous.clone(),
            phase: *phase,
            held: held.clone(),
            touches_before_event: *touches_before_event,
            sync: *sync,
            guess: *guess,
            clock: clock.clone(),
            input: *input,
            times_due: *times_due,
            pending_said: *pending_said,
            decisions: decisions.clone(),
            undecided: undecided.clone(),
        }
    }

    /// Puts `before` back, the settings and the board as sensed standing.
    fn restore_from(&mut self, before: BeforeWatch) {
        let board = std::mem::replace(&mut self.sensed.board, before.sensed.board.clone());
        let motions = std::mem::take(&mut self.sensed.motions);
        self.game = before.game;
        self.game_number = before.game_number;
        self.sensed = before.sensed;
        self.sensed.board = board;
        self.sensed.motions = motions;
        self.turn = before.turn;
        self.previous = before.previous;
        self.phase = before.phase;
        self.held = before.held;
        self.touches_before_event = before.touches_before_event;
        self.sync = before.sync;
        self.guess = before.guess;
        self.clock = before.clock;
        self.input = before.input;
        self.times_due = before.times_due;
        self.pending_said = before.pending_said;
        self.decisions = before.decisions;
        self.undecided = before.undecided;
    }

    /// The kings' squares in the game, White's then Black's.
    fn king_homes(&self) -> [Option<Square>; 2] {
        let board = self.game.position().board();
        [board.king_of(Color::White), board.king_of(Color::Black)]
    }

    /// Before a piece leaves `square`: a king leaving starts the watch.
    pub(super) fn gesture_before_lift(&mut self, square: Square) {
        if self.gesture.is_none()
            && self.phase != Phase::Closed
            && self.king_homes().contains(&Some(square))
        {
            self.start_gesture_watch();
        }
    }

    /// Before a piece arrives on `square`: an identified king arriving where the game does not
    /// have it starts the watch (a scanning board may report the arrival before the lift).
    pub(super) fn gesture_before_place(&mut self, square: Square, piece: Option<Piece>) {
        let homes = self.king_homes();
        let stray_king = piece.is_some_and(|p| {
            p.role == Role::King && homes.get(slot(p.color)).copied().flatten() != Some(square)
        });
        if self.gesture.is_none() && self.phase != Phase::Closed && stray_king {
            self.start_gesture_watch();
        }
    }

    /// Keeps a copy of the interpreter as it is now and holds its decisions back from here on.
    fn start_gesture_watch(&mut self) {
        diagnostic!("a king moves: watching for the result gesture");
        let before = self.before_watch();
        self.gesture = Some(Box::new(GestureWatch::new(before, self.king_homes())));
    }

    /// Whether decisions are being held back while a gesture may be under way.
    pub(super) fn gesture_watched(&self) -> bool {
        self.gesture.is_some()
    }

    /// When the gesture the board shows is made (the kings at rest on centre squares: the
    /// slide window after both stood there, and a scan period more on a scanning board).
    pub(super) fn gesture_due(&self) -> Option<Millis> {
        let (since, _) = self.gesture.as_ref()?.shown()?;
        let due = since.saturating_add(self.config.rest_ms());
        // A lift made before then may be a king leaving the centre: wait to know.
        self.held
            .lifts
            .first()
            .is_none_or(|h| h.t >= due)
            .then_some(due)
    }

    /// Where the board has the kings, White's then Black's (`None`: not to be seen, in hand).
    /// A king the board identifies is where it is identified; else on its square in the game
    /// while that is occupied; else, on an occupancy board, on a centre square the game has
    /// empty and the board has filled, when there are as many of those as kings to place.
    fn located_kings(&self) -> [Option<Square>; 2] {
        let homes = self.king_homes();
        let position = self.game.position().board();
        let mut located = [None, None];
        let mut unplaced = Vec::new();
        for color in Color::ALL {
            let identified = self
                .sensed
                .board
                .identified_squares(color.king())
                .single_square();
            let home = homes.get(slot(color)).copied().flatten().filter(|&home| {
                self.sensed.board.occupied().contains(home)
                    && self
                        .sensed
                        .board
                        .identified_at(home)
                        .is_none_or(|p| p == color.king())
            });
            match identified.or(home) {
                Some(square) => {
                    if let Some(slot) = located.get_mut(slot(color)) {
                        *slot = Some(square);
                    }
                }
                None => unplaced.push(color),
            }
        }
        // A piece taken off a centre square and a king set down in its place cannot be told
        // from a piece knocked and put back while the king is in hand: only a centre square
        // the game has empty is a king's.
        let fresh: Vec<Square> = CENTRE
            .into_iter()
            .filter(|&square| {
                self.sensed.board.occupied().contains(square)
                    && self.sensed.board.identified_at(square).is_none()
                    && !located.contains(&Some(square))
                    && position.piece_at(square).is_none()
            })
            .collect();
        if fresh.len() == unplaced.len() {
            for (color, square) in unplaced.into_iter().zip(fresh) {
                if let Some(slot) = located.get_mut(slot(color)) {
                    *slot = Some(square);
                }
            }
        }
        located
    }

    /// After a change, looked at `t`: notes the kings standing in the centre (since the board's
    /// last change), or ends the watch when
    /// no gesture can be under way: the kings back where they stood after both went out (as if
    /// they had not moved), or at rest in play (the decisions held back go out as made).
    pub(super) fn review_gesture(&mut self, t: Millis) {
        if self.gesture.is_none() {
            return;
        }
        let located = self.located_kings();
        let homes = self.king_homes();
        let changed_at = self.sensed.changed_at();
        let Some(watch) = self.gesture.as_mut() else {
            return;
        };
        match watch.review(located, homes, changed_at) {
            Watched::Showing | Watched::Open => {}
            Watched::Back => {
                diagnostic!(t, "the kings are back: no gesture, and nothing");
                self.take_back_the_watch(t);
            }
            Watched::AtRest => {
                diagnostic!(t, "the kings came to rest: no gesture");
                self.gesture = None;
            }
        }
    }

    /// Where the piece of `from` went is asked, among `to`: a king that may only have gone
    /// where no centre square is (or be in hand still) makes no gesture that the question
    /// should wait on. On a board that samples occupancy a king's capture made within a frame
    /// shows the king lifted, and the hands answer only a question they see: the watch ends,
    /// and the decisions held back go out as made, the question with them. (A gesture begun
    /// after all is watched again once the other king leaves its square.)
    pub(super) fn question_rules_out_gesture(&mut self, from: Square, to: &[Square]) {
        let about_a_king = self.king_homes().contains(&Some(from));
        if self.gesture.is_some() && about_a_king && !to.iter().any(|&square| is_centre(square)) {
            diagnostic!("where the king went is asked: no gesture");
            self.gesture = None;
        }
    }

    /// The end of input: a gesture not made by now was none.
    pub(super) fn drop_gesture_watch(&mut self) {
        self.gesture = None;
    }

    /// Goes back to the interpreter as it was before the watch began, with the board as it is
    /// now (what was held back since is dropped). Whether there was a watch.
    fn restore_before_watch(&mut self) -> bool {
        let Some(watch) = self.gesture.take() else {
            return false;
        };
        let before = watch.into_before();
        // Settings changed meanwhile (an engine gone) stand, and the board as it is now.
        self.restore_from(before);
        self.held.clear();
        true
    }

    /// Both kings went out and came back at `t` without a gesture: as if they had not moved.
    fn take_back_the_watch(&mut self, t: Millis) {
        if self.restore_before_watch() && self.phase != Phase::Closed {
            self.reassess(t);
        }
    }

    /// The kings stood in the centre for the slide window until `t`: the interpreter goes back
    /// to where it was before they moved, with the board as it is, decides what was pending
    /// then, and the game ends with the gesture's result.
    pub(super) fn make_gesture(&mut self, t: Millis) {
        let Some((_, outcome)) = self.gesture.as_ref().and_then(|watch| watch.shown()) else {
            return;
        };
        self.restore_before_watch();
        if let Phase::Pending { deadline, .. } = self.phase {
            self.decide_pending(deadline.min(t));
        }
        if self.game.ending().is_some() {
            self.phase = Phase::Closed;
            return;
        }
        diagnostic!(t, "result gesture");
        self.game.end(Ending {
            winner: outcome.winner(),
            reason: REASON,
            rule: None,
            termination: None,
        });
        self.announce_ending_or_claims(t);
        self.phase = Phase::Closed;
    }
}
