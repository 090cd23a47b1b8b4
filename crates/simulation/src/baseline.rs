//! The baseline the benchmark compares the interpreter with: wait until the board has been
//! quiet for 250 ms, then look for a legal move whose resulting position the board shows. This
//! is how PicoChess and most hosts read a sensor board.
//!
//! [`Baseline`] has the interpreter's sans-IO shape (events in with their time, a timeout to
//! poll, moves out) and none of its knowledge: no Article 4, no illegal moves, no takebacks, no
//! corrections. It keeps the board's occupancy and, once a report names a piece (the board
//! identifies pieces), every piece on it, starting from the known start position; a promotion
//! piece the board cannot identify is the last `promote` entry, else a queen.

use std::collections::VecDeque;

use shakmaty::{Board, Chess, Move, Position, Role};

use touchmove_core::event::{EventKind, GameEvent};
use touchmove_core::rules::Game;
use touchmove_core::sensor::{BoardSnapshot, Millis, SensorEvent, SensorKind};

/// How long the board must be quiet before the baseline looks at it (ms).
pub const QUIET_MS: Millis = 250;

/// The wait-for-quiet-then-match strategy of most hosts, as a sans-IO state machine.
#[derive(Debug, Clone)]
pub struct Baseline {
    game: Game,
    /// The board as the sensors report it.
    seen: BoardSnapshot,
    identifying: bool,
    promotion: Option<Role>,
    changed_at: Option<Millis>,
    quiet_ms: Millis,
    out: VecDeque<GameEvent>,
}

impl Baseline {
    /// A baseline for a board set up in `start`, waiting [`QUIET_MS`] of quiet.
    pub fn new(start: Chess) -> Baseline {
        Baseline {
            seen: BoardSnapshot::identified(start.board()),
            identifying: false,
            game: Game::new(start),
            promotion: None,
            changed_at: None,
            quiet_ms: QUIET_MS,
            out: VecDeque::new(),
        }
    }

    /// The game as recorded so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Takes one sensor event; a quiet period that ended before it is handled first.
    pub fn handle_event(&mut self, event: &SensorEvent) {
        self.handle_timeout(event.t);
        match &event.kind {
            SensorKind::Lift { piece, .. } | SensorKind::Place { piece, .. } => {
                self.identifying |= piece.is_some();
                self.seen.apply(&event.kind);
            }
            SensorKind::Snapshot(snapshot) => {
                self.identifying |= snapshot.pieces.occupied().any();
                self.seen.apply(&event.kind);
            }
            SensorKind::Promote(role) => {
                self.promotion = Some(*role);
                return;
            }
            SensorKind::Clock(_) | SensorKind::Adjust => return,
        }
        self.changed_at = Some(event.t);
    }

    /// When the board will have been quiet long enough to be looked at, if it changed.
    #[must_use]
    pub fn poll_timeout(&self) -> Option<Millis> {
        self.changed_at.map(|t| t + self.quiet_ms)
    }

    /// Looks at the board if it has been quiet long enough by `now`.
    pub fn handle_timeout(&mut self, now: Millis) {
        if let Some(due) = self.poll_timeout().filter(|due| *due <= now) {
            self.changed_at = None;
            self.look(due);
        }
    }

    /// The next decided move, if any.
    #[must_use]
    pub fn poll_event(&mut self) -> Option<GameEvent> {
        self.out.pop_front()
    }

    /// End of input: looks at the board one last time if it changed.
    pub fn finish(&mut self) {
        if let Some(due) = self.poll_timeout() {
            self.handle_timeout(due);
        }
    }

    /// Records the legal move the quiet board shows, if there is one.
    fn look(&mut self, t: Millis) {
        if self.game.ending().is_some() {
            return;
        }
        let Some(m) = self.matching_move() else {
            return;
        };
        let played = self.game.play(m);
        self.promotion = None;
        self.out.push_back(GameEvent {
            t,
            kind: EventKind::Move(played.into_event(false, None)),
        });
    }

    /// The legal move whose resulting position the board shows; among promotions the board
    /// cannot tell apart, the entered choice, else the queen.
    fn matching_move(&self) -> Option<Move> {
        let position = self.game.position();
        let wanted = self.promotion.unwrap_or(Role::Queen);
        let mut matching = position.legal_moves().into_iter().filter(|&m| {
            let mut after = position.clone();
            after.play_unchecked(m);
            self.shows(after.board())
        });
        let first = matching.next()?;
        let chosen = std::iter::once(first)
            .chain(matching)
            .find(|m| m.promotion().is_none_or(|role| role == wanted));
        Some(chosen.unwrap_or(first))
    }

