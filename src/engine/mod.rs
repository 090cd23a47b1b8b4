//! A UCI engine as a sans-IO session (`touchmove play`): lines from the engine and the time
//! in; lines to the engine, what it said and when to look again out. The engine's process is
//! the runner's; the UCI text is read and written with `shakmaty-uci`.
//!
//! Polled as the board sessions are: feed each line the engine printed with
//! [`EngineSession::handle_line`], send every line [`EngineSession::poll_transmit`] gives, take
//! the [`EngineEvent`]s from [`EngineSession::poll_event`], and call
//! [`EngineSession::handle_timeout`] at [`EngineSession::poll_timeout`]: an engine that does not
//! answer in time is reported, never waited for forever.

mod limits;
#[cfg(feature = "runner")]
pub mod runner;
mod session;

#[cfg(test)]
mod tests;

pub use limits::SearchLimits;
pub use session::{
    EngineConfig, EngineEvent, EngineSession, Score, score_fields, score_from_fields,
};
