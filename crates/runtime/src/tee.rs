//! Two sinks as one: what a runner reports goes to both, in order (its notices to the first) (`demo` prints the game in
//! the terminal and serves its page).

use std::io;

use crate::runner::{Happened, Sink};

/// Sends everything to `0`, then to `1` (notices to `0` only).
pub struct Tee<A, B>(pub A, pub B);

impl<A: Sink, B: Sink> Sink for Tee<A, B> {
    fn take(&mut self, happened: Happened<'_>) -> io::Result<()> {
        self.0.take(happened)?;
        match happened {
            // To the first only: both would print the same diagnostic.
            Happened::Notice(_) => Ok(()),
            _ => self.1.take(happened),
        }
    }
}
