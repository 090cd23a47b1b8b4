//! `serve --demo N`: emulated DGT boards inside the process, each on its own pseudo-terminal,
//! playing a game of Kasparov – Deep Blue 1997 by simulated hands (board i plays game i, the
//! six games in turn).

use std::io::Cursor;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use tokio_serial::SerialStream;

use touchmove::emulation::{EmulatorOptions, ScriptSource, ScriptStart};
use touchmove::live::runner::Connector;
use touchmove::pgn_games::{PgnGame, read_games};

use super::super::args::ServeArgs;
use super::super::emulator_pty::serve_on;
use super::board::BoardHandle;
use super::{Planned, PlannedConnector, tags};

/// The games the demo boards play, built into the binary.
const GAMES: &str = include_str!("../../../fixtures/corpus/kasparov-deep-blue-1997.pgn");

/// How long a demo board stays once its game is over, showing the final position.
const STAY: Duration = Duration::from_secs(365 * 24 * 3600);

/// Hands out the host's end of an emulated board's pseudo-terminal once.
pub struct OwnEnd(Option<SerialStream>, String);

impl Connector for OwnEnd {
    type Port = SerialStream;

    async fn connect(&mut self) -> std::io::Result<(SerialStream, String)> {
        let port = self
            .0
            .take()
            .ok_or_else(|| std::io::Error::other("the emulated board has gone"))?;
        Ok((port, self.1.clone()))
    }
}

/// Starts `count` emulated boards, numbered on from `first` (the boards given by --board
/// come first), and plans their watching.
pub fn start(args: &ServeArgs, first: usize, count: u32) -> Result<Vec<Planned>> {
    let games: Vec<PgnGame> = read_games(Cursor::new(GAMES))
        .filter_map(Result::ok)
        .collect();
    let protocol = &touchmove::dgt::PROTOCOL;
    let emulator = protocol
        .emulator
        .context("the DGT board cannot be emulated")?;
    let mut planned = Vec::new();
    for i in 0..usize::try_from(count).unwrap_or(0) {
        let Some(game) = games.get(i % games.len().max(1)) else {
            anyhow::bail!("the demo has no games");
        };
        let mut options = EmulatorOptions::new(ScriptSource::Game {
            start: game.start.clone(),
            moves: game.moves.clone(),
            messy: false,
        });
        options.start = ScriptStart::OnHost;
        options.speed = args.demo_speed;
        options.seed = u64::try_from(i).unwrap_or(0);
        options.time_control = args.interpreter.time_control.clone();
        let board = (emulator.new)(&options).context("cannot play a demo game")?;
        let (board_end, host_end) =
            SerialStream::pair().context("cannot create a pseudo-terminal pair")?;
        tokio::task::spawn_local(async move {
            if let Err(error) = serve_on(board_end, board, STAY).await {
                eprintln!("touchmove: an emulated board stopped: {error:#}");
            }
        });
        let name = (first + i + 1).to_string();
        let players = game.tag("White").zip(game.tag("Black"));
        let players = players.map(|(white, black)| (white.to_owned(), black.to_owned()));
        let port = format!("emulated DGT board {name}");
        let handle = BoardHandle::new(
            &name,
            protocol.name,
            &port,
            &game.start,
            tags(args, &name, players),
        );
        planned.push(Planned {
            handle: Arc::new(handle),
            protocol,
            connector: PlannedConnector::Demo(OwnEnd(Some(host_end), port)),
        });
    }
    Ok(planned)
}
