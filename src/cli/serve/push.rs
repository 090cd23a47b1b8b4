//! `serve --lichess-round`: every board's games pushed to a Lichess broadcast round, by the
//! Lichess crate's `push_loop` reading the web layer's overview. The token is read from
//! `--lichess-token-file` or `LICHESS_TOKEN` and never written anywhere.

use std::sync::{Arc, Mutex};

use anyhow::{Context, Result};
use tokio::sync::watch;

use touchmove::broadcast::{PushConfig, Pusher};
use touchmove_lichess::push::{PushClient, PushTarget};
use touchmove_lichess::push_loop::push_loop;

use super::super::args::ServeArgs;
use touchmove_web::board::Overview;

/// The target `--lichess-round` and `--lichess-url` name, with the token of
/// `--lichess-token-file` or the environment;
/// `None` without `--lichess-round`.
pub fn target_of(args: &ServeArgs) -> Result<Option<PushTarget>> {
    let Some(round) = &args.lichess_round else {
        return Ok(None);
    };
    let file = args
        .lichess_token_file
        .as_deref()
        .map(|path| ("--lichess-token-file", path));
    let token = super::super::secrets::token(file, super::super::secrets::LICHESS_TOKEN)?.context(
        "--lichess-round: set the environment variable LICHESS_TOKEN (or give \
             --lichess-token-file) to a Lichess token with the study:write scope",
    )?;
    let target = PushTarget::new(&args.lichess_url, round, &token).context("LICHESS_TOKEN")?;
    Ok(Some(target))
}

/// Starts pushing the overview's games to `target` until `stopped` turns true.
pub fn start(
    target: PushTarget,
    overview: Arc<Overview>,
    stopped: watch::Receiver<bool>,
) -> Result<(Arc<Mutex<Pusher>>, tokio::task::JoinHandle<()>)> {
    let client = PushClient::new().context("--lichess-round")?;
    let pushes = Arc::new(Mutex::new(Pusher::new(PushConfig::default())));
    let rounds = Arc::clone(&pushes);
    let task = tokio::task::spawn_local(async move {
        push_loop(client, target, overview.as_ref(), rounds, stopped).await;
    });
    Ok((pushes, task))
}
