//! A Polyglot opening book, read from its bytes (the caller reads the file): the moves it gives
//! for a position, and one of them chosen by weight.
//!
//! The format, as Polyglot's own `book_format.html` describes it: entries of 16 bytes, highest
//! byte first, sorted by key: the position's key (`u64`, the Polyglot Zobrist hash, which
//! shakmaty computes: its keys are Polyglot's), the move (`u16`: to file bits 0–2, to rank
//! 3–5, from file 6–8, from rank 9–11, promotion 12–14 as none, knight, bishop, rook, queen;
//! castling as the king taking its own rook, `e1h1`), a weight (`u16`) and a learning field
//! (`u32`, not used). A move of weight 0 is never chosen.

use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, File, Move, Position, Rank, Role, Square};

/// The size of one entry.
const ENTRY: usize = 16;

/// Why bytes are no Polyglot book.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    /// Its length is no whole number of entries.
    #[error("{len} bytes are no whole number of 16-byte entries")]
    Truncated {
        /// Its length in bytes.
        len: usize,
    },
    /// The entries are not sorted by key, which a reader needs to find a position.
    #[error(
        "entry {entry} (from 0) has a lower key than the one before it: the book is not sorted"
    )]
    Unsorted {
        /// The entry out of order.
        entry: usize,
    },
    /// It has no entry.
    #[error("the book has no entry")]
    Empty,
}

/// One entry of the book as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    key: u64,
    raw_move: u16,
    weight: u16,
}

/// A move the book gives for a position, legal there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub chess_move: Move,
    /// Its weight: how often it is chosen against the position's others.
    pub weight: u16,
}

/// A Polyglot opening book.
///
/// ```
/// use shakmaty::Chess;
/// use touchmove_engine::book::Book;
///
/// // One entry: the starting position's key, 1. e4 (e2e4: from file 4, rank 1; to rank 3),
/// // weight 1.
/// let mut bytes = 0x463b_9618_1691_fc9c_u64.to_be_bytes().to_vec();
/// bytes.extend((4_u16 << 6 | 1 << 9 | 4 | 3 << 3).to_be_bytes());
/// bytes.extend(1_u16.to_be_bytes());
/// bytes.extend(0_u32.to_be_bytes());
/// let book = Book::from_bytes(&bytes).expect("a book");
/// let chosen = book.choose(&Chess::default(), 12345).expect("in the book");
/// assert_eq!(chosen.chess_move.to_string(), "e2-e4");
/// ```
#[derive(Debug, Clone)]
pub struct Book {
    entries: Vec<Entry>,
}

impl Book {
    /// The book the bytes of a Polyglot `.bin` file hold.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if !bytes.len().is_multiple_of(ENTRY) {
            return Err(BookError::Truncated { len: bytes.len() });
        }
        let entries: Vec<Entry> = bytes.chunks_exact(ENTRY).map(entry).collect();
        if entries.is_empty() {
            return Err(BookError::Empty);
        }
        if let Some(unsorted) = entries.windows(2).position(|pair| match pair {
            [before, after] => after.key < before.key,
            _ => false,
        }) {
            return Err(BookError::Unsorted {
                entry: unsorted + 1,
            });
        }
        Ok(Book { entries })
    }

    /// How many entries it holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds none (never: an empty book is refused).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The moves the book gives for `position`, in the book's order, each legal there and of a
    /// weight above 0.
    pub fn moves(&self, position: &Chess) -> Vec<BookMove> {
        let key = key(position);
        let first = self.entries.partition_point(|entry| entry.key < key);
        self.entries
            .get(first..)
            .unwrap_or_default()
            .iter()
            .take_while(|entry| entry.key == key)
            .filter(|entry| entry.weight > 0)
            .filter_map(|entry| {
                let chess_move = decode(entry.raw_move)?.to_move(position).ok()?;
                Some(BookMove {
                    chess_move,
                    weight: entry.weight,
                })
            })
            .collect()
    }

    /// One of the book's moves for `position`, chosen by weight with `roll` (a random number:
    /// a move of weight `w` among moves weighing `W` in all is chosen for `w` of every `W`
    /// values of `roll % W`); `None` when the position is not in the book.
    pub fn choose(&self, position: &Chess, roll: u64) -> Option<BookMove> {
        let moves = self.moves(position);
        let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
        let mut left = roll.checked_rem(total)?;
        for book_move in moves {
            let weight = u64::from(book_move.weight);
            if left < weight {
                return Some(book_move);
            }
            left -= weight;
        }
        None
    }
}

/// The Polyglot key of `position` (the en passant file counted when a pawn stands beside the
/// pawn that moved two squares, whether or not taking is legal: Polyglot's rule).
fn key(position: &Chess) -> u64 {
    let Zobrist64(key) = position.zobrist_hash(EnPassantMode::PseudoLegal);
    key
}

/// An entry from its 16 bytes.
fn entry(bytes: &[u8]) -> Entry {
    let mut key = [0; 8];
    let mut raw_move = [0; 2];
    let mut weight = [0; 2];
    for (to, from) in key.iter_mut().zip(bytes) {
        *to = *from;
    }
    for (to, from) in raw_move.iter_mut().zip(bytes.iter().skip(8)) {
        *to = *from;
    }
    for (to, from) in weight.iter_mut().zip(bytes.iter().skip(10)) {
        *to = *from;
    }
    Entry {
        key: u64::from_be_bytes(key),
        raw_move: u16::from_be_bytes(raw_move),
        weight: u16::from_be_bytes(weight),
    }
}

