//! An `eboardevent` feed: what changed on its board since the last message.

use serde::Serialize;

use super::eboard::{BoardView, ClockInfo};

/// One message of an `eboardevent` feed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EboardEvent {
    /// The board's serial number.
    pub serialnr: String,
    /// Whether the board is read turned round.
    pub flipped: bool,
    /// The pieces on the board (FEN piece placement); left out when unchanged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
    /// The clock; left out when unchanged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockInfo>,
    /// The position the game's moves start from (FEN).
    pub start: String,
    /// Every move of the game that stands, from `start`, as touchmove decided it (one message
    /// may carry several new ones).
    pub san: Vec<String>,
    /// Whether the board shows the game's position.
    #[serde(rename = "match")]
    pub matches: bool,
}

/// What a feed last said.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Said {
    flipped: bool,
    board: String,
    clock: Option<ClockInfo>,
    start: String,
    san: Vec<String>,
    matches: bool,
}

/// One subscription's feed: it says what changed, the first message everything.
#[derive(Debug, Clone, Default)]
pub struct Feed {
    said: Option<Said>,
}

impl Feed {
    /// A feed that has said nothing yet.
    pub fn new() -> Feed {
        Feed::default()
    }

    /// The message for the board as `view` shows it at `now` (ms since the Unix epoch), if
    /// anything changed since the last: `board` and `clock` are left out when they did not.
    pub fn update(&mut self, view: &BoardView, now: u64) -> Option<EboardEvent> {
        let summary = &view.summary;
        let clock = summary
            .clock
            .as_ref()
            .map(|clock| ClockInfo::new(clock, now));
        let said = Said {
            flipped: summary.flipped,
            board: view.placement.clone(),
            clock,
            start: summary.start.clone(),
            san: view.sans.clone(),
            matches: summary.differs.is_empty(),
        };
        let before = self.said.replace(said.clone());
        let board_changed = before.as_ref().is_none_or(|b| b.board != said.board);
        let clock_changed = before
            .as_ref()
            .is_none_or(|b| !same_clock(b.clock.as_ref(), said.clock.as_ref()));
        let rest_changed = before.as_ref().is_none_or(|b| {
            (b.flipped, &b.start, &b.san, b.matches)
                != (said.flipped, &said.start, &said.san, said.matches)
        });
        if !(board_changed || clock_changed || rest_changed) {
            return None;
        }
        Some(EboardEvent {
            serialnr: summary.name.clone(),
            flipped: said.flipped,
            board: board_changed.then_some(said.board),
            clock: if clock_changed { said.clock } else { None },
            start: said.start,
            san: said.san,
            matches: said.matches,
        })
    }
}

fn same_clock(a: Option<&ClockInfo>, b: Option<&ClockInfo>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.shows_as(b),
        (None, None) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{Chess, Color};

    use super::*;
    use crate::watched::{ClockState, WatchedBoard};
    use touchmove_core::output::pgn::PgnTags;

    fn view() -> BoardView {
        let watched = WatchedBoard::new("7", "dgt", "/dev/x", Chess::default(), PgnTags::default());
        BoardView::of(&watched, watched.summary())
    }

    #[test]
    fn the_first_message_says_everything_and_the_next_only_what_changed() {
        let mut feed = Feed::new();
        let mut view = view();
        view.summary.clock = Some(ClockState {
            white: 300_000,
            black: 299_500,
            running: Some(Color::White),
            t: 0,
        });
        let first = feed.update(&view, 1000);
        let first = first.as_ref();
        assert_eq!(
            first.and_then(|m| m.board.as_deref()),
            Some("8/8/8/8/8/8/8/8")
        );
        assert_eq!(
            first.and_then(|m| m.clock),
            Some(ClockInfo {
                white: 300,
                black: 299,
                run: Some(true),
                time: 1000
            })
        );
        // Nothing changed: nothing to say (the clock read later shows the same seconds).
        assert_eq!(feed.update(&view, 1400), None);
        // Two moves at once: one message carries both, the unchanged board and clock left out.
        view.sans = vec!["e4".to_owned(), "e5".to_owned()];
        let next = feed.update(&view, 1500);
        assert_eq!(next.as_ref().map(|m| m.san.len()), Some(2));
        assert_eq!(next.as_ref().and_then(|m| m.board.as_ref()), None);
        assert_eq!(next.as_ref().and_then(|m| m.clock), None);
        let json = serde_json::to_value(next).unwrap_or_default();
        assert!(
            json.get("board").is_none() && json.get("clock").is_none(),
            "{json}"
        );
        assert_eq!(json["match"], false);
        // The clock's second changes: the clock is said.
        if let Some(clock) = view.summary.clock.as_mut() {
            clock.white = 299_000;
        }
        let clock = feed.update(&view, 2000).and_then(|m| m.clock);
        assert_eq!(clock.map(|c| c.white), Some(299));
    }
}
