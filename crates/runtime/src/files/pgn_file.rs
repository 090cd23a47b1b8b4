//! A PGN file kept up to date during a live game: rewritten after every decision that changes
//! the record, through a temporary file renamed into place (a reader never sees half a file).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use shakmaty::Chess;

use touchmove_core::event::EventKind;
use touchmove_core::output::pgn::{PgnRecorder, PgnTags, RecordError};
use touchmove_core::stream::StreamEvent;

/// Why the PGN file could not be kept up to date.
#[derive(Debug, thiserror::Error)]
pub enum PgnFileError {
    /// The record refused an event (a bug if it happens: the interpreter's events are ordered).
    #[error("the PGN record refused the event at t={t}: {source}")]
    Record {
        /// The event's time.
        t: u64,
        /// Why.
        source: RecordError,
    },
    /// The file could not be written or renamed into place.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
}

/// The PGN file of a live game.
pub struct PgnFile {
    path: PathBuf,
    recorder: PgnRecorder,
}

impl PgnFile {
    /// A PGN file at `path` for a game starting from `start`, with `tags`.
    pub fn new(path: &Path, start: &Chess, tags: PgnTags) -> PgnFile {
        let set_up = *start != Chess::default();
        PgnFile {
            path: path.to_owned(),
            recorder: PgnRecorder::new(start.clone(), set_up, tags),
        }
    }

    /// The game, not begun yet, starts from `start` instead (a Chess960 start the board showed).
    pub fn starts_from(&mut self, start: &Chess) {
        self.recorder.starts_from(start);
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Records `event`, and rewrites the file when the record changed.
    pub fn record(&mut self, event: &StreamEvent) -> Result<(), PgnFileError> {
        self.record_only(event)?;
        let changes_the_record = !matches!(
            event.game(),
            Some(EventKind::Mismatch { .. } | EventKind::Resync)
        );
        if changes_the_record {
            self.rewrite()?;
        }
        Ok(())
    }

    /// Records `event` without writing the file (for a record written once at the end).
    pub fn record_only(&mut self, event: &StreamEvent) -> Result<(), PgnFileError> {
        self.recorder
            .record_stream(event)
            .map_err(|source| PgnFileError::Record { t: event.t, source })
    }

    /// Writes the whole record to a temporary file, created exclusively with an unpredictable
    /// name in the file's folder (no symlink is followed), and renames it over the file; the
    /// temporary file is removed if anything fails.
    pub fn rewrite(&self) -> Result<(), PgnFileError> {
        let io = |source| PgnFileError::Io {
            path: self.path.clone(),
            source,
        };
        let mut file = temporary_beside(&self.path)?;
        self.recorder.write_pgn(&mut file).map_err(io)?;
        file.flush().map_err(io)?;
        file.as_file().sync_all().map_err(io)?;
        file.persist(&self.path).map_err(|error| io(error.error))?;
        Ok(())
    }
}

/// The PGN of a replay, written as it goes: each game once it has ended, into a temporary
/// file created exclusively beside the target, persisted over it at the end (or removed).
pub struct PgnStream {
    path: PathBuf,
    /// Every game's tags (each log's games start with them again).
    tags: PgnTags,
    recorder: PgnRecorder,
    file: io::BufWriter<tempfile::NamedTempFile>,
}

impl PgnStream {
    /// A PGN for `path`, of games starting from `start` (the first; later ones from the
    /// standard position), with `tags`.
    pub fn create(path: &Path, start: &Chess, tags: PgnTags) -> Result<PgnStream, PgnFileError> {
        let set_up = *start != Chess::default();
        Ok(PgnStream {
            path: path.to_owned(),
            recorder: PgnRecorder::new(start.clone(), set_up, tags.clone()),
            tags,
            file: io::BufWriter::new(temporary_beside(path)?),
        })
    }

    /// Records `event`, writing the games it ended.
    pub fn record(&mut self, event: &StreamEvent) -> Result<(), PgnFileError> {
        self.recorder
            .record_stream(event)
            .map_err(|source| PgnFileError::Record { t: event.t, source })?;
        let io = |source| PgnFileError::Io {
            path: self.path.clone(),
            source,
        };
        self.recorder.write_closed(&mut self.file).map_err(io)
    }

    /// The next log's games begin, from `start`: what this log left open is written, ended
    /// with `*` when it did not end.
    pub fn next_log(&mut self, start: &Chess) -> Result<(), PgnFileError> {
        let io = |source| PgnFileError::Io {
            path: self.path.clone(),
            source,
        };
        self.recorder.write_pgn(&mut self.file).map_err(io)?;
        self.file.write_all(b"\n").map_err(io)?;
        let set_up = *start != Chess::default();
        self.recorder = PgnRecorder::new(start.clone(), set_up, self.tags.clone());
        Ok(())
    }

    /// Writes the last game and puts the file in place.
    pub fn finish(mut self) -> Result<(), PgnFileError> {
        let path = self.path.clone();
        let io = |source| PgnFileError::Io {
            path: path.clone(),
            source,
        };
        self.recorder.write_pgn(&mut self.file).map_err(io)?;
        let file = self
            .file
            .into_inner()
            .map_err(|error| io(error.into_error()))?;
        file.as_file().sync_all().map_err(io)?;
        file.persist(&self.path).map_err(|error| io(error.error))?;
        Ok(())
    }
}

/// A temporary file created exclusively, with an unpredictable name, in `path`'s folder,
/// readable by everyone as a PGN to publish is (`rw-r--r--`; tempfile makes it `rw-------`).
fn temporary_beside(path: &Path) -> Result<tempfile::NamedTempFile, PgnFileError> {
    use std::os::unix::fs::PermissionsExt;
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let io = |source| PgnFileError::Io {
        path: path.to_owned(),
        source,
    };
    let file = tempfile::Builder::new()
        .prefix(".touchmove-")
        .suffix(".pgn.tmp")
        .tempfile_in(folder)
        .map_err(io)?;
    file.as_file()
        .set_permissions(std::fs::Permissions::from_mode(0o644))
        .map_err(io)?;
    Ok(file)
}
