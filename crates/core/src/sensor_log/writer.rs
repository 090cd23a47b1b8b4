//! Writing a sensor log: the header, the metadata, then one event per line (and a physical
//! clock's reports as `#clock-reading` comments).

use std::io::Write;

use shakmaty::Role;

use super::clock_annotation::format_clock_reading;
use super::decoder::HEADER_LINE;
use super::error::IllegalPosition;
use super::format::format_event;
use super::header::LogHeader;
use super::host_note::{HostNote, format_host_note};
use crate::clock::ClockReading;
use crate::sensor::{Millis, SensorEvent, SensorKind};

/// When the writer flushes its output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlushPolicy {
    /// After the header and after every event: a live recorder loses nothing on a crash.
    EveryEvent,
    /// Only when [`LogWriter::flush`] is called (or the output decides to).
    WhenAsked,
}

/// Why a log could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The output failed.
    #[error("writing the sensor log failed: {0}")]
    Io(#[from] std::io::Error),
    /// An event (or clock reading) earlier than the line before it: the log would not read
    /// back.
    #[error("time {t} is earlier than the previous line's time {previous}")]
    TimeWentBack {
        /// The time of the refused event.
        t: Millis,
        /// The time of the previous event.
        previous: Millis,
    },
    /// A time later than a log may give ([`super::fields::MAX_TIME_MS`]): it would not read back.
    #[error("time {t} is beyond the latest a log may give")]
    TimeTooLate {
        /// The refused time.
        t: Millis,
    },
    /// A clock report before any event: a reader would take it for an ordinary comment.
    #[error("cannot write the clock reading at {t} before the first event")]
    ClockReadingBeforeEvents {
        /// The time of the refused reading.
        t: Millis,
    },
    /// A host's note before any event: a reader would take it for an ordinary comment.
    #[error("cannot write the host's note at {t} before the first event")]
    NoteBeforeEvents {
        /// The time of the refused note.
        t: Millis,
    },
    /// A promotion to a king or pawn, which the format cannot express.
    #[error("cannot write a promotion to `{letter}`: only q, r, b and n are allowed")]
    BadPromotion {
        /// The letter of the refused role.
        letter: char,
    },
    /// `@board` text that would not read back as written.
    #[error(
        "cannot write `@board` text {text:?}: it must be one non-empty line without leading or \
         trailing spaces"
    )]
    BadBoardText {
        /// The refused text.
        text: String,
    },
    /// `@game-id` text that would not read back as written.
    #[error(
        "cannot write `@game-id` text {text:?}: it must be one non-empty line without leading or \
         trailing spaces"
    )]
    BadGameId {
        /// The refused text.
        text: String,
    },
    /// A `@date` that is not a PGN date `YYYY.MM.DD`.
    #[error("cannot write `@date` {text:?}: it must be YYYY.MM.DD")]
    BadDate {
        /// The refused text.
        text: String,
    },
    /// A `@start` FEN that is not a playable standard-chess position.
    #[error("cannot write `@start` {fen}: {source}")]
    IllegalStart {
        /// The refused FEN.
        fen: String,
        /// Why it is not playable.
        source: IllegalPosition,
    },
}

/// Writes a sensor log in version 1 of the format.
///
/// ```
/// use shakmaty::Square;
/// use touchmove_core::sensor_log::{FlushPolicy, LogHeader, LogWriter, read_log};
/// use touchmove_core::{SensorEvent, SensorKind};
///
/// let mut writer = LogWriter::new(Vec::new(), &LogHeader::default(), FlushPolicy::WhenAsked)?;
/// let lift = SensorKind::Lift { square: Square::E2, piece: None };
/// let place = SensorKind::Place { square: Square::E4, piece: None };
/// writer.write_event(&SensorEvent::new(0, lift))?;
/// writer.write_event(&SensorEvent::new(400, place))?;
/// let text = String::from_utf8(writer.into_inner()?)?;
/// assert_eq!(text, "touchmove-log 1\n0 lift e2\n400 place e4\n");
/// assert_eq!(read_log(&text)?.events.len(), 2, "what is written reads back");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct LogWriter<W: Write> {
    out: W,
    flush: FlushPolicy,
    last_time: Option<Millis>,
}

