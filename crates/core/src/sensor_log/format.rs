//! Writing one sensor event as a log line, in the exact syntax of the format.

use shakmaty::{Piece, Square};

use super::placement::format_placement;
use crate::event::color_name;
use crate::sensor::{SensorEvent, SensorKind};

/// The log line of `event`, without the line ending: `<t> <verb> [<args>...]`.
///
/// A `promote` to a king or pawn (which a board never reports) is written with that letter and
/// will not read back.
pub fn format_event(event: &SensorEvent) -> String {
    format!("{} {}", event.t, format_kind(&event.kind))
}

/// The verb and arguments of an event.
fn format_kind(kind: &SensorKind) -> String {
    match kind {
        SensorKind::Lift { square, piece } => format_square_event("lift", *square, *piece),
        SensorKind::Place { square, piece } => format_square_event("place", *square, *piece),
        SensorKind::Adjust => "adjust".to_owned(),
        SensorKind::Clock(color) => format!("clock {}", color_name(*color)),
        SensorKind::Promote(role) => format!("promote {}", role.char()),
        SensorKind::Snapshot(snapshot) => format!("snapshot {}", format_placement(snapshot)),
    }
}

/// `lift e2` or `lift e2 P` (and the same for `place`).
fn format_square_event(verb: &str, square: Square, piece: Option<Piece>) -> String {
    match piece {
        Some(piece) => format!("{verb} {square} {}", piece.char()),
        None => format!("{verb} {square}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Bitboard, Color, Role};

    use crate::sensor::BoardSnapshot;

    fn line(t: u64, kind: SensorKind) -> String {
        format_event(&SensorEvent::new(t, kind))
    }

    #[test]
    fn every_kind_is_written_in_the_log_syntax() {
        assert_eq!(
            line(
                0,
                SensorKind::Lift {
                    square: Square::E2,
                    piece: None
                }
            ),
            "0 lift e2"
        );
        assert_eq!(
            line(
                5,
                SensorKind::Lift {
                    square: Square::E2,
                    piece: Some(Color::White.pawn())
                }
            ),
            "5 lift e2 P"
        );
        assert_eq!(
            line(
                620,
                SensorKind::Place {
                    square: Square::E4,
                    piece: None
                }
            ),
            "620 place e4"
        );
        assert_eq!(
            line(
                7,
                SensorKind::Place {
                    square: Square::G8,
                    piece: Some(Color::Black.knight())
                }
            ),
            "7 place g8 n"
        );
        assert_eq!(line(3900, SensorKind::Adjust), "3900 adjust");
        assert_eq!(line(1, SensorKind::Clock(Color::White)), "1 clock white");
        assert_eq!(line(2, SensorKind::Clock(Color::Black)), "2 clock black");
        assert_eq!(line(3, SensorKind::Promote(Role::Knight)), "3 promote n");
        let mut occupied = Bitboard::EMPTY;
        occupied.add(Square::A1);
        assert_eq!(
            line(
                4,
                SensorKind::Snapshot(Box::new(BoardSnapshot::occupancy(occupied)))
            ),
            "4 snapshot 8/8/8/8/8/8/8/X7"
        );
    }
}
