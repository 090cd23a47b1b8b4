//! A match on the board against an opponent, whoever it is: an engine (`touchmove play`) or a
//! server's game (`touchmove online`). The board's runner, the resume of a recorded match and
//! the match's state are one for every opponent; each opponent adds its state around its
//! sans-IO game (an `opponent::Opponent`) and the transport that feeds it.
//!
//! - [`runner`]: the board opened ([`runner::MatchBoard`]), the match's recording, the runner
//!   around the board and the match's sink ([`runner::Match`]), the transport's tasks stopped
//!   at its end and the match's state handed back ([`runner::Played`]).
//! - [`resume`]: the recorded part of a resumed match read back through the board's game and
//!   the opponent ([`resume::MatchState`], [`resume::MatchSink`]).
//! - [`engine_match`]: the game against an engine: its state and sink, the opening book, the
//!   search limits, what the player types.
//! - [`online_match`]: the online game: its state and sink, its transport (the game's stream
//!   and requests over HTTPS), what the player types.
//! - [`recorded`]: one replay of any recording, a match's through its opponent's game (as its
//!   header says), sans-IO.

pub mod engine_match;
pub mod online_match;
pub mod recorded;
pub mod resume;
pub mod runner;

/// Why a match cannot be played, or could not be gone on with.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// The board cannot be reached the way its port names.
    #[error(transparent)]
    Board(#[from] touchmove_links::board::LinkError),
    /// The recording cannot be created or written on.
    #[error("--record {}", path.display())]
    Recording {
        /// The recording.
        path: std::path::PathBuf,
        /// Why.
        #[source]
        error: std::io::Error,
    },
    /// A recorded part's decisions could not be read back into the board's game.
    #[error(transparent)]
    Resumed(#[from] touchmove_runtime::files::resumed::ResumeError),
    /// The recorded part's decisions could not be passed on to the outputs.
    #[error("cannot pass on the recorded game's decisions")]
    Replayed(#[source] std::io::Error),
    /// A task of the match still holds its state when the match ends (a bug).
    #[error("the game's state is still shared")]
    StillShared,
}
