//! Article 4 rulings: given what was touched during a turn and the move that was made, which
//! obligation (if any) was broken.

use shakmaty::{Chess, Color, Move, Position, Role, Square};

use super::geometry::{can_capture, capture_square};
use super::trace::Touch;
use crate::event::Rule;

/// A broken obligation: the article and the square the ruling is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Breach {
    /// The article broken.
    pub rule: Rule,
    /// The original square of the first touched piece whose obligation was broken (the rook's
    /// square for 4.4.2).
    pub square: Square,
}

/// The position and legal moves a turn was played in.
pub struct TurnContext<'a> {
    /// The position at the start of the turn.
    pub position: &'a Chess,
    /// Its legal moves.
    pub legal: &'a [Move],
}

impl TurnContext<'_> {
    fn can_move(&self, square: Square) -> bool {
        self.legal.iter().any(|m| m.from() == Some(square))
    }

    fn can_be_captured(&self, square: Square) -> bool {
        self.legal
            .iter()
            .any(|&m| capture_square(m) == Some(square))
    }

    fn can_capture(&self, from: Square, victim: Square) -> bool {
        can_capture(self.legal, from, victim)
    }

    fn castling_with(&self, rook: Square) -> Option<Move> {
        self.legal
            .iter()
            .copied()
            .find(|m| matches!(m, Move::Castle { rook: r, .. } if *r == rook))
    }
}

/// The breaches that making `m` after `touches` commits, each under its most specific article:
/// castling after touching the rook first (4.4.2), and the obligation of the first touch broken
/// (4.3.x, 4.4.1, 4.4.3) when that is another breach. `castle_intent` is the king's square when
/// the king was set down to castle illegally.
pub fn judge(
    ctx: &TurnContext<'_>,
    touches: &[Touch],
    castle_intent: Option<Square>,
    m: Move,
) -> Vec<Breach> {
    if castle_intent.is_none() && only_the_move_touched(touches, m) {
        return Vec::new();
    }
    let castled = castled_after_rook(touches, m, false);
    let obligation = obligation_broken(ctx, touches, castle_intent, m);
    let mut breaches: Vec<Breach> = castled.into_iter().collect();
    // Touching the rook first and then castling is one breach, not also 4.3.1 on the rook.
    breaches.extend(obligation.filter(|b| castled.is_none_or(|c| c.square != b.square)));
    breaches
}

/// Whether every touch of the turn is of the piece `m` moves: then no obligation can be broken
/// (the common case, decided without allocating). Castling is always judged in full: the order
/// of king and rook matters (4.4.2).
fn only_the_move_touched(touches: &[Touch], m: Move) -> bool {
    !m.is_castle() && touches.iter().all(|t| Some(t.square) == m.from())
}

/// The obligation of the turn's touches that `m` breaks, if any.
fn obligation_broken(
    ctx: &TurnContext<'_>,
    touches: &[Touch],
    castle_intent: Option<Square>,
    m: Move,
) -> Option<Breach> {
    let mover = ctx.position.turn();
    // The move's victim was certainly touched, whatever the order of the hands (a knock rule
    // cannot excuse it: it did not go back).
    let victim = capture_square(m);
    let mut binding: Vec<Touch> = touches
        .iter()
        .copied()
        .filter(|t| t.counts() || Some(t.square) == victim)
        .collect();
    // A board that reports a capture as the new piece arriving never sees the victim lifted;
    // it was touched all the same, as part of the move, after what came before.
    if let Some(victim) = victim.filter(|v| binding.iter().all(|t| t.square != *v))
        && let Some(piece) = ctx.position.board().piece_at(victim)
    {
        let t = binding.iter().map(|t| t.t).max().unwrap_or(0);
        binding.push(Touch {
            square: victim,
            piece,
            t,
            excusable: false,
            returned: false,
        });
    }
    // The moved piece lifted after another touch is the making of the move, not a touch that
    // binds (or that makes pieces of both colours touched); lifted first, it is the first touch.
    if let Some(index) = binding.iter().position(|t| Some(t.square) == m.from())
        && index > 0
    {
        binding.remove(index);
    }
    if let Some(king) = castle_intent
        && m.from() != Some(king)
        && ctx.can_move(king)
    {
        return Some(breach(Rule::IllegalCastlingIntent, king));
    }
    let own: Vec<Touch> = binding
        .iter()
        .copied()
        .filter(|t| t.piece.color == mover)
        .collect();
    // The piece the move captures was touched as part of the capture (a board cannot see in
    // which order the hand took victim and capturing piece), unless the first touched own piece
    // could have captured it: then 4.3.3 binds to that capture.
    let bound_capture = |t: &Touch| {
        own.first()
            .is_some_and(|o| ctx.can_capture(o.square, t.square))
    };
    let theirs: Vec<Touch> = binding
        .iter()
        .copied()
        .filter(|t| t.piece.color != mover)
        .filter(|t| Some(t.square) != victim || bound_capture(t))
        .collect();
    match (own.first(), theirs.first()) {
        (Some(&first_own), Some(&first_theirs)) => {
            both_colours(ctx, &binding, first_own, first_theirs, mover, m)
        }
        (Some(_), None) => own_pieces(ctx, &own, m),
        (None, Some(_)) => opponent_pieces(ctx, &theirs, m),
        (None, None) => None,
    }
}

