//! A game's name for the world outside the board, given when it begins: the `GameId` a
//! broadcast matches a pushed game by (Lichess's relay matches by it before anything else), and
//! the day it began for the PGN's `Date`. The id names the host, the board, the game's number
//! and the moment it began (UTC, to the second), so that no game of another host, of another
//! session of this host or of another round takes its place, and renaming its players keeps
//! it. Read from this machine's clock and time zone: the I/O edge.

use jiff::Zoned;
use touchmove_core::sensor_log::GameLabel;

/// Names the games of one host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameNamer {
    host: String,
}

impl GameNamer {
    /// The namer of the host called `host` (one word is best: it starts every `GameId`).
    pub fn new(host: &str) -> GameNamer {
        let host = host.trim();
        GameNamer {
            host: if host.is_empty() { "touchmove" } else { host }.to_owned(),
        }
    }

    /// The host's name, as it starts every `GameId`.
    pub fn host(&self) -> &str {
        &self.host
    }

    /// Board `board`'s game `number`, beginning now.
    pub fn now(&self, board: &str, number: u32) -> GameLabel {
        self.at(board, number, &Zoned::now())
    }

    /// Board `board`'s game `number`, beginning at `when`: its id with `when` in UTC, its date
    /// in `when`'s time zone.
    pub fn at(&self, board: &str, number: u32, when: &Zoned) -> GameLabel {
        let stamp = when.timestamp().strftime("%Y%m%dT%H%M%SZ");
        let board = board.trim();
        GameLabel {
            id: Some(format!("{}/{board}/{number}/{stamp}", self.host)),
            date: Some(when.strftime("%Y.%m.%d").to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Zoned {
        text.parse()
            .unwrap_or_else(|error| panic!("{text}: {error}"))
    }

    #[test]
    fn the_id_says_host_board_number_and_utc_moment_and_the_date_is_local() {
        let namer = GameNamer::new("hall-a");
        // 23:30 at UTC-5 on 6 December is 04:30 UTC on 7 December: the date is the hall's.
        let label = namer.at("north", 3, &at("2026-12-06T23:30:05-05:00[-05:00]"));
        assert_eq!(label.id.as_deref(), Some("hall-a/north/3/20261207T043005Z"));
        assert_eq!(label.date.as_deref(), Some("2026.12.06"));
        assert!(label.date.as_deref().is_some_and(GameLabel::is_date));
    }

    #[test]
    fn another_host_board_game_or_moment_is_another_id() {
        let when = at("2026-12-07T10:00:00+01:00[+01:00]");
        let later = at("2026-12-07T10:00:01+01:00[+01:00]");
        let ids = [
            GameNamer::new("a").at("1", 1, &when),
            GameNamer::new("b").at("1", 1, &when),
            GameNamer::new("a").at("2", 1, &when),
            GameNamer::new("a").at("1", 2, &when),
            GameNamer::new("a").at("1", 1, &later),
        ]
        .map(|label| label.id);
        for (i, id) in ids.iter().enumerate() {
            assert_eq!(
                ids.iter().filter(|other| *other == id).count(),
                1,
                "{i}: {id:?}"
            );
        }
        assert_eq!(
            GameNamer::new("  ").at("1", 1, &when).id.as_deref(),
            Some("touchmove/1/1/20261207T090000Z")
        );
    }
}
