//! The requests of the Board API a game at the board makes, as method, path and form body:
//! the driver sends them, this says what they are.

use shakmaty::uci::UciMove;

/// A request about a game.
///
/// ```
/// use touchmove_online::lichess::request::Request;
///
/// let draw = Request::from_word("draw/yes").expect("a request");
/// assert_eq!(draw, Request::Draw(true));
/// assert_eq!(draw.path("5IrD6Gzz"), "/api/board/game/5IrD6Gzz/draw/yes");
/// let resign = Request::Resign;
/// assert_eq!(Request::from_word(&resign.word()), Some(resign), "a word reads back");
/// assert_eq!(Request::from_word("checkmate"), None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// Play a move (`POST /api/board/game/{id}/move/{uci}`).
    Move(UciMove),
    /// Offer or accept a draw (`true`), or decline the opponent's offer (`false`).
    Draw(bool),
    /// Propose or accept a takeback (`true`), or decline the opponent's (`false`).
    Takeback(bool),
    /// Resign.
    Resign,
    /// Abort the game (before each side has moved).
    Abort,
    /// Claim the win: the opponent has left.
    ClaimVictory,
}

impl Request {
    /// The path of the request for game `game_id` (every one is a `POST` without a body).
    pub fn path(&self, game_id: &str) -> String {
        format!("/api/board/game/{game_id}/{}", self.word())
    }

    /// The request as one word: its path after the game's (`move/e2e4`, `draw/yes`,
    /// `resign`), as a recording's `#server-answer` names it.
    pub fn word(&self) -> String {
        match self {
            Request::Move(uci) => format!("move/{uci}"),
            Request::Draw(yes) => format!("draw/{}", yes_no(*yes)),
            Request::Takeback(yes) => format!("takeback/{}", yes_no(*yes)),
            Request::Resign => "resign".to_owned(),
            Request::Abort => "abort".to_owned(),
            Request::ClaimVictory => "claim-victory".to_owned(),
        }
    }

    /// The request [`Request::word`] names, if it names one.
    pub fn from_word(word: &str) -> Option<Request> {
        let (what, argument) = word.split_once('/').unwrap_or((word, ""));
        let yes = || match argument {
            "yes" => Some(true),
            "no" => Some(false),
            _ => None,
        };
        Some(match (what, argument) {
            ("move", uci) => Request::Move(UciMove::from_ascii(uci.as_bytes()).ok()?),
            ("draw", _) => Request::Draw(yes()?),
            ("takeback", _) => Request::Takeback(yes()?),
            ("resign", "") => Request::Resign,
            ("abort", "") => Request::Abort,
            ("claim-victory", "") => Request::ClaimVictory,
            _ => return None,
        })
    }

    /// Its name in words (`move e2e4`, `draw`...).
    pub fn name(&self) -> String {
        match self {
            Request::Move(uci) => format!("move {uci}"),
            Request::Draw(true) => "draw".to_owned(),
            Request::Draw(false) => "draw decline".to_owned(),
            Request::Takeback(true) => "takeback".to_owned(),
            Request::Takeback(false) => "takeback decline".to_owned(),
            Request::Resign => "resign".to_owned(),
            Request::Abort => "abort".to_owned(),
            Request::ClaimVictory => "claim-victory".to_owned(),
        }
    }
}

fn yes_no(yes: bool) -> &'static str {
    if yes { "yes" } else { "no" }
}

/// The path that accepts challenge `id` (`POST`).
pub fn accept_challenge(id: &str) -> String {
    format!("/api/challenge/{id}/accept")
}

/// The path that declines challenge `id` (`POST`).
pub fn decline_challenge(id: &str) -> String {
    format!("/api/challenge/{id}/decline")
}

/// The path of the stream of game `id` (`GET`, ndjson).
pub fn game_stream(id: &str) -> String {
    format!("/api/board/game/stream/{id}")
}

/// The path of the account's incoming events (`GET`, ndjson).
pub const EVENT_STREAM: &str = "/api/stream/event";

/// The path of a seek (`POST`, form `time`, `increment`, `rated`, `color`; the response is a
/// stream to keep open while the seek stands).
pub const SEEK: &str = "/api/board/seek";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_the_published_ones() {
        let e4 = UciMove::from_ascii(b"e2e4").expect("uci");
        assert_eq!(
            Request::Move(e4).path("5IrD6Gzz"),
            "/api/board/game/5IrD6Gzz/move/e2e4"
        );
        assert_eq!(Request::Draw(true).path("x"), "/api/board/game/x/draw/yes");
        assert_eq!(
            Request::Takeback(false).path("x"),
            "/api/board/game/x/takeback/no"
        );
        assert_eq!(
            Request::ClaimVictory.path("x"),
            "/api/board/game/x/claim-victory"
        );
        assert_eq!(game_stream("x"), "/api/board/game/stream/x");
        assert_eq!(accept_challenge("c1"), "/api/challenge/c1/accept");
    }

    #[test]
    fn a_request_s_word_names_it() {
        let e4 = UciMove::from_ascii(b"e7e8q").expect("uci");
        for request in [
            Request::Move(e4),
            Request::Draw(true),
            Request::Draw(false),
            Request::Takeback(true),
            Request::Resign,
            Request::Abort,
            Request::ClaimVictory,
        ] {
            assert_eq!(Request::from_word(&request.word()), Some(request));
        }
        for word in ["move/e9e4", "draw/maybe", "resign/now", "castle", ""] {
            assert_eq!(Request::from_word(word), None, "{word}");
        }
    }
}
