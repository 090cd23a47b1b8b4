//! touchmove's way to Lichess over HTTPS (reqwest, rustls): the I/O edge of online play and of
//! a hall's broadcast. What is sent and what an answer means are the sans-IO crates':
//! `touchmove_online`'s Board API messages and requests, `touchmove_spectators`' pusher.
//!
//! - [`board_api`]: the Board API's ndjson streams read line by line ([`board_api::Lines`]),
//!   its requests sent ([`board_api::Lichess`]), a stream's failure told from a refused token.
//! - [`push`]: the pushes to a broadcast round ([`push::PushTarget`], [`push::PushClient`]);
//!   [`push_loop`]: the loop that pushes a round's games as they change.
//! - [`credentials`]: the token in a sensitive header, taken out of every text shown.

pub mod board_api;
pub mod credentials;
pub mod push;
pub mod push_loop;
