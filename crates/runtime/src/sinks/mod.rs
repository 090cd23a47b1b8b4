//! Where a session's decisions go on the host: printed as text or JSON lines
//! ([`printer`]), with the recording and the PGN file for a live board ([`watch::WatchSink`]),
//! and said aloud ([`speaker`]).

pub mod printer;
pub mod speaker;
pub mod watch;

/// Why a session's outputs could not all be written at its end. Nothing decided is lost: the
/// recording and the PGN keep what was written before.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// Standard output could not be written.
    #[error("cannot write to standard output")]
    Stdout(#[source] std::io::Error),
    /// The PGN file could not be rewritten.
    #[error("the PGN could not be written")]
    Pgn(#[source] crate::files::pgn_file::PgnFileError),
    /// The sensor recording could not be finished.
    #[error(transparent)]
    Recording(#[from] crate::files::recording::UnfinishedRecording),
}
