//! touchmove's web layer: the pages of live boards and what feeds them, shared by `serve`
//! (every board of a hall), `play`, `online` and `demo` (one board's page).
//!
//! - [`board`]: the shared state of each board ([`board::BoardHandle`]) and of a hall
//!   ([`board::Overview`]), and its stream; [`sink::PageSink`], the runner's sink that fills
//!   them, and under `serve --record-dir` one log per game ([`records`]).
//! - [`routes`]: the routes and the pages built in (`page/`); [`requests`] the online game's and
//!   the hint's buttons, [`asked::Asked`] what a player asks at the host; [`results`] the
//!   arbiter's actions; [`livechess`] the LiveChess-compatible API.
//! - [`access`]: who may do what (only the operator changes a game; [`token::Token`]);
//!   [`delay`] what the public sees late; [`server`] the HTTP loop with its timeouts;
//!   [`stamps`] and [`stats`] the streams' latency; [`naming`] a game's `GameId` and date.

pub mod access;
pub mod asked;
pub mod board;
pub mod delay;
pub mod livechess;
pub mod naming;
pub mod records;
pub mod report;
pub mod requests;
pub mod results;
pub mod routes;
pub mod server;
pub mod sink;
pub mod stamps;
pub mod stats;
pub mod token;

pub use sink::PageSink;
