//! What happens on the emulated Hall board: its start occupancy and timed square changes and
//! button presses, from a sensor log or a PGN game played by simulated hands.

use shakmaty::{Bitboard, Chess, Color, Position, Role};
use touchmove_firmware_protocol::{Action, Button, Square};

use crate::emulation::{ProtocolScript, ScriptError};
use crate::simulate::{BoardKind, HandStyle, SimulatedSequence};
use touchmove_core::sensor::{Millis, SensorEvent, SensorKind};

/// One thing that happens on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// A square was lifted from or placed on.
    Square {
        /// The square.
        square: Square,
        /// Lifted or placed.
        action: Action,
    },
    /// A button was pressed.
    Button(Button),
}

/// A change at a time, in ms of script time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScriptEvent {
    /// When it happens, in ms since the script started (never decreasing along a script).
    pub t: Millis,
    /// What happens.
    pub change: Change,
}

/// `style` on an occupancy board.
pub(super) fn occupancy(style: &HandStyle) -> HandStyle {
    HandStyle {
        board: BoardKind::Occupancy,
        ..style.clone()
    }
}

/// The board's start occupancy and what happens on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Script {
    /// The occupied squares when the script starts (bit `n` is square `n`, a1 = 0).
    pub start: u64,
    /// The changes, in time order; each square change changes the occupancy.
    pub events: Vec<ScriptEvent>,
    /// A script that goes round (games one after another): the length of a round, after
    /// which it starts again.
    pub lap: Option<Millis>,
}

impl ProtocolScript for Script {
    const BOARD: BoardKind = BoardKind::Occupancy;

    /// An occupancy board, whatever `style` says of the board.
    fn style(style: &HandStyle) -> HandStyle {
        occupancy(style)
    }

    fn from_events(start: &Chess, events: &[SensorEvent]) -> Result<Script, ScriptError> {
        Ok(Script::from_occupancy(start.board().occupied(), events))
    }

    /// The games' events, going round.
    fn from_sequence(start: &Chess, sequence: &SimulatedSequence) -> Result<Script, ScriptError> {
        let mut script = Script::from_occupancy(start.board().occupied(), &sequence.events);
        script.lap = Some(sequence.lap);
        Ok(script)
    }
}

impl Script {
    /// Sensor events from the occupancy `start`, as an occupancy board reports them: pieces are
    /// forgotten, a lift or place that changes nothing is left out, and a snapshot becomes the
    /// lifts and then the places that make the occupancy its own.
    pub fn from_occupancy(start: Bitboard, events: &[SensorEvent]) -> Script {
        let mut occupancy = u64::from(start);
        let mut out = Vec::with_capacity(events.len());
        for event in events {
            for change in changes(occupancy, &event.kind) {
                if let Change::Square { square, action } = change {
                    occupancy = apply(occupancy, square, action);
                }
                out.push(ScriptEvent { t: event.t, change });
            }
        }
        Script {
            start: u64::from(start),
            events: out,
            lap: None,
        }
    }

    /// The occupancy once every event has happened.
    pub fn end(&self) -> u64 {
        self.events
            .iter()
            .fold(self.start, |occupancy, event| match event.change {
                Change::Square { square, action } => apply(occupancy, square, action),
                Change::Button(_) => occupancy,
            })
    }
}

/// `occupancy` after `action` on `square`.
pub fn apply(occupancy: u64, square: Square, action: Action) -> u64 {
    match action {
        Action::Lifted => occupancy & !square.bit(),
        Action::Placed => occupancy | square.bit(),
    }
}

/// The changes one sensor event makes to `occupancy`.
fn changes(occupancy: u64, kind: &SensorKind) -> Vec<Change> {
    let button = |button| vec![Change::Button(button)];
    match kind {
        SensorKind::Lift { square, .. } => square_change(occupancy, *square, Action::Lifted),
        SensorKind::Place { square, .. } => square_change(occupancy, *square, Action::Placed),
        SensorKind::Clock(Color::White) => button(Button::ClockWhite),
        SensorKind::Clock(Color::Black) => button(Button::ClockBlack),
        SensorKind::Adjust => button(Button::Adjust),
        SensorKind::Promote(role) => promote_button(*role).map_or_else(Vec::new, button),
        SensorKind::Snapshot(snapshot) => snapshot_changes(occupancy, u64::from(snapshot.occupied)),
    }
}

/// A lift or place, unless the square already is that way.
fn square_change(occupancy: u64, square: shakmaty::Square, action: Action) -> Vec<Change> {
    let Some(square) = Square::new(u8::from(square)) else {
        return Vec::new();
    };
    if apply(occupancy, square, action) == occupancy {
        return Vec::new();
    }
    vec![Change::Square { square, action }]
}

/// The promotion button of a role (none for a king or pawn).
fn promote_button(role: Role) -> Option<Button> {
    match role {
        Role::Queen => Some(Button::PromoteQueen),
        Role::Rook => Some(Button::PromoteRook),
        Role::Bishop => Some(Button::PromoteBishop),
        Role::Knight => Some(Button::PromoteKnight),
        Role::Pawn | Role::King => None,
    }
}

/// The lifts, then the places, that turn `occupancy` into `target`.
fn snapshot_changes(occupancy: u64, target: u64) -> Vec<Change> {
    let lifts = occupancy & !target;
    let places = target & !occupancy;
    let of = |mask: u64, action| {
        Square::all()
            .filter(move |square| mask & square.bit() != 0)
            .map(move |square| Change::Square { square, action })
    };
    of(lifts, Action::Lifted)
        .chain(of(places, Action::Placed))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use touchmove_core::sensor_log::read_log;

    fn square(index: u8) -> Square {
        Square::new(index).unwrap_or_else(|| unreachable!("{index} is a square"))
    }

    #[test]
    fn a_log_becomes_changes_and_buttons() {
        let log = read_log(
            "touchmove-log 1\n0 lift e2 P\n300 place e4\n350 place e4\n900 clock white\n\
             950 adjust\n1000 promote n\n1100 snapshot 8/8/8/8/4X3/8/8/8\n",
        )
        .expect("a valid log");
        let script = Script::from_log(&log, 0).expect("a script");
        let changes: Vec<(Millis, Change)> =
            script.events.iter().map(|e| (e.t, e.change)).collect();
        let lift = |index| Change::Square {
            square: square(index),
            action: Action::Lifted,
        };
        let mut expected = vec![
            (0, lift(0x0c)),
            (
                300,
                Change::Square {
                    square: square(0x1c),
                    action: Action::Placed,
                },
            ),
            (900, Change::Button(Button::ClockWhite)),
            (950, Change::Button(Button::Adjust)),
            (1000, Change::Button(Button::PromoteKnight)),
        ];
        let others = (0..64).filter(|&i| i < 16 && i != 0x0c || i >= 48);
        expected.extend(others.map(|i| (1100, lift(i))));
        assert_eq!(changes, expected);
        assert_eq!(script.start, 0xffff_0000_0000_ffff);
        assert_eq!(script.end(), 1 << 0x1c);
    }
}
