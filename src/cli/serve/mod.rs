//! `touchmove serve`: every board of a hall in one process. Each board is watched by its own
//! runner (as `watch` watches one: reconnects, resyncs, records), and what they decide is served
//! to browsers and programs: the hall page, one page per board, the API and live PGN.

mod board;
mod demo_boards;
mod discovery;
mod records;
mod sink;
mod stamps;
mod stats;
mod web;

use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result};
use shakmaty::Chess;
use tokio::sync::watch;
use tokio::task::LocalSet;

use touchmove::live::runner::{self, Connector, RunnerConfig};
use touchmove::live::{LiveGame, Protocol, SessionOptions, WatchedBoard};
use touchmove::output::pgn::PgnTags;

use super::args::{BoardSpec, ServeArgs};
use super::resume::Resumed;
use super::serial::SerialConnector;
use board::{BoardHandle, Hall};
use records::GameRecords;
use sink::ServeSink;

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
    local.block_on(&runtime, serve(args, Setup::new(args, start)))
}

/// A board to watch: what `--board` or `--demo` gave.
struct Planned {
    handle: Arc<BoardHandle>,
    protocol: &'static Protocol,
    connector: PlannedConnector,
    /// When the board's writes were made, for a board emulated in the process.
    stamps: Option<Arc<stamps::WriteStamps>>,
}

/// How a planned board is reached.
enum PlannedConnector {
    /// A serial port.
    Serial(SerialConnector),
    /// The host's end of an emulated board's pseudo-terminal.
    Demo(demo_boards::OwnEnd),
}

/// What every board's runner is set up with: the game's settings, from the command line.
#[derive(Clone)]
struct Setup {
    start: Chess,
    interpreter: touchmove::interpreter::Config,
    /// `--report-horizon-ms`, if given (else the protocol's).
    report_horizon_ms: Option<touchmove::sensor::Millis>,
    time_control: Option<touchmove::clock::TimeControl>,
    record_dir: Option<std::path::PathBuf>,
    /// `--resume`: a `--board`'s last recorded game goes on.
    resume: bool,
    event: Option<String>,
    round: Option<String>,
}

impl Setup {
    fn new(args: &ServeArgs, start: Chess) -> Setup {
        Setup {
            start,
            interpreter: args.interpreter.config(),
            report_horizon_ms: args.interpreter.report_horizon_ms,
            time_control: args.interpreter.time_control.clone(),
            record_dir: args.record_dir.clone(),
            resume: args.resume,
            event: args.event.clone(),
            round: args.round.clone(),
        }
    }

    /// The PGN tags of board `name`'s games.
    fn tags(&self, name: &str) -> PgnTags {
        PgnTags {
            event: self.event.clone(),
            round: self.round.clone(),
            board: Some(name.to_owned()),
            time_control: self.time_control.as_ref().map(ToString::to_string),
            ..PgnTags::default()
        }
    }

    /// A new board called `name`, speaking `protocol` on `port`, as the hall follows it.
    fn board(&self, name: &str, protocol: &'static Protocol, port: &str) -> WatchedBoard {
        WatchedBoard::new(
            name,
            protocol.name,
            port,
            self.start.clone(),
            self.tags(name),
        )
    }

    /// Starts the runner of `plan`, which watches it until `stopped` turns true.
    fn spawn(
        &self,
        plan: Planned,
        stopped: watch::Receiver<bool>,
    ) -> Result<tokio::task::JoinHandle<Result<()>>> {
        let (records, resumed) = self.records(&plan)?;
        let start = match &resumed {
            Some(resumed) => resumed.log.header.start_position().map_err(|error| {
                anyhow::anyhow!(
                    "--resume: board {}: the log's @start: {error}",
                    plan.handle.name
                )
            })?,
            None => self.start.clone(),
        };
        // A resumed game is weighed as it was recorded.
        let recorded_horizon = resumed
            .as_ref()
            .and_then(|resumed| resumed.log.header.report_horizon_ms);
        let options = WatchOptions {
            start,
            interpreter: self.interpreter.with_report_horizon_ms(
                self.report_horizon_ms
                    .or(recorded_horizon)
                    .unwrap_or(plan.protocol.report_horizon_ms),
            ),
            time_control: self.time_control.clone(),
            resumed,
        };
        let config = RunnerConfig::default();
        Ok(tokio::task::spawn_local(async move {
            let sink = ServeSink::new(Arc::clone(&plan.handle), records, plan.stamps);
            match plan.connector {
                PlannedConnector::Serial(connector) => {
                    watch_board(plan.protocol, connector, sink, options, config, stopped).await
                }
                PlannedConnector::Demo(connector) => {
                    watch_board(plan.protocol, connector, sink, options, config, stopped).await
                }
            }
        }))
    }
}