    /// Whether the board shows `board`: the same occupied squares and, on a board that
    /// identifies pieces, the same pieces.
    fn shows(&self, board: &Board) -> bool {
        self.seen.occupied == board.occupied() && (!self.identifying || self.seen.pieces == *board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Color, Piece, Square};

    fn lift(t: Millis, square: Square) -> SensorEvent {
        SensorEvent::new(
            t,
            SensorKind::Lift {
                square,
                piece: None,
            },
        )
    }

    fn place(t: Millis, square: Square, piece: Option<Piece>) -> SensorEvent {
        SensorEvent::new(t, SensorKind::Place { square, piece })
    }

    /// Feeds `events` one by one, then finishes; returns each move's time and SAN.
    fn run(start: Chess, events: &[SensorEvent]) -> Vec<(Millis, String)> {
        let mut baseline = Baseline::new(start);
        let mut moves = Vec::new();
        let mut drain = |baseline: &mut Baseline| {
            while let Some(event) = baseline.poll_event() {
                if let EventKind::Move(m) = event.kind {
                    moves.push((event.t, m.san.to_string()));
                }
            }
        };
        for event in events {
            baseline.handle_event(event);
            drain(&mut baseline);
        }
        baseline.finish();
        drain(&mut baseline);
        moves
    }

    fn position(fen: &str) -> Chess {
        Fen::from_ascii(fen.as_bytes())
            .expect("valid FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal position")
    }

    #[test]
    fn a_move_is_decided_once_the_board_is_quiet() {
        let mut baseline = Baseline::new(Chess::default());
        assert_eq!(baseline.poll_timeout(), None);
        baseline.handle_event(&lift(0, Square::E2));
        baseline.handle_event(&place(400, Square::E4, None));
        assert_eq!(baseline.poll_timeout(), Some(650));
        baseline.handle_timeout(649);
        assert_eq!(baseline.poll_event(), None);
        baseline.handle_timeout(650);
        let decided = baseline.poll_event().expect("a move");
        assert_eq!(decided.t, 650);
        assert!(
            matches!(decided.kind, EventKind::Move(ref m) if m.san.to_string() == "e4" && m.ply == 1)
        );
        assert_eq!(baseline.poll_timeout(), None);
        assert_eq!(baseline.game().plies(), 1);
    }

    #[test]
    fn a_short_rest_is_a_slide_but_a_long_one_is_a_move() {
        let slide = [
            lift(0, Square::E2),
            place(100, Square::E3, None),
            lift(200, Square::E3),
            place(300, Square::E4, None),
        ];
        assert_eq!(run(Chess::default(), &slide), vec![(550, "e4".to_owned())]);
        let rest = [
            lift(0, Square::E2),
            place(100, Square::E3, None),
            lift(400, Square::E3),
            place(500, Square::E4, None),
        ];
        assert_eq!(
            run(Chess::default(), &rest),
            vec![(350, "e3".to_owned())],
            "a rest of 250 ms or more is taken as the move: the baseline cannot correct it"
        );
    }

    #[test]
    fn no_ruling_and_no_move_for_touches_and_illegal_placements() {
        let events = [
            lift(0, Square::D2),
            place(500, Square::D2, None),
            lift(1_000, Square::G1),
            place(1_300, Square::G4, None),
            SensorEvent::new(2_000, SensorKind::Clock(Color::White)),
            lift(2_500, Square::G4),
            place(2_800, Square::F3, None),
        ];
        assert_eq!(
            run(Chess::default(), &events),
            vec![(3_050, "Nf3".to_owned())]
        );
    }

    #[test]
    fn promotions_follow_the_identified_piece_or_the_entered_choice() {
        let start = position("8/P7/8/8/8/8/8/2K2k2 w - - 0 1");
        let knight = Some(Color::White.knight());
        let identified = [lift(0, Square::A7), place(300, Square::A8, knight)];
        assert_eq!(
            run(start.clone(), &identified),
            vec![(550, "a8=N".to_owned())]
        );
        let entered = [
            SensorEvent::new(0, SensorKind::Promote(Role::Rook)),
            lift(10, Square::A7),
            place(300, Square::A8, None),
        ];
        assert_eq!(run(start.clone(), &entered), vec![(550, "a8=R".to_owned())]);
        let default = [lift(0, Square::A7), place(300, Square::A8, None)];
        assert_eq!(run(start, &default), vec![(550, "a8=Q".to_owned())]);
    }

    #[test]
    fn a_piece_in_hand_looks_like_a_capture_only_without_identities() {
        // 1. e4 d5: White's pawn lifted from e4 and held; exd5 leaves the same occupancy.
        let start = position("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        let held = [lift(0, Square::E4), place(900, Square::E4, None)];
        assert_eq!(run(start.clone(), &held), vec![(250, "exd5".to_owned())]);
        let pawn = Some(Color::White.pawn());
        let identified = [
            SensorEvent::new(
                0,
                SensorKind::Lift {
                    square: Square::E4,
                    piece: pawn,
                },
            ),
            place(900, Square::E4, pawn),
        ];
        assert!(run(start, &identified).is_empty());
    }

    #[test]
    fn a_wrongly_identified_piece_matches_nothing() {
        let black_knight = Some(Color::Black.knight());
        let events = [lift(0, Square::G1), place(300, Square::F3, black_knight)];
        assert!(run(Chess::default(), &events).is_empty());
    }
}
