//! Lights that guide the hands, for a board with a light per square (Chessnut, Pegasus): the
//! squares of a move to carry out (an engine's, an opponent's) until it is made, and while the
//! board differs from the game the squares that differ, until it matches again; while where a
//! piece went is asked, the square it left and those it may stand on, until a move is decided;
//! nothing while the board matches the game and nothing is to be carried out.

use shakmaty::Square;

use super::feedback::Feedback;

/// What a board's lights are to show, and what they were last set to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GuideLights {
    to_carry_out: Vec<Square>,
    mismatch: Vec<Square>,
    asked: Vec<Square>,
    shown: Option<Vec<Square>>,
}

impl GuideLights {
    /// Takes what the game tells the board; whether it concerns the lights.
    pub fn take(&mut self, feedback: &Feedback) -> bool {
        match feedback {
            Feedback::Started { .. } => {
                self.to_carry_out.clear();
                self.mismatch.clear();
                self.asked.clear();
            }
            Feedback::Show { from, to, .. } => self.to_carry_out = vec![*from, *to],
            Feedback::Moved { .. } | Feedback::TakenBack { .. } => {
                self.to_carry_out.clear();
                self.asked.clear();
            }
            Feedback::Mismatch { squares } => self.mismatch = squares.clone(),
            Feedback::Resynced => self.mismatch.clear(),
            Feedback::Ambiguous { to, .. } if to.is_empty() => self.asked.clear(),
            Feedback::Ambiguous { from, to } => {
                self.asked = std::iter::once(*from).chain(to.iter().copied()).collect();
            }
            _ => return false,
        }
        true
    }

    /// The squares to light now: a question while one is asked, else the mismatch while there
    /// is one, else the move to carry out.
    pub fn wanted(&self) -> &[Square] {
        if !self.asked.is_empty() {
            &self.asked
        } else if self.mismatch.is_empty() {
            &self.to_carry_out
        } else {
            &self.mismatch
        }
    }

    /// The squares to set the lights to, if they do not show them already (they are taken as
    /// shown from then).
    pub fn to_show(&mut self) -> Option<Vec<Square>> {
        let wanted = self.wanted().to_vec();
        if self.shown.as_ref() == Some(&wanted) {
            return None;
        }
        self.shown = Some(wanted.clone());
        Some(wanted)
    }

    /// The board's lights are in an unknown state (a new connection): the next
    /// [`GuideLights::to_show`] sets them whatever they were.
    pub fn forget_shown(&mut self) {
        self.shown = None;
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::Color;

    use super::*;

    #[test]
    fn a_move_to_carry_out_then_a_mismatch_then_the_move_then_nothing() {
        let mut lights = GuideLights::default();
        assert_eq!(lights.to_show(), Some(vec![]), "unknown lights are put out");
        assert_eq!(lights.to_show(), None);
        let show = Feedback::Show {
            from: Square::G8,
            to: Square::F6,
            text: "Nf6".to_owned(),
        };
        assert!(lights.take(&show));
        assert_eq!(lights.to_show(), Some(vec![Square::G8, Square::F6]));
        let mismatch = Feedback::Mismatch {
            squares: vec![Square::E7],
        };
        assert!(lights.take(&mismatch));
        assert_eq!(lights.to_show(), Some(vec![Square::E7]));
        assert!(lights.take(&Feedback::Resynced));
        assert_eq!(lights.to_show(), Some(vec![Square::G8, Square::F6]));
        let moved = Feedback::Moved {
            by: Color::Black,
            from: Square::G8,
            to: Square::F6,
        };
        assert!(lights.take(&moved));
        assert_eq!(lights.to_show(), Some(vec![]));
        lights.forget_shown();
        assert_eq!(
            lights.to_show(),
            Some(vec![]),
            "set again on a new connection"
        );
    }

    #[test]
    fn a_question_is_lit_over_a_mismatch_until_a_move_is_decided() {
        let mut lights = GuideLights::default();
        let asked = Feedback::Ambiguous {
            from: Square::H3,
            to: vec![Square::E6, Square::H7],
        };
        assert!(lights.take(&asked));
        let mismatch = Feedback::Mismatch {
            squares: vec![Square::H3],
        };
        assert!(lights.take(&mismatch));
        assert_eq!(
            lights.to_show(),
            Some(vec![Square::H3, Square::E6, Square::H7])
        );
        assert!(lights.take(&Feedback::Resynced));
        let moved = Feedback::Moved {
            by: Color::White,
            from: Square::H3,
            to: Square::E6,
        };
        assert!(lights.take(&moved));
        assert_eq!(lights.to_show(), Some(vec![]));
        // Asked again, then the piece back where it was: nothing asked any more.
        assert!(lights.take(&asked));
        assert_eq!(
            lights.to_show(),
            Some(vec![Square::H3, Square::E6, Square::H7])
        );
        let back = Feedback::Ambiguous {
            from: Square::H3,
            to: Vec::new(),
        };
        assert!(lights.take(&back));
        assert_eq!(lights.to_show(), Some(vec![]));
    }

    #[test]
    fn what_is_no_light_s_business_is_left() {
        let mut lights = GuideLights::default();
        assert!(!lights.take(&Feedback::Pending { text: None }));
    }
}
