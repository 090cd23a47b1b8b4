//! `serve --demo N`: emulated DGT boards inside the process, each on its own pseudo-terminal,
//! playing real games that end in mate by simulated hands, one after another (board i starts
//! with game i of the demo's games, counted from a game of the host's own, and plays the next
//! seven after it, then the eight again), the board cleared and set up again between two games.

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use tokio_serial::SerialStream;

use touchmove::runner::AnotherBoard;
use touchmove_simulation::emulation::{EmulatorOptions, ScriptSource, ScriptStart};

use super::super::args::ServeArgs;
use super::super::demo_games;
use super::super::emulator_pty::serve_on;
use super::connector::{OwnEnd, PlannedConnector};
use super::runners::{Planned, Setup};
use touchmove_web::board::BoardHandle;
use touchmove_web::stamps::{Stamped, WriteStamps};

/// Over how long the demo boards are switched on, one after another.
const POWER_UP: Duration = Duration::from_secs(1);

/// Starts `count` emulated boards, numbered on from `first` (the boards given by --board
/// come first), and plans their watching.
pub fn start(args: &ServeArgs, setup: &Setup, first: usize, count: u32) -> Result<Vec<Planned>> {
    let protocol = &touchmove::dgt::PROTOCOL;
    let emulator = touchmove_simulation::emulators::find(protocol.name)
        .context("the DGT board cannot be emulated")?;
    let mut planned = Vec::new();
    // Each host's boards start at a game of their own (unless --demo-first says which): two
    // hosts' demos play other pairings.
    let offset = match args.demo_first {
        Some(first) => usize::from(first).saturating_sub(1),
        None => host_offset(setup.host()),
    };
    for i in 0..usize::try_from(count).unwrap_or(0) {
        let order = demo_games::round_from(i.wrapping_add(offset))?;
        let mut options = EmulatorOptions::new(ScriptSource::Games {
            games: demo_games::sequence(&order),
            messy: false,
        });
        options.thinking_ms = Some(args.demo_thinking);
        options.start = ScriptStart::OnHost;
        options.speed = args.demo_speed;
        options.seed = u64::try_from(i).unwrap_or(0);
        // Each demo board its own serial number (board 1's 27001...), as boards in a hall have.
        options.serial = u32::try_from(first + i + 1).ok().map(|n| 27_000 + n);
        options.time_control = args.interpreter.time_control.clone();
        let board = (emulator.new)(&options).context("cannot play a demo game")?;
        let (board_end, host_end) =
            SerialStream::pair().context("cannot create a pseudo-terminal pair")?;
        let stamps = Arc::new(WriteStamps::default());
        let board_end = Stamped::new(board_end, Arc::clone(&stamps));
        let host_end = Stamped::new(host_end, Arc::clone(&stamps));
        // Boards switched on in turn over a second, as in a hall: their clocks do not all
        // tick in the same millisecond. Each is watched once it is on.
        let power_up = POWER_UP.mul_f64(i as f64 / f64::from(count.max(1)));
        let powered = tokio::time::Instant::now() + power_up;
        tokio::task::spawn_local(async move {
            tokio::time::sleep(power_up).await;
            if let Err(error) = serve_on(board_end, board, demo_games::STAY).await {
                eprintln!("touchmove: an emulated board stopped: {error:#}");
            }
        });
        let name = (first + i + 1).to_string();
        let port = format!("emulated DGT board {name}");
        let board = setup.board(&name, protocol, &port);
        // Players named by --players (or the hall file) play every game of their board.
        let board = if setup.seats(&name) {
            board
        } else {
            board.with_pairings(demo_games::pairings(&order))
        };
        let handle = BoardHandle::new(board);
        planned.push(Planned {
            handle: Arc::new(handle),
            protocol,
            connector: PlannedConnector::Demo(OwnEnd::new(host_end, port, powered)),
            stamps: Some(stamps),
            another_board: AnotherBoard::NewGame,
        });
    }
    Ok(planned)
}

/// Where host `host`'s demo boards start in the demo's games: the host's name hashed
/// (FNV-1a, 64 bits: the same on every machine and every run).
fn host_offset(host: &str) -> usize {
    let hash = host.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    usize::try_from(hash % 1_000_003).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_start_their_demos_at_games_of_their_own() {
        // FNV-1a of the empty name is its offset basis, 0xcbf29ce484222325.
        assert_eq!(
            host_offset(""),
            usize::try_from(0xcbf2_9ce4_8422_2325_u64 % 1_000_003).unwrap_or(0)
        );
        // FNV-1a of "a" is 0xaf63dc4c8601ec8c (the published test vector).
        assert_eq!(
            host_offset("a"),
            usize::try_from(0xaf63_dc4c_8601_ec8c_u64 % 1_000_003).unwrap_or(0)
        );
        let games = demo_games::count();
        let first = |host: &str| host_offset(host) % games;
        assert_ne!(first("hall-a"), first("hall-b"));
    }
}
