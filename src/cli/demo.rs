//! `touchmove demo`: the whole path with no hardware. An emulated DGT board plays a real game
//! on a pseudo-terminal, and the same process watches it: the board, each move and ruling as it
//! is decided.

use std::io::Cursor;
use std::time::Duration;

use anyhow::{Context, Result};
use shakmaty::Chess;
use tokio::sync::oneshot;
use tokio_serial::SerialStream;

use touchmove::dgt::emulator::{DgtBoardEmulator, EmulatorConfig, Script, ScriptStart};
use touchmove::dgt::link::DgtLink;
use touchmove::live::LiveGame;
use touchmove::live::runner::{self, Connector, RunnerConfig};
use touchmove::pgn_games::read_games;
use touchmove::simulate::{BoardKind, HandStyle};

use super::args::DemoArgs;
use super::dgt_pty::serve_on;
use super::watch_sink::WatchSink;

/// The games the demo plays (Kasparov – Deep Blue, 1997), built into the binary so the demo
/// runs from anywhere.
const GAMES: &str = include_str!("../../fixtures/corpus/kasparov-deep-blue-1997.pgn");

/// Runs `touchmove demo`.
pub fn run(args: &DemoArgs) -> Result<()> {
    let script = script(args.game, args.seed)?;
    let mut config = EmulatorConfig::new(script);
    config.start = ScriptStart::OnUpdateMode;
    config.speed = args.speed;
    config.seed = args.seed;
    let emulator = DgtBoardEmulator::new(config);
    let runtime = super::runtime()?;
    runtime.block_on(demo(emulator, args.json))
}

/// Game `number` of the built-in file, played by simulated hands on a DGT board.
fn script(number: u64, seed: u64) -> Result<Script> {
    let game = read_games(Cursor::new(GAMES))
        .filter_map(Result::ok)
        .find(|game| game.number as u64 == number)
        .with_context(|| format!("there is no game {number} in the demo's file (1 to 6)"))?;
    let style = HandStyle::messy(BoardKind::Identifying);
    Script::from_game(&game.start, &game.moves, &style, seed).context("cannot play the demo game")
}

/// Hands out the host's end of the pseudo-terminal once.
struct OwnEnd(Option<SerialStream>);

impl Connector for OwnEnd {
    type Port = SerialStream;

    async fn connect(&mut self) -> std::io::Result<(SerialStream, String)> {
        let port = self
            .0
            .take()
            .ok_or_else(|| std::io::Error::other("the emulated board has finished"))?;
        Ok((port, "the emulated DGT board".to_owned()))
    }
}

async fn demo(emulator: DgtBoardEmulator, json: bool) -> Result<()> {
    let (board_end, host_end) =
        SerialStream::pair().context("cannot create a pseudo-terminal pair")?;
    let (finished, board_done) = oneshot::channel::<()>();
    let board = async move {
        let served = serve_on(board_end, emulator, Duration::from_secs(1)).await;
        let _ = finished.send(());
        served
    };
    let start = Chess::default();
    let horizon = touchmove::dgt::protocol::REPORT_HORIZON_MS;
    let config = touchmove::interpreter::Config {
        report_horizon_ms: horizon,
        ..touchmove::interpreter::Config::default()
    };
    let mut game = LiveGame::new(start.clone(), config);
    let mut link = DgtLink::default();
    let mut connector = OwnEnd(Some(host_end));
    let mut sink = WatchSink::new(std::io::stdout().lock(), json, None, None, &start, None);
    let shutdown = async {
        let _ = board_done.await;
    };
    let watch = runner::run(
        &mut connector,
        &mut link,
        &mut game,
        &mut sink,
        RunnerConfig::default(),
        shutdown,
    );
    let (served, watched) = tokio::join!(board, watch);
    served?;
    watched.context("watching the emulated board")?;
    sink.finish()
}
