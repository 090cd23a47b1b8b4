//! A game against an engine on the board (`touchmove play`), sans-IO: between the interpreter's
//! decisions and the game's record. The human's moves are the interpreter's; the engine's move
//! must be carried out on the board as the engine chose it: a different move (or promotion
//! piece) is reported ("carry out Nf3, not Nc3") and the game waits until the board shows the
//! engine's move. The engine's side earns no Article 4 rulings and no illegal-move penalty.
//!
//! Fed the interpreter's decisions ([`EngineGame::handle_decision`]) and the engine's moves
//! ([`EngineGame::handle_engine_move`]); what comes out ([`EngineGame::poll_event`]) is the
//! game's record, when to ask the engine, and what to show on the board.

mod replay;
#[cfg(test)]
mod tests;

pub use replay::EngineReplay;

use std::collections::VecDeque;

use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Move, Position};

use crate::{Score, score_fields, score_from_fields};
use touchmove_boards::live::{Feedback, carry_out, move_squares};
use touchmove_core::event::{EventKind, GameEvent};
use touchmove_core::sensor::Millis;
use touchmove_core::sensor_log::HostNote;
use touchmove_core::stream::{
    CoachWarning, EngineMove, Execution, StreamEvent, StreamKind, TableResult,
};

/// What the game against the engine has to say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayEvent {
    /// A decision of the game's record (moves that stand, takebacks, the human's rulings, the
    /// engine's choice, a wrong execution, the result).
    Decision(StreamEvent),
    /// Ask the engine for its move in the game as it stands ([`EngineGame::start`],
    /// [`EngineGame::moves`]).
    AskEngine,
    /// The engine's search under way no longer applies.
    CancelEngine,
    /// Show this on the board (the engine's move to carry out).
    Show(Feedback),
}

/// A game against an engine that plays `engine`.
///
/// Between the interpreter (the board) and the engine's process, with no I/O of its own:
///
/// ```
/// use shakmaty::uci::UciMove;
/// use shakmaty::{Chess, Color, Square};
/// use touchmove_boards::live::{Feedback, move_squares};
/// use touchmove_engine::play::{EngineGame, PlayEvent};
/// use touchmove_core::stream::StreamKind;
/// use touchmove_core::{Config, EventKind, Interpreter, SensorEvent, SensorKind};
///
/// // The engine plays Black: its side earns no rulings on the board.
/// let config = Config::default().with_exempt(Some(Color::Black));
/// let mut board = Interpreter::new(Chess::default(), config);
/// let mut game = EngineGame::new(Chess::default(), Color::Black);
/// game.started();
/// // The player's 1. e4, as the interpreter decides it from the board.
/// let lift = SensorKind::Lift { square: Square::E2, piece: None };
/// let place = SensorKind::Place { square: Square::E4, piece: None };
/// board.handle_event(&SensorEvent::new(0, lift));
/// board.handle_event(&SensorEvent::new(400, place));
/// board.finish();
/// while let Some(decided) = board.poll_event() {
///     game.handle_decision(&decided);
/// }
/// let out: Vec<PlayEvent> = std::iter::from_fn(|| game.poll_event()).collect();
/// assert!(matches!(&out[0], PlayEvent::Decision(e) if matches!(e.game(), Some(EventKind::Move(_)))));
/// assert_eq!(out[1], PlayEvent::AskEngine);
/// // The engine answers 1... e5: recorded as its choice, and shown for the player to carry out.
/// let e5 = UciMove::from_ascii(b"e7e5").ok().and_then(|m| m.to_move(game.position()).ok());
/// game.handle_engine_move(900, e5.expect("a legal move"), None);
/// let out: Vec<PlayEvent> = std::iter::from_fn(|| game.poll_event()).collect();
/// assert!(out.contains(&PlayEvent::Show(Feedback::Show {
///     from: Square::E7,
///     to: Square::E5,
///     text: "e5".to_owned(),
/// })));
/// assert!(out.iter().any(|e| matches!(e, PlayEvent::Decision(d)
///     if matches!(&d.kind, StreamKind::Engine(choice) if choice.san == "e5"))));
/// ```
#[derive(Debug, Clone)]
pub struct EngineGame {
    engine: Color,
    start: Chess,
    /// The game as it stands: the moves accepted.
    record: Vec<Move>,
    position: Chess,
    /// The interpreter's moves, as its decisions say, each with its event.
    seen: Vec<GameEvent>,
    /// The engine's move, once it chose one, until it is carried out.
    expected: Option<Move>,
    /// The move last reported as a wrong execution (`Some(None)`: no legal move), until the
    /// board shows the game again.
    reported: Option<Option<Move>>,
    over: bool,
    /// The engine can no longer play: the game goes on between two players.
    gone: bool,
    out: VecDeque<PlayEvent>,
}

