//! The touch-move interpreter: sensor events in, game events out, FIDE Article 4 applied.
//!
//! [`Interpreter`] is sans-IO in the style of quinn-proto's `Connection`: it never reads a clock,
//! a port or a file. Feed it each [`SensorEvent`] with [`Interpreter::handle_event`], ask it when
//! it next needs to be woken with [`Interpreter::poll_timeout`] and wake it with
//! [`Interpreter::handle_timeout`], and drain its decisions with [`Interpreter::poll_event`]. At
//! the end of a recorded log, [`Interpreter::finish`] decides what is pending as the windows
//! would close.
//!
//! The record follows what is physically on the board once it settles: the board is compared
//! with the current position, with every legal move from it, with a correction of the last move
//! and with the earlier positions of the game. Article 4 breaches are read from the hand motions
//! of the turn once its move is decided, and reported as `violation` events.

mod arbiter;
mod board;
mod catch_up;
mod decide;
mod decisions;
mod evidence;
mod frames;
mod game_clock;
mod geometry;
mod gesture;
mod gesture_watch;
mod guess;
mod held;
mod judge;
mod legal;
mod matching;
mod motions;
mod move_times;
mod pending_move;
mod phase;
mod release;
mod standing;
mod sync;
mod times_shown;
mod trace;
mod turn;
mod turn_view;
mod view;

pub use view::{PendingDecision, TouchedPiece, TurnState, TurnView};

use shakmaty::{Bitboard, Chess, Color, Move, Piece, Position, Square};

use crate::clock::ClockReading;
use crate::event::{EventKind, GameEvent};
use crate::rules::Game;
use crate::sensor::{BoardSnapshot, Millis, SensorEvent, SensorKind};
use board::{PhysicalBoard, Sensed};
use decisions::Decisions;
use game_clock::GameClock;
use geometry::can_capture;
use gesture_watch::GestureWatch;
use guess::Guess;
use held::{Held, HeldLift, HeldPlace};
use move_times::TimesDue;
use phase::{Completion, Decided, Input, Pending, Phase, Seen};
use sync::Sync;
use trace::Trace;
use turn::Turn;

/// How long a board caught up on after an outage may stay as it is, pieces off it, the slide
/// window over and nothing caught up, before it is said to differ from the record (ms): long
/// enough for a person to be thinking with a piece in hand, short enough for the board's
/// lights to say what to put back before the next move is made.
pub const STALLED_MS: Millis = 3_000;

/// The interpreter's settings.
///
/// A side played by an engine or an online opponent earns no rulings on the board: its moves
/// are carried out by whoever is at hand ([`Config::with_exempt`]).
///
/// ```
/// use shakmaty::{Chess, Color, Square};
/// use touchmove_core::{Config, EventKind, Interpreter, SensorEvent, SensorKind};
///
/// // White touches the knight of g1, sets it back and plays e4: a breach of 4.3.1, unless
/// // White's side is exempt.
/// let reports = [
///     (0, SensorKind::Lift { square: Square::G1, piece: None }),
///     (1500, SensorKind::Place { square: Square::G1, piece: None }),
///     (3000, SensorKind::Lift { square: Square::E2, piece: None }),
///     (3400, SensorKind::Place { square: Square::E4, piece: None }),
/// ];
/// let rulings = |config: Config| {
///     let mut interpreter = Interpreter::new(Chess::default(), config);
///     for (t, kind) in reports.clone() {
///         interpreter.handle_event(&SensorEvent::new(t, kind));
///     }
///     interpreter.finish();
///     std::iter::from_fn(|| interpreter.poll_event())
///         .filter(|event| matches!(event.kind, EventKind::Violation(_)))
///         .count()
/// };
/// assert_eq!(rulings(Config::default()), 1);
/// assert_eq!(rulings(Config::default().with_exempt(Some(Color::White))), 0);
/// assert_eq!(rulings(Config::default().with_exempt(Some(Color::Black))), 1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Config {
    /// A piece resting on a square for less than this was sliding, not released (ms).
    pub slide_ms: Millis,
    /// A lift and replace on the same square within this is sensor noise (ms).
    pub bounce_ms: Millis,
    /// How often the board samples its squares (ms): a scanning board (DGT: 250) reports a
    /// square's change only at its next scan, so a rest it shows may be that much shorter or
    /// longer than the real one. A rest is a release only once it has lasted the slide window
    /// and one scan period ([`Config::rest_ms`]). 0: the board reports every change as it
    /// happens.
    pub scan_ms: Millis,
    /// Whether Article 4 rulings are made (strict) or not (casual).
    pub strict: bool,
    /// The completed illegal move that loses the game (2 under the 2023 Laws, 3 under 2005).
    pub illegal_limit: u32,
    /// How long after a clock press the board's reports of what happened before it may still
    /// arrive (ms): a scanning board reports a move at its next scan, while a lever change
    /// arrives at once. A press is weighed (the move it completes decided, "no move" or an
    /// illegal move found) only once this has passed, with the press's own time. 0: at once.
    pub report_horizon_ms: Millis,
    /// The side whose moves are carried out for it (an engine's, `touchmove play`): it earns
    /// no Article 4 rulings, and its completed illegal moves are neither counted nor penalised
    /// (they are still reported, with the count as it stands, for the caller to deal with).
    pub exempt: Option<Color>,
    /// Whether a promotion whose piece the board cannot identify (an occupancy board) waits
    /// for the player's choice (a `promote` report: the board's button, or one entered at the
    /// host) instead of becoming a queen once the move comes to rest: a game whose moves cannot
    /// be changed once sent (an online game) never promotes to a piece nobody chose.
    pub promotion_choice_awaited: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            slide_ms: 250,
            bounce_ms: 50,
            scan_ms: 0,
            strict: true,
            illegal_limit: 2,
            report_horizon_ms: 0,
            exempt: None,
            promotion_choice_awaited: false,
        }
    }
}

