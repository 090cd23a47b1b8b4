//! A game on a live board: waiting for the starting position, then the interpreter.

use std::collections::VecDeque;

use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Square};

use touchmove_core::clock::{ClockReading, TimeControl};
use touchmove_core::event::{EventKind, GameEvent, one_line};
use touchmove_core::interpreter::{Config, Interpreter, PendingDecision};
use touchmove_core::replay::take_host_note;
use touchmove_core::rules::{Declared, chess960};
use touchmove_core::sensor::{BoardSnapshot, Millis, SensorEvent, SensorKind};
use touchmove_core::sensor_log::{HostNote, LogRecord};

use super::event::LiveEvent;
use super::feedback::{Feedback, FeedbackWriter};

/// Where a game read back from its recording stands, for the board's session to go on with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResumePoint {
    /// The side to move.
    pub to_move: Color,
    /// Whether the clock was pressed after the last move.
    pub pressed: bool,
    /// The last report of the clock plugged into the board, if the recording has one (a
    /// session can tell from it which side of the clock is White's).
    pub clock: Option<ClockReading>,
    /// The from and to squares of the last move standing, if one does (a castling king's):
    /// a board with lights shows them again.
    pub last_move: Option<(Square, Square)>,
}

/// Whether `seen` shows the pieces of `expected`: the same occupied squares, and each piece
/// the board identifies where `expected` has it.
fn shows(seen: &BoardSnapshot, expected: &Board) -> bool {
    seen.occupied == expected.occupied()
        && seen
            .pieces
            .clone()
            .into_iter()
            .all(|(square, piece)| expected.piece_at(square) == Some(piece))
}

/// A live board's game: until the board shows the starting position nothing is recorded;
/// from then on every sensor report goes to the interpreter.
///
/// Driven as the interpreter is (reports in with their time, deadlines asked for and handed
/// back), it also says what the board should show ([`LiveGame::poll_feedback`]):
///
/// ```
/// use shakmaty::{Chess, Color, Position, Square};
/// use touchmove_boards::live::{Feedback, LiveEvent, LiveGame};
/// use touchmove_core::sensor::BoardSnapshot;
/// use touchmove_core::{Config, EventKind, SensorEvent, SensorKind};
///
/// let mut game = LiveGame::new(Chess::default(), Config::default());
/// // The board's first report: the pieces set up. The game starts.
/// let set_up = BoardSnapshot::occupancy(Chess::default().board().occupied());
/// game.handle_sensor(&SensorEvent::new(0, SensorKind::Snapshot(Box::new(set_up))));
/// assert_eq!(game.poll_event(), Some(LiveEvent::Started { t: 0 }));
/// // 1. e4, decided once the pawn has rested on e4 for the slide window.
/// let lift = SensorKind::Lift { square: Square::E2, piece: None };
/// let place = SensorKind::Place { square: Square::E4, piece: None };
/// game.handle_sensor(&SensorEvent::new(1_000, lift));
/// game.handle_sensor(&SensorEvent::new(1_400, place));
/// while let Some(deadline) = game.poll_timeout() {
///     game.handle_timeout(deadline);
/// }
/// let decided = game.poll_event();
/// assert!(matches!(decided, Some(LiveEvent::Decision(e))
///     if matches!(&e.kind, EventKind::Move(m) if m.san.to_string() == "e4")));
/// // The board is told, to light the squares or set a clock's text.
/// assert_eq!(game.poll_feedback(), Some(Feedback::Started { to_move: Color::White }));
/// assert_eq!(
///     game.poll_feedback(),
///     Some(Feedback::Moved { by: Color::White, from: Square::E2, to: Square::E4 })
/// );
/// ```
#[derive(Debug)]
pub struct LiveGame {
    start: Chess,
    config: Config,
    time_control: Option<TimeControl>,
    /// The board as seen before the game starts.
    seen: BoardSnapshot,
    interpreter: Option<Interpreter>,
    out: VecDeque<LiveEvent>,
    writer: FeedbackWriter,
    feedback: VecDeque<Feedback>,
    /// While a set-up game waits for its position: whether the board has shown anything but
    /// the standard start since (then the standard start, shown again, is a new game from it).
    left_standard: Option<bool>,
    /// A Chess960 start the board shows is played from ([`LiveGame::recognising_chess960`]).
    recognise_chess960: bool,
    /// The promotion waiting for the player's choice of piece, once said.
    promotion_asked: Option<shakmaty::Move>,
    /// The board's whole picture the game started from, when the report just taken started it.
    started_from: Option<SensorEvent>,
}

