//! The Lichess Board API's side of online play: its messages ([`wire`]), its streams' lines
//! ([`ndjson`]) and the requests a game makes ([`request`]); what Lichess says of a token
//! ([`token_test`]).

pub mod ndjson;
pub mod request;
pub mod start;
pub mod token_test;
pub mod wire;
