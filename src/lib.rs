#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::indexing_slicing,
        clippy::panic
    )
)]
//! touchmove: a touch-move controller for sensor chessboards, around its sans-IO core.
//!
//! The core, [`touchmove_core`], turns sensor events into the decisions of FIDE Article 4 on
//! a rules core built on `shakmaty` ([`Interpreter`]), keeps the sensor log and replays it
//! ([`Replay`]); its modules are re-exported here under their own names ([`interpreter`],
//! [`sensor_log`], [`event`], ...), and its crate docs show the polling order.
//! `examples/embed.rs` replays a sensor log with the core, and the registry for a board's scan.
//!
//! This crate adds what a board, an engine and a spectator need around it. The board
//! protocols' sessions ([`live::BoardSession`]) turn a board's bytes into sensor events and
//! show what the game tells the board ([`live::Feedback`]); each protocol states itself as a
//! [`live::Protocol`], listed in [`boards`], and [`LiveGame`] drives the interpreter for a live
//! board. `examples/custom_protocol.rs` adds a protocol of one's own.

pub mod baseline;
pub mod boards;
pub mod broadcast;
pub mod chesslink;
pub mod dgt;
pub mod emulation;
pub mod engine;
pub mod fidelity;
pub mod hall;
pub mod live;
pub mod livechess;
pub mod pgn_games;
pub mod play;
pub mod simulate;
#[cfg(test)]
use touchmove_core::testutil;

pub use touchmove_core::{
    clock, event, evidence, interpreter, output, replay, rules, sensor, sensor_log, timing,
};

pub use event::{EventKind, GameEvent, MoveEvent};
pub use interpreter::{Config, Interpreter, TurnView};
pub use live::{BoardSession, Feedback, LinkEvent, LiveEvent, LiveGame, Protocol};
pub use replay::Replay;
pub use sensor::{Millis, SensorEvent, SensorKind};
