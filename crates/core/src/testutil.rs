//! Helpers shared by the unit tests: positions from FEN and moves from UCI.

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move};

/// The position a FEN describes (the test's FEN must be valid).
pub fn position(fen: &str) -> Chess {
    Fen::from_ascii(fen.as_bytes())
        .expect("a valid FEN")
        .into_position(CastlingMode::Standard)
        .expect("a legal position")
}

/// The legal move a UCI string names in `position`.
pub fn uci_move(position: &Chess, uci: &str) -> Move {
    UciMove::from_ascii(uci.as_bytes())
        .expect("a UCI move")
        .to_move(position)
        .expect("a legal move")
}