impl Config {
    /// With the slide window `ms`.
    #[must_use]
    pub fn with_slide_ms(mut self, ms: Millis) -> Config {
        self.slide_ms = ms;
        self
    }

    /// With the board's scan period `ms` (see [`Config::scan_ms`]).
    #[must_use]
    pub fn with_scan_ms(mut self, ms: Millis) -> Config {
        self.scan_ms = ms;
        self
    }

    /// How long a piece must be seen resting for the rest to be a release (not a slide): the
    /// slide window, and on a scanning board one scan period more, since the board's sampling
    /// cannot tell a shorter rest from a slide.
    #[must_use]
    pub fn rest_ms(&self) -> Millis {
        self.slide_ms.saturating_add(self.scan_ms)
    }

    /// With the bounce window `ms`.
    #[must_use]
    pub fn with_bounce_ms(mut self, ms: Millis) -> Config {
        self.bounce_ms = ms;
        self
    }

    /// With Article 4 rulings made (`true`) or not (casual play).
    #[must_use]
    pub fn with_strict(mut self, strict: bool) -> Config {
        self.strict = strict;
        self
    }

    /// With the completed illegal move that loses the game.
    #[must_use]
    pub fn with_illegal_limit(mut self, limit: u32) -> Config {
        self.illegal_limit = limit;
        self
    }

    /// With `side` exempt from rulings and illegal-move counts (see [`Config::exempt`]).
    #[must_use]
    pub fn with_exempt(mut self, side: Option<Color>) -> Config {
        self.exempt = side;
        self
    }

    /// With an unidentified promotion piece awaiting the player's choice (see
    /// [`Config::promotion_choice_awaited`]).
    #[must_use]
    pub fn awaiting_promotion_choice(mut self) -> Config {
        self.promotion_choice_awaited = true;
        self
    }

    /// With the report horizon `ms`.
    #[must_use]
    pub fn with_report_horizon_ms(mut self, ms: Millis) -> Config {
        self.report_horizon_ms = ms;
        self
    }
}

/// The sans-IO touch-move interpreter of one board.
///
/// A piece touched binds its player (Article 4.3): here White holds the knight of g1, sets it
/// back, and moves the e-pawn instead. The move stands; the breach is ruled with its square.
///
/// ```
/// use shakmaty::{Color, Square};
/// use touchmove_core::event::Rule;
/// use touchmove_core::{Config, EventKind, Interpreter, SensorEvent, SensorKind};
///
/// let mut interpreter = Interpreter::new(shakmaty::Chess::default(), Config::default());
/// let reports = [
///     (0, SensorKind::Lift { square: Square::G1, piece: None }),
///     (1500, SensorKind::Place { square: Square::G1, piece: None }),
///     (3000, SensorKind::Lift { square: Square::E2, piece: None }),
///     (3400, SensorKind::Place { square: Square::E4, piece: None }),
/// ];
/// for (t, kind) in reports {
///     interpreter.handle_event(&SensorEvent::new(t, kind));
/// }
/// interpreter.finish();
/// let decided: Vec<EventKind> =
///     std::iter::from_fn(|| interpreter.poll_event()).map(|event| event.kind).collect();
/// assert!(decided.iter().any(|kind| matches!(kind, EventKind::Violation(v)
///     if v.rule == Rule::TouchOwn && v.color == Color::White && v.square == Square::G1)));
/// let e4 = |kind: &EventKind| matches!(kind, EventKind::Move(m) if m.san.to_string() == "e4");
/// assert!(decided.iter().any(e4));
/// ```
#[derive(Debug, Clone)]
pub struct Interpreter {
    /// The settings.
    config: Config,
    /// The game as recorded so far.
    game: Game,
    /// The game's number on this board (a new game starts when the board is set up again).
    game_number: u32,
    /// The board as the sensors reported it.
    sensed: Sensed,
    /// The turn of the side to move.
    turn: Turn,
    /// The turn before, kept while its move (the game's last move, played from the position
    /// one ply back) may still be corrected.
    previous: Option<Turn>,
    /// Where the turn stands.
    phase: Phase,
    /// The reports held back before they are taken in.
    held: Held,
    /// How many touches the turn's trace held before the last lift or placement taken in (a
    /// move the board left is remembered with the touches made before it was left).
    touches_before_event: usize,
    /// Whether the record follows the board.
    sync: Sync,
    /// What the record holds on the board's word alone (moves caught up, whose turn it is).
    guess: Guess,
    /// The game's clock, with a time control or once a physical clock reports.
    clock: Option<GameClock>,
    /// Where the input stands (the first input starts the clock).
    input: Input,
    /// The last decided move, while its times wait for its mover's press on a clock.
    times_due: Option<TimesDue>,
    /// The pending move last said (`pending`), until it is decided or unsaid.
    pending_said: Option<Move>,
    /// The decisions made, in order, until they are polled.
    decisions: Decisions,
    /// A result gesture that may be under way: decisions are held back meanwhile.
    gesture: Option<Box<GestureWatch>>,
    /// The sequences of moves made unseen a board left undecided, followed further as it
    /// changes.
    undecided: catch_up::Undecided,
}

impl Interpreter {
    /// An interpreter for a board set up in `start`.
    pub fn new(start: Chess, config: Config) -> Interpreter {
        let board = PhysicalBoard::unidentified(start.board());
        let game = Game::new(start);
        let turn = Turn::new(&game, 0);
        // A start position already over (mate, stalemate, no mating material) is closed; its
        // result is given with the first input (or at the end, when there is none).
        let phase = if game.ending().is_some() {
            Phase::Closed
        } else {
            Phase::AtRest
        };
        Interpreter {
            config,
            game,
            game_number: 1,
            // A report the next replaced within one scan may have lasted no time at all.
            sensed: Sensed::new(board, config.slide_ms.max(config.scan_ms.saturating_add(1))),
            turn,
            previous: None,
            phase,
            held: Held::default(),
            touches_before_event: 0,
            sync: Sync::InStep,
            guess: Guess::default(),
            clock: None,
            input: Input::Awaited,
            times_due: None,
            pending_said: None,
            decisions: Decisions::default(),
            gesture: None,
            undecided: catch_up::Undecided::default(),
        }
    }

