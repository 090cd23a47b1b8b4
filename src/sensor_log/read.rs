//! Reading a whole log at once, stopping at the first malformed line.

use std::io::Read;

use super::decoder::{LogDecoder, LogRecord};
use super::error::LogError;
use super::header::LogHeader;
use super::reader::{LogReader, ReadError};
use crate::sensor::SensorEvent;

/// A whole sensor log: its header and its events in order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SensorLog {
    /// The metadata of the log.
    pub header: LogHeader,
    /// The events, in the order (and so the time order) of the log.
    pub events: Vec<SensorEvent>,
}

impl SensorLog {
    /// Adds one record of the log.
    fn add(&mut self, record: LogRecord) {
        match record {
            LogRecord::Header(header) => self.header = header,
            LogRecord::Event(event) => self.events.push(event),
        }
    }
}

/// Reads the log in `text`; the first malformed line is the error.
pub fn read_log(text: &str) -> Result<SensorLog, LogError> {
    let mut decoder = LogDecoder::new();
    decoder.push(text.as_bytes());
    decoder.finish();
    let mut log = SensorLog::default();
    while let Some(record) = decoder.poll() {
        log.add(record?);
    }
    Ok(log)
}

/// Reads the log from `source`; the first malformed line or I/O failure is the error.
pub fn read_log_from<R: Read>(source: R) -> Result<SensorLog, ReadError> {
    let mut log = SensorLog::default();
    for record in LogReader::new(source) {
        log.add(record?);
    }
    Ok(log)
}
