//! The sans-IO, push-based decoder: bytes in, records out.

use std::collections::VecDeque;

use crate::decode::StreamDecoder;

use super::clock_annotation::parse_clock_reading;
use super::error::{LineError, LogError};
use super::event_line::parse_event_line;
use super::header::LogHeader;
use super::host_note::{HostNote, parse_host_note};
use super::metadata::MetadataCollector;
use crate::clock::ClockReading;
use crate::sensor::{Millis, SensorEvent};

/// The exact header line of version 1 of the format.
pub(super) const HEADER_LINE: &str = "touchmove-log 1";

/// The longest line read (bytes, without its line ending): a longer one is an error, and the
/// decoder keeps no more of it than this.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// How much of an over-long line its error quotes.
const QUOTED_BYTES: usize = 32;

/// One record of a sensor log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogRecord {
    /// The metadata, complete; produced once, before the first event (or at the end of the
    /// input for a log without events).
    /// Boxed: the header comes once, and an event record need not be as large as it.
    Header(Box<LogHeader>),
    /// One sensor event.
    Event(SensorEvent),
    /// A physical clock's report, from a `#clock-reading` comment after the first event (see
    /// [`super::format_clock_reading`]); never produced by a decoder made with
    /// [`LogDecoder::ignoring_clock_readings`].
    ClockReading {
        /// When the clock reported.
        t: Millis,
        /// What it reported.
        reading: ClockReading,
    },
    /// What the host knew and no sensor reports (an engine's choice, a resignation), from an
    /// `#engine-move`, `#engine-gone` or `#resign` comment after the first event (see
    /// [`super::format_host_note`]).
    HostNote {
        /// When.
        t: Millis,
        /// What.
        note: HostNote,
    },
}

/// Where in the log the decoder is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Before the header line.
    ExpectHeader,
    /// After the header, before the first event: metadata may come.
    Metadata,
    /// After the first event line.
    Events,
}

/// Decodes a sensor log from bytes pushed in any pieces, without doing any I/O.
///
/// Push bytes with [`push`](LogDecoder::push), signal the end of the input with
/// [`finish`](LogDecoder::finish), and take records with [`poll`](LogDecoder::poll) until it
/// returns `None`. The records do not depend on how the input was split into pushes. After an
/// error the decoder goes on with the next line, so a caller may report several.
#[derive(Debug)]
pub struct LogDecoder {
    /// Bytes of the current, incomplete line (and any complete lines not yet polled), from
    /// `start`: the bytes before it were taken, and are dropped at the next push (taking a
    /// line moves nothing).
    pending: Vec<u8>,
    /// Where the bytes not yet taken begin in `pending`.
    start: usize,
    /// How many bytes from `start` are known to hold no line feed.
    scanned: usize,
    /// How many lines have been taken from the input.
    line: usize,
    phase: Phase,
    metadata: MetadataCollector,
    last_time: Option<Millis>,
    ready: VecDeque<Result<LogRecord, LogError>>,
    /// Readings and notes that came before the first event: given after the header record.
    early: Vec<LogRecord>,
    finished: bool,
    ended: bool,
    /// `#clock-reading` comments are read as clock reports.
    clock_readings: bool,
    /// The time of the last clock report read.
    last_reading: Option<Millis>,
    /// The rest of an over-long line is being dropped, up to its line feed.
    skipping: bool,
}

impl Default for LogDecoder {
    fn default() -> Self {
        LogDecoder::new()
    }
}

impl LogDecoder {
    /// A decoder at the start of a log.
    pub fn new() -> LogDecoder {
        LogDecoder {
            pending: Vec::new(),
            start: 0,
            scanned: 0,
            line: 0,
            phase: Phase::ExpectHeader,
            metadata: MetadataCollector::default(),
            last_time: None,
            ready: VecDeque::new(),
            early: Vec::new(),
            finished: false,
            ended: false,
            clock_readings: true,
            last_reading: None,
            skipping: false,
        }
    }

    /// A decoder that reads exactly what version 1 of the format says: every comment is
    /// ignored, `#clock-reading` ones included.
    pub fn ignoring_clock_readings() -> LogDecoder {
        LogDecoder {
            clock_readings: false,
            ..LogDecoder::new()
        }
    }

