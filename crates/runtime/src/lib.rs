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

pub mod commented;
pub mod engine_runner;
pub mod files;
pub mod runner;
pub mod tee;
