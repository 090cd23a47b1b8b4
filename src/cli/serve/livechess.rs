//! `serve --livechess`: the hall's boards through DGT LiveChess's local API
//! (`GET /api/v1.0/eboards`, the WebSocket at `/api/v1.0`), for the tools that read e-boards
//! through LiveChess. The calls and messages are the library's (`touchmove::livechess`); this
//! is the thin loop around them: one task per connection, one per feed.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::get;
use futures_util::{SinkExt, StreamExt};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use touchmove::live::runner::Control;
use touchmove::livechess::{
    BoardView, Call, Eboard, Feed, Request, call_response, error_response, feed_message, parse_call,
};

use super::board::{BoardHandle, Hall};

/// The routes of the LiveChess API.
pub fn router(hall: Arc<Hall>) -> Router {
    Router::new()
        .route("/api/v1.0/eboards", get(eboards))
        .route("/api/v1.0", get(upgrade))
        .with_state(hall)
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
    BoardView::of(&board.lock(), summary)
}

/// Every board, in board order.
fn all_eboards(hall: &Hall) -> Vec<Eboard> {
    let now = unix_ms();
    hall.boards()
        .iter()
        .map(|board| Eboard::new(&view(board), now))
        .collect()
}

/// `GET /api/v1.0/eboards`.
async fn eboards(State(hall): State<Arc<Hall>>) -> Json<Vec<Eboard>> {
    Json(all_eboards(&hall))
}

/// `/api/v1.0`: the WebSocket.
async fn upgrade(State(hall): State<Arc<Hall>>, upgrade: WebSocketUpgrade) -> Response {
    upgrade
        .on_upgrade(move |socket| connection(hall, socket))
        .into_response()
}

/// A subscribed feed: its board and the task that sends its messages.
struct Subscription {
    board: Arc<BoardHandle>,
    task: JoinHandle<()>,
}

/// One client, until it goes.
async fn connection(hall: Arc<Hall>, socket: WebSocket) {
    let (mut to_client, mut from_client) = socket.split();
    let (out, mut outgoing) = mpsc::unbounded_channel::<String>();
    let writer = tokio::spawn(async move {
        while let Some(text) = outgoing.recv().await {
            if to_client.send(Message::Text(text.into())).await.is_err() {
                break;
            }
        }
    });
    let mut client = Client {
        hall,
        out,
        feeds: HashMap::new(),
    };
    while let Some(Ok(message)) = from_client.next().await {
        match message {
            Message::Text(text) => client.call(text.as_str()),
            Message::Close(_) => break,
            // Pings are answered by the socket itself; binary messages are no calls.
            _ => {}
        }
    }
    for subscription in client.feeds.into_values() {
        subscription.task.abort();
    }
    writer.abort();
}

/// What one client has asked for.
struct Client {
    hall: Arc<Hall>,
    out: mpsc::UnboundedSender<String>,
    feeds: HashMap<i64, Subscription>,
}

impl Client {
    fn send(&self, text: String) {
        // The writer is gone only when the client is.
        let _ = self.out.send(text);
    }

    /// Answers one call.
    fn call(&mut self, text: &str) {
        let answer = match parse_call(text) {
            Ok(request) => self.answer(request),
            Err(error) => Err((error.id(), error.to_string())),
        };
        if let Err((id, message)) = answer {
            tracing::debug!(?id, %message, "livechess call refused");
            self.send(error_response(id, &message, unix_ms()));
        }
    }

    fn answer(&mut self, request: Request) -> Result<(), (Option<i64>, String)> {
        let id = request.id;
        let refuse = |message: String| (Some(id), message);
        match request.call {
            Call::Eboards => {
                self.send(call_response(id, &all_eboards(&self.hall), unix_ms()));
                return Ok(());
            }
            Call::Subscribe { feed, serialnr } => {
                if self.feeds.contains_key(&feed) {
                    return Err(refuse(format!("feed {feed} is already subscribed")));
                }
                let board = self
                    .hall
                    .board(&serialnr)
                    .ok_or_else(|| refuse(format!("no eboard has serialnr {serialnr}")))?;
                // The answer goes before the feed's first message.
                self.send(call_response(id, &(), unix_ms()));
                let task = tokio::spawn(follow(Arc::clone(&board), feed, self.out.clone()));
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
                let start = position(&fen).map_err(refuse)?;
                self.control(id, feed, Control::SetUp(start))?;
            }
            Call::Flip { feed, flipped } => {
                let board = self.board_of(id, feed)?;
                let flipped = flipped.unwrap_or_else(|| !board.lock().summary().flipped);
                self.control(id, feed, Control::Flip(flipped))?;
            }
        }
        self.send(call_response(id, &(), unix_ms()));
        Ok(())
    }

    fn board_of(&self, id: i64, feed: i64) -> Result<Arc<BoardHandle>, (Option<i64>, String)> {
        self.feeds
            .get(&feed)
            .map(|subscription| Arc::clone(&subscription.board))
            .ok_or_else(|| (Some(id), format!("no feed {feed} is subscribed")))
    }

    fn control(&self, id: i64, feed: i64, control: Control) -> Result<(), (Option<i64>, String)> {
        let board = self.board_of(id, feed)?;
        if board.control(control) {
            Ok(())
        } else {
            Err((
                Some(id),
                format!("eboard {} is no longer watched", board.name),
            ))
        }
    }
}

/// The position of `setup`'s `fen`: a whole FEN, or a piece placement alone (White to move).
fn position(fen: &str) -> Result<Chess, String> {
    let parsed = Fen::from_ascii(fen.trim().as_bytes())
        .map_err(|error| format!("setup: `{fen}` is no FEN: {error}"))?;
    parsed
        .into_position(CastlingMode::Standard)
        .map_err(|error| format!("setup: `{fen}` is no position a game can start from: {error}"))
}

/// Sends feed `feed`'s messages: the board as it stands now, then at each of its changes
/// (changes that come while a message is being made are taken together).
async fn follow(board: Arc<BoardHandle>, feed: i64, out: mpsc::UnboundedSender<String>) {
    let mut changes = board.changes();
    let mut said = Feed::new();
    loop {
        changes.mark_unchanged();
        let now = unix_ms();
        if let Some(event) = said.update(&view(&board), now)
            && out.send(feed_message(feed, &event, now)).is_err()
        {
            return;
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
