//! `serve --livechess`: the overview's boards through DGT LiveChess's local API
//! (`GET /api/v1.0/eboards`, the WebSocket at `/api/v1.0`), for the tools that read e-boards
//! through LiveChess. The calls and messages are the library's
//! (`touchmove_spectators::livechess`); this is the thin loop around them: one task per connection, one per feed.
//!
//! What one client may cost is bounded: the messages waiting for it ([`OUTGOING`]: a client
//! that falls further behind, or takes nothing for [`WRITE_LIMIT`], is dropped, as a lagging
//! stream is), the size of what it sends
//! ([`MAX_MESSAGE`]), its feeds (`max_feeds`), its calls per second ([`CALLS_PER_SECOND`],
//! an `eboards` counting as one call per 50 boards: faster ones wait), the clients at once
//! ([`MAX_CLIENTS`]), and its silence (pinged every [`PING_EVERY`], dropped when nothing is
//! heard for [`SILENT_LIMIT`]). Only the operator changes a game (`access`): `setup` and
//! `flip` need what the upgrade's request was checked for, and a board is set up at most
//! once a second ([`board::SETUP_INTERVAL`]).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{RawQuery, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Json, Response};
use axum::routing::get;
use futures_util::{SinkExt, StreamExt};
use shakmaty::Chess;
use shakmaty::fen::Fen;
use tokio::sync::{Notify, mpsc};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use touchmove_core::output::excerpt::excerpt;
use touchmove_runtime::runner::Control;
use touchmove_spectators::livechess::{
    BoardView, Call, CallId, Eboard, Feed, Request, Source, call_response, error_response,
    feed_gone, feed_message, parse_call,
};

use crate::access::Access;
use crate::board::{self, BoardHandle, Overview};

/// How many messages may wait for a client; one that falls further behind is dropped.
pub const OUTGOING: usize = 64;

/// The largest message (and frame) a client may send: a call with a FEN is far smaller.
pub const MAX_MESSAGE: usize = 16 * 1024;

/// How many calls a second a client may make on average; a burst of twice as many is taken.
pub const CALLS_PER_SECOND: f64 = 20.0;

/// How long a message may wait for a client to take it; a client that takes nothing for this
/// long has fallen behind and is dropped (while its writes are stuck, its calls cannot be read
/// either, so its queue alone would not fill).
pub const WRITE_LIMIT: Duration = Duration::from_secs(10);

/// How often a client is pinged.
pub const PING_EVERY: Duration = Duration::from_secs(30);

/// A client heard from for this long (not even a pong) is dropped.
pub const SILENT_LIMIT: Duration = Duration::from_secs(90);

/// How many clients the LiveChess API serves at once; one more is answered 503.
pub const MAX_CLIENTS: usize = 128;

/// How many feeds one connection may have: two per board, and at least 64.
fn max_feeds(boards: usize) -> usize {
    boards.saturating_mul(2).max(64)
}

/// What the LiveChess API's routes share.
#[derive(Clone)]
struct LiveChess {
    overview: Arc<Overview>,
    access: Access,
    /// One permit per client connected.
    clients: Arc<tokio::sync::Semaphore>,
}

/// The routes of the LiveChess API, under `access`'s rules.
pub fn router(overview: Arc<Overview>, access: Access) -> Router {
    Router::new()
        .route("/api/v1.0/eboards", get(eboards))
        .route("/api/v1.0", get(upgrade))
        .with_state(LiveChess {
            overview,
            access,
            clients: Arc::new(tokio::sync::Semaphore::new(MAX_CLIENTS)),
        })
}

/// Milliseconds since the Unix epoch, as LiveChess stamps what it sends.
fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| {
            u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
        })
}

/// A board's view now.
fn view(board: &BoardHandle) -> BoardView {
    let summary = board.summary();
    let set_up = board.set_up_by_a_tool(summary.game);
    BoardView {
        set_up,
        ..BoardView::of(&board.lock(), summary)
    }
}

