//! `serve --players FILE`: who plays on which board, for the PGN's `White` and `Black` tags and
//! the pages. One line per board, `BOARD | WHITE | BLACK` (`#` starts a comment; a player left
//! empty is unknown), since names such as `Carlsen, Magnus` hold commas.

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context, Result, bail};

use touchmove::watched::Players;

/// Each board's players, by board name.
pub fn read(path: &Path) -> Result<HashMap<String, Players>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("--players {}: cannot read it", path.display()))?;
    parse(&text).map_err(|error| anyhow::anyhow!("--players {}:{error}", path.display()))
}

/// The players of `text`; an error says `LINE: what was wrong`.
fn parse(text: &str) -> Result<HashMap<String, Players>> {
    let mut boards = HashMap::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [board, white, black] = fields.as_slice() else {
            bail!("{number}: `{line}`: write BOARD | WHITE | BLACK");
        };
        if board.is_empty() {
            bail!("{number}: `{line}`: the board's name is empty");
        }
        let name = |player: &str| (!player.is_empty()).then(|| player.to_owned());
        let players = Players {
            white: name(white),
            black: name(black),
        };
        if boards.insert((*board).to_owned(), players).is_some() {
            bail!("{number}: board {board} is named twice");
        }
    }
    Ok(boards)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_line_names_a_board_s_players() {
        let text = "# round 4\nnorth | Carlsen, Magnus | Nakamura, Hikaru\n2 | Anna |  # unknown\n";
        let boards = parse(text).unwrap_or_default();
        let north = boards.get("north").cloned().unwrap_or_default();
        assert_eq!(north.white.as_deref(), Some("Carlsen, Magnus"));
        assert_eq!(north.black.as_deref(), Some("Nakamura, Hikaru"));
        assert_eq!(boards.get("2").and_then(|p| p.black.clone()), None);
    }

    #[test]
    fn a_bad_line_is_named() {
        let said = |text: &str| parse(text).err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(said("a | b\n"), "1: `a | b`: write BOARD | WHITE | BLACK");
        assert_eq!(
            said("\n | b | c"),
            "2: `| b | c`: the board's name is empty"
        );
        assert_eq!(said("1|a|b\n1|c|d"), "2: board 1 is named twice");
    }
}
