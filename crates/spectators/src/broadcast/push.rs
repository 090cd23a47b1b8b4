//! When to push: one request in flight at a time, the latest state wins, backing off on
//! errors, stopping when Lichess will never take the pushes.

use std::collections::HashMap;

use serde::Serialize;

use super::reply::{GameReply, error_message, parse_reply};
use touchmove_core::sensor::Millis;

/// The pusher's timing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PushConfig {
    /// The shortest time from one push's start to the next (changes meanwhile are taken
    /// together).
    pub min_interval: Millis,
    /// The wait after a first failure, doubled after each failure that follows.
    pub backoff_min: Millis,
    /// The longest wait after failures.
    pub backoff_max: Millis,
}

impl Default for PushConfig {
    fn default() -> PushConfig {
        PushConfig {
            min_interval: 1000,
            backoff_min: 2000,
            backoff_max: 300_000,
        }
    }
}

/// Where the pushes stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PushState {
    /// Nothing pushed yet.
    Waiting,
    /// A push is on its way.
    Pushing,
    /// The last push was taken.
    Pushed,
    /// The last push failed; it is tried again later.
    Retrying,
    /// Lichess will not take pushes with this token to this round: nothing more is sent.
    Stopped,
}

/// What a page shows of one board's pushes (`/api/boards`' `push`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PushStatus {
    /// Where the round's pushes stand.
    pub state: PushState,
    /// How many moves Lichess has of the board's game, as its last reply said.
    pub moves: Option<u32>,
    /// Why Lichess refused the board's game, or why the pushes fail or stopped.
    pub error: Option<String>,
    /// When a push was last taken (ms of the pusher's time).
    pub pushed_at: Option<Millis>,
}

/// A push to make: the current games of these boards, in this order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The boards whose games the body holds, in order.
    pub boards: Vec<String>,
}

/// Decides when to push, and reads the replies.
///
/// ```
/// use touchmove_spectators::broadcast::{PushConfig, PushState, Pusher};
///
/// // At most a push a second; after failures, 2 s doubled each time.
/// let mut pusher = Pusher::new(PushConfig::default());
/// let boards = || vec!["board-1".to_owned()];
/// pusher.changed();
/// assert!(pusher.poll_request(0, boards()).is_some());
/// pusher.changed();
/// assert!(pusher.poll_request(50, boards()).is_none(), "one push in flight at a time");
/// // A server error: the same state again 2 s later.
/// pusher.handle_reply(100, 500, None, "");
/// assert_eq!(pusher.state(), PushState::Retrying);
/// assert_eq!(pusher.poll_timeout(), Some(2100));
/// assert!(pusher.poll_request(2100, boards()).is_some());
/// // Asked to slow down for 10 s: longer than the 4 s the second failure would wait.
/// pusher.handle_reply(2200, 429, Some(10), "");
/// assert_eq!(pusher.poll_timeout(), Some(12_200));
/// assert!(pusher.poll_request(12_200, boards()).is_some());
/// // A token Lichess refuses: nothing more is sent.
/// pusher.handle_reply(12_300, 401, None, "");
/// pusher.changed();
/// assert_eq!(pusher.state(), PushState::Stopped);
/// assert_eq!(pusher.poll_timeout(), None);
/// ```
#[derive(Debug, Clone)]
pub struct Pusher {
    config: PushConfig,
    state: PushState,
    /// The boards of the push in flight.
    in_flight: Option<Vec<String>>,
    /// A game changed since the last push started.
    changed: bool,
    /// The earliest time of the next push.
    next_at: Millis,
    failures: u32,
    /// Why pushes fail, or stopped.
    message: Option<String>,
    games: HashMap<String, GameReply>,
    pushed_at: Option<Millis>,
}

impl Pusher {
    /// A pusher with `config`, nothing pushed yet.
    pub fn new(config: PushConfig) -> Pusher {
        Pusher {
            config,
            state: PushState::Waiting,
            in_flight: None,
            changed: false,
            next_at: 0,
            failures: 0,
            message: None,
            games: HashMap::new(),
            pushed_at: None,
        }
    }

    /// A game changed: the boards' games are to be pushed again.
    pub fn changed(&mut self) {
        self.changed = true;
    }

