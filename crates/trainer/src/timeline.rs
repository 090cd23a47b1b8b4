//! The timeline: a game's facts gathered from what the board reported and what was decided,
//! in the order it happened, live or from a recording (the same inputs give the same facts).

use shakmaty::{Chess, Position, Square};

use touchmove_core::event::{EventKind, GameEvent, MoveEvent};
use touchmove_core::interpreter::TurnView;
use touchmove_core::output::pgn::{illegal_comment, violation_comment};
use touchmove_core::sensor::{Millis, SensorEvent, SensorKind};
use touchmove_core::stream::{Analysis, StreamEvent, StreamKind};

use crate::facts::{GameFacts, MoveFacts};
use crate::position_eval::PositionEval;

/// What the board showed in the turn under way.
#[derive(Debug, Clone, Default)]
struct Turn {
    /// When the turn became the mover's (the last move's release, a press after it).
    began: Option<Millis>,
    /// Every lift since, with its time.
    lifts: Vec<(Square, Millis)>,
    /// Every placement since, with its time.
    places: Vec<(Square, Millis)>,
    /// The touches that bind, each square with when its piece was first lifted, in the order
    /// first seen.
    touched: Vec<(Square, Millis)>,
    /// The rulings decided in the turn.
    rulings: Vec<String>,
}

impl Turn {
    /// The lifts and placements later than `t`.
    fn after(&self, t: Millis) -> Turn {
        let later = |reports: &[(Square, Millis)]| {
            reports.iter().filter(|(_, at)| *at > t).copied().collect()
        };
        Turn {
            lifts: later(&self.lifts),
            places: later(&self.places),
            touched: later(&self.touched),
            ..Turn::default()
        }
    }
}

/// Gathers the facts of every game of a session.
///
/// Feed it, in the order they happened, the board's reports ([`Timeline::sensor`]), where the
/// turn stands after each ([`Timeline::turn`]), and the decisions ([`Timeline::decided`]).
#[derive(Debug, Clone)]
pub struct Timeline {
    closed: Vec<GameFacts>,
    current: GameFacts,
    turn: Turn,
    /// The increment of the time control (ms), given back to a move's time off the clock.
    increment_ms: Millis,
}

impl Timeline {
    /// A timeline whose first game starts from `start` (`set_up`: a set-up position).
    pub fn new(start: Chess, set_up: bool) -> Timeline {
        Timeline {
            closed: Vec::new(),
            current: GameFacts::new(1, start, set_up),
            turn: Turn::default(),
            increment_ms: 0,
        }
    }

    /// The time control's increment (ms): a move's thinking time read from the clock is the
    /// time it took off the clock and this.
    pub fn with_increment(mut self, increment_ms: Millis) -> Timeline {
        self.increment_ms = increment_ms;
        self
    }

    /// The starting position of the current game, not begun yet, is `start` instead (a log's
    /// header read after the timeline was made).
    pub fn starts_from(&mut self, start: Chess, set_up: bool) {
        if self.current.is_empty() {
            self.current = GameFacts::new(self.current.number, start, set_up);
        }
    }

    /// Game `number` begins from `start` (the game before it, if anything was decided in it,
    /// is closed): a session's own count of its games.
    pub fn begin(&mut self, number: u32, start: Chess) {
        let set_up = start != Chess::default();
        self.close(GameFacts::new(number, start, set_up));
    }

    /// Forgets the oldest closed games but the last `kept` (a long session's memory stays flat).
    pub fn keep_last(&mut self, kept: usize) {
        let excess = self.closed.len().saturating_sub(kept);
        self.closed.drain(..excess);
    }

    /// A report of the board: lifts and placements are kept for the turn; a press of the clock
    /// by the side that just moved, before the mover touches anything, begins the turn.
    pub fn sensor(&mut self, event: &SensorEvent) {
        match &event.kind {
            SensorKind::Lift { square, .. } => self.turn.lifts.push((*square, event.t)),
            SensorKind::Place { square, .. } => self.turn.places.push((*square, event.t)),
            SensorKind::Clock(color) => {
                let mover = self.current.position.turn();
                if *color != mover && self.turn.lifts.is_empty() && self.turn.began.is_some() {
                    self.turn.began = Some(event.t);
                }
            }
            _ => {}
        }
    }

