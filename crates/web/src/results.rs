//! The operator's actions on a board's game, what no sensor sees: `POST
//! /api/boards/NAME/result` declares its result (a draw agreed, a claim upheld, a resignation,
//! a default, the arbiter's penalty or decision), `POST /api/boards/NAME/time` gives a player
//! more time, `POST /api/boards/NAME/clock` sets both players' times, `POST
//! /api/boards/NAME/note` notes something on it, `POST
//! /api/boards/NAME/tag` names a tag of it (a player, the event, the round), `POST
//! /api/boards/NAME/reinstate` reinstates an earlier position, `POST /api/boards/NAME/flip`
//! reads the board turned round (or not). The access guard has
//! already checked the operator's token; here, what is asked, and the answer: the board's new
//! state once its game has taken it.

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use shakmaty::Color;
use tokio::sync::broadcast::error::RecvError;

use touchmove_core::event::{ClockTimes, EventKind, TagName, UnknownTag, one_line};
use touchmove_core::output::excerpt::excerpt;
use touchmove_core::rules::Declared;
use touchmove_core::sensor::Millis;
use touchmove_core::stream::StreamKind;
use touchmove_runtime::runner::Control;
use touchmove_spectators::watched::BoardSummary;

use super::board::{BoardHandle, Overview};

/// The longest the answer waits for the board's game to take the result (its runner takes it
/// between two reports, at once on an idle machine).
const TAKEN_WITHIN: Duration = Duration::from_secs(10);

/// The longest body read: the longest declaration is a few words.
pub const BODY_LIMIT: usize = 64;

/// The longest note read, in bytes.
pub const NOTE_LIMIT: usize = 500;

/// What may be declared, for the answer to a body that declares nothing.
const WORDS: &str = "draw-agreed, claim threefold, claim fifty-moves, resigned white|black, \
                     default white|black, penalty white|black, adjudicated 1-0|0-1|1/2-1/2";

/// `POST /api/boards/NAME/result`: declares `body` (the declaration in words, as the recording
/// writes it) for board `name`: answered `200` with the board's summary once its game has ended
/// with it; `400` for words that declare nothing, `404` for no such board, `409` for a board
/// with no game in progress.
pub async fn declare(
    State(overview): State<Arc<Overview>>,
    Path(name): Path<String>,
    body: String,
) -> Response {
    operate(&overview, &name, declared(&body)).await
}

/// `POST /api/boards/NAME/time`: gives a player of board `name` more time: `body` is the side
/// and the time in ms, as the recording writes it (`black 120000`). Answered as [`declare`] is,
/// once the game's clock has it; `409` also for a game without a clock.
pub async fn add_time(
    State(overview): State<Arc<Overview>>,
    Path(name): Path<String>,
    body: String,
) -> Response {
    operate(&overview, &name, time_given(&body)).await
}

/// `POST /api/boards/NAME/clock`: sets both players' times on board `name` (a clock set wrongly
/// corrected, 6.10.2; time taken from a player, 12.9.3): `body` is White's and Black's time in
/// ms, as the recording writes them (`5400000 5280000`). Answered as [`declare`] is, once the
/// game's clock has them; `409` also for a game without a clock.
pub async fn set_clock(
    State(overview): State<Arc<Overview>>,
    Path(name): Path<String>,
    body: String,
) -> Response {
    operate(&overview, &name, clock_set(&body)).await
}

/// `POST /api/boards/NAME/note`: notes `body` (one line, at most [`NOTE_LIMIT`] bytes) on board
/// `name`'s game for the arbiter: a `note` event on the board's stream, a comment in its PGN, a
/// `#note` in its log. Answered as [`declare`] is, once the game has said it; a game over may
/// still be noted on.
pub async fn note(
    State(overview): State<Arc<Overview>>,
    Path(name): Path<String>,
    body: String,
) -> Response {
    operate(&overview, &name, noted(&body)).await
}

/// `POST /api/boards/NAME/tag`: names a tag of board `name`'s game: `body` is the tag's name and
/// its value (`white Carlsen, Magnus`; `round 7`; the name alone unnames it), the tag one of
/// `Event`, `Site`, `Round`, `Board`, `White`, `Black` in any case. A `tag` event on the board's
/// stream, its PGN's tags from this game on, a `#tag` in its log. Answered as [`declare`] is,
/// once the game has said it; taken before the game has started and after it is over too.
pub async fn tag(
    State(overview): State<Arc<Overview>>,
    Path(name): Path<String>,
    body: String,
) -> Response {
    operate(&overview, &name, tagged(&body)).await
}

