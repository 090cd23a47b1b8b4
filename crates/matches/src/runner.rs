//! One match on the board, whoever the opponent is: the board opened, the match's recording,
//! the runner around the board and the match's sink, the tasks of the opponent's transport
//! stopped when it ends, and the match's state handed back.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use touchmove_boards::live::{BoardSession, LiveGame, Protocol, SessionOptions};
use touchmove_core::clock::ClockSide;
use touchmove_core::clock::TimeControl;
use touchmove_core::sensor::Millis;
use touchmove_core::sensor_log::LogHeader;
use touchmove_links::board::{BoardConnector, board_protocol};
use touchmove_runtime::files::recording::Recording;
use touchmove_runtime::files::resumed::Resumed;
use touchmove_runtime::runner::{self, Control, Parts, RunnerConfig, RunnerError, Sink};

use crate::MatchError;
use crate::resume::MatchSink;

/// The board a match is played on: its protocol, a session of it and the connector to its
/// port.
pub struct MatchBoard {
    /// The board's protocol.
    pub protocol: &'static Protocol,
    session: Box<dyn BoardSession + Send>,
    connector: BoardConnector,
}

impl MatchBoard {
    /// The board on `port` (`--port`; `None`: the first serial port that answers) speaking
    /// `protocol` (`--protocol`; `None`: told by the port), White on the clock's side `white`
    /// (`--white-on-clock`), its clock set to `clock` (`None`: left as it is, as a resumed
    /// game's, which ran on its own).
    pub async fn open(
        port: Option<PathBuf>,
        protocol: Option<&str>,
        white: Option<ClockSide>,
        clock: Option<TimeControl>,
    ) -> Result<MatchBoard, MatchError> {
        let protocol = board_protocol(port.as_deref(), protocol).await?;
        let options = SessionOptions::new().white_side(white).set_clock(clock);
        Ok(MatchBoard {
            protocol,
            session: (protocol.new_session)(&options),
            connector: BoardConnector::new(port, protocol),
        })
    }

    /// Watches the board's `game` with `sink` until `shutdown` (the board awaited before a
    /// match: nothing asked of the runner).
    pub async fn watch(
        &mut self,
        game: &mut LiveGame,
        sink: &mut impl Sink,
        shutdown: impl Future<Output = ()>,
    ) -> Result<(), RunnerError> {
        let config = RunnerConfig::default();
        runner::run(
            &mut self.connector,
            &mut self.session,
            game,
            sink,
            config,
            shutdown,
        )
        .await
    }
}

/// The match's sensor recording at `path` (`--record`): the resumed one's, written on after
/// what it holds, or a new one with the header `header` makes.
pub fn recording(
    path: Option<&Path>,
    resumed: Option<&Resumed>,
    header: impl FnOnce() -> LogHeader,
) -> Result<Option<Recording>, MatchError> {
    let Some(path) = path else {
        return Ok(None);
    };
    let recording = match resumed {
        Some(resumed) => Recording::resume(path, resumed.written, resumed.last_t),
        None => Recording::create(path, header()),
    };
    recording
        .map_err(|error| MatchError::Recording {
            path: path.to_owned(),
            error,
        })
        .map(Some)
}

/// A match ready to run: its board, the board's game, the runner's sink sharing the match's
/// state, and what is asked of the runner ([`Control`]s).
pub struct Match<K> {
    /// The board.
    pub board: MatchBoard,
    /// The board's game.
    pub game: LiveGame,
    /// The runner's sink.
    pub sink: K,
    /// What the match's tasks ask of the runner.
    pub controls: mpsc::UnboundedReceiver<Control>,
}

/// How a match's runner ended, and the match's state it hands back.
pub struct Played<S> {
    /// The match's state, no longer shared.
    pub state: S,
    /// How the runner ended (a board given up on is an error).
    pub watched: Result<(), RunnerError>,
}

impl<K: MatchSink> Match<K> {
    /// Reads back the recorded part of `resumed` (nothing, without one); the time the
    /// runner's session starts at.
    pub fn resume(&mut self, resumed: Option<&Resumed>) -> Result<Millis, MatchError> {
        let Some(resumed) = resumed else {
            return Ok(0);
        };
        crate::resume::resume(
            resumed,
            &mut self.game,
            &mut self.board.session,
            &mut self.sink,
        )?;
        Ok(resumed.resume_at)
    }

    /// Runs the board from `start_at` until it is given up on (after `give_up_after` without
    /// it, `--give-up-after`) or `shutdown`; then stops `tasks` (the opponent's transport) and
    /// hands back the match's state.
    pub async fn run(
        self,
        give_up_after: Option<Duration>,
        start_at: Millis,
        tasks: Vec<JoinHandle<()>>,
        shutdown: impl Future<Output = ()>,
    ) -> Result<Played<K::State>, MatchError>
    where
        K::State: Sized,
    {
        let Match {
            board: mut match_board,
            mut game,
            mut sink,
            mut controls,
        } = self;
        let config = RunnerConfig {
            give_up_after,
            start_at,
            ..RunnerConfig::default()
        };
        let parts = Parts {
            session: &mut match_board.session,
            game: &mut game,
            sink: &mut sink,
            controls: Some(&mut controls),
        };
        let watched =
            runner::run_with_controls(&mut match_board.connector, parts, config, shutdown).await;
        let state: Rc<RefCell<K::State>> = Rc::clone(sink.state());
        drop(sink);
        for task in &tasks {
            task.abort();
        }
        for task in tasks {
            let _ = task.await;
        }
        let state = Rc::into_inner(state)
            .ok_or(MatchError::StillShared)?
            .into_inner();
        Ok(Played { state, watched })
    }
}