    /// Where the turn stands: its binding touches are kept.
    pub fn turn(&mut self, view: &TurnView) {
        for touched in &view.touched {
            let touch = (touched.square, touched.t);
            if !self.turn.touched.contains(&touch) {
                self.turn.touched.push(touch);
            }
        }
    }

    /// A line of the stream: the game's decisions are taken (the rest, an engine's choice, a
    /// link's state, is kept for the annotated PGN only).
    pub fn stream(&mut self, event: &StreamEvent) {
        match &event.kind {
            StreamKind::Game(kind) => self.decided(&GameEvent {
                t: event.t,
                kind: kind.clone(),
            }),
            StreamKind::Analysis(analysis) => {
                self.analysed(analysis);
                self.current.events.push(event.clone());
            }
            _ => self.current.events.push(event.clone()),
        }
    }

    /// An engine's analysis of the position after `analysis.ply` plies: kept if it is of the
    /// position the game stands at and deeper than the one kept.
    fn analysed(&mut self, analysis: &Analysis) {
        let Ok(index) = usize::try_from(analysis.ply) else {
            return;
        };
        if index != self.current.moves.len() {
            return;
        }
        let Some(eval) = PositionEval::of_analysis(&self.current.position, analysis) else {
            return;
        };
        let analyses = &mut self.current.analyses;
        if analyses.len() <= index {
            analyses.resize(index + 1, None);
        }
        if let Some(kept) = analyses.get_mut(index)
            && kept.as_ref().is_none_or(|kept| kept.depth <= eval.depth)
        {
            *kept = Some(eval);
        }
    }

    /// A decision.
    pub fn decided(&mut self, event: &GameEvent) {
        match &event.kind {
            EventKind::Game { number } => {
                self.close(GameFacts::new(*number, Chess::default(), false));
                return;
            }
            EventKind::Setup { number, fen } => {
                let start = touchmove_core::rules::chess960::from_fen(fen).unwrap_or_default();
                self.close(GameFacts::new(*number, start, true));
                return;
            }
            _ => {}
        }
        let index = self.current.events.len();
        self.current.events.push(StreamEvent {
            t: event.t,
            kind: StreamKind::Game(event.kind.clone()),
        });
        match &event.kind {
            EventKind::Move(played) => self.moved(played, event.t, index),
            EventKind::Clock { ply, clock, .. } => {
                if let Some(last) = self.current.moves.last_mut().filter(|m| m.ply == *ply) {
                    last.clock = Some(*clock);
                }
            }
            EventKind::Takeback { ply } => self.taken_back(*ply, event.t),
            EventKind::Violation(violation) => {
                // A breach is ruled once the move that makes it is decided: it is that move's.
                let ruling = violation_comment(violation);
                match self.current.moves.last_mut() {
                    Some(last) if last.color == violation.color && self.turn.lifts.is_empty() => {
                        last.rulings.push(ruling);
                    }
                    _ => self.turn.rulings.push(ruling),
                }
            }
            EventKind::Illegal(illegal) => self.turn.rulings.push(illegal_comment(illegal)),
            EventKind::Result(result) => {
                self.current.result = Some(result.result.clone());
                self.current.reason = Some(result.reason.clone()).filter(|r| !r.is_empty());
            }
            _ => {}
        }
    }

    /// Every game gathered, the current one last (if anything was decided in it).
    pub fn finish(mut self) -> Vec<GameFacts> {
        self.turn.rulings.clear();
        let current = GameFacts::new(0, Chess::default(), false);
        self.close(current);
        self.closed
    }

    /// The games closed so far, and the current one.
    pub fn games(&self) -> impl Iterator<Item = &GameFacts> {
        self.closed.iter().chain(std::iter::once(&self.current))
    }

    /// The current game.
    pub fn current(&self) -> &GameFacts {
        &self.current
    }

