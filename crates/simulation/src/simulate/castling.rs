//! Castling by hand: king first (FIDE 4.4.1 style) or rook first (a FIDE 4.4.2 breach).

use shakmaty::{Bitboard, CastlingSide, Color, Square};

use super::RulingKind;
use super::carry::carry;
use super::recorder::Recorder;
use touchmove_core::event::Rule;

/// Chance of rook-first castling when that option is on.
const ROOK_FIRST_CHANCE: f64 = 0.5;

/// Plays castling of `color` (king on `king`, rook on `rook`).
///
/// The pause between the two pieces is 250–600 ms, so that even a scanning board reports them
/// in separate scans and the order stays visible.
pub(super) fn play(rec: &mut Recorder<'_>, color: Color, king: Square, rook: Square) {
    let side = CastlingSide::from_king_side(king < rook);
    let (king_to, rook_to) = (side.king_to(color), side.rook_to(color));
    if rec.style().rook_first_castling && rec.chance(ROOK_FIRST_CHANCE) {
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
