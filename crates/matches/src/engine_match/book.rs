//! `--book`: the Polyglot book read from its file, and the dice that choose among its moves
//! (`--book-seed`, else a random seed).

use std::path::Path;

use anyhow::{Context, Result};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use shakmaty::{Chess, Move};

use touchmove::engine::book::Book;

/// The largest book read (a book of 16-byte entries this size holds 16 million moves).
const MAX_BOOK_BYTES: u64 = 256 * 1024 * 1024;

/// The opening book the engine's moves come from while the game is in it.
pub(super) struct OpeningBook {
    book: Book,
    dice: SmallRng,
    /// The file's name, for the PGN tag.
    pub(super) name: String,
}

impl OpeningBook {
    /// The book at `path`, its choices drawn from `seed` (a random seed when `None`).
    pub(super) fn open(path: &Path, seed: Option<u64>) -> Result<OpeningBook> {
        let size = std::fs::metadata(path)
            .with_context(|| format!("--book {}: cannot read it", path.display()))?
            .len();
        anyhow::ensure!(
            size <= MAX_BOOK_BYTES,
            "--book {}: {size} bytes is more than a book can be here ({MAX_BOOK_BYTES})",
            path.display()
        );
        let bytes = std::fs::read(path)
            .with_context(|| format!("--book {}: cannot read it", path.display()))?;
        let book = Book::from_bytes(&bytes)
            .with_context(|| format!("--book {}: not a Polyglot book", path.display()))?;
        let seed = seed.unwrap_or_else(|| rand::rng().random());
        tracing::info!(
            entries = book.len(),
            seed,
            "opening book {}",
            path.display()
        );
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |name| name.to_string_lossy().into_owned(),
        );
        Ok(OpeningBook {
            book,
            dice: SmallRng::seed_from_u64(seed),
            name,
        })
    }

    /// One of the book's moves for `position`, chosen by weight; `None` out of the book.
    pub(super) fn choose(&mut self, position: &Chess) -> Option<Move> {
        let roll = self.dice.random();
        self.book
            .choose(position, roll)
            .map(|chosen| chosen.chess_move)
    }
}
