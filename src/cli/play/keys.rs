//! What the human types at the terminal during a game against the engine.

use std::io::{self, BufRead};

use shakmaty::Color;
use tokio::sync::mpsc;

use touchmove::runner::Control;

/// Reads what the human types, on a thread of its own (a read of a terminal blocks; the
/// thread ends with the process): `resign` (and Enter) resigns `human`'s game. Standard input
/// closed (no terminal) leaves the game to the board.
pub(super) fn read_keys(controls: mpsc::UnboundedSender<Control>, human: Color) {
    let reader = std::thread::Builder::new()
        .name("keys".to_owned())
        .spawn(move || {
            for line in io::stdin().lock().lines().map_while(Result::ok) {
                match line.trim().to_ascii_lowercase().as_str() {
                    "" => {}
                    "resign" => {
                        if controls.send(Control::Resign(human)).is_err() {
                            return;
                        }
                    }
                    other => eprintln!("touchmove: `{other}`? type `resign` and Enter to resign"),
                }
            }
        });
    if let Err(error) = reader {
        eprintln!("touchmove: cannot read the keyboard ({error}): `resign` cannot be typed");
    }
}