    /// The push to make now, if one is due: `boards` (their current games make its body). None
    /// while one is in flight, before the last one's interval or backoff is over, after a
    /// stop, or when nothing changed.
    pub fn poll_request(&mut self, now: Millis, boards: Vec<String>) -> Option<Request> {
        if !self.due(now) {
            return None;
        }
        self.changed = false;
        self.state = PushState::Pushing;
        self.next_at = now.saturating_add(self.config.min_interval);
        self.in_flight = Some(boards.clone());
        Some(Request { boards })
    }

    fn due(&self, now: Millis) -> bool {
        self.changed
            && self.in_flight.is_none()
            && self.state != PushState::Stopped
            && now >= self.next_at
    }

    /// When [`Pusher::poll_request`] will next have a push to make, if it will.
    pub fn poll_timeout(&self) -> Option<Millis> {
        let waiting = self.changed && self.in_flight.is_none() && self.state != PushState::Stopped;
        waiting.then_some(self.next_at)
    }

    /// The push in flight was answered at `now` with HTTP `status`, `retry_after` seconds
    /// (from a `Retry-After` header) and `body`.
    pub fn handle_reply(&mut self, now: Millis, status: u16, retry_after: Option<u64>, body: &str) {
        let Some(boards) = self.in_flight.take() else {
            return;
        };
        match status {
            200..=299 => self.taken(now, &boards, body),
            401 => self.stop(
                "Lichess refused the token (HTTP 401): LICHESS_TOKEN must be a \
                              valid token with the study:write scope",
            ),
            403 => self.stop(
                "Lichess does not let this token push to the round (HTTP 403): \
                              the round must be the token owner's, with no source URL",
            ),
            404 => self.stop("Lichess has no such broadcast round (HTTP 404)"),
            429 => {
                let reason = "Lichess asks to push less often (HTTP 429)".to_owned();
                self.failed(now, reason, retry_after.map(|s| s.saturating_mul(1000)));
            }
            _ => {
                let reason = match error_message(body) {
                    Some(error) => format!("Lichess refused the push (HTTP {status}): {error}"),
                    None => format!("Lichess refused the push (HTTP {status})"),
                };
                self.failed(now, reason, None);
            }
        }
    }

    /// The push in flight failed at `now` before Lichess answered (`error`: why).
    pub fn handle_failure(&mut self, now: Millis, error: &str) {
        if self.in_flight.take().is_some() {
            self.failed(now, format!("cannot reach Lichess: {error}"), None);
        }
    }

    fn taken(&mut self, now: Millis, boards: &[String], body: &str) {
        self.state = PushState::Pushed;
        self.failures = 0;
        self.message = None;
        self.pushed_at = Some(now);
        let replies = parse_reply(body).unwrap_or_default();
        for (board, reply) in boards.iter().zip(replies) {
            self.games.insert(board.clone(), reply);
        }
    }

    /// A failed push: the same state is pushed again after the backoff (at least `at_least`).
    fn failed(&mut self, now: Millis, reason: String, at_least: Option<Millis>) {
        self.failures = self.failures.saturating_add(1);
        let doublings = self.failures.saturating_sub(1).min(32);
        let backoff = self
            .config
            .backoff_min
            .saturating_mul(1u64 << doublings)
            .min(self.config.backoff_max)
            .max(at_least.unwrap_or(0));
        self.next_at = now.saturating_add(backoff);
        self.changed = true;
        self.state = PushState::Retrying;
        self.message = Some(reason);
    }

    fn stop(&mut self, reason: &str) {
        self.state = PushState::Stopped;
        self.message = Some(reason.to_owned());
    }

    /// Where the pushes stand.
    pub fn state(&self) -> PushState {
        self.state
    }

