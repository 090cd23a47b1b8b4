//! `--record LOG [--resume]`, `--pgn FILE`: the outputs of a live session checked before it
//! starts, the recording read back with `--resume`, and where the game starts.

use anyhow::Result;
use shakmaty::Chess;
use touchmove_runtime::files::paths::{Existing, check_output};
use touchmove_runtime::files::resumed::Resumed;

use super::args::WatchArgs;

/// The outputs checked (a resumed recording and its PGN may exist, others must be new or
/// empty), the recording read back with `--resume`, and where the game starts (the
/// recording's `@start`, else `--start`).
pub fn outputs_and_start(args: &WatchArgs) -> Result<(Option<Resumed>, Chess)> {
    let resumed = match (&args.record, args.resume) {
        (Some(path), true) => {
            check_output(path, "--record", Existing::Replace)?;
            Resumed::read_or_clear(path)?
        }
        (Some(path), false) => {
            check_output(path, "--record", Existing::MustBeEmpty)?;
            None
        }
        (None, _) => None,
    };
    if let Some(path) = &args.pgn {
        // A resumed game's PGN is written again, whole, from the recording.
        let existing = if resumed.is_some() {
            Existing::Replace
        } else {
            Existing::MustBeEmpty
        };
        check_output(path, "--pgn", existing)?;
    }
    let start = match &resumed {
        Some(resumed) => resumed
            .log
            .header
            .start_position()
            .map_err(|error| anyhow::anyhow!("--resume: the recording's @start: {error}"))?,
        None => super::start::start_position(args.start.as_deref(), args.chess960)?,
    };
    Ok((resumed, start))
}