impl LiveGame {
    /// A game that starts when the board shows `start` (its pieces, whoever is to move).
    pub fn new(start: Chess, config: Config) -> LiveGame {
        LiveGame {
            writer: FeedbackWriter::new(start.turn()),
            start,
            config,
            time_control: None,
            seen: BoardSnapshot::occupancy(Bitboard::EMPTY),
            interpreter: None,
            out: VecDeque::new(),
            feedback: VecDeque::new(),
            left_standard: None,
            recognise_chess960: false,
            promotion_asked: None,
            started_from: None,
        }
    }

    /// The game, waiting for the standard start, is played from a Chess960 start instead if an
    /// identifying board shows one before the first move (`watch`, `serve`; not a game against
    /// an engine or a server, which set their start themselves).
    pub fn recognising_chess960(mut self) -> LiveGame {
        self.recognise_chess960 = true;
        self
    }

    /// Runs a clock for `time_control` once the game starts.
    pub fn with_time_control(mut self, time_control: Option<TimeControl>) -> LiveGame {
        self.time_control = time_control;
        self
    }

    /// The position the game starts from.
    pub fn start(&self) -> &Chess {
        &self.start
    }

    /// Whether the game has started (the board showed the starting position).
    pub fn started(&self) -> bool {
        self.interpreter.is_some()
    }

    /// The interpreter, once the game has started.
    pub fn interpreter(&self) -> Option<&Interpreter> {
        self.interpreter.as_ref()
    }

    /// Takes one sensor report.
    pub fn handle_sensor(&mut self, event: &SensorEvent) {
        self.started_from = None;
        self.seen.apply(&event.kind);
        if let Some(interpreter) = self.interpreter.as_mut() {
            interpreter.handle_event(event);
            self.drain(event.t);
            return;
        }
        if !self.start_if_shown(event.t) && matches!(event.kind, SensorKind::Snapshot(_)) {
            self.say(LiveEvent::Waiting {
                seen: self.seen.clone(),
            });
        }
    }

    /// What a recording keeps of `event`, the report just taken: the board's whole picture
    /// the game started from when `event` started it (what the game took, not the report: a
    /// replay of the recording then decides as the game did), else `event`.
    pub fn recorded(&self, event: &SensorEvent) -> SensorEvent {
        self.started_from
            .clone()
            .filter(|from| from.t == event.t)
            .unwrap_or_else(|| event.clone())
    }

    /// Starts the game at `t` if the board shows its starting position; returns whether it did.
    /// A set-up game whose position the board has not shown gives way to a new game from the
    /// standard start when the board comes to show it (the players set up the pieces for a
    /// game of their own, as DGT LiveChess follows it).
    fn start_if_shown(&mut self, t: Millis) -> bool {
        if let Some(start) = self.chess960_shown() {
            self.writer = FeedbackWriter::new(start.turn());
            self.start = start;
        }
        if !shows(&self.seen, self.start.board()) {
            let standard = Chess::default();
            let at_standard = shows(&self.seen, standard.board());
            match self.left_standard.as_mut() {
                Some(left) if !at_standard => *left = true,
                Some(true) => {
                    self.set_up(t, standard);
                    return true;
                }
                _ => {}
            }
            return false;
        }
        self.left_standard = None;
        let mut interpreter = Interpreter::new(self.start.clone(), self.config);
        if let Some(time_control) = &self.time_control {
            interpreter = interpreter.with_time_control(time_control.clone());
        }
        // The pieces the board identified are known from the start.
        let started_from = SensorEvent::new(t, SensorKind::Snapshot(Box::new(self.seen.clone())));
        interpreter.handle_event(&started_from);
        self.started_from = Some(started_from);
        self.interpreter = Some(interpreter);
        self.say(LiveEvent::Started { t });
        self.drain(t);
        true
    }

    /// The Chess960 start the board shows, while the game waits for the standard start (nothing
    /// else was asked for) and the board names every piece: the players set up a Chess960
    /// position, and the game is played from it.
    fn chess960_shown(&self) -> Option<Chess> {
        if !self.recognise_chess960
            || self.start != Chess::default()
            || self.left_standard.is_some()
            || self.seen.pieces.occupied() != self.seen.occupied
        {
            return None;
        }
        let number = chess960::number_of(&self.seen.pieces)?;
        (number != chess960::STANDARD)
            .then(|| chess960::position(number))
            .flatten()
    }

