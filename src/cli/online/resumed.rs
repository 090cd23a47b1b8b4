//! `online --resume`: the recorded part of an online game read back.

use anyhow::{Context, Result};

use touchmove::live::LiveGame;
use touchmove::online::replay::take_note;

use super::state::OnlineSink;
use touchmove_runtime::files::resumed::{Resumed, pass_decisions};

/// The recorded part of a resumed game, through the board's game and the online game (the
/// server's lines and answers at their place, nothing sent, shown or set meanwhile); then the
/// game goes on with a new connection, whose first line says what the server has.
pub(super) fn resume(
    resumed: &Resumed,
    game: &mut LiveGame,
    session: &mut dyn touchmove::live::BoardSession,
    sink: &mut OnlineSink,
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
        let mut state = sink.0.borrow_mut();
        take_note(&mut state.game, t, note);
        if let Err(error) = state.drain() {
            failed.get_or_insert(anyhow::Error::from(error));
        }
    });
    pass_decisions(game, sink)?;
    if let Some(error) = failed {
        return Err(error);
    }
    if let Some(point) = point {
        session.resume(&point);
    }
    let mut state = sink.0.borrow_mut();
    state.started = game.started();
    state.replaying = false;
    state.out.hush(false);
    state.game.resumed();
    state
        .drain()
        .context("cannot pass on the recorded game's decisions")?;
    resumed.say_read_back("", state.game.moves().len());
    Ok(())
}
