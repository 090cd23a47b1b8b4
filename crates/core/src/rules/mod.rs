//! The rules core: the game record on top of `shakmaty`.
//!
//! [`Game`] holds the positions of one game, plays the moves the interpreter decides, takes them
//! back, counts completed illegal moves and says when the game has ended or a draw may be
//! claimed. Legality, SAN, FEN, repetition keys and insufficient material all come from
//! `shakmaty`; nothing here reads a clock or does I/O.

pub mod chess960;
mod declared;
mod ending;
mod game;
mod history;

pub use declared::Declared;
pub use ending::{Ending, ending_after_move};
pub use game::{Game, PlayedMove};
