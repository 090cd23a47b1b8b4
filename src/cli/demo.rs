//! `touchmove demo`: the whole path with no hardware. An emulated board (DGT unless `--board`)
//! plays a real game on a pseudo-terminal, and the same process watches it: the board, each
//! move and ruling as it is decided, in the terminal and on the board's page (its address is
//! the first line on standard output).

use std::io::Cursor;
use std::time::Duration;

use anyhow::{Context, Result};
use shakmaty::Chess;
use tokio::sync::oneshot;
use tokio_serial::SerialStream;

use touchmove::emulation::{EmulatedBoard, EmulatorOptions, ScriptSource, ScriptStart};
use touchmove::live::runner::{self, Connector, RunnerConfig};
use touchmove::live::{LiveGame, Protocol, SessionOptions, WatchedBoard};
use touchmove::output::notation::Notation;
use touchmove::output::pgn::PgnTags;
use touchmove::pgn_games::read_games;

use super::args::DemoArgs;
use super::emulator_pty::serve_on;
use super::serve;
use super::tee_sink::Tee;
use super::watch_sink::WatchSink;

/// The games the demo plays (Kasparov – Deep Blue, 1997), built into the binary so the demo
/// runs from anywhere.
const GAMES: &str = include_str!("../../fixtures/corpus/kasparov-deep-blue-1997.pgn");

/// Runs `touchmove demo`.
pub fn run(args: &DemoArgs) -> Result<()> {
    let protocol = touchmove::boards::find(&args.board)
        .with_context(|| format!("no board protocol is called `{}`", args.board))?;
    let game = read_games(Cursor::new(GAMES))
        .filter_map(Result::ok)
        .find(|game| game.number as u64 == args.game)
        .with_context(|| format!("there is no game {} in the demo's file (1 to 6)", args.game))?;
    let mut options = EmulatorOptions::new(ScriptSource::Game {
        start: game.start,
        moves: game.moves,
        messy: true,
    });
    options.start = ScriptStart::OnHost;
    options.speed = args.speed;
    options.seed = args.seed;
    let emulator = protocol
        .emulator
        .with_context(|| format!("a {} board cannot be emulated", protocol.name))?;
    let emulator = (emulator.new)(&options).context("cannot play the demo game")?;
    let runtime = super::runtime()?;
    runtime.block_on(demo(emulator, protocol, args))
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
/// game in the terminal and on the board's page.
async fn demo(
    emulator: impl EmulatedBoard,
    protocol: &'static Protocol,
    args: &DemoArgs,
) -> Result<()> {
    let (board_end, host_end) =
        SerialStream::pair().context("cannot create a pseudo-terminal pair")?;
    let (finished, board_done) = oneshot::channel::<()>();
    let board = async move {
        let served = serve_on(board_end, emulator, Duration::from_secs(1)).await;
        let _ = finished.send(());
        served
    };
    let start = Chess::default();
    let config = touchmove::interpreter::Config::default()
        .with_report_horizon_ms(protocol.report_horizon_ms)
        .with_scan_ms(protocol.scan_ms);
    let mut game = LiveGame::new(start.clone(), config);
    let mut session = (protocol.new_session)(&SessionOptions::new());
    let mut connector = OwnEnd(Some(host_end), protocol);
    let port = format!("the emulated {} board", protocol.name);
    let watched = WatchedBoard::new("1", protocol.name, &port, start.clone(), PgnTags::default());
    let page = serve::serve_one(args.listen, watched, Notation::San).await?;
    // JSON lines alone on standard output with --json.
    let address = format!("http://{}/board/1", page.address);
    if args.json {
        eprintln!("touchmove: the board's page is at {address}");
    } else {
        serve::announce(&format!("serve: {address}"))?;
    }
    let watch_sink = WatchSink::new(
        std::io::stdout().lock(),
        args.json,
        None,
        None,
        &start,
        touchmove::output::pgn::PgnTags::default(),
    );
    let mut sink = Tee(watch_sink, page.sink);
    let shutdown = async {
        let _ = board_done.await;
    };
    let watch = runner::run(
        &mut connector,
        &mut session,
        &mut game,
        &mut sink,
        RunnerConfig::default(),
        shutdown,
    );
    let (served, watched) = tokio::join!(board, watch);
    served?;
    watched.context("watching the emulated board")?;
    sink.0.finish()
}
