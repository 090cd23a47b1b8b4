//! `play --resume`, `online --resume`: the recorded part of a match read back, whoever the
//! opponent is (an engine, an online game's server): the board's game and the opponent rebuilt
//! from the recording, the opponent's notes taken at their place, nothing asked of its
//! transport, shown on the board or said meanwhile; then the match goes on where it stood.

use std::cell::RefCell;
use std::io;
use std::rc::Rc;

use touchmove_boards::live::{BoardSession, LiveGame};
use touchmove_boards::opponent::Opponent;
use touchmove_runtime::files::resumed::{Resumed, pass_decisions};
use touchmove_runtime::runner::Sink;

use crate::MatchError;

/// A match's state as its runner's sink shares it: its opponent, and its outputs.
pub trait MatchState {
    /// Who the board's game is played against.
    type Opponent: Opponent;

    /// The opponent.
    fn opponent(&mut self) -> &mut Self::Opponent;

    /// A recorded part is being read back (`true`): nothing is asked of the transport or shown
    /// on the board, and what was said then is not said again; `false` when the match goes on.
    fn replaying(&mut self, replaying: bool);

    /// Carries out what the opponent says.
    fn drain(&mut self) -> io::Result<()>;

    /// What the match keeps of the board's game as it goes on (its start seen).
    fn goes_on(&mut self, game: &LiveGame) {
        let _ = game;
    }
}

/// A board runner's sink that shares a match's state.
pub trait MatchSink: Sink {
    /// The state it shares.
    type State: MatchState;

    /// The shared state.
    fn state(&self) -> &Rc<RefCell<Self::State>>;
}

/// The recorded part of a resumed match, through the board's game and the opponent; then the
/// opponent goes on where the match stands (asks again, shows again).
pub fn resume<K: MatchSink>(
    resumed: &Resumed,
    game: &mut LiveGame,
    session: &mut dyn BoardSession,
    sink: &mut K,
) -> Result<(), MatchError> {
    // What was decided before was said then: read back in silence.
    sink.state().borrow_mut().replaying(true);
    let mut failed = None;
    let point = game.replay_recording_with(resumed.log.records(), |game, t, note| {
        if let Err(error) = pass_decisions(game, sink) {
            failed.get_or_insert(MatchError::from(error));
        }
        let mut state = sink.state().borrow_mut();
        state.opponent().handle_note(t, note);
        if let Err(error) = state.drain() {
            failed.get_or_insert(MatchError::Replayed(error));
        }
    });
    pass_decisions(game, sink)?;
    if let Some(error) = failed {
        return Err(error);
    }
    if let Some(point) = point {
        session.resume(&point);
    }
    let mut state = sink.state().borrow_mut();
    state.drain().map_err(MatchError::Replayed)?;
    state.goes_on(game);
    state.replaying(false);
    state.opponent().resumed();
    state.drain().map_err(MatchError::Replayed)?;
    resumed.say_read_back("", state.opponent().moves().len());
    Ok(())
}
