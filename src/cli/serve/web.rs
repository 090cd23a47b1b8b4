//! The web side of `serve`: the pages (every asset built into the binary) and the API they use,
//! documented in `docs/serve.md`.

use std::convert::Infallible;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Json, Response};
use axum::routing::get;
use futures_util::stream::{self, Stream, StreamExt};
use tokio::sync::broadcast::error::RecvError;

use touchmove::event::GameEvent;
use touchmove::live::BoardSummary;

use super::board::Hall;

const HALL_PAGE: &str = include_str!("page/hall.html");
const BOARD_PAGE: &str = include_str!("page/board.html");
const STYLE: &str = include_str!("page/app.css");
const CHESS_JS: &str = include_str!("page/chess.js");
const HALL_JS: &str = include_str!("page/hall.js");
const BOARD_JS: &str = include_str!("page/board.js");

/// The routes.
pub fn router(hall: Arc<Hall>) -> Router {
    Router::new()
        .route("/", get(|| async { Html(HALL_PAGE) }))
        .route("/board/{name}", get(board_page))
        .route("/assets/{file}", get(asset))
        .route("/api/boards", get(boards))
        .route("/api/boards/{name}/events", get(events))
        .route("/games.pgn", get(games_pgn))
        .route("/boards/{file}", get(board_pgn))
        .with_state(hall)
}

/// `/board/NAME`: the board page (it reads its board's name from its address).
async fn board_page(State(hall): State<Arc<Hall>>, Path(name): Path<String>) -> Response {
    match hall.board(&name) {
        Some(_) => Html(BOARD_PAGE).into_response(),
        None => not_found(&format!("no board is called {name}")),
    }
}

/// The page's style and scripts.
async fn asset(Path(file): Path<String>) -> Response {
    let (kind, body) = match file.as_str() {
        "app.css" => ("text/css; charset=utf-8", STYLE),
        "chess.js" => ("text/javascript; charset=utf-8", CHESS_JS),
        "hall.js" => ("text/javascript; charset=utf-8", HALL_JS),
        "board.js" => ("text/javascript; charset=utf-8", BOARD_JS),
        _ => return not_found("no such asset"),
    };
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// `/api/boards`: every board's summary, in board order.
async fn boards(State(hall): State<Arc<Hall>>) -> Json<Vec<BoardSummary>> {
    Json(hall.boards().iter().map(|board| board.summary()).collect())
}

/// `/api/boards/NAME/events`: the current game's events from its start, then live.
async fn events(State(hall): State<Arc<Hall>>, Path(name): Path<String>) -> Response {
    let Some(board) = hall.board(&name) else {
        return not_found(&format!("no board is called {name}"));
    };
    let (backlog, receiver) = board.follow();
    let head = stream::iter(backlog).map(sse_event);
    let tail = stream::unfold(receiver, |mut receiver| async move {
        match receiver.recv().await {
            Ok(event) => Some((sse_event(event), receiver)),
            // Fallen behind: the stream ends, and the page reading it again starts over.
            Err(RecvError::Lagged(_) | RecvError::Closed) => None,
        }
    });
    sse(head.chain(tail)).into_response()
}

fn sse(
    events: impl Stream<Item = Result<Event, Infallible>> + Send + 'static,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    Sse::new(events).keep_alive(KeepAlive::default())
}

/// One game event as a Server-Sent Event: its JSON on one `data:` line.
fn sse_event(event: GameEvent) -> Result<Event, Infallible> {
    let json = serde_json::to_string(&event).unwrap_or_default();
    Ok(Event::default().data(json))
}

/// `/games.pgn`: every board's current game, in board order, separated by a blank line.
async fn games_pgn(State(hall): State<Arc<Hall>>) -> Response {
    let games: Vec<String> = hall
        .boards()
        .iter()
        .map(|board| board.lock().pgn())
        .collect();
    pgn_response(games.join("\n"))
}

/// `/boards/NAME.pgn`: one board's current game.
async fn board_pgn(State(hall): State<Arc<Hall>>, Path(file): Path<String>) -> Response {
    let Some(name) = file.strip_suffix(".pgn") else {
        return not_found("no such file");
    };
    match hall.board(name) {
        Some(board) => pgn_response(board.lock().pgn()),
        None => not_found(&format!("no board is called {name}")),
    }
}

fn pgn_response(text: String) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            "application/x-chess-pgn; charset=utf-8",
        )],
        text,
    )
        .into_response()
}

fn not_found(text: &str) -> Response {
    (StatusCode::NOT_FOUND, text.to_owned()).into_response()
}
