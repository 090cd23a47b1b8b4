//! Where `watch` puts what happens: the terminal (text with the board, or JSON lines), the
//! sensor recording (line by line as reports arrive) and the PGN file (rewritten after every
//! move). A file that cannot be written is said once and written again later: the session
//! never stops for it, and standard output keeps every result.

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
use touchmove_core::stream::{BatteryLevel, Refusal, StreamEvent, StreamKind};

use super::OutputError;
use super::printer::write_event;
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
    /// How the text output writes moves.
    notation: Notation,
    /// `--speak`: the voice.
    speaker: Option<Speaker>,
    /// Whether the voice is silent: a resumed recording's decisions, read back, were said when
    /// they were made.
    hushed: bool,
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
            notation: Notation::San,
            speaker: None,
            hushed: false,
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

    /// The text output writes moves in `notation`.
    pub fn with_notation(mut self, notation: Notation) -> WatchSink<W> {
        self.notation = notation;
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
            eprintln!("touchmove: {notice}");
        }
    }

    /// Writes what is still pending; fails, naming the file, if anything could not be written.
    pub fn finish(mut self) -> Result<(), OutputError> {
        if let Some(speaker) = self.speaker.take() {
            speaker.finish();
        }
        if let Some(recording) = self.recording.as_mut() {
            recording.finish()?;
        }
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
        match pgn.record(event) {
            Ok(()) if std::mem::replace(&mut self.pgn_failing, false) => {
                eprintln!(
                    "touchmove: {}: the PGN is written again",
                    pgn.path().display()
                );
            }
            Ok(()) => {}
            Err(error) if !std::mem::replace(&mut self.pgn_failing, true) => {
                eprintln!(
                    "touchmove: cannot write the PGN: {error}; it is written again with the next \
                     decision"
                );
            }
            Err(_) => {}
        }
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
        if let Some(speaker) = self.speaker.as_ref().filter(|_| !self.hushed) {
            speaker.hear(event);
        }
        self.pgn(event);
        write_event(&mut self.out, self.json, self.notation, event)?;
        if !self.json {
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
        match happened {
            Happened::Sensor { event, game } => {
                if let Some(recording) = self.recording.as_mut() {
                    recording.game_event(event, game);
                }
                Ok(())
            }
            Happened::ClockReading { t, reading, game } => {
                if let Some(recording) = self.recording.as_mut() {
                    recording.game_clock_reading(t, reading, game);
                }
                Ok(())
            }
            Happened::Live { event, game } => self.live(event, game),
            Happened::Link { t, state } => self.link(t, state),
            Happened::Battery { t, level } => self.battery(t, level),
            Happened::Refused { t, refusal } => self.refused(t, refusal),
            Happened::Notice(text) => {
                eprintln!("touchmove: {text}");
                Ok(())
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
            LiveEvent::Started { .. } => {
                if let Some(pgn) = self.pgn.as_mut() {
                    pgn.starts_from(game.start());
                }
                match touchmove_core::rules::chess960::number_of(game.start().board()) {
                    Some(number) if touchmove_core::rules::chess960::is_chess960(game.start()) => {
                        eprintln!(
                            "touchmove: the board shows Chess960 starting position {number}: \
                             recording the game"
                        );
                    }
                    _ => eprintln!(
                        "touchmove: the board shows the starting position: recording the game"
                    ),
                }
                Ok(())
            }
            LiveEvent::Waiting { seen } => self.waiting(seen),
            LiveEvent::Decision(decision) => self.decision(decision, game),
            LiveEvent::SetUp { .. } => {
                eprintln!("touchmove: a new game was set up: waiting for the board to show it");
                Ok(())
            }
            LiveEvent::PromotionAsked { from, to } => {
                eprintln!(
                    "touchmove: {from}-{to} promotes: choose the piece (`promote q|r|b|n` typed \
                     and Enter, the page's buttons, or the board's own where it has them): the \
                     move waits for it"
                );
                Ok(())
            }
        }
    }

    /// The operator's action was not carried out: said, and a `refused` line with `--json`.
    fn refused(&mut self, t: Millis, refusal: &Refusal) -> io::Result<()> {
        eprintln!("touchmove: refused ({}): {}", refusal.asked, refusal.why);
        if self.json {
            let event = StreamEvent {
                t,
                kind: StreamKind::Refused(refusal.clone()),
            };
            write_event(&mut self.out, true, Notation::San, &event)?;
            self.out.flush()?;
        }
        Ok(())
    }

    /// The board's battery: said, and a `battery` line with `--json`.
    fn battery(&mut self, t: Millis, level: BatteryLevel) -> io::Result<()> {
        let event = StreamEvent {
            t,
            kind: StreamKind::Battery(level),
        };
        eprintln!(
            "touchmove: {}",
            touchmove_core::output::text::render_stream_in(&event, Notation::San)
        );
        if self.json {
            write_event(&mut self.out, true, Notation::San, &event)?;
            self.out.flush()?;
        }
        Ok(())
    }

    fn link(&mut self, t: Millis, state: LinkState) -> io::Result<()> {
        eprintln!("touchmove: board {}", state.as_str());
        if self.json {
            let event = StreamEvent {
                t,
                kind: StreamKind::Link(state),
            };
            write_event(&mut self.out, true, Notation::San, &event)?;
            self.out.flush()?;
        }
        Ok(())
    }
}
