//! `touchmove demo`: the whole path with no hardware. An emulated board (DGT unless `--board`)
//! plays real games that end in mate on a pseudo-terminal, one after another (the board set up
//! again between them), and the same process watches it: the board, each move, ruling and
//! result as it is decided, in the terminal and on the board's page (its address is the first
//! line on standard output), until Ctrl-C.

use anyhow::{Context, Result};
use shakmaty::Chess;
use tokio_serial::SerialStream;

use touchmove::live::{LiveGame, Protocol, SessionOptions};
use touchmove::output::notation::Notation;
use touchmove::output::pgn::PgnTags;
use touchmove::runner::{self, Connector, RunnerConfig};
use touchmove::watched::WatchedBoard;
use touchmove_simulation::emulation::{EmulatedBoard, EmulatorOptions, ScriptSource, ScriptStart};

use super::args::DemoArgs;
use super::demo_games;
use super::emulator_pty::serve_on;
use super::one_page;
use super::session::announce;
use touchmove_runtime::sinks::watch::WatchSink;
use touchmove_runtime::tee::Tee;

/// Runs `touchmove demo`.
pub fn run(args: &DemoArgs) -> Result<()> {
    let protocol = touchmove::registry::find(&args.board)
        .with_context(|| format!("no board protocol is called `{}`", args.board))?;
    let count = demo_games::count();
    let first = usize::try_from(args.game)
        .ok()
        .and_then(|game| game.checked_sub(1))
        .filter(|&first| first < count)
        .with_context(|| {
            format!(
                "there is no game {} in the demo's games (1 to {count})",
                args.game
            )
        })?;
    let games = demo_games::round_from(first)?;
    let mut options = EmulatorOptions::new(ScriptSource::Games {
        games: demo_games::sequence(&games),
        messy: true,
    });
    options.start = ScriptStart::OnHost;
    options.speed = args.speed;
    options.seed = args.seed;
    let emulator = touchmove_simulation::emulators::find(protocol.name)
        .with_context(|| format!("a {} board cannot be emulated", protocol.name))?;
    let emulator = (emulator.new)(&options).context("cannot play the demo games")?;
    let runtime = super::session::runtime()?;
    let local = tokio::task::LocalSet::new();
    local.block_on(
        &runtime,
        demo(emulator, protocol, args, demo_games::pairings(&games)),
    )
}

/// Hands out the host's end of the pseudo-terminal once.
struct OwnEnd(Option<SerialStream>, &'static Protocol);

impl Connector for OwnEnd {
    type Port = SerialStream;

    async fn connect(&mut self) -> std::io::Result<(SerialStream, String)> {
        let port = self
            .0
            .take()
            .ok_or_else(|| std::io::Error::other("the emulated board has finished"))?;
        Ok((port, format!("the emulated {} board", self.1.name)))
    }
}

/// Plays the emulated board on one end of a pseudo-terminal pair and watches the other, the
/// games in the terminal and on the board's page, until Ctrl-C.
async fn demo(
    emulator: impl EmulatedBoard + 'static,
    protocol: &'static Protocol,
    args: &DemoArgs,
    pairings: Vec<touchmove::watched::Players>,
) -> Result<()> {
    let (board_end, host_end) =
        SerialStream::pair().context("cannot create a pseudo-terminal pair")?;
    // The board plays its games round and round; it stops with the process.
    let board = tokio::task::spawn_local(serve_on(board_end, emulator, demo_games::STAY));
    let start = Chess::default();
    let config = touchmove::interpreter::Config::default()
        .with_report_horizon_ms(protocol.report_horizon_ms)
        .with_scan_ms(protocol.scan_ms);
    let mut game = LiveGame::new(start.clone(), config);
    let mut session = (protocol.new_session)(&SessionOptions::new());
    let mut connector = OwnEnd(Some(host_end), protocol);
    let port = format!("the emulated {} board", protocol.name);
    let watched = WatchedBoard::new("1", protocol.name, &port, start.clone(), PgnTags::default())
        .with_pairings(pairings)
        .keeping_finished_games();
    let page = one_page::serve_one(args.listen, watched, Notation::San, None).await?;
    // JSON lines alone on standard output with --json.
    let address = format!("http://{}/board/1", page.address);
    if args.json {
        eprintln!("touchmove: the board's page is at {address}");
    } else {
        announce(&format!("serve: {address}"))?;
    }
    eprintln!("touchmove: the demo plays game after game; Ctrl-C stops it");
    let watch_sink = WatchSink::new(
        std::io::stdout().lock(),
        args.json,
        None,
        None,
        &start,
        PgnTags::default(),
    )
    .with_text(Notation::San, args.text.details, args.text.diagram());
    let mut sink = Tee(watch_sink, page.sink);
    let shutdown = super::session::stop_signal();
    let watched = runner::run(
        &mut connector,
        &mut session,
        &mut game,
        &mut sink,
        RunnerConfig::default(),
        shutdown,
    )
    .await;
    board.abort();
    super::session::session_outcome(watched, sink.0.finish())
}
