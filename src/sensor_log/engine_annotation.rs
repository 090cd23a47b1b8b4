//! An engine's choices in the sensor log of a game against it (`touchmove play`), written as
//! comment lines.
//!
//! The engine's moves are not sensor reports, and version 1 of the format has no record for
//! them; but a replay needs them to decide what the live session decided (the engine's move
//! stands only as the engine chose it). touchmove writes each as a comment of a fixed form, so
//! the file stays a valid version-1 log that every other reader reads unchanged:
//!
//! ```text
//! #engine-move <t> <uci> [cp <centipawns> | mate <moves>]
//! #engine-gone <t>
//! ```
//!
//! `<uci>` is the move the engine chose (castling as the king's move, `e1g1`), at `<t>` (ms of
//! the log); the score is the engine's last before it moved, from its own side.
//! `#engine-gone` says the engine could no longer play: the game went on between two players.
//! The side the engine plays is the header's `@engine white|black`. A comment that starts
//! with one of these words but does not have this form stays an ordinary comment.

use shakmaty::uci::UciMove;

use crate::sensor::Millis;

/// The word that starts an engine's move.
const MOVE: &str = "#engine-move";

/// The word that starts the engine's end.
const GONE: &str = "#engine-gone";

/// What an engine did, as its sensor log keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineNote {
    /// It chose a move.
    Move {
        /// The move, in UCI (read in the game as it stood).
        uci: UciMove,
        /// Its last score in centipawns, from its own side, if it gave one.
        score_cp: Option<i32>,
        /// Or mate in this many moves (negative: it is mated), if it gave one.
        mate: Option<i32>,
    },
    /// It could no longer play.
    Gone,
}

/// The comment line (without its line ending) for `note`, made at `t`.
pub fn format_engine_note(t: Millis, note: &EngineNote) -> String {
    match note {
        EngineNote::Move {
            uci,
            score_cp,
            mate,
        } => {
            let score = match (mate, score_cp) {
                (Some(mate), _) => format!(" mate {mate}"),
                (None, Some(cp)) => format!(" cp {cp}"),
                (None, None) => String::new(),
            };
            format!("{MOVE} {t} {uci}{score}")
        }
        EngineNote::Gone => format!("{GONE} {t}"),
    }
}

/// The time and the note of an engine annotation; `None` for any other line.
pub fn parse_engine_note(line: &str) -> Option<(Millis, EngineNote)> {
    let mut fields = line.split(' ').filter(|field| !field.is_empty());
    let keyword = fields.next()?;
    let t: Millis = fields
        .next()?
        .parse()
        .ok()
        .filter(|t| *t <= super::MAX_TIME_MS)?;
    let note = match keyword {
        GONE => EngineNote::Gone,
        MOVE => {
            let uci = fields.next()?.parse::<UciMove>().ok()?;
            let (score_cp, mate) = match (fields.next(), fields.next()) {
                (None, _) => (None, None),
                (Some("cp"), Some(cp)) => (Some(cp.parse().ok()?), None),
                (Some("mate"), Some(mate)) => (None, Some(mate.parse().ok()?)),
                _ => return None,
            };
            EngineNote::Move {
                uci,
                score_cp,
                mate,
            }
        }
        _ => return None,
    };
    fields.next().is_none().then_some((t, note))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chose(uci: &str, score_cp: Option<i32>, mate: Option<i32>) -> EngineNote {
        EngineNote::Move {
            uci: uci.parse().expect("a UCI move"),
            score_cp,
            mate,
        }
    }

    #[test]
    fn notes_are_written_in_their_fixed_form_and_read_back() {
        let cases = [
            (
                chose("e7e5", Some(-31), None),
                "#engine-move 4200 e7e5 cp -31",
            ),
            (
                chose("e1g1", None, Some(3)),
                "#engine-move 4200 e1g1 mate 3",
            ),
            (chose("a7a8n", None, None), "#engine-move 4200 a7a8n"),
            (EngineNote::Gone, "#engine-gone 4200"),
        ];
        for (note, line) in cases {
            assert_eq!(format_engine_note(4200, &note), line);
            assert_eq!(parse_engine_note(line), Some((4200, note)));
        }
    }

    #[test]
    fn other_comments_are_no_notes() {
        for line in [
            "# engine-move 1 e2e4",
            "#engine-move",
            "#engine-move x e2e4",
            "#engine-move 1 e9e4",
            "#engine-move 1 e2e4 cp",
            "#engine-move 1 e2e4 cp 1 2",
            "#engine-move 1 e2e4 depth 3",
            "#engine-gone 1 now",
            "#engine-moved 1 e2e4",
        ] {
            assert_eq!(parse_engine_note(line), None, "{line}");
        }
    }
}
