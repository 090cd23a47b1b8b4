//! The online game: its state shared by the board's runner and the tasks of its transport
//! (`state.rs`), the transport itself (`transport.rs`: the game's stream and requests over
//! HTTPS, what the player asks), and what the player types (`keys.rs`).

pub mod keys;
pub mod state;
pub mod transport;