    /// A new game from `start` is set up at `now`: what is pending of the game in progress is
    /// decided and that game is over; the new one starts when the board shows `start` (at once
    /// if it does).
    pub fn set_up(&mut self, now: Millis, start: Chess) {
        self.finish();
        self.interpreter = None;
        self.writer = FeedbackWriter::new(start.turn());
        let standard = start == Chess::default();
        self.start = start;
        self.left_standard = (!standard).then(|| !shows(&self.seen, Chess::default().board()));
        self.say(LiveEvent::SetUp { t: now });
        self.start_if_shown(now);
    }

    /// The board as its reports show it.
    pub fn seen(&self) -> &BoardSnapshot {
        &self.seen
    }

    /// Takes the records of the game's recording (a `watch --record` log; a header is
    /// skipped), as the live session took them, to go on where it stopped (`watch
    /// --resume`): the decisions come out of [`LiveGame::poll_event`] as usual. Returns where
    /// the game stands, once it has started.
    pub fn replay_recording(
        &mut self,
        records: impl IntoIterator<Item = LogRecord>,
    ) -> Option<ResumePoint> {
        self.replay_recording_with(records, |_, _, _| {})
    }

    /// [`LiveGame::replay_recording`], handing each of the log's host notes to `on_note` once
    /// the game has taken its part of it (a game against an engine rebuilds its engine game so:
    /// the decisions before the note are in [`LiveGame::poll_event`]).
    pub fn replay_recording_with(
        &mut self,
        records: impl IntoIterator<Item = LogRecord>,
        mut on_note: impl FnMut(&mut LiveGame, Millis, &HostNote),
    ) -> Option<ResumePoint> {
        let mut pressed = false;
        let mut clock = None;
        for record in records {
            let before = self.out.len();
            let mut note = None;
            let press = match record {
                LogRecord::Event(event) => {
                    self.handle_sensor(&event);
                    matches!(event.kind, SensorKind::Clock(_))
                }
                LogRecord::ClockReading { t, reading } => {
                    self.handle_clock_reading(t, &reading);
                    clock = Some(reading);
                    false
                }
                LogRecord::HostNote { t, note: taken } => {
                    self.handle_host_note(t, &taken);
                    note = Some((t, taken));
                    false
                }
                LogRecord::Header(_) => false,
            };
            let moved = self.out.iter().skip(before).any(|event| {
                matches!(
                    event,
                    LiveEvent::Decision(GameEvent {
                        kind: EventKind::Move(_),
                        ..
                    })
                )
            });
            // A press completing the move it decided is that move's press.
            pressed = press || (pressed && !moved);
            if let Some((t, taken)) = note {
                on_note(self, t, &taken);
            }
        }
        // The board is told where the game stands by `BoardSession::resume`, not move by move.
        self.feedback.clear();
        let game = self.interpreter.as_ref()?.game();
        Some(ResumePoint {
            to_move: game.turn(),
            pressed,
            clock,
            last_move: game.last_move().map(super::move_squares),
        })
    }

    /// Takes a report of the clock plugged into the board (ignored until the game starts).
    pub fn handle_clock_reading(&mut self, t: Millis, reading: &ClockReading) {
        if let Some(interpreter) = self.interpreter.as_mut() {
            interpreter.handle_clock_reading(t, reading);
            self.drain(t);
        }
    }

    /// When [`LiveGame::handle_timeout`] must next be called.
    #[must_use]
    pub fn poll_timeout(&self) -> Option<Millis> {
        self.interpreter
            .as_ref()
            .and_then(Interpreter::poll_timeout)
    }

    /// From `now` on, `side` is exempt from rulings
    /// ([`touchmove_core::interpreter::Interpreter::set_exempt`]; nothing before the game starts).
    pub fn set_exempt(&mut self, now: Millis, side: Option<Color>) {
        if let Some(interpreter) = self.interpreter.as_mut() {
            interpreter.set_exempt(now, side);
            self.drain(now);
        }
    }

    /// Takes what the host knew at `t`, as the sensor log keeps it, as a replay takes it
    /// ([`touchmove_core::replay::take_host_note`]: a result, the clock, the arbiter's notes,
    /// tags and reinstatements, an engine gone); nothing before the game starts but a tag.
    pub fn handle_host_note(&mut self, t: Millis, note: &HostNote) {
        match (self.interpreter.as_mut(), note) {
            (Some(interpreter), _) => {
                take_host_note(interpreter, t, note);
                self.drain(t);
            }
            // A tag is named before the game starts too: the same event a replay's
            // interpreter, there from the log's start, says.
            (None, HostNote::Tag { tag, value }) => {
                let kind = EventKind::Tag {
                    tag: *tag,
                    value: one_line(value),
                };
                self.say(LiveEvent::Decision(GameEvent { t, kind }));
            }
            (None, _) => {}
        }
    }