impl<W: Write> LogWriter<W> {
    /// Starts a log on `out`: writes the header line and the metadata of `header`.
    pub fn new(out: W, header: &LogHeader, flush: FlushPolicy) -> Result<LogWriter<W>, WriteError> {
        let mut writer = LogWriter {
            out,
            flush,
            last_time: None,
        };
        writer.write_header(header)?;
        Ok(writer)
    }

    /// Goes on with a log already on `out` (its header written), whose last line has time
    /// `last_t`: nothing is written until the next event.
    pub fn appending(out: W, last_t: Millis, flush: FlushPolicy) -> LogWriter<W> {
        LogWriter {
            out,
            flush,
            last_time: Some(last_t),
        }
    }

    /// Writes one event as a line; refuses an event that would not read back.
    pub fn write_event(&mut self, event: &SensorEvent) -> Result<(), WriteError> {
        self.check_event(event)?;
        writeln!(self.out, "{}", format_event(event))?;
        self.last_time = Some(event.t);
        self.flush_if_asked()
    }

    /// Writes a physical clock's report made at `t`, as a `#clock-reading` comment (see
    /// [`super::format_clock_reading`]). It must come after the first event and no earlier than
    /// the last line written, so that it reads back where it was written.
    pub fn write_clock_reading(
        &mut self,
        t: Millis,
        reading: &ClockReading,
    ) -> Result<(), WriteError> {
        self.check_comment_time(t, WriteError::ClockReadingBeforeEvents { t })?;
        writeln!(self.out, "{}", format_clock_reading(t, reading))?;
        self.last_time = Some(t);
        self.flush_if_asked()
    }

    /// Writes what the host knew at `t` (an engine's choice, a resignation) as an
    /// `#engine-move`, `#engine-gone` or `#resign` comment (see [`super::format_host_note`]),
    /// under the same rules as a clock reading: after the first event, no earlier than the
    /// last line written.
    pub fn write_host_note(&mut self, t: Millis, note: &HostNote) -> Result<(), WriteError> {
        self.check_comment_time(t, WriteError::NoteBeforeEvents { t })?;
        writeln!(self.out, "{}", format_host_note(t, note))?;
        self.last_time = Some(t);
        self.flush_if_asked()
    }

    /// Flushes the output.
    pub fn flush(&mut self) -> Result<(), WriteError> {
        self.out.flush()?;
        Ok(())
    }

    /// The output, as it is (what is buffered in it stays there).
    pub fn get_ref(&self) -> &W {
        &self.out
    }

    /// The output, after flushing it.
    pub fn into_inner(mut self) -> Result<W, WriteError> {
        self.out.flush()?;
        Ok(self.out)
    }

    /// Writes `touchmove-log 1` and the `@start` and `@board` lines.
    fn write_header(&mut self, header: &LogHeader) -> Result<(), WriteError> {
        check_header(header)?;
        writeln!(self.out, "{HEADER_LINE}")?;
        if let Some(fen) = &header.start {
            writeln!(self.out, "@start {fen}")?;
        }
        if let Some(board) = &header.board {
            writeln!(self.out, "@board {board}")?;
        }
        if let Some(horizon) = header.report_horizon_ms {
            writeln!(self.out, "@report-horizon-ms {horizon}")?;
        }
        if let Some(slide) = header.slide_ms {
            writeln!(self.out, "@slide-ms {slide}")?;
        }
        if let Some(bounce) = header.bounce_ms {
            writeln!(self.out, "@bounce-ms {bounce}")?;
        }
        if let Some(scan) = header.scan_ms {
            writeln!(self.out, "@scan-ms {scan}")?;
        }
        if let Some(side) = header.engine {
            writeln!(self.out, "@engine {}", crate::event::color_name(side))?;
        }
        if let Some(seat) = &header.online {
            writeln!(self.out, "@online {seat}")?;
        }
        if header.promotion_choice {
            writeln!(self.out, "@promotion-choice awaited")?;
        }
        if let Some(id) = &header.game.id {
            writeln!(self.out, "@game-id {id}")?;
        }
        if let Some(date) = &header.game.date {
            writeln!(self.out, "@date {date}")?;
        }
        self.flush_if_asked()
    }

