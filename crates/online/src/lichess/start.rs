//! Where a game of the server starts: its initial FEN read (`startpos` or a FEN, a Chess960
//! start included), and what the player is told to set up.

use shakmaty::Chess;
use shakmaty::fen::Fen;

/// Why a game's initial FEN gives no position to play from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// It does not read as a FEN.
    #[error("the game's initial FEN `{0}` does not read")]
    Unread(String),
    /// It reads, but is no position a game can start from.
    #[error("the game's initial FEN `{0}` is no position")]
    NoPosition(String),
}

/// What to set up on the board when the game does not start from the standard position: its
/// FEN, and its number when it is a Chess960 start (nothing for the standard start).
pub fn set_up_from(start: &Chess) -> String {
    if *start == Chess::default() {
        return String::new();
    }
    let fen = Fen::from_position(start, shakmaty::EnPassantMode::Legal);
    match touchmove_core::rules::chess960::number_of(shakmaty::Position::board(start)) {
        Some(number) => format!("; Chess960 position {number}: set up {fen}"),
        None => format!("; set up {fen}"),
    }
}

/// The game's starting position: `startpos` or a FEN.
pub fn start_position(initial_fen: &str) -> Result<Chess, StartError> {
    if initial_fen == "startpos" {
        return Ok(Chess::default());
    }
    let unread = |_| StartError::Unread(initial_fen.to_owned());
    let fen: Fen = initial_fen.parse().map_err(unread)?;
    touchmove_core::rules::chess960::from_fen(&fen)
        .map_err(|_| StartError::NoPosition(initial_fen.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_startpos_or_a_fen() {
        assert_eq!(start_position("startpos").ok(), Some(Chess::default()));
        assert!(start_position("8/8/8/8/8/8/8/8 w - - 0 1").is_err());
        assert!(
            start_position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").is_ok()
        );
    }

    #[test]
    fn a_chess960_start_is_named_by_its_number() {
        assert_eq!(set_up_from(&Chess::default()), "");
        // Position 518 is the standard array: the standard start says nothing; a Chess960
        // start (number 0: BBQNNRKR) says its number and its FEN.
        let start = start_position("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1")
            .expect("a Chess960 start");
        assert_eq!(
            set_up_from(&start),
            "; Chess960 position 0: set up bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
        );
    }
}