    /// `color` resigned at `now` ([`touchmove_core::interpreter::Interpreter::resign`]; nothing
    /// before the game starts).
    pub fn resign(&mut self, now: Millis, color: Color) {
        self.handle_host_note(now, &HostNote::Declared(Declared::Resigned(color)));
    }

    /// Handles the deadlines due at `now`.
    pub fn handle_timeout(&mut self, now: Millis) {
        if let Some(interpreter) = self.interpreter.as_mut() {
            interpreter.handle_timeout(now);
            self.drain(now);
        }
    }

    /// The session is over: decides what is pending.
    pub fn finish(&mut self) {
        if let Some(interpreter) = self.interpreter.as_mut() {
            interpreter.finish();
            self.drain_decisions();
        }
    }

    /// The next thing to report.
    #[must_use]
    pub fn poll_event(&mut self) -> Option<LiveEvent> {
        self.out.pop_front()
    }

    /// The next thing to tell the board (its LEDs, its clock's display), in the order the
    /// events it comes from were decided.
    #[must_use]
    pub fn poll_feedback(&mut self) -> Option<Feedback> {
        self.feedback.pop_front()
    }

    /// The interpreter's decisions at `t`, then the promotion it awaits the piece of, if that
    /// began to wait.
    fn drain(&mut self, t: Millis) {
        self.drain_decisions();
        self.ask_promotion(t);
    }

    /// The interpreter's decisions.
    fn drain_decisions(&mut self) {
        while let Some(decision) = self.interpreter.as_mut().and_then(Interpreter::poll_event) {
            self.say(LiveEvent::Decision(decision));
        }
    }

    /// Says once that a promotion waits for the player's choice of piece, and shows its
    /// squares on the board (`e8=? QRBN` on a display).
    fn ask_promotion(&mut self, t: Millis) {
        if !self.config.promotion_choice_awaited {
            return;
        }
        let awaited = self.interpreter.as_ref().and_then(|interpreter| {
            match interpreter.turn_view().pending {
                Some(PendingDecision::PromotionChoice { chess_move }) => Some(chess_move),
                _ => None,
            }
        });
        if std::mem::replace(&mut self.promotion_asked, awaited) == awaited {
            return;
        }
        let Some(Move::Normal { from, to, .. }) = awaited else {
            return;
        };
        self.out
            .push_back(LiveEvent::PromotionAsked { t, from, to });
        self.feedback.push_back(Feedback::Show {
            from,
            to,
            text: format!("{to}=? QRBN"),
        });
    }

