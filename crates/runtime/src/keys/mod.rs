//! What is typed at the host's terminal during a game: lines read on a thread of their own
//! ([`typed`]), and the arbiter's commands and what they mean ([`arbiter`]).

pub mod arbiter;
pub mod typed;
