//! Reading a whole log at once, stopping at the first malformed line.

use super::decoder::{LogDecoder, LogRecord};
use super::error::LogError;
use super::header::LogHeader;
use super::host_note::HostNote;
use crate::clock::ClockReading;
use crate::decode::StreamDecoder;
use crate::sensor::{Millis, SensorEvent};

/// A whole sensor log: its header and its events in order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SensorLog {
    /// The metadata of the log.
    pub header: LogHeader,
    /// The events, in the order (and so the time order) of the log.
    pub events: Vec<SensorEvent>,
    /// The clock's reports, each with the number of events before it in the log.
    pub clock_readings: Vec<(usize, Millis, ClockReading)>,
    /// What the host knew and no sensor reports (an engine's choices, a resignation), each with the number of events before
    /// it in the log.
    pub host_notes: Vec<(usize, Millis, HostNote)>,
}

impl SensorLog {
    /// Adds one record of the log.
    fn add(&mut self, record: LogRecord) {
        match record {
            LogRecord::Header(header) => self.header = *header,
            LogRecord::Event(event) => self.events.push(event),
            LogRecord::ClockReading { t, reading } => {
                self.clock_readings.push((self.events.len(), t, reading));
            }
            LogRecord::HostNote { t, note } => {
                self.host_notes.push((self.events.len(), t, note));
            }
        }
    }

    /// The events and clock reports as records, in the order of the log (the header first).
    pub fn records(&self) -> impl Iterator<Item = LogRecord> + '_ {
        // The comments between two events, in time order (at the same time, a clock reading
        // before a host's note).
        let mut notes: Vec<(usize, Millis, LogRecord)> = self
            .clock_readings
            .iter()
            .map(|(before, t, reading)| {
                let record = LogRecord::ClockReading {
                    t: *t,
                    reading: *reading,
                };
                (*before, *t, record)
            })
            .chain(self.host_notes.iter().map(|(before, t, note)| {
                let record = LogRecord::HostNote {
                    t: *t,
                    note: note.clone(),
                };
                (*before, *t, record)
            }))
            .collect();
        notes.sort_by_key(|(before, t, _)| (*before, *t));
        let mut notes = notes.into_iter().peekable();
        let mut body = Vec::with_capacity(self.events.len() + notes.len());
        for (index, event) in self.events.iter().enumerate() {
            while let Some((_, _, record)) = notes.next_if(|(before, ..)| *before == index) {
                body.push(record);
            }
            body.push(LogRecord::Event(event.clone()));
        }
        body.extend(notes.map(|(_, _, record)| record));
        std::iter::once(LogRecord::Header(Box::new(self.header.clone()))).chain(body)
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
