//! The online game's transport: the game's stream read and the game's requests sent over
//! HTTPS (`touchmove_lichess::board_api`), and what the player types or asks on the page, each
//! by a task of its own that hands what it heard to the runner (`Control::Wake`), which takes
//! it at its place among the board's reports.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use tokio::sync::{Notify, mpsc};

use touchmove_lichess::board_api::{Lichess, Lines, StreamFailure};
use touchmove_online::Answer;
use touchmove_online::lichess::ndjson::Line;
use touchmove_online::lichess::request::{Request, game_stream};
use touchmove_online::lichess::wire::{ApiError, GameFull, GameMessage};
use touchmove_runtime::runner::Control;
use touchmove_web::asked::Asked;

use super::state::{Heard, OnlineState};

/// Why an online game cannot be played at all.
#[derive(Debug, thiserror::Error)]
pub enum OnlineError {
    /// The server refuses the account's token: nothing will work.
    #[error("the server refuses the token (401): {0}")]
    Unauthorized(String),
}

/// The longest wait before a stream is opened again.
pub const BACKOFF_MAX: Duration = Duration::from_secs(60);

/// How long a request refused with 429 waits when the server does not say (`Retry-After`):
/// the API asks for a full minute.
const RATE_LIMITED: Duration = Duration::from_secs(60);

/// What the player types, shared by the games one after another.
pub type Typed = Rc<tokio::sync::Mutex<mpsc::UnboundedReceiver<Asked>>>;

/// Hands what the player types (or asks on the page) to the online game, which sends it
/// (nothing once the game is over).
pub async fn take_typed(typed: Typed, state: Rc<RefCell<OnlineState>>) {
    let mut typed = typed.lock().await;
    // Asked while no game was going on: not for this one.
    while let Ok(request) = typed.try_recv() {
        eprintln!(
            "touchmove: {} was asked while no game was going on: not sent",
            request.name()
        );
    }
    while let Some(asked) = typed.recv().await {
        let mut state = state.borrow_mut();
        match asked {
            Asked::Server(request) => {
                eprintln!("touchmove: {} asked of the server", request.name());
                state.game.request(request);
            }
            // The board's game takes it as a board's promotion button (and records it so).
            Asked::Promotion(role) if state.promotion.is_some() => {
                eprintln!("touchmove: {} chosen", asked.name());
                let _ = state.controls.send(Control::Promote(role));
            }
            Asked::Promotion(_) => {
                eprintln!(
                    "touchmove: {}: no promotion waits for its piece",
                    asked.name()
                );
            }
            // The page offers none in an online game (no engine helps a player there).
            Asked::Hint => eprintln!("touchmove: no hints in an online game"),
            Asked::PlayOn => eprintln!("touchmove: no coach in an online game"),
        }
        if let Err(error) = state.drain() {
            tracing::debug!(%error, "cannot pass on what was typed");
        }
    }
}

