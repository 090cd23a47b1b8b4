//! The web side of `serve`: the pages (every asset built into the binary) and the API they use,
//! documented in `docs/serve.md`.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Extension, Path, State};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Json, Response};
use axum::routing::{get, post};
use futures_util::stream::{self, Stream, StreamExt};
use tokio::sync::broadcast::error::RecvError;

use touchmove_core::stream::StreamEvent;
use touchmove_spectators::broadcast::PushStatus;
use touchmove_spectators::watched::BoardSummary;

use super::access::Viewer;
use super::board::Overview;

/// The shortest interval between two keep-alive comments on a quiet stream.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

const OVERVIEW_PAGE: &str = include_str!("page/overview.html");
const BOARD_PAGE: &str = include_str!("page/board.html");
const STYLE: &str = include_str!("page/app.css");
const CHESS_JS: &str = include_str!("page/chess.js");
const OVERVIEW_JS: &str = include_str!("page/overview.js");
const BOARD_JS: &str = include_str!("page/board.js");
const CONSOLE_PAGE: &str = include_str!("page/console.html");
const CONSOLE_JS: &str = include_str!("page/console.js");

/// The routes.
pub fn router(overview: Arc<Overview>) -> Router {
    Router::new()
        .route("/", get(|| async { Html(OVERVIEW_PAGE) }))
        .route("/board/{name}", get(board_page))
        .route("/console", get(console_page))
        .route("/assets/{file}", get(asset))
        .route("/api/boards", get(boards))
        .route("/api/boards/{name}/events", get(events))
        .route("/api/boards/{name}/games", get(finished_games))
        .route("/api/boards/{name}/report", get(super::report::report))
        .route("/api/boards/{name}/report.svg", get(super::report::chart))
        .route("/api/boards/{name}/report.html", get(super::report::page))
        .route("/api/stats", get(stats))
        .route("/api/stats/reset", post(reset_stats))
        // The guard lets only the operator's token through (`access::is_operator_action`).
        .route(
            super::access::OPERATOR_CHECK,
            get(|| async { Json(serde_json::json!({"operator": true})) }),
        )
        .route("/games.pgn", get(games_pgn))
        .route("/boards/{file}", get(board_pgn))
        .route(
            "/api/boards/{name}/result",
            limited(post(super::results::declare), super::results::BODY_LIMIT),
        )
        .route(
            "/api/boards/{name}/time",
            limited(post(super::results::add_time), super::results::BODY_LIMIT),
        )
        .route(
            "/api/boards/{name}/note",
            limited(post(super::results::note), super::results::NOTE_LIMIT),
        )
        .route(
            "/api/boards/{name}/tag",
            limited(post(super::results::tag), super::results::NOTE_LIMIT),
        )
        .route(
            "/api/boards/{name}/clock",
            limited(post(super::results::set_clock), super::results::BODY_LIMIT),
        )
        .route(
            "/api/boards/{name}/flip",
            limited(post(super::results::flip), super::results::BODY_LIMIT),
        )
        .route(
            "/api/boards/{name}/reinstate",
            limited(post(super::results::reinstate), super::results::BODY_LIMIT),
        )
        .with_state(Arc::clone(&overview))
        .route(
            "/api/boards/{name}/online/{*request}",
            post(super::requests::online_request),
        )
        .route(
            "/api/boards/{name}/hint",
            post(super::requests::hint_request),
        )
        .route(
            "/api/boards/{name}/play-on",
            post(super::requests::play_on_request),
        )
        .with_state((overview, Arc::new(super::requests::Paced::default())))
}

/// `route` with a body of at most `limit` bytes: a longer one is refused `413` saying so, in
/// touchmove's words rather than the framework's.
fn limited<S: Clone + Send + Sync + 'static>(
    route: axum::routing::MethodRouter<S>,
    limit: usize,
) -> axum::routing::MethodRouter<S> {
    let said = move |response: Response| {
        std::future::ready(if response.status() == StatusCode::PAYLOAD_TOO_LARGE {
            (
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the request's body is over its limit of {limit} bytes\n"),
            )
                .into_response()
        } else {
            response
        })
    };
    route
        .layer(DefaultBodyLimit::max(limit))
        .layer(axum::middleware::map_response(said))
}

/// `/board/NAME`: the board page (it reads its board's name from its address).
async fn board_page(State(overview): State<Arc<Overview>>, Path(name): Path<String>) -> Response {
    match overview.board(&name) {
        // The page writes moves as the overview's notation says (its body's `data-notation`).
        Some(_) => Html(BOARD_PAGE.replace(
            "data-notation=\"san\"",
            &format!("data-notation=\"{}\"", overview.notation),
        ))
        .into_response(),
        None => not_found(&format!("no board is called {name}")),
    }
}

/// `/console`: the arbiter's console, with `serve --console` (its actions need the operator's
/// token, which the page asks for).
async fn console_page(State(overview): State<Arc<Overview>>) -> Response {
    if overview.console {
        Html(CONSOLE_PAGE).into_response()
    } else {
        not_found("no console here: start serve with --console")
    }
}

