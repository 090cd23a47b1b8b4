//! touchmove's spectators, sans-IO: what those who follow a board without playing on it are
//! given, worked out from what the board's session and game said, with their times.
//!
//! - [`watched`]: one live board as a page follows it ([`watched::WatchedBoard`]): its summary,
//!   the current game's events, its PGN.
//! - [`livechess`]: DGT LiveChess's local API as touchmove answers it (`serve --livechess`).
//! - [`broadcast`]: live games pushed to a Lichess broadcast round (`serve --lichess-round`).
//! - [`online`]: what a page shows of an online game played on the board (`online --listen`).
//!
//! The web server, its sockets and the HTTP client are the `touchmove` package's.

pub mod broadcast;
pub mod livechess;
pub mod online;
pub mod watched;