impl EngineGame {
    /// A game from `start` in which the engine plays `engine`.
    pub fn new(start: Chess, engine: Color) -> EngineGame {
        EngineGame {
            engine,
            position: start.clone(),
            start,
            record: Vec::new(),
            seen: Vec::new(),
            expected: None,
            reported: None,
            over: false,
            gone: false,
            out: VecDeque::new(),
        }
    }

    /// The engine can no longer play (it would not start again): from now on its side's moves
    /// stand as the board shows them, as in a game between two players (the rulings the
    /// interpreter makes for that side, if it makes any, pass too).
    pub fn engine_gone(&mut self, t: Millis) {
        self.gone = true;
        self.expected = None;
        // A move already made for it stands now.
        self.reconcile(t);
    }

    /// The side the engine plays.
    pub fn engine_color(&self) -> Color {
        self.engine
    }

    /// The position the game started from.
    pub fn start(&self) -> &Chess {
        &self.start
    }

    /// The moves that stand.
    pub fn moves(&self) -> &[Move] {
        &self.record
    }

    /// The game as it stands.
    pub fn position(&self) -> &Chess {
        &self.position
    }

    /// Whether the engine is to move (and has not been told the game is over).
    pub fn engine_to_move(&self) -> bool {
        !self.over
            && !self.gone
            && self.position.turn() == self.engine
            && !self.position.is_game_over()
    }

    /// The next thing to do or say.
    pub fn poll_event(&mut self) -> Option<PlayEvent> {
        self.out.pop_front()
    }

    /// The board showed the starting position: the game is on (the engine is asked if it
    /// moves first).
    pub fn started(&mut self) {
        self.ask_if_engine_to_move();
    }

    /// A decision of the interpreter.
    pub fn handle_decision(&mut self, event: &GameEvent) {
        match &event.kind {
            EventKind::Move(played) => {
                self.seen.truncate(before(played.ply));
                self.seen.push(event.clone());
                self.reconcile(event.t);
            }
            EventKind::Takeback { ply } => {
                self.seen.truncate(before(*ply));
                self.reconcile(event.t);
            }
            EventKind::Game { .. } => {
                let gone = self.gone;
                *self = EngineGame::new(Chess::default(), self.engine);
                self.gone = gone;
                self.pass(event.clone());
                self.ask_if_engine_to_move();
            }
            // The player's move, shown while it waits to be decided; the engine's is shown
            // already.
            EventKind::Pending(pending) if pending.color != self.engine && !self.over => {
                let text = pending.san.clone();
                self.out
                    .push_back(PlayEvent::Show(Feedback::Pending { text }));
                self.pass(event.clone());
            }
            EventKind::Violation(violation) if violation.color == self.engine && !self.gone => {}
            EventKind::Illegal(illegal) if illegal.color == self.engine && !self.gone => {
                self.report(event.t, None);
            }
            EventKind::Result(_) => {
                self.over = true;
                self.out.push_back(PlayEvent::CancelEngine);
                self.pass(event.clone());
            }
            _ => self.pass(event.clone()),
        }
    }

    /// The engine chose `chosen` at `t` (in the game as it stood when it was asked), its last
    /// score `score`.
    pub fn handle_engine_move(&mut self, t: Millis, chosen: Move, score: Option<Score>) {
        self.engine_chose(t, chosen, score, false);
    }

    /// The opening book gave `chosen` at `t` for the engine's side (in the game as it stood
    /// when the engine was to be asked): it stands for the engine's choice, marked `book`.
    pub fn handle_book_move(&mut self, t: Millis, chosen: Move) {
        self.engine_chose(t, chosen, None, true);
    }

    /// Whether a hint may be given now: the game is on and the player is to move.
    pub fn hint_wanted(&self) -> bool {
        !self.over
            && !self.gone
            && self.position.turn() != self.engine
            && !self.position.is_game_over()
    }

