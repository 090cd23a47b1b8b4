//! `POST /api/boards/NAME/online/REQUEST`: the board page's buttons in an online game
//! (`touchmove online --listen`): the player asks the server for a draw, a takeback, to resign,
//! abort or claim the win, or chooses the piece of a promotion the board cannot identify.
//! `POST /api/boards/NAME/hint`: the page's hint button in a game against an engine
//! (`touchmove play --listen`). The access guard has already checked who asks (only the operator
//! changes a game); here, what is asked, and how often.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use touchmove_core::output::excerpt::excerpt;
use touchmove_online::lichess::request::Request;

use super::asked::{Asked, promotion_piece};
use super::board::Overview;

/// How many requests the page may make at once, and how fast they come back: a person's
/// clicks pass, a button held down or a script gone wrong never floods the server (whose limits
/// would then hold up the player's moves).
pub const REQUEST_BURST: u32 = 4;
/// The time after which one more request may be made, up to [`REQUEST_BURST`].
pub const REQUEST_EVERY: Duration = Duration::from_millis(500);

/// The requests the page may make: the Board API's words, and a promotion's piece.
const WORDS: &str = "draw/yes, draw/no, takeback/yes, takeback/no, resign, abort, claim-victory, \
                     promote/q, promote/r, promote/b, promote/n";

/// The requests the page may still make (a bucket of [`REQUEST_BURST`], one more each
/// [`REQUEST_EVERY`]), as of when it was last counted.
#[derive(Debug, Default)]
pub struct Paced(Mutex<Option<(Instant, Duration)>>);

impl Paced {
    /// Takes a request now, if one is left: else how long until one is.
    fn try_now(&self) -> Result<(), Duration> {
        self.try_at(Instant::now())
    }

    /// Takes a request at `now`. The bucket is kept as the time its requests stand for (each
    /// [`REQUEST_EVERY`]), spent as requests are made and earned back as time passes.
    fn try_at(&self, now: Instant) -> Result<(), Duration> {
        let full = REQUEST_EVERY.saturating_mul(REQUEST_BURST);
        let mut bucket = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let left = match *bucket {
            Some((at, left)) => left
                .saturating_add(now.saturating_duration_since(at))
                .min(full),
            None => full,
        };
        match left.checked_sub(REQUEST_EVERY) {
            Some(after) => {
                *bucket = Some((now, after));
                Ok(())
            }
            None => {
                *bucket = Some((now, left));
                Err(REQUEST_EVERY.saturating_sub(left))
            }
        }
    }
}

/// What the page's request asks for, or why it is refused.
fn asked(word: &str) -> Result<Asked, String> {
    if let Some(letter) = word.strip_prefix("promote/")
        && let Some(role) = promotion_piece(letter)
    {
        return Ok(Asked::Promotion(role));
    }
    match Request::from_word(word) {
        Some(Request::Move(_)) => Err("moves are made on the board, not asked for".to_owned()),
        Some(request) => Ok(Asked::Server(request)),
        None => Err(format!("`{}` is no request: ask {WORDS}", excerpt(word))),
    }
}

/// Hands the player's request to the online session; answered `202` with what was asked
/// (`{"asked": "draw/yes"}`): the server's answer comes on the board's stream (an `online`
/// event, and the game's events), a promotion's piece in the move decided.
pub async fn online_request(
    State((overview, paced)): State<(Arc<Overview>, Arc<Paced>)>,
    Path((name, word)): Path<(String, String)>,
) -> Response {
    if overview.board(&name).is_none() {
        return refused(StatusCode::NOT_FOUND, format!("no board is called {name}"));
    }
    let Some(requests) = overview.requests.as_ref() else {
        return refused(
            StatusCode::NOT_FOUND,
            format!("board {name} plays no online game"),
        );
    };
    let request = match asked(&word) {
        Ok(request) => request,
        Err(why) => return refused(StatusCode::BAD_REQUEST, why),
    };
    hand_over(&paced, requests, request)
}

