//! touchmove: a touch-move controller for sensor chessboards. This package is the top of the
//! house: the `touchmove` command line, and the async runners that own a port, a clock and an
//! engine's process around the sans-IO crates below it.
//!
//! - [`touchmove_core`]: sensor events in, the decisions of FIDE Article 4 out ([`Interpreter`]),
//!   on a rules core built on `shakmaty`; the sensor log and its [`Replay`]. Its modules are
//!   re-exported here under their own names ([`interpreter`], [`sensor_log`], [`event`], ...),
//!   and its crate docs show the polling order. `examples/embed.rs` replays a log with it alone.
//! - [`touchmove_boards`]: the board protocols' sessions ([`live::BoardSession`]) turn a board's
//!   bytes into sensor events and show what the game tells the board ([`live::Feedback`]);
//!   each protocol states itself as a [`live::Protocol`], listed in [`registry`], and
//!   [`LiveGame`] drives the interpreter for a live board. `examples/custom_protocol.rs` adds a
//!   protocol of one's own.
//! - [`touchmove_engine`]: a UCI engine's session and the game against it ([`play`]).
//! - [`touchmove_online`] ([`online`]): the Lichess Board API's messages and the game between
//!   the board and the server.
//! - [`touchmove_spectators`]: the [`watched`] board a page shows, the [`livechess`] API and the
//!   Lichess [`broadcast`] pushes.
//! - `touchmove_runtime` (feature `runner`): `runner`, the loop around a board's session and its
//!   game, `engine_runner`, the engine's process, and the files a session writes.
//! - Here: the command line (feature `cli`), which alone uses the test tooling of
//!   `touchmove-simulation` (`simulate`, `emulate`, `demo`).

#[cfg(feature = "runner")]
pub use touchmove_runtime::{engine_runner, runner};

pub use touchmove_core::{
    clock, event, evidence, interpreter, output, replay, rules, sensor, sensor_log, stream, timing,
};

pub use touchmove_boards::{
    certabo, chesslink, chessnut, dgt, eone, hall, live, opponent, pegasus, registry, squareoff,
};
pub use touchmove_engine::{self as engine, analysis, play};
pub use touchmove_online as online;
pub use touchmove_spectators::{broadcast, livechess, watched};

pub use event::{EventKind, GameEvent, MoveEvent};
pub use interpreter::{Config, Interpreter, TurnView};
pub use live::{BoardSession, Feedback, LinkEvent, LiveEvent, LiveGame, Protocol};
pub use replay::Replay;
pub use sensor::{Millis, SensorEvent, SensorKind};
