//! The hand motions of one move: quiet moves, captures and en passant; castling and promotion
//! have their own files.

use shakmaty::{Bitboard, Chess, Move, Position, Square};

use super::carry::carry;
use super::recorder::{ORDER_CHANCE, Recorder};
use super::{castling, promotion};

/// Plays the hand motions of the legal move `m` from `pos`.
///
/// `detour` is an illegal square the piece is first put on (a corrected placement); it is only
/// used for quiet moves.
pub(super) fn play(rec: &mut Recorder<'_>, pos: &Chess, m: Move, detour: Option<Square>) {
    let protected = capturable(pos, m.from());
    match m {
        Move::Normal {
            from,
            to,
            promotion: Some(role),
            capture,
            ..
        } => promotion::play(rec, from, to, role, capture.is_some(), protected),
        Move::Normal {
            from,
            to,
            capture: Some(_),
            ..
        } => capture(rec, from, to, protected),
        Move::Normal { from, to, .. } => quiet(rec, from, to, detour, protected),
        Move::EnPassant { from, to } => en_passant(rec, from, to, protected),
        Move::Castle { king, rook } => castling::play(rec, pos, king, rook),
        Move::Put { .. } => {}
    }
}

/// The opponent pieces the piece on `from` could legally capture (never to be knocked).
pub(super) fn capturable(pos: &Chess, from: Option<Square>) -> Bitboard {
    pos.legal_moves()
        .iter()
        .filter(|m| m.from() == from && m.is_capture())
        .map(|m| m.to())
        .collect()
}

/// Lift, carry, place; with a detour the piece rests on the illegal square first.
fn quiet(
    rec: &mut Recorder<'_>,
    from: Square,
    to: Square,
    detour: Option<Square>,
    protected: Bitboard,
) {
    let piece = rec.lift(from);
    if let Some(illegal) = detour {
        rec.wait(150, 600);
        rec.place(illegal, piece);
        rec.wait(400, 1_200);
        rec.lift(illegal);
        rec.wait(150, 600);
    } else {
        carry(rec, piece, from, to, protected);
    }
    rec.wait(40, 300);
    rec.place(to, piece);
}

/// A capture, own piece first or victim first.
fn capture(rec: &mut Recorder<'_>, from: Square, to: Square, protected: Bitboard) {
    if rec.victim_first() {
        rec.lift_victim(to);
        rec.wait(150, 800);
        let piece = rec.lift(from);
        carry(rec, piece, from, to, protected);
        rec.wait(80, 400);
        rec.place(to, piece);
    } else {
        let piece = rec.lift(from);
        carry(rec, piece, from, to, protected);
        rec.wait(80, 300);
        rec.lift_victim(to);
        rec.wait(80, 400);
        rec.place(to, piece);
    }
}

/// En passant: the victim removed first, while the pawn is in hand, or after it is placed.
fn en_passant(rec: &mut Recorder<'_>, from: Square, to: Square, protected: Bitboard) {
    let victim = Square::from_coords(to.file(), from.rank());
    if rec.style().en_passant_victim_after && rec.chance(ORDER_CHANCE) {
        let pawn = rec.lift(from);
        carry(rec, pawn, from, to, protected);
        rec.place(to, pawn);
        rec.wait(80, 400);
        rec.lift(victim);
    } else if rec.victim_first() {
        rec.lift(victim);
        rec.wait(150, 800);
        let pawn = rec.lift(from);
        carry(rec, pawn, from, to, protected);
        rec.place(to, pawn);
    } else {
        let pawn = rec.lift(from);
        carry(rec, pawn, from, to, protected);
        rec.lift(victim);
        rec.wait(80, 400);
        rec.place(to, pawn);
    }
}
