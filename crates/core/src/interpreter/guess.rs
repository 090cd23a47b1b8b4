//! What the record holds on the board's word alone: after an outage or a mismatch, the moves
//! caught up from what the board showed, and whose turn it is, are guesses until a press or a
//! move seen made shows them right. No ruling is made from a guess: a press that contradicts
//! it (the side the guess has to move pressing with no move seen) is evidence that the guess
//! was wrong, not an illegal move.
//!
//! On a board that names no piece, the board coming back from a time unheard says where
//! pieces stand, not which: a queen and a rook may have changed places unseen. From then on
//! which piece stands where is a guess for the rest of the game, and a move the record's pieces
//! could not make is evidence against the guess, not an illegal move.

use shakmaty::Color;

use crate::sensor::Millis;

/// The guesses the record holds, and the last press that says who moved last.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Guess {
    /// The plies at the end of the record that were caught up from the board and that no press
    /// has shown right since.
    plies: usize,
    /// Whether the side to move is a guess: moves were caught up, or presses went by while the
    /// board matched nothing or was away, and no press or seen move has shown who is to move
    /// since.
    turn: bool,
    /// The last press weighed: who pressed, and when.
    last_press: Option<(Color, Millis)>,
    /// Whether which piece stands where is a guess: the board names no piece and was heard
    /// again after a time unheard (a full report once the game had begun). It stays a guess
    /// to the game's end: no later move can show it right.
    pieces: bool,
}

impl Guess {
    /// A move was caught up from the board.
    pub(super) fn reconstructed(&mut self) {
        self.plies = self.plies.saturating_add(1);
        self.turn = true;
    }

    /// Presses may have gone by unweighed (the board matched nothing, or was away and came
    /// back changed): who moved last is not known.
    pub(super) fn turn_unknown(&mut self) {
        self.turn = true;
    }

    /// A board that names no piece came back from a time unheard: which piece stands where
    /// is not known.
    pub(super) fn pieces_unknown(&mut self) {
        self.pieces = true;
    }

    /// The last ply was taken back.
    pub(super) fn taken_back(&mut self) {
        self.plies = self.plies.saturating_sub(1);
    }

    /// A press by the side that moved last, or a move seen made, shows the record right.
    pub(super) fn confirmed(&mut self) {
        self.plies = 0;
        self.turn = false;
    }

    /// How many plies at the end of the record were caught up from the board and not shown
    /// right since.
    pub(super) fn caught_up(&self) -> usize {
        self.plies
    }

    /// The plies caught up are taken back (a press showed them wrong): how many they were.
    pub(super) fn withdraw_caught_up(&mut self) -> usize {
        std::mem::take(&mut self.plies)
    }

    /// Whether the side to move is a guess.
    pub(super) fn turn_guessed(&self) -> bool {
        self.turn
    }

    /// Whether which piece stands where is a guess.
    pub(super) fn pieces_guessed(&self) -> bool {
        self.pieces
    }

    /// `color` pressed at `t`.
    pub(super) fn pressed(&mut self, color: Color, t: Millis) {
        self.last_press = Some((color, t));
    }

    /// Who completed the move the board shows, when a press since its last change at
    /// `changed_at` says so.
    pub(super) fn last_mover(&self, changed_at: Millis) -> Option<Color> {
        self.last_press
            .filter(|&(_, at)| at >= changed_at)
            .map(|(color, _)| color)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caught_up_plies_are_guesses_until_confirmed() {
        let mut guess = Guess::default();
        guess.reconstructed();
        guess.reconstructed();
        guess.taken_back();
        assert_eq!((guess.caught_up(), guess.turn_guessed()), (1, true));
        assert_eq!(guess.withdraw_caught_up(), 1);
        assert_eq!(guess.caught_up(), 0);
        guess.reconstructed();
        guess.confirmed();
        assert_eq!((guess.plies, guess.turn), (0, false));
        guess.turn_unknown();
        assert!(guess.turn);
    }

    #[test]
    fn which_piece_stands_where_stays_a_guess_once_it_is() {
        let mut guess = Guess::default();
        assert!(!guess.pieces);
        guess.pieces_unknown();
        guess.confirmed();
        guess.pressed(Color::White, 1_000);
        assert!(guess.pieces, "no press or move seen names a piece");
    }

    #[test]
    fn only_a_press_after_the_board_s_last_change_says_who_moved_last() {
        let mut guess = Guess::default();
        assert_eq!(guess.last_mover(0), None);
        guess.pressed(Color::Black, 1_000);
        assert_eq!(guess.last_mover(900), Some(Color::Black));
        assert_eq!(guess.last_mover(1_000), Some(Color::Black));
        assert_eq!(guess.last_mover(1_001), None);
    }
}
