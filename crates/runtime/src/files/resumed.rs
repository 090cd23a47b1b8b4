//! `watch --record LOG --resume`: the recording of a session that stopped (a crash, `kill -9`,
//! a restart), read back so that the game goes on where it was.

use std::path::Path;
use std::time::SystemTime;

use thiserror::Error;

use crate::runner::{Happened, Sink};
use touchmove_boards::live::{BoardSession, LiveGame};
use touchmove_core::sensor::Millis;
use touchmove_core::sensor_log::{LogRecord, SensorLog, read_log};

/// Why a recording cannot be gone on with.
#[derive(Debug, Error)]
pub enum ResumeError {
    /// The file could not be read.
    #[error("--resume: {path}: {error}")]
    Unreadable {
        /// The recording's path, as shown.
        path: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// Its whole lines are not UTF-8 text.
    #[error("--resume: {path}: not UTF-8 text")]
    NotText {
        /// The recording's path, as shown.
        path: String,
    },
    /// Its whole lines are not a sensor log.
    #[error("--resume: {path}: malformed log: {error}")]
    Malformed {
        /// The recording's path, as shown.
        path: String,
        /// Where and what was wrong.
        error: touchmove_core::sensor_log::LogError,
    },
    /// A recording with no game could not be removed to start afresh.
    #[error("--resume: {path}: cannot start it afresh: {error}")]
    NotCleared {
        /// The recording's path, as shown.
        path: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// The recorded decisions could not be passed on to the session's sink.
    #[error("cannot pass on the recorded game's decisions: {0}")]
    NotPassed(std::io::Error),
}

type Result<T> = std::result::Result<T, ResumeError>;

/// A recording to go on with.
pub struct Resumed {
    /// What it holds, up to its last whole line.
    pub log: SensorLog,
    /// The length of its whole lines: a half line left by a crash is cut off.
    pub written: u64,
    /// The time of its last line.
    pub last_t: Millis,
    /// Where the session's time goes on from: the last line's time, plus the time since the
    /// file was last written (the players' time ran meanwhile).
    pub resume_at: Millis,
}

impl Resumed {
    /// Reads the recording at `path`; `None` when it holds no game yet (it is empty, or a
    /// session stopped before it could write a report): there is nothing to go on with, and
    /// the recording starts afresh there.
    pub fn read(path: &Path) -> Result<Option<Resumed>> {
        let shown = || path.display().to_string();
        let bytes = std::fs::read(path).map_err(|error| ResumeError::Unreadable {
            path: shown(),
            error,
        })?;
        if bytes.is_empty() {
            return Ok(None);
        }
        // A crash can leave half a line: only whole lines are read (and kept).
        let whole = bytes
            .iter()
            .rposition(|&byte| byte == b'\n')
            .map_or(0, |last| last + 1);
        let text = std::str::from_utf8(bytes.get(..whole).unwrap_or_default())
            .map_err(|_| ResumeError::NotText { path: shown() })?;
        let log = read_log(text).map_err(|error| ResumeError::Malformed {
            path: shown(),
            error,
        })?;
        let last_t = log
            .records()
            .filter_map(|record| match record {
                LogRecord::Event(event) => Some(event.t),
                LogRecord::ClockReading { t, .. } | LogRecord::HostNote { t, .. } => Some(t),
                LogRecord::Header(_) => None,
            })
            .max();
        let Some(last_t) = last_t else {
            return Ok(None);
        };
        let since_written = std::fs::metadata(path)
            .and_then(|metadata| metadata.modified())
            .ok()
            .and_then(|modified| SystemTime::now().duration_since(modified).ok())
            .map_or(0, |elapsed| {
                Millis::try_from(elapsed.as_millis()).unwrap_or(Millis::MAX)
            });
        Ok(Some(Resumed {
            log,
            written: u64::try_from(whole).unwrap_or(u64::MAX),
            last_t,
            resume_at: last_t.saturating_add(since_written).saturating_add(1),
        }))
    }

    /// Reads the recording at `path` to go on with it; when it holds no game yet, it is
    /// removed (said on standard error), so that the session records afresh at `path`.
    pub fn read_or_clear(path: &Path) -> Result<Option<Resumed>> {
        let resumed = Resumed::read(path)?;
        if resumed.is_none() {
            std::fs::remove_file(path).map_err(|error| ResumeError::NotCleared {
                path: path.display().to_string(),
                error,
            })?;
            eprintln!(
                "touchmove: {}: no game recorded there yet: the recording starts afresh",
                path.display()
            );
        }
        Ok(resumed)
    }
}

impl Resumed {
    /// The recorded part of the game, through `game`: its decisions go to `sink` again (to be
    /// shown, not recorded again), and the board's `session` is told where the game stands
    /// (who is to move, whether the last move's press was made). Says on standard error, after
    /// `who`, how much was read back.
    pub fn replay_into(
        &self,
        game: &mut LiveGame,
        session: &mut dyn BoardSession,
        sink: &mut impl Sink,
        who: &str,
    ) -> Result<()> {
        let point = game.replay_recording(self.log.records());
        pass_decisions(game, sink)?;
        if let Some(point) = point {
            session.resume(&point);
        }
        self.say_read_back(
            who,
            game.interpreter()
                .map_or(0, |interpreter| interpreter.game().plies()),
        );
        Ok(())
    }

    /// Says on standard error, after `who`, how much was read back and how many plies stand.
    pub fn say_read_back(&self, who: &str, plies: usize) {
        eprintln!(
            "touchmove: {who}resumed: {} reports read back, {plies} plies stand; the recording goes on",
            self.log.events.len(),
        );
    }
}

/// What the board's game decided, into `sink` (as the runner passes it).
pub fn pass_decisions(game: &mut LiveGame, sink: &mut impl Sink) -> Result<()> {
    while let Some(event) = game.poll_event() {
        sink.take(Happened::Live {
            event: &event,
            game,
        })
        .map_err(ResumeError::NotPassed)?;
    }
    Ok(())
}