    /// Why the pushes fail or stopped, if they do.
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// What a page shows of `board`'s pushes.
    pub fn status(&self, board: &str) -> PushStatus {
        let (moves, game_error) = match self.games.get(board) {
            Some(GameReply::Moves(moves)) => (Some(*moves), None),
            Some(GameReply::Error(error)) => (None, Some(error.clone())),
            None => (None, None),
        };
        PushStatus {
            state: self.state,
            moves,
            error: self.message.clone().or(game_error),
            pushed_at: self.pushed_at,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: PushConfig = PushConfig {
        min_interval: 1000,
        backoff_min: 2000,
        backoff_max: 10_000,
    };

    fn boards() -> Vec<String> {
        vec!["1".to_owned(), "2".to_owned()]
    }

    const TAKEN: &str = r#"{"games":[{"tags":{},"moves":3},{"tags":{},"error":"No move found"}]}"#;

    #[test]
    fn one_push_at_a_time_and_the_changes_meanwhile_go_together() {
        let mut pusher = Pusher::new(CONFIG);
        assert_eq!(pusher.poll_request(0, boards()), None, "nothing changed");
        pusher.changed();
        assert!(pusher.poll_request(0, boards()).is_some());
        assert_eq!(pusher.state(), PushState::Pushing);
        pusher.changed();
        pusher.changed();
        assert_eq!(pusher.poll_request(500, boards()), None, "one in flight");
        assert_eq!(
            pusher.poll_timeout(),
            None,
            "nothing to wait for while one is in flight"
        );
        pusher.handle_reply(600, 200, None, TAKEN);
        assert_eq!(pusher.state(), PushState::Pushed);
        // The changes made meanwhile: one more push, once the interval is over.
        assert_eq!(pusher.poll_timeout(), Some(1000));
        assert_eq!(pusher.poll_request(900, boards()), None);
        assert!(pusher.poll_request(1000, boards()).is_some());
        pusher.handle_reply(1100, 200, None, TAKEN);
        assert_eq!(pusher.poll_timeout(), None, "all pushed");
    }

    #[test]
    fn each_board_gets_its_game_s_reply() {
        let mut pusher = Pusher::new(CONFIG);
        pusher.changed();
        let _ = pusher.poll_request(0, boards());
        pusher.handle_reply(100, 200, None, TAKEN);
        let one = pusher.status("1");
        assert_eq!((one.moves, one.error), (Some(3), None));
        let two = pusher.status("2");
        assert_eq!(
            (two.moves, two.error.as_deref()),
            (None, Some("No move found"))
        );
        assert_eq!(two.pushed_at, Some(100));
    }

    #[test]
    fn failures_back_off_doubling_and_retry_after_is_honoured() {
        let mut pusher = Pusher::new(CONFIG);
        pusher.changed();
        let mut now = 0;
        let mut waits = Vec::new();
        for _ in 0..5 {
            assert!(pusher.poll_request(now, boards()).is_some(), "at {now}");
            pusher.handle_reply(now, 500, None, "");
            let next = pusher.poll_timeout().unwrap_or(0);
            waits.push(next - now);
            now = next;
        }
        assert_eq!(waits, [2000, 4000, 8000, 10_000, 10_000]);
        assert_eq!(pusher.state(), PushState::Retrying);
        // 429 with Retry-After: 30 s, longer than the backoff.
        let _ = pusher.poll_request(now, boards());
        pusher.handle_reply(now, 429, Some(30), "");
        assert_eq!(pusher.poll_timeout(), Some(now + 30_000));
        let said = pusher.status("1").error.unwrap_or_default();
        assert!(said.contains("429"), "{said}");
        // A success resets the backoff.
        now += 30_000;
        let _ = pusher.poll_request(now, boards());
        pusher.handle_reply(now, 200, None, TAKEN);
        pusher.changed();
        let _ = pusher.poll_request(now + 1000, boards());
        pusher.handle_failure(now + 1000, "connection refused");
        assert_eq!(pusher.poll_timeout(), Some(now + 3000));
    }

    #[test]
    fn a_refused_token_or_round_stops_the_pushes() {
        for (status, said) in [(401, "401"), (403, "403"), (404, "404")] {
            let mut pusher = Pusher::new(CONFIG);
            pusher.changed();
            let _ = pusher.poll_request(0, boards());
            pusher.handle_reply(10, status, None, "");
            assert_eq!(pusher.state(), PushState::Stopped);
            pusher.changed();
            assert_eq!(pusher.poll_request(100_000, boards()), None);
            assert_eq!(pusher.poll_timeout(), None);
            assert!(pusher.message().unwrap_or_default().contains(said));
        }
    }

    #[test]
    fn a_bad_body_says_lichess_s_reason() {
        let mut pusher = Pusher::new(CONFIG);
        pusher.changed();
        let _ = pusher.poll_request(0, boards());
        pusher.handle_reply(10, 400, None, r#"{"error":"Cannot parse moves"}"#);
        assert_eq!(pusher.state(), PushState::Retrying);
        let said = pusher.message().unwrap_or_default();
        assert!(said.ends_with("Cannot parse moves"), "{said}");
    }
}
