//! `touchmove emulate BOARD`: an emulated board of any protocol in the registry on a
//! pseudo-terminal, from a sensor log or a PGN game.

use std::fs::{self, File};
use std::io::BufReader;
use std::num::NonZeroU32;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};

use touchmove::sensor_log::{SensorLog, read_log};
use touchmove_simulation::emulation::{ClockModel, Presses, ScriptStart, Unplug};
use touchmove_simulation::emulation::{EmulatorOptions, ScriptSource};
use touchmove_simulation::pgn_games::read_games;

use shakmaty::Color;

use super::args::{ClockModelArg, EmulateArgs, EmulatedScriptArgs, PressesArg, Side};
use super::emulator_pty::serve;
use super::pgn_game::find_game;

/// Runs `touchmove emulate`.
pub fn run(args: &EmulateArgs) -> Result<()> {
    let protocol = touchmove::registry::find(&args.board)
        .with_context(|| format!("no board protocol is called `{}`", args.board))?;
    let (script, what) = script_source(&args.script)?;
    let options = options(args, script);
    let emulator = touchmove_simulation::emulators::find(protocol.name)
        .with_context(|| format!("a {} board cannot be emulated", protocol.name))?;
    let emulator = (emulator.new)(&options)
        .with_context(|| format!("{what}: cannot emulate a {} board", protocol.name))?;
    let runtime = super::session::runtime()?;
    let grace = Duration::from_millis(args.script.grace_ms);
    match (protocol.line, protocol.ble) {
        (None, Some(profile)) => runtime.block_on(serve_ble(profile, emulator, grace)),
        _ => runtime.block_on(serve(emulator, grace)),
    }
}

/// The address the emulated Bluetooth board has.
const EMULATED_ADDRESS: &str = "C0:FF:EE:00:00:01";

/// Serves the emulated Bluetooth LE board behind a BlueZ stand-in on the private bus
/// `DBUS_SYSTEM_BUS_ADDRESS` names, until its script is done and `grace` has passed, or
/// Ctrl-C. The first line on standard output is the port a host names (`port: ble:NAME`).
async fn serve_ble(
    profile: touchmove::live::BleProfile,
    emulator: Box<dyn touchmove_simulation::emulation::EmulatedBoard + Send>,
    grace: Duration,
) -> Result<()> {
    use touchmove_bluez_standin::{Peripheral, StandIn};
    let bus = StandIn::private_bus()?;
    let name = format!(
        "{} emulated",
        profile.names.first().copied().unwrap_or("board")
    );
    let peripheral = Peripheral {
        name: name.clone(),
        address: EMULATED_ADDRESS.to_owned(),
        rssi: -58,
        advertised: profile
            .services
            .iter()
            .map(|uuid| (*uuid).to_owned())
            .collect(),
        profile,
        board: emulator,
    };
    let standin = StandIn::serve(&bus, vec![peripheral]).await?;
    super::session::announce(&format!("port: ble:{name}"))?;
    let finished = async {
        standin.scripts_finished().await;
        tokio::time::sleep(grace).await;
    };
    tokio::select! {
        () = finished => Ok(()),
        signal = tokio::signal::ctrl_c() => signal.context("cannot wait for Ctrl-C"),
    }
}

/// The emulator's options from the command line.
fn options(args: &EmulateArgs, script: ScriptSource) -> EmulatorOptions {
    let played = &args.script;
    let board = &args.board_options;
    let mut options = EmulatorOptions::new(script);
    options.start = if played.no_wait {
        ScriptStart::AtOnce
    } else {
        ScriptStart::OnHost
    };
    options.speed = played.speed;
    options.noise = played.noise;
    options.seed = played.seed;
    options.rotated = board.rotated;
    options.white_on_clock = board.white_on_clock;
    options.time_control = board.time_control.clone();
    options.unplug = board
        .unplug_at
        .zip(board.unplug_for)
        .map(|(at, duration)| Unplug { at, duration });
    options.drop_every = board.drop_every.and_then(NonZeroU32::new);
    options.serial = board.serial;
    options.sentio = board.sentio;
    options.answer_after = board.answer_after;
    options.follow = played.follow.map(|side| match side {
        Side::White => Color::White,
        Side::Black => Color::Black,
    });
    options.thinking_ms = played.thinking;
    options.presses = match played.presses {
        PressesArg::Every => Presses::Every,
        PressesArg::Own => Presses::Own,
        PressesArg::Never => Presses::Never,
    };
    options.clock_model = match board.clock {
        ClockModelArg::Xl => ClockModel::Xl,
        ClockModelArg::Dgt3000 => ClockModel::Dgt3000,
    };
    options
}

/// The script the options name, and how to name it in a message (`FILE` or `FILE: game N`).
fn script_source(args: &EmulatedScriptArgs) -> Result<(ScriptSource, String)> {
    if let Some(path) = &args.log {
        return Ok((
            ScriptSource::Log(Box::new(read_log_file(path)?)),
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
    let script = ScriptSource::Game {
        start: game.start,
        moves: game.moves,
        messy: args.messy,
    };
    Ok((script, what))
}

/// A sensor log from a file.
fn read_log_file(path: &Path) -> Result<SensorLog> {
    let text =
        fs::read_to_string(path).with_context(|| format!("{}: cannot read", path.display()))?;
    read_log(&text).with_context(|| format!("{}: malformed log", path.display()))
}
