//! A game of a PGN file picked by its number (`simulate --game N`, `emulate --pgn FILE --game N`).

use std::path::Path;

use anyhow::{Context, Result, bail};
use touchmove_simulation::pgn_games::{PgnError, PgnGame};

/// Game `number` of the file, or why it cannot be had.
pub fn find_game(
    mut games: impl Iterator<Item = Result<PgnGame, PgnError>>,
    number: u64,
    pgn: &Path,
) -> Result<PgnGame> {
    let wanted = usize::try_from(number).context("game number too large")?;
    let found = games.find(|game| match game {
        Ok(game) => game.number == wanted,
        Err(error) => error.game() == wanted,
    });
    match found {
        Some(game) => game.with_context(|| format!("{}: cannot read game {number}", pgn.display())),
        None => bail!("{}: there is no game {number}", pgn.display()),
    }
}