/// Every board, in board order.
fn all_eboards(overview: &Overview) -> Vec<Eboard> {
    let now = unix_ms();
    overview
        .boards()
        .iter()
        .map(|board| Eboard::new(&view(board), now))
        .collect()
}

/// `GET /api/v1.0/eboards`.
async fn eboards(State(state): State<LiveChess>) -> Json<Vec<Eboard>> {
    Json(all_eboards(&state.overview))
}

/// `/api/v1.0`: the WebSocket (its host and origin already checked by the access rules; whether
/// its calls may change a game is decided here, from the upgrade's token).
async fn upgrade(
    State(state): State<LiveChess>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    upgrade: WebSocketUpgrade,
) -> Response {
    let Ok(permit) = Arc::clone(&state.clients).try_acquire_owned() else {
        return (
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            format!("the LiveChess API serves {MAX_CLIENTS} clients at most; try again later\n"),
        )
            .into_response();
    };
    let may_change = state
        .access
        .may_change(&headers, query.as_deref())
        .map_err(|refusal| refusal.to_string());
    upgrade
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| async move {
            connection(state.overview, socket, may_change).await;
            drop(permit);
        })
        .into_response()
}

/// A subscribed feed: its board and the task that sends its messages.
struct Subscription {
    board: Arc<BoardHandle>,
    task: JoinHandle<()>,
}

/// The way to a client: a bounded queue, and the alarm of a client that fell behind.
#[derive(Clone)]
struct Outgoing {
    queue: mpsc::Sender<Message>,
    behind: Arc<Notify>,
}

impl Outgoing {
    /// Queues `message`; a client whose queue is full has fallen behind: the alarm goes.
    /// Returns whether the message was queued.
    fn send(&self, message: Message) -> bool {
        match self.queue.try_send(message) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.behind.notify_one();
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }
}

/// One client, until it goes, falls behind or falls silent.
async fn connection(overview: Arc<Overview>, socket: WebSocket, may_change: Result<(), String>) {
    let (mut to_client, mut from_client) = socket.split();
    let (queue, mut queued) = mpsc::channel::<Message>(OUTGOING);
    let behind = Arc::new(Notify::new());
    let stuck = Arc::clone(&behind);
    let writer = tokio::spawn(async move {
        while let Some(message) = queued.recv().await {
            match tokio::time::timeout(WRITE_LIMIT, to_client.send(message)).await {
                Ok(Ok(())) => {}
                Ok(Err(_)) => break,
                // The client takes nothing: it has fallen behind.
                Err(_) => {
                    stuck.notify_one();
                    break;
                }
            }
        }
    });
    let mut client = Client {
        overview,
        out: Outgoing {
            queue,
            behind: Arc::clone(&behind),
        },
        feeds: HashMap::new(),
        may_change,
    };
    let mut pace = Pace::new(CALLS_PER_SECOND);
    let mut ping = tokio::time::interval_at(Instant::now() + PING_EVERY, PING_EVERY);
    let mut heard = Instant::now();
    loop {
        tokio::select! {
            message = from_client.next() => {
                let Some(Ok(message)) = message else { break };
                heard = Instant::now();
                match message {
                    Message::Text(text) => {
                        pace.wait(cost(text.as_str(), client.overview.len())).await;
                        client.call(text.as_str());
                    }
                    Message::Close(_) => break,
                    // Pings are answered by the socket itself; binary messages are no calls.
                    _ => {}
                }
            }
            () = behind.notified() => {
                tracing::debug!("a LiveChess client fell behind: dropped");
                client.overview.stats.dropped();
                break;
            }
            _ = ping.tick() => {
                if heard.elapsed() >= SILENT_LIMIT {
                    tracing::debug!("a LiveChess client fell silent: dropped");
                    client.overview.stats.dropped();
                    break;
                }
                client.out.send(Message::Ping(Vec::new().into()));
            }
        }
    }
    for subscription in client.feeds.into_values() {
        subscription.task.abort();
    }
    writer.abort();
}