/// `POST /api/boards/NAME/reinstate`: reinstates the position after ply `body` (a number below
/// the game's ply) on board `name` (7.4, 7.5.1): the plies after it taken back, a `reinstated`
/// event, the board matching nothing until it is put back so. Answered as [`declare`] is, once
/// the game has said it; `409` also for a ply not before the game's.
pub async fn reinstate(
    State(overview): State<Arc<Overview>>,
    Path(name): Path<String>,
    body: String,
) -> Response {
    operate(&overview, &name, reinstated(&body)).await
}

/// `POST /api/boards/NAME/flip`: board `name` stands turned round (`body` `turned`: Black on
/// the side a board is read from) or the right way round (`straight`): its reports are read so
/// from now on, starting with a full report of it as now read (LiveChess's `flip`). Answered
/// `200` with the board's state once it is read so; `400` for another body, `404`, `504`.
pub async fn flip(
    State(overview): State<Arc<Overview>>,
    Path(name): Path<String>,
    body: String,
) -> Response {
    let Some(board) = overview.board(&name) else {
        return refused(StatusCode::NOT_FOUND, format!("no board is called {name}"));
    };
    let turned = match body.trim() {
        "turned" => true,
        "straight" => false,
        other => {
            return refused(
                StatusCode::BAD_REQUEST,
                format!("`{}`? say `turned` or `straight`", excerpt(other)),
            );
        }
    };
    if !board.control(Control::Flip(turned)) {
        return refused(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("board {name} is no longer watched"),
        );
    }
    // The runner turns the board between two reports, and its summary then says so.
    let read_so = tokio::time::timeout(TAKEN_WITHIN, async {
        while board.summary().flipped != turned {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    match read_so {
        Ok(()) => (StatusCode::OK, Json(board.summary())).into_response(),
        Err(_) => refused(
            StatusCode::GATEWAY_TIMEOUT,
            format!(
                "board {name} was not turned within {} s",
                TAKEN_WITHIN.as_secs()
            ),
        ),
    }
}

/// What the operator asks of a board's game, read from a request's body.
struct Asked {
    /// What the board's runner is handed.
    control: Control,
    /// The event that says the game has taken it.
    taken: fn(&EventKind) -> bool,
    /// What the game must be in for it.
    needs: Needs,
}

/// What a board's game must be in for an action.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Needs {
    /// Started and not over.
    InProgress,
    /// Started and not over, with a clock.
    Clock,
    /// Started (a game over may still be noted on).
    Started,
    /// Anything: a game not yet started, or over.
    Nothing,
    /// Started and not over, with more plies than this.
    PliesAbove(u32),
}

/// The result `body` declares, or why it declares none.
fn declared(body: &str) -> Result<Asked, String> {
    let declared = Declared::from_words(body.split_whitespace())
        .ok_or_else(|| format!("`{}` declares no result: declare {WORDS}", excerpt(body)))?;
    Ok(Asked {
        control: Control::Declare(declared),
        taken: |kind| matches!(kind, EventKind::Result(_)),
        needs: Needs::InProgress,
    })
}

/// The time `body` gives (`black 120000`), or why it gives none.
fn time_given(body: &str) -> Result<Asked, String> {
    let words: Vec<&str> = body.split_whitespace().collect();
    let given = match words.as_slice() {
        [side, ms] => side
            .parse::<Color>()
            .ok()
            .zip(ms.parse::<Millis>().ok().filter(|ms| *ms > 0)),
        _ => None,
    };
    let (color, ms) = given.ok_or_else(|| {
        format!(
            "`{}` gives no time: give `white|black MS` (ms more, above 0)",
            excerpt(body)
        )
    })?;
    Ok(Asked {
        control: Control::AddTime(color, ms),
        taken: |kind| matches!(kind, EventKind::TimeAdded { .. }),
        needs: Needs::Clock,
    })
}

/// The times `body` sets (`5400000 5280000`: White's, then Black's, in ms), or why it sets
/// none.
fn clock_set(body: &str) -> Result<Asked, String> {
    let words: Vec<&str> = body.split_whitespace().collect();
    let times = match words.as_slice() {
        [white, black] => white.parse().ok().zip(black.parse().ok()),
        _ => None,
    };
    let (white, black) = times.ok_or_else(|| {
        format!(
            "`{}` sets no times: give White's and Black's in ms (`5400000 5280000`)",
            excerpt(body)
        )
    })?;
    Ok(Asked {
        control: Control::SetClock(ClockTimes { white, black }),
        taken: |kind| matches!(kind, EventKind::ClockSet { .. }),
        needs: Needs::Clock,
    })
}

/// The note `body` makes, on one line, or why it makes none.
fn noted(body: &str) -> Result<Asked, String> {
    let text = one_line(body);
    if text.is_empty() {
        return Err("the note is empty".to_owned());
    }
    Ok(Asked {
        control: Control::Note(text),
        taken: |kind| matches!(kind, EventKind::Note { .. }),
        needs: Needs::Started,
    })
}

/// The tag `body` names (`white Carlsen, Magnus`), or why it names none.
fn tagged(body: &str) -> Result<Asked, String> {
    let body = one_line(body);
    let (word, value) = body.split_once(' ').unwrap_or((body.as_str(), ""));
    let tag: TagName = word
        .parse()
        .map_err(|error: UnknownTag| error.to_string())?;
    Ok(Asked {
        control: Control::Tag(tag, value.trim().to_owned()),
        taken: |kind| matches!(kind, EventKind::Tag { .. }),
        needs: Needs::Nothing,
    })
}

/// The ply `body` reinstates the position after, or why it names none.
fn reinstated(body: &str) -> Result<Asked, String> {
    let ply = body.trim().parse::<u32>().map_err(|_| {
        format!(
            "`{}` is no ply: give the number of plies that stand (0: the start)",
            excerpt(body)
        )
    })?;
    Ok(Asked {
        control: Control::Reinstate(ply),
        taken: |kind| matches!(kind, EventKind::Reinstated { .. }),
        needs: Needs::PliesAbove(ply),
    })
}

/// Carries out `asked` on board `name`: `404` for no such board, `400` for a body that asks
/// nothing, `409` for a game not in the state the action needs; else [`act`].
async fn operate(overview: &Overview, name: &str, asked: Result<Asked, String>) -> Response {
    let Some(board) = overview.board(name) else {
        return refused(StatusCode::NOT_FOUND, format!("no board is called {name}"));
    };
    let asked = match asked {
        Ok(asked) => asked,
        Err(why) => return refused(StatusCode::BAD_REQUEST, why),
    };
    let conflict = conflict(&board.summary(), asked.needs);
    if let Some(conflict) = conflict {
        return refused(
            StatusCode::CONFLICT,
            format!("board {name}'s game {conflict}"),
        );
    }
    act(&board, name, asked.control, asked.taken).await
}

/// Why a game in the state `summary` says cannot take an action that `needs` that, if it
/// cannot.
fn conflict(summary: &BoardSummary, needs: Needs) -> Option<String> {
    if needs == Needs::Nothing {
        return None;
    }
    if !summary.started {
        return Some("has not started".to_owned());
    }
    if let Some(result) = summary.result.as_ref().filter(|_| needs != Needs::Started) {
        return Some(format!("is over already ({result})"));
    }
    match needs {
        Needs::Clock if summary.clock.is_none() => Some("has no clock".to_owned()),
        Needs::PliesAbove(ply) if summary.ply <= ply => {
            Some(format!("stands at ply {}, not after {ply}", summary.ply))
        }
        _ => None,
    }
}

/// Hands `control` to board `name`'s runner and answers with the board's state once its game
/// has published an event that `taken` recognises.
async fn act(
    board: &BoardHandle,
    name: &str,
    control: Control,
    taken: impl Fn(&EventKind) -> bool,
) -> Response {
    let (_, mut published) = board.follow();
    if !board.control(control) {
        return refused(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("board {name} is no longer watched"),
        );
    }
    let seen = tokio::time::timeout(TAKEN_WITHIN, async {
        loop {
            match published.recv().await {
                Ok(event) if event.event.game().is_some_and(&taken) => return Ok(()),
                Ok(event) => {
                    if let StreamKind::Refused(refusal) = event.event.kind {
                        return Err(Some(refusal.why));
                    }
                }
                Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return Err(None),
            }
        }
    })
    .await;
    match seen {
        Ok(Ok(())) => (StatusCode::OK, Json(board.summary())).into_response(),
        Ok(Err(Some(why))) => refused(StatusCode::CONFLICT, format!("board {name}'s clock: {why}")),
        _ => refused(
            StatusCode::GATEWAY_TIMEOUT,
            format!(
                "board {name}'s game did not take it within {} s",
                TAKEN_WITHIN.as_secs()
            ),
        ),
    }
}

fn refused(status: StatusCode, why: String) -> Response {
    (status, format!("{why}\n")).into_response()
}
