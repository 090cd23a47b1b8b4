//! What happens on an emulated ChessLink board: each square's piece changing at a time, from a
//! sensor log of a board that identifies pieces or from a game played by simulated hands.

use shakmaty::{Board, Chess, Piece, Position, Square};

use std::collections::VecDeque;

use crate::emulation::follow::Segment;
use crate::emulation::{Notice, ProtocolScript, Scheduled, ScriptError, ScriptPlayer};
use crate::simulate::{BoardKind, HandStyle};
use touchmove_core::sensor::{Millis, SensorEvent, SensorKind};

/// A square's piece changing: `piece` is what stands there from `t` on (`None`: empty).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    /// When, in ms of script time.
    pub t: Millis,
    /// The square.
    pub square: Square,
    /// What stands on it from then on.
    pub piece: Option<Piece>,
}

impl Scheduled for Change {
    fn t(&self) -> Millis {
        self.t
    }
    fn later(self, by: Millis) -> Change {
        Change {
            t: self.t.saturating_add(by),
            ..self
        }
    }
}

/// `style` on a ChessLink: it identifies pieces, scans for itself and has no clock.
pub(super) fn chesslink(style: &HandStyle) -> HandStyle {
    HandStyle {
        board: BoardKind::Identifying,
        scans: false,
        clock: false,
        blitz_presses: false,
        ..style.clone()
    }
}

/// The board at the start and its changes, in time order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Script {
    /// The pieces on the board when the script starts.
    pub start: Board,
    /// The changes, in time order.
    pub changes: Vec<Change>,
    /// A script that goes round (games one after another): the length of a round, after
    /// which it starts again.
    pub lap: Option<Millis>,
}

impl ProtocolScript for Script {
    const BOARD: BoardKind = BoardKind::Identifying;

    /// A board that identifies pieces and has no clock, whatever `style` says of them.
    fn style(style: &HandStyle) -> HandStyle {
        chesslink(style)
    }

    /// The changes `events` make to `start`'s board (clock presses, adjustments and promotion
    /// choices have no ChessLink equivalent and are left out).
    fn from_events(start: &Chess, events: &[SensorEvent]) -> Result<Script, ScriptError> {
        Script::from_board(start.board(), events)
    }
}

impl Script {
    /// The changes `events` make to `start`.
    fn from_board(start: &Board, events: &[SensorEvent]) -> Result<Script, ScriptError> {
        let mut board = start.clone();
        let mut changes = Vec::with_capacity(events.len());
        for event in events {
            for (square, piece) in event_changes(&board, event)? {
                match piece {
                    Some(piece) => board.set_piece_at(square, piece),
                    None => board.discard_piece_at(square),
                }
                changes.push(Change {
                    t: event.t,
                    square,
                    piece,
                });
            }
        }
        Ok(Script {
            start: start.clone(),
            changes,
            lap: None,
        })
    }
}

/// What one sensor event changes on `board`.
/// The hands' `segment` (from following the host), if any, played from `at` on `player`, the
/// board's script of an identifying board; the hands stop, saying why, when it makes no script.
pub(crate) fn play_segment(
    player: &mut ScriptPlayer<Change>,
    at: Millis,
    segment: Option<Segment>,
    notices: &mut VecDeque<Notice>,
) {
    let Some(segment) = segment.filter(|segment| !segment.events.is_empty()) else {
        return;
    };
    match Script::from_events(&segment.start, &segment.events) {
        Ok(script) => player.append(at, script.changes),
        Err(error) => notices.push_back(Notice::HandsStopped(format!("the hands stop: {error}"))),
    }
}

fn event_changes(
    board: &Board,
    event: &SensorEvent,
) -> Result<Vec<(Square, Option<Piece>)>, ScriptError> {
    let t = event.t;
    Ok(match &event.kind {
        SensorKind::Lift { square, .. } => vec![(*square, None)],
        SensorKind::Place { square, piece } => {
            let piece = piece.ok_or(ScriptError::UnidentifiedPiece { t, square: *square })?;
            vec![(*square, Some(piece))]
        }
        SensorKind::Snapshot(snapshot) => {
            let mut changed = Vec::new();
            for square in Square::ALL {
                let now = if snapshot.occupied.contains(square) {
                    let piece = snapshot
                        .pieces
                        .piece_at(square)
                        .ok_or(ScriptError::UnidentifiedPiece { t, square })?;
                    Some(piece)
                } else {
                    None
                };
                if board.piece_at(square) != now {
                    changed.push((square, now));
                }
            }
            changed
        }
        _ => Vec::new(),
    })
}
