//! The check behind the live rows' `waiting` column: a game left waiting is honest only if no
//! position the board later rested on was within reach of exactly one shortest legal sequence
//! of at most 4 plies from the game's record (the rule that resolves a wait). Worked out here
//! from the source game, apart from the interpreter: the search below is the rule as written,
//! not the interpreter's code.

use crate::simulate::{BoardKind, MoveEnd};
use shakmaty::{Bitboard, Board, Chess, Move, Position};
use touchmove_core::sensor::{Millis, SensorEvent, SensorKind};

/// The longest sequence the rule catches up.
const MAX_PLIES: usize = 4;

/// The most squares one ply changes (a castling: king and rook, from and to).
const SQUARES_A_PLY: usize = 4;

/// How many squares `a` and `b` differ on, as `board` senses them.
fn differences(board: BoardKind, a: &Board, b: &Board) -> usize {
    let squares: Bitboard = match board {
        BoardKind::Occupancy => a.occupied() ^ b.occupied(),
        BoardKind::Identifying => (a.occupied() | b.occupied())
            .into_iter()
            .filter(|&square| a.piece_at(square) != b.piece_at(square))
            .collect(),
    };
    squares.count()
}

/// One game's facts for the check.
pub struct Waiting<'a> {
    /// The game's start.
    pub start: &'a Chess,
    /// The moves, as the hands played them.
    pub moves: &'a [Move],
    /// Where each ply ended.
    pub move_ends: &'a [MoveEnd],
    /// The board's events as the hands made them (to find when the next ply began).
    pub events: &'a [SensorEvent],
    /// How many plies the record holds (a prefix of `moves`).
    pub recorded: usize,
    /// From when the board could show a resolving position: the record's last step, or when
    /// the board was heard again after an outage if later.
    pub since: Millis,
    /// How long the board must rest to be quiet.
    pub quiet_ms: Millis,
    /// What the board senses.
    pub board: BoardKind,
}

/// The first ply (from 1) after which the board rested, quiet, after `since`,
/// on a position within reach of exactly one shortest sequence of at most 4 plies
/// from the record's position: the game should not have been left waiting.
pub fn resolvable(game: &Waiting) -> Option<usize> {
    let record = position_after(game.start, game.moves, game.recorded)?;
    let mut position = game.start.clone();
    // A board that also shows a position the record went through may be a takeback: the rule
    // waits for another (forward play before takeback).
    let mut earlier = vec![position.board().clone()];
    for (ply, m) in game.moves.iter().enumerate() {
        position.play_unchecked(*m);
        if ply < game.recorded {
            earlier.push(position.board().clone());
            continue;
        }
        let taken_back = earlier
            .iter()
            .rev()
            .skip(1)
            .any(|board| differences(game.board, board, position.board()) == 0);
        if taken_back || !rested_quiet(game, ply) {
            continue;
        }
        // The rule catches up the moves actually played only when they are the one shortest
        // sequence; a shorter one that leaves the same board would be a false record, which the
        // board's own evidence (a change seen on the way) may rightly refuse.
        let played = ply.saturating_add(1).saturating_sub(game.recorded);
        if one_shortest_sequence(&record, position.board(), game.board) == Some(played) {
            return Some(ply.saturating_add(1));
        }
    }
    None
}

/// The position after the first `plies` moves.
fn position_after(start: &Chess, moves: &[Move], plies: usize) -> Option<Chess> {
    let mut position = start.clone();
    for m in moves.get(..plies)? {
        position.play_unchecked(*m);
    }
    Some(position)
}

/// Whether the board, after ply `ply` (from 0) ended, rested for the quiet time after the game
/// began waiting, before the next ply's first change (the last ply rests to the end).
fn rested_quiet(game: &Waiting, ply: usize) -> bool {
    let Some(end) = game.move_ends.get(ply) else {
        return false;
    };
    let from = end.t.max(game.since);
    let next_change = game.events.iter().find(|event| {
        event.t > end.t && !matches!(event.kind, SensorKind::Clock(_) | SensorKind::Snapshot(_))
    });
    let last = ply.saturating_add(1) == game.moves.len();
    last || next_change.is_none_or(|next| next.t.saturating_sub(from) >= game.quiet_ms)
}