/// Opens game `id`'s stream and reads its first line, the whole game.
pub async fn open_game(
    lichess: &Lichess,
    id: &str,
) -> Result<(Lines, String, GameFull), OnlineError> {
    let mut backoff = Duration::from_secs(1);
    loop {
        match lichess.stream(&game_stream(id)).await {
            Ok(mut lines) => {
                lichess.reached();
                while let Some(line) = lines.next().await {
                    let Line::Text(text) = line else { continue };
                    if let Ok(GameMessage::GameFull(full)) = serde_json::from_str(&text) {
                        return Ok((lines, text, *full));
                    }
                }
            }
            Err(StreamFailure::Unauthorized(why)) => return Err(OnlineError::Unauthorized(why)),
            Err(StreamFailure::Passing(why)) => lichess.unreachable("the game's stream", &why),
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(BACKOFF_MAX);
    }
}

/// Reads the game's stream, handing each line to the runner; a cut stream (or one told to,
/// after a request whose answer was lost) is opened again, and its first line, the whole game,
/// reconciles the game with what the server has.
pub async fn read_game(
    lichess: Lichess,
    id: String,
    mut lines: Lines,
    state: Rc<RefCell<OnlineState>>,
    reopen: Rc<Notify>,
) {
    let mut backoff = Duration::from_secs(1);
    // Whether the server said the game is over: its stream, which the server then closes, is
    // not opened again, whether the board's game has taken that line yet or not (a game
    // ended before the board showed its start).
    let mut ended: Option<String> = None;
    loop {
        loop {
            let line = tokio::select! {
                line = lines.next() => line,
                () = reopen.notified() => None,
            };
            let Some(line) = line else { break };
            let Line::Text(raw) = line else { continue };
            let Ok(message) = serde_json::from_str::<GameMessage>(&raw) else {
                continue;
            };
            let said_state = match &message {
                GameMessage::GameFull(full) => Some(&full.state),
                GameMessage::GameState(game_state) => Some(game_state),
                _ => None,
            };
            if let Some(over) = said_state.filter(|said| !said.is_going_on()) {
                ended = Some(over.status.clone());
            }
            let mut state = state.borrow_mut();
            state.heard.push_back(Heard::Line { raw, message });
            let _ = state.controls.send(Control::Wake);
        }
        if let Some(status) = &ended {
            // Ended before the board showed its start: nothing was played, and the game's
            // end is said here (the board's game never took the server's lines).
            let state = state.borrow();
            if !state.started {
                eprintln!(
                    "touchmove: game {id}: the server ended it ({status}) before the board \
                     showed its starting position: nothing was played"
                );
                state.over.notify_one();
            }
            return;
        }
        if state.borrow().game.is_over() {
            return;
        }
        loop {
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(BACKOFF_MAX);
            match lichess.stream(&game_stream(&id)).await {
                Ok(opened) => {
                    lichess.reached();
                    lines = opened;
                    backoff = Duration::from_secs(1);
                    break;
                }
                Err(StreamFailure::Unauthorized(why) | StreamFailure::Passing(why)) => {
                    lichess.unreachable("the game's stream", &why);
                }
            }
        }
    }
}

/// Sends the game's requests one at a time: a 429 waits as long as the server says (the
/// minute the API asks, when it does not) and is sent again; a request whose answer was lost (the network, a 5xx) is said to the game as such, and
/// the stream is opened again, whose first line says what the server has.
pub async fn send_requests(
    lichess: Lichess,
    id: String,
    mut requests: mpsc::UnboundedReceiver<Request>,
    state: Rc<RefCell<OnlineState>>,
    reopen: Rc<Notify>,
) {
    while let Some(request) = requests.recv().await {
        let path = request.path(&id);
        let answer = loop {
            let answered = lichess.post(&path).await;
            if answered.is_ok() {
                lichess.reached();
            }
            match answered {
                Ok(reply) if (200..300).contains(&reply.status) => break Answer::Taken,
                Ok(reply) if reply.status == 429 => {
                    let wait = reply.retry_after.map_or(RATE_LIMITED, Duration::from_secs);
                    eprintln!(
                        "touchmove: lichess: too many requests (429): the {} request waits {} s",
                        request.name(),
                        wait.as_secs()
                    );
                    tokio::time::sleep(wait).await;
                }
                Ok(reply) if (400..500).contains(&reply.status) => {
                    let why = serde_json::from_str::<ApiError>(&reply.body)
                        .map(|error| error.error)
                        .unwrap_or_else(|_| format!("{} {}", reply.status, reply.body.trim()));
                    break Answer::Refused(why);
                }
                Ok(reply) => {
                    eprintln!(
                        "touchmove: lichess: the {} request: {} from the server",
                        request.name(),
                        reply.status
                    );
                    break Answer::Unknown;
                }
                Err(why) => {
                    lichess.unreachable(&format!("the {} request", request.name()), &why);
                    break Answer::Unknown;
                }
            }
        };
        let lost = answer == Answer::Unknown;
        {
            let mut state = state.borrow_mut();
            state.heard.push_back(Heard::Answer { request, answer });
            let _ = state.controls.send(Control::Wake);
        }
        if lost {
            tokio::time::sleep(Duration::from_secs(1)).await;
            reopen.notify_one();
        }
    }
}
