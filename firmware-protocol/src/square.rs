//! Squares: 0 to 63, a1 = 0, b1 = 1, …, h8 = 63 (rank-major, as bitboard bits).

/// A square of the board, 0 (a1) to 63 (h8); bit `index` of every 64-bit mask.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The square numbered `index`, if it is 0 to 63.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square's number, 0 (a1) to 63 (h8).
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The square's bit in a 64-bit mask.
    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// The file letter, `a` to `h`.
    pub const fn file(self) -> char {
        (b'a' + self.0 % 8) as char
    }

    /// The rank digit, `1` to `8`.
    pub const fn rank(self) -> char {
        (b'1' + self.0 / 8) as char
    }

    /// Every square, a1 to h8.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

#[cfg(test)]
mod tests {
    use super::Square;

    #[test]
    fn numbering_is_a1_zero_rank_major() {
        let e4 = Square::new(28);
        assert_eq!(e4.map(|s| (s.file(), s.rank())), Some(('e', '4')));
        assert_eq!(Square::new(63).map(Square::bit), Some(1 << 63));
        assert_eq!(Square::new(64), None);
        assert_eq!(Square::all().count(), 64);
    }
}
