//! Promotion by hand, in each order FIDE 4.6 allows, with or without capture.

use shakmaty::{Bitboard, Piece, Role, Square};

use super::carry::carry;
use super::recorder::Recorder;

/// Chance that a queen promotion omits its `promote` event, when that option is on.
const OMIT_QUEEN_CHANCE: f64 = 0.5;

/// The orders of FIDE 4.6.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    /// (a) The pawn is placed on the last rank, then lifted off and the new piece placed.
    PawnPlacedThenReplaced,
    /// (b) The pawn is lifted off the board and the new piece placed on the promotion square.
    PawnOffThenNewPiece,
    /// (c) The new piece is placed first, then the pawn lifted from the 7th rank.
    NewPieceThenPawnOff,
}

const ORDERS: [Order; 3] = [
    Order::PawnPlacedThenReplaced,
    Order::PawnOffThenNewPiece,
    Order::NewPieceThenPawnOff,
];

/// Plays the promotion of the pawn on `from` to `role` on `to` (a capture when `capture`).
pub(super) fn play(
    rec: &mut Recorder<'_>,
    from: Square,
    to: Square,
    role: Role,
    capture: bool,
    protected: Bitboard,
) {
    let order = if rec.style().promotion_orders {
        rec.pick(&ORDERS).unwrap_or(Order::PawnPlacedThenReplaced)
    } else {
        Order::PawnPlacedThenReplaced
    };
    let pawn = rec.board().piece_at(from);
    let new_piece = pawn.map(|p| Piece { role, ..p });
    match order {
        Order::PawnPlacedThenReplaced => {
            // The pawn on the last rank already shows the promotion to an occupancy board,
            // which may decide it before the swap: the choice is entered first.
            enter_choice(rec, role);
            pawn_to_square(rec, from, to, capture, protected);
            rec.place(to, pawn);
            rec.wait(150, 800);
            rec.lift(to);
            rec.wait(100, 500);
            rec.place(to, new_piece);
        }
        Order::PawnOffThenNewPiece => {
            pawn_to_square(rec, from, to, capture, protected);
            rec.wait(100, 500);
            set_down(rec, to, role, new_piece);
        }
        Order::NewPieceThenPawnOff => {
            if capture {
                rec.lift_victim(to);
                rec.wait(150, 600);
            }
            set_down(rec, to, role, new_piece);
            rec.wait(150, 800);
            rec.lift(from);
        }
    }
}

/// The pawn lifted and carried to the promotion square, the victim removed on the way; the pawn
/// is still in hand at the end.
fn pawn_to_square(
    rec: &mut Recorder<'_>,
    from: Square,
    to: Square,
    capture: bool,
    protected: Bitboard,
) {
    if capture && rec.victim_first() {
        rec.lift_victim(to);
        rec.wait(150, 800);
        let pawn = rec.lift(from);
        carry(rec, pawn, from, to, protected);
    } else {
        let pawn = rec.lift(from);
        carry(rec, pawn, from, to, protected);
        if capture {
            rec.wait(80, 300);
            rec.lift_victim(to);
        }
        rec.wait(80, 300);
    }
}

/// The choice is entered (occupancy boards; a queen may rely on the default), then the new
/// piece is released on `to`.
fn set_down(rec: &mut Recorder<'_>, to: Square, role: Role, new_piece: Option<Piece>) {
    enter_choice(rec, role);
    rec.wait(50, 300);
    rec.place(to, new_piece);
}

/// Enters the promotion choice (a queen may rely on the default, when that option is on).
fn enter_choice(rec: &mut Recorder<'_>, role: Role) {
    let omit =
        role == Role::Queen && rec.style().omit_queen_choice && rec.chance(OMIT_QUEEN_CHANCE);
    if !omit {
        rec.promote(role);
    }
}