/// Hands the player's hint request to the game against the engine; answered `202`
/// (`{"asked": "hint"}`): the hint comes on the board's stream (a `hint` event).
pub async fn hint_request(
    State((overview, paced)): State<(Arc<Overview>, Arc<Paced>)>,
    Path(name): Path<String>,
) -> Response {
    of_the_engine_game(&overview, &paced, &name, Asked::Hint)
}

/// `POST /api/boards/NAME/play-on`: play on after the coach spoke (`play --coach`): the
/// engine's reply held is carried out.
pub async fn play_on_request(
    State((overview, paced)): State<(Arc<Overview>, Arc<Paced>)>,
    Path(name): Path<String>,
) -> Response {
    of_the_engine_game(&overview, &paced, &name, Asked::PlayOn)
}

/// Passes `asked` on to the game against the engine played on board `name`, paced; `404` for
/// a board that plays none.
fn of_the_engine_game(overview: &Overview, paced: &Paced, name: &str, asked: Asked) -> Response {
    let hints = overview.board(name).map(|board| board.summary().hints);
    match (hints, overview.requests.as_ref()) {
        (None, _) => refused(StatusCode::NOT_FOUND, format!("no board is called {name}")),
        (Some(true), Some(requests)) => hand_over(paced, requests, asked),
        _ => refused(
            StatusCode::NOT_FOUND,
            format!(
                "board {name} plays no game against an engine: no {}",
                asked.name()
            ),
        ),
    }
}

/// Passes `request` on, paced: `202` with what was asked, or why not.
fn hand_over(
    paced: &Paced,
    requests: &tokio::sync::mpsc::UnboundedSender<Asked>,
    request: Asked,
) -> Response {
    if let Err(wait) = paced.try_now() {
        let seconds = wait.as_secs().max(1).to_string();
        return (
            StatusCode::TOO_MANY_REQUESTS,
            [(header::RETRY_AFTER, seconds)],
            format!(
                "{REQUEST_BURST} requests at most, one more each {} ms: try again in {} ms\n",
                REQUEST_EVERY.as_millis(),
                wait.as_millis()
            ),
        )
            .into_response();
    }
    let word = request.word();
    if requests.send(request).is_err() {
        return refused(
            StatusCode::SERVICE_UNAVAILABLE,
            "the game's session has ended".to_owned(),
        );
    }
    (
        StatusCode::ACCEPTED,
        Json(serde_json::json!({ "asked": word })),
    )
        .into_response()
}

fn refused(status: StatusCode, why: String) -> Response {
    (status, format!("{why}\n")).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Role;

    #[test]
    fn the_page_asks_for_everything_but_a_move() {
        for word in [
            "draw/yes",
            "draw/no",
            "takeback/yes",
            "takeback/no",
            "resign",
            "abort",
            "claim-victory",
        ] {
            assert_eq!(asked(word).map(|r| r.word()), Ok(word.to_owned()));
        }
        assert_eq!(asked("promote/n"), Ok(Asked::Promotion(Role::Knight)));
        assert_eq!(
            asked("promote/q").map(|a| a.word()),
            Ok("promote/q".to_owned())
        );
        assert!(asked("promote/k").is_err());
        assert!(asked("move/e2e4").is_err_and(|why| why.contains("on the board")));
        assert!(asked("draw/maybe").is_err_and(|why| why.contains("no request")));
    }

    #[test]
    fn a_burst_passes_and_a_flood_waits() {
        let paced = Paced::default();
        let start = Instant::now();
        for _ in 0..REQUEST_BURST {
            assert_eq!(paced.try_at(start), Ok(()));
        }
        assert_eq!(paced.try_at(start), Err(REQUEST_EVERY));
        let later = start + REQUEST_EVERY / 2;
        assert_eq!(paced.try_at(later), Err(REQUEST_EVERY / 2));
        assert_eq!(paced.try_at(start + REQUEST_EVERY), Ok(()));
        assert!(paced.try_at(start + REQUEST_EVERY).is_err());
        // Long quiet: a whole burst again, no more.
        let quiet = start + REQUEST_EVERY * 100;
        for _ in 0..REQUEST_BURST {
            assert_eq!(paced.try_at(quiet), Ok(()));
        }
        assert!(paced.try_at(quiet).is_err());
    }
}