    /// The engine's best move for the player, `hinted` at `t` (in the game as it stands,
    /// searched at the player's request), its score `score` from the player's side: said as a
    /// `hint` and shown on the board (a DGT clock: `H Nf3`), the game unchanged. A hint that no
    /// longer applies (the player has moved) is not given. `tablebase`: the hint is the
    /// Syzygy tables' move, with their result.
    pub fn handle_hint(
        &mut self,
        t: Millis,
        hinted: Move,
        score: Option<Score>,
        tablebase: Option<TableResult>,
    ) {
        if !self.hint_wanted() || !self.position.is_legal(hinted) {
            return;
        }
        let san = SanPlus::from_move(self.position.clone(), hinted).to_string();
        let (from, to) = move_squares(hinted);
        self.out.push_back(PlayEvent::Show(Feedback::Show {
            from,
            to,
            text: format!("H {san}"),
        }));
        let (score_cp, mate) = score_fields(score);
        self.out.push_back(PlayEvent::Decision(StreamEvent {
            t,
            kind: StreamKind::Hint(EngineMove {
                color: self.position.turn(),
                uci: UciMove::from_move(hinted, self.position.castles().mode()).to_string(),
                san,
                score_cp,
                mate,
                book: false,
                tablebase,
                chess_move: hinted,
            }),
        }));
    }

    fn engine_chose(&mut self, t: Millis, chosen: Move, score: Option<Score>, book: bool) {
        if !self.engine_to_move() || !self.position.is_legal(chosen) {
            return;
        }
        self.expected = Some(chosen);
        let san = SanPlus::from_move(self.position.clone(), chosen).to_string();
        let uci = UciMove::from_move(chosen, self.position.castles().mode()).to_string();
        self.show_to_carry_out(chosen, san.clone());
        let (score_cp, mate) = score_fields(score);
        self.out.push_back(PlayEvent::Decision(StreamEvent {
            t,
            kind: StreamKind::Engine(EngineMove {
                color: self.engine,
                san,
                uci,
                score_cp,
                mate,
                book,
                tablebase: None,
                chess_move: chosen,
            }),
        }));
        // The board may show it already.
        self.reconcile(t);
    }

    /// The coach's word on the player's last move at `t` (`play --coach`): said (kind
    /// `coach`) and shown on the board (the move's squares lit, the clock asking `?? back?`);
    /// the game unchanged: the player may take the move back, or play on.
    pub fn coach(&mut self, t: Millis, warning: CoachWarning) {
        if let Some(last) = self.record.last().copied() {
            let glyph = match warning.judgement.as_str() {
                "blunder" => "??",
                "mistake" => "?",
                _ => "?!",
            };
            let (from, to) = move_squares(last);
            self.out.push_back(PlayEvent::Show(Feedback::Show {
                from,
                to,
                text: format!("{glyph} back?"),
            }));
        }
        self.out.push_back(PlayEvent::Decision(StreamEvent {
            t,
            kind: StreamKind::Coach(warning),
        }));
    }

    /// What the host knew at `t`, as the recording keeps it (an engine's choice, the engine
    /// gone; a resignation is the interpreter's): taken as it was live. A recorded move not
    /// legal where the game now stands was not taken live either.
    pub fn handle_note(&mut self, t: Millis, note: &HostNote) {
        match note {
            HostNote::EngineMove {
                uci,
                score_cp,
                mate,
                book,
            } => {
                let Ok(chosen) = uci.to_move(&self.position) else {
                    return;
                };
                self.engine_chose(t, chosen, score_from_fields(*score_cp, *mate), *book);
            }
            HostNote::Hint {
                uci,
                score_cp,
                mate,
                tablebase,
            } => {
                let Ok(hinted) = uci.to_move(&self.position) else {
                    return;
                };
                let score = score_from_fields(*score_cp, *mate);
                self.handle_hint(t, hinted, score, tablebase.clone());
            }
            HostNote::EngineGone => self.engine_gone(t),
            HostNote::Coach(warning) => self.coach(t, warning.clone()),
            // The arbiter's are the interpreter's; an online server's notes are no engine's.
            HostNote::Declared(_)
            | HostNote::Analysis(_)
            | HostNote::TimeAdded { .. }
            | HostNote::ClockSet(_)
            | HostNote::Note(_)
            | HostNote::Tag { .. }
            | HostNote::Reinstate { .. }
            | HostNote::ServerLine(_)
            | HostNote::ServerAnswer { .. } => {}
        }
    }