/// What a call costs, in calls: `eboards` answers with every board, so it counts one call
/// per [`BOARDS_PER_CALL`] boards (at 1,000 boards, about one `eboards` a second).
fn cost(text: &str, boards: usize) -> f64 {
    if text.contains("\"eboards\"") {
        1.0 + boards as f64 / BOARDS_PER_CALL
    } else {
        1.0
    }
}

/// How many boards of an `eboards` answer count as one call.
const BOARDS_PER_CALL: f64 = 50.0;

/// Calls taken at a steady pace: a bucket of `2 × rate` calls, refilled at `rate` a second.
struct Pace {
    rate: f64,
    tokens: f64,
    at: Instant,
}

impl Pace {
    fn new(rate: f64) -> Pace {
        Pace {
            rate,
            tokens: 2.0 * rate,
            at: Instant::now(),
        }
    }

    /// Waits until a call costing `cost` may be taken, and takes it.
    async fn wait(&mut self, cost: f64) {
        let now = Instant::now();
        let refill = now.duration_since(self.at).as_secs_f64() * self.rate;
        self.tokens = (self.tokens + refill).min(2.0 * self.rate);
        self.at = now;
        if self.tokens < cost {
            let short = (cost - self.tokens) / self.rate;
            tokio::time::sleep(Duration::from_secs_f64(short)).await;
            self.tokens = cost;
            self.at = Instant::now();
        }
        self.tokens -= cost;
    }
}

/// What one client has asked for.
struct Client {
    overview: Arc<Overview>,
    out: Outgoing,
    feeds: HashMap<i64, Subscription>,
    /// Whether this client may change a game (`setup`, `flip`), and if not, why.
    may_change: Result<(), String>,
}

/// A call refused: its id (when it could be read) and why.
type Refused = (Option<CallId>, String);

impl Client {
    fn send(&self, text: String) {
        self.out.send(Message::Text(text.into()));
    }

    /// Answers one call.
    fn call(&mut self, text: &str) {
        let answer = match parse_call(text) {
            Ok(request) => self.answer(request),
            Err(error) => Err((error.id(), error.to_string())),
        };
        if let Err((id, message)) = answer {
            tracing::debug!(?id, %message, "livechess call refused");
            self.send(error_response(id.as_ref(), &message, unix_ms()));
        }
    }

    fn answer(&mut self, request: Request) -> Result<(), Refused> {
        let id = request.id;
        let refuse = |message: String| (Some(id.clone()), message);
        match request.call {
            Call::Eboards => {
                self.send(call_response(&id, &all_eboards(&self.overview), unix_ms()));
                return Ok(());
            }
            Call::Sources => {
                let sources = Source::of(&all_eboards(&self.overview));
                self.send(call_response(&id, &sources, unix_ms()));
                return Ok(());
            }
            Call::Subscribe { feed, serialnr } => {
                if self.feeds.contains_key(&feed) {
                    return Err(refuse(format!("feed {feed} is already subscribed")));
                }
                let most = max_feeds(self.overview.len());
                if self.feeds.len() >= most {
                    return Err(refuse(format!(
                        "a connection may have at most {most} feeds"
                    )));
                }
                let board = self.overview.eboard(&serialnr).ok_or_else(|| {
                    refuse(format!("no eboard has serialnr {}", excerpt(&serialnr)))
                })?;
                // The answer goes before the feed's first message.
                self.send(call_response(&id, &(), unix_ms()));
                let follow = follow(Arc::clone(&board), feed, serialnr, self.out.clone());
                let task = tokio::spawn(follow);
                self.feeds.insert(feed, Subscription { board, task });
                return Ok(());
            }
            Call::Unsubscribe { feed } => {
                let subscription = self
                    .feeds
                    .remove(&feed)
                    .ok_or_else(|| refuse(format!("no feed {feed} is subscribed")))?;
                subscription.task.abort();
            }
            Call::Setup { feed, fen } => {
                self.may_change.clone().map_err(refuse)?;
                let board = self.board_of(&id, feed)?;
                let start = position(&fen).map_err(refuse)?;
                let new_game = board.try_set_up(&start).map_err(|wait| {
                    refuse(format!(
                        "setup: eboard {} was set up less than {} s ago; try again in {} ms",
                        board.name,
                        board::SETUP_INTERVAL.as_secs_f64(),
                        wait.as_millis().max(1)
                    ))
                })?;
                // The game already stands there with nothing played: it is the set-up game.
                if new_game {
                    self.control(&id, &board, Control::SetUp(start))?;
                }
            }
            Call::Flip { feed, flipped } => {
                self.may_change.clone().map_err(refuse)?;
                let board = self.board_of(&id, feed)?;
                let flipped = flipped.unwrap_or_else(|| !board.lock().summary().flipped);
                self.control(&id, &board, Control::Flip(flipped))?;
            }
        }
        self.send(call_response(&id, &(), unix_ms()));
        Ok(())
    }

