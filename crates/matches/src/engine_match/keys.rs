//! What the human types at the terminal during a game against the engine.

use shakmaty::Color;
use tokio::sync::mpsc;

use touchmove_core::rules::Declared;
use touchmove_runtime::runner::Control;

use touchmove_runtime::keys::arbiter::typed_promotion;
use touchmove_runtime::keys::typed::read_typed;
use touchmove_web::asked::Asked;

/// `resign` (and Enter) resigns `human`'s game; `hint` asks the engine for a hint; `go` plays on
/// after the coach spoke (`--coach`); `promote
/// q|r|b|n` chooses the piece of a promotion the board cannot tell.
pub fn read_keys(
    controls: mpsc::UnboundedSender<Control>,
    asks: mpsc::UnboundedSender<Asked>,
    human: Color,
) {
    read_typed("`resign` or `hint`", move |line| {
        let lower = line.to_ascii_lowercase();
        if let Some(role) = typed_promotion(&lower) {
            return controls.send(Control::Promote(role)).is_ok();
        }
        match lower.as_str() {
            "resign" => controls
                .send(Control::Declare(Declared::Resigned(human)))
                .is_ok(),
            "hint" => asks.send(Asked::Hint).is_ok(),
            "go" => asks.send(Asked::PlayOn).is_ok(),
            other => {
                eprintln!(
                    "touchmove: `{other}`? type `resign` and Enter to resign, `hint` for a hint, \
                     `go` to play on after the coach spoke, `promote q|r|b|n` for a promotion's \
                     piece"
                );
                true
            }
        }
    });
}