    /// Runs a clock for `time_control`, started for the side to move by the first input:
    /// switched by the decided moves, or by the presses of a physical clock once one is seen.
    /// Flags fall, illegal moves cost two minutes, and every move carries both players'
    /// remaining time.
    pub fn with_time_control(mut self, time_control: crate::clock::TimeControl) -> Interpreter {
        self.clock = Some(GameClock::new(time_control, self.game.turn(), 0));
        self
    }

    /// The game as recorded so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Takes one sensor event. Times must not decrease; deadlines that fell due before the event
    /// are handled first.
    pub fn handle_event(&mut self, event: &SensorEvent) {
        let t = event.t;
        self.first_input(t);
        self.handle_timeout(t);
        // A held reply lift goes after a piece of the mover's set down elsewhere at the same
        // instant (the two were seen in one scan, in the board's order); before anything else.
        // Whose hand lifted it is clear only if the other side has pressed (the press held, or
        // weighed since the board last changed): their hand is done.
        let mut reply_after = None;
        if let Some(reply) = self.held.reply.take() {
            if reply.t == t && self.arrives_before(&event.kind, &reply) {
                let replier = self.lifted_color(&reply);
                let pressed = self
                    .held
                    .press
                    .map(|press| press.color)
                    .or_else(|| self.guess.last_mover(self.sensed.changed_at()))
                    .is_some_and(|color| Some(color) != replier);
                reply_after = Some((reply, if pressed { Seen::Hand } else { Seen::Unordered }));
            } else if reply.t == t && self.reply_arrival(&event.kind) {
                // The reply's own arrival in the same scan: both wait for the rest of it.
                self.held.reply = Some(reply);
            } else {
                self.release_reply(reply, t, Seen::Hand);
            }
        }
        if !matches!(
            event.kind,
            SensorKind::Lift { .. } | SensorKind::Place { .. }
        ) {
            // What else its instant reported is in: the held reply placement goes first, after
            // the reply's lift.
            self.release_reply_place();
        }
        match event.kind {
            SensorKind::Lift { square, piece } => {
                let lift = HeldLift { t, square, piece };
                if self.reply_lift(&lift) {
                    self.held.reply = Some(lift);
                } else {
                    self.take_lift(lift);
                }
            }
            SensorKind::Place { square, piece } => {
                let bounce = self.held.lifts.iter().position(|held| {
                    held.square == square && (held.piece.is_none() || held.piece == piece)
                });
                if let Some(index) = bounce {
                    diagnostic!(t, %square, "bounce ignored");
                    self.held.lifts.remove(index);
                } else if self.reply_arrival(&event.kind) {
                    self.held.reply_place = Some(HeldPlace { t, square, piece });
                } else {
                    self.set_down(t, square, piece);
                }
            }
            SensorKind::Adjust => {
                self.release_held();
                self.turn.trace.arm_adjust();
            }
            SensorKind::Clock(color) => {
                self.release_held();
                self.press(t, color);
            }
            SensorKind::Promote(role) => {
                self.release_held();
                let awaited = self.awaits_promotion_choice();
                self.turn.promotion = Some(role);
                if awaited {
                    self.decide_pending(t);
                }
            }
            SensorKind::Snapshot(ref snapshot) => {
                self.release_held();
                self.snapshot(t, snapshot);
                self.placed_for_held_press();
            }
        }
        if let Some((reply, seen)) = reply_after {
            self.release_reply(reply, t, seen);
        }
        self.say_pending(t);
        self.review_gesture(t);
    }

    /// Takes a physical clock's report made at `t` (times must not decrease, as for sensor
    /// events): from now on the game's clock shows the clock's times, and a flag the clock
    /// shows falling ends the game (FIDE 6.9). Without a time control the clock is followed
    /// all the same.
    pub fn handle_clock_reading(&mut self, t: Millis, reading: &ClockReading) {
        self.first_input(t);
        self.handle_timeout(t);
        let turn = self.game.turn();
        let clock = self
            .clock
            .get_or_insert_with(|| GameClock::new(crate::clock::TimeControl::Unknown, turn, t));
        let fallen = clock.follow(reading, t);
        self.times_shown(t);
        if let Some(loser) = fallen.filter(|_| self.phase != Phase::Closed) {
            self.end_on_flag(t, loser);
        }
        self.say_pending(t);
    }

    /// The first input, at `t`, starts the clock: the game starts with the log (a recording
    /// starts with the board showing the starting position), not at time 0.
    fn first_input(&mut self, t: Millis) {
        if self.input != Input::Awaited {
            return;
        }
        self.input = Input::Flowing;
        if self.game.plies() == 0 && self.game.ending().is_some() {
            self.announce_ending_or_claims(t);
        }
        let turn = self.game.turn();
        if let Some(clock) = self.clock.as_mut() {
            *clock = clock.restarted(turn, t);
        }
    }

    /// The next time at which [`Interpreter::handle_timeout`] must be called, if any.
    #[must_use]
    pub fn poll_timeout(&self) -> Option<Millis> {
        let held = self.held_until();
        let phase = match self.phase {
            // Only the player's choice decides a promotion awaiting its piece.
            Phase::Pending { .. } if self.awaits_promotion_choice() => None,
            Phase::Pending { deadline, .. } => Some(deadline),
            Phase::Unexplained { quiet_at } | Phase::InHand { quiet_at, .. } => quiet_at,
            _ => None,
        };
        // A lift made before the window closed is either a real lift (which changes the board
        // before the deadline) or a bounce (after which the deadline stands): wait to know.
        // A press made before it decides what the deadline would have: wait for the press.
        let phase = phase.filter(|deadline| !self.held.made_before(*deadline));
        // The mover's flag cannot fall after a press that stopped the mover's time.
        let flag = self
            .flag_due()
            .filter(|due| self.held.press.is_none_or(|p| p.t >= *due));
        [
            self.reply_due(),
            self.reply_place_due(),
            self.press_due(),
            phase,
            flag,
            self.gesture_due(),
        ]
        .into_iter()
        .fold(held, earliest)
    }

