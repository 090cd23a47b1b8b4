//! An `eboardevent` feed: what changed on its board since the last message.

use serde::Serialize;

use super::eboard::{BoardView, ClockInfo};
use crate::watched::Link;

/// One message of an `eboardevent` feed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EboardEvent {
    /// The board's serial number.
    pub serialnr: String,
    /// Whether the board is read turned round.
    pub flipped: bool,
    /// The pieces on the board (FEN piece placement), in every message as DGT LiveChess sends
    /// it.
    pub board: String,
    /// The clock; left out when unchanged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockInfo>,
    /// The position the game's moves start from (FEN); said with `san`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// Every move of the game that stands, from `start`, as touchmove decided it; left out
    /// when unchanged, and one new move a message (a client that reads the last SAN of each
    /// message, as some do, sees every move once).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub san: Option<Vec<String>>,
    /// Whether the board shows the game's position; said with `san`.
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    pub matches: Option<bool>,
}

/// What a feed last said.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Said {
    flipped: bool,
    board: String,
    clock: Option<ClockInfo>,
    /// The game's part, for a game a client set up only.
    game: Option<SaidGame>,
}

/// What a feed last said of a game a client set up.
#[derive(Debug, Clone, PartialEq, Eq)]
struct SaidGame {
    start: String,
    san: Vec<String>,
    matches: bool,
}

/// One subscription's feed: it says what changed, the first message everything.
#[derive(Debug, Clone)]
pub struct Feed {
    said: Option<Said>,
    /// The serial number the client subscribed by (the board's serial, or its name), said in
    /// every message: the client always reads the board by the name it asked for.
    serialnr: String,
}

impl Feed {
    /// A feed of the board a client subscribed to as `serialnr`, that has said nothing yet.
    pub fn new(serialnr: &str) -> Feed {
        Feed {
            said: None,
            serialnr: serialnr.to_owned(),
        }
    }

