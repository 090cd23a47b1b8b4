//! `play --resume`: the recorded part of a game against the engine read back.

use anyhow::{Context, Result};

use touchmove::live::LiveGame;

use super::state::PlaySink;
use touchmove_runtime::files::resumed::{Resumed, pass_decisions};

/// The recorded part of a resumed game, through the board's game and the game against the
/// engine (its choices at their place, nothing asked of the engine or shown on the board
/// meanwhile); then the engine is asked, or its move shown again, where the game stands.
pub(super) fn resume(
    resumed: &Resumed,
    game: &mut LiveGame,
    session: &mut dyn touchmove::live::BoardSession,
    sink: &mut PlaySink,
) -> Result<()> {
    // What was decided before was said then: read back in silence.
    {
        let mut state = sink.0.borrow_mut();
        state.replaying = true;
        state.out.hush(true);
    }
    let mut failed = None;
    let point = game.replay_recording_with(resumed.log.records(), |game, t, note| {
        if let Err(error) = pass_decisions(game, sink) {
            failed.get_or_insert(anyhow::Error::from(error));
        }
        sink.0.borrow_mut().game.handle_note(t, note);
    });
    pass_decisions(game, sink)?;
    if let Some(error) = failed {
        return Err(error);
    }
    if let Some(point) = point {
        session.resume(&point);
    }
    let mut state = sink.0.borrow_mut();
    state
        .drain()
        .context("cannot pass on the recorded game's decisions")?;
    state.replaying = false;
    state.out.hush(false);
    state.game.resumed();
    state
        .drain()
        .context("cannot pass on the recorded game's decisions")?;
    resumed.say_read_back("", state.game.moves().len());
    Ok(())
}
