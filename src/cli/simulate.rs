//! `touchmove simulate`: games of a PGN file turned into the sensor logs of simulated hands.

use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Write};
use std::path::Path;

use anyhow::{Context, Result};

use touchmove_simulation::pgn_games::{PgnGame, read_games};
use touchmove_simulation::simulate::{HandStyle, simulate};

use super::args::SimulateArgs;
use super::pgn_game::find_game;
use super::simulated_log::{Source, write_simulated_log};

/// Runs `touchmove simulate`.
pub fn run(args: &SimulateArgs) -> Result<()> {
    let style = args.style.hand_style();
    let file =
        File::open(&args.pgn).with_context(|| format!("{}: cannot open", args.pgn.display()))?;
    let games = read_games(BufReader::new(file));
    match (&args.output, args.all) {
        (Some(dir), true) => simulate_all(args, &style, games, dir),
        (output, _) => {
            let number = args.game.unwrap_or(1);
            let game = find_game(games, number, &args.pgn)?;
            match output {
                Some(path) => write_to_file(args, &style, &game, path),
                None => write_game(args, &style, &game, io::stdout().lock()),
            }
        }
    }
}

/// Every readable game to `<dir>/game-NNNN.log`.
fn simulate_all(
    args: &SimulateArgs,
    style: &HandStyle,
    games: impl Iterator<Item = Result<PgnGame, touchmove_simulation::pgn_games::PgnError>>,
    dir: &Path,
) -> Result<()> {
    fs::create_dir_all(dir).with_context(|| format!("{}: cannot create", dir.display()))?;
    for game in games {
        match game {
            Ok(game) => {
                let path = dir.join(format!("game-{:04}.log", game.number));
                write_to_file(args, style, &game, &path)?;
            }
            Err(error) => tracing::warn!("{}: skipped: {error}", args.pgn.display()),
        }
    }
    Ok(())
}

fn write_to_file(
    args: &SimulateArgs,
    style: &HandStyle,
    game: &PgnGame,
    path: &Path,
) -> Result<()> {
    let file = File::create(path).with_context(|| format!("{}: cannot create", path.display()))?;
    write_game(args, style, game, BufWriter::new(file))
        .with_context(|| format!("{}: cannot write", path.display()))
}

/// Simulates `game` and writes its log to `out`.
fn write_game(
    args: &SimulateArgs,
    style: &HandStyle,
    game: &PgnGame,
    out: impl Write,
) -> Result<()> {
    let seed = args.seed.wrapping_add(game.number as u64);
    let simulated = simulate(&game.start, &game.moves, style, seed)
        .with_context(|| format!("game {}: cannot simulate", game.number))?;
    let source = Source {
        pgn: &args.pgn,
        game,
        seed,
        style,
    };
    write_simulated_log(out, &source, &simulated)?;
    Ok(())
}