fn breach(rule: Rule, square: Square) -> Breach {
    Breach { rule, square }
}

/// 4.4.2: the rook was touched before the king, and the player castled with it. `touches` are
/// those of the turn the rook was touched in; `king_may_follow` when the king may have been
/// touched after them (a castling that corrects the rook's move): then a king not among them
/// came later. Otherwise a king not among them was moved before the turn's touches were
/// followed (while the opponent's move was still being decided): it came first.
pub(super) fn castled_after_rook(
    touches: &[Touch],
    m: Move,
    king_may_follow: bool,
) -> Option<Breach> {
    let Move::Castle { king, rook } = m else {
        return None;
    };
    let binding: Vec<Touch> = touches.iter().copied().filter(Touch::counts).collect();
    let rook_touch = binding.iter().position(|t| t.square == rook)?;
    let rook_first = match binding.iter().position(|t| t.square == king) {
        Some(king_touch) => rook_touch < king_touch,
        None => king_may_follow,
    };
    rook_first.then(|| breach(Rule::RookThenKing, rook))
}

/// 4.3.1 and 4.4.1: only own pieces were touched.
fn own_pieces(ctx: &TurnContext<'_>, own: &[Touch], m: Move) -> Option<Breach> {
    let first = own.first()?;
    if first.piece.role == Role::King {
        let castling = own
            .iter()
            .skip(1)
            .filter(|t| t.piece.role == Role::Rook)
            .find_map(|t| ctx.castling_with(t.square));
        if let Some(castling) = castling {
            return (m != castling).then(|| breach(Rule::KingThenRook, first.square));
        }
    }
    let bound = own.iter().find(|t| ctx.can_move(t.square))?;
    (!moves_from(m, bound.square)).then(|| breach(Rule::TouchOwn, bound.square))
}

/// Whether `m` moves the piece on `square`: its piece, or a castling's rook (in Chess960 a
/// castling may move the rook alone, the king already on its square: Guidelines II.3.2.4).
fn moves_from(m: Move, square: Square) -> bool {
    m.from() == Some(square) || matches!(m, Move::Castle { rook, .. } if rook == square)
}

/// 4.3.2: only the opponent's pieces were touched.
fn opponent_pieces(ctx: &TurnContext<'_>, theirs: &[Touch], m: Move) -> Option<Breach> {
    let bound = theirs.iter().find(|t| ctx.can_be_captured(t.square))?;
    (capture_square(m) != Some(bound.square)).then(|| breach(Rule::TouchOpponent, bound.square))
}

