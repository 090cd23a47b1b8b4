//! touchmove's trainer, sans-IO: what a player learns from a game after it, worked out from
//! the recording, so that the same recording always gives the same report.
//!
//! - [`timeline`]: a game's facts gathered from the board's reports and the decisions
//!   ([`facts`]): each move's thinking time, time in hand, touches that did not become it,
//!   rulings, clock.
//! - [`judgement`]: an engine's judgement of a move (evaluations, loss, accuracy, `?!` `?`
//!   `??`), by Lichess's measures.
//! - [`report`]: a game's report, with or without an engine.
//! - [`annotated`], [`table`], [`chart`], [`html`]: the report as annotated PGN, as a text
//!   table, as an SVG chart, as a page.
//!
//! The engine's process and the files are the `touchmove` package's (`touchmove report`).

pub mod annotated;
pub mod chart;
pub mod facts;
pub mod format;
pub mod html;
pub mod judgement;
pub mod pgn_game;
pub mod position_eval;
pub mod report;
pub mod table;
pub mod timeline;

pub use facts::{GameFacts, MoveFacts};
pub use report::{GameReport, PositionEval};
pub use timeline::Timeline;

#[cfg(test)]
mod tests;