    /// Checks that a comment record at `t` reads back where it is written: after the first
    /// event (`before_events` otherwise), no earlier than the last line.
    fn check_comment_time(&self, t: Millis, before_events: WriteError) -> Result<(), WriteError> {
        check_time(t)?;
        let Some(previous) = self.last_time else {
            return Err(before_events);
        };
        if t < previous {
            return Err(WriteError::TimeWentBack { t, previous });
        }
        Ok(())
    }

    /// Checks the time order and the promotion letter of `event`.
    fn check_event(&self, event: &SensorEvent) -> Result<(), WriteError> {
        check_time(event.t)?;
        if let Some(previous) = self.last_time.filter(|&previous| event.t < previous) {
            return Err(WriteError::TimeWentBack {
                t: event.t,
                previous,
            });
        }
        match event.kind {
            SensorKind::Promote(role @ (Role::King | Role::Pawn)) => {
                Err(WriteError::BadPromotion {
                    letter: role.char(),
                })
            }
            _ => Ok(()),
        }
    }

    /// Flushes when the policy says so.
    fn flush_if_asked(&mut self) -> Result<(), WriteError> {
        match self.flush {
            FlushPolicy::EveryEvent => self.flush(),
            FlushPolicy::WhenAsked => Ok(()),
        }
    }
}

/// Checks that a time reads back (no later than a log may give).
fn check_time(t: Millis) -> Result<(), WriteError> {
    if t > super::fields::MAX_TIME_MS {
        return Err(WriteError::TimeTooLate { t });
    }
    Ok(())
}

