//! The physical board as the sensors report it: which squares are occupied, and which pieces
//! the board identified.

use shakmaty::{Bitboard, Board, Chess, Color, Move, Piece, Role, Square};

use super::frames::Frames;
use super::motions::Motions;
use crate::sensor::Millis;

/// What the sensors say is on the board. On an occupancy-only board no piece is identified;
/// on a piece-identifying board every placed piece is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhysicalBoard {
    occupied: Bitboard,
    identified: Board,
}

impl PhysicalBoard {
    /// A board whose occupied squares are those of `board`, no piece identified yet.
    pub fn unidentified(board: &Board) -> PhysicalBoard {
        PhysicalBoard {
            occupied: board.occupied(),
            identified: Board::empty(),
        }
    }

    /// A board that identified every piece of `board`.
    #[cfg(test)]
    pub fn identified(board: &Board) -> PhysicalBoard {
        PhysicalBoard {
            occupied: board.occupied(),
            identified: board.clone(),
        }
    }

    /// Every occupied square.
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// The piece the board identified on `square`, if it did.
    pub fn identified_at(&self, square: Square) -> Option<Piece> {
        self.identified.piece_at(square)
    }

    /// The squares where the board identified `piece`.
    pub fn identified_squares(&self, piece: Piece) -> Bitboard {
        self.identified.by_piece(piece)
    }

    /// Whether the board has identified any piece (a piece-identifying board).
    pub fn identified_any(&self) -> bool {
        self.identified.occupied().any()
    }

    /// A piece left `square`.
    pub fn lift(&mut self, square: Square) {
        self.occupied.discard(square);
        self.identified.discard_piece_at(square);
    }

    /// The piece on the occupied `square` is now known to be `piece`.
    pub fn identify(&mut self, square: Square, piece: Piece) {
        if self.occupied.contains(square) {
            self.identified.set_piece_at(square, piece);
        }
    }

    /// A piece arrived on `square`, identified or not.
    pub fn place(&mut self, square: Square, piece: Option<Piece>) {
        self.occupied.add(square);
        match piece {
            Some(piece) => self.identified.set_piece_at(square, piece),
            None => self.identified.discard_piece_at(square),
        }
    }

    /// Whether the board shows `expected`: the same occupied squares, and every identified
    /// piece the one `expected` has there.
    pub fn shows(&self, expected: &Board) -> bool {
        self.occupied == expected.occupied() && self.misidentified(expected).is_empty()
    }

    /// The squares where the board differs from `expected`.
    pub fn differences(&self, expected: &Board) -> Bitboard {
        (self.occupied ^ expected.occupied()) | self.misidentified(expected)
    }

    /// Identified squares whose piece is not the one `expected` has there.
    fn misidentified(&self, expected: &Board) -> Bitboard {
        let mut wrong = Bitboard::EMPTY;
        for color in Color::ALL {
            wrong |= self.identified.by_color(color) & !expected.by_color(color);
        }
        for role in Role::ALL {
            wrong |= self.identified.by_role(role) & !expected.by_role(role);
        }
        wrong
    }
}

/// The board as the sensors reported it, and how and when they last did.
#[derive(Debug, Clone)]
pub(super) struct Sensed {
    /// What stands where.
    pub(super) board: PhysicalBoard,
    /// When each square was last emptied and filled, and in which report.
    pub(super) motions: Motions,
    /// The last change, when it was seen as it happened (not read from a full report).
    last_seen: Option<SeenChange>,
    /// How the changes being taken in were reported.
    reading: Reading,
    /// When the last lift or placement taken in was made (a held lift keeps its own time).
    changed_at: Millis,
    /// What the board showed, report after report, since the record last changed.
    frames: Frames,
}

impl Sensed {
    /// `board`, before any report; a report the board showed for less than `transient_ms`
    /// may be a piece passing by ([`Frames::new`]).
    pub(super) fn new(board: PhysicalBoard, transient_ms: Millis) -> Sensed {
        Sensed {
            board,
            motions: Motions::default(),
            last_seen: None,
            reading: Reading::Changes,
            changed_at: 0,
            frames: Frames::new(transient_ms),
        }
    }

    /// A lift or a placement made at `t` is being taken in.
    pub(super) fn changing(&mut self, t: Millis) {
        self.changed_at = t;
    }

    /// When the last lift or placement taken in was made.
    pub(super) fn changed_at(&self) -> Millis {
        self.changed_at
    }

    /// A piece (`piece`, where the board named it) left `square`: a change seen as it
    /// happened, unless it was read from a full report (`in_report`).
    pub(super) fn saw_lift(&mut self, square: Square, piece: Option<Piece>, in_report: bool) {
        self.last_seen = (!in_report).then_some(SeenChange::Lift(square, piece));
    }

    /// A piece was set down on `square`: a change seen as it happened, unless a full report
    /// is being taken in.
    pub(super) fn saw_place(&mut self, square: Square) {
        self.last_seen = (self.reading == Reading::Changes).then_some(SeenChange::Place(square));
    }

    /// The last change, when it was seen as it happened.
    pub(super) fn last_seen(&self) -> Option<SeenChange> {
        self.last_seen
    }

    /// A full report is being taken in: its changes come all at once, in no order.
    pub(super) fn begin_report(&mut self) {
        self.last_seen = None;
        self.reading = Reading::Snapshot;
    }

    /// The full report is taken in: changes come one at a time again.
    pub(super) fn end_report(&mut self) {
        self.reading = Reading::Changes;
    }

    /// Whether the changes being taken in come from a full report.
    pub(super) fn in_report(&self) -> bool {
        self.reading == Reading::Snapshot
    }

    /// What the board showed, report after report, since the record last changed.
    pub(super) fn frames(&self) -> &Frames {
        &self.frames
    }

    /// The board, as it stands after a change at `t`, is shown while the record stands at
    /// `record`.
    pub(super) fn observe(&mut self, t: Millis, record: &Chess) {
        self.frames.observe(t, self.board.occupied(), record);
    }

    /// The record, having caught up on `made`, moves made unseen from `root`, stands at `record`
    /// at `t`: the reports since the board showed them made, at rest, and the board as it
    /// stands, are the first evidence for the moves after them ([`Frames::caught_up`]).
    pub(super) fn caught_up(&mut self, t: Millis, root: &Chess, made: &[Move], record: &Chess) {
        self.frames
            .caught_up(t, self.board.occupied(), root, made, record);
    }
}

/// A change seen as it happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SeenChange {
    /// A piece left this square (the piece, where the board named it).
    Lift(Square, Option<Piece>),
    /// A piece was set down on this square.
    Place(Square),
}

/// How the changes being taken in were reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Reading {
    /// One at a time, as they happened, in their order.
    #[default]
    Changes,
    /// All at once, from a full report (a dump after a reconnect): their order is not known.
    Snapshot,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unidentified_piece_matches_any_piece() {
        let start = Board::new();
        let mut board = PhysicalBoard::unidentified(&start);
        board.lift(Square::E2);
        board.place(Square::E2, None);
        assert!(board.shows(&start));
    }

    #[test]
    fn a_wrong_identified_piece_is_a_difference() {
        let start = Board::new();
        let mut board = PhysicalBoard::unidentified(&start);
        board.lift(Square::D1);
        board.place(Square::D1, Some(Color::White.king()));
        assert!(!board.shows(&start));
        assert_eq!(board.differences(&start), Bitboard::from(Square::D1));
    }
}
