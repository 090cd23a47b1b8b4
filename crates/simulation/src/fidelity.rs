//! Fidelity of a replay: does the record equal the game that was played, with exactly the
//! rulings the hands earned?
//!
//! Used by the property tests and the benchmark: a real game is turned into hand motions by the
//! [simulator](crate::simulate), replayed through the interpreter, and compared here.

use shakmaty::{Chess, Color, Move, Square};

use crate::simulate::{ExpectedRuling, HandStyle, RulingKind, simulate};
use touchmove_core::event::{EventKind, GameEvent};
use touchmove_core::interpreter::Config;
use touchmove_core::replay::replay_events;
use touchmove_core::rules::Game;

/// A ruling as the replay made it, in the simulator's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ruling {
    /// The rule, or `Illegal` for a completed illegal move.
    pub kind: RulingKind,
    /// The side it is against.
    pub color: Color,
    /// The square it names (for an illegal move: the destination, when known).
    pub square: Option<Square>,
}

/// How a replay compares with the game played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The SAN of the game played.
    pub expected: Vec<String>,
    /// The SAN of the record (after takebacks).
    pub recorded: Vec<String>,
    /// Rulings made that the hands did not earn.
    pub false_rulings: Vec<Ruling>,
    /// Rulings the hands earned that were not made.
    pub missed_rulings: Vec<ExpectedRuling>,
    /// How many rulings the hands earned.
    pub earned_rulings: usize,
}

impl Verdict {
    /// The record equals the game, move for move.
    pub fn exact(&self) -> bool {
        self.expected == self.recorded
    }

    /// Exact, and exactly the earned rulings.
    pub fn faithful(&self) -> bool {
        self.exact() && self.false_rulings.is_empty() && self.missed_rulings.is_empty()
    }
}

/// The SAN of `moves` played from `start`, up to the move that ends the game by rule
/// (checkmate, stalemate, dead position, fivefold repetition, 75 moves): FIDE ends the game
/// there, so a record that stops there is exact even when the source game went on.
pub fn san_list(start: &Chess, moves: &[Move]) -> Vec<String> {
    let mut game = Game::new(start.clone());
    let mut sans = Vec::new();
    for &m in moves {
        if game.ending().is_some() {
            break;
        }
        sans.push(game.play(m).san.to_string());
    }
    sans
}

/// The SAN of the record the events leave, takebacks applied.
pub fn recorded_sans(events: &[GameEvent]) -> Vec<String> {
    let mut sans = Vec::new();
    for event in events {
        match &event.kind {
            EventKind::Move(m) => {
                sans.truncate(m.ply as usize - 1);
                sans.push(m.san.to_string());
            }
            EventKind::Takeback { ply } => sans.truncate(*ply as usize - 1),
            _ => {}
        }
    }
    sans
}

/// The rulings among the events.
pub fn rulings(events: &[GameEvent]) -> Vec<Ruling> {
    events
        .iter()
        .filter_map(|event| match &event.kind {
            EventKind::Violation(v) => Some(Ruling {
                kind: RulingKind::Rule(v.rule),
                color: v.color,
                square: Some(v.square),
            }),
            EventKind::Illegal(i) => Some(Ruling {
                kind: RulingKind::Illegal,
                color: i.color,
                square: i
                    .uci
                    .as_deref()
                    .and_then(|uci| uci.get(2..4))
                    .and_then(|sq| sq.parse().ok()),
            }),
            _ => None,
        })
        .collect()
}

/// Compares replayed `events` with the game (`start`, `moves`) and the rulings it earned.
pub fn compare(
    start: &Chess,
    moves: &[Move],
    expected_rulings: &[ExpectedRuling],
    events: &[GameEvent],
    config: &Config,
) -> Verdict {
    let expected = san_list(start, moves);
    let earned: Vec<ExpectedRuling> = expected_rulings
        .iter()
        .copied()
        .filter(|r| config.strict || r.kind == RulingKind::Illegal)
        .filter(|r| r.ply <= expected.len())
        .collect();
    let mut made = rulings(events);
    let mut missed = Vec::new();
    for want in &earned {
        let found = made.iter().position(|r| {
            r.kind == want.kind
                && r.color == want.color
                && (r.square == Some(want.square) || want.kind == RulingKind::Illegal)
        });
        match found {
            Some(index) => {
                made.remove(index);
            }
            None => missed.push(*want),
        }
    }
    Verdict {
        expected,
        recorded: recorded_sans(events),
        false_rulings: made,
        missed_rulings: missed,
        earned_rulings: earned.len(),
    }
}

/// Simulates the hands playing a game in `style` with `seed`, replays it, and compares.
pub fn check_game(
    start: &Chess,
    moves: &[Move],
    style: &HandStyle,
    seed: u64,
    config: &Config,
) -> Result<Verdict, crate::simulate::SimulateError> {
    let simulated = simulate(start, moves, style, seed)?;
    // The log states the report horizon its presses need, as a recording does.
    let mut config = *config;
    config.report_horizon_ms = config.report_horizon_ms.max(style.report_horizon_ms());
    config.scan_ms = config.scan_ms.max(style.scan_ms());
    let events = replay_events(start.clone(), config, &simulated.events);
    Ok(compare(
        start,
        moves,
        &simulated.expected_rulings,
        &events,
        &config,
    ))
}