    fn close(&mut self, next: GameFacts) {
        let mut finished = std::mem::replace(&mut self.current, next);
        let rulings = std::mem::take(&mut self.turn.rulings);
        finished.trailing_rulings.extend(rulings);
        self.turn = Turn::default();
        if !finished.is_empty() {
            self.closed.push(finished);
        }
    }

    fn moved(&mut self, played: &MoveEvent, t: Millis, event_index: usize) {
        let before = self.current.position.clone();
        let m = &played.chess_move;
        // The hand's squares as UCI writes the move: a castling king's own two squares.
        let (from, to) = match &played.uci {
            shakmaty::uci::UciMove::Normal { from, to, .. } => (Some(*from), *to),
            _ => (m.from(), m.to()),
        };
        let lifted = from.and_then(|from| self.first_lift(from));
        let released = self.last_place(to).or(Some(t));
        let first_touch = self.turn.lifts.first().map(|(_, t)| *t);
        let think_ms = match (self.turn.began, first_touch) {
            (Some(began), Some(touch)) => Some(touch.saturating_sub(began)),
            _ => self.think_from_clock(played),
        };
        let in_hand_ms = match (lifted, released) {
            (Some(lift), Some(release)) if release >= lift => Some(release - lift),
            _ => None,
        };
        let moved = moved_squares(&before, m);
        // A touch after the decision's time is the next turn's (read before it was taken).
        let touched = self
            .turn
            .touched
            .iter()
            .filter(|(square, at)| *at <= t && !moved.contains(square))
            .map(|(square, _)| square.to_string())
            .collect();
        self.current.position.play_unchecked(*m);
        self.current.moves.push(MoveFacts {
            ply: played.ply,
            color: played.color,
            san: played.san.to_string(),
            uci: played.uci.to_string(),
            think_ms,
            in_hand_ms,
            clock: played.clock,
            touched,
            rulings: std::mem::take(&mut self.turn.rulings),
            before,
            chess_move: *m,
            event_index,
        });
        // What the board showed after the decision's time (a report read before the decision
        // it came after was taken) is the next turn's.
        self.turn = Turn {
            began: released.or(Some(t)),
            ..self.turn.after(t)
        };
    }

    fn taken_back(&mut self, ply: u32, t: Millis) {
        if self.current.moves.last().is_some_and(|m| m.ply == ply)
            && let Some(taken) = self.current.moves.pop()
        {
            self.current.position = taken.before;
        }
        // The analysis of the position taken back is of no position of the game.
        self.current.analyses.truncate(self.current.moves.len() + 1);
        self.turn = Turn {
            began: Some(t),
            ..self.turn.after(t)
        };
    }

    /// The time the move took off the mover's clock, the increment given back.
    fn think_from_clock(&self, played: &MoveEvent) -> Option<Millis> {
        let now = played.clock?.get(played.color);
        let previous = self
            .current
            .moves
            .iter()
            .rev()
            .find(|m| m.color == played.color)
            .and_then(|m| m.clock)?
            .get(played.color);
        Some(
            previous
                .saturating_add(self.increment_ms)
                .saturating_sub(now),
        )
    }

    fn first_lift(&self, square: Square) -> Option<Millis> {
        let lifts = self.turn.lifts.iter();
        lifts.filter(|(s, _)| *s == square).map(|(_, t)| *t).next()
    }

    fn last_place(&self, square: Square) -> Option<Millis> {
        let places = self.turn.places.iter().rev();
        places.filter(|(s, _)| *s == square).map(|(_, t)| *t).next()
    }
}

/// The squares a move changes: its piece's, the captured piece's (en passant: the pawn's own
/// square), the castling rook's.
fn moved_squares(position: &Chess, m: &shakmaty::Move) -> Vec<Square> {
    let mut squares = vec![m.to()];
    squares.extend(m.from());
    match m {
        shakmaty::Move::EnPassant { from, to } => {
            squares.push(Square::from_coords(to.file(), from.rank()));
        }
        shakmaty::Move::Castle { king, rook } => {
            squares.push(*rook);
            let side = shakmaty::CastlingSide::from_queen_side(rook < king);
            let color = position.turn();
            squares.push(side.king_to(color));
            squares.push(side.rook_to(color));
        }
        _ => {}
    }
    squares
}