    /// Handles every deadline due at or before `now`, in order.
    pub fn handle_timeout(&mut self, now: Millis) {
        while let Some(due) = self.poll_timeout().filter(|due| *due <= now) {
            if self.held_until() == Some(due) {
                self.release_held();
            } else if self.gesture_due() == Some(due) {
                self.make_gesture(due);
            } else if self.reply_due() == Some(due) {
                if let Some(reply) = self.held.reply.take() {
                    self.release_reply(reply, due, Seen::Hand);
                }
            } else if self.reply_place_due() == Some(due) {
                self.release_reply_place();
            } else if self.press_due() == Some(due) {
                self.press_horizon_passed();
            } else if self.flag_due() == Some(due) {
                self.flag_fell(due);
            } else {
                self.phase_timeout(due);
            }
            self.say_pending(due);
            self.review_gesture(due);
        }
    }

    /// A piece reported set down at `t` on `square`, taken in: the opponent's lifts held from
    /// its instant go after it when it is the mover's arrival.
    fn set_down(&mut self, t: Millis, square: Square, piece: Option<Piece>) {
        let replies = self.replies_before_arrival(t, square, piece);
        self.release_held();
        self.place(t, square, piece);
        self.placed_for_held_press();
        for (reply, seen) in replies {
            self.release_reply(reply, t, seen);
        }
    }

    /// The next decided game event, if any.
    #[must_use]
    pub fn poll_event(&mut self) -> Option<GameEvent> {
        if self.gesture_watched() {
            return None;
        }
        self.decisions.pop()
    }

    /// End of input: decides whatever is pending as the windows would close (a clock left
    /// running does not go on to a flag fall).
    pub fn finish(&mut self) {
        // A log with no input: a start position already over still gets its result.
        if self.input == Input::Awaited {
            self.first_input(self.decisions.last_t());
        }
        self.input = Input::Ended;
        while let Some(due) = self.poll_timeout() {
            self.handle_timeout(due);
        }
        // A press still waiting for its piece to be set down: nothing more will come.
        if self.held.press.is_some() {
            self.weigh_held_press();
            while let Some(due) = self.poll_timeout() {
                self.handle_timeout(due);
            }
        }
        self.settle_at_end();
        self.drop_gesture_watch();
    }

    fn emit(&mut self, t: Millis, kind: EventKind) {
        self.decisions.push(t, kind);
    }

    fn phase_timeout(&mut self, due: Millis) {
        match self.phase {
            Phase::Pending { .. } => self.decide_pending(due),
            Phase::Unexplained { quiet_at: Some(_) } => self.board_quiet(due),
            Phase::InHand {
                quiet_at: Some(_), ..
            } => self.in_hand_quiet(due),
            _ => {}
        }
    }

    fn lift(&mut self, t: Millis, square: Square, seen: Seen) {
        self.gesture_before_lift(square);
        self.sensed.changing(t);
        if self.phase == Phase::Closed {
            self.sensed.board.lift(square);
            return;
        }
        // A full report's lifts decide nothing on their own: it has no order, and what it shows
        // is weighed once it is all taken in (caught up on if need be).
        let by_opponent = seen != Seen::Snapshot && self.before_lift(t, square);
        if self.phase == Phase::Closed {
            // The move the lift decided ended the game.
            self.sensed.board.lift(square);
            return;
        }
        self.touches_before_event = self.turn.trace.touches().len();
        // A full report says what left the board, not which hand touched what first.
        let touch = seen != Seen::Snapshot && !by_opponent && self.lift_is_a_touch(square);
        let piece = self.sensed.board.identified_at(square);
        self.sensed.board.lift(square);
        self.sensed.motions.lift_at(square, t);
        self.observe(t);
        self.turn.trace.lift(square, t, touch);
        self.sensed.saw_lift(square, piece, seen == Seen::Snapshot);
        match seen {
            Seen::Snapshot => self.turn.trace.mark_unseen(),
            Seen::Unordered => self.turn.trace.excuse(square),
            Seen::Hand => {}
        }
        self.reassess(t);
    }

    fn place(&mut self, t: Millis, square: Square, piece: Option<Piece>) {
        self.gesture_before_place(square, piece);
        self.sensed.changing(t);
        if self.sensed.board.occupied().contains(square) {
            // A board reporting a capture as the new piece arriving over the victim.
            self.sensed.board.lift(square);
            self.sensed.motions.lift_at(square, t);
            self.turn.trace.lift(square, t, false);
        }
        self.touches_before_event = self.turn.trace.touches().len();
        self.sensed.saw_place(square);
        self.sensed.board.place(square, piece);
        self.sensed.motions.place_at(square, t);
        self.observe(t);
        self.turn.trace.place(square);
        if self.phase == Phase::Closed {
            self.check_new_game(t);
            return;
        }
        self.reassess(t);
    }

    /// Decisions a lift forces before it is taken in: the opponent starting a reply decides the
    /// pending move or completes an illegal one. Returns whether the lift is the opponent's.
    fn before_lift(&mut self, t: Millis, square: Square) -> bool {
        match self.phase {
            Phase::Pending {
                what: Pending::Takeback { .. },
                ..
            } => {
                self.decide_pending(t);
                false
            }
            Phase::Pending {
                what: Pending::Move { m, correction },
                ..
            } => {
                let replying = if correction {
                    self.turn.trace.origin_piece(square).map(|p| p.color) == Some(self.game.turn())
                } else if self.mover_press_held() {
                    // The mover has pressed: their hand is done, the lift is the reply's, and
                    // the press completes the move with its own time.
                    if self.opponents_piece(square) {
                        self.weigh_held_press();
                    }
                    false
                } else {
                    self.starts_reply(square, m.from())
                };
                if replying {
                    self.decide_pending(t);
                }
                false
            }
            Phase::Displaced {
                from,
                to,
                completed: false,
            } if self.starts_reply(square, Some(from)) => {
                self.complete_illegal(t, Some((from, to)), Completion::Reply(square));
                true
            }
            _ => false,
        }
    }

