//! `touchmove serve`: every board of a hall in one process. Each board is watched by its own
//! runner (as `watch` watches one: reconnects, resyncs, records), and what they decide is served
//! to browsers and programs: the hall page, one page per board, the API and live PGN.

mod board;
mod demo_boards;
mod discovery;
mod livechess;
mod players;
mod push;
mod records;
mod runners;
mod sink;
mod stamps;
mod stats;
mod web;

use std::sync::Arc;

use anyhow::{Context, Result};
use tokio::sync::watch;
use tokio::task::LocalSet;

use touchmove::live::WatchedBoard;
use touchmove::output::notation::Notation;

use super::args::{BoardSpec, ServeArgs};
use board::{BoardHandle, Hall};
use runners::{Planned, PlannedConnector, Setup};
pub(super) use sink::ServeSink;

/// Runs `touchmove serve`.
pub fn run(args: &ServeArgs) -> Result<()> {
    let start = super::watch::start_position(args.start.as_deref())?;
    if let Some(dir) = &args.record_dir {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("--record-dir {}: cannot create it", dir.display()))?;
    }
    // Two descriptors per emulated board and one per stream: the soft limit of open files
    // (often 1,024) is raised to the hard one.
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => tracing::debug!("up to {limit} open files"),
        Err(error) => tracing::warn!("cannot raise the limit of open files: {error}"),
    }
    let runtime = super::runtime()?;
    let local = LocalSet::new();
    let setup = Setup::new(args, start)?;
    local.block_on(&runtime, serve(args, setup))
}

async fn serve(args: &ServeArgs, setup: Setup) -> Result<()> {
    let push_target = push::PushTarget::from_args(args)?;
    let mut planned = Vec::new();
    for (index, spec) in args.boards.iter().enumerate() {
        planned.push(plan_serial(&setup, index, spec)?);
    }
    if let Some(count) = args.demo {
        let first = planned.len();
        planned.extend(demo_boards::start(args, &setup, first, count)?);
    }
    let hall = Arc::new(
        Hall::new(
            planned
                .iter()
                .map(|plan| Arc::clone(&plan.handle))
                .collect(),
        )
        .with_notation(args.notation),
    );
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("--listen {}: cannot listen there", args.listen))?;
    let address = listener.local_addr().context("the listening address")?;
    announce(&format!("serve: http://{address}/"))?;
    let (stop, stopped) = watch::channel(false);
    let pushing = match push_target {
        Some(target) => {
            let (pushes, task) = push::start(target, Arc::clone(&hall), stopped.clone())?;
            let _ = hall.pushes.set(pushes);
            Some(task)
        }
        None => None,
    };
    let livechess = match args.livechess {
        Some(at) => Some(serve_livechess(at, Arc::clone(&hall), stopped.clone()).await?),
        None => None,
    };
    let mut runners = Vec::new();
    for plan in planned {
        runners.push(setup.spawn(plan, stopped.clone())?);
    }
    // With no board given: every board a probe finds, now and when it is plugged in.
    let discovery = (args.boards.is_empty() && args.demo.is_none()).then(|| {
        let discovery = discovery::Discovery::new(
            setup.clone(),
            Arc::clone(&hall),
            args.scan_dirs.clone(),
            stopped.clone(),
        );
        tokio::task::spawn_local(discovery.run())
    });
    let app = web::router(Arc::clone(&hall));
    let mut web_stopped = stopped.clone();
    let server = axum::serve(listener, app).with_graceful_shutdown(async move {
        let _ = web_stopped.changed().await;
    });
    let server = tokio::task::spawn_local(async move { server.await });
    // Until Ctrl-C (without a signal handler, until killed).
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
    let _ = stop.send(true);
    if let Some(discovery) = discovery
        && let Ok(found) = discovery.await
    {
        runners.extend(found);
    }
    for runner in runners {
        if let Ok(Err(error)) = runner.await {
            eprintln!("touchmove: {error:#}");
        }
    }
    if let Some(pushing) = pushing {
        let _ = pushing.await;
    }
    if let Some(livechess) = livechess {
        livechess
            .await
            .context("the LiveChess API stopped")?
            .context("the LiveChess API failed")?;
    }
    server
        .await
        .context("the web server stopped")?
        .context("the web server failed")
}

/// Answers the LiveChess API at `at` until `stopped` turns true (its address said on standard
/// output, after serve's own).
async fn serve_livechess(
    at: std::net::SocketAddr,
    hall: Arc<Hall>,
    mut stopped: watch::Receiver<bool>,
) -> Result<tokio::task::JoinHandle<std::io::Result<()>>> {
    let listener = tokio::net::TcpListener::bind(at)
        .await
        .with_context(|| format!("--livechess {at}: cannot listen there"))?;
    let address = listener.local_addr().context("the LiveChess address")?;
    announce(&format!("livechess: ws://{address}/api/v1.0"))?;
    let server =
        axum::serve(listener, livechess::router(hall)).with_graceful_shutdown(async move {
            let _ = stopped.changed().await;
        });
    Ok(tokio::task::spawn_local(async move { server.await }))
}

/// One board's page, served for `touchmove demo`: the sink that feeds it, and where it is.
pub(super) struct OnePage {
    /// What the board's runner reports to, for the page.
    pub sink: ServeSink,
    /// The address the page is served at.
    pub address: std::net::SocketAddr,
}

/// Serves the pages of the one board `board` at `listen` (or, if that address is taken, at a
/// free port) until the runtime ends.
pub(super) async fn serve_one(
    listen: std::net::SocketAddr,
    board: WatchedBoard,
    notation: Notation,
) -> Result<OnePage> {
    let listener = match tokio::net::TcpListener::bind(listen).await {
        Ok(listener) => listener,
        Err(error) => {
            tracing::warn!("cannot listen on {listen} ({error}): on a free port instead");
            tokio::net::TcpListener::bind((listen.ip(), 0))
                .await
                .context("cannot listen for the page")?
        }
    };
    let address = listener.local_addr().context("the listening address")?;
    let handle = Arc::new(BoardHandle::new(board));
    let hall = Arc::new(Hall::new(vec![Arc::clone(&handle)]).with_notation(notation));
    tokio::spawn(axum::serve(listener, web::router(hall)).into_future());
    Ok(OnePage {
        sink: ServeSink::new(handle, None, None),
        address,
    })
}

/// The first line on standard output.
pub(super) fn announce(line: &str) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(())
}

/// The board `--board` number `index` names.
fn plan_serial(setup: &Setup, index: usize, spec: &BoardSpec) -> Result<Planned> {
    let protocol = touchmove::boards::find(&spec.protocol)
        .with_context(|| format!("no board protocol is called `{}`", spec.protocol))?;
    let name = spec.name.clone().unwrap_or_else(|| (index + 1).to_string());
    let port = spec.port.display().to_string();
    Ok(Planned::serial(
        setup.board(&name, protocol, &port),
        protocol,
        &spec.port,
    ))
}
