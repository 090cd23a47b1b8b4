//! The turn in progress as a program showing the game sees it ([`TurnView`]), read from the
//! interpreter's turn, phase and settings.

use super::Interpreter;
use super::phase::{Pending, Phase};
use super::view::{PendingDecision, TouchedPiece, TurnState, TurnView};

impl Interpreter {
    /// The turn in progress.
    #[must_use]
    pub fn turn_view(&self) -> TurnView {
        let turn = self.game.turn();
        let legal = self.game.legal_moves();
        let in_hand = self
            .turn
            .trace
            .in_hand()
            .into_iter()
            .filter_map(|square| Some((square, self.turn.trace.origin_piece(square)?)))
            .collect();
        let touched: Vec<TouchedPiece> = self
            .turn
            .trace
            .touches()
            .iter()
            .filter(|touch| touch.counts())
            .map(|touch| TouchedPiece {
                square: touch.square,
                piece: touch.piece,
                t: touch.t,
                moves: legal
                    .iter()
                    .filter(|m| {
                        if touch.piece.color == turn {
                            m.from() == Some(touch.square)
                        } else {
                            m.is_capture() && m.to() == touch.square
                        }
                    })
                    .copied()
                    .collect(),
            })
            .collect();
        let first_with_moves = |own: bool| {
            touched
                .iter()
                .find(|t| (t.piece.color == turn) == own && !t.moves.is_empty())
                .map(|t| t.square)
                .filter(|_| self.config.strict)
        };
        let (must_move, must_capture) = (first_with_moves(true), first_with_moves(false));
        TurnView {
            turn,
            ply: u32::try_from(self.game.plies())
                .unwrap_or(u32::MAX)
                .saturating_add(1),
            state: state_of(self.phase),
            in_hand,
            touched,
            must_move,
            must_capture,
            pending: pending_of(self),
        }
    }
}

/// What a program is told of the turn's phase.
fn state_of(phase: Phase) -> TurnState {
    match phase {
        Phase::AtRest => TurnState::AtRest,
        Phase::InHand { .. } => TurnState::InHand,
        Phase::Pending { .. } => TurnState::Pending,
        Phase::Displaced { from, to, .. } => TurnState::Displaced { from, to },
        Phase::Unexplained { .. } => TurnState::Unexplained,
        Phase::Closed => TurnState::Closed,
    }
}

/// The decision that waits, if one does, and until when.
fn pending_of(interpreter: &Interpreter) -> Option<PendingDecision> {
    let Phase::Pending { what, deadline } = interpreter.phase else {
        return None;
    };
    Some(match what {
        Pending::Move { m, .. } if interpreter.awaits_promotion_choice() => {
            PendingDecision::PromotionChoice { chess_move: m }
        }
        Pending::Move { m, correction } => PendingDecision::Move {
            chess_move: m,
            correction,
            deadline,
        },
        Pending::Takeback { plies } => PendingDecision::Takeback { plies, deadline },
    })
}

#[cfg(test)]
mod tests {
    use shakmaty::{Chess, Color, Piece, Role, Square};

    use super::*;
    use crate::interpreter::Config;
    use crate::sensor::{Millis, SensorEvent, SensorKind};

    fn lift(t: Millis, square: Square) -> SensorEvent {
        SensorEvent::new(
            t,
            SensorKind::Lift {
                square,
                piece: None,
            },
        )
    }

    fn place(t: Millis, square: Square) -> SensorEvent {
        SensorEvent::new(
            t,
            SensorKind::Place {
                square,
                piece: None,
            },
        )
    }

    #[test]
    fn a_pawn_in_hand_must_move_and_its_move_waits_for_the_slide_window() {
        let mut interpreter = Interpreter::new(Chess::default(), Config::default());
        interpreter.handle_event(&lift(1000, Square::E2));
        // A lift is weighed once the bounce window has passed: a replace at 1050 would still
        // have been a bounce (within 50 ms), so at 1051.
        assert_eq!(interpreter.poll_timeout(), Some(1051));
        interpreter.handle_timeout(1051);
        let view = interpreter.turn_view();
        let pawn = Piece {
            color: Color::White,
            role: Role::Pawn,
        };
        assert_eq!(
            (view.turn, view.ply, view.state),
            (Color::White, 1, TurnState::InHand)
        );
        assert_eq!(view.in_hand, [(Square::E2, pawn)]);
        assert_eq!(
            (view.must_move, view.must_capture),
            (Some(Square::E2), None)
        );
        let targets: Vec<Square> = view
            .touched
            .iter()
            .flat_map(|touched| touched.moves.iter().map(|m| m.to()))
            .collect();
        assert_eq!(targets, [Square::E3, Square::E4]);
        // Set down on e3, which it could pass on the way to e4: the move waits for the slide
        // window, 250 ms.
        interpreter.handle_event(&place(1400, Square::E3));
        let view = interpreter.turn_view();
        assert!(view.in_hand.is_empty());
        assert!(
            matches!(
                view.pending,
                Some(PendingDecision::Move { chess_move, deadline: 1650, correction: false })
                    if chess_move.to() == Square::E3
            ),
            "{:?}",
            view.pending
        );
        interpreter.handle_timeout(1650);
        let view = interpreter.turn_view();
        assert_eq!((view.turn, view.ply, view.pending), (Color::Black, 2, None));
        assert!(view.touched.is_empty());
    }

    #[test]
    fn in_casual_play_a_touch_obliges_nothing() {
        let mut interpreter =
            Interpreter::new(Chess::default(), Config::default().with_strict(false));
        interpreter.handle_event(&lift(1000, Square::G1));
        interpreter.handle_event(&place(1100, Square::G1));
        let view = interpreter.turn_view();
        assert_eq!(view.touched.len(), 1);
        assert_eq!((view.must_move, view.state), (None, TurnState::AtRest));
    }
}