/// 4.3.3: pieces of both colours were touched.
fn both_colours(
    ctx: &TurnContext<'_>,
    binding: &[Touch],
    own: Touch,
    theirs: Touch,
    mover: Color,
    m: Move,
) -> Option<Breach> {
    let first = if theirs.t < own.t { theirs } else { own };
    if ctx.can_capture(own.square, theirs.square) {
        let made = m.from() == Some(own.square) && capture_square(m) == Some(theirs.square);
        return (!made).then(|| breach(Rule::TouchBoth, first.square));
    }
    let mut ordered: Vec<Touch> = binding.to_vec();
    // If the order is unclear, the own piece counts as touched first.
    ordered.sort_by_key(|t| (t.t, t.piece.color != mover));
    for touch in ordered {
        if touch.piece.color == mover && ctx.can_move(touch.square) {
            let kept = m.from() == Some(touch.square);
            return (!kept).then(|| breach(Rule::TouchBoth, touch.square));
        }
        if touch.piece.color != mover && ctx.can_be_captured(touch.square) {
            let kept = capture_square(m) == Some(touch.square);
            return (!kept).then(|| breach(Rule::TouchBoth, touch.square));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::position;

    use shakmaty::Piece;
    use shakmaty::uci::UciMove;

    fn touch(pos: &Chess, square: Square, t: Millis) -> Touch {
        let piece: Piece = pos.board().piece_at(square).expect("a piece");
        Touch {
            square,
            piece,
            t,
            excusable: false,
            returned: true,
        }
    }

    use crate::sensor::Millis;

    fn ruling(fen: &str, touched: &[Square], uci: &str) -> Option<Breach> {
        let pos = position(fen);
        let legal: Vec<Move> = pos.legal_moves().into_iter().collect();
        let m = UciMove::from_ascii(uci.as_bytes())
            .expect("uci")
            .to_move(&pos)
            .expect("legal");
        let touches: Vec<Touch> = touched
            .iter()
            .enumerate()
            .map(|(i, &sq)| touch(&pos, sq, i as Millis * 100))
            .collect();
        let breaches = judge(
            &TurnContext {
                position: &pos,
                legal: &legal,
            },
            &touches,
            None,
            m,
        );
        assert!(breaches.len() <= 1, "one breach expected: {breaches:?}");
        breaches.first().copied()
    }

    #[test]
    fn a_touched_pawn_then_castling_rook_first_is_two_breaches() {
        let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
        let pos = position(fen);
        let legal: Vec<Move> = pos.legal_moves().into_iter().collect();
        let castle = UciMove::from_ascii(b"e1g1")
            .expect("uci")
            .to_move(&pos)
            .expect("legal");
        let touches: Vec<Touch> = [Square::A2, Square::H1, Square::E1]
            .iter()
            .enumerate()
            .map(|(i, &sq)| touch(&pos, sq, i as Millis * 100))
            .collect();
        let ctx = TurnContext {
            position: &pos,
            legal: &legal,
        };
        assert_eq!(
            judge(&ctx, &touches, None, castle),
            vec![
                breach(Rule::RookThenKing, Square::H1),
                breach(Rule::TouchOwn, Square::A2)
            ]
        );
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const CASTLE: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";

    #[test]
    fn moving_the_touched_piece_is_no_breach() {
        assert_eq!(ruling(START, &[Square::E2], "e2e4"), None);
    }

    #[test]
    fn moving_another_piece_breaks_4_3_1() {
        assert_eq!(
            ruling(START, &[Square::D2, Square::E2], "e2e4"),
            Some(breach(Rule::TouchOwn, Square::D2))
        );
    }

    #[test]
    fn a_touched_piece_without_legal_moves_binds_nothing() {
        assert_eq!(ruling(START, &[Square::C1, Square::E2], "e2e4"), None);
    }

    #[test]
    fn rook_then_king_castling_breaks_4_4_2() {
        assert_eq!(
            ruling(CASTLE, &[Square::H1, Square::E1], "e1g1"),
            Some(breach(Rule::RookThenKing, Square::H1))
        );
        assert_eq!(ruling(CASTLE, &[Square::E1, Square::H1], "e1g1"), None);
    }

    #[test]
    fn king_then_rook_without_castling_breaks_4_4_1() {
        assert_eq!(
            ruling(CASTLE, &[Square::E1, Square::H1, Square::E2], "e2e4"),
            Some(breach(Rule::KingThenRook, Square::E1))
        );
        assert_eq!(
            ruling(CASTLE, &[Square::E1, Square::A1], "e1g1"),
            Some(breach(Rule::KingThenRook, Square::E1))
        );
    }

    #[test]
    fn an_opponent_piece_that_could_be_taken_must_be_taken() {
        let fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        assert_eq!(
            ruling(fen, &[Square::D5, Square::G1], "g1f3"),
            Some(breach(Rule::TouchOpponent, Square::D5)),
            "lifting the knight to play it is the move, not a second touch"
        );
        assert_eq!(
            ruling(fen, &[Square::D5, Square::B1, Square::G1], "g1f3"),
            Some(breach(Rule::TouchBoth, Square::D5))
        );
        assert_eq!(
            ruling(fen, &[Square::D5], "g1f3"),
            Some(breach(Rule::TouchOpponent, Square::D5))
        );
        assert_eq!(ruling(fen, &[Square::D5], "e4d5"), None);
        assert_eq!(
            ruling(fen, &[Square::E4, Square::D5], "e4e5"),
            Some(breach(Rule::TouchBoth, Square::E4))
        );
        assert_eq!(ruling(fen, &[Square::E4, Square::D5], "e4d5"), None);
    }
}
