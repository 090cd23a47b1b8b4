//! The loop that pushes a round's games to a Lichess broadcast: it notices the games'
//! changes, sends the pushes the pusher asks for (`touchmove_spectators::broadcast::Pusher`
//! says when, and what a reply means) and says what Lichess answered, each change once.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::watch;

use touchmove_core::sensor::Millis;
use touchmove_spectators::broadcast::{MAX_GAMES, PushState, Pusher, RoundGames};

use crate::credentials::Reply;
use crate::push::{PushClient, PushTarget};

/// How often the games are looked at for changes.
const LOOK: Duration = Duration::from_millis(250);

/// The pusher, shared with the web side (`/api/boards`' `push`).
pub type Pushes = Mutex<Pusher>;

/// The pusher, locked (a poisoned lock is taken as it is: the pusher's state stays whole).
fn lock(pushes: &Pushes) -> MutexGuard<'_, Pusher> {
    pushes
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Watches the games, pushes when the pusher says, and says what changed in the replies.
pub async fn push_loop(
    client: PushClient,
    target: PushTarget,
    round: &impl RoundGames,
    pushes: Arc<Pushes>,
    mut stopped: watch::Receiver<bool>,
) {
    let epoch = Instant::now();
    let now = || Millis::try_from(epoch.elapsed().as_millis()).unwrap_or(Millis::MAX);
    let mut versions: Vec<u64> = Vec::new();
    let mut told = Told::default();
    let mut in_flight: Option<tokio::task::JoinHandle<Result<Reply, String>>> = None;
    let mut look = tokio::time::interval(LOOK);
    loop {
        tokio::select! {
            _ = look.tick() => {
                let current = round.versions();
                if current != versions {
                    versions = current;
                    lock(&pushes).changed();
                }
            }
            reply = reply_of(&mut in_flight), if in_flight.is_some() => {
                in_flight = None;
                let mut pusher = lock(&pushes);
                match reply {
                    Ok(Ok(reply)) => {
                        pusher.handle_reply(now(), reply.status, reply.retry_after, &reply.body);
                    }
                    Ok(Err(error)) => pusher.handle_failure(now(), &error),
                    Err(error) => pusher.handle_failure(now(), &error.to_string()),
                }
                told.say(&pusher, round, target.round());
            }
            _ = stopped.changed() => return,
        }
        let games = round.games();
        let names = games
            .iter()
            .take(MAX_GAMES)
            .map(|(name, _)| name.clone())
            .collect();
        let Some(request) = lock(&pushes).poll_request(now(), names) else {
            continue;
        };
        if games.len() > MAX_GAMES && !told.too_many {
            told.too_many = true;
            eprintln!(
                "touchmove: lichess: a push holds at most {MAX_GAMES} games: only the first \
                 {MAX_GAMES} of the round's {} are pushed",
                games.len()
            );
        }
        let body: Vec<String> = games
            .into_iter()
            .take(request.boards.len())
            .map(|(_, pgn)| pgn)
            .collect();
        in_flight = Some(tokio::spawn(client.push(&target, body.join("\n"))));
    }
}

/// The reply of the push in flight (never, with none).
async fn reply_of(
    in_flight: &mut Option<tokio::task::JoinHandle<Result<Reply, String>>>,
) -> Result<Result<Reply, String>, tokio::task::JoinError> {
    match in_flight {
        Some(request) => request.await,
        None => std::future::pending().await,
    }
}

/// What has been said on standard error about the pushes, so that each change is said once.
#[derive(Default)]
struct Told {
    state: Option<PushState>,
    message: Option<String>,
    /// Each board's game's error, as last said.
    games: std::collections::HashMap<String, Option<String>>,
    too_many: bool,
}

impl Told {
    fn say(&mut self, pusher: &Pusher, games: &impl RoundGames, round: &str) {
        let state = pusher.state();
        let message = pusher.message().map(str::to_owned);
        if (Some(state), &message) != (self.state, &self.message) {
            match (&message, state) {
                (Some(message), PushState::Stopped) => {
                    eprintln!("touchmove: lichess round {round}: pushes stopped: {message}");
                }
                (Some(message), _) => eprintln!("touchmove: lichess round {round}: {message}"),
                (None, _) => eprintln!("touchmove: lichess round {round}: pushed"),
            }
            self.state = Some(state);
            self.message = message;
        }
        if state != PushState::Pushed {
            return;
        }
        for name in games.board_names() {
            let error = pusher.status(&name).error;
            let before = self.games.insert(name.clone(), error.clone());
            if before.flatten() != error
                && let Some(error) = error
            {
                eprintln!("touchmove: board {name}: lichess refused its game: {error}");
            }
        }
    }
}