    fn board_of(&self, id: &CallId, feed: i64) -> Result<Arc<BoardHandle>, Refused> {
        self.feeds
            .get(&feed)
            .map(|subscription| Arc::clone(&subscription.board))
            .ok_or_else(|| (Some(id.clone()), format!("no feed {feed} is subscribed")))
    }

    fn control(&self, id: &CallId, board: &BoardHandle, control: Control) -> Result<(), Refused> {
        if board.control(control) {
            Ok(())
        } else {
            Err((
                Some(id.clone()),
                format!("eboard {} is no longer watched", board.name),
            ))
        }
    }
}

/// The position of `setup`'s `fen`: a whole FEN, or a piece placement alone (White to move).
fn position(fen: &str) -> Result<Chess, String> {
    let shown = excerpt(fen);
    let parsed = Fen::from_ascii(fen.trim().as_bytes())
        .map_err(|error| format!("setup: `{shown}` is no FEN: {error}"))?;
    touchmove_core::rules::chess960::from_fen(&parsed)
        .map_err(|error| format!("setup: `{shown}` is no position a game can start from: {error}"))
}

/// Sends feed `feed`'s messages: the board as it stands now, then at each of its changes
/// (changes that come while a message is being made are taken together). Ends when the client
/// is gone or has fallen behind.
async fn follow(board: Arc<BoardHandle>, feed: i64, serialnr: String, out: Outgoing) {
    let mut changes = board.changes();
    let mut said = Feed::new(&serialnr);
    // Subscribed by the board's serial number: when another board answers on its port, the
    // board subscribed to is gone.
    let by_serial = board.summary().serial.as_deref() == Some(serialnr.as_str());
    loop {
        changes.mark_unchanged();
        let now = unix_ms();
        let view = view(&board);
        if let Some(other) = view
            .summary
            .serial
            .as_deref()
            .filter(|serial| by_serial && *serial != serialnr)
        {
            let message = format!(
                "eboard {serialnr} is gone: board {other} answers on its port; subscribe to \
                 {other} to follow it"
            );
            let _ = out.send(Message::Text(
                feed_gone(feed, &serialnr, &message, now).into(),
            ));
            return;
        }
        for event in said.update(&view, now) {
            if !out.send(Message::Text(feed_message(feed, &event, now).into())) {
                return;
            }
        }
        if changes.changed().await.is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::Position;

    use super::*;

    #[test]
    fn setup_takes_a_whole_fen_or_a_placement_alone() {
        let whole = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
        let position = position(whole)
            .map(|p| Fen::from_position(&p, shakmaty::EnPassantMode::Legal).to_string());
        assert_eq!(position.as_deref(), Ok(whole));
        let alone = super::position("4k3/8/8/8/8/8/8/4K2R");
        assert_eq!(alone.map(|p| p.turn()), Ok(shakmaty::Color::White));
        let said = super::position("8/8/8/8/8/8/8/8 w - - 0 1")
            .err()
            .unwrap_or_default();
        assert!(
            said.starts_with("setup: `8/8/8/8/8/8/8/8 w - - 0 1` is no position"),
            "{said}"
        );
        let said = super::position("not a fen").err().unwrap_or_default();
        assert!(said.starts_with("setup: `not a fen` is no FEN"), "{said}");
    }
}