    /// Whether the piece that stood on `square` at the start of the turn is the opponent's (of
    /// the side to move).
    fn opponents_piece(&self, square: Square) -> bool {
        self.turn.trace.origin_piece(square).map(|p| p.color) == Some(!self.game.turn())
    }

    /// Whether lifting `square` is the opponent starting a reply: a piece of the side not to
    /// move, untouched this turn, that the piece just moved (from `mover_from`) could not
    /// legally capture.
    fn starts_reply(&self, square: Square, mover_from: Option<Square>) -> bool {
        let mover = self.game.turn();
        let theirs = self.turn.trace.origin_piece(square).map(|p| p.color) == Some(!mover);
        theirs
            && self.turn.trace.is_untouched_origin(square)
            && !mover_from.is_some_and(|from| can_capture(self.turn.legal.moves(), from, square))
    }

    /// Whether a lift of `square` binds the player to move. The piece the previous player just
    /// moved, lifted before the player to move has touched anything, is that player finishing
    /// (or correcting) the move, not a touch.
    fn lift_is_a_touch(&self, square: Square) -> bool {
        let Some(last) = self.previous.as_ref().and(self.game.last_move()) else {
            return true;
        };
        let just_moved = geometry::landing_squares(last).contains(square);
        !(just_moved
            && self.turn.trace.hand_is_empty()
            && !self.turn.trace.has_binding_touch_of(self.game.turn()))
    }

    /// `color` pressed the clock at `t`: what the press decides, then the last move's times
    /// follow the press.
    fn clock(&mut self, t: Millis, color: Color) {
        self.weigh_press(t, color);
        self.times_pressed(t, color);
    }

    /// `color` pressed the clock: the rulings of the press, and the clock follows it. A press
    /// that completes the mover's pending move is taken by the clock first, so that the move
    /// carries the times the clock shows once it is completed (the increment included).
    fn weigh_press(&mut self, t: Millis, color: Color) {
        if self.phase == Phase::Closed {
            return;
        }
        self.guess.pressed(color, t);
        let completes_move = color == self.game.turn()
            && matches!(
                self.phase,
                Phase::Pending {
                    what: Pending::Move {
                        correction: false,
                        ..
                    },
                    ..
                }
            );
        if completes_move {
            if let Some(clock) = self.clock.as_mut() {
                clock.pressed(color, t);
            }
            self.decide_pending(t);
            return;
        }
        // A held press weighed once the board left the move it showed after the press: the
        // press completed that move, and what moved the board on is the reply's (an opponent
        // lifting the piece it captures, en passant).
        let left = self
            .turn
            .left_candidate
            .filter(|left| color == self.game.turn() && left.t >= t);
        if let Some(left) = left {
            if let Some(clock) = self.clock.as_mut() {
                clock.pressed(color, t);
            }
            self.turn.left_candidate = None;
            self.decide_left(left, t);
            self.reassess(t);
            return;
        }
        self.clock_ruling(t, color);
        if let Some(clock) = self.clock.as_mut() {
            clock.pressed(color, t);
        }
    }

    /// What a press means to the game: it completes the mover's pending move or illegal
    /// placement; a press with no move is an illegal move (7.5.3), unless whose turn it was is
    /// a guess ([`Interpreter::press_against_guess`]) or the presser's side is exempt (it
    /// then only completes a pending move).
    fn clock_ruling(&mut self, t: Millis, color: Color) {
        if self.reinstating() {
            // The board is being put back as the arbiter said: no ruling.
            return;
        }
        if matches!(self.phase, Phase::Unexplained { .. }) {
            if color != self.game.turn() && self.guess.caught_up() > 0 {
                // The side the record has moving last, by a move caught up from the board,
                // pressed after moving again: the catch-up was wrong (more plies went by unseen
                // than the shortest sequence has), not the player.
                self.press_against_guess(t, color);
                return;
            }
            // The board matches nothing: what the press completes cannot be known, nor who
            // moved last.
            self.guess.turn_unknown();
            return;
        }
        if color != self.game.turn() {
            match self.phase {
                Phase::Pending {
                    what:
                        Pending::Move {
                            correction: true, ..
                        },
                    ..
                } => self.decide_pending(t),
                // The side that moved last pressed, the board at rest on the record's position:
                // the record's turn is right.
                Phase::AtRest => self.guess.confirmed(),
                // The board shows more than the record, and whose turn it is is a guess: the
                // press says the presser moved last.
                _ if self.guess.turn_guessed() => self.press_against_guess(t, color),
                _ => {}
            }
            return;
        }
        if self.config.exempt == Some(color) {
            // The side not at the board (an engine's, an online opponent's) is never judged
            // for a press: the player carries its moves out and may press for it or not, and
            // a host's own setting of the clock may look like its press. A press still
            // completes its move.
            if matches!(self.phase, Phase::Pending { .. }) {
                self.decide_pending(t);
            } else {
                diagnostic!(t, %color, "a press of the exempt side's, judged for nothing");
            }
            return;
        }
        match self.phase {
            Phase::Pending { .. } => self.decide_pending(t),
            Phase::Displaced {
                from,
                to,
                completed: false,
            } => self.complete_illegal(t, Some((from, to)), Completion::Press),
            _ if self.guess.turn_guessed() => self.press_against_guess(t, color),
            _ => self.complete_illegal(t, None, Completion::Press),
        }
    }

