//! What happens on the emulated board: the start position and timed square changes and clock
//! presses, as a scanning board reports them.
//!
//! A script comes from a PGN game through the hands simulator (identifying board, DGT-style
//! scans), or from a sensor log, to which [`super::scan`] applies the scan model.

use shakmaty::{Board, Chess, Color, Position};

use super::change::{Change, ScriptEvent, set};
use super::scan::scan;
use crate::emulation::{ProtocolScript, ScriptError};
use crate::simulate::{BoardKind, HandStyle, SimulatedSequence};
use touchmove_core::sensor::{BoardSnapshot, Millis, SensorEvent, SensorKind};

/// The board's start and what happens on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Script {
    /// The pieces on the board when the script starts.
    pub start: Board,
    /// Whose time runs first on the clock.
    pub first_to_move: Color,
    /// The changes, in time order.
    pub events: Vec<ScriptEvent>,
    /// A script that goes round (games one after another): the length of a round, after
    /// which it starts again.
    pub lap: Option<Millis>,
}

impl ProtocolScript for Script {
    const BOARD: BoardKind = BoardKind::Identifying;

    /// An identifying board with DGT-style scans, whatever `style` says about the board and
    /// scans.
    fn style(style: &HandStyle) -> HandStyle {
        scanning(style)
    }

    /// Events already as a scanning board reports them, taken as they are. Adjust and promote
    /// events have no DGT equivalent and are left out.
    fn from_events(start: &Chess, events: &[SensorEvent]) -> Result<Script, ScriptError> {
        Script::from_reports(start, events)
    }

    /// The games' events, the clock set again once the board is set up for the next game,
    /// going round.
    fn from_sequence(start: &Chess, sequence: &SimulatedSequence) -> Result<Script, ScriptError> {
        let mut script = Script::from_reports(start, &sequence.events)?;
        for &t in &sequence.set_up {
            // After the set-up's last piece (a stable sort keeps it before the reset).
            script.events.push(ScriptEvent {
                t,
                change: Change::ClockReset,
            });
        }
        script.events.sort_by_key(|event| event.t);
        script.lap = Some(sequence.lap);
        Ok(script)
    }

    /// A sensor log, with the scan model applied (dice from `seed`).
    fn from_recorded(
        start: &Chess,
        events: &[SensorEvent],
        seed: u64,
    ) -> Result<Script, ScriptError> {
        let mut script = Script::from_reports(start, events)?;
        script.events = scan(&script.start, &script.events, seed);
        Ok(script)
    }
}

impl Script {
    /// Events already as a scanning board reports them, taken as they are.
    fn from_reports(start: &Chess, events: &[SensorEvent]) -> Result<Script, ScriptError> {
        let mut board = start.board().clone();
        let mut out = Vec::with_capacity(events.len());
        for event in events {
            for change in changes(&board, event)? {
                if let Change::Square { square, piece } = change {
                    set(&mut board, square, piece);
                }
                out.push(ScriptEvent { t: event.t, change });
            }
        }
        Ok(Script {
            start: start.board().clone(),
            first_to_move: start.turn(),
            events: out,
            lap: None,
        })
    }
}

/// `style` on an identifying board with DGT-style scans.
pub(super) fn scanning(style: &HandStyle) -> HandStyle {
    HandStyle {
        board: BoardKind::Identifying,
        scans: true,
        ..style.clone()
    }
}

/// The changes one sensor event makes to `board`.
fn changes(board: &Board, event: &SensorEvent) -> Result<Vec<Change>, ScriptError> {
    let t = event.t;
    Ok(match &event.kind {
        SensorKind::Lift { square, .. } => vec![Change::Square {
            square: *square,
            piece: None,
        }],
        SensorKind::Place { square, piece } => {
            let piece = piece.ok_or(ScriptError::UnidentifiedPiece { t, square: *square })?;
            vec![Change::Square {
                square: *square,
                piece: Some(piece),
            }]
        }
        SensorKind::Clock(color) => vec![Change::ClockPress(*color)],
        SensorKind::Snapshot(snapshot) => snapshot_changes(board, snapshot, t)?,
        SensorKind::Adjust | SensorKind::Promote(_) => Vec::new(),
    })
}

/// The squares where `snapshot` differs from `board`.
fn snapshot_changes(
    board: &Board,
    snapshot: &BoardSnapshot,
    t: Millis,
) -> Result<Vec<Change>, ScriptError> {
    if let Some(square) = (snapshot.occupied & !snapshot.pieces.occupied()).first() {
        return Err(ScriptError::UnidentifiedPiece { t, square });
    }
    let differing = board.occupied() | snapshot.pieces.occupied();
    Ok(differing
        .into_iter()
        .filter(|&square| board.piece_at(square) != snapshot.pieces.piece_at(square))
        .map(|square| Change::Square {
            square,
            piece: snapshot.pieces.piece_at(square),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;
    use touchmove_core::sensor_log::read_log;

    #[test]
    fn a_log_becomes_square_changes_and_presses() {
        let log = read_log("touchmove-log 1\n0 lift e2 P\n300 place e4 P\n900 clock white\n")
            .expect("a valid log");
        let script = Script::from_log(&log, 7).expect("a script");
        let changes: Vec<Change> = script.events.iter().map(|e| e.change).collect();
        assert_eq!(
            changes,
            [
                Change::Square {
                    square: Square::E2,
                    piece: None
                },
                Change::Square {
                    square: Square::E4,
                    piece: Some(Color::White.pawn())
                },
                Change::ClockPress(Color::White),
            ]
        );
        assert_eq!(script.first_to_move, Color::White);
    }

    #[test]
    fn an_occupancy_log_is_refused() {
        let log = read_log("touchmove-log 1\n0 lift e2\n300 place e4\n").expect("a valid log");
        assert_eq!(
            Script::from_log(&log, 0),
            Err(ScriptError::UnidentifiedPiece {
                t: 300,
                square: Square::E4
            })
        );
    }

    #[test]
    fn a_game_ends_on_its_final_position() {
        let start = Chess::default();
        let moves = touchmove_core::testutil::uci_move(&start, "e2e4");
        let after = start.clone().play(moves).expect("legal");
        let reply = touchmove_core::testutil::uci_move(&after, "d7d5");
        let end = after.clone().play(reply).expect("legal");
        let style = HandStyle::clean(BoardKind::Occupancy);
        let script = Script::from_game(&start, &[moves, reply], &style, 3).expect("a script");
        let mut board = script.start.clone();
        for event in &script.events {
            if let Change::Square { square, piece } = event.change {
                set(&mut board, square, piece);
            }
        }
        assert_eq!(&board, end.board());
        let presses = script
            .events
            .iter()
            .filter(|e| matches!(e.change, Change::ClockPress(_)))
            .count();
        assert_eq!(presses, 2);
    }
}
