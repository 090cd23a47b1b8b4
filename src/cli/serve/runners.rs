//! A served board's runner: what it is set up with (the command line's game settings), how
//! its board is reached, and the loop that watches it (as `watch` watches one), a resumed game
//! read back first.

use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result};
use shakmaty::Chess;
use tokio::sync::{mpsc, watch};

use touchmove::live::{LiveGame, Protocol, SessionOptions};
use touchmove::output::pgn::PgnTags;
use touchmove::runner::{self, AnotherBoard, Connector, Control, Parts, RunnerConfig};
use touchmove::watched::WatchedBoard;

use super::super::args::ServeArgs;
use super::connector::PlannedConnector;
use touchmove::sensor_log::GameLabel;
use touchmove_links::board::BoardConnector;
use touchmove_runtime::analysis::Analysing;
use touchmove_runtime::files::resumed::Resumed;
use touchmove_web::board::BoardHandle;
use touchmove_web::naming::GameNamer;
use touchmove_web::records::GameRecords;
use touchmove_web::sink::PageSink;
use touchmove_web::stamps;

/// A board to watch: what `--board` or `--demo` gave.
pub struct Planned {
    pub handle: Arc<BoardHandle>,
    pub protocol: &'static Protocol,
    pub connector: PlannedConnector,
    /// When the board's writes were made, for a board emulated in the process.
    pub stamps: Option<Arc<stamps::WriteStamps>>,
    /// What another board answering on its port is: a new board on a port the user named, one
    /// left to be found on its own on a port found by probing.
    pub another_board: AnotherBoard,
}

/// What every board's runner is set up with: the game's settings, from the command line.
#[derive(Clone)]
pub struct Setup {
    start: Chess,
    interpreter: touchmove::interpreter::Config,
    /// The timing given on the command line (else a resumed game's recorded one, else the
    /// protocol's).
    given: touchmove::timing::Timing,
    time_control: Option<touchmove::clock::TimeControl>,
    record_dir: Option<std::path::PathBuf>,
    /// `--resume`: a `--board`'s last recorded game goes on.
    resume: bool,
    event: Option<String>,
    round: Option<String>,
    site: Option<String>,
    /// Names each game as it begins (`--host-id`): its `GameId` and date.
    namer: GameNamer,
    /// `--players` and the hall file's boards: each board's players, by name.
    players: std::collections::HashMap<String, touchmove::watched::Players>,
    /// `--analyse`: each board's game analysed by an engine of its own.
    analyse: super::super::args::AnalyseArgs,
    /// `--syzygy`: the tables every board's analysis and the console read.
    pub tables: Option<Arc<touchmove_runtime::tablebase::Tablebases>>,
}

impl Setup {
    pub fn new(args: &ServeArgs, start: Chess) -> Result<Setup> {
        let mut players = match &args.players {
            Some(path) => super::players::read(path)?,
            None => std::collections::HashMap::new(),
        };
        for (board, seated) in &args.seated {
            if players.insert(board.clone(), seated.clone()).is_some() {
                anyhow::bail!(
                    "board {board}: its players are named both by --players and by the hall \
                     file's [[board]] table"
                );
            }
        }
        Ok(Setup {
            start,
            interpreter: args.interpreter.config(),
            given: args.interpreter.given(),
            time_control: args.interpreter.time_control.clone(),
            record_dir: args.record_dir.clone(),
            resume: args.resume,
            event: args.event.clone(),
            round: args.round.clone(),
            site: args.site.clone(),
            namer: GameNamer::new(&args.host_id.clone().unwrap_or_else(host_name)),
            players,
            analyse: args.analyse.clone(),
            tables: super::super::session::tablebases(&args.analyse)?,
        })
    }

    /// The PGN tags of board `name`'s games.
    fn tags(&self, name: &str) -> PgnTags {
        let players = self.players.get(name).cloned().unwrap_or_default();
        PgnTags {
            white: players.white,
            black: players.black,
            event: self.event.clone(),
            round: self.round.clone(),
            site: self.site.clone(),
            board: Some(name.to_owned()),
            time_control: self.time_control.as_ref().map(ToString::to_string),
            ..PgnTags::default()
        }
    }

