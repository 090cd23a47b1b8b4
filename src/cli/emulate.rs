//! `touchmove emulate`: an emulated board on a pseudo-terminal, from a sensor log or a PGN game.

use std::fs::{self, File};
use std::io::BufReader;
use std::num::NonZeroU32;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};

use touchmove::clock::TimeControl;
use touchmove::dgt::emulator::{DgtBoardEmulator, EmulatorConfig, Script, ScriptStart, Unplug};
use touchmove::hall::emulator::{
    HallBoardEmulator, HallEmulatorConfig, HallScript, HallScriptStart,
};
use touchmove::pgn_games::read_games;
use touchmove::sensor_log::{SensorLog, read_log};
use touchmove::simulate::{BoardKind, HandStyle};

use super::args::{EmulateArgs, EmulateDgtArgs, EmulateHallArgs, EmulatedBoard};
use super::dgt_pty::{PtyBoard, serve};
use super::simulate::find_game;

/// Runs `touchmove emulate`.
pub fn run(args: &EmulateArgs) -> Result<()> {
    match &args.board {
        EmulatedBoard::Dgt(args) => run_loop(DgtBoardEmulator::new(config(args)?), args.grace_ms),
        EmulatedBoard::Hall(args) => {
            run_loop(HallBoardEmulator::new(hall_config(args)?), args.grace_ms)
        }
    }
}

/// Serves `emulator` on a pseudo-terminal until its script is done and `grace_ms` have passed.
fn run_loop(emulator: impl PtyBoard, grace_ms: u64) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(serve(emulator, Duration::from_millis(grace_ms)))
}

/// The Hall emulator's settings from the command line.
fn hall_config(args: &EmulateHallArgs) -> Result<HallEmulatorConfig> {
    let mut config = HallEmulatorConfig::new(hall_script(args)?);
    config.start = if args.no_wait {
        HallScriptStart::AtOnce
    } else {
        HallScriptStart::OnFirstHostFrame
    };
    config.speed = args.speed;
    config.noise = args.noise;
    config.drop_every = args.drop_every.and_then(NonZeroU32::new);
    config.seed = args.seed;
    Ok(config)
}

/// What happens on the Hall board: from the log, or from the PGN game through simulated hands.
fn hall_script(args: &EmulateHallArgs) -> Result<HallScript> {
    if let Some(path) = &args.log {
        let log = read_log_file(path)?;
        return HallScript::from_log(&log)
            .with_context(|| format!("{}: cannot emulate", path.display()));
    }
    let Some(path) = &args.pgn else {
        anyhow::bail!("give --log or --pgn");
    };
    let file = File::open(path).with_context(|| format!("{}: cannot open", path.display()))?;
    let number = args.game.unwrap_or(1);
    let game = find_game(read_games(BufReader::new(file)), number, path)?;
    HallScript::from_game(&game.start, &game.moves, args.messy, args.seed)
        .with_context(|| format!("{}: game {number}: cannot emulate", path.display()))
}

/// A sensor log from a file.
fn read_log_file(path: &Path) -> Result<SensorLog> {
    let text =
        fs::read_to_string(path).with_context(|| format!("{}: cannot read", path.display()))?;
    read_log(&text).with_context(|| format!("{}: malformed log", path.display()))
}

/// The emulator's settings from the command line.
fn config(args: &EmulateDgtArgs) -> Result<EmulatorConfig> {
    let mut config = EmulatorConfig::new(script(args)?);
    config.start = if args.no_wait {
        ScriptStart::AtOnce
    } else {
        ScriptStart::OnUpdateMode
    };
    config.speed = args.speed;
    config.rotated = args.rotated;
    config.noise = args.noise;
    config.seed = args.seed;
    if let Some(TimeControl::Timed(schedule)) = &args.time_control {
        let first = schedule.period(0);
        config.clock.initial_ms = u64::from(first.seconds) * 1000;
        if let touchmove::clock::Bonus::Increment(seconds) = first.bonus {
            config.clock.increment_ms = u64::from(seconds) * 1000;
        }
    }
    config.unplug = args
        .unplug_at
        .zip(args.unplug_for)
        .map(|(at, duration)| Unplug { at, duration });
    Ok(config)
}

/// What happens on the board: from the log, or from the PGN game through simulated hands.
fn script(args: &EmulateDgtArgs) -> Result<Script> {
    if let Some(path) = &args.log {
        let log = read_log_file(path)?;
        return Script::from_log(&log, args.seed)
            .with_context(|| format!("{}: cannot emulate", path.display()));
    }
    let Some(path) = &args.pgn else {
        anyhow::bail!("give --log or --pgn");
    };
    let file = File::open(path).with_context(|| format!("{}: cannot open", path.display()))?;
    let number = args.game.unwrap_or(1);
    let game = find_game(read_games(BufReader::new(file)), number, path)?;
    let style = if args.messy {
        HandStyle::messy(BoardKind::Identifying)
    } else {
        HandStyle::clean(BoardKind::Identifying)
    };
    Script::from_game(&game.start, &game.moves, &style, args.seed)
        .with_context(|| format!("{}: game {number}: cannot emulate", path.display()))
}
