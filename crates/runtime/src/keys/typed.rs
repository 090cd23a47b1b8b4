//! What the player types at the terminal during a game: a line at a time, read on a thread of
//! its own (a read of a terminal blocks; the thread ends with the process).

use std::io::{self, BufRead};

use shakmaty::Role;

/// Reads the lines typed, trimmed, and hands each non-empty one to `take`
/// until it returns false or standard input closes (no terminal: the game is left to the
/// board). `what` says what typing does, for the message when the keyboard cannot be read.
pub fn read_typed(what: &'static str, mut take: impl FnMut(&str) -> bool + Send + 'static) {
    let reader = std::thread::Builder::new()
        .name("keys".to_owned())
        .spawn(move || {
            for line in io::stdin().lock().lines().map_while(Result::ok) {
                let line = line.trim();
                if !line.is_empty() && !take(line) {
                    return;
                }
            }
        });
    if let Err(error) = reader {
        eprintln!("touchmove: cannot read the keyboard ({error}): {what} cannot be typed");
    }
}

/// The promotion piece a letter (`q`, `r`, `b`, `n`) names.
pub fn promotion_piece(letter: &str) -> Option<Role> {
    match letter {
        "q" => Some(Role::Queen),
        "r" => Some(Role::Rook),
        "b" => Some(Role::Bishop),
        "n" => Some(Role::Knight),
        _ => None,
    }
}
