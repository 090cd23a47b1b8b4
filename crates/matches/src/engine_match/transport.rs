//! The engine's transport: what its process says, and the hints the player asks for, each
//! handed on by a task of its own. What the engine says waits for the runner, which takes it at
//! its place among the board's reports, with the session's time (`Control::Wake`,
//! `Happened::Woken`).

use std::cell::RefCell;
use std::rc::Rc;

use tokio::sync::mpsc;

use touchmove_runtime::engine_runner::EngineReport;
use touchmove_runtime::runner::Control;
use touchmove_web::asked::Asked;

use super::state::{Heard, PlayState};

/// Hands what the engine's process says to the game, until it ends. An engine given up on
/// leaves its side to a person: rulings again, from the interpreter.
pub async fn listen(
    mut reports: mpsc::UnboundedReceiver<EngineReport>,
    state: Rc<RefCell<PlayState>>,
) {
    while let Some(report) = reports.recv().await {
        let mut state = state.borrow_mut();
        if let EngineReport::GaveUp { why, restarts } = report {
            let after = match restarts {
                0 => String::new(),
                n => format!(", after {n} restarts"),
            };
            eprintln!("touchmove: {why}{after}; the game goes on as a two-player game");
            let _ = state.controls.send(Control::Exempt(None));
            continue;
        }
        state.heard.push_back(Heard::Engine(report));
        let _ = state.controls.send(Control::Wake);
    }
}

/// Sends each hint asked for (typed, or the page's button) to the engine at once: its answer
/// comes back as its moves do.
pub async fn take_hints(mut asked: mpsc::UnboundedReceiver<Asked>, state: Rc<RefCell<PlayState>>) {
    while let Some(request) = asked.recv().await {
        match request {
            Asked::Hint => state.borrow_mut().ask_hint(),
            Asked::PlayOn => state.borrow_mut().ask_play_on(),
            _ => {}
        }
    }
}
