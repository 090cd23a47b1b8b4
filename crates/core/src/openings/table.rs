//! The table: each line's moves played from the standard position, the position reached the key.

use std::collections::HashMap;

use shakmaty::fen::Epd;
use shakmaty::san::San;
use shakmaty::{Chess, EnPassantMode, Position};

use super::Opening;

/// The openings by position (an EPD: placement, turn, castling rights, an en passant square
/// only where a capture there is legal).
#[derive(Debug, Default)]
pub struct Table {
    by_position: HashMap<Epd, Opening>,
    deepest_ply: usize,
    refused: Vec<&'static str>,
}

impl Table {
    /// The table of `files`' lines (`eco<TAB>name<TAB>pgn`, a header line first); a line whose
    /// moves are not legal from the standard position is left out (and kept in
    /// [`Table::refused`]); where two lines reach one position, the first names it.
    pub fn from_tsv(files: impl IntoIterator<Item = &'static str>) -> Table {
        let mut table = Table::default();
        for line in files.into_iter().flat_map(|file| file.lines().skip(1)) {
            match parse_line(line) {
                Some((opening, position, plies)) => table.insert(opening, &position, plies),
                None if line.trim().is_empty() => {}
                None => table.refused.push(line),
            }
        }
        table
    }

    /// The opening at `position`, if the table has it.
    pub fn get(&self, position: &Chess) -> Option<Opening> {
        self.by_position.get(&epd(position)).copied()
    }

    /// The most plies any line of the table has: no later position of a game is in it.
    pub fn deepest_ply(&self) -> usize {
        self.deepest_ply
    }

    /// How many positions the table names.
    pub fn len(&self) -> usize {
        self.by_position.len()
    }

    /// Whether the table names no position.
    pub fn is_empty(&self) -> bool {
        self.by_position.is_empty()
    }

    /// The lines left out: not three fields, or moves not legal from the standard position.
    pub fn refused(&self) -> &[&'static str] {
        &self.refused
    }

    fn insert(&mut self, opening: Opening, position: &Chess, plies: usize) {
        self.deepest_ply = self.deepest_ply.max(plies);
        self.by_position.entry(epd(position)).or_insert(opening);
    }
}

/// A line's opening, the position its moves reach and how many plies they are.
fn parse_line(line: &'static str) -> Option<(Opening, Chess, usize)> {
    let mut fields = line.split('\t');
    let (eco, name, pgn) = (fields.next()?, fields.next()?, fields.next()?);
    let mut position = Chess::default();
    let mut plies = 0;
    // Move numbers (`1.`) are skipped; every other token is a move in SAN.
    for token in pgn.split_whitespace().filter(|token| !token.ends_with('.')) {
        let m = token.parse::<San>().ok()?.to_move(&position).ok()?;
        position.play_unchecked(m);
        plies += 1;
    }
    Some((Opening { eco, name }, position, plies))
}

/// The position's key.
fn epd(position: &Chess) -> Epd {
    Epd::from_position(position, EnPassantMode::Legal)
}
