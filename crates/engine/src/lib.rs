//! touchmove's game against an engine on the board (`touchmove play`), sans-IO: the engine's
//! session, and the game between the interpreter's decisions and the record ([`play`]).
//!
//! A UCI engine is a sans-IO session: lines from the engine and the time in; lines to the
//! engine, what it said and when to look again out. The engine's process is the `touchmove`
//! package's runner's (`engine_runner`); the UCI text is read and written with `shakmaty-uci`.
//!
//! Polled as the board sessions are: feed each line the engine printed with
//! [`EngineSession::handle_line`], send every line [`EngineSession::poll_transmit`] gives, take
//! the [`EngineEvent`]s from [`EngineSession::poll_event`], and call
//! [`EngineSession::handle_timeout`] at [`EngineSession::poll_timeout`]: an engine that does not
//! answer in time is reported, never waited for forever.

pub mod analysis;
pub mod book;
mod limits;
pub mod play;
mod session;

#[cfg(test)]
mod tests;

pub use limits::SearchLimits;
pub use session::{
    EngineConfig, EngineEvent, EngineSession, Score, Strength, score_fields, score_from_fields,
};
