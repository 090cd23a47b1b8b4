//! `POST /api/boards/NAME/result`: the operator declares the result of a board's game that no
//! sensor sees (a draw agreed, a claim upheld, a resignation, a default, the arbiter's penalty
//! or decision). The access guard has already checked the operator's token; here, what is
//! declared, and the answer: the board's new state once its game has taken the result.

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use tokio::sync::broadcast::error::RecvError;

use touchmove::event::EventKind;
use touchmove::output::excerpt::excerpt;
use touchmove::rules::Declared;
use touchmove::runner::Control;

use super::board::Overview;

/// The longest the answer waits for the board's game to take the result (its runner takes it
/// between two reports, at once on an idle machine).
const TAKEN_WITHIN: Duration = Duration::from_secs(10);

/// The longest body read: the longest declaration is a few words.
pub const BODY_LIMIT: usize = 64;

/// What may be declared, for the answer to a body that declares nothing.
const WORDS: &str = "draw-agreed, claim threefold, claim fifty-moves, resigned white|black, \
                     default white|black, penalty white|black, adjudicated 1-0|0-1|1/2-1/2";

/// Declares `body` (the declaration in words, as the recording writes it) for board `name`:
/// answered `200` with the board's summary once its game has ended with it; `400` for words
/// that declare nothing, `404` for no such board, `409` for a board with no game in progress.
pub async fn declare(
    State(overview): State<Arc<Overview>>,
    Path(name): Path<String>,
    body: String,
) -> Response {
    let Some(board) = overview.board(&name) else {
        return refused(StatusCode::NOT_FOUND, format!("no board is called {name}"));
    };
    let Some(declared) = Declared::from_words(body.split_whitespace()) else {
        return refused(
            StatusCode::BAD_REQUEST,
            format!("`{}` declares no result: declare {WORDS}", excerpt(&body)),
        );
    };
    let summary = board.summary();
    if !summary.started {
        return refused(
            StatusCode::CONFLICT,
            format!("board {name}'s game has not started"),
        );
    }
    if let Some(result) = summary.result {
        return refused(
            StatusCode::CONFLICT,
            format!("board {name}'s game is over already ({result})"),
        );
    }
    let (_, mut published) = board.follow();
    if !board.control(Control::Declare(declared)) {
        return refused(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("board {name} is no longer watched"),
        );
    }
    let taken = tokio::time::timeout(TAKEN_WITHIN, async {
        loop {
            match published.recv().await {
                Ok(event) if matches!(event.event.game(), Some(EventKind::Result(_))) => {
                    return true;
                }
                Ok(_) => {}
                // Fallen behind: the result may have gone by.
                Err(RecvError::Lagged(_)) if board.summary().result.is_some() => return true,
                Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return false,
            }
        }
    })
    .await;
    match taken {
        Ok(true) => (StatusCode::OK, Json(board.summary())).into_response(),
        _ => refused(
            StatusCode::GATEWAY_TIMEOUT,
            format!(
                "board {name}'s game did not take the result within {} s",
                TAKEN_WITHIN.as_secs()
            ),
        ),
    }
}

fn refused(status: StatusCode, why: String) -> Response {
    (status, format!("{why}\n")).into_response()
}
