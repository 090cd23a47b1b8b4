//! What the host knew and no sensor reports, in the sensor log, written as comment lines: the
//! choices of the engine of a game against it (`touchmove play`), and a player's resignation
//! declared at the host.
//!
//! Version 1 of the format has no record for them, but a replay needs them to decide what the
//! live session decided (the engine's move stands only as the engine chose it; a resigned game
//! is over). touchmove writes each as a comment of a fixed form, so the file stays a valid
//! version-1 log that every other reader reads unchanged:
//!
//! ```text
//! #engine-move <t> <uci> [cp <centipawns> | mate <moves>]
//! #engine-gone <t>
//! #resign <t> <white|black>
//! ```
//!
//! `<uci>` is the move the engine chose (castling as the king's move, `e1g1`), at `<t>` (ms of
//! the log); the score is the engine's last before it moved, from its own side.
//! `#engine-gone` says the engine could no longer play: the game went on between two players.
//! The side the engine plays is the header's `@engine white|black`. `#resign` says that side
//! resigned. A comment that starts with one of these words but does not have this form stays
//! an ordinary comment.

use shakmaty::Color;
use shakmaty::uci::UciMove;

use crate::event::color_name;
use crate::sensor::Millis;

/// The word that starts an engine's move.
const ENGINE_MOVE: &str = "#engine-move";

/// The word that starts the engine's end.
const ENGINE_GONE: &str = "#engine-gone";

/// The word that starts a resignation.
const RESIGN: &str = "#resign";

/// What the host knew at a time, as the sensor log keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostNote {
    /// The engine chose a move.
    EngineMove {
        /// The move, in UCI (read in the game as it stood).
        uci: UciMove,
        /// Its last score in centipawns, from its own side, if it gave one.
        score_cp: Option<i32>,
        /// Or mate in this many moves (negative: it is mated), if it gave one.
        mate: Option<i32>,
    },
    /// The engine could no longer play.
    EngineGone,
    /// This side resigned.
    Resigned(Color),
}

/// The comment line (without its line ending) for `note`, made at `t`.
pub fn format_host_note(t: Millis, note: &HostNote) -> String {
    match note {
        HostNote::EngineMove {
            uci,
            score_cp,
            mate,
        } => {
            let score = match (mate, score_cp) {
                (Some(mate), _) => format!(" mate {mate}"),
                (None, Some(cp)) => format!(" cp {cp}"),
                (None, None) => String::new(),
            };
            format!("{ENGINE_MOVE} {t} {uci}{score}")
        }
        HostNote::EngineGone => format!("{ENGINE_GONE} {t}"),
        HostNote::Resigned(color) => format!("{RESIGN} {t} {}", color_name(*color)),
    }
}

/// The time and the note of a host's comment line; `None` for any other line.
pub fn parse_host_note(line: &str) -> Option<(Millis, HostNote)> {
    let mut fields = line.split(' ').filter(|field| !field.is_empty());
    let keyword = fields.next()?;
    let t: Millis = fields
        .next()?
        .parse()
        .ok()
        .filter(|t| *t <= super::fields::MAX_TIME_MS)?;
    let note = match keyword {
        ENGINE_GONE => HostNote::EngineGone,
        RESIGN => HostNote::Resigned(fields.next()?.parse().ok()?),
        ENGINE_MOVE => {
            let uci = fields.next()?.parse::<UciMove>().ok()?;
            let (score_cp, mate) = match (fields.next(), fields.next()) {
                (None, _) => (None, None),
                (Some("cp"), Some(cp)) => (Some(cp.parse().ok()?), None),
                (Some("mate"), Some(mate)) => (None, Some(mate.parse().ok()?)),
                _ => return None,
            };
            HostNote::EngineMove {
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

    fn chose(uci: &str, score_cp: Option<i32>, mate: Option<i32>) -> HostNote {
        HostNote::EngineMove {
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
            (HostNote::EngineGone, "#engine-gone 4200"),
            (HostNote::Resigned(Color::White), "#resign 4200 white"),
        ];
        for (note, line) in cases {
            assert_eq!(format_host_note(4200, &note), line);
            assert_eq!(parse_host_note(line), Some((4200, note)));
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
            "#resign 1",
            "#resign 1 grey",
            "#resign 1 white now",
        ] {
            assert_eq!(parse_host_note(line), None, "{line}");
        }
    }
}
