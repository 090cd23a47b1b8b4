//! Output paths checked before a session starts: a regular file or a new path, never a symlink
//! or a device, and never a record already written (nothing decided is ever overwritten).

use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use thiserror::Error;

/// Why an output path is refused, with the option it was given to (`what`, e.g. `--record`)
/// and the path as given.
#[derive(Debug, Error)]
pub enum PathError {
    /// The path's metadata could not be read.
    #[error("{what} {path}: cannot be checked: {error}")]
    Unchecked {
        /// The option the path was given to.
        what: String,
        /// The path, as shown.
        path: String,
        /// What the system said.
        error: io::Error,
    },
    /// A symbolic link: writing it would write wherever it points.
    #[error("{what} {path}: is a symbolic link; give the path of a regular file")]
    Symlink {
        /// The option the path was given to.
        what: String,
        /// The path, as shown.
        path: String,
    },
    /// A folder or a device.
    #[error("{what} {path}: is not a regular file (a folder or a device); give a file's path")]
    NotAFile {
        /// The option the path was given to.
        what: String,
        /// The path, as shown.
        path: String,
    },
    /// A file with other names, which writing it would change too.
    #[error(
        "{what} {path}: is hard-linked ({links} names for one file), so writing it would change \
         the other names too; give a path of its own"
    )]
    HardLinked {
        /// The option the path was given to.
        what: String,
        /// The path, as shown.
        path: String,
        /// How many names the file has.
        links: u64,
    },
    /// A record already written, which is never overwritten.
    #[error(
        "{what} {path}: already holds a record, which is never overwritten; move it away or \
         give another path"
    )]
    HoldsARecord {
        /// The option the path was given to.
        what: String,
        /// The path, as shown.
        path: String,
    },
    /// A new path in a folder that does not exist.
    #[error("{what} {path}: the folder {folder} does not exist")]
    NoFolder {
        /// The option the path was given to.
        what: String,
        /// The path, as shown.
        path: String,
        /// The missing folder, as shown.
        folder: String,
    },
}

type Result<T> = std::result::Result<T, PathError>;

/// Whether an existing file may be written over (`replay --pgn` writes the same record again)
/// or must be empty (a live session's recording and PGN).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Existing {
    /// An existing regular file is replaced.
    Replace,
    /// An existing file must be empty.
    MustBeEmpty,
}

/// Checks that `path` (the `what` of the session, e.g. `--record`) is a new path or a regular
/// file, empty unless `existing` allows replacing it.
///
/// ```
/// use touchmove_runtime::files::paths::{Existing, PathError, check_output};
///
/// let dir = tempfile::tempdir()?;
/// let log = dir.path().join("game.log");
/// check_output(&log, "--record", Existing::MustBeEmpty)?; // a new path
/// std::fs::write(&log, "touchmove-log 1\n")?;
/// let kept = check_output(&log, "--record", Existing::MustBeEmpty);
/// assert!(matches!(kept, Err(PathError::HoldsARecord { .. })), "a record is never overwritten");
/// let link = dir.path().join("link.log");
/// std::os::unix::fs::symlink(&log, &link)?;
/// let refused = check_output(&link, "--pgn", Existing::Replace);
/// assert!(matches!(refused, Err(PathError::Symlink { .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_output(path: &Path, what: &str, existing: Existing) -> Result<()> {
    let what = what.to_owned();
    let shown = path.display().to_string();
    let metadata = match fs::symlink_metadata(path) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return check_folder(path, what),
        Err(error) => {
            return Err(PathError::Unchecked {
                what,
                path: shown,
                error,
            });
        }
    };
    let kind = metadata.file_type();
    if kind.is_symlink() {
        return Err(PathError::Symlink { what, path: shown });
    }
    if !kind.is_file() {
        return Err(PathError::NotAFile { what, path: shown });
    }
    if metadata.nlink() > 1 {
        return Err(PathError::HardLinked {
            what,
            path: shown,
            links: metadata.nlink(),
        });
    }
    if existing == Existing::MustBeEmpty && metadata.len() > 0 {
        return Err(PathError::HoldsARecord { what, path: shown });
    }
    Ok(())
}

/// A new path's folder must exist.
fn check_folder(path: &Path, what: String) -> Result<()> {
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => return Ok(()),
    };
    if !folder.is_dir() {
        return Err(PathError::NoFolder {
            what,
            path: path.display().to_string(),
            folder: folder.display().to_string(),
        });
    }
    Ok(())
}

/// Opens the recording at `path` for appending (every write goes at the end of the file, so a
/// cut-back file is never written past its end): created if it does not exist (exclusively, so
/// a symlink planted there is never followed), else the regular file checked before. The file
/// opened must be a regular file with no other name (no symlink or hard link was planted
/// between the check and the opening). Says whether the file was created.
pub fn open_recording(path: &Path) -> io::Result<(File, bool)> {
    let (file, created) = match OpenOptions::new().append(true).create_new(true).open(path) {
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
            let metadata = fs::symlink_metadata(path)?;
            if !metadata.file_type().is_file() {
                return Err(io::Error::other("not a regular file"));
            }
            (OpenOptions::new().append(true).open(path)?, false)
        }
        opened => (opened?, true),
    };
    let metadata = file.metadata()?;
    if !metadata.is_file() || metadata.nlink() != 1 {
        return Err(io::Error::other(
            "not a regular file with one name (a link was planted there)",
        ));
    }
    Ok((file, created))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_path_an_empty_file_and_a_regular_file_to_replace_are_accepted() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let new = dir.path().join("new.log");
        assert!(check_output(&new, "--record", Existing::MustBeEmpty).is_ok());
        fs::write(&new, "").expect("written");
        assert!(check_output(&new, "--record", Existing::MustBeEmpty).is_ok());
        fs::write(&new, "touchmove-log 1\n").expect("written");
        assert!(check_output(&new, "--pgn", Existing::Replace).is_ok());
    }

    #[test]
    fn a_record_a_symlink_a_device_and_a_missing_folder_are_refused() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let full = dir.path().join("game.log");
        fs::write(&full, "touchmove-log 1\n").expect("written");
        let refused =
            check_output(&full, "--record", Existing::MustBeEmpty).expect_err("a record is kept");
        assert!(refused.to_string().contains("game.log"), "{refused}");
        let link = dir.path().join("link.pgn");
        std::os::unix::fs::symlink(&full, &link).expect("a symlink");
        assert!(check_output(&link, "--pgn", Existing::Replace).is_err());
        assert!(check_output(Path::new("/dev/null"), "--pgn", Existing::Replace).is_err());
        let nowhere = dir.path().join("no-such-folder").join("game.pgn");
        assert!(check_output(&nowhere, "--pgn", Existing::Replace).is_err());
    }

    #[test]
    fn a_hard_linked_file_is_refused_like_a_symlink() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let elsewhere = dir.path().join("elsewhere.log");
        fs::write(&elsewhere, "").expect("written");
        let linked = dir.path().join("game.log");
        fs::hard_link(&elsewhere, &linked).expect("a hard link");
        for existing in [Existing::MustBeEmpty, Existing::Replace] {
            let refused =
                check_output(&linked, "--record", existing).expect_err("a hard link is refused");
            assert!(refused.to_string().contains("hard-linked"), "{refused}");
        }
        assert!(open_recording(&linked).is_err(), "nor opened");
        fs::remove_file(&elsewhere).expect("removed");
        assert!(check_output(&linked, "--record", Existing::MustBeEmpty).is_ok());
        let (_, created) = open_recording(&linked).expect("one name again");
        assert!(!created);
    }
}
