//! What the human types at the terminal during a game against the engine.

use shakmaty::Color;
use tokio::sync::mpsc;

use touchmove::rules::Declared;
use touchmove::runner::Control;

use super::super::typed::read_typed;
use super::super::web::requests::Asked;

/// `resign` (and Enter) resigns `human`'s game; `hint` asks the engine for a hint.
pub(super) fn read_keys(
    controls: mpsc::UnboundedSender<Control>,
    asks: mpsc::UnboundedSender<Asked>,
    human: Color,
) {
    read_typed("`resign` or `hint`", move |line| {
        match line.to_ascii_lowercase().as_str() {
            "resign" => controls
                .send(Control::Declare(Declared::Resigned(human)))
                .is_ok(),
            "hint" => asks.send(Asked::Hint).is_ok(),
            other => {
                eprintln!(
                    "touchmove: `{other}`? type `resign` and Enter to resign, `hint` for a hint"
                );
                true
            }
        }
    });
}