/// The UCI move a book's move field says (castling as the king to its rook's square, which
/// shakmaty reads as castling where the right stands); `None` for the empty move.
fn decode(raw: u16) -> Option<UciMove> {
    let square = |bits: u16| {
        Square::from_coords(
            File::new(u32::from(bits & 0x07)),
            Rank::new(u32::from(bits >> 3 & 0x07)),
        )
    };
    let to = square(raw & 0x3f);
    let from = square(raw >> 6 & 0x3f);
    let promotion = match raw >> 12 & 0x07 {
        1 => Some(Role::Knight),
        2 => Some(Role::Bishop),
        3 => Some(Role::Rook),
        4 => Some(Role::Queen),
        _ => None,
    };
    (from != to).then_some(UciMove::Normal {
        from,
        to,
        promotion,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Color};

    /// The move field of `from`–`to`, promoted to `promotion` (1 knight ... 4 queen).
    fn field(from: Square, to: Square, promotion: u16) -> u16 {
        let bits = |square: Square| (u16::from(square.rank()) << 3) | u16::from(square.file());
        promotion << 12 | bits(from) << 6 | bits(to)
    }

    fn bytes(entries: &[(u64, u16, u16)]) -> Vec<u8> {
        let mut bytes = Vec::new();
        for &(key, raw_move, weight) in entries {
            bytes.extend(key.to_be_bytes());
            bytes.extend(raw_move.to_be_bytes());
            bytes.extend(weight.to_be_bytes());
            bytes.extend(0_u32.to_be_bytes());
        }
        bytes
    }

    fn position(fen: &str) -> Chess {
        Fen::from_ascii(fen.as_bytes())
            .ok()
            .and_then(|fen| fen.into_position(CastlingMode::Standard).ok())
            .unwrap_or_else(|| panic!("{fen}"))
    }

    #[test]
    fn keys_are_polyglot_s_published_test_keys() {
        // From Polyglot's book_format.html; the last two have an en passant file only because
        // a pawn stands beside the pawn that moved (the first of them, d6, has none beside).
        for (fen, expected) in [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                0x463b_9618_1691_fc9c_u64,
            ),
            (
                "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
                0x0756_b944_61c5_0fb0,
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                0x22a4_8b5a_8e47_ff78,
            ),
            (
                "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
                0x3c81_23ea_7b06_7637,
            ),
        ] {
            assert_eq!(key(&position(fen)), expected, "{fen}");
        }
    }

    #[test]
    fn moves_are_read_with_castling_and_promotion_and_weightless_ones_left_out() {
        let castles = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let promotes = position("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
        let mut entries = vec![
            (key(&castles), field(Square::E1, Square::H1, 0), 3),
            (key(&castles), field(Square::E1, Square::A1, 0), 1),
            (key(&castles), field(Square::A1, Square::A8, 0), 0),
            (key(&promotes), field(Square::E7, Square::E8, 1), 2),
            // Not legal there: left out.
            (key(&promotes), field(Square::E1, Square::E3, 0), 9),
        ];
        entries.sort_by_key(|entry| entry.0);
        let book = Book::from_bytes(&bytes(&entries)).expect("a book");
        let moves: Vec<String> = book
            .moves(&castles)
            .iter()
            .map(|m| UciMove::from_standard(m.chess_move).to_string())
            .collect();
        assert_eq!(moves, ["e1g1", "e1c1"]);
        let promoted = book.moves(&promotes);
        assert_eq!(promoted.len(), 1);
        assert_eq!(
            promoted.first().and_then(|m| m.chess_move.promotion()),
            Some(Role::Knight)
        );
        assert!(book.moves(&Chess::default()).is_empty());
        assert_eq!(book.choose(&Chess::default(), 7), None);
        // The black side's key differs: not in the book.
        let black = castles
            .clone()
            .swap_turn()
            .unwrap_or_else(|_| panic!("a legal position"));
        assert_eq!(black.turn(), Color::Black);
        assert!(book.moves(&black).is_empty());
    }

    #[test]
    fn a_move_is_chosen_as_often_as_its_weight_says() {
        let start = Chess::default();
        let e4 = field(Square::E2, Square::E4, 0);
        let d4 = field(Square::D2, Square::D4, 0);
        let c4 = field(Square::C2, Square::C4, 0);
        let book = Book::from_bytes(&bytes(&[
            (key(&start), e4, 5),
            (key(&start), d4, 3),
            (key(&start), c4, 2),
        ]))
        .expect("a book");
        let mut counts = [0; 3];
        for roll in 0..1000 {
            let chosen = book.choose(&start, roll).expect("in the book");
            let to = chosen.chess_move.to();
            let index = [Square::E4, Square::D4, Square::C4]
                .iter()
                .position(|square| *square == to)
                .expect("one of the three");
            counts[index] += 1;
        }
        assert_eq!(counts, [500, 300, 200]);
    }

    #[test]
    fn bytes_that_are_no_book_are_refused_with_why() {
        let start = key(&Chess::default());
        let one = bytes(&[(start, field(Square::E2, Square::E4, 0), 1)]);
        assert_eq!(
            Book::from_bytes(&one[..15]).err(),
            Some(BookError::Truncated { len: 15 })
        );
        assert_eq!(Book::from_bytes(&[]).err(), Some(BookError::Empty));
        let unsorted = bytes(&[(start, 0x0001, 1), (start - 1, 0x0001, 1)]);
        assert_eq!(
            Book::from_bytes(&unsorted).err(),
            Some(BookError::Unsorted { entry: 1 })
        );
    }
}
