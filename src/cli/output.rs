//! Printing decisions as they are made: JSON lines or readable text on stdout, and the PGN file.

use std::io::{self, Write};
use std::path::Path;

use anyhow::{Context, Result};
use shakmaty::Chess;

use super::pgn_file::PgnFile;
use touchmove::event::GameEvent;
use touchmove::output::pgn::PgnTags;
use touchmove::output::text;

/// Prints each decision as it is made and keeps them for the PGN. The first write error is kept
/// and reported by [`EventPrinter::check`] or [`EventPrinter::finish`].
pub struct EventPrinter<W: Write> {
    out: W,
    json: bool,
    keep: bool,
    events: Vec<GameEvent>,
    error: Option<io::Error>,
}

impl<W: Write> EventPrinter<W> {
    /// A printer writing JSON lines when `json`, else readable text; `keep` keeps the events.
    pub fn new(out: W, json: bool, keep: bool) -> EventPrinter<W> {
        EventPrinter {
            out,
            json,
            keep,
            events: Vec::new(),
            error: None,
        }
    }

    /// Prints one decision.
    pub fn print(&mut self, event: GameEvent) {
        if self.error.is_none()
            && let Err(error) = self.write(&event)
        {
            self.error = Some(error);
        }
        if self.keep {
            self.events.push(event);
        }
    }

    fn write(&mut self, event: &GameEvent) -> io::Result<()> {
        write_event(&mut self.out, self.json, event)
    }

    /// Fails if a write has failed.
    pub fn check(&mut self) -> Result<()> {
        match self.error.take() {
            Some(error) => Err(error).context("cannot write to standard output"),
            None => Ok(()),
        }
    }

    /// Flushes the output; fails if any write failed.
    pub fn finish(&mut self) -> Result<()> {
        self.check()?;
        self.out.flush().context("cannot write to standard output")
    }

    /// The decisions kept so far.
    pub fn events(&self) -> &[GameEvent] {
        &self.events
    }
}

/// Writes the PGN of `events` (played from `start`) to `path`, through a temporary file
/// renamed into place.
pub fn write_pgn_file(
    path: &Path,
    start: &Chess,
    time_control: Option<String>,
    events: &[GameEvent],
) -> Result<()> {
    let tags = PgnTags {
        time_control,
        ..PgnTags::default()
    };
    let mut file = PgnFile::new(path, start, tags);
    for event in events {
        file.record_only(event)
            .with_context(|| format!("cannot record event at t={} in the PGN", event.t))?;
    }
    file.rewrite()
        .with_context(|| format!("{}: cannot write the PGN", path.display()))
}

/// One decision on one line of `out`: a JSON object of the contract when `json`, else text.
pub fn write_event(mut out: impl Write, json: bool, event: &GameEvent) -> io::Result<()> {
    if json {
        serde_json::to_writer(&mut out, event)?;
        writeln!(out)
    } else {
        writeln!(out, "{}", text::render(event))
    }
}
