//! One board's page, served on its own (`touchmove play`, `online`, `demo`): the same pages and
//! guards as `serve`'s, for a single board.

use std::sync::Arc;

use anyhow::{Context, Result};
use tokio::sync::{mpsc, watch};

use shakmaty::Chess;
use touchmove::output::notation::Notation;
use touchmove::output::pgn::PgnTags;
use touchmove::watched::WatchedBoard;

use super::args::WatchArgs;
use touchmove_web::access::{Access, Allowed};
use touchmove_web::asked::Asked;
use touchmove_web::board::{BoardHandle, Overview};
use touchmove_web::sink::PageSink;
use touchmove_web::{routes, server};

/// One board's page, served for `touchmove demo`: the sink that feeds it, and where it is.
pub struct OnePage {
    /// What the board's runner reports to, for the page.
    pub sink: PageSink,
    /// The address the page is served at.
    pub address: std::net::SocketAddr,
}

/// Serves the pages of the one board `board` at `listen` (or, if that address is taken, at a
/// free port) until the runtime ends, under serve's access rules (with no `--allow-origin` or
/// token: read-only from other machines). With `requests`, the board plays an online game and
/// its page's buttons send the player's requests there.
pub async fn serve_one(
    listen: std::net::SocketAddr,
    board: WatchedBoard,
    notation: Notation,
    requests: Option<mpsc::UnboundedSender<Asked>>,
) -> Result<OnePage> {
    let listener = match server::bind(listen) {
        Ok(listener) => listener,
        Err(error) => {
            tracing::warn!("cannot listen on {listen} ({error}): on a free port instead");
            server::bind(std::net::SocketAddr::new(listen.ip(), 0))
                .context("cannot listen for the page")?
        }
    };
    let address = listener.local_addr().context("the listening address")?;
    let handle = Arc::new(BoardHandle::new(board));
    let mut overview = Overview::new(vec![Arc::clone(&handle)]).with_notation(notation);
    if let Some(requests) = requests {
        overview = overview.with_requests(requests);
    }
    let overview = Arc::new(overview);
    let app = server::guarded(
        routes::router(overview),
        Access::new(address, Arc::new(Allowed::default())),
    );
    let listener = server::into_tokio(listener).context("cannot listen for the page")?;
    // Served as long as the runtime runs: its stop is never sent.
    let (keep, stopped) = watch::channel(false);
    tokio::spawn(async move {
        server::serve(listener, app, stopped).await;
        drop(keep);
    });
    Ok(OnePage {
        sink: PageSink::new(handle, None, None),
        address,
    })
}

/// The page of a game played at one board (`play`, `online`): board 1 of a page served at
/// `listen`, watched on `board`'s port with `protocol`, from `start` between `tags`' players;
/// its address said (first on standard output, or on standard error with `--json`). With
/// `requests`, its buttons ask the online game's server, or (`hints`) its hint button asks the
/// game against the engine for a hint.
pub async fn game_page(
    listen: std::net::SocketAddr,
    protocol: &'static str,
    board: &WatchArgs,
    start: (Chess, PgnTags),
    requests: Option<mpsc::UnboundedSender<Asked>>,
    hints: bool,
) -> Result<PageSink> {
    let port = board.port.as_ref().map_or_else(
        || "the first board found".to_owned(),
        |p| p.display().to_string(),
    );
    let (start, tags) = start;
    let mut watched = WatchedBoard::new("1", protocol, &port, start, tags).keeping_finished_games();
    if hints {
        watched = watched.giving_hints();
    }
    let page = serve_one(listen, watched, board.notation, requests).await?;
    let address = format!("http://{}/board/1", page.address);
    // JSON lines alone on standard output with --json.
    if board.json {
        eprintln!("touchmove: the game's page is at {address}");
    } else {
        super::session::announce(&format!("serve: {address}"))?;
    }
    Ok(page.sink)
}
