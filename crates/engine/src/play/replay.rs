//! A recorded game against an engine replayed to what the live session decided: the sensor
//! log's reports through the interpreter, and its `#engine-move` / `#engine-gone` notes to the
//! [`EngineGame`] at their place, the engine's side as the log's `@engine` says. A log without
//! `@engine` replays as any other. The replay of every match (`MatchReplay`), with the engine
//! game as its opponent.

use shakmaty::{Chess, Move};
use touchmove_boards::opponent::{MatchReplay, Opponent};
use touchmove_core::event::GameEvent;
use touchmove_core::sensor::Millis;
use touchmove_core::sensor_log::{HostNote, LogHeader};
use touchmove_core::stream::StreamEvent;

use super::{EngineGame, PlayEvent};

/// A log being replayed, through the game against its engine when it had one.
pub type EngineReplay = MatchReplay<EngineGame>;

impl Opponent for EngineGame {
    type Event = PlayEvent;

    /// The engine's side from the log's `@engine`, the game started from its `@start`.
    fn from_header(header: &LogHeader) -> Option<EngineGame> {
        let engine = header.engine?;
        let start = header.start_position().unwrap_or_else(|_| Chess::default());
        let mut game = EngineGame::new(start, engine);
        game.started();
        Some(game)
    }

    fn handle_decision(&mut self, event: &GameEvent) {
        EngineGame::handle_decision(self, event);
    }

    fn handle_note(&mut self, t: Millis, note: &HostNote) {
        EngineGame::handle_note(self, t, note);
    }

    fn poll_event(&mut self) -> Option<PlayEvent> {
        EngineGame::poll_event(self)
    }

    fn decision(event: PlayEvent) -> Option<StreamEvent> {
        match event {
            PlayEvent::Decision(decision) => Some(decision),
            PlayEvent::AskEngine | PlayEvent::CancelEngine | PlayEvent::Show(_) => None,
        }
    }

    fn resumed(&mut self) {
        EngineGame::resumed(self);
    }

    fn moves(&self) -> &[Move] {
        EngineGame::moves(self)
    }
}
