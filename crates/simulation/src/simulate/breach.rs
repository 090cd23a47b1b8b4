//! Injected breaches: a touched own piece put back, a corrected illegal placement, and an illegal
//! move completed by a clock press.

use shakmaty::{Bitboard, Chess, Color, Move, Position, Role, Square};

use super::RulingKind;
use super::recorder::Recorder;
use touchmove_core::event::Rule;

/// Chance that a move carries a breach, when at least one applies.
const BREACH_CHANCE: f64 = 0.2;

/// A breach chosen for one move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Breach {
    /// Another own piece that can move is lifted and put back before the move (4.3.1).
    TouchOwn(Square),
    /// The moving piece rests on this illegal square, then goes on to its destination.
    Corrected(Square),
    /// The moving piece is put on this illegal square and the clock pressed; it goes back.
    IllegalMove(Square),
}

/// Picks at most one applicable breach for `m` (and involves its square in the move).
/// `illegal_allowed` is false once this colour has made its one injected illegal move.
pub(super) fn choose(
    rec: &mut Recorder<'_>,
    pos: &Chess,
    m: Move,
    illegal_allowed: bool,
) -> Option<Breach> {
    let style = rec.style();
    let mut options = Vec::new();
    if style.touch_put_back {
        options.extend(touchable(rec, pos, m).map(Breach::TouchOwn));
    }
    let illegal = illegal_square(rec, pos, m);
    if style.corrected_placement && is_quiet(m) {
        options.extend(illegal.map(Breach::Corrected));
    }
    if style.illegal_move && illegal_allowed {
        options.extend(illegal.map(Breach::IllegalMove));
    }
    if options.is_empty() || !rec.chance(BREACH_CHANCE) {
        return None;
    }
    let breach = rec.pick(&options)?;
    let (Breach::TouchOwn(sq) | Breach::Corrected(sq) | Breach::IllegalMove(sq)) = breach;
    rec.involve(sq);
    Some(breach)
}

/// Lifts the own piece on `square`, holds it 300–900 ms and puts it back. The ruling expected
/// when `m` is then played: 4.3.3 if `m` captures a piece the touched one could have captured
/// (pieces of both colours were touched, and the capture between them was legal), else 4.3.1.
pub(super) fn touch_put_back(
    rec: &mut Recorder<'_>,
    pos: &Chess,
    m: Move,
    color: Color,
    square: Square,
) {
    let piece = rec.lift(square);
    rec.wait(300, 900);
    rec.place(square, piece);
    let rule = if could_capture_the_same(pos, m, square) {
        Rule::TouchBoth
    } else {
        Rule::TouchOwn
    };
    rec.expect(RulingKind::Rule(rule), color, square);
    rec.wait(300, 1_500);
}

/// Whether the piece on `square` could legally capture the piece `m` captures.
fn could_capture_the_same(pos: &Chess, m: Move, square: Square) -> bool {
    super::footprint::victim(m).is_some_and(|victim| super::footprint::takes(pos, square, victim))
}

/// Puts the piece of `m` on `illegal`, presses the clock (an illegal move is expected), then puts
/// the piece back on its origin.
pub(super) fn illegal_move(rec: &mut Recorder<'_>, color: Color, m: Move, illegal: Square) {
    let Some(from) = m.from() else {
        return;
    };
    let piece = rec.lift(from);
    rec.wait(200, 700);
    rec.place(illegal, piece);
    rec.wait(400, 1_200);
    rec.clock(color);
    rec.expect(RulingKind::Illegal, color, illegal);
    rec.wait(500, 2_000);
    rec.lift(illegal);
    rec.wait(200, 700);
    rec.place(from, piece);
    rec.wait(300, 1_500);
}

/// A normal move without capture or promotion.
fn is_quiet(m: Move) -> bool {
    matches!(
        m,
        Move::Normal {
            capture: None,
            promotion: None,
            ..
        }
    )
}

/// An own piece, other than the mover's, that has a legal move; never the king, and never a rook
/// when the king moves (that would read as a castling intent).
fn touchable(rec: &mut Recorder<'_>, pos: &Chess, m: Move) -> Option<Square> {
    let board = pos.board();
    let mut excluded = board.kings() | rec.involved();
    if m.role() == Role::King {
        excluded |= board.rooks();
    }
    let movable: Bitboard = pos
        .legal_moves()
        .iter()
        .filter_map(|lm| lm.from())
        .collect();
    rec.pick_square(movable & !excluded)
}

/// An empty square, near the origin when possible, that the piece of `m` cannot legally reach;
/// none for king moves, castling and promotions, and never the last ranks for a pawn.
fn illegal_square(rec: &mut Recorder<'_>, pos: &Chess, m: Move) -> Option<Square> {
    let from = match m {
        Move::Normal {
            role,
            from,
            promotion: None,
            ..
        } if role != Role::King => from,
        _ => return None,
    };
    let reachable: Bitboard = pos
        .legal_moves()
        .iter()
        .filter(|lm| lm.from() == Some(from))
        .map(|lm| lm.to())
        .collect();
    let mut candidates = !pos.board().occupied() & !reachable & !rec.involved();
    if m.role() == Role::Pawn {
        candidates &= !(Bitboard::from_rank(shakmaty::Rank::First)
            | Bitboard::from_rank(shakmaty::Rank::Eighth));
    }
    let near: Bitboard = candidates
        .into_iter()
        .filter(|sq| sq.distance(from) <= 2)
        .collect();
    let pool = if near.is_empty() { candidates } else { near };
    rec.pick_square(pool)
}
