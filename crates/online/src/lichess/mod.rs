//! The Lichess Board API's side of online play: its messages ([`wire`]), its streams' lines
//! ([`ndjson`]) and the requests a game makes ([`request`]).

pub mod ndjson;
pub mod request;
pub mod start;
pub mod wire;
