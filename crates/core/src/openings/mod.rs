//! Openings named: the ECO code and name of a position, from lichess-org/chess-openings (CC0,
//! `crates/core/data/openings/README.md`), matched by position so that a transposition is
//! named as the line it reaches.
//!
//! ```
//! use shakmaty::{Chess, Position};
//! use shakmaty::san::San;
//! use touchmove_core::openings;
//!
//! let mut position = Chess::default();
//! for san in ["e4", "c5"] {
//!     let m = san.parse::<San>()?.to_move(&position)?;
//!     position.play_unchecked(m);
//! }
//! let opening = openings::of_position(&position).ok_or("unknown")?;
//! assert_eq!((opening.eco, opening.name), ("B20", "Sicilian Defense"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod table;

use std::sync::OnceLock;

use shakmaty::Chess;

pub use table::Table;

/// An opening of the table: its ECO code and its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Opening {
    /// The ECO code, `A00` to `E99`.
    pub eco: &'static str,
    /// The name, family first: `Sicilian Defense: Najdorf Variation`.
    pub name: &'static str,
}

/// The table's files, embedded: the data is the crate's, read at no run time.
const FILES: [&str; 5] = [
    include_str!("../../data/openings/a.tsv"),
    include_str!("../../data/openings/b.tsv"),
    include_str!("../../data/openings/c.tsv"),
    include_str!("../../data/openings/d.tsv"),
    include_str!("../../data/openings/e.tsv"),
];

/// The table, built from the embedded files on first use (a few milliseconds).
pub fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| Table::from_tsv(FILES))
}

/// The opening whose position `position` is, if the table has it.
pub fn of_position(position: &Chess) -> Option<Opening> {
    table().get(position)
}

/// The opening of a game whose positions are `positions`, from its start: the last position the
/// table knows (the deepest line the game reached, however it reached it), as Lichess names a
/// game's opening.
pub fn of_game<'a>(positions: impl IntoIterator<Item = &'a Chess>) -> Option<Opening> {
    let table = table();
    positions
        .into_iter()
        .take(table.deepest_ply() + 1)
        .filter_map(|position| table.get(position))
        .last()
}

#[cfg(test)]
mod tests;
