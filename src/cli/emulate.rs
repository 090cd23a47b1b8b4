//! `touchmove emulate`: an emulated board on a pseudo-terminal, from a sensor log or a PGN game.

use std::fs::{self, File};
use std::io::BufReader;
use std::num::NonZeroU32;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};

use touchmove::clock::{Bonus, TimeControl};
use touchmove::dgt::emulator::{
    ClockSide as EmulatedClockSide, DgtBoardEmulator, EmulatorConfig, Script, ScriptStart, Unplug,
};
use touchmove::hall::emulator::{
    HallBoardEmulator, HallEmulatorConfig, HallScript, HallScriptStart,
};
use touchmove::pgn_games::{PgnGame, read_games};
use touchmove::sensor_log::{SensorLog, read_log};
use touchmove::simulate::{BoardKind, HandStyle};

use super::args::{
    ClockSide, EmulateArgs, EmulateDgtArgs, EmulateHallArgs, EmulatedBoard, EmulatedScriptArgs,
};
use super::dgt_pty::{PtyBoard, serve};
use super::simulate::find_game;

/// Runs `touchmove emulate`.
pub fn run(args: &EmulateArgs) -> Result<()> {
    match &args.board {
        EmulatedBoard::Dgt(args) => {
            let emulator = DgtBoardEmulator::new(dgt_config(args)?);
            run_loop(emulator, args.script.grace_ms)
        }
        EmulatedBoard::Hall(args) => {
            let emulator = HallBoardEmulator::new(hall_config(args)?);
            run_loop(emulator, args.script.grace_ms)
        }
    }
}

/// Serves `emulator` on a pseudo-terminal until its script is done and `grace_ms` have passed.
fn run_loop(emulator: impl PtyBoard, grace_ms: u64) -> Result<()> {
    let runtime = super::runtime()?;
    runtime.block_on(serve(emulator, Duration::from_millis(grace_ms)))
}

/// The Hall emulator's settings from the command line.
fn hall_config(args: &EmulateHallArgs) -> Result<HallEmulatorConfig> {
    let played = &args.script;
    let (source, what) = script_source(played)?;
    let script = match source {
        ScriptSource::Log(log) => HallScript::from_log(&log),
        ScriptSource::Game(game) => {
            HallScript::from_game(&game.start, &game.moves, played.messy, played.seed)
        }
    }
    .with_context(|| format!("{what}: cannot emulate"))?;
    let mut config = HallEmulatorConfig::new(script);
    config.start = if played.no_wait {
        HallScriptStart::AtOnce
    } else {
        HallScriptStart::OnFirstHostFrame
    };
    config.speed = played.speed;
    config.noise = played.noise;
    config.seed = played.seed;
    config.drop_every = args.drop_every.and_then(NonZeroU32::new);
    Ok(config)
}

/// The DGT emulator's settings from the command line.
fn dgt_config(args: &EmulateDgtArgs) -> Result<EmulatorConfig> {
    let played = &args.script;
    let (source, what) = script_source(played)?;
    let script = match source {
        ScriptSource::Log(log) => Script::from_log(&log, played.seed),
        ScriptSource::Game(game) => {
            let board = BoardKind::Identifying;
            let style = if played.messy {
                HandStyle::messy(board)
            } else {
                HandStyle::clean(board)
            };
            Script::from_game(&game.start, &game.moves, &style, played.seed)
        }
    }
    .with_context(|| format!("{what}: cannot emulate"))?;
    let mut config = EmulatorConfig::new(script);
    config.start = if played.no_wait {
        ScriptStart::AtOnce
    } else {
        ScriptStart::OnUpdateMode
    };
    config.speed = played.speed;
    config.noise = played.noise;
    config.seed = played.seed;
    config.rotated = args.rotated;
    config.clock.white = match args.white_on_clock {
        ClockSide::Left => EmulatedClockSide::Left,
        ClockSide::Right => EmulatedClockSide::Right,
    };
    if let Some(TimeControl::Timed(schedule)) = &args.time_control {
        let first = schedule.period(0);
        config.clock.initial_ms = u64::from(first.seconds) * 1000;
        if let Bonus::Increment(seconds) = first.bonus {
            config.clock.increment_ms = u64::from(seconds) * 1000;
        }
    }
    config.unplug = args
        .unplug_at
        .zip(args.unplug_for)
        .map(|(at, duration)| Unplug { at, duration });
    Ok(config)
}

/// What an emulated board plays.
enum ScriptSource {
    /// A recorded sensor log.
    Log(SensorLog),
    /// A game, for simulated hands.
    Game(PgnGame),
}

/// The script the options name, and how to name it in a message (`FILE` or `FILE: game N`).
fn script_source(args: &EmulatedScriptArgs) -> Result<(ScriptSource, String)> {
    if let Some(path) = &args.log {
        return Ok((
            ScriptSource::Log(read_log_file(path)?),
            path.display().to_string(),
        ));
    }
    let Some(path) = &args.pgn else {
        anyhow::bail!("give --log or --pgn");
    };
    let file = File::open(path).with_context(|| format!("{}: cannot open", path.display()))?;
    let number = args.game.unwrap_or(1);
    let game = find_game(read_games(BufReader::new(file)), number, path)?;
    let what = format!("{}: game {number}", path.display());
    Ok((ScriptSource::Game(game), what))
}

/// A sensor log from a file.
fn read_log_file(path: &Path) -> Result<SensorLog> {
    let text =
        fs::read_to_string(path).with_context(|| format!("{}: cannot read", path.display()))?;
    read_log(&text).with_context(|| format!("{}: malformed log", path.display()))
}