    /// A new board called `name`, speaking `protocol` on `port`, as the overview follows it:
    /// it keeps its finished games (its page lists them, the push holds them).
    pub fn board(&self, name: &str, protocol: &'static Protocol, port: &str) -> WatchedBoard {
        WatchedBoard::new(
            name,
            protocol.name,
            port,
            self.start.clone(),
            self.tags(name),
        )
        .keeping_finished_games()
    }

    /// The interpreter's settings for a game of a `protocol` board, resumed from its recording
    /// or not: a resumed game decides with the timing it was recorded with, unless told
    /// otherwise.
    fn interpreter_for(
        &self,
        resumed: Option<&Resumed>,
        protocol: &touchmove::live::Protocol,
    ) -> touchmove::interpreter::Config {
        let recorded = resumed
            .map(|resumed| resumed.log.header.timing())
            .unwrap_or_default();
        // No one types at serve's terminal for a board's players: a promotion the board
        // cannot tell is the queen, marked as the default (`Protocol::deciding` is not used).
        touchmove::timing::resolve(self.interpreter, self.given, recorded, protocol.timing())
    }

    /// Starts the runner of `plan`, which watches it until `stopped` turns true.
    pub fn spawn(
        &self,
        plan: Planned,
        stopped: watch::Receiver<bool>,
    ) -> Result<tokio::task::JoinHandle<Result<()>>> {
        let (records, resumed) = self.records(&plan)?;
        let start = match &resumed {
            Some(resumed) => resumed_start(resumed, &plan.handle.name)?,
            None => self.start.clone(),
        };
        // A resumed game is weighed as it was recorded.
        let interpreter = self.interpreter_for(resumed.as_ref(), plan.protocol);
        let options = WatchOptions {
            start,
            interpreter,
            time_control: self.time_control.clone(),
            resumed,
        };
        let config = RunnerConfig {
            another_board: plan.another_board,
            ..RunnerConfig::default()
        };
        let controls = plan.handle.take_controls();
        let analyse = self.analyse.clone();
        let tables = self.tables.clone();
        let namer = self.namer.clone();
        Ok(tokio::task::spawn_local(async move {
            let sink =
                PageSink::new(Arc::clone(&plan.handle), records, plan.stamps).naming_games(namer);
            let handle = Arc::clone(&plan.handle);
            let engine = super::super::session::analysis_engine(&analyse, move || {
                handle.control(Control::Wake)
            })?;
            let sink = Analysing::new(sink, options.start.clone(), engine).with_tables(tables);
            let run = Run {
                sink,
                options,
                config,
                controls,
            };
            match plan.connector {
                PlannedConnector::Board(connector) => {
                    watch_board(plan.protocol, connector, run, stopped).await
                }
                PlannedConnector::Demo(connector) => {
                    watch_board(plan.protocol, connector, run, stopped).await
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
            self.name_first_game(plan);
            return Ok((None, None));
        };
        let name = &plan.handle.name;
        let own_port = matches!(plan.connector, PlannedConnector::Board(_));
        let last = if self.resume && own_port {
            GameRecords::last(dir, name)?
        } else {
            None
        };
        let Some((number, resumed)) = last else {
            let config = self.interpreter_for(None, plan.protocol);
            let label = self.name_first_game(plan);
            let records =
                GameRecords::create(dir, name, plan.protocol, &self.start, &config, &label)?;
            return Ok((Some(records), None));
        };
        let config = self.interpreter_for(Some(&resumed), plan.protocol);
        let records = GameRecords::resume(dir, name, plan.protocol, number, &resumed, &config)?;
        let start = resumed_start(&resumed, name)?;
        let mut board = plan.handle.lock();
        board.resume_as_game(number, start);
        // The resumed game keeps its name (a log without one, from before names, gets one).
        let recorded = resumed.log.header.game.clone();
        let label = if recorded.id.is_some() {
            recorded
        } else {
            self.namer.now(name, number)
        };
        board.name_game(&label);
        drop(board);
        Ok((Some(records), Some(resumed)))
    }
}

impl Setup {
    /// This host's name (`--host-id`, else the hostname).
    pub fn host(&self) -> &str {
        self.namer.host()
    }

    /// Whether `--players` (or the hall file) names board `name`'s players.
    pub fn seats(&self, name: &str) -> bool {
        self.players.contains_key(name)
    }

    /// Names the first game of `plan`'s board, beginning now; the name, for its log.
    fn name_first_game(&self, plan: &Planned) -> GameLabel {
        let mut board = plan.handle.lock();
        let label = self.namer.now(board.name(), 1);
        board.name_game(&label);
        label
    }
}

/// This machine's hostname, the default `--host-id` (`touchmove` if it has none).
fn host_name() -> String {
    nix::unistd::gethostname()
        .ok()
        .and_then(|name| name.into_string().ok())
        .filter(|name| !name.trim().is_empty())
        .unwrap_or_else(|| "touchmove".to_owned())
}

/// The position board `name`'s resumed game started from (its log's `@start`: a game set up
/// through the LiveChess API starts from its own).
fn resumed_start(resumed: &Resumed, name: &str) -> Result<Chess> {
    resumed
        .log
        .header
        .start_position()
        .map_err(|error| anyhow::anyhow!("--resume: board {name}: the log's @start: {error}"))
}

impl Planned {
    /// `board`, speaking `protocol` on the port at `path` (serial, or `ble:NAME`), which the
    /// user named (it may hold any board: another one answering there is a new board, a new
    /// game).
    pub fn named(board: WatchedBoard, protocol: &'static Protocol, path: &Path) -> Planned {
        Planned {
            handle: Arc::new(BoardHandle::new(board)),
            protocol,
            connector: PlannedConnector::Board(BoardConnector::new(
                Some(path.to_owned()),
                protocol,
            )),
            stamps: None,
            another_board: AnotherBoard::NewGame,
        }
    }

    /// `board`, found speaking `protocol` on the serial port at `path` by probing: another
    /// board answering there later is not this one (its runner stops, and the port is probed
    /// again for a board of its own).
    pub fn found(board: WatchedBoard, protocol: &'static Protocol, path: &Path) -> Planned {
        Planned {
            another_board: AnotherBoard::Leave,
            ..Planned::named(board, protocol, path)
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

/// What a board's runner works with.
struct Run {
    sink: Analysing<PageSink>,
    options: WatchOptions,
    config: RunnerConfig,
    /// What spectators' tools ask of the board.
    controls: Option<mpsc::UnboundedReceiver<Control>>,
}

/// Watches one board until `stopped` turns true.
async fn watch_board<C: Connector>(
    protocol: &'static Protocol,
    mut connector: C,
    run: Run,
    mut stopped: watch::Receiver<bool>,
) -> Result<()> {
    let Run {
        mut sink,
        options,
        config,
        mut controls,
    } = run;
    // A resumed game's clock kept running on its own: it is not set again.
    let clock = options
        .time_control
        .clone()
        .filter(|_| options.resumed.is_none());
    let session_options = SessionOptions::new().set_clock(clock);
    let mut session = (protocol.new_session)(&session_options);
    let mut game = LiveGame::new(options.start, options.interpreter)
        .with_time_control(options.time_control)
        .recognising_chess960();
    let mut config = config;
    if let Some(resumed) = &options.resumed {
        let who = format!("board {}: ", sink.inner().name());
        resumed.replay_into(&mut game, session.as_mut(), sink.inner(), &who)?;
        config.start_at = resumed.resume_at;
    }
    let shutdown = async move {
        let _ = stopped.changed().await;
    };
    let parts = Parts {
        session: &mut session,
        game: &mut game,
        sink: &mut sink,
        controls: controls.as_mut(),
    };
    let watched = runner::run_with_controls(&mut connector, parts, config, shutdown).await;
    let name = sink.inner().name().to_owned();
    let finished = sink.into_inner().finish().map_err(anyhow::Error::from);
    super::super::session::session_outcome(watched, finished)
        .with_context(|| format!("board {name}"))
}
