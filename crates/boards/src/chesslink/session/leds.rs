//! What a ChessLink board's LEDs show for the game: the last move's squares steady, the squares
//! of a mismatch blinking. Each square is lit by the four LEDs at its corners (81 LEDs on a
//! 9 × 9 grid: LED 1 at a8's outer corner, 9 at a1's, 73 at h8's, 81 at h1's).

use shakmaty::Square;

use crate::chesslink::wire::{HostCommand, LED_COUNT, corners};

/// A steady LED: on in every slot.
const STEADY: u8 = 0xff;

/// A blinking LED: on for four slots, off for four.
const BLINK: u8 = 0xf0;

/// The slot time of the patterns, in units of 4.096 ms: 15 gives a blink about every half
/// second (8 slots of 61 ms).
const SLOT_TIME: u8 = 15;

/// The squares to light, and the pattern last sent.
#[derive(Debug, Clone, Default)]
pub(super) struct Leds {
    last_move: Vec<Square>,
    blinking: Vec<Square>,
    shown: Option<[u8; LED_COUNT]>,
}

impl Leds {
    /// Nothing lit (a new game).
    pub(super) fn clear(&mut self) {
        self.last_move.clear();
        self.blinking.clear();
    }

    /// The last move's squares (none after a takeback).
    pub(super) fn last_move(&mut self, squares: &[Square]) {
        self.last_move = squares.to_vec();
    }

    /// The squares that differ from the game (none once it matches again).
    pub(super) fn mismatch(&mut self, squares: &[Square]) {
        self.blinking = squares.to_vec();
    }

    /// The board's LEDs are unknown (a new link): the next command is sent whatever it is.
    pub(super) fn forget_shown(&mut self) {
        self.shown = None;
    }

    /// The command that shows the squares, if it differs from what was last sent.
    pub(super) fn command(&mut self) -> Option<HostCommand> {
        let patterns = self.patterns();
        if self.shown == Some(patterns) {
            return None;
        }
        self.shown = Some(patterns);
        if patterns.iter().all(|&pattern| pattern == 0) {
            return Some(HostCommand::LedsOff);
        }
        Some(HostCommand::Leds {
            slot_time: SLOT_TIME,
            patterns: Box::new(patterns),
        })
    }

    /// Every LED's pattern: blinking beats steady where two squares share a corner.
    fn patterns(&self) -> [u8; LED_COUNT] {
        let mut patterns = [0u8; LED_COUNT];
        for (squares, pattern) in [(&self.last_move, STEADY), (&self.blinking, BLINK)] {
            for &square in squares {
                for led in corners(square) {
                    if let Some(slot) = patterns.get_mut(led) {
                        *slot = pattern;
                    }
                }
            }
        }
        patterns
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_corner_squares_touch_the_numbered_corner_leds() {
        // LED n is index n - 1: 1 at a8, 9 at a1, 73 at h8, 81 at h1.
        assert!(corners(Square::A8).contains(&0));
        assert!(corners(Square::A1).contains(&8));
        assert!(corners(Square::H8).contains(&72));
        assert!(corners(Square::H1).contains(&80));
        // e4 (file 4, fifth row from the top): columns 4 and 5, rows 4 and 5.
        assert_eq!(corners(Square::E4), [40, 41, 49, 50]);
    }

    #[test]
    fn a_pattern_is_sent_once_and_nothing_lit_is_leds_off() {
        let mut leds = Leds::default();
        leds.last_move(&[Square::E2, Square::E4]);
        let Some(HostCommand::Leds { patterns, .. }) = leds.command() else {
            panic!("an L command");
        };
        assert_eq!(patterns.iter().filter(|&&p| p == STEADY).count(), 8);
        assert_eq!(leds.command(), None);
        leds.mismatch(&[Square::E4]);
        let Some(HostCommand::Leds { patterns, .. }) = leds.command() else {
            panic!("an L command");
        };
        // e4's four corners blink, e2's four stay steady (e2 and e4 share no corner).
        assert_eq!(patterns.iter().filter(|&&p| p == BLINK).count(), 4);
        assert_eq!(patterns.iter().filter(|&&p| p == STEADY).count(), 4);
        leds.clear();
        assert_eq!(leds.command(), Some(HostCommand::LedsOff));
    }
}
