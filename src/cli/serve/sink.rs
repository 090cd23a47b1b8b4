//! Where a served board's runner puts what happens: the board's shared state and stream, and
//! its sensor log with `--record-dir`.

use std::io;
use std::sync::Arc;

use touchmove::clock::ClockReading;
use touchmove::event::LinkState;
use touchmove::live::runner::Sink;
use touchmove::live::{LiveEvent, LiveGame};
use touchmove::sensor::{Millis, SensorEvent};

use super::super::recording::Recording;
use super::board::BoardHandle;

/// The outputs of one served board.
pub struct ServeSink {
    handle: Arc<BoardHandle>,
    recording: Option<Recording>,
}

impl ServeSink {
    /// Outputs to `handle`, the sensor reports to `recording`.
    pub fn new(handle: Arc<BoardHandle>, recording: Option<Recording>) -> ServeSink {
        ServeSink { handle, recording }
    }

    /// The board's name.
    pub fn name(&self) -> &str {
        &self.handle.name
    }

    /// Writes what is still pending of the recording.
    pub fn finish(mut self) -> anyhow::Result<()> {
        match self.recording.as_mut() {
            Some(recording) => recording.finish(),
            None => Ok(()),
        }
    }

    fn say(&self, text: &str) {
        eprintln!("touchmove: board {}: {text}", self.handle.name);
    }
}

impl Sink for ServeSink {
    fn sensor(&mut self, event: &SensorEvent, game: &LiveGame) -> io::Result<()> {
        self.handle.lock().sensor(game);
        if let Some(recording) = self.recording.as_mut() {
            recording.game_event(event, game);
        }
        Ok(())
    }

    fn clock_reading(
        &mut self,
        t: Millis,
        reading: &ClockReading,
        game: &LiveGame,
    ) -> io::Result<()> {
        self.handle.lock().clock_reading(t, reading);
        if let Some(recording) = self.recording.as_mut() {
            recording.game_clock_reading(t, reading, game);
        }
        Ok(())
    }

    fn live(&mut self, event: &LiveEvent, game: &LiveGame) -> io::Result<()> {
        let mut state = self.handle.lock();
        if let Some(decision) = state.live(event, game) {
            self.handle.publish(decision);
        }
        Ok(())
    }

    fn link(&mut self, t: Millis, state: LinkState) -> io::Result<()> {
        self.say(state.as_str());
        let mut board = self.handle.lock();
        let event = board.link(t, state);
        self.handle.publish(event);
        Ok(())
    }

    fn notice(&mut self, text: &str) {
        self.say(text);
    }

    fn connected(&mut self, _t: Millis, name: &str) -> io::Result<()> {
        self.handle.lock().connected(name);
        Ok(())
    }
}
