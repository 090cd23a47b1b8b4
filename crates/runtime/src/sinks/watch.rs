//! Where `watch` puts what happens: the terminal (text with the board, or JSON lines), the
//! sensor recording (line by line as reports arrive) and the PGN file (rewritten after every
//! move). A file that cannot be written is said once and written again later: the session
//! never stops for it, and standard output keeps every result.
//!
//! What the host tells the people at the board (the board found, the starting position seen,
//! a promotion waiting for its piece, a file that cannot be written) is a notice: said on
//! standard error, and with `--json` a `notice` line of the stream too.

use std::io::{self, Write};
use std::path::Path;

use shakmaty::{Bitboard, Chess, Position};

use crate::runner::{Happened, Sink};
use touchmove_boards::live::{LiveEvent, LiveGame, board_diagram};
use touchmove_core::event::{EventKind, GameEvent, LinkState};
use touchmove_core::output::notation::Notation;
use touchmove_core::output::pgn::PgnTags;
use touchmove_core::sensor::Millis;
use touchmove_core::sensor_log::HostNote;
use touchmove_core::stream::{BatteryLevel, Notice, Refusal, StreamEvent, StreamKind};

use super::OutputError;
use super::printer::{TextLines, write_event};
use super::speaker::Speaker;
use crate::files::pgn_file::PgnFile;
use crate::files::recording::Recording;

/// The outputs of a live session.
pub struct WatchSink<W: Write> {
    out: W,
    json: bool,
    recording: Option<Recording>,
    pgn: Option<PgnFile>,
    /// Whether the last write of the PGN failed (said once, until one succeeds).
    pgn_failing: bool,
    /// The text output's lines (how moves are written, whether the details are said).
    text: TextLines,
    /// Whether the text output shows the board after each move.
    diagram: bool,
    /// `--speak`: the voice.
    speaker: Option<Speaker>,
    /// Whether the voice is silent: a resumed recording's decisions, read back, were said when
    /// they were made.
    hushed: bool,
    /// A notice's line that could not be written to standard output: the next write that can
    /// fail, or the end, fails with it.
    unwritten: Option<io::Error>,
}

impl<W: Write> WatchSink<W> {
    /// Outputs to `out` (JSON lines when `json`), the sensor reports to `recording` and the
    /// PGN to `pgn` (a game starting from `start`, with `tags`).
    pub fn new(
        out: W,
        json: bool,
        recording: Option<Recording>,
        pgn: Option<&Path>,
        start: &Chess,
        tags: PgnTags,
    ) -> WatchSink<W> {
        WatchSink {
            out,
            json,
            recording,
            pgn: pgn.map(|path| PgnFile::new(path, start, tags)),
            pgn_failing: false,
            text: TextLines::default(),
            diagram: true,
            speaker: None,
            hushed: false,
            unwritten: None,
        }
    }

    /// A voice says what `speaker` says of the decisions.
    pub fn with_speaker(mut self, speaker: Option<Speaker>) -> WatchSink<W> {
        self.speaker = speaker;
        self
    }

    /// Silences the voice (`true`) while a resumed recording is read back, or lets it speak
    /// again (`false`); everything else is written as ever.
    pub fn hush(&mut self, hushed: bool) {
        self.hushed = hushed;
    }

    /// The text output writes moves in `notation`, says the details when `details` (`-v`: the
    /// moves pending, the clock after each press) and shows the board after each move when
    /// `diagram`.
    pub fn with_text(mut self, notation: Notation, details: bool, diagram: bool) -> WatchSink<W> {
        self.text = TextLines::new(notation, details);
        self.diagram = diagram;
        self
    }

    /// Records what the host knew at `t` (`touchmove play`: the engine's choices, a
    /// resignation); a failing write is said, as for the reports.
    pub fn host_note(&mut self, t: Millis, note: &HostNote) {
        if let Some(notice) = self
            .recording
            .as_mut()
            .and_then(|recording| recording.host_note(t, note))
        {
            self.notice(t, &notice);
        }
    }

    /// Tells `text` at `t`: on standard error, and a `notice` line with `--json` (a failing
    /// write of it fails the next write that can, or the end).
    pub fn notice(&mut self, t: Millis, text: &str) {
        let event = StreamEvent {
            t,
            kind: StreamKind::Notice(Notice::new(text)),
        };
        if self.unwritten.is_some() {
            eprintln!("touchmove: {text}");
        } else if let Err(error) = self.say_live(&event) {
            self.unwritten = Some(error);
        }
    }

