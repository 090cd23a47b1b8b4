//! The sensor log (`sensor-log.md`, version 1): reading it, sans-IO or from a reader, and
//! writing it.
//!
//! [`LogDecoder`] turns bytes into [`LogRecord`]s without doing any I/O; [`LogReader`] drives it
//! from any [`std::io::Read`]; [`read_log`] reads a whole log from text. [`LogWriter`] writes a
//! log that reads back to the same events, and [`format_event`] writes a single event line.

mod clock_annotation;
mod decoder;
mod error;
mod event_line;
mod fields;
mod format;
mod header;
mod host_note;
mod metadata;
mod placement;
pub use placement::format_placement;
mod read;
mod reader;
mod writer;

#[cfg(test)]
mod tests;

pub use clock_annotation::{format_clock_reading, parse_clock_reading};
pub use decoder::{LogDecoder, LogRecord};
pub use error::{IllegalPosition, LineError, LogError, PlacementError};
pub use fields::MAX_TIME_MS;
pub use format::format_event;
pub use header::{GameLabel, LogHeader, OnlineSeat};
pub use host_note::{HostNote, format_host_note, parse_host_note};
pub use read::{SensorLog, read_log};
pub use reader::{LogReader, ReadError};
pub use writer::{FlushPolicy, LogWriter, WriteError};
