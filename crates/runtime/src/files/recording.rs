//! The live session's sensor recording: written line by line as reports arrive, and never left
//! with half a line. A write that fails (a full disk, a removed disk) loses nothing: the part
//! of the line that reached the file is cut off again, the lines not written are kept and
//! written with the next report, and the session goes on. A log that never got a line (the
//! disk full from the start, or a game that never began) is removed at the end, not left as
//! an empty file.

use std::fs::File;
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use touchmove_boards::live::LiveGame;
use touchmove_core::clock::ClockReading;
use touchmove_core::sensor::{Millis, SensorEvent};
use touchmove_core::sensor_log::{FlushPolicy, HostNote, LogHeader, LogWriter, WriteError};

use super::paths::open_recording;

/// The end of a recording that could not be written (its last lines are lost with the disk).
#[derive(Debug, thiserror::Error)]
#[error("{}: the end of the recording could not be written: {error}", path.display())]
pub struct UnfinishedRecording {
    /// The recording's path.
    pub path: PathBuf,
    /// What the writer said.
    pub error: WriteError,
}

/// Storage that can be cut back to a length: a file.
pub trait Truncate: Write {
    /// Cuts the storage back to `len` bytes; the next write goes at `len` (no hole is left
    /// between the cut and the next write).
    fn truncate(&mut self, len: u64) -> io::Result<()>;
}

impl Truncate for File {
    fn truncate(&mut self, len: u64) -> io::Result<()> {
        self.set_len(len)?;
        // The recording is opened for appending, so that every write goes at the end whatever
        // the position; the position is put back too, in case it is not.
        self.seek(SeekFrom::Start(len)).map(drop)
    }
}

/// A file written only in whole lines: what is written is kept in memory until a flush gets
/// all of it into the file; a flush that fails cuts the file back to the last whole line and
/// keeps the lines for the next flush.
#[derive(Debug)]
pub struct LineFile<F: Truncate> {
    file: F,
    /// The length of the file up to its last whole line.
    written: u64,
    /// Lines not yet in the file.
    pending: Vec<u8>,
}

impl<F: Truncate> LineFile<F> {
    /// A file (opened for appending) whose first `written` bytes are whole lines.
    pub fn new(file: F, written: u64) -> LineFile<F> {
        LineFile {
            file,
            written,
            pending: Vec::new(),
        }
    }

    /// The length of the file up to its last whole line.
    pub fn written(&self) -> u64 {
        self.written
    }
}

impl<F: Truncate> Write for LineFile<F> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        match self
            .file
            .write_all(&self.pending)
            .and_then(|()| self.file.flush())
        {
            Ok(()) => {
                let len = u64::try_from(self.pending.len()).unwrap_or(u64::MAX);
                self.written = self.written.saturating_add(len);
                self.pending.clear();
                Ok(())
            }
            Err(error) => {
                // Half a line in the file would not read back: it goes, the lines stay here.
                if let Err(cut) = self.file.truncate(self.written) {
                    tracing::debug!(%cut, "cannot cut the recording back to its last line");
                }
                Err(error)
            }
        }
    }
}

/// Where the recording stands.
enum State {
    /// The file is open; the game has not started, so nothing is written yet.
    Waiting(LineFile<File>),
    /// The recording is being written.
    Writing(LogWriter<LineFile<File>>),
    /// Between two states (never seen from outside).
    Gone,
}

/// The sensor recording of a live session.
pub struct Recording {
    path: PathBuf,
    header: LogHeader,
    state: State,
    /// Whether the last write failed (said once, until a write succeeds again).
    failing: bool,
    /// Whether this session created the file (an empty one is then removed at the end).
    created: bool,
}

impl Recording {
    /// Creates the recording at `path` (a new or empty regular file, checked before), to be
    /// written from the start of the game with `header`.
    pub fn create(path: &Path, header: LogHeader) -> io::Result<Recording> {
        let (file, created) = open_recording(path)?;
        Ok(Recording {
            path: path.to_owned(),
            header,
            state: State::Waiting(LineFile::new(file, 0)),
            failing: false,
            created,
        })
    }

    /// Goes on with the recording at `path`, whose first `written` bytes are whole lines and
    /// whose last line has time `last_t`.
    pub fn resume(path: &Path, written: u64, last_t: Millis) -> io::Result<Recording> {
        let (mut file, _) = open_recording(path)?;
        // A half line a crash left is cut off.
        file.truncate(written)?;
        let writer =
            LogWriter::appending(LineFile::new(file, written), last_t, FlushPolicy::WhenAsked);
        Ok(Recording {
            path: path.to_owned(),
            header: LogHeader::default(),
            state: State::Writing(writer),
            failing: false,
            created: false,
        })
    }

    /// Records `event`; a notice for the terminal when writing fails or works again.
    pub fn event(&mut self, event: &SensorEvent) -> Option<String> {
        self.record(|writer| writer.write_event(event))
    }

    /// Records a clock's report made at `t`; a notice as for [`Recording::event`].
    pub fn clock_reading(&mut self, t: Millis, reading: &ClockReading) -> Option<String> {
        self.record(|writer| writer.write_clock_reading(t, reading))
    }

    /// Records what the host knew at `t` (an engine's choice, a resignation); a notice as for
    /// [`Recording::event`].
    pub fn host_note(&mut self, t: Millis, note: &HostNote) -> Option<String> {
        self.record(|writer| writer.write_host_note(t, note))
    }