/// The page's style and scripts.
async fn asset(Path(file): Path<String>) -> Response {
    let (kind, body) = match file.as_str() {
        "app.css" => ("text/css; charset=utf-8", STYLE),
        "chess.js" => ("text/javascript; charset=utf-8", CHESS_JS),
        "overview.js" => ("text/javascript; charset=utf-8", OVERVIEW_JS),
        "board.js" => ("text/javascript; charset=utf-8", BOARD_JS),
        "console.js" => ("text/javascript; charset=utf-8", CONSOLE_JS),
        _ => return not_found("no such asset"),
    };
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// One board of `/api/boards`: its summary, and its pushes with `--lichess-round`.
#[derive(serde::Serialize)]
struct Listed {
    #[serde(flatten)]
    summary: BoardSummary,
    #[serde(skip_serializing_if = "Option::is_none")]
    push: Option<PushStatus>,
}

/// `/api/boards`: every board's summary, in board order, as the viewer sees it.
async fn boards(
    State(overview): State<Arc<Overview>>,
    Extension(viewer): Extension<Viewer>,
) -> Json<Vec<Listed>> {
    Json(
        overview
            .boards()
            .iter()
            .map(|board| Listed {
                summary: overview.summary_for(board, viewer),
                push: overview.push_status(&board.name),
            })
            .collect(),
    )
}

/// `/api/boards/NAME/events`: the current game's events from its start, then as they come
/// (to the public, as late as `--public-delay` says).
async fn events(
    State(overview): State<Arc<Overview>>,
    Extension(viewer): Extension<Viewer>,
    Path(name): Path<String>,
) -> Response {
    let Some(board) = overview.board(&name) else {
        return not_found(&format!("no board is called {name}"));
    };
    let (backlog, receiver) = board.follow_for(viewer);
    overview.stats.sent_backlog(backlog.len() as u64);
    let head = stream::iter(backlog).map(sse_event);
    let number = overview.stats.next_stream();
    let open = OpenStream::new(overview);
    let tail = stream::unfold((receiver, open), |(mut receiver, open)| async move {
        match receiver.recv().await {
            Ok(published) => {
                open.0.stats.sent_live(published.origin.elapsed());
                Some((sse_event(published.event), (receiver, open)))
            }
            // Fallen behind: the stream ends, and the page reading it again starts over.
            Err(RecvError::Lagged(n)) => {
                open.0.stats.lost(n);
                None
            }
            Err(RecvError::Closed) => None,
        }
    });
    sse(head.chain(tail), number).into_response()
}

/// `POST /api/stats/reset`: the figures start again (a benchmark's window).
async fn reset_stats(State(overview): State<Arc<Overview>>) -> StatusCode {
    overview.stats.reset();
    StatusCode::NO_CONTENT
}

/// Counts a stream as open while it lives.
struct OpenStream(Arc<Overview>);

impl OpenStream {
    fn new(overview: Arc<Overview>) -> OpenStream {
        overview.stats.opened();
        OpenStream(overview)
    }
}

impl Drop for OpenStream {
    fn drop(&mut self) {
        self.0.stats.closed();
    }
}

/// `/api/stats`: what the streams delivered, and how fast; with `--public-delay`, the
/// operator's only (the counts move with the live games).
async fn stats(
    State(overview): State<Arc<Overview>>,
    Extension(viewer): Extension<Viewer>,
) -> Response {
    if overview.public_delay.is_some() && viewer == Viewer::Public {
        return (
            StatusCode::UNAUTHORIZED,
            "with --public-delay the stats are the operator's: send the operator's token\n",
        )
            .into_response();
    }
    Json(overview.stats.report()).into_response()
}

/// Stream number `number` of `events`.
fn sse(
    events: impl Stream<Item = Result<Event, Infallible>> + Send + 'static,
    number: u64,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    // Streams opened together would all send their keep-alive in the same millisecond, every
    // time: each stream's interval is 15 s plus up to a second, so that they drift apart.
    let interval = KEEP_ALIVE + Duration::from_millis(number % 1000);
    Sse::new(events).keep_alive(KeepAlive::new().interval(interval))
}

/// One game event as a Server-Sent Event: its JSON on one `data:` line.
fn sse_event(event: StreamEvent) -> Result<Event, Infallible> {
    let json = serde_json::to_string(&event).unwrap_or_default();
    Ok(Event::default().data(json))
}

/// `/api/boards/NAME/games`: the board's finished games in this session, oldest first, each
/// `{"white", "black", "result", "pgn"}` (as the viewer sees them: late for the public with
/// `--public-delay`).
async fn finished_games(
    State(overview): State<Arc<Overview>>,
    Extension(viewer): Extension<Viewer>,
    Path(name): Path<String>,
) -> Response {
    let Some(board) = overview.board(&name) else {
        return not_found(&format!("no board is called {name}"));
    };
    let mut games = board.games_for(viewer);
    // The last is the current game.
    games.pop();
    let games: Vec<serde_json::Value> = games
        .iter()
        .map(|pgn| {
            serde_json::json!({
                "white": pgn_tag(pgn, "White"),
                "black": pgn_tag(pgn, "Black"),
                "result": pgn_tag(pgn, "Result"),
                "pgn": pgn,
            })
        })
        .collect();
    Json(games).into_response()
}

/// The value of tag `name` in the PGN `pgn` (its first game), if it has one.
fn pgn_tag<'a>(pgn: &'a str, name: &str) -> Option<&'a str> {
    let opening = format!("[{name} \"");
    pgn.lines()
        .find_map(|line| line.strip_prefix(opening.as_str()))
        .and_then(|rest| rest.strip_suffix("\"]"))
}

/// `/games.pgn`: every board's current game, in board order, separated by a blank line.
async fn games_pgn(
    State(overview): State<Arc<Overview>>,
    Extension(viewer): Extension<Viewer>,
) -> Response {
    let games: Vec<String> = overview
        .boards()
        .iter()
        .map(|board| board.pgn_for(viewer))
        .collect();
    pgn_response(games.join("\n"))
}

/// `/boards/NAME.pgn`: one board's current game.
async fn board_pgn(
    State(overview): State<Arc<Overview>>,
    Extension(viewer): Extension<Viewer>,
    Path(file): Path<String>,
) -> Response {
    let Some(name) = file.strip_suffix(".pgn") else {
        return not_found("no such file");
    };
    match overview.board(name) {
        Some(board) => pgn_response(board.pgn_for(viewer)),
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
