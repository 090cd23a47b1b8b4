//! Two sinks as one: what a runner reports goes to both, in order (its notices to the first) (`demo` prints the game in
//! the terminal and serves its page).

use std::io;
use std::time::Instant;

use touchmove::clock::ClockReading;
use touchmove::event::LinkState;
use touchmove::live::{LiveEvent, LiveGame};
use touchmove::runner::Sink;
use touchmove::sensor::{Millis, SensorEvent};

/// Sends everything to `0`, then to `1` (notices to `0` only).
pub struct Tee<A, B>(pub A, pub B);

impl<A: Sink, B: Sink> Sink for Tee<A, B> {
    fn sensor(&mut self, event: &SensorEvent, game: &LiveGame) -> io::Result<()> {
        self.0.sensor(event, game)?;
        self.1.sensor(event, game)
    }

    fn clock_reading(
        &mut self,
        t: Millis,
        reading: &ClockReading,
        game: &LiveGame,
    ) -> io::Result<()> {
        self.0.clock_reading(t, reading, game)?;
        self.1.clock_reading(t, reading, game)
    }

    fn live(&mut self, event: &LiveEvent, game: &LiveGame) -> io::Result<()> {
        self.0.live(event, game)?;
        self.1.live(event, game)
    }

    fn link(&mut self, t: Millis, state: LinkState) -> io::Result<()> {
        self.0.link(t, state)?;
        self.1.link(t, state)
    }

    /// To the first only: both would print the same diagnostic.
    fn notice(&mut self, text: &str) {
        self.0.notice(text);
    }

    fn unreachable(&mut self, t: Millis, why: &str) -> io::Result<()> {
        self.0.unreachable(t, why)?;
        self.1.unreachable(t, why)
    }

    fn connected(&mut self, t: Millis, name: &str) -> io::Result<()> {
        self.0.connected(t, name)?;
        self.1.connected(t, name)
    }

    fn timeout(&mut self, due: Instant) {
        self.0.timeout(due);
        self.1.timeout(due);
    }
}