    /// Takes the next complete line out of `pending`: where it lies there, without its line
    /// ending.
    fn take_line(&mut self) -> Option<std::ops::Range<usize>> {
        let from = self.start + self.scanned;
        let unscanned = self.pending.get(from..).unwrap_or_default();
        let (mut end, next) = match unscanned.iter().position(|&b| b == b'\n') {
            Some(offset) => (from + offset, from + offset + 1),
            None if self.finished && self.buffered() > 0 => {
                (self.pending.len(), self.pending.len())
            }
            None => {
                self.scanned = self.buffered();
                return None;
            }
        };
        let line_start = self.start;
        self.start = next;
        self.scanned = 0;
        if end > line_start && self.pending.get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        Some(line_start..end)
    }

    /// How many bytes of input the decoder holds, not yet taken as lines.
    pub(super) fn buffered(&self) -> usize {
        self.pending.len().saturating_sub(self.start)
    }

    /// A line longer than [`MAX_LINE_BYTES`]: an error quoting its start.
    fn too_long(&mut self, line: &[u8]) {
        self.line += 1;
        // Too long for metadata: it stands where an event would, after the header.
        if self.phase == Phase::Metadata {
            self.end_metadata();
        }
        let start = line.get(..QUOTED_BYTES).unwrap_or(line);
        self.ready.push_back(Err(LogError {
            line: self.line,
            kind: LineError::LineTooLong {
                start: String::from_utf8_lossy(start).into_owned(),
            },
        }));
    }

    /// Decodes one line: an event or an error is returned (after what is queued, which comes
    /// first); the other records it yields are queued.
    fn decode_line(&mut self, bytes: &[u8]) -> Option<Result<LogRecord, LogError>> {
        self.line += 1;
        match self.decode_text(bytes) {
            Ok(event) => event.map(Ok),
            Err(kind) => Some(Err(LogError {
                line: self.line,
                kind,
            })),
        }
    }

    /// Decodes one line: the event it holds, or what was wrong with it.
    fn decode_text(&mut self, bytes: &[u8]) -> Result<Option<LogRecord>, LineError> {
        let text = std::str::from_utf8(bytes).map_err(|error| LineError::InvalidUtf8 {
            valid_up_to: error.valid_up_to(),
        })?;
        let content = text.trim_start_matches(' ');
        if content.starts_with('#') {
            self.decode_comment(content);
            return Ok(None);
        }
        if content.is_empty() {
            return Ok(None);
        }
        match self.phase {
            Phase::ExpectHeader => self.decode_header(text).map(|()| None),
            Phase::Metadata if content.starts_with('@') => {
                self.metadata.add(self.line, content).map(|()| None)
            }
            Phase::Metadata => {
                self.end_metadata();
                self.decode_event(content).map(Some)
            }
            Phase::Events if content.starts_with('@') => Err(metadata_after_event(content)),
            Phase::Events => self.decode_event(content).map(Some),
        }
    }

    /// A comment: ignored, unless it is a clock reading or a host's note (an engine's choice, a
    /// resignation) after the header, no earlier than the last event, reading or note (anything
    /// else in a comment is never an error). A clock's first report may come before the first
    /// event. A decoder ignoring clock readings still reads the host's notes.
    fn decode_comment(&mut self, content: &str) {
        if self.phase == Phase::ExpectHeader {
            return;
        }
        if let Some((t, note)) = parse_host_note(content) {
            let latest = self.last_time.max(self.last_reading);
            if latest.is_none_or(|last| t >= last) {
                self.last_reading = Some(t);
                self.take_record(LogRecord::HostNote { t, note });
            }
            return;
        }
        if !self.clock_readings {
            return;
        }
        let Some((t, reading)) = parse_clock_reading(content) else {
            return;
        };
        let latest = self.last_time.max(self.last_reading);
        if latest.is_none_or(|last| t >= last) {
            self.last_reading = Some(t);
            self.take_record(LogRecord::ClockReading { t, reading });
        }
    }

    /// Checks the header line. After a wrong header the decoder goes on as if it had been right.
    fn decode_header(&mut self, text: &str) -> Result<(), LineError> {
        self.phase = Phase::Metadata;
        if text == HEADER_LINE {
            Ok(())
        } else {
            Err(LineError::WrongHeader {
                found: text.to_owned(),
            })
        }
    }

