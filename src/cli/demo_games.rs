//! The games the demos play (`touchmove demo`, `serve --demo`), built into the binary: real
//! games that end in checkmate (`fixtures/corpus/README.md`), so that a board plays one after
//! another, set up again between them, as players do after a game that ended on the board.

use std::io::Cursor;
use std::time::Duration;

use anyhow::{Result, bail};

use touchmove::watched::Players;
use touchmove_simulation::pgn_games::{PgnGame, read_games};
use touchmove_simulation::simulate::SequenceGame;

/// The games, in the file's order (`fixtures/corpus/demo.pgn`).
const GAMES: &str = include_str!("../../fixtures/corpus/demo.pgn");

/// How many games a demo board plays, one after another, before it plays them again (at a
/// blitz pace about 40 minutes, at the default pace about an hour). Its script is made in
/// advance and held in memory.
pub const GAMES_PER_BOARD: usize = 8;

/// How long a demo board would stay once its script is done (a script of games goes round:
/// never).
pub const STAY: Duration = Duration::from_secs(365 * 24 * 3600);

/// How many games there are.
pub fn count() -> usize {
    read_games(Cursor::new(GAMES))
        .filter_map(Result::ok)
        .count()
}

/// [`GAMES_PER_BOARD`] games in the file's order, from game `first` (0-based, taken round the
/// file), the last followed by the first.
pub fn round_from(first: usize) -> Result<Vec<PgnGame>> {
    let games: Vec<PgnGame> = read_games(Cursor::new(GAMES))
        .filter_map(Result::ok)
        .collect();
    if games.is_empty() {
        bail!("the demo has no games");
    }
    let skip = first % games.len();
    Ok(games
        .into_iter()
        .cycle()
        .skip(skip)
        .take(GAMES_PER_BOARD)
        .collect())
}

/// The games as simulated hands play them one after another.
pub fn sequence(games: &[PgnGame]) -> Vec<SequenceGame> {
    games
        .iter()
        .map(|game| SequenceGame {
            start: game.start.clone(),
            moves: game.moves.clone(),
        })
        .collect()
}

/// The players of each game, from its tags.
pub fn pairings(games: &[PgnGame]) -> Vec<Players> {
    games
        .iter()
        .map(|game| Players {
            white: game.tag("White").map(str::to_owned),
            black: game.tag("Black").map(str::to_owned),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use shakmaty::Position;

    use super::*;

    #[test]
    fn a_round_goes_on_from_the_first_game_asked_and_every_game_ends_in_mate() {
        let all = round_from(0).expect("games");
        let count = count();
        assert!(count >= GAMES_PER_BOARD, "{count} games");
        let last = round_from(count - 1).expect("games");
        assert_eq!(
            last.get(1).map(|g| g.tag("White")),
            all.first().map(|g| g.tag("White"))
        );
        for game in &all {
            let mut position = game.start.clone();
            for played in &game.moves {
                position.play_unchecked(*played);
            }
            assert!(
                position.is_checkmate(),
                "{:?} does not end in mate",
                game.tag("White")
            );
        }
    }
}
