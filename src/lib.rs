#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::indexing_slicing,
        clippy::panic
    )
)]
//! touchmove: a touch-move controller for sensor chessboards.
//!
//! Sensor events (piece lifted, piece placed, clock pressed) go into a sans-IO
//! [`Interpreter`](interpreter::Interpreter) that applies FIDE Article 4 on a rules core built on
//! `shakmaty`, and come out as [`GameEvent`](event::GameEvent)s: moves, rulings, illegal moves,
//! takebacks and results.

pub mod baseline;
pub mod clock;
pub mod dgt;
mod emulation;
pub mod event;
pub mod fidelity;
pub mod hall;
pub mod interpreter;
pub mod live;
pub mod output;
pub mod pgn_games;
pub mod replay;
pub mod rules;
pub mod sensor;
pub mod sensor_log;
pub mod simulate;
#[cfg(test)]
mod testutil;