/// The length of the one legal sequence that is the shortest of at most [`MAX_PLIES`] plies
/// from `record` to a position the board senses as `target`, if exactly one is and no shorter
/// one leaves the board showing a move under way (the side to move's pieces in hand, and after
/// at most one ply the one piece they can capture taken off first).
fn one_shortest_sequence(record: &Chess, target: &Board, board: BoardKind) -> Option<usize> {
    let mut under_way = false;
    for plies in 0..=MAX_PLIES {
        let mut found = Found::default();
        let victim_off = plies <= 1;
        search(record, target, board, plies, victim_off, &mut found);
        match found.exact {
            0 => {}
            1 if !under_way => return Some(plies),
            _ => return None,
        }
        under_way |= found.under_way;
    }
    None
}

/// What the sequences of one length lead to.
#[derive(Default)]
struct Found {
    /// How many end on the target (counted up to two).
    exact: usize,
    /// Whether one ends on a position the target shows with a move under way.
    under_way: bool,
}

/// Looks at every legal sequence of exactly `plies` plies from `position`; `victim_off`: a
/// move under way at their end may have its victim off the board.
fn search(
    position: &Chess,
    target: &Board,
    board: BoardKind,
    plies: usize,
    victim_off: bool,
    found: &mut Found,
) {
    let differences = differences(board, position.board(), target);
    let Some(left) = plies.checked_sub(1) else {
        if differences == 0 {
            found.exact = found.exact.saturating_add(1);
        } else {
            found.under_way |= in_hand(position, target, board, victim_off);
        }
        return;
    };
    if differences > plies.saturating_mul(SQUARES_A_PLY) {
        return;
    }
    for m in position.legal_moves() {
        let mut next = position.clone();
        next.play_unchecked(m);
        search(&next, target, board, left, victim_off, found);
        if found.exact > 1 {
            return;
        }
    }
}

/// Whether `target` is `position` with some of the side to move's pieces off the board, and
/// with `victim_off` perhaps one piece that one of them can capture.
fn in_hand(position: &Chess, target: &Board, board: BoardKind, victim_off: bool) -> bool {
    let pieces = position.board();
    let missing = pieces.occupied() & !target.occupied();
    let mut rest = pieces.clone();
    for square in missing {
        rest.discard_piece_at(square);
    }
    let lifted = missing & pieces.by_color(position.turn());
    let victims = missing & !lifted;
    let victims_allowed = victims.is_empty()
        || victim_off
            && !lifted.is_empty()
            && !victims.more_than_one()
            && position.legal_moves().iter().any(|m| {
                m.from().is_some_and(|from| lifted.contains(from))
                    && capture_square(m).is_some_and(|square| victims.contains(square))
            });
    victims_allowed && differences(board, &rest, target) == 0
}

/// The square of the piece `m` captures, if it captures.
fn capture_square(m: &Move) -> Option<shakmaty::Square> {
    match *m {
        Move::EnPassant { from, to } => Some(shakmaty::Square::from_coords(to.file(), from.rank())),
        Move::Normal {
            capture: Some(_),
            to,
            ..
        } => Some(to),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::uci::UciMove;

    fn after(ucis: &[&str]) -> Chess {
        ucis.iter().fold(Chess::default(), |position, uci| {
            let m = uci
                .parse::<UciMove>()
                .expect("uci")
                .to_move(&position)
                .expect("legal");
            position.play(m).expect("legal")
        })
    }

    #[test]
    fn one_order_only_is_one_sequence() {
        // 1. e4 e5 2. Bc4: the bishop needs e4 played first, and Black's one move comes between.
        let target = after(&["e2e4", "e7e5", "f1c4"]);
        assert_eq!(
            one_shortest_sequence(&Chess::default(), target.board(), BoardKind::Identifying),
            Some(3)
        );
    }

    #[test]
    fn moves_in_either_order_are_not_one() {
        let target = after(&["g1f3", "g8f6", "b1c3"]);
        assert_eq!(
            one_shortest_sequence(&Chess::default(), target.board(), BoardKind::Identifying),
            None
        );
    }

    #[test]
    fn five_plies_are_out_of_reach() {
        let target = after(&["e2e4", "g8f6", "e4e5", "f6g8", "e5e6"]);
        assert_eq!(
            one_shortest_sequence(&Chess::default(), target.board(), BoardKind::Identifying),
            None
        );
    }

    #[test]
    fn occupancy_cannot_tell_the_promotion_piece() {
        let start: Chess = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .expect("fen")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("legal");
        let m = "e7e8n"
            .parse::<UciMove>()
            .expect("uci")
            .to_move(&start)
            .expect("legal");
        let promoted = start.clone().play(m).expect("legal");
        assert_eq!(
            one_shortest_sequence(&start, promoted.board(), BoardKind::Identifying),
            Some(1)
        );
        assert_eq!(
            one_shortest_sequence(&start, promoted.board(), BoardKind::Occupancy),
            None
        );
    }
}
