//! `--book`: the Polyglot book read from its file, and the dice that choose among its moves
//! (`--book-seed`, else a random seed).

use std::path::{Path, PathBuf};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use shakmaty::{Chess, Move};

use touchmove_engine::book::Book;

/// The largest book read (a book of 16-byte entries this size holds 16 million moves).
const MAX_BOOK_BYTES: u64 = 256 * 1024 * 1024;

/// Why `--book`'s file cannot be the game's opening book.
#[derive(Debug, thiserror::Error)]
pub enum OpeningBookError {
    /// The file cannot be read.
    #[error("--book {}: cannot read it", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        error: std::io::Error,
    },
    /// The file is larger than any book read here.
    #[error("--book {}: {size} bytes is more than a book can be here ({MAX_BOOK_BYTES})", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size in bytes.
        size: u64,
    },
    /// The file is no Polyglot book.
    #[error("--book {}: not a Polyglot book", path.display())]
    NotABook {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        error: touchmove_engine::book::BookError,
    },
}

/// The opening book the engine's moves come from while the game is in it.
pub struct OpeningBook {
    book: Book,
    dice: SmallRng,
    /// The file's name, for the PGN tag.
    pub name: String,
}

impl OpeningBook {
    /// The book at `path`, its choices drawn from `seed` (a random seed when `None`).
    pub fn open(path: &Path, seed: Option<u64>) -> Result<OpeningBook, OpeningBookError> {
        let unreadable = |error| OpeningBookError::Unreadable {
            path: path.to_owned(),
            error,
        };
        let size = std::fs::metadata(path).map_err(unreadable)?.len();
        if size > MAX_BOOK_BYTES {
            return Err(OpeningBookError::TooLarge {
                path: path.to_owned(),
                size,
            });
        }
        let bytes = std::fs::read(path).map_err(unreadable)?;
        let book = Book::from_bytes(&bytes).map_err(|error| OpeningBookError::NotABook {
            path: path.to_owned(),
            error,
        })?;
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
    pub fn choose(&mut self, position: &Chess) -> Option<Move> {
        let roll = self.dice.random();
        self.book
            .choose(position, roll)
            .map(|chosen| chosen.chess_move)
    }
}