    /// Records a live session's `event` once `game` has started (the reports before the
    /// starting position are not the game's; the one that started it is kept as the board's
    /// whole picture the game took, [`LiveGame::recorded`]); what a failing write says, to be
    /// told.
    #[must_use]
    pub fn game_event(&mut self, event: &SensorEvent, game: &LiveGame) -> Option<String> {
        self.adopt_start(game);
        if game.started() {
            self.event(&game.recorded(event))
        } else {
            None
        }
    }

    /// Records a live session's clock report made at `t`, as [`Recording::game_event`] does.
    #[must_use]
    pub fn game_clock_reading(
        &mut self,
        t: Millis,
        reading: &ClockReading,
        game: &LiveGame,
    ) -> Option<String> {
        self.adopt_start(game);
        if game.started() {
            self.clock_reading(t, reading)
        } else {
            None
        }
    }

    /// Before its first line, the log starts from the position `game` started from (a Chess960
    /// start the board showed by itself).
    fn adopt_start(&mut self, game: &LiveGame) {
        if matches!(self.state, State::Waiting(_)) && game.started() {
            let start = game.start();
            self.header.start = (*start != shakmaty::Chess::default())
                .then(|| shakmaty::fen::Fen::from_position(start, shakmaty::EnPassantMode::Legal));
        }
    }

    /// Writes what is still pending; an error naming the file if it cannot. A file this
    /// session created that holds no line (the game never began, or nothing could be written)
    /// is removed: an empty log would only be a trap for `--resume`.
    pub fn finish(&mut self) -> Result<(), UnfinishedRecording> {
        let flushed = match &mut self.state {
            State::Writing(writer) => writer.flush(),
            State::Waiting(_) | State::Gone => Ok(()),
        };
        if self.created && self.written() == 0 {
            self.created = false;
            remove_if_empty(&self.path);
        }
        flushed.map_err(|error| UnfinishedRecording {
            path: self.path.clone(),
            error,
        })
    }

    /// The length of the file up to its last whole line.
    fn written(&self) -> u64 {
        match &self.state {
            State::Waiting(file) => file.written(),
            State::Writing(writer) => writer.get_ref().written(),
            State::Gone => 0,
        }
    }

    fn record(
        &mut self,
        write: impl FnOnce(&mut LogWriter<LineFile<File>>) -> Result<(), WriteError>,
    ) -> Option<String> {
        let writer = self.writer()?;
        if let Err(error) = write(writer) {
            // An event the format cannot hold (a bug if it happens): said, and skipped.
            return Some(format!("{}: {error}", self.path.display()));
        }
        match writer.flush() {
            Ok(()) if std::mem::replace(&mut self.failing, false) => Some(format!(
                "{}: the recording is written again, nothing lost",
                self.path.display()
            )),
            Ok(()) => None,
            Err(error) if !std::mem::replace(&mut self.failing, true) => Some(format!(
                "{}: cannot write the recording ({error}); every report is kept and written \
                 again with the next one",
                self.path.display()
            )),
            Err(_) => None,
        }
    }

    /// The writer, starting the log (its header) at the first record.
    fn writer(&mut self) -> Option<&mut LogWriter<LineFile<File>>> {
        if let State::Waiting(_) = self.state {
            let State::Waiting(file) = std::mem::replace(&mut self.state, State::Gone) else {
                return None;
            };
            match LogWriter::new(file, &self.header, FlushPolicy::WhenAsked) {
                Ok(writer) => self.state = State::Writing(writer),
                Err(error) => tracing::warn!(%error, "the recording's header is refused"),
            }
        }
        match &mut self.state {
            State::Writing(writer) => Some(writer),
            State::Waiting(_) | State::Gone => None,
        }
    }
}

/// Removes the file at `path` if it is still empty (nothing else wrote to it meanwhile).
fn remove_if_empty(path: &Path) {
    let empty = std::fs::symlink_metadata(path)
        .is_ok_and(|metadata| metadata.file_type().is_file() && metadata.len() == 0);
    if empty && let Err(error) = std::fs::remove_file(path) {
        tracing::debug!(%error, "cannot remove the empty recording {}", path.display());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file that fails every write while `full`, after taking `taken` bytes of it (half a
    /// line reaches the disk before the disk is full).
    #[derive(Default)]
    struct Disk {
        bytes: Vec<u8>,
        full: bool,
        taken: usize,
    }

    impl Write for Disk {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            if self.full {
                let n = self.taken.min(bytes.len());
                self.bytes
                    .extend_from_slice(bytes.get(..n).unwrap_or_default());
                self.taken = 0;
                if n > 0 {
                    return Ok(n);
                }
                return Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"));
            }
            self.bytes.extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Truncate for Disk {
        fn truncate(&mut self, len: u64) -> io::Result<()> {
            self.bytes
                .truncate(usize::try_from(len).unwrap_or(usize::MAX));
            Ok(())
        }
    }

    #[test]
    fn a_full_disk_leaves_whole_lines_and_loses_nothing() {
        let mut file = LineFile::new(Disk::default(), 0);
        file.write_all(b"0 lift e2\n").expect("buffered");
        file.flush().expect("written");
        file.file.full = true;
        file.file.taken = 4;
        file.write_all(b"300 place e4\n").expect("buffered");
        assert!(file.flush().is_err());
        assert_eq!(file.file.bytes, b"0 lift e2\n", "the half line is cut off");
        file.write_all(b"700 clock white\n").expect("buffered");
        assert!(file.flush().is_err());
        assert!(!file.pending.is_empty());
        file.file.full = false;
        file.flush().expect("written");
        assert_eq!(
            file.file.bytes,
            b"0 lift e2\n300 place e4\n700 clock white\n".to_vec()
        );
        assert_eq!(file.written, 10 + 13 + 16);
        assert!(file.pending.is_empty());
    }
}