/// Checks that the header reads back as written.
fn check_header(header: &LogHeader) -> Result<(), WriteError> {
    if let Some(text) = &header.board {
        let one_line = !text.contains(['\n', '\r']);
        if text.is_empty() || !one_line || text.trim_matches(' ') != text {
            return Err(WriteError::BadBoardText { text: text.clone() });
        }
    }
    if let Some(id) = &header.game.id
        && (id.is_empty() || id.contains(['\n', '\r']) || id.trim_matches(' ') != id)
    {
        return Err(WriteError::BadGameId { text: id.clone() });
    }
    if let Some(date) = &header.game.date
        && !crate::sensor_log::GameLabel::is_date(date)
    {
        return Err(WriteError::BadDate { text: date.clone() });
    }
    if let (Some(fen), Err(error)) = (&header.start, header.start_position()) {
        return Err(WriteError::IllegalStart {
            fen: fen.to_string(),
            source: IllegalPosition(error),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{Color, Square};

    /// An output that records what was written and what had been flushed.
    #[derive(Default)]
    struct Recorder {
        written: Vec<u8>,
        flushed: usize,
    }

    impl Write for Recorder {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.written.extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            self.flushed = self.written.len();
            Ok(())
        }
    }

    fn lift(t: Millis, square: Square) -> SensorEvent {
        SensorEvent::new(
            t,
            SensorKind::Lift {
                square,
                piece: None,
            },
        )
    }

    #[test]
    fn writes_header_metadata_and_events_in_the_exact_syntax() {
        let header = LogHeader {
            start: Some(
                "4k3/8/8/8/8/8/8/4K3 b - - 0 1"
                    .parse::<Fen>()
                    .expect("valid FEN"),
            ),
            board: Some("dgt e-board".to_owned()),
            report_horizon_ms: None,
            engine: None,
            online: None,
            slide_ms: None,
            bounce_ms: None,
            scan_ms: None,
            promotion_choice: false,
            game: crate::sensor_log::GameLabel::default(),
        };
        let mut writer =
            LogWriter::new(Vec::new(), &header, FlushPolicy::WhenAsked).expect("header");
        writer.write_event(&lift(0, Square::E8)).expect("event");
        writer
            .write_event(&SensorEvent::new(0, SensorKind::Clock(Color::Black)))
            .expect("event");
        let text = String::from_utf8(writer.into_inner().expect("flushed")).expect("UTF-8");
        assert_eq!(
            text,
            "touchmove-log 1\n@start 4k3/8/8/8/8/8/8/4K3 b - - 0 1\n@board dgt e-board\n0 lift e8\n0 clock black\n"
        );
    }

    #[test]
    fn every_event_policy_leaves_nothing_unflushed() {
        let mut writer = LogWriter::new(
            Recorder::default(),
            &LogHeader::default(),
            FlushPolicy::EveryEvent,
        )
        .expect("header");
        assert_eq!(writer.out.flushed, "touchmove-log 1\n".len());
        writer.write_event(&lift(12, Square::A1)).expect("event");
        assert_eq!(writer.out.flushed, writer.out.written.len());
        assert_eq!(writer.out.flushed, "touchmove-log 1\n12 lift a1\n".len());
    }

    #[test]
    fn when_asked_policy_does_not_flush_by_itself() {
        let mut writer = LogWriter::new(
            Recorder::default(),
            &LogHeader::default(),
            FlushPolicy::WhenAsked,
        )
        .expect("header");
        writer.write_event(&lift(12, Square::A1)).expect("event");
        assert_eq!(writer.out.flushed, 0);
        writer.flush().expect("flush");
        assert_eq!(writer.out.flushed, "touchmove-log 1\n12 lift a1\n".len());
    }

    #[test]
    fn refuses_what_would_not_read_back() {
        let mut writer = LogWriter::new(Vec::new(), &LogHeader::default(), FlushPolicy::WhenAsked)
            .expect("header");
        writer.write_event(&lift(10, Square::A1)).expect("event");
        assert!(matches!(
            writer.write_event(&lift(9, Square::A2)),
            Err(WriteError::TimeWentBack { t: 9, previous: 10 })
        ));
        assert!(matches!(
            writer.write_event(&SensorEvent::new(10, SensorKind::Promote(Role::King))),
            Err(WriteError::BadPromotion { letter: 'k' })
        ));
        assert_eq!(
            writer.into_inner().expect("flushed"),
            b"touchmove-log 1\n10 lift a1\n"
        );
        for text in ["", "two\nlines", " padded", "cr\r"] {
            let header = LogHeader {
                start: None,
                board: Some(text.to_owned()),
                report_horizon_ms: None,
                engine: None,
                online: None,
                slide_ms: None,
                bounce_ms: None,
                scan_ms: None,
                promotion_choice: false,
                game: crate::sensor_log::GameLabel::default(),
            };
            assert!(
                matches!(
                    LogWriter::new(Vec::new(), &header, FlushPolicy::WhenAsked),
                    Err(WriteError::BadBoardText { .. })
                ),
                "{text:?}"
            );
        }
        let header = LogHeader {
            start: Some(
                "8/8/8/8/8/8/8/8 w - - 0 1"
                    .parse::<Fen>()
                    .expect("parsable FEN"),
            ),
            board: None,
            report_horizon_ms: None,
            engine: None,
            online: None,
            slide_ms: None,
            bounce_ms: None,
            scan_ms: None,
            promotion_choice: false,
            game: crate::sensor_log::GameLabel::default(),
        };
        assert!(matches!(
            LogWriter::new(Vec::new(), &header, FlushPolicy::WhenAsked),
            Err(WriteError::IllegalStart { .. })
        ));
    }
}