    /// A line only a live session has (a notice, the link's state, the battery, a refusal):
    /// said on standard error in the text's words, and written with `--json`.
    fn say_live(&mut self, event: &StreamEvent) -> io::Result<()> {
        eprintln!(
            "touchmove: {}",
            touchmove_core::output::text::render_stream_in(event, Notation::San)
        );
        if self.json {
            write_event(&mut self.out, true, Notation::San, event)?;
            self.out.flush()?;
        }
        Ok(())
    }

    /// What was written to standard output (a test's memory).
    #[cfg(test)]
    fn into_out(self) -> W {
        self.out
    }

    /// Fails with a notice's line that could not be written, once.
    fn written(&mut self) -> io::Result<()> {
        self.unwritten.take().map_or(Ok(()), Err)
    }

    /// Writes what is still pending; fails, naming the file, if anything could not be written.
    pub fn finish(mut self) -> Result<(), OutputError> {
        if let Some(speaker) = self.speaker.take() {
            speaker.finish();
        }
        if let Some(recording) = self.recording.as_mut() {
            recording.finish()?;
        }
        self.written().map_err(OutputError::Stdout)?;
        if self.pgn_failing
            && let Some(pgn) = &self.pgn
        {
            pgn.rewrite().map_err(OutputError::Pgn)?;
        }
        self.out.flush().map_err(OutputError::Stdout)
    }

    /// Records `event` in the PGN and rewrites the file; a failure is said once (the next
    /// decision writes the whole record again) and never stops the session.
    fn pgn(&mut self, event: &StreamEvent) {
        let Some(pgn) = self.pgn.as_mut() else {
            return;
        };
        let said = match pgn.record(event) {
            Ok(()) if std::mem::replace(&mut self.pgn_failing, false) => {
                format!("{}: the PGN is written again", pgn.path().display())
            }
            Err(error) if !std::mem::replace(&mut self.pgn_failing, true) => {
                format!("cannot write the PGN: {error}; it is written again with the next decision")
            }
            Ok(()) | Err(_) => return,
        };
        self.notice(event.t, &said);
    }

    fn decision(&mut self, event: &GameEvent, game: &LiveGame) -> io::Result<()> {
        let position = game
            .interpreter()
            .map(|interpreter| interpreter.game().position());
        self.write_decision(&StreamEvent::from(event.clone()), position)
    }

    /// Writes `event` out and into the PGN; after a move or a takeback the text output shows
    /// `position`, the game as it then stands.
    pub fn write_decision(
        &mut self,
        event: &StreamEvent,
        position: Option<&Chess>,
    ) -> io::Result<()> {
        self.written()?;
        if let Some(speaker) = self.speaker.as_ref().filter(|_| !self.hushed) {
            speaker.hear(event);
        }
        self.pgn(event);
        if self.json {
            write_event(&mut self.out, true, Notation::San, event)?;
        } else if self.text.write(&mut self.out, event)? && self.diagram {
            let moved = matches!(
                event.game(),
                Some(EventKind::Move(_) | EventKind::Takeback { .. })
            );
            if let (true, Some(position)) = (moved, position) {
                write!(
                    self.out,
                    "{}",
                    board_diagram(position.board(), Bitboard::EMPTY)
                )?;
            }
        }
        self.out.flush()
    }

    fn waiting(&mut self, seen: &touchmove_core::sensor::BoardSnapshot) -> io::Result<()> {
        let unknown = seen.occupied & !seen.pieces.occupied();
        let mut text = String::from("the board shows:\n");
        text.push_str(&board_diagram(&seen.pieces, unknown));
        text.push_str("waiting for the starting position\n");
        if self.json {
            eprint!("{text}");
            Ok(())
        } else {
            write!(self.out, "{text}")?;
            self.out.flush()
        }
    }
}

impl<W: Write> crate::commented::Commented for WatchSink<W> {
    fn commented(&mut self, t: Millis, note: &HostNote, event: &StreamEvent) -> io::Result<()> {
        self.host_note(t, note);
        self.write_decision(event, None)
    }
}