    /// `color` pressed while whose turn it is is a guess, and the record has no move of
    /// `color`'s for the press to complete (to move as far as the record guessed, no move seen;
    /// or not to move, the board showing more than the record): the guess was wrong, not the
    /// player (the board showed `color`'s move already made and it was caught up as the
    /// opponent's, or turns went by unseen). The plies caught up are taken back and the board is
    /// caught up again with `color`'s move last; if no single shortest sequence leads there, the
    /// board matches nothing and the game waits for it to say more.
    fn press_against_guess(&mut self, t: Millis, color: Color) {
        for _ in 0..self.guess.withdraw_caught_up() {
            if let Some(ply) = self.game.take_back() {
                self.emit(t, EventKind::Takeback { ply });
            }
        }
        self.start_turn(None);
        self.phase = Phase::Unexplained { quiet_at: None };
        self.sync.catch_up();
        self.catch_up_with(t, Some(color), false);
        if matches!(self.phase, Phase::Unexplained { .. }) {
            if !self.sync.mismatch_reported() {
                self.report_mismatch(t);
            }
        } else {
            // Caught up with the presser's move last: the press shows it right.
            self.guess.confirmed();
        }
    }

    /// A full picture of the board: the difference from what the board showed is fed in as
    /// lifts, then places. A piece identified where the board had an unidentified one is just
    /// named, not moved.
    fn snapshot(&mut self, t: Millis, snapshot: &BoardSnapshot) {
        if self.turn.seen_in_hand.is_none() {
            self.turn.seen_in_hand = self.piece_seen_in_hand();
        }
        self.sensed.begin_report();
        // A move under way when the board was last heard may have been completed unseen (a
        // capture changes no square's occupancy), and its press missed.
        let mut changed = !matches!(self.phase, Phase::AtRest | Phase::Closed);
        for square in self.sensed.board.occupied() {
            let gone = !snapshot.occupied.contains(square);
            let named = snapshot.pieces.piece_at(square);
            let replaced = named.is_some_and(|p| {
                self.sensed
                    .board
                    .identified_at(square)
                    .is_some_and(|known| known != p)
            });
            if gone || replaced {
                changed = true;
                self.lift(t, square, Seen::Snapshot);
            } else if let Some(piece) = named {
                self.sensed.board.identify(square, piece);
            }
        }
        for square in snapshot.occupied & !self.sensed.board.occupied() {
            changed = true;
            self.place(t, square, snapshot.pieces.piece_at(square));
        }
        if changed {
            // Changes went by unseen, and presses with them, perhaps: who moved last is not
            // known.
            self.guess.turn_unknown();
        }
        if (changed || self.game.plies() > 0) && !self.sensed.board.identified_any() {
            // A full report once the game has begun comes after a time unheard: on a board that
            // names no piece, pieces may have changed places unseen.
            self.guess.pieces_unknown();
        }
        if self.phase != Phase::Closed {
            self.reassess(t);
        }
        self.sensed.end_report();
        // Until the board matches again, every change is looked at for moves made while nobody
        // was listening (a move may still be under way when the snapshot came).
        if matches!(self.phase, Phase::Unexplained { .. } | Phase::InHand { .. }) {
            self.sync.catch_up();
        }
        // A sampling board's frame is weighed once the board has rested on it (a piece slid
        // across a square shows in a frame), others' full report at once.
        if matches!(self.phase, Phase::Unexplained { .. }) && !self.samples_occupancy() {
            self.catch_up(t);
        }
    }

    /// The board, missing pieces after a full report or while moves made unseen are looked
    /// for, has rested for the slide window at `t`: the pieces may be in hand, or may have been
    /// captured in moves nobody saw. Those moves are caught up if exactly one shortest sequence
    /// leads to what the board shows and no shorter one leaves pieces in hand
    /// ([`Interpreter::catch_up`]); otherwise the pieces are taken to be in hand, as before.
    ///
    /// While catching up, a board that then stays as it is for [`STALLED_MS`] more is said to
    /// differ (`mismatch`, the squares where it differs from the record's position, once): the
    /// host cannot follow it, and a board with lights shows a person what to put back. Nothing
    /// is played: pieces in hand and moves made unseen that the board cannot tell apart stay
    /// unguessed.
    fn in_hand_quiet(&mut self, t: Millis) {
        let rested = matches!(self.phase, Phase::InHand { rested: true, .. });
        self.phase = Phase::InHand {
            quiet_at: None,
            rested: false,
        };
        if rested {
            self.report_stalled(t);
            return;
        }
        self.catch_up(t);
        if matches!(self.phase, Phase::InHand { .. })
            && self.sync.catching_up()
            && !self.sync.mismatch_reported()
        {
            self.phase = Phase::InHand {
                quiet_at: Some(t.saturating_add(STALLED_MS)),
                rested: true,
            };
        }
    }

    /// Says the board differs from the record's position where it does (once while catching
    /// up), the board having stayed unexplained for [`STALLED_MS`] after the window.
    fn report_stalled(&mut self, t: Millis) {
        let position = self.game.position();
        let squares: Vec<Square> = self
            .sensed
            .board
            .differences(position.board())
            .into_iter()
            .collect();
        if squares.is_empty() || self.sync.mismatch_reported() || !self.sync.catching_up() {
            return;
        }
        self.sync.report_mismatch();
        self.emit(t, EventKind::Mismatch { squares });
    }

    /// The board has rested for the slide window at `t` on a position nothing expected
    /// explains: moves the board did not show one by one (a scan that caught two plies at
    /// once, hands quicker than the sensor) are caught up if exactly one shortest sequence
    /// leads there ([`Interpreter::catch_up`]); else the mismatch is reported, once, and the
    /// board is weighed again at its next rest.
    fn board_quiet(&mut self, t: Millis) {
        self.phase = Phase::Unexplained { quiet_at: None };
        self.catch_up(t);
        if matches!(self.phase, Phase::Unexplained { .. }) && !self.sync.mismatch_reported() {
            self.report_mismatch(t);
        }
    }

