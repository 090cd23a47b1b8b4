//! A file written whole (a report, its chart, its page): into a temporary file created
//! exclusively beside it (no symlink followed), renamed over it once complete, so that a reader
//! never sees half of it and a failure leaves what was there.

use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// A file that could not be written or renamed into place.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {source}")]
pub struct WholeFileError {
    /// The file.
    pub path: PathBuf,
    /// Why.
    #[source]
    pub source: io::Error,
}

/// Writes `text` as the whole of the file at `path` (readable by all, as a PGN is).
pub fn write_whole(path: &Path, text: &str) -> Result<(), WholeFileError> {
    let error = |source| WholeFileError {
        path: path.to_owned(),
        source,
    };
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut file = tempfile::Builder::new()
        .prefix(".touchmove-")
        .suffix(".tmp")
        .tempfile_in(folder)
        .map_err(error)?;
    file.as_file()
        .set_permissions(std::fs::Permissions::from_mode(0o644))
        .map_err(error)?;
    file.write_all(text.as_bytes()).map_err(error)?;
    file.flush().map_err(error)?;
    file.as_file().sync_all().map_err(error)?;
    file.persist(path).map_err(|failed| error(failed.error))?;
    Ok(())
}
