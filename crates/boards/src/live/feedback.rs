//! What the game tells a board, whatever its protocol: each session shows what its board can
//! (a DGT clock's display and times, a Hall or ChessLink board's LEDs) and ignores the rest.
//!
//! [`LiveGame`](super::LiveGame) turns its decisions into feedback
//! ([`LiveGame::poll_feedback`](super::LiveGame::poll_feedback)); the runner hands each to
//! [`BoardSession::handle_feedback`](super::BoardSession::handle_feedback). No session reads the
//! game's events themselves.

use shakmaty::uci::UciMove;
use shakmaty::{Color, KnownOutcome, Square};

use touchmove_core::event::{ClockTimes, EventKind, GameEvent};
use touchmove_core::sensor::Millis;

use super::event::LiveEvent;

/// Something the game tells the board.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Feedback {
    /// A game is under way: the board showed its starting position, or a new game began from
    /// the standard one. `to_move` has the move.
    Started {
        /// The side to move first.
        to_move: Color,
    },
    /// A move was decided.
    Moved {
        /// The side that moved.
        by: Color,
        /// The square the piece left (a castling king's).
        from: Square,
        /// The square the piece reached (a castling king's).
        to: Square,
    },
    /// A move was taken back: `to_move` has the move again.
    TakenBack {
        /// The side to move after the takeback.
        to_move: Color,
    },
    /// The board differs from the game on these squares.
    Mismatch {
        /// The squares that differ.
        squares: Vec<Square>,
    },
    /// The board matches the game again after a mismatch.
    Resynced,
    /// The board shows the piece of `from` moved but not where to, one of `to`: a board with
    /// lights lights them all until a move is decided (the piece lifted where it stands and set
    /// back tells). With `to` empty, nothing is asked any more (the piece is back).
    Ambiguous {
        /// The square the piece left.
        from: Square,
        /// The squares it may stand on.
        to: Vec<Square>,
    },
    /// `side` gets `ms` more on its clock (the opponent of a completed illegal move, FIDE
    /// 7.5.5; time the arbiter gave).
    TimeAdded {
        /// The side whose clock gains.
        side: Color,
        /// How much, in ms.
        ms: Millis,
    },
    /// Both players' times are set to `times` (the arbiter corrected the clock, or took time
    /// from a player).
    ClockSet {
        /// The times set.
        times: ClockTimes,
    },
    /// A move to carry out (an engine's, `touchmove play`): a board with a display shows
    /// `text`, one with lights lights `from` and `to`, until the next move.
    Show {
        /// The square the piece leaves.
        from: Square,
        /// The square it goes to.
        to: Square,
        /// The move in SAN.
        text: String,
    },
    /// The position the board is to show once the move to carry out ([`Feedback::Show`]) is
    /// made: a board whose robot moves the pieces (a Chessnut Move) sets them to it; the others
    /// leave it to the hands.
    SetPieces {
        /// The pieces as they are to stand.
        board: shakmaty::Board,
    },
    /// The player's move the board shows while it waits to be decided (a `play` or `online`
    /// game, whose host has the clock's display): a display shows `text` without a beep until
    /// the move is decided; `None`, nothing is pending any more (the display is given back).
    Pending {
        /// The move in SAN, or `None`.
        text: Option<String>,
    },
    /// The game's clock is kept elsewhere (an online game's server) and stands at `times` now,
    /// `running`'s time running (`None`: stopped): a board whose clock the host sets puts them
    /// on it.
    Times {
        /// Each side's time left now, in ms.
        times: ClockTimes,
        /// The side whose time runs.
        running: Option<Color>,
    },
    /// The game ended (a display shows [`KnownOutcome::as_str`]: `1-0`, `0-1`, `1/2-1/2`).
    Ended {
        /// How.
        outcome: KnownOutcome,
    },
}

/// Turns the game's events into feedback, in order: it follows whose move it is at the start of
/// each game, which a takeback's feedback needs.
#[derive(Debug, Clone)]
pub(super) struct FeedbackWriter {
    /// Who moved first in the current game.
    first: Color,
}

impl FeedbackWriter {
    /// A writer for a game whose first move is `first`'s.
    pub(super) fn new(first: Color) -> FeedbackWriter {
        FeedbackWriter { first }
    }

    /// The feedback of `event`, if it has any.
    pub(super) fn write(&mut self, event: &LiveEvent) -> Option<Feedback> {
        match event {
            LiveEvent::Started { .. } => Some(Feedback::Started {
                to_move: self.first,
            }),
            LiveEvent::Waiting { .. }
            | LiveEvent::SetUp { .. }
            | LiveEvent::PromotionAsked { .. } => None,
            LiveEvent::Decision(GameEvent { kind, .. }) => self.decision(kind),
        }
    }

