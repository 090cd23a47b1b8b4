//! The game against an engine: its state shared by the board's runner and the tasks that
//! listen to the engine (`state.rs`), those tasks (`transport.rs`: what the engine's process
//! says, the hints asked), the engine's readiness awaited (`handshake.rs`), the opening book
//! (`book.rs`), how long the engine thinks (`limits.rs`), and what the player types
//! (`keys.rs`).

pub mod book;
pub mod coach;
pub mod handshake;
pub mod keys;
pub mod limits;
pub mod state;
pub mod transport;
