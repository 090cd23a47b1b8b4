//! Printing decisions as they are made: JSON lines or readable text on stdout.

use std::io::{self, Write};

use super::OutputError;

use touchmove_core::output::notation::Notation;
use touchmove_core::output::text::{self, MoveNumbers};
use touchmove_core::stream::StreamEvent;

/// Prints each decision as it is made. The first write error is kept
/// and reported by [`EventPrinter::check`] or [`EventPrinter::finish`].
pub struct EventPrinter<W: Write> {
    out: W,
    json: bool,
    /// The log the decisions come from, said in each JSON object (`replay` of several logs).
    log: Option<String>,
    /// `log` as a JSON string, written once per log rather than once per decision.
    log_json: String,
    /// The line being written, kept between decisions so that no line allocates.
    line: Vec<u8>,
    /// The text output's lines.
    text: TextLines,
    error: Option<io::Error>,
}

/// The text output: a line per decision, its plies said as moves of the game (`takeback of
/// white's move 2`), the details (a move pending, the clock's times after a move and a press)
/// only when asked.
#[derive(Debug, Clone, Copy, Default)]
pub struct TextLines {
    notation: Notation,
    details: bool,
    numbers: MoveNumbers,
}

impl TextLines {
    /// Lines writing moves in `notation`, with the details when `details` (`-v`).
    pub fn new(notation: Notation, details: bool) -> TextLines {
        TextLines {
            notation,
            details,
            numbers: MoveNumbers::default(),
        }
    }

    /// Writes `event`'s line to `out`, unless it is a detail not asked for; whether it wrote.
    pub fn write(&mut self, mut out: impl Write, event: &StreamEvent) -> io::Result<bool> {
        self.numbers.learn(event);
        if !self.details && text::is_detail(event) {
            return Ok(false);
        }
        let line = text::render_numbered(event, self.notation, &self.numbers, self.details);
        writeln!(out, "{line}")?;
        Ok(true)
    }

    /// The decisions that follow are another game's from its start (another log).
    pub fn restart(&mut self) {
        self.numbers = MoveNumbers::default();
    }
}

impl<W: Write> EventPrinter<W> {
    /// A printer writing JSON lines when `json`, else readable text.
    pub fn new(out: W, json: bool) -> EventPrinter<W> {
        EventPrinter {
            out,
            json,
            log: None,
            log_json: String::new(),
            line: Vec::new(),
            text: TextLines::default(),
            error: None,
        }
    }

    /// Prints one decision.
    pub fn print(&mut self, event: StreamEvent) {
        if self.error.is_none()
            && let Err(error) = self.write(&event)
        {
            self.error = Some(error);
        }
    }

    /// The text output writes moves in `notation`, and the details when `details` (`-v`:
    /// the moves pending, the clock after each press).
    pub fn with_text(mut self, notation: Notation, details: bool) -> EventPrinter<W> {
        self.text = TextLines::new(notation, details);
        self
    }

    /// From now on the decisions come from `log`: each JSON object says so (`"log": "path"`),
    /// the text a line `== path` before the log's first decision.
    pub fn set_log(&mut self, log: Option<String>) {
        if !self.json
            && let Some(log) = &log
            && self.error.is_none()
            && let Err(error) = writeln!(self.out, "== {log}")
        {
            self.error = Some(error);
        }
        self.text.restart();
        self.log_json = match &log {
            Some(log) => serde_json::to_string(log).unwrap_or_default(),
            None => String::new(),
        };
        self.log = log;
    }

    fn write(&mut self, event: &StreamEvent) -> io::Result<()> {
        match (&self.log, self.json) {
            (Some(_), true) => {
                // The event's own fields in their order, then its log's.
                self.line.clear();
                event.write_json(&mut self.line)?;
                if self.line.last() == Some(&b'}') {
                    self.line.pop();
                }
                self.line.extend_from_slice(b",\"log\":");
                self.line.extend_from_slice(self.log_json.as_bytes());
                self.line.extend_from_slice(b"}\n");
                self.out.write_all(&self.line)
            }
            (_, true) => write_event(&mut self.out, true, Notation::San, event),
            (_, false) => self.text.write(&mut self.out, event).map(|_| ()),
        }
    }

    /// Fails if a write has failed.
    pub fn check(&mut self) -> Result<(), OutputError> {
        match self.error.take() {
            Some(error) => Err(OutputError::Stdout(error)),
            None => Ok(()),
        }
    }

    /// What was written, once the printing is over (to memory: a write cannot fail).
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Flushes the output; fails if any write failed.
    pub fn finish(&mut self) -> Result<(), OutputError> {
        self.check()?;
        self.out.flush().map_err(OutputError::Stdout)
    }
}

/// One decision on one line of `out`: a JSON object of the contract when `json`, else text
/// (its move in `notation`).
pub fn write_event(
    mut out: impl Write,
    json: bool,
    notation: Notation,
    event: &StreamEvent,
) -> io::Result<()> {
    if json {
        let mut line = Vec::with_capacity(256);
        event.write_json(&mut line)?;
        line.push(b'\n');
        out.write_all(&line)
    } else {
        writeln!(out, "{}", text::render_stream_in(event, notation))
    }
}
