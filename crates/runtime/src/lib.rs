//! touchmove's runtime: the I/O edge that every mode (`watch`, `play`, `online`, `serve`,
//! `demo`) shares, around the sans-IO crates below it.
//!
//! - [`runner`]: the loop around a board's session and its game: it owns the port's bytes, the
//!   wall clock and reconnects, and hands what happens to a [`runner::Sink`];
//!   [`tee::Tee`] gives what happens to two sinks; a [`commented::Commented`] sink also takes
//!   what the game has no decision for (an engine's analysis).
//! - [`engine_runner`]: a UCI engine's process around `touchmove_engine::EngineSession`.
//! - [`files`]: what a session writes, safely: the output paths checked
//!   ([`files::paths`]), the sensor recording written line by line ([`files::recording`]), the
//!   PGN file rewritten through a temporary file ([`files::pgn_file`]), and a recording read
//!   back to go on with it ([`files::resumed`]).
//! - [`sinks`]: the decisions printed ([`sinks::printer`]), written with the recording and the
//!   PGN ([`sinks::watch`]), said aloud ([`sinks::speaker`]).
//! - [`analysis`]: an engine analysing a board's game beside it.
//! - [`keys`]: the lines typed at the terminal, and the arbiter's commands among them.
//! - [`in_order`]: jobs on several threads, their results taken in the jobs' order (`replay` of
//!   a round).

pub mod analysis;
pub mod commented;
pub mod engine_runner;
pub mod files;
pub mod in_order;
pub mod keys;
pub mod runner;
pub mod sinks;
pub mod tablebase;
pub mod tee;