    /// The board, fully reported, matches nothing expected: moves may have been made while
    /// nobody was listening. If exactly one shortest legal sequence (up to
    /// [`catch_up::MAX_PLIES`] plies) leads to it, its moves are played, marked as
    /// reconstructed, with no rulings (no touch was seen); otherwise the mismatch stands.
    ///
    /// After a lift, the board most likely shows a piece in hand, not a position: a sequence is
    /// taken then only if its last move captured what was lifted (an en passant victim taken
    /// off last), not the piece in hand counted as captured. After a piece set down, only if
    /// its last move set a piece there (the order seen is kept).
    ///
    /// A press made since the board's last change says who completed the move it shows: only
    /// sequences whose last ply is that side's are looked at.
    pub(super) fn catch_up(&mut self, t: Millis) {
        let last_mover = self.guess.last_mover(self.sensed.changed_at());
        self.catch_up_with(t, last_mover, false);
    }

    /// The input has ended: on a board that samples occupancy (a scan period, no piece named),
    /// a capture made within its last frames shows only the capturing piece's square emptied,
    /// like a piece in hand; with the input ended no piece is in hand any more, so what the
    /// board shows is caught up on as moves made unseen, if exactly one shortest sequence leads
    /// there.
    fn settle_at_end(&mut self) {
        if !self.samples_occupancy()
            || !matches!(self.phase, Phase::InHand { .. } | Phase::Unexplained { .. })
        {
            return;
        }
        let t = self.decisions.last_t().max(self.sensed.changed_at());
        let last_mover = self.guess.last_mover(self.sensed.changed_at());
        self.catch_up_with(t, last_mover, true);
    }

    /// The board, as it stands after a change at `t`, is one more report of a board that
    /// samples occupancy.
    fn observe(&mut self, t: Millis) {
        if self.samples_occupancy() {
            self.sensed.observe(t, self.game.position());
            self.undecided
                .watch(self.game.position(), &self.sensed.board);
        }
    }

    /// Whether the board samples occupancy (a scan period, no piece named: a Certabo Sentio):
    /// a capture can then be made within one frame, unseen. Moves made unseen are then looked
    /// for with the reports the board made in their order ([`frames::Frames`]), and the
    /// sequences it leaves undecided followed further ([`catch_up::Undecided`]); on other
    /// boards, whose every change is seen, that costs time for little.
    pub(super) fn samples_occupancy(&self) -> bool {
        self.config.scan_ms > 0 && !self.sensed.board.identified_any()
    }

    /// The one piece of the side to move in hand, seen lifted by hand in this turn (its changes
    /// all seen one by one, the board otherwise showing the record's position), if exactly one
    /// is.
    fn piece_seen_in_hand(&self) -> Option<Square> {
        let in_step = self.sync == Sync::InStep && matches!(self.phase, Phase::InHand { .. });
        if !in_step || self.sensed.in_report() || !self.turn.trace.all_seen() {
            return None;
        }
        let position = self.game.position();
        let in_hand = position.board().by_color(position.turn()) & !self.sensed.board.occupied();
        in_hand.single_square().filter(|square| {
            self.turn
                .trace
                .lifted_any_of(Bitboard::from_square(*square))
        })
    }

    /// Catches up as [`Interpreter::catch_up`] does, with the sequence's last ply `last_mover`'s
    /// when given, and its first the move of the piece seen in hand before a full report, while
    /// its square stays empty.
    fn catch_up_with(&mut self, t: Millis, last_mover: Option<Color>, ended: bool) {
        if self.reinstating() {
            return;
        }
        // A board that also shows an earlier position may be a takeback: neither is taken.
        if self.matching_earlier().is_some() {
            return;
        }
        let first_from = self
            .turn
            .seen_in_hand
            .filter(|square| !self.sensed.board.occupied().contains(*square));
        let follow = self.samples_occupancy();
        let bounds = catch_up::Bounds {
            last_mover,
            first_from,
            last_seen: self.sensed.last_seen(),
            frames: follow.then_some(self.sensed.frames()),
            ended,
            promotion: match self.turn.promotion {
                _ if !follow => catch_up::Choice::Free,
                Some(role) => catch_up::Choice::Chosen(role),
                None if self.config.promotion_choice_awaited => catch_up::Choice::Awaited,
                None => catch_up::Choice::Free,
            },
            follow,
        };
        let position = self.game.position();
        // The piece asked about lifted where it stands: the sequences that set it there.
        if let Some(lines) = self.undecided.answered(position, &self.sensed.board) {
            let (made, rest) = catch_up::split_made(&lines);
            if !made.is_empty() {
                self.play_caught_up(t, made, rest);
            }
            return;
        }
        if self.undecided.answering(position) {
            return;
        }
        let mut found = catch_up::catch_up(position, &self.sensed.board, bounds);
        if found == catch_up::CatchUp::Nothing
            && let Some(lines) = self.undecided.lines_from(position)
        {
            // Too far from the record: looked for beyond the sequences an earlier board left
            // undecided.
            found = catch_up::catch_up_after(position, lines, &self.sensed.board, bounds);
        }
        if found == catch_up::CatchUp::Nothing
            && follow
            && let Some(moves) = self.correcting_sequence(bounds)
        {
            self.correct_caught_up(t, moves);
            return;
        }
        let (moves, rest) = match found {
            catch_up::CatchUp::One(moves) => {
                if !catch_up::keeps_the_order(position, &moves, self.sensed.last_seen()) {
                    return;
                }
                (moves, Vec::new())
            }
            catch_up::CatchUp::Settled(moves, rest) => (moves, rest),
            catch_up::CatchUp::Several(lines) | catch_up::CatchUp::Open(lines) => {
                // The moves every line begins with were made; the rest stays undecided.
                if !follow {
                    return;
                }
                let (made, rest) = catch_up::split_made(&lines);
                if made.is_empty() {
                    self.undecided.keep(position, lines);
                    self.ask_where_undecided(t);
                    return;
                }
                (made, rest)
            }
            catch_up::CatchUp::Nothing | catch_up::CatchUp::UnderWay => return,
        };
        self.play_caught_up(t, moves, rest);
    }

