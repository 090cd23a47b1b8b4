//! Driving the decoder from any [`std::io::Read`], in chunks.

use std::io::{ErrorKind, Read};

use super::decoder::{LogDecoder, LogRecord};
use super::error::LogError;
use crate::decode::StreamDecoder;

/// How many bytes the reader asks its source for at a time.
const CHUNK_SIZE: usize = 8 * 1024;

/// An error while reading a log from a reader: the reader failed, or the log is malformed.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The underlying reader failed; nothing more is read after this.
    #[error("reading the sensor log failed: {0}")]
    Io(#[from] std::io::Error),
    /// A line of the log is malformed.
    #[error(transparent)]
    Log(#[from] LogError),
}

/// The records of a sensor log read from `R`, as an iterator.
///
/// Malformed lines come out as [`ReadError::Log`] and reading goes on with the next line; an
/// I/O failure comes out as [`ReadError::Io`] and ends the iteration.
///
/// ```
/// use touchmove_core::sensor_log::{LogReader, LogRecord, ReadError};
///
/// let log = "touchmove-log 1\n0 lift e2\n250 wobble e3\n400 place e4\n";
/// let mut events = 0;
/// let mut malformed = Vec::new();
/// for record in LogReader::new(log.as_bytes()) {
///     match record {
///         Ok(LogRecord::Event(_)) => events += 1,
///         Ok(_) => {}
///         Err(ReadError::Log(error)) => malformed.push(error.to_string()),
///         Err(ReadError::Io(error)) => return Err(error.into()),
///     }
/// }
/// // The bad line is said, with its number, and the lines after it are read.
/// assert_eq!(events, 2);
/// assert_eq!(malformed.len(), 1);
/// assert!(malformed[0].contains('3'), "{}", malformed[0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct LogReader<R: Read> {
    source: R,
    decoder: LogDecoder,
    chunk: Vec<u8>,
    state: SourceState,
}

/// Whether the source may still give bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SourceState {
    /// More bytes may come.
    Open,
    /// The source reached its end; the decoder was told.
    Exhausted,
    /// The source failed; nothing more is produced.
    Failed,
}

impl<R: Read> LogReader<R> {
    /// A reader of the log in `source`.
    pub fn new(source: R) -> LogReader<R> {
        LogReader::with_decoder(source, LogDecoder::new())
    }

    /// A reader of the log in `source` that ignores `#clock-reading` comments, as version 1
    /// of the format reads every comment.
    pub fn ignoring_clock_readings(source: R) -> LogReader<R> {
        LogReader::with_decoder(source, LogDecoder::ignoring_clock_readings())
    }

    fn with_decoder(source: R, decoder: LogDecoder) -> LogReader<R> {
        LogReader {
            source,
            decoder,
            chunk: vec![0; CHUNK_SIZE],
            state: SourceState::Open,
        }
    }

    /// Reads the next chunk into the decoder; `Err` when the source failed.
    fn fill(&mut self) -> Result<(), std::io::Error> {
        loop {
            match self.source.read(&mut self.chunk) {
                Ok(0) => {
                    self.decoder.finish();
                    self.state = SourceState::Exhausted;
                    return Ok(());
                }
                Ok(n) => {
                    self.decoder
                        .push(self.chunk.get(..n).unwrap_or(&self.chunk));
                    return Ok(());
                }
                Err(error) if error.kind() == ErrorKind::Interrupted => continue,
                Err(error) => {
                    self.state = SourceState::Failed;
                    return Err(error);
                }
            }
        }
    }
}

impl<R: Read> Iterator for LogReader<R> {
    type Item = Result<LogRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.state == SourceState::Failed {
                return None;
            }
            if let Some(result) = self.decoder.poll() {
                return Some(result.map_err(ReadError::Log));
            }
            if self.state == SourceState::Exhausted {
                return None;
            }
            if let Err(error) = self.fill() {
                return Some(Err(ReadError::Io(error)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sensor::{SensorEvent, SensorKind};
    use shakmaty::Square;

    /// A source that gives its bytes a few at a time, is interrupted once, then fails.
    struct Trickle {
        data: Vec<u8>,
        at: usize,
        interrupted: bool,
        fail_at_end: bool,
    }

    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if !self.interrupted {
                self.interrupted = true;
                return Err(ErrorKind::Interrupted.into());
            }
            let rest = &self.data[self.at..];
            if rest.is_empty() && self.fail_at_end {
                return Err(std::io::Error::other("cable pulled"));
            }
            let n = rest.len().min(3).min(buf.len());
            buf[..n].copy_from_slice(&rest[..n]);
            self.at += n;
            Ok(n)
        }
    }

    fn trickle(text: &str, fail_at_end: bool) -> Trickle {
        Trickle {
            data: text.as_bytes().to_vec(),
            at: 0,
            interrupted: false,
            fail_at_end,
        }
    }

    #[test]
    fn reads_records_through_small_reads_and_interruptions() {
        let records: Vec<LogRecord> =
            LogReader::new(trickle("touchmove-log 1\n0 lift e2\n5 place e4", false))
                .collect::<Result<_, _>>()
                .expect("valid log");
        assert_eq!(
            records,
            vec![
                LogRecord::Header(Box::default()),
                LogRecord::Event(SensorEvent::new(
                    0,
                    SensorKind::Lift {
                        square: Square::E2,
                        piece: None
                    }
                )),
                LogRecord::Event(SensorEvent::new(
                    5,
                    SensorKind::Place {
                        square: Square::E4,
                        piece: None
                    }
                )),
            ]
        );
    }

    #[test]
    fn a_failing_source_ends_the_iteration_after_one_io_error() {
        let results: Vec<_> =
            LogReader::new(trickle("touchmove-log 1\n0 adjust\n", true)).collect();
        assert_eq!(results.len(), 3, "{results:?}");
        assert!(matches!(results[0], Ok(LogRecord::Header(_))));
        assert!(
            matches!(&results[1], Ok(LogRecord::Event(event)) if event.kind == SensorKind::Adjust)
        );
        assert!(
            matches!(&results[2], Err(ReadError::Io(error)) if error.to_string() == "cable pulled")
        );
    }

    #[test]
    fn malformed_lines_are_reported_and_reading_goes_on() {
        let results: Vec<_> =
            LogReader::new(trickle("touchmove-log 1\n0 lift z9\n1 adjust\n", false)).collect();
        assert_eq!(results.len(), 3, "{results:?}");
        assert!(matches!(&results[1], Err(ReadError::Log(error)) if error.line == 2));
        assert!(matches!(&results[2], Ok(LogRecord::Event(event)) if event.t == 1));
    }
}
