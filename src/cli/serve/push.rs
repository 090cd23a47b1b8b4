//! `serve --lichess-round`: every board's current game pushed to a Lichess broadcast round.
//! When to push and what a reply means is the library's `broadcast::Pusher`; this is the loop
//! around it: it notices the games' changes, sends the requests over HTTPS (reqwest) and says
//! what Lichess answered. The token is read from `LICHESS_TOKEN` and never written anywhere.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use tokio::sync::watch;

use touchmove::broadcast::{MAX_GAMES, PushConfig, PushState, Pusher};
use touchmove::sensor::Millis;
use touchmove_lichess::credentials::Reply;
use touchmove_lichess::push::{PushClient, PushTarget};

use super::super::args::ServeArgs;
use touchmove_web::access::Viewer;
use touchmove_web::board::Overview;

/// How often the games are looked at for changes.
const LOOK: Duration = Duration::from_millis(250);

/// The target `--lichess-round` and `--lichess-url` name, with the token from the environment;
/// `None` without `--lichess-round`.
pub fn target_of(args: &ServeArgs) -> Result<Option<PushTarget>> {
    let Some(round) = &args.lichess_round else {
        return Ok(None);
    };
    let token = std::env::var("LICHESS_TOKEN")
        .ok()
        .filter(|token| !token.trim().is_empty())
        .context(
            "--lichess-round: set the environment variable LICHESS_TOKEN to a Lichess token \
                 with the study:write scope",
        )?;
    let target = PushTarget::new(&args.lichess_url, round, &token).context("LICHESS_TOKEN")?;
    Ok(Some(target))
}

/// The pusher, shared with the web side (`/api/boards`' `push`).
type Pushes = Mutex<Pusher>;

/// The pusher, locked (a poisoned lock is taken as it is: the pusher's state stays whole).
fn lock(pushes: &Pushes) -> MutexGuard<'_, Pusher> {
    pushes
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Starts pushing the overview's games to `target` until `stopped` turns true.
pub fn start(
    target: PushTarget,
    overview: Arc<Overview>,
    stopped: watch::Receiver<bool>,
) -> Result<(Arc<Pushes>, tokio::task::JoinHandle<()>)> {
    let client = PushClient::new().context("--lichess-round")?;
    let pushes = Arc::new(Mutex::new(Pusher::new(PushConfig::default())));
    let task = tokio::task::spawn_local(push_loop(
        client,
        target,
        overview,
        Arc::clone(&pushes),
        stopped,
    ));
    Ok((pushes, task))
}

/// Watches the games, pushes when the pusher says, and says what changed in the replies.
async fn push_loop(
    client: PushClient,
    target: PushTarget,
    overview: Arc<Overview>,
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
                let current: Vec<u64> = overview
                    .boards()
                    .iter()
                    .map(|board| board.version_for(Viewer::Public))
                    .collect();
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
                told.say(&pusher, &overview, target.round());
            }
            _ = stopped.changed() => return,
        }
        let games = round_games(&overview);
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

/// Every game the round has had, in board order, each with its board's name: a board's
/// finished games (oldest first), then its current game, as the public sees them (late with
/// `--public-delay`). A game that ended stays in the round when the board starts another (a
/// new game on the board, a LiveChess set-up).
fn round_games(overview: &Overview) -> Vec<(String, String)> {
    let mut games = Vec::new();
    for board in overview.boards() {
        for pgn in board.games_for(Viewer::Public) {
            games.push((board.name.clone(), pgn));
        }
    }
    games
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
    fn say(&mut self, pusher: &Pusher, overview: &Overview, round: &str) {
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
        for board in overview.boards() {
            let error = pusher.status(&board.name).error;
            let before = self.games.insert(board.name.clone(), error.clone());
            if before.flatten() != error
                && let Some(error) = error
            {
                eprintln!(
                    "touchmove: board {}: lichess refused its game: {error}",
                    board.name
                );
            }
        }
    }
}
