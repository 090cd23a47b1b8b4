//! The host's debounce of a board's whole-position readings, square by square.
//!
//! A square's new reading is taken once a reading at least the hold after the one that first
//! showed it still shows it: two readings of two different scans, but of that square alone. A
//! board's own debounce (a ChessLink board's waits until the whole board has read the same for
//! two scans) holds back every other square's change while a knocked piece or a flickering
//! sensor anywhere keeps changing, and a piece sliding through a square looks as if it had
//! rested there (a released piece moved on, ruled under 4.7). Here each square's change comes a
//! constant hold after it was first seen, whatever the rest of the board does, so the rests the
//! interpreter weighs keep their length.

use std::collections::BTreeMap;

use shakmaty::{Board, Piece, Square};

use super::reading_order;
use touchmove_core::sensor::Millis;

/// The squares whose reading differs from the board taken, and whether the board was asked to
/// be read again since its last reading.
#[derive(Debug)]
pub(super) struct Debounce {
    /// How long after a square's new reading was first seen another reading must still show it
    /// for it to be taken (ms).
    hold_ms: Millis,
    /// What each changing square reads and since when it has read so.
    changing: BTreeMap<Square, Sighting>,
    /// Whether a reading was asked for since the last one came.
    asked: bool,
}

/// A square's reading and when it was first seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Sighting {
    piece: Option<Piece>,
    since: Millis,
}

impl Debounce {
    /// A debounce holding each change `hold_ms`.
    pub(super) fn new(hold_ms: Millis) -> Debounce {
        Debounce {
            hold_ms,
            changing: BTreeMap::new(),
            asked: false,
        }
    }

    /// Forgets every square's change (the board is read whole again).
    pub(super) fn clear(&mut self) {
        self.changing.clear();
        self.asked = false;
    }

    /// Takes `reading`, which arrived at `now`, against the board `taken` so far: returns the
    /// squares (in the board's order) whose new reading is now to be taken. A square read as
    /// `taken` has it again is forgotten (a flicker or a knock that came back); a square read
    /// otherwise than it was first seen starts again.
    pub(super) fn read(&mut self, now: Millis, taken: &Board, reading: &Board) -> Vec<Square> {
        self.asked = false;
        let mut confirmed = Vec::new();
        for square in reading_order() {
            let piece = reading.piece_at(square);
            if piece == taken.piece_at(square) {
                self.changing.remove(&square);
                continue;
            }
            let seen = self.changing.get(&square).copied();
            match seen {
                Some(sighting) if sighting.piece == piece => {
                    if now.saturating_sub(sighting.since) >= self.hold_ms {
                        self.changing.remove(&square);
                        confirmed.push(square);
                    }
                }
                _ => {
                    self.changing.insert(square, Sighting { piece, since: now });
                }
            }
        }
        confirmed
    }

    /// When the board is to be read again for a change seen once (none while a reading asked
    /// for is awaited: it will come).
    pub(super) fn read_again_at(&self) -> Option<Millis> {
        if self.asked {
            return None;
        }
        self.changing
            .values()
            .map(|sighting| sighting.since.saturating_add(self.hold_ms))
            .min()
    }

    /// A reading was asked for.
    pub(super) fn asked(&mut self) {
        self.asked = true;
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{Color, Role};

    use super::*;

    const HOLD_MS: Millis = 50;

    fn without(square: Square) -> Board {
        let mut board = Board::new();
        board.discard_piece_at(square);
        board
    }

    #[test]
    fn a_change_is_taken_when_a_reading_a_hold_later_still_shows_it() {
        let mut debounce = Debounce::new(HOLD_MS);
        let start = Board::new();
        let lifted = without(Square::E2);
        assert_eq!(debounce.read(100, &start, &lifted), []);
        assert_eq!(debounce.read_again_at(), Some(100 + HOLD_MS));
        // A reading before the hold has passed (another square's change) does not take it.
        assert_eq!(debounce.read(100 + HOLD_MS - 1, &start, &lifted), []);
        assert_eq!(debounce.read(100 + HOLD_MS, &start, &lifted), [Square::E2]);
        assert_eq!(debounce.read_again_at(), None);
    }

    #[test]
    fn a_square_back_as_it_was_is_forgotten() {
        let mut debounce = Debounce::new(HOLD_MS);
        let start = Board::new();
        debounce.read(100, &start, &without(Square::D3));
        assert_eq!(debounce.read(141, &start, &start), []);
        assert_eq!(debounce.read_again_at(), None);
        assert_eq!(debounce.read(400, &start, &start), []);
    }

    #[test]
    fn a_square_read_otherwise_starts_again() {
        let mut debounce = Debounce::new(HOLD_MS);
        let start = Board::new();
        // e7 emptied, then a white knight on it before the hold passed: a capture in one go.
        let mut captured = without(Square::E7);
        debounce.read(100, &start, &captured);
        captured.set_piece_at(
            Square::E7,
            Piece {
                color: Color::White,
                role: Role::Knight,
            },
        );
        assert_eq!(debounce.read(130, &start, &captured), []);
        assert_eq!(debounce.read_again_at(), Some(130 + HOLD_MS));
        assert_eq!(debounce.read(180, &start, &captured), [Square::E7]);
    }

    #[test]
    fn one_square_s_flicker_holds_back_no_other_square() {
        let mut debounce = Debounce::new(HOLD_MS);
        let start = Board::new();
        let lifted = without(Square::C7);
        debounce.read(100, &start, &lifted);
        // c8 flickers at every scan meanwhile; c7's lift is taken at its hold all the same.
        let mut flicker = lifted.clone();
        flicker.discard_piece_at(Square::C8);
        debounce.read(141, &start, &flicker);
        assert_eq!(debounce.read(182, &start, &lifted), [Square::C7]);
    }

    #[test]
    fn no_reading_is_asked_for_while_one_asked_for_is_awaited() {
        let mut debounce = Debounce::new(HOLD_MS);
        let start = Board::new();
        debounce.read(100, &start, &without(Square::E2));
        debounce.asked();
        assert_eq!(debounce.read_again_at(), None);
        debounce.read(160, &start, &without(Square::E2));
        assert_eq!(debounce.read_again_at(), None, "the change was taken");
    }
}
