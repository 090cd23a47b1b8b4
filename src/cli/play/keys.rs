//! What the human types at the terminal during a game against the engine.

use shakmaty::Color;
use tokio::sync::mpsc;

use touchmove::rules::Declared;
use touchmove::runner::Control;

use super::super::typed::read_typed;

/// `resign` (and Enter) resigns `human`'s game.
pub(super) fn read_keys(controls: mpsc::UnboundedSender<Control>, human: Color) {
    read_typed("`resign`", move |line| {
        match line.to_ascii_lowercase().as_str() {
            "resign" => controls
                .send(Control::Declare(Declared::Resigned(human)))
                .is_ok(),
            other => {
                eprintln!("touchmove: `{other}`? type `resign` and Enter to resign");
                true
            }
        }
    });
}
