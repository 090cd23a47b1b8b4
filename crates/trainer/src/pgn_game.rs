//! A game read from PGN, as the timeline takes it: its moves decided one after another, each
//! with the mover's clock from its `[%clk]`, and its result.

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, KnownOutcome, Move, Position};

use touchmove_core::event::{ClockTimes, EventKind, GameEvent, GameResult, MoveEvent};
use touchmove_core::sensor::Millis;

use crate::facts::GameFacts;
use crate::timeline::Timeline;

/// A game as a PGN file gives it.
#[derive(Debug, Clone, Default)]
pub struct PgnGame {
    /// Where it starts.
    pub start: Chess,
    /// Whether the start is a set-up position (a `FEN` tag).
    pub set_up: bool,
    /// Its mainline, each move with the mover's time left after it (`[%clk]`), if said.
    pub moves: Vec<(Move, Option<Millis>)>,
    /// Its result (`1-0`, `0-1`, `1/2-1/2`), if it has one.
    pub result: Option<String>,
    /// The increment of its `TimeControl` (ms), given back to each move's time.
    pub increment_ms: Millis,
}

impl PgnGame {
    /// The game's facts: its moves with the time each took off the clock (where both of the
    /// mover's clocks are said), its result. No sensor saw it: no time in hand, no touches.
    pub fn facts(&self, number: u32) -> GameFacts {
        let mut timeline =
            Timeline::new(self.start.clone(), self.set_up).with_increment(self.increment_ms);
        let mut position = self.start.clone();
        let mut times: Option<ClockTimes> = None;
        for (ply, (m, clk)) in (1u32..).zip(&self.moves) {
            let color = position.turn();
            let uci = UciMove::from_move(*m, CastlingMode::Standard);
            let san = SanPlus::from_move_and_play_unchecked(&mut position, *m);
            times = clk.map(|left| {
                let mut now = times.unwrap_or(ClockTimes {
                    white: left,
                    black: left,
                });
                match color {
                    shakmaty::Color::White => now.white = left,
                    shakmaty::Color::Black => now.black = left,
                }
                now
            });
            let played = MoveEvent {
                ply,
                color,
                san,
                uci,
                fen: Fen::from_position(&position, EnPassantMode::Legal),
                promotion_default: false,
                clock: times,
                reconstructed: false,
                chess_move: *m,
            };
            timeline.decided(&GameEvent {
                t: 0,
                kind: EventKind::Move(played),
            });
        }
        if let Some(result) = self.result.as_deref()
            && let Ok(outcome) = KnownOutcome::from_ascii(result.as_bytes())
        {
            let result = GameResult {
                result: result.to_owned(),
                reason: String::new(),
                rule: None,
                termination: None,
                outcome,
            };
            timeline.decided(&GameEvent {
                t: 0,
                kind: EventKind::Result(result),
            });
        }
        let mut games = timeline.finish();
        let mut facts = games
            .pop()
            .unwrap_or_else(|| GameFacts::new(number, self.start.clone(), self.set_up));
        facts.number = number;
        facts
    }
}
