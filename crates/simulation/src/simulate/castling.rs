//! Castling by hand: king first (FIDE 4.4.1 style) or rook first (a FIDE 4.4.2 breach).

use shakmaty::{Bitboard, CastlingMode, CastlingSide, Chess, Move, Position, Role, Square};

use super::RulingKind;
use super::carry::carry;
use super::recorder::Recorder;
use touchmove_core::event::Rule;

/// Chance of rook-first castling when that option is on.
const ROOK_FIRST_CHANCE: f64 = 0.5;

/// Plays castling by the side to move in `pos` (king on `king`, rook on `rook`).
///
/// The pause between the two pieces is 250–600 ms, so that even a scanning board reports them
/// in separate scans and the order stays visible.
///
/// Rook first only where the rook's move alone would not end the game: released, it is a move
/// made (FIDE 4.6), and a checkmate or stalemate it gives ends the game there (5.1.1, 5.2.1), so
/// the record would rightly hold the rook's move and not the castling.
pub(super) fn play(rec: &mut Recorder<'_>, pos: &Chess, king: Square, rook: Square) {
    let color = pos.turn();
    let side = CastlingSide::from_king_side(king < rook);
    let (king_to, rook_to) = (side.king_to(color), side.rook_to(color));
    if pos.castles().mode() == CastlingMode::Chess960 {
        recommended(rec, king, king_to, rook, rook_to);
        return;
    }
    if rec.style().rook_first_castling
        && !rook_move_ends_game(pos, rook, rook_to)
        && rec.chance(ROOK_FIRST_CHANCE)
    {
        move_rook(rec, rook, rook_to);
        rec.wait(250, 600);
        move_king(rec, king, king_to);
        rec.expect(RulingKind::Rule(Rule::RookThenKing), color, rook);
    } else {
        move_king(rec, king, king_to);
        rec.wait(250, 600);
        move_rook(rec, rook, rook_to);
    }
}

/// Chess960 castling the way the Guidelines recommend at a board (II.3.2.5.1), whichever of the
/// four ways it is: the king off the board, the rook to its square (if it moves), then the king
/// onto its own (its square again when it does not move).
fn recommended(
    rec: &mut Recorder<'_>,
    king: Square,
    king_to: Square,
    rook: Square,
    rook_to: Square,
) {
    let held = rec.lift(king);
    rec.wait(250, 600);
    if rook != rook_to {
        move_rook(rec, rook, rook_to);
        rec.wait(250, 600);
    }
    rec.place(king_to, held);
}

/// The king's part: it may slide across the square it crosses.
fn move_king(rec: &mut Recorder<'_>, from: Square, to: Square) {
    let king = rec.lift(from);
    carry(rec, king, from, to, Bitboard::EMPTY);
    rec.wait(40, 250);
    rec.place(to, king);
}

/// The rook's part: lifted over the king, no slide.
fn move_rook(rec: &mut Recorder<'_>, from: Square, to: Square) {
    let rook = rec.lift(from);
    rec.wait(150, 500);
    rec.place(to, rook);
}

/// Whether moving the rook alone from `rook` to `rook_to` would be a legal move that ends the
/// game (no legal reply).
fn rook_move_ends_game(pos: &Chess, rook: Square, rook_to: Square) -> bool {
    let m = Move::Normal {
        role: Role::Rook,
        from: rook,
        capture: None,
        to: rook_to,
        promotion: None,
    };
    if !pos.is_legal(m) {
        return false;
    }
    let mut after = pos.clone();
    after.play_unchecked(m);
    after.legal_moves().is_empty()
}