    fn decision(&mut self, kind: &EventKind) -> Option<Feedback> {
        match kind {
            EventKind::Move(played) => {
                let (from, to) = squares(played.chess_move)?;
                Some(Feedback::Moved {
                    by: played.color,
                    from,
                    to,
                })
            }
            EventKind::Takeback { ply } => {
                // Odd plies are the first mover's.
                let to_move = if ply % 2 == 1 {
                    self.first
                } else {
                    !self.first
                };
                Some(Feedback::TakenBack { to_move })
            }
            EventKind::Mismatch { squares } => Some(Feedback::Mismatch {
                squares: squares.clone(),
            }),
            EventKind::Resync => Some(Feedback::Resynced),
            EventKind::Ambiguous { from, to } => Some(Feedback::Ambiguous {
                from: *from,
                to: to.clone(),
            }),
            EventKind::Illegal(illegal) => illegal.penalty_ms.map(|ms| Feedback::TimeAdded {
                side: !illegal.color,
                ms,
            }),
            EventKind::TimeAdded { color, ms, .. } => Some(Feedback::TimeAdded {
                side: *color,
                ms: *ms,
            }),
            EventKind::ClockSet { clock } => Some(Feedback::ClockSet { times: *clock }),
            EventKind::Result(result) => Some(Feedback::Ended {
                outcome: result.outcome,
            }),
            EventKind::Game { .. } => {
                // A new game starts from the standard position.
                self.first = Color::White;
                Some(Feedback::Started {
                    to_move: Color::White,
                })
            }
            // A set-up game is announced when the board shows it (`LiveEvent::Started`).
            EventKind::Violation(_) | EventKind::Claimable { .. } | EventKind::Setup { .. } => None,
            // A kind added later tells the board nothing until it is taught to.
            _ => None,
        }
    }
}

/// The squares a move's piece leaves and reaches (a castling king's two-square move).
/// The squares a move's piece leaves and reaches (a castling king's), to show a move to carry
/// out (an engine's, an online opponent's); a drop shows its square twice.
pub fn move_squares(m: shakmaty::Move) -> (Square, Square) {
    match UciMove::from_standard(m) {
        UciMove::Normal { from, to, .. } => (from, to),
        UciMove::Put { to, .. } => (to, to),
        UciMove::Null => (Square::A1, Square::A1),
    }
}

/// What the board is told of `m`, a move to carry out in `position` (an engine's, an
/// opponent's), shown as `text`: its squares ([`Feedback::Show`]), then the position it leaves
/// ([`Feedback::SetPieces`], for a board whose robot carries it out).
pub fn carry_out(position: &shakmaty::Chess, m: shakmaty::Move, text: String) -> [Feedback; 2] {
    use shakmaty::Position;
    let (from, to) = move_squares(m);
    let mut after = position.clone();
    after.play_unchecked(m);
    [
        Feedback::Show { from, to, text },
        Feedback::SetPieces {
            board: after.board().clone(),
        },
    ]
}

fn squares(chess_move: shakmaty::Move) -> Option<(Square, Square)> {
    match UciMove::from_standard(chess_move) {
        UciMove::Normal { from, to, .. } => Some((from, to)),
        UciMove::Put { .. } | UciMove::Null => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use touchmove_core::event::{GameResult, IllegalMove};

    fn decision(kind: EventKind) -> LiveEvent {
        LiveEvent::Decision(GameEvent { t: 0, kind })
    }

    #[test]
    fn a_takeback_gives_the_move_back_to_the_retracted_plys_side() {
        let mut writer = FeedbackWriter::new(Color::Black);
        let takeback = |ply| decision(EventKind::Takeback { ply });
        assert_eq!(
            writer.write(&takeback(1)),
            Some(Feedback::TakenBack {
                to_move: Color::Black
            })
        );
        assert_eq!(
            writer.write(&takeback(2)),
            Some(Feedback::TakenBack {
                to_move: Color::White
            })
        );
        // A new game on the same board starts from the standard position: White first.
        writer.write(&decision(EventKind::Game { number: 2 }));
        assert_eq!(
            writer.write(&takeback(1)),
            Some(Feedback::TakenBack {
                to_move: Color::White
            })
        );
    }

    #[test]
    fn castling_is_shown_as_the_kings_move() {
        let position: shakmaty::Chess = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .ok()
            .and_then(|fen| fen.into_position(shakmaty::CastlingMode::Standard).ok())
            .unwrap_or_default();
        let castle = "O-O-O"
            .parse::<shakmaty::san::San>()
            .ok()
            .and_then(|san| san.to_move(&position).ok());
        assert_eq!(
            castle.and_then(squares),
            Some((Square::E8, Square::C8)),
            "{castle:?}"
        );
    }

    #[test]
    fn time_the_arbiter_gives_is_put_on_that_side_s_clock() {
        let mut writer = FeedbackWriter::new(Color::White);
        let added = EventKind::TimeAdded {
            color: Color::Black,
            ms: 120_000,
            clock: ClockTimes {
                white: 60_000,
                black: 180_000,
            },
        };
        assert_eq!(
            writer.write(&decision(added)),
            Some(Feedback::TimeAdded {
                side: Color::Black,
                ms: 120_000
            })
        );
    }

    #[test]
    fn a_penalty_goes_to_the_opponent_and_a_result_is_text() {
        let mut writer = FeedbackWriter::new(Color::White);
        let illegal = IllegalMove {
            color: Color::White,
            count: 1,
            message: String::new(),
            uci: None,
            penalty_ms: Some(120_000),
            evidence: Vec::new(),
        };
        assert_eq!(
            writer.write(&decision(EventKind::Illegal(illegal))),
            Some(Feedback::TimeAdded {
                side: Color::Black,
                ms: 120_000
            })
        );
        let result = GameResult {
            result: "0-1".to_owned(),
            reason: "checkmate".to_owned(),
            rule: None,
            termination: None,
            outcome: KnownOutcome::Decisive {
                winner: Color::Black,
            },
        };
        assert_eq!(
            writer.write(&decision(EventKind::Result(result))),
            Some(Feedback::Ended {
                outcome: KnownOutcome::Decisive {
                    winner: Color::Black
                }
            })
        );
    }
}
