//! `touchmove serve`: every board of a tournament hall in one process. Each board is watched by its own
//! runner (as `watch` watches one: reconnects, resyncs, records), and what they decide is served
//! to browsers and programs: the overview page, one page per board, the API and live PGN.

mod connector;
mod demo_boards;
mod discovery;
mod players;
mod push;
mod runners;

use std::sync::Arc;

use anyhow::{Context, Result};
use tokio::sync::watch;
use tokio::task::LocalSet;

use super::args::{BoardSpec, ServeArgs};
use runners::{Planned, Setup};
use touchmove_links::board::board_protocol;
use touchmove_web::access::{self, Access, Allowed};
use touchmove_web::board::Overview;
use touchmove_web::token::Token;
use touchmove_web::{routes, server};

/// Runs `touchmove serve`.
pub fn run(args: &ServeArgs) -> Result<()> {
    let start = super::start::start_position(args.start.as_deref(), args.chess960)?;
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
    let runtime = super::session::runtime()?;
    let local = LocalSet::new();
    let setup = Setup::new(args, start)?;
    local.block_on(&runtime, serve(args, setup))
}

async fn serve(args: &ServeArgs, setup: Setup) -> Result<()> {
    if args.public_delay.is_some() && args.livechess.is_some() {
        anyhow::bail!(
            "--public-delay: the LiveChess API (--livechess) shows the boards live to every \
             client; give one or the other"
        );
    }
    let push_target = push::target_of(args)?;
    let allowed = Arc::new(allowed(args)?);
    let tablebases = setup.tables.clone();
    let mut planned = Vec::new();
    for (index, spec) in args.boards.iter().enumerate() {
        planned.push(plan_named(&setup, index, spec).await?);
    }
    if let Some(count) = args.demo {
        let first = planned.len();
        planned.extend(demo_boards::start(args, &setup, first, count)?);
    }
    let overview = Arc::new(
        Overview::new(
            planned
                .iter()
                .map(|plan| Arc::clone(&plan.handle))
                .collect(),
        )
        .with_notation(args.notation)
        .with_console(args.console)
        .with_public_delay(args.public_delay)
        .with_tablebases(tablebases),
    );
    let (stop, stopped) = watch::channel(false);
    let web = WebServers::start(args, &overview, &allowed, stopped.clone())?;
    let pushing = match push_target {
        Some(target) => {
            let (pushes, task) = push::start(target, Arc::clone(&overview), stopped.clone())?;
            let _ = overview.pushes.set(pushes);
            Some(task)
        }
        None => None,
    };
    let maturing = args
        .public_delay
        .map(|_| tokio::task::spawn_local(mature(Arc::clone(&overview), stopped.clone())));
    let mut runners = Vec::new();
    for plan in planned {
        runners.push(setup.spawn(plan, stopped.clone())?);
    }
    // With no board given: every board a probe finds, now and when it is plugged in.
    let discovery = (args.boards.is_empty() && args.demo.is_none()).then(|| {
        let discovery = discovery::Discovery::new(
            setup.clone(),
            Arc::clone(&overview),
            args.scan_dirs.clone(),
            stopped.clone(),
        );
        tokio::task::spawn_local(discovery.run())
    });
    // Until Ctrl-C or SIGTERM (the service's stop).
    super::session::stop_signal().await;
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
    if let Some(maturing) = maturing {
        let _ = maturing.await;
    }
    web.join().await
}

/// How often the public's events that have come of age are sent (`--public-delay`): they
/// reach the public at most this much after the delay, never before it.
const MATURE_EVERY: std::time::Duration = std::time::Duration::from_millis(100);

/// Passes each board's events to the public's streams as they come of age, until `stopped`.
async fn mature(overview: Arc<Overview>, mut stopped: watch::Receiver<bool>) {
    let mut tick = tokio::time::interval(MATURE_EVERY);
    loop {
        tokio::select! {
            _ = tick.tick() => {
                for board in overview.boards() {
                    board.mature();
                }
            }
            _ = stopped.changed() => return,
        }
    }
}

/// What the operator allows clients: `--allow-origin`, `--allow-host`, and the token from
/// `--token`, `--token-file` or the environment (said on standard error when other machines reach a server
/// that has none: nothing can be changed there).
fn allowed(args: &ServeArgs) -> Result<Allowed> {
    let file = args
        .token_file
        .as_deref()
        .map(|path| ("--token-file", path));
    let token = match &args.token {
        Some(token) => Some(token.clone()),
        None => super::secrets::token(file, access::TOKEN_VARIABLE)?
            .and_then(|token| Token::new(&token)),
    };
    if token.is_none() {
        let reached = args
            .listen
            .into_iter()
            .chain(args.livechess)
            .filter(|address| !address.ip().is_loopback());
        for address in reached {
            eprintln!(
                "touchmove: {address} is reachable from other machines and no operator's token \
                 is set (--token or {}): pages and streams are served there, changes refused",
                access::TOKEN_VARIABLE
            );
        }
    }
    Ok(Allowed {
        origins: args.allow_origins.clone(),
        hosts: args.allow_hosts.clone(),
        token,
    })
}