    /// On a board that samples occupancy, when no sequence from the record leads to the board:
    /// the one shortest sequence from the position before the last move that does, beginning
    /// with another move of the last move's piece (its landing square never left since). A
    /// piece knocked off and put back beside a piece in hand shows that piece's capture of it;
    /// when the piece captured elsewhere, the board showing the same, the replies made since
    /// show it (`Qxb4` for `Qxf7`, then `Rxf7 Kxf7`).
    fn correcting_sequence(&self, bounds: catch_up::Bounds<'_>) -> Option<Vec<Move>> {
        self.previous.as_ref()?;
        let last = self.game.last_move()?;
        let before = self.game.earlier(1)?;
        let landing = Bitboard::from_square(geometry::landing_square(last));
        if self.turn.trace.lifted_any_of(landing) {
            return None;
        }
        // The frames seen since are the record's, not the sequence's from before it.
        let bounds = catch_up::Bounds {
            frames: None,
            first_from: None,
            ..bounds
        };
        match catch_up::catch_up(before, &self.sensed.board, bounds) {
            catch_up::CatchUp::One(moves)
                if moves.len() >= 2
                    && moves
                        .first()
                        .is_some_and(|&m| m != last && self.landed_since(last, m)) =>
            {
                Some(moves)
            }
            _ => None,
        }
    }

    /// Whether the board showed `m`, another move of the piece of the last move `last`, made
    /// since `last` was decided: its victim's square emptied and filled again, or its landing
    /// square filled.
    fn landed_since(&self, last: Move, m: Move) -> bool {
        let since = self.turn.start_seq;
        let motions = &self.sensed.motions;
        m.from() == last.from()
            && match (geometry::capture_square(m), m.from()) {
                (Some(victim), Some(from)) => motions.captured_on(victim, from, since),
                _ => {
                    let landing = geometry::landing_square(m);
                    motions.placed_at(landing) > since && !self.may_be_promotion_piece(landing)
                }
            }
    }

    /// Replaces the last move by `moves` (from the position before it), caught up at `t`.
    fn correct_caught_up(&mut self, t: Millis, moves: Vec<Move>) {
        let Some(&first) = moves.first() else {
            return;
        };
        // The last move's turn and its correction were read from frames, not seen touch by
        // touch: no ruling comes of them.
        self.retract_for_correction(t, first);
        self.play_caught_up(t, moves, Vec::new());
    }

    /// Plays `moves`, caught up at `t` (made unseen), and keeps `rest`, the sequences after
    /// them left undecided.
    fn play_caught_up(&mut self, t: Millis, moves: Vec<Move>, rest: Vec<Vec<Move>>) {
        self.undecided = catch_up::Undecided::default();
        let root = self.game.position().clone();
        for &m in &moves {
            // Nobody saw the turn: correcting its move later earns no ruling (4.7).
            self.turn.trace = Trace::new(self.game.position().board(), self.game.turn());
            self.turn.trace.mark_unseen();
            self.play_decided(t, m, Decided::Reconstructed);
            if self.phase == Phase::Closed {
                return;
            }
        }
        if !rest.is_empty() {
            self.undecided.keep(self.game.position(), rest);
        }
        // What the board showed since it rested after these, and shows now, is the first
        // evidence for the moves after them.
        if self.samples_occupancy() {
            self.sensed
                .caught_up(t, &root, &moves, self.game.position());
        }
        self.reassess(t);
        self.ask_where_undecided(t);
    }

    /// Asks where a piece went, at `t`, when the sequences left undecided from the record's
    /// position leave that question and it was not asked yet ([`catch_up::question`]).
    fn ask_where_undecided(&mut self, t: Millis) {
        if self.undecided.lines_from(self.game.position()).is_none() {
            return;
        }
        if let Some((from, to)) = self.undecided.ask() {
            self.question_rules_out_gesture(from, &to);
            self.emit(t, EventKind::Ambiguous { from, to });
        }
    }

    /// When the running side's flag falls (never once the game is over or the input ended).
    fn flag_due(&self) -> Option<Millis> {
        if self.input == Input::Ended || self.phase == Phase::Closed {
            return None;
        }
        self.clock.as_ref()?.flag_due()
    }

    /// A flag fell at `t`: the game is lost, or drawn if the opponent cannot mate (6.9).
    fn flag_fell(&mut self, t: Millis) {
        let Some(loser) = self.clock.as_ref().and_then(|clock| clock.fallen(t)) else {
            return;
        };
        self.end_on_flag(t, loser);
    }

    /// From `t` on (after what the deadlines due by then decide), `side` is exempt from
    /// rulings and illegal-move counts ([`Config::exempt`]; `None`: no side is): an engine
    /// that can no longer play leaves its side to a person.
    pub fn set_exempt(&mut self, t: Millis, side: Option<Color>) {
        self.handle_timeout(t);
        self.config.exempt = side;
    }

    /// `loser`'s flag fell at `t`: the game ends (6.9).
    fn end_on_flag(&mut self, t: Millis, loser: Color) {
        self.game
            .end(crate::clock::flag_result(self.game.position(), loser));
        self.announce_ending_or_claims(t);
        self.phase = Phase::Closed;
    }

    fn check_new_game(&mut self, t: Millis) {
        let standard = shakmaty::Board::new();
        if self.sensed.board.shows(&standard) {
            self.game_number += 1;
            self.emit(
                t,
                EventKind::Game {
                    number: self.game_number,
                },
            );
            self.game = Game::new(Chess::default());
            self.guess = Guess::default();
            self.times_due = None;
            self.clock = self
                .clock
                .as_ref()
                .map(|clock| clock.restarted(self.game.turn(), t));
            self.start_turn(None);
        }
    }

    /// Starts the turn of the side to move in the current position.
    fn start_turn(&mut self, previous: Option<Turn>) {
        self.previous = previous;
        self.turn.restart(&self.game, self.sensed.motions.now());
        self.phase = if self.game.ending().is_some() {
            Phase::Closed
        } else {
            Phase::AtRest
        };
    }
}

/// The earlier of two deadlines, either of which may be absent.
fn earliest(a: Option<Millis>, b: Option<Millis>) -> Option<Millis> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, None) => a,
        (None, b) => b,
    }
}

#[cfg(test)]
mod tests;
