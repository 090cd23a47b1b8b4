//! Renderings of the game-event stream for people and other programs: PGN and terminal text.

pub mod excerpt;
pub mod notation;
pub mod pgn;
pub mod speech;
pub mod text;