impl Setup {
    /// The logs of `plan`'s games, with `--record-dir`; with `--resume`, a serial board's
    /// last recorded game, read back to go on with.
    fn records(&self, plan: &Planned) -> Result<(Option<GameRecords>, Option<Resumed>)> {
        let Some(dir) = &self.record_dir else {
            return Ok((None, None));
        };
        let name = &plan.handle.name;
        let serial = matches!(plan.connector, PlannedConnector::Serial(_));
        let last = if self.resume && serial {
            GameRecords::last(dir, name)?
        } else {
            None
        };
        let Some((number, resumed)) = last else {
            let records = GameRecords::create(dir, name, plan.protocol, &self.start)?;
            return Ok((Some(records), None));
        };
        let records = GameRecords::resume(dir, name, plan.protocol, number, &resumed)?;
        plan.handle.lock().resume_as_game(number);
        Ok((Some(records), Some(resumed)))
    }
}

async fn serve(args: &ServeArgs, setup: Setup) -> Result<()> {
    let mut planned = Vec::new();
    for (index, spec) in args.boards.iter().enumerate() {
        planned.push(plan_serial(&setup, index, spec)?);
    }
    if let Some(count) = args.demo {
        let first = planned.len();
        planned.extend(demo_boards::start(args, &setup, first, count)?);
    }
    let hall = Arc::new(Hall::new(
        planned
            .iter()
            .map(|plan| Arc::clone(&plan.handle))
            .collect(),
    ));
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("--listen {}: cannot listen there", args.listen))?;
    let address = listener.local_addr().context("the listening address")?;
    announce(&format!("serve: http://{address}/"))?;
    let (stop, stopped) = watch::channel(false);
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
    server
        .await
        .context("the web server stopped")?
        .context("the web server failed")
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
    let hall = Arc::new(Hall::new(vec![Arc::clone(&handle)]));
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

impl Planned {
    /// `board`, speaking `protocol` on the serial port at `path`.
    fn serial(board: WatchedBoard, protocol: &'static Protocol, path: &Path) -> Planned {
        Planned {
            handle: Arc::new(BoardHandle::new(board)),
            protocol,
            connector: PlannedConnector::Serial(SerialConnector::new(
                Some(path.to_owned()),
                protocol,
            )),
            stamps: None,
        }
    }
}

/// The game settings of a board's runner.
struct WatchOptions {
    start: Chess,
    interpreter: touchmove::interpreter::Config,
    time_control: Option<touchmove::clock::TimeControl>,
    /// The recorded part of the game, with `--resume`.
    resumed: Option<Resumed>,
}

/// The recorded part of a resumed game, through the game (its decisions to the board's page
/// and stream again, not recorded again); the board's session is told where the game stands.
fn replay_recorded(
    resumed: &Resumed,
    game: &mut LiveGame,
    session: &mut dyn touchmove::live::BoardSession,
    sink: &mut ServeSink,
) -> Result<()> {
    use touchmove::live::runner::Sink;
    let point = game.replay_recording(resumed.log.records());
    while let Some(event) = game.poll_event() {
        sink.live(&event, game)?;
    }
    if let Some(point) = point {
        session.resume(&point);
    }
    eprintln!(
        "touchmove: board {}: resumed: {} reports read back, {} plies; the recording goes on",
        sink.name(),
        resumed.log.events.len(),
        game.interpreter()
            .map_or(0, |interpreter| interpreter.game().plies())
    );
    Ok(())
}

/// Watches one board until `stopped` turns true.
async fn watch_board<C: Connector>(
    protocol: &'static Protocol,
    mut connector: C,
    mut sink: ServeSink,
    options: WatchOptions,
    config: RunnerConfig,
    mut stopped: watch::Receiver<bool>,
) -> Result<()> {
    // A resumed game's clock kept running on its own: it is not set again.
    let clock = options
        .time_control
        .clone()
        .filter(|_| options.resumed.is_none());
    let session_options = SessionOptions::new().set_clock(clock);
    let mut session = (protocol.new_session)(&session_options);
    let mut game =
        LiveGame::new(options.start, options.interpreter).with_time_control(options.time_control);
    let mut config = config;
    if let Some(resumed) = &options.resumed {
        replay_recorded(resumed, &mut game, session.as_mut(), &mut sink)?;
        config.start_at = resumed.resume_at;
    }
    let shutdown = async move {
        let _ = stopped.changed().await;
    };
    runner::run(
        &mut connector,
        &mut session,
        &mut game,
        &mut sink,
        config,
        shutdown,
    )
    .await
    .with_context(|| format!("board {}", sink.name()))?;
    sink.finish()
}