    /// Queues `event`, and what it tells the board.
    fn say(&mut self, event: LiveEvent) {
        if let Some(feedback) = self.writer.write(&event) {
            self.feedback.push_back(feedback);
        }
        self.out.push_back(event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;

    fn snapshot(board: &Board) -> SensorEvent {
        SensorEvent::new(
            0,
            SensorKind::Snapshot(Box::new(BoardSnapshot::identified(board))),
        )
    }

    #[test]
    fn a_board_showing_the_start_position_starts_the_game() {
        let mut game = LiveGame::new(Chess::default(), Config::default());
        game.handle_sensor(&snapshot(&Board::new()));
        assert_eq!(game.poll_event(), Some(LiveEvent::Started { t: 0 }));
        assert!(game.started());
    }

    #[test]
    fn a_chess960_start_an_identifying_board_shows_is_played_from_when_recognised() {
        let eleven = chess960::position(11).expect("position 11");
        // Recognised (watch, serve): the game starts from it, in Chess960 castling mode.
        let mut game = LiveGame::new(Chess::default(), Config::default()).recognising_chess960();
        game.handle_sensor(&snapshot(eleven.board()));
        assert_eq!(game.poll_event(), Some(LiveEvent::Started { t: 0 }));
        assert_eq!(game.start(), &eleven);
        assert!(chess960::is_chess960(game.start()));
        // Not recognised (a game against an engine): it waits for the standard start.
        let mut game = LiveGame::new(Chess::default(), Config::default());
        game.handle_sensor(&snapshot(eleven.board()));
        assert!(matches!(game.poll_event(), Some(LiveEvent::Waiting { .. })));
        // An occupancy board cannot say which piece stands where: it waits.
        let mut game = LiveGame::new(Chess::default(), Config::default()).recognising_chess960();
        let occupancy = BoardSnapshot::occupancy(eleven.board().occupied());
        game.handle_sensor(&SensorEvent::new(
            0,
            SensorKind::Snapshot(Box::new(occupancy)),
        ));
        assert_eq!(game.poll_event(), Some(LiveEvent::Started { t: 0 }));
        assert_eq!(
            game.start(),
            &Chess::default(),
            "the occupancy is the standard start's"
        );
    }

    #[test]
    fn a_board_showing_something_else_waits_until_it_is_set_up() {
        let mut game = LiveGame::new(Chess::default(), Config::default());
        let mut board = Board::new();
        let pawn = board.remove_piece_at(Square::E2).expect("a pawn");
        board.set_piece_at(Square::E4, pawn);
        game.handle_sensor(&snapshot(&board));
        assert!(matches!(game.poll_event(), Some(LiveEvent::Waiting { .. })));
        assert!(!game.started());
        let lift = SensorKind::Lift {
            square: Square::E4,
            piece: Some(pawn),
        };
        game.handle_sensor(&SensorEvent::new(100, lift));
        assert_eq!(game.poll_event(), None);
        let place = SensorKind::Place {
            square: Square::E2,
            piece: Some(pawn),
        };
        game.handle_sensor(&SensorEvent::new(200, place));
        assert_eq!(game.poll_event(), Some(LiveEvent::Started { t: 200 }));
    }

    #[test]
    fn a_game_set_up_starts_when_the_board_shows_it() {
        let mut game = LiveGame::new(Chess::default(), Config::default());
        game.handle_sensor(&snapshot(&Board::new()));
        assert_eq!(game.poll_event(), Some(LiveEvent::Started { t: 0 }));
        // Set up from the position after 1. e4: the board does not show it yet.
        let e4: Chess = shakmaty::fen::Fen::from_ascii(
            b"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        )
        .ok()
        .and_then(|fen| fen.into_position(shakmaty::CastlingMode::Standard).ok())
        .unwrap_or_default();
        game.set_up(500, e4.clone());
        assert_eq!(game.poll_event(), Some(LiveEvent::SetUp { t: 500 }));
        assert_eq!(game.poll_event(), None);
        assert!(!game.started());
        assert_eq!(game.start(), &e4);
        let pawn = Some(shakmaty::Color::White.pawn());
        game.handle_sensor(&SensorEvent::new(
            900,
            SensorKind::Lift {
                square: Square::E2,
                piece: pawn,
            },
        ));
        assert_eq!(game.poll_event(), None);
        game.handle_sensor(&SensorEvent::new(
            1000,
            SensorKind::Place {
                square: Square::E4,
                piece: pawn,
            },
        ));
        assert_eq!(game.poll_event(), Some(LiveEvent::Started { t: 1000 }));
        assert_eq!(
            game.interpreter().map(|i| i.game().turn()),
            Some(shakmaty::Color::Black)
        );
        // Set up again from the position the board shows: it starts at once.
        game.set_up(2000, e4);
        assert_eq!(game.poll_event(), Some(LiveEvent::SetUp { t: 2000 }));
        assert_eq!(game.poll_event(), Some(LiveEvent::Started { t: 2000 }));
    }

    #[test]
    fn a_set_up_position_never_shown_gives_way_to_a_new_game_from_the_standard_start() {
        let mut game = LiveGame::new(Chess::default(), Config::default());
        game.handle_sensor(&snapshot(&Board::new()));
        assert_eq!(game.poll_event(), Some(LiveEvent::Started { t: 0 }));
        // Set up from a position the board will never show (an empty board but the kings).
        let kings: Chess = shakmaty::fen::Fen::from_ascii(b"4k3/8/8/8/8/8/8/4K3 w - - 0 1")
            .ok()
            .and_then(|fen| fen.into_position(shakmaty::CastlingMode::Standard).ok())
            .unwrap_or_default();
        game.set_up(500, kings);
        assert_eq!(game.poll_event(), Some(LiveEvent::SetUp { t: 500 }));
        // The board still shows the standard start: the set-up game waits.
        game.handle_sensor(&snapshot(&Board::new()));
        assert_eq!(
            game.poll_event(),
            Some(LiveEvent::Waiting {
                seen: game.seen().clone()
            })
        );
        assert!(!game.started());
        // The players set the pieces up again: a knight off, then back.
        let pawn = Some(shakmaty::Color::White.knight());
        for (t, kind) in [
            (
                900,
                SensorKind::Lift {
                    square: Square::G1,
                    piece: pawn,
                },
            ),
            (
                1000,
                SensorKind::Place {
                    square: Square::G1,
                    piece: pawn,
                },
            ),
        ] {
            game.handle_sensor(&SensorEvent::new(t, kind));
        }
        assert_eq!(game.poll_event(), Some(LiveEvent::SetUp { t: 1000 }));
        assert_eq!(game.poll_event(), Some(LiveEvent::Started { t: 1000 }));
        assert_eq!(game.start(), &Chess::default());
    }

    #[test]
    fn after_the_start_the_interpreter_decides() {
        let mut game = LiveGame::new(Chess::default(), Config::default());
        game.handle_sensor(&snapshot(&Board::new()));
        assert_eq!(game.poll_event(), Some(LiveEvent::Started { t: 0 }));
        let pawn = shakmaty::Color::White.pawn();
        let lift = SensorKind::Lift {
            square: Square::E2,
            piece: Some(pawn),
        };
        let place = SensorKind::Place {
            square: Square::E4,
            piece: Some(pawn),
        };
        game.handle_sensor(&SensorEvent::new(1000, lift));
        game.handle_sensor(&SensorEvent::new(1300, place));
        game.finish();
        let decision = game.poll_event();
        assert!(
            matches!(&decision, Some(LiveEvent::Decision(GameEvent { t: 1300, kind: touchmove_core::event::EventKind::Move(m) })) if m.san.to_string() == "e4"),
            "{decision:?}"
        );
    }

    #[test]
    fn a_promotion_the_board_cannot_tell_is_asked_for_once_and_decided_by_the_choice() {
        use shakmaty::fen::Fen;
        let start: Chess = "k7/4P3/8/8/8/8/8/4K3 w - - 0 1"
            .parse::<Fen>()
            .expect("a FEN")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("legal");
        let config = Config::default().awaiting_promotion_choice();
        let mut game = LiveGame::new(start.clone(), config);
        let at = |t, kind| SensorEvent::new(t, kind);
        let occupancy = BoardSnapshot::occupancy(start.board().occupied());
        game.handle_sensor(&at(0, SensorKind::Snapshot(Box::new(occupancy))));
        assert_eq!(game.poll_event(), Some(LiveEvent::Started { t: 0 }));
        game.handle_sensor(&at(
            1000,
            SensorKind::Lift {
                square: Square::E7,
                piece: None,
            },
        ));
        game.handle_sensor(&at(
            1200,
            SensorKind::Place {
                square: Square::E8,
                piece: None,
            },
        ));
        while let Some(deadline) = game.poll_timeout() {
            game.handle_timeout(deadline);
        }
        let events: Vec<LiveEvent> = std::iter::from_fn(|| game.poll_event()).collect();
        let asked = LiveEvent::PromotionAsked {
            t: 1200,
            from: Square::E7,
            to: Square::E8,
        };
        assert_eq!(
            events.iter().filter(|e| **e == asked).count(),
            1,
            "{events:?}"
        );
        assert!(
            !events.iter().any(
                |e| matches!(e, LiveEvent::Decision(d) if matches!(d.kind, EventKind::Move(_)))
            ),
            "decided before the choice: {events:?}"
        );
        let shown: Vec<Feedback> = std::iter::from_fn(|| game.poll_feedback()).collect();
        assert!(
            shown.contains(&Feedback::Show {
                from: Square::E7,
                to: Square::E8,
                text: "e8=? QRBN".to_owned(),
            }),
            "{shown:?}"
        );
        // The player types `promote n`: the knight, and nothing asked again.
        game.handle_sensor(&at(9000, SensorKind::Promote(shakmaty::Role::Knight)));
        while let Some(deadline) = game.poll_timeout() {
            game.handle_timeout(deadline);
        }
        let events: Vec<LiveEvent> = std::iter::from_fn(|| game.poll_event()).collect();
        let sans: Vec<String> = events
            .iter()
            .filter_map(|e| match e {
                LiveEvent::Decision(GameEvent {
                    kind: EventKind::Move(m),
                    ..
                }) => Some(m.san.to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(sans, ["e8=N"], "{events:?}");
        assert!(!events.contains(&asked));
    }
}
