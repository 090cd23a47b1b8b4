//! What happens while a piece is in hand on its way: slides across crossed squares and knocks.

use shakmaty::attacks::{between, king_attacks};
use shakmaty::{Bitboard, Piece, Role, Square};

use super::recorder::Recorder;

/// Chance that a move slides when sliding is on.
const SLIDE_CHANCE: f64 = 0.5;
/// Chance that a carried piece knocks a neighbour when knocks are on.
const KNOCK_CHANCE: f64 = 0.3;

/// The squares strictly between `from` and `to` on a line, nearest to `from` first.
pub(super) fn crossed(from: Square, to: Square) -> Vec<Square> {
    let mut squares: Vec<Square> = between(from, to).into_iter().collect();
    squares.sort_by_key(|sq| sq.distance(from));
    squares
}

/// Carries `piece` (already lifted from `from`) towards `to`, without placing it.
///
/// It may slide across the empty crossed squares (dwell 15–120 ms each, always lifted again)
/// and may knock a neighbour of `from` or `to` that is not in `protected` and put it back.
pub(super) fn carry(
    rec: &mut Recorder<'_>,
    piece: Option<Piece>,
    from: Square,
    to: Square,
    protected: Bitboard,
) {
    rec.wait(60, 250);
    if rec.style().sliding && rec.chance(SLIDE_CHANCE) {
        slide(rec, piece, from, to);
    }
    if rec.style().knocks && rec.chance(KNOCK_CHANCE) {
        knock(rec, piece, from, to, protected);
    }
}

/// Brief arrivals and departures on each empty square the piece crosses.
fn slide(rec: &mut Recorder<'_>, piece: Option<Piece>, from: Square, to: Square) {
    for square in crossed(from, to) {
        if rec.board().piece_at(square).is_some() {
            continue;
        }
        rec.involve(square);
        rec.wait(40, 150);
        rec.place(square, piece);
        rec.wait(15, 120);
        rec.lift(square);
    }
}

/// A neighbour is knocked off its square and put back (held at least 60 ms).
fn knock(
    rec: &mut Recorder<'_>,
    piece: Option<Piece>,
    from: Square,
    to: Square,
    protected: Bitboard,
) {
    let near = (king_attacks(from) | king_attacks(to)) & rec.board().occupied();
    let candidates = near & !rec.involved() & !protected & !castling_pieces(rec, piece);
    let Some(square) = rec.pick_square(candidates) else {
        return;
    };
    rec.involve(square);
    rec.wait(40, 200);
    let knocked = rec.lift(square);
    rec.wait(60, 300);
    rec.place(square, knocked);
    rec.wait(40, 200);
}

/// Kings and rooks, when the carried piece is a king or a rook: knocking one would look like
/// the other half of a castling.
fn castling_pieces(rec: &Recorder<'_>, piece: Option<Piece>) -> Bitboard {
    match piece.map(|p| p.role) {
        Some(Role::King | Role::Rook) => rec.board().kings() | rec.board().rooks(),
        _ => Bitboard::EMPTY,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossed_squares_run_from_the_origin() {
        assert_eq!(
            crossed(Square::A1, Square::A4),
            vec![Square::A2, Square::A3]
        );
        assert_eq!(
            crossed(Square::H8, Square::E5),
            vec![Square::G7, Square::F6]
        );
        assert!(crossed(Square::G1, Square::F3).is_empty());
    }
}