    /// Closes the metadata section, queueing the header record.
    fn end_metadata(&mut self) {
        self.phase = Phase::Events;
        let header = self.metadata.header().clone();
        self.ready
            .push_back(Ok(LogRecord::Header(Box::new(header))));
        self.ready.extend(self.early.drain(..).map(Ok));
    }

    /// Queues a reading or note: after the header record, kept until then if it came first.
    fn take_record(&mut self, record: LogRecord) {
        if self.phase == Phase::Events {
            self.ready.push_back(Ok(record));
        } else {
            self.early.push(record);
        }
    }

    /// Decodes an event line and checks that time does not go back.
    fn decode_event(&mut self, content: &str) -> Result<LogRecord, LineError> {
        let event = parse_event_line(content)?;
        if let Some(previous) = self.last_time.filter(|&previous| event.t < previous) {
            return Err(LineError::TimeWentBack {
                t: event.t,
                previous,
            });
        }
        self.last_time = Some(event.t);
        Ok(LogRecord::Event(event))
    }

    /// Handles the end of the input: a missing header is an error, an unclosed metadata
    /// section yields the header record.
    fn end_of_input(&mut self) {
        match self.phase {
            Phase::ExpectHeader => self.ready.push_back(Err(LogError {
                line: self.line + 1,
                kind: LineError::MissingHeader,
            })),
            Phase::Metadata => self.end_metadata(),
            Phase::Events => {}
        }
    }
}

impl StreamDecoder for LogDecoder {
    type Frame = LogRecord;
    type Error = LogError;

    /// Feeds the next bytes of the input.
    ///
    /// Bytes pushed after [`finish`](LogDecoder::finish) are not decoded; they produce a
    /// [`LineError::PushedAfterFinish`] error instead.
    fn push(&mut self, bytes: &[u8]) {
        if self.finished {
            if !bytes.is_empty() {
                self.ready.push_back(Err(LogError {
                    line: self.line + 1,
                    kind: LineError::PushedAfterFinish,
                }));
            }
            return;
        }
        let bytes = if self.skipping {
            match bytes.iter().position(|&b| b == b'\n') {
                Some(end) => {
                    self.skipping = false;
                    bytes.get(end + 1..).unwrap_or_default()
                }
                None => return,
            }
        } else {
            bytes
        };
        self.pending.drain(..self.start);
        self.start = 0;
        self.pending.extend_from_slice(bytes);
    }

    /// Signals the end of the input: a last line without a line feed is still a line.
    fn finish(&mut self) {
        self.finished = true;
    }

    /// The next record or error, or `None` when more input (or [`finish`](LogDecoder::finish))
    /// is needed, or when everything has been decoded.
    fn poll(&mut self) -> Option<Result<LogRecord, LogError>> {
        loop {
            if let Some(result) = self.ready.pop_front() {
                return Some(result);
            }
            if let Some(range) = self.take_line() {
                // Decoding a line never touches `pending`: it is lent out meanwhile.
                let pending = std::mem::take(&mut self.pending);
                let line = pending.get(range).unwrap_or_default();
                let decoded = if line.len() > MAX_LINE_BYTES {
                    self.too_long(line);
                    None
                } else {
                    self.decode_line(line)
                };
                self.pending = pending;
                // An event goes out at once, unless records queued by its line come first.
                if let Some(decoded) = decoded {
                    if self.ready.is_empty() {
                        return Some(decoded);
                    }
                    self.ready.push_back(decoded);
                }
            } else if self.buffered() > MAX_LINE_BYTES {
                // No line feed yet: what came is dropped, and the rest as it comes.
                let line = std::mem::take(&mut self.pending);
                let unread = line.get(self.start..).unwrap_or_default();
                self.start = 0;
                self.scanned = 0;
                self.skipping = !self.finished;
                self.too_long(unread);
            } else if self.finished && !self.ended {
                self.ended = true;
                self.end_of_input();
            } else {
                return None;
            }
        }
    }
}

/// The error for a metadata line after the first event.
fn metadata_after_event(content: &str) -> LineError {
    let body = content.strip_prefix('@').unwrap_or(content);
    let key = body.split(' ').next().unwrap_or("");
    LineError::MetadataAfterEvent {
        key: key.to_owned(),
    }
}

#[cfg(test)]
mod tests;
