//! A game as the board saw it: each move with the time it took to think and to carry out, the
//! pieces touched and not moved, the rulings of its turn, the clock after it.

use serde::Serialize;
use shakmaty::{Chess, Color};

use touchmove_core::event::ClockTimes;
use touchmove_core::openings::Opening;
use touchmove_core::sensor::Millis;

/// One move, as the board saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveFacts {
    /// The ply, from 1.
    pub ply: u32,
    /// The side that moved.
    #[serde(serialize_with = "ser_color")]
    pub color: Color,
    /// The move in SAN.
    pub san: String,
    /// The move in UCI.
    pub uci: String,
    /// How long the player thought: from the moment the turn was theirs (the opponent's
    /// release, or press of the clock) to their first touch; from the clock where no sensor
    /// saw it (a PGN's `[%clk]`: the time the move took off the clock, its increment given
    /// back). `None` where neither says (the game's first move from a log).
    pub think_ms: Option<Millis>,
    /// How long the moved piece was in the hand: its lift to its release on the square it
    /// moved to (`None` from a PGN).
    pub in_hand_ms: Option<Millis>,
    /// Each player's time left after the move (and its press), when a clock ran.
    pub clock: Option<ClockTimes>,
    /// The squares of the pieces touched in the turn (touches that bind, FIDE 4.3) that did
    /// not become the move, in order.
    pub touched: Vec<String>,
    /// The rulings of the turn that led to the move (touch-move breaches, illegal moves), in
    /// the words of the PGN's comments.
    pub rulings: Vec<String>,
    /// The position before the move.
    #[serde(skip)]
    pub before: Chess,
    /// The move.
    #[serde(skip)]
    pub chess_move: shakmaty::Move,
    /// Where in the game's decided events the move is (the annotated PGN is written from them).
    #[serde(skip)]
    pub event_index: usize,
}

/// One game, as the board saw it.
#[derive(Debug, Clone, Serialize)]
pub struct GameFacts {
    /// The game's number on the board (or in the PGN), from 1.
    pub number: u32,
    /// The moves that stand (those taken back are gone).
    pub moves: Vec<MoveFacts>,
    /// The rulings after the last move (a turn that ended without a move).
    pub trailing_rulings: Vec<String>,
    /// The result, once decided.
    pub result: Option<String>,
    /// Why the game ended, in words, once decided.
    pub reason: Option<String>,
    /// What an engine analysing beside the board (`--analyse`) said of each position, the
    /// start first: its deepest analysis of it (empty without one).
    #[serde(skip)]
    pub analyses: Vec<Option<crate::position_eval::PositionEval>>,
    /// The position the game started from.
    #[serde(skip)]
    pub start: Chess,
    /// Whether the start is a set-up position.
    #[serde(skip)]
    pub set_up: bool,
    /// The position the game stands at.
    #[serde(skip)]
    pub position: Chess,
    /// Every event decided in the game, in order (the annotated PGN is written from them).
    #[serde(skip)]
    pub events: Vec<touchmove_core::stream::StreamEvent>,
}

impl GameFacts {
    /// A game from `start`, nothing played yet.
    pub fn new(number: u32, start: Chess, set_up: bool) -> GameFacts {
        GameFacts {
            number,
            moves: Vec::new(),
            trailing_rulings: Vec::new(),
            result: None,
            reason: None,
            analyses: Vec::new(),
            position: start.clone(),
            start,
            set_up,
            events: Vec::new(),
        }
    }

    /// The positions of the game: the start, then the position after each move.
    pub fn positions(&self) -> Vec<Chess> {
        let mut positions: Vec<Chess> = self.moves.iter().map(|m| m.before.clone()).collect();
        positions.push(self.position.clone());
        positions
    }

    /// The game up to position `index` (0: the start) as an engine is asked it: the start and
    /// the moves; `None` past the last.
    pub fn line(&self, index: usize) -> Option<(Chess, Vec<shakmaty::Move>)> {
        let moves = self.moves.get(..index)?;
        let moves = moves.iter().map(|m| m.chess_move).collect();
        Some((self.start.clone(), moves))
    }

    /// The opening the game reached (its PGN's `ECO` and `Opening` tags): worked out when
    /// asked, not at every move.
    pub fn opening(&self) -> Option<Opening> {
        touchmove_core::openings::of_game(&self.positions())
    }

    /// Whether nothing was decided in the game.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }
}

/// A colour as the JSON contract writes it: `white`, `black`.
pub(crate) fn ser_color<S: serde::Serializer>(color: &Color, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(touchmove_core::event::color_name(*color))
}
