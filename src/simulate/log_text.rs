//! A small local writer of the sensor log format (`touchmove-log 1`), to be swapped for the
//! official one.

use std::fmt::Write;

use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode, File, Rank, Square};

use crate::event::color_name;
use crate::sensor::{BoardSnapshot, SensorEvent, SensorKind};

/// Writes `events` as a sensor log: the header, `@start` when `start` is given and is not the
/// standard start, `@board` when `board` is not empty, then one event per line.
pub fn to_log_text(events: &[SensorEvent], start: Option<&Chess>, board: &str) -> String {
    let mut text = String::from("touchmove-log 1\n");
    if let Some(pos) = start.filter(|pos| **pos != Chess::default()) {
        let fen = Fen::from_position(pos, EnPassantMode::Legal);
        let _ = writeln!(text, "@start {fen}");
    }
    let board = board.replace(['\n', '\r'], " ");
    if !board.trim().is_empty() {
        let _ = writeln!(text, "@board {}", board.trim());
    }
    for event in events {
        let _ = writeln!(text, "{} {}", event.t, event_text(&event.kind));
    }
    text
}

/// One event's verb and arguments.
fn event_text(kind: &SensorKind) -> String {
    match kind {
        SensorKind::Lift { square, piece } => with_piece("lift", *square, piece.map(|p| p.char())),
        SensorKind::Place { square, piece } => {
            with_piece("place", *square, piece.map(|p| p.char()))
        }
        SensorKind::Adjust => "adjust".to_owned(),
        SensorKind::Clock(color) => format!("clock {}", color_name(*color)),
        SensorKind::Promote(role) => format!("promote {}", role.char()),
        SensorKind::Snapshot(snapshot) => format!("snapshot {}", placement(snapshot)),
    }
}

fn with_piece(verb: &str, square: Square, piece: Option<char>) -> String {
    match piece {
        Some(letter) => format!("{verb} {square} {letter}"),
        None => format!("{verb} {square}"),
    }
}

/// The FEN piece-placement field of a snapshot, `X` for occupied squares not identified.
fn placement(snapshot: &BoardSnapshot) -> String {
    let mut text = String::new();
    for rank in Rank::ALL.into_iter().rev() {
        let mut empty = 0;
        for file in File::ALL {
            let square = Square::from_coords(file, rank);
            let letter = match snapshot.pieces.piece_at(square) {
                Some(piece) => Some(piece.char()),
                None if snapshot.occupied.contains(square) => Some('X'),
                None => None,
            };
            match letter {
                Some(c) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        if rank != Rank::First {
            text.push('/');
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{Bitboard, Board, CastlingMode, Color, Piece, Role};

    #[test]
    fn writes_the_format_exactly() {
        let events = vec![
            SensorEvent::new(
                0,
                SensorKind::Lift {
                    square: Square::E2,
                    piece: None,
                },
            ),
            SensorEvent::new(
                5,
                SensorKind::Lift {
                    square: Square::E2,
                    piece: Some(Piece {
                        color: Color::White,
                        role: Role::Pawn,
                    }),
                },
            ),
            SensorEvent::new(
                410,
                SensorKind::Place {
                    square: Square::E4,
                    piece: None,
                },
            ),
            SensorEvent::new(
                411,
                SensorKind::Place {
                    square: Square::E8,
                    piece: Some(Piece {
                        color: Color::Black,
                        role: Role::Knight,
                    }),
                },
            ),
            SensorEvent::new(600, SensorKind::Clock(Color::White)),
            SensorEvent::new(700, SensorKind::Promote(Role::Knight)),
            SensorEvent::new(800, SensorKind::Adjust),
        ];
        let text = to_log_text(&events, Some(&Chess::default()), "sim hall");
        assert_eq!(
            text,
            "touchmove-log 1\n@board sim hall\n0 lift e2\n5 lift e2 P\n410 place e4\n\
             411 place e8 n\n600 clock white\n700 promote n\n800 adjust\n"
        );
    }

    #[test]
    fn start_is_written_only_when_not_standard() {
        let fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
        let pos: Chess = Fen::from_ascii(fen.as_bytes())
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal");
        let text = to_log_text(&[], Some(&pos), "");
        assert_eq!(text, format!("touchmove-log 1\n@start {fen}\n"));
        assert_eq!(to_log_text(&[], None, ""), "touchmove-log 1\n");
    }

    #[test]
    fn snapshot_marks_unidentified_squares() {
        let mut pieces = Board::empty();
        pieces.set_piece_at(
            Square::E1,
            Piece {
                color: Color::White,
                role: Role::King,
            },
        );
        let occupied = Bitboard::from_square(Square::E1) | Bitboard::from_square(Square::A8);
        let snapshot = BoardSnapshot { occupied, pieces };
        let events = [SensorEvent::new(3, SensorKind::Snapshot(snapshot))];
        let text = to_log_text(&events, None, "");
        assert_eq!(text, "touchmove-log 1\n3 snapshot X7/8/8/8/8/8/8/4K3\n");
    }
}