impl<W: Write> Sink for WatchSink<W> {
    fn take(&mut self, happened: Happened<'_>) -> io::Result<()> {
        self.written()?;
        match happened {
            Happened::Sensor { event, game } => {
                let failed = self
                    .recording
                    .as_mut()
                    .and_then(|recording| recording.game_event(event, game));
                if let Some(notice) = failed {
                    self.notice(event.t, &notice);
                }
                self.written()
            }
            Happened::ClockReading { t, reading, game } => {
                let failed = self
                    .recording
                    .as_mut()
                    .and_then(|recording| recording.game_clock_reading(t, reading, game));
                if let Some(notice) = failed {
                    self.notice(t, &notice);
                }
                self.written()
            }
            Happened::Live { event, game } => self.live(event, game),
            Happened::Link { t, state } => self.link(t, state),
            Happened::Battery { t, level } => self.battery(t, level),
            Happened::Refused { t, refusal } => self.refused(t, refusal),
            Happened::Notice { t, text } => {
                self.notice(t, text);
                self.written()
            }
            // What the operator did is kept for the replay; the game says what it decides.
            Happened::Operated { t, note } => {
                self.host_note(t, note);
                Ok(())
            }
            // The terminal says nothing more of the port than the notices do; a flip, an
            // exemption or a wake are the caller's to record.
            Happened::Connected { .. }
            | Happened::Serial { .. }
            | Happened::Unreachable { .. }
            | Happened::Timeout { .. }
            | Happened::Flipped { .. }
            | Happened::Exempted { .. }
            | Happened::Woken { .. } => Ok(()),
        }
    }
}

impl<W: Write> WatchSink<W> {
    fn live(&mut self, event: &LiveEvent, game: &LiveGame) -> io::Result<()> {
        match event {
            LiveEvent::Started { t } => {
                if let Some(pgn) = self.pgn.as_mut() {
                    pgn.starts_from(game.start());
                }
                let said = match touchmove_core::rules::chess960::number_of(game.start().board()) {
                    Some(number) if touchmove_core::rules::chess960::is_chess960(game.start()) => {
                        format!(
                            "the board shows Chess960 starting position {number}: recording the \
                             game"
                        )
                    }
                    _ => "the board shows the starting position: recording the game".to_owned(),
                };
                self.notice(*t, &said);
                self.written()
            }
            LiveEvent::Waiting { seen } => self.waiting(seen),
            LiveEvent::Decision(decision) => self.decision(decision, game),
            LiveEvent::SetUp { t } => {
                self.notice(
                    *t,
                    "a new game was set up: waiting for the board to show it",
                );
                self.written()
            }
            LiveEvent::PromotionAsked { t, from, to } => {
                let said = format!(
                    "{from}-{to} promotes: choose the piece (`promote q|r|b|n` typed and Enter, \
                     the page's buttons, or the board's own where it has them): the move waits \
                     for it"
                );
                self.notice(*t, &said);
                self.written()
            }
        }
    }

    /// The operator's action was not carried out: said, and a `refused` line with `--json`.
    fn refused(&mut self, t: Millis, refusal: &Refusal) -> io::Result<()> {
        self.say_live(&StreamEvent {
            t,
            kind: StreamKind::Refused(refusal.clone()),
        })
    }

    /// The board's battery: said, and a `battery` line with `--json`.
    fn battery(&mut self, t: Millis, level: BatteryLevel) -> io::Result<()> {
        self.say_live(&StreamEvent {
            t,
            kind: StreamKind::Battery(level),
        })
    }

    fn link(&mut self, t: Millis, state: LinkState) -> io::Result<()> {
        self.say_live(&StreamEvent {
            t,
            kind: StreamKind::Link(state),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sink whose writes fail from the first.
    struct Broken;

    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::ErrorKind::BrokenPipe.into())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn sink<W: Write>(out: W, json: bool) -> WatchSink<W> {
        WatchSink::new(out, json, None, None, &Chess::default(), PgnTags::default())
    }

    #[test]
    fn a_notice_is_a_line_of_the_json_stream() {
        let mut json = sink(Vec::new(), true);
        json.notice(1_500, "connected to /dev/ttyUSB0");
        let Ok(()) = json.written() else {
            panic!("a notice written to memory cannot fail");
        };
        assert_eq!(
            String::from_utf8_lossy(&json.into_out()),
            "{\"t\":1500,\"kind\":\"notice\",\"text\":\"connected to /dev/ttyUSB0\"}\n"
        );
    }

    #[test]
    fn a_notice_is_no_line_of_the_text_output() {
        let mut text = sink(Vec::new(), false);
        text.notice(1_500, "connected to /dev/ttyUSB0");
        assert!(text.into_out().is_empty(), "said on standard error only");
    }

    #[test]
    fn a_notice_that_cannot_be_written_fails_the_next_write() {
        let mut broken = sink(Broken, true);
        broken.notice(1_500, "connected to /dev/ttyUSB0");
        let event = StreamEvent {
            t: 1_600,
            kind: StreamKind::Link(LinkState::Lost),
        };
        let failed = broken.write_decision(&event, None);
        assert_eq!(
            failed.map_err(|error| error.kind()),
            Err(io::ErrorKind::BrokenPipe)
        );
    }
}