/// Where serve listens when no `--listen` is given: 8080 on loopback, as the README's example
/// opens it...
const DEFAULT_LISTEN: std::net::SocketAddr =
    std::net::SocketAddr::new(std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST), 8080);

/// The listener for `--listen ADDR` (taken there or refused), or with no address 8080 on
/// loopback, or a free port there when 8080 is taken (said).
fn listen(given: Option<std::net::SocketAddr>) -> Result<std::net::TcpListener> {
    if let Some(address) = given {
        return server::bind(address)
            .with_context(|| format!("--listen {address}: cannot listen there"));
    }
    match server::bind(DEFAULT_LISTEN) {
        Ok(listener) => Ok(listener),
        Err(error) if error.kind() == std::io::ErrorKind::AddrInUse => {
            let free = std::net::SocketAddr::new(DEFAULT_LISTEN.ip(), 0);
            let listener = server::bind(free).context("cannot listen on a free port")?;
            let address = listener.local_addr().context("the listening address")?;
            eprintln!(
                "touchmove: {DEFAULT_LISTEN} is taken: serving on {address} instead (--listen \
                 ADDR to choose)"
            );
            Ok(listener)
        }
        Err(error) => Err(error).with_context(|| format!("{DEFAULT_LISTEN}: cannot listen there")),
    }
}

/// The web servers (the pages and API, and the LiveChess API with `--livechess`), on a thread
/// and a runtime of their own, away from the boards' runners.
struct WebServers {
    thread: std::thread::JoinHandle<Result<()>>,
}

impl WebServers {
    /// Binds the servers' addresses, says them on standard output (serve's first, then the
    /// LiveChess API's), and starts them; they stop when `stopped` turns true.
    fn start(
        args: &ServeArgs,
        overview: &Arc<Overview>,
        allowed: &Arc<Allowed>,
        stopped: watch::Receiver<bool>,
    ) -> Result<WebServers> {
        let web = listen(args.listen)?;
        let address = web.local_addr().context("the listening address")?;
        super::session::announce(&format!("serve: http://{address}/"))?;
        let pages = server::guarded(
            routes::router(Arc::clone(overview)),
            Access::new(address, Arc::clone(allowed)),
        );
        let livechess = match args.livechess {
            Some(at) => {
                let listener = server::bind(at)
                    .with_context(|| format!("--livechess {at}: cannot listen there"))?;
                let address = listener.local_addr().context("the LiveChess address")?;
                super::session::announce(&format!("livechess: ws://{address}/api/v1.0"))?;
                let access = Access::new(address, Arc::clone(allowed));
                let app = touchmove_web::livechess::router(Arc::clone(overview), access.clone());
                Some((listener, server::guarded(app, access)))
            }
            None => None,
        };
        let thread = std::thread::Builder::new()
            .name("serve-web".to_owned())
            .spawn(move || {
                let runtime = super::session::runtime()?;
                runtime.block_on(async move {
                    let pages = async {
                        server::serve(server::into_tokio(web)?, pages, stopped.clone()).await;
                        Ok::<(), std::io::Error>(())
                    };
                    let livechess = async {
                        if let Some((listener, app)) = livechess {
                            server::serve(server::into_tokio(listener)?, app, stopped.clone())
                                .await;
                        }
                        Ok::<(), std::io::Error>(())
                    };
                    let (pages, livechess) = tokio::join!(pages, livechess);
                    pages.context("the web server failed")?;
                    livechess.context("the LiveChess API failed")
                })
            })
            .context("cannot start the web server's thread")?;
        Ok(WebServers { thread })
    }

    /// Waits for the servers to stop.
    async fn join(self) -> Result<()> {
        let thread = self.thread;
        tokio::task::spawn_blocking(move || thread.join())
            .await
            .context("the web server's thread")?
            .map_err(|_| anyhow::anyhow!("the web server's thread panicked"))?
    }
}

/// The board `--board` number `index` names.
async fn plan_named(setup: &Setup, index: usize, spec: &BoardSpec) -> Result<Planned> {
    let protocol = board_protocol(Some(&spec.port), spec.protocol.as_deref()).await?;
    let name = spec.name.clone().unwrap_or_else(|| (index + 1).to_string());
    let port = spec.port.display().to_string();
    Ok(Planned::named(
        setup.board(&name, protocol, &port),
        protocol,
        &spec.port,
    ))
}