    /// Relates the interpreter's moves to the game's record.
    fn reconcile(&mut self, t: Millis) {
        let seen: Vec<Move> = self.seen.iter().filter_map(chess_move).collect();
        let n = self.record.len();
        if seen.len() < n && self.record.starts_with(&seen) {
            self.take_back(t, seen.len());
        } else if seen == self.record {
            self.reported = None;
        } else if seen.len() == n + 1 && seen.starts_with(&self.record) {
            let Some(event) = self.seen.get(n).cloned() else {
                return;
            };
            let Some(shown) = chess_move(&event) else {
                return;
            };
            let engines = self.position.turn() == self.engine && !self.gone;
            if !engines || self.expected == Some(shown) {
                self.accept(shown, event);
            } else {
                self.report(t, Some(shown));
            }
        }
        // Anything else: the board is further from the game; what was reported stands.
    }

    /// `shown`, decided as `event`, stands.
    fn accept(&mut self, shown: Move, event: GameEvent) {
        self.record.push(shown);
        self.position.play_unchecked(shown);
        self.expected = None;
        self.reported = None;
        self.pass(event);
        self.ask_if_engine_to_move();
    }

    /// The board went back to the game's `plies`th ply: the moves after it are taken back; the
    /// engine's move, if it chose one, no longer applies.
    fn take_back(&mut self, t: Millis, plies: usize) {
        let n = self.record.len();
        for ply in (plies + 1..=n).rev() {
            self.pass(GameEvent {
                t,
                kind: EventKind::Takeback {
                    ply: u32::try_from(ply).unwrap_or(u32::MAX),
                },
            });
        }
        self.record.truncate(plies);
        let mut position = self.start.clone();
        for &m in &self.record {
            position.play_unchecked(m);
        }
        self.position = position;
        self.expected = None;
        self.reported = None;
        self.over = false;
        self.out.push_back(PlayEvent::CancelEngine);
        self.ask_if_engine_to_move();
    }

    /// The board shows `shown` (`None`: no legal move) on the engine's turn, not its move.
    fn report(&mut self, t: Millis, shown: Option<Move>) {
        if self.reported == Some(shown) {
            return;
        }
        self.reported = Some(shown);
        let san = |m: Move| SanPlus::from_move(self.position.clone(), m).to_string();
        let played = shown.map(san);
        let expected = self.expected.map(san);
        let message = match (&expected, &played) {
            (Some(expected), Some(played)) => format!("carry out {expected}, not {played}"),
            (Some(expected), None) => {
                format!("carry out {expected}: the board shows no legal move")
            }
            (None, Some(played)) => {
                format!("wait for the engine's move: {played} is not taken")
            }
            (None, None) => "wait for the engine's move".to_owned(),
        };
        let engine_squares = self
            .expected
            .map(|m| {
                let (from, to) = move_squares(m);
                vec![from, to]
            })
            .unwrap_or_default();
        self.out.push_back(PlayEvent::Decision(StreamEvent {
            t,
            kind: StreamKind::Execution(Execution {
                expected: expected.clone(),
                played,
                squares: engine_squares,
                message,
            }),
        }));
        // The board showed the wrong move as made: it shows the engine's again.
        if let (Some(m), Some(text)) = (self.expected, expected) {
            self.show_to_carry_out(m, text);
        }
    }

    /// The game, rebuilt from its recording, goes on (`play --resume`): the engine is asked if
    /// it is to move and has not chosen, and its move is shown again if it has and the board
    /// does not show it yet.
    pub fn resumed(&mut self) {
        match self.expected {
            Some(m) if self.engine_to_move() => {
                let text = SanPlus::from_move(self.position.clone(), m).to_string();
                self.show_to_carry_out(m, text);
            }
            _ => self.ask_if_engine_to_move(),
        }
    }

    /// The engine's move `m`, shown as `text`, is to be carried out on the board: its squares,
    /// and the position it leaves (which a robot board sets itself).
    fn show_to_carry_out(&mut self, m: Move, text: String) {
        for feedback in carry_out(&self.position, m, text) {
            self.out.push_back(PlayEvent::Show(feedback));
        }
    }

    fn ask_if_engine_to_move(&mut self) {
        if self.engine_to_move() && self.expected.is_none() {
            self.out.push_back(PlayEvent::AskEngine);
        }
    }

    fn pass(&mut self, event: GameEvent) {
        self.out.push_back(PlayEvent::Decision(event.into()));
    }
}

/// The moves before ply `ply` (from 1).
fn before(ply: u32) -> usize {
    usize::try_from(ply.saturating_sub(1)).unwrap_or(usize::MAX)
}

/// The move of a move event.
fn chess_move(event: &GameEvent) -> Option<Move> {
    match &event.kind {
        EventKind::Move(played) => Some(played.chess_move),
        _ => None,
    }
}
