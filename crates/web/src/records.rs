//! `serve --record-dir DIR`: one sensor log per board and game, `DIR/NAME-gameN.log`, each a
//! new or empty file (a record already there is never overwritten), written as `watch
//! --record` writes its log.

use std::path::{Path, PathBuf};

use shakmaty::Chess;
use thiserror::Error;

use touchmove_boards::live::{LiveGame, Protocol};
use touchmove_core::clock::ClockReading;
use touchmove_core::interpreter::Config;
use touchmove_core::sensor::{BoardSnapshot, Millis, SensorEvent, SensorKind};
use touchmove_core::sensor_log::{GameLabel, HostNote, LogHeader};
use touchmove_core::timing::Timing;

use touchmove_runtime::files::paths::{Existing, PathError, check_output};
use touchmove_runtime::files::recording::Recording;
use touchmove_runtime::files::recording::UnfinishedRecording;
use touchmove_runtime::files::resumed::{ResumeError, Resumed};

/// Why a board's logs under `--record-dir` cannot be written or gone on with.
#[derive(Debug, Error)]
pub enum RecordsError {
    /// A log's path is refused.
    #[error(transparent)]
    Path(#[from] PathError),
    /// A log cannot be opened.
    #[error("{option}: {path}: {error}")]
    Open {
        /// The option that asked for it (`--record-dir`, or `--resume`).
        option: &'static str,
        /// The log's path, as shown.
        path: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// A log cannot be read back.
    #[error(transparent)]
    Resume(#[from] ResumeError),
    /// The end of a log could not be written.
    #[error(transparent)]
    Unfinished(#[from] UnfinishedRecording),
}

type Result<T> = std::result::Result<T, RecordsError>;

/// The logs of one board's games: the current game's open.
pub struct GameRecords {
    dir: PathBuf,
    name: String,
    protocol: &'static Protocol,
    /// The timing each game's log states: what the board's games decide with.
    timing: Timing,
    current: Recording,
    /// When the board last reported: a new game's log starts with a snapshot of the board at
    /// that time.
    last_report: Millis,
    /// The board's clock as last reported: a new game's log goes on with it, since the game
    /// takes the clock as it stands.
    last_clock: Option<(Millis, ClockReading)>,
}

impl GameRecords {
    /// The logs of board `name` speaking `protocol` in `dir`, the first game's, from `start`,
    /// created now.
    pub fn create(
        dir: &Path,
        name: &str,
        protocol: &'static Protocol,
        start: &Chess,
        config: &Config,
        label: &GameLabel,
    ) -> Result<GameRecords> {
        let timing = Timing::of_config(config);
        let current = create(dir, name, protocol, timing, start, 1, label)?;
        Ok(GameRecords {
            dir: dir.to_owned(),
            name: name.to_owned(),
            protocol,
            timing,
            current,
            last_report: 0,
            last_clock: None,
        })
    }

    /// Goes on with the log of board `name`'s game `number` in `dir`, read back as `resumed`.
    pub fn resume(
        dir: &Path,
        name: &str,
        protocol: &'static Protocol,
        number: u32,
        resumed: &Resumed,
        config: &Config,
    ) -> Result<GameRecords> {
        let path = log_path(dir, name, number);
        let current =
            Recording::resume(&path, resumed.written, resumed.last_t).map_err(|error| {
                RecordsError::Open {
                    option: "--resume",
                    path: path.display().to_string(),
                    error,
                }
            })?;
        Ok(GameRecords {
            dir: dir.to_owned(),
            name: name.to_owned(),
            protocol,
            timing: Timing::of_config(config),
            current,
            last_report: resumed.last_t,
            last_clock: None,
        })
    }

    /// The last log of board `name` in `dir` that holds a game, and its number: what
    /// `--resume` goes on with (`None`: the board starts game 1). A log that holds no game
    /// (created for a game that had not begun, or never written) is removed.
    pub fn last(dir: &Path, name: &str) -> Result<Option<(u32, Resumed)>> {
        let mut found = None;
        let mut number = 1;
        while log_path(dir, name, number).exists() {
            let path = log_path(dir, name, number);
            check_output(&path, "--record-dir", Existing::Replace)?;
            if let Some(resumed) = Resumed::read_or_clear(&path)? {
                found = Some((number, resumed));
            }
            number = number.saturating_add(1);
        }
        Ok(found)
    }

    /// Records a report of the current game.
    pub fn event(&mut self, event: &SensorEvent, game: &LiveGame) {
        if let Some(notice) = self.current.game_event(event, game) {
            eprintln!("touchmove: {notice}");
        }
        self.last_report = event.t;
    }

    /// Records what the host knew at `t` in the current game (a result declared by the
    /// operator); a failing write is said, as for the reports.
    pub fn host_note(&mut self, t: Millis, note: &HostNote) {
        if let Some(notice) = self.current.host_note(t, note) {
            eprintln!("touchmove: {notice}");
        }
    }

    /// Records a clock's report of the current game.
    pub fn clock_reading(&mut self, t: Millis, reading: &ClockReading, game: &LiveGame) {
        if let Some(notice) = self.current.game_clock_reading(t, reading, game) {
            eprintln!("touchmove: {notice}");
        }
        self.last_clock = Some((t, *reading));
    }

    /// The board's game `number` begins (from the standard position): the last game's log is
    /// finished and the new game's created. It begins with `standing`, the board as its reports
    /// show it (a snapshot at the last report, the one that showed the starting position), and
    /// the clock as it was last reported, if not before that: a log's replay needs no other.
    pub fn new_game(
        &mut self,
        number: u32,
        standing: BoardSnapshot,
        label: &GameLabel,
    ) -> Result<()> {
        self.next_log(number, &Chess::default(), label)?;
        self.begin(self.last_report, standing);
        Ok(())
    }

    /// The board's game `number` was set up at `t` from `start`: the last game's log is
    /// finished and the new game's created, from `start`. If the board shows it already
    /// (`game` has started), the log begins with `standing` at `t`, as [`GameRecords::new_game`]'s
    /// does; else with the report that makes the board show it.
    pub fn set_up(
        &mut self,
        number: u32,
        t: Millis,
        standing: BoardSnapshot,
        game: &LiveGame,
        label: &GameLabel,
    ) -> Result<()> {
        self.next_log(number, game.start(), label)?;
        if game.started() {
            self.begin(t, standing);
        }
        Ok(())
    }

    /// Finishes the current log and opens game `number`'s, from `start`, named `label`.
    fn next_log(&mut self, number: u32, start: &Chess, label: &GameLabel) -> Result<()> {
        let next = create(
            &self.dir,
            &self.name,
            self.protocol,
            self.timing,
            start,
            number,
            label,
        )?;
        std::mem::replace(&mut self.current, next).finish()?;
        Ok(())
    }

    /// A new log's first records: `standing` at `t` and the clock as last reported.
    fn begin(&mut self, t: Millis, standing: BoardSnapshot) {
        let snapshot = SensorEvent::new(t, SensorKind::Snapshot(Box::new(standing)));
        let mut notices = vec![self.current.event(&snapshot)];
        if let Some((at, reading)) = &self.last_clock
            && *at >= t
        {
            notices.push(self.current.clock_reading(*at, reading));
        }
        for notice in notices.into_iter().flatten() {
            eprintln!("touchmove: {notice}");
        }
    }

    /// Writes what is still pending of the current game's log.
    pub fn finish(&mut self) -> Result<()> {
        self.current.finish()?;
        Ok(())
    }
}

/// The log of board `name`'s game `number`, from `start`, decided with `timing`, named `label`.
fn create(
    dir: &Path,
    name: &str,
    protocol: &'static Protocol,
    timing: Timing,
    start: &Chess,
    number: u32,
    label: &GameLabel,
) -> Result<Recording> {
    let path = log_path(dir, name, number);
    check_output(&path, "--record-dir", Existing::MustBeEmpty)?;
    let header = LogHeader::new(start, &format!("{} via touchmove serve", protocol.name))
        .with_timing(timing)
        .with_game(label.clone());
    Recording::create(&path, header).map_err(|error| RecordsError::Open {
        option: "--record-dir",
        path: path.display().to_string(),
        error,
    })
}

/// `DIR/NAME-gameN.log`, the name's characters that are no letter, digit, `-` or `_` as `_`.
fn log_path(dir: &Path, name: &str, number: u32) -> PathBuf {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    dir.join(format!("{safe}-game{number}.log"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_is_named_after_its_board_and_game() {
        let dir = Path::new("/records");
        assert_eq!(
            log_path(dir, "north 1/2", 3),
            Path::new("/records/north_1_2-game3.log")
        );
    }
}
