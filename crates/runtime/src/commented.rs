//! A sink that says more than the game decides (`--analyse`: an engine's analysis).

use std::io;

use touchmove_core::sensor::Millis;
use touchmove_core::sensor_log::HostNote;
use touchmove_core::stream::StreamEvent;

/// A sink that also says what the game has no decision for: an analysis, recorded as a host
/// note and shown as a line of the board's stream.
pub trait Commented {
    /// Records `note` made at `t` and says `event`.
    fn commented(&mut self, t: Millis, note: &HostNote, event: &StreamEvent) -> io::Result<()>;
}
