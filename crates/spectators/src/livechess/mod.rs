//! DGT LiveChess's local API, as touchmove answers it (`serve --livechess`): the calls a
//! client sends over the WebSocket at `/api/v1.0`, the answers and feed messages it gets, and
//! the boards `GET /api/v1.0/eboards` lists. Sans-IO: text in, text out, the time passed in.
//!
//! The protocol, as clients of LiveChess use it (Lichess's DGT board page, broadcasters'
//! tools, herohde/livechess-go):
//!
//! - a call is `{"call": NAME, "id": N, "param": ...}` (`N` a number or a string, [`CallId`]);
//!   its answer is `{"response": "call", "id": N, "param": ..., "time": MS}`, or
//!   `{"response": "error", "id": N, "param": {"message": ...}, "time": MS}`;
//! - `eboards` answers the boards ([`Eboard`]), `sources` the devices they are on ([`Source`]);
//! - `subscribe` with `{"feed": "eboardevent", "id": F, "param": {"serialnr": S}}` answers
//!   `null`, then sends `{"response": "feed", "id": F, "param": EVENT, "time": MS}` at every
//!   change of board `S` ([`EboardEvent`], made by a [`Feed`]);
//! - `call` with `{"id": F, "method": "setup", "param": {"fen": FEN}}` sets a new game up on
//!   feed `F`'s board, `"method": "flip"` with `{"flip": true|false}` turns it round (or back),
//!   `"method": "unsubscribe"` ends the feed (as the call `unsubscribe` with `{"id": F}` does).
//!
//! Times (`time`, a clock's `time`) are milliseconds since the Unix epoch, as LiveChess gives
//! them.

mod call;
mod eboard;
mod envelope;
mod feed;

pub use call::{Call, CallError, CallId, ID_CHARS, Request, parse_call};
pub use eboard::{BoardView, ClockInfo, Eboard, Source, is_named, serialnr};
pub use envelope::{call_response, error_response, feed_gone, feed_message};
pub use feed::{EboardEvent, Feed};
