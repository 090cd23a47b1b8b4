//! What every protocol's emulated board plays, made the same way for all: from one game or from
//! games one after another played by simulated hands, or from a recorded sensor log. A protocol
//! says only what its board can tell apart, how it sees the hands, and how sensor events become
//! its own changes.

use shakmaty::{Chess, Move};

use super::script_error::ScriptError;
use crate::simulate::{
    BoardKind, HandStyle, SequenceGame, SimulatedSequence, simulate, simulate_sequence,
};
use touchmove_core::sensor::SensorEvent;
use touchmove_core::sensor_log::{IllegalPosition, SensorLog};

/// A protocol's script: what its emulated board plays.
pub trait ProtocolScript: Sized {
    /// What the protocol's board can tell apart.
    const BOARD: BoardKind;

    /// The hands as the protocol's board sees them (its kind of board, scans, clock), from the
    /// style asked for.
    fn style(style: &HandStyle) -> HandStyle;

    /// The script of sensor `events` from `start`, reported as the protocol's board reports
    /// them.
    fn from_events(start: &Chess, events: &[SensorEvent]) -> Result<Self, ScriptError>;

    /// The script of games played one after another from `start` (`sequence`: their events,
    /// when each was set up again, the length of a round). By default, its events alone.
    fn from_sequence(start: &Chess, sequence: &SimulatedSequence) -> Result<Self, ScriptError> {
        Self::from_events(start, &sequence.events)
    }

    /// The script of a recorded log's `events` from `start` (`seed`: the dice of a board that
    /// applies a scan model). By default, the events as they are.
    fn from_recorded(
        start: &Chess,
        events: &[SensorEvent],
        seed: u64,
    ) -> Result<Self, ScriptError> {
        let _ = seed;
        Self::from_events(start, events)
    }

    /// `moves` played from `start` by simulated hands in `style` (as the board sees them), dice
    /// from `seed`.
    fn from_game(
        start: &Chess,
        moves: &[Move],
        style: &HandStyle,
        seed: u64,
    ) -> Result<Self, ScriptError> {
        let game = simulate(start, moves, &Self::style(style), seed)?;
        Self::from_events(start, &game.events)
    }

    /// `games` played one after another by simulated hands in `style`, the board cleared and
    /// set up again between them, dice from `seed`.
    fn from_games(
        games: &[SequenceGame],
        style: &HandStyle,
        seed: u64,
    ) -> Result<Self, ScriptError> {
        let sequence = simulate_sequence(games, &Self::style(style), seed)?;
        let start = games
            .first()
            .map_or_else(Chess::default, |game| game.start.clone());
        Self::from_sequence(&start, &sequence)
    }

    /// A recorded sensor log, from its start position (dice from `seed`).
    fn from_log(log: &SensorLog, seed: u64) -> Result<Self, ScriptError> {
        let start = log
            .header
            .start_position()
            .map_err(|error| ScriptError::BadStart(IllegalPosition(error)))?;
        Self::from_recorded(&start, &log.events, seed)
    }
}