    /// The messages for the board as `view` shows it at `now` (ms since the Unix epoch), if
    /// anything changed since the last: none when nothing did; the clock only when it changed;
    /// for a game a client set up, `match`, and `start` and `san` when the moves changed, one
    /// message for each move added.
    pub fn update(&mut self, view: &BoardView, now: u64) -> Vec<EboardEvent> {
        let summary = &view.summary;
        // A board that stopped answering says nothing (its last board, its clock counting
        // down, are no news of it); once it answers again, what changed meanwhile is said.
        if summary.link == Link::Lost {
            return Vec::new();
        }
        let clock = summary
            .clock
            .as_ref()
            .map(|clock| ClockInfo::new(clock, now));
        let said = Said {
            flipped: summary.flipped,
            board: view.placement.clone(),
            clock,
            game: view.set_up.then(|| SaidGame {
                start: summary.start.clone(),
                san: view.sans.clone(),
                matches: summary.differs.is_empty(),
            }),
        };
        let before = self.said.replace(said.clone());
        let clock_changed = before
            .as_ref()
            .is_none_or(|b| !same_clock(b.clock.as_ref(), said.clock.as_ref()));
        let before_game = before.as_ref().and_then(|b| b.game.as_ref());
        let moves_changed = said.game.as_ref().is_some_and(|game| {
            before_game.is_none_or(|b| (&b.start, &b.san) != (&game.start, &game.san))
        });
        let rest_changed = before.as_ref().is_none_or(|b| {
            (b.flipped, &b.board) != (said.flipped, &said.board)
                || b.game.as_ref().map(|g| g.matches) != said.game.as_ref().map(|g| g.matches)
        });
        if !(clock_changed || moves_changed || rest_changed) {
            return Vec::new();
        }
        let message = |clock: Option<ClockInfo>, san: Option<Vec<String>>| EboardEvent {
            serialnr: self.serialnr.clone(),
            flipped: said.flipped,
            board: said.board.clone(),
            clock,
            start: san
                .as_ref()
                .and(said.game.as_ref())
                .map(|game| game.start.clone()),
            san,
            matches: said.game.as_ref().map(|game| game.matches),
        };
        let clock = if clock_changed { said.clock } else { None };
        let Some(game) = said.game.as_ref().filter(|_| moves_changed) else {
            return vec![message(clock, None)];
        };
        // The moves said one at a time when the game only grew; all at once otherwise (the
        // first message, a takeback, a new game).
        let grown_from = before_game
            .filter(|b| b.start == game.start && game.san.starts_with(&b.san))
            .map_or(game.san.len(), |b| b.san.len() + 1);
        (grown_from..=game.san.len())
            .map(|length| game.san.get(..length).unwrap_or_default().to_vec())
            .enumerate()
            .map(|(i, san)| message(if i == 0 { clock } else { None }, Some(san)))
            .collect()
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
    fn a_lost_board_s_feed_says_nothing_until_it_answers_again() {
        let mut feed = Feed::new("7");
        let mut view = view();
        view.summary.clock = Some(ClockState {
            white: 300_000,
            black: 299_500,
            running: Some(Color::White),
            t: 0,
        });
        assert_eq!(feed.update(&view, 1_000).len(), 1);
        view.summary.link = Link::Lost;
        // The clock counts down, a second at a time: said while the board answers, not while
        // it is lost.
        for (now, white) in [(2_000, 299_000), (3_000, 298_000), (4_000, 297_000)] {
            if let Some(clock) = view.summary.clock.as_mut() {
                clock.white = white;
            }
            assert_eq!(feed.update(&view, now), [], "at {now}");
        }
        view.summary.link = Link::Connected;
        let back = feed.update(&view, 5_000);
        assert_eq!(back.len(), 1, "{back:?}");
        assert_eq!(
            back.first().and_then(|m| m.clock).map(|c| c.white),
            Some(297)
        );
    }

    #[test]
    fn the_first_message_says_everything_and_the_next_only_what_changed_one_move_each() {
        let mut feed = Feed::new("7");
        let mut view = view();
        view.set_up = true;
        view.summary.clock = Some(ClockState {
            white: 300_000,
            black: 299_500,
            running: Some(Color::White),
            t: 0,
        });
        let first = feed.update(&view, 1000);
        assert_eq!(first.len(), 1);
        let first = first.first();
        assert_eq!(first.map(|m| m.board.as_str()), Some("8/8/8/8/8/8/8/8"));
        assert_eq!(
            first.and_then(|m| m.clock),
            Some(ClockInfo {
                white: 300,
                black: 299,
                run: Some(true),
                time: 1000
            })
        );
        assert_eq!(first.and_then(|m| m.san.clone()), Some(Vec::new()));
        // Nothing changed: nothing to say (the clock read later shows the same seconds).
        assert_eq!(feed.update(&view, 1400), []);
        // Two moves at once: two messages, one move more each, the board in both, the
        // unchanged clock in neither.
        view.sans = vec!["e4".to_owned(), "e5".to_owned()];
        let next = feed.update(&view, 1500);
        let sans: Vec<Option<Vec<String>>> = next.iter().map(|m| m.san.clone()).collect();
        assert_eq!(
            sans,
            [
                Some(vec!["e4".to_owned()]),
                Some(vec!["e4".to_owned(), "e5".to_owned()])
            ]
        );
        let json = serde_json::to_value(next.first()).unwrap_or_default();
        assert!(json.get("clock").is_none(), "{json}");
        assert_eq!(json["board"], "8/8/8/8/8/8/8/8", "{json}");
        assert_eq!(json["match"], false);
        assert_eq!(json["start"], view.summary.start.as_str());
        // The clock's second changes: the clock is said, and the board, not the moves.
        if let Some(clock) = view.summary.clock.as_mut() {
            clock.white = 299_000;
        }
        let tick = feed.update(&view, 2000);
        assert_eq!(
            tick.first().and_then(|m| m.clock).map(|c| c.white),
            Some(299)
        );
        let json = serde_json::to_value(tick.first()).unwrap_or_default();
        assert!(
            json.get("san").is_none() && json.get("start").is_none(),
            "{json}"
        );
        assert_eq!(json["board"], "8/8/8/8/8/8/8/8", "{json}");
        // A takeback: the shorter list at once.
        view.sans = vec!["e4".to_owned()];
        let back = feed.update(&view, 2100);
        assert_eq!(back.len(), 1);
        assert_eq!(
            back.first().and_then(|m| m.san.clone()),
            Some(vec!["e4".to_owned()])
        );
    }

    #[test]
    fn before_a_client_sets_the_game_up_the_moves_are_not_said() {
        let mut feed = Feed::new("7");
        let mut view = view();
        view.sans = vec!["e4".to_owned()];
        let first = feed.update(&view, 1000);
        let json = serde_json::to_value(&first).unwrap_or_default();
        assert_eq!(
            json,
            serde_json::json!([{"serialnr": "7", "flipped": false, "board": "8/8/8/8/8/8/8/8"}])
        );
        view.sans.push("e5".to_owned());
        assert_eq!(
            feed.update(&view, 1100),
            [],
            "nothing a client is told changed"
        );
        // Set up: the game's moves from then on, all at once the first time.
        view.set_up = true;
        view.sans = Vec::new();
        let set_up = feed.update(&view, 1200);
        assert_eq!(set_up.len(), 1);
        assert_eq!(set_up.first().and_then(|m| m.san.clone()), Some(Vec::new()));
        assert_eq!(set_up.first().and_then(|m| m.matches), Some(false));
    }
}
