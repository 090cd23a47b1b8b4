//! Where `watch` puts what happens: the terminal (text with the board, or JSON lines), the
//! sensor recording (flushed line by line) and the PGN file (rewritten after every move).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use shakmaty::{Bitboard, Chess, Position};

use touchmove::clock::ClockReading;
use touchmove::event::{EventKind, GameEvent, LinkState};
use touchmove::live::runner::Sink;
use touchmove::live::{LiveEvent, LiveGame, board_diagram};
use touchmove::output::pgn::PgnTags;
use touchmove::sensor::{Millis, SensorEvent};
use touchmove::sensor_log::{FlushPolicy, LogHeader, LogWriter};

use super::output::write_event;
use super::output_paths::open_recording;
use super::pgn_file::PgnFile;

/// The outputs of a live session.
pub struct WatchSink<W: Write> {
    out: W,
    json: bool,
    record_path: Option<PathBuf>,
    recording: Option<LogWriter<BufWriter<File>>>,
    pgn: Option<PgnFile>,
    /// The recording's header (the start position and the board's name).
    header: LogHeader,
    failed: Option<anyhow::Error>,
}

impl<W: Write> WatchSink<W> {
    /// Outputs to `out` (JSON lines when `json`), recording to `record` (naming the board
    /// `board`, stating the session's report horizon) and the PGN to `pgn` when given, for a
    /// game starting from `start`.
    pub fn new(
        out: W,
        json: bool,
        record: Option<(&Path, &str)>,
        report_horizon_ms: Millis,
        pgn: Option<&Path>,
        start: &Chess,
        time_control: Option<String>,
    ) -> WatchSink<W> {
        let board = record.map_or("", |(_, board)| board);
        let tags = PgnTags {
            time_control,
            ..PgnTags::default()
        };
        WatchSink {
            out,
            json,
            record_path: record.map(|(path, _)| path.to_owned()),
            recording: None,
            pgn: pgn.map(|path| PgnFile::new(path, start, tags)),
            header: LogHeader::new(start, board).with_report_horizon(report_horizon_ms),
            failed: None,
        }
    }

    /// Flushes everything; fails if anything could not be written.
    pub fn finish(mut self) -> Result<()> {
        if let Some(error) = self.failed.take() {
            return Err(error);
        }
        if let Some(recording) = self.recording.as_mut() {
            recording.flush().context("cannot flush the recording")?;
        }
        self.out.flush().context("cannot write to standard output")
    }

    fn recording(&mut self) -> io::Result<&mut LogWriter<BufWriter<File>>> {
        if self.recording.is_none() {
            let Some(path) = self.record_path.as_ref() else {
                return Err(io::Error::other("no recording asked for"));
            };
            let file = BufWriter::new(open_recording(path)?);
            let writer = LogWriter::new(file, &self.header, FlushPolicy::EveryEvent)
                .map_err(io::Error::other)?;
            self.recording = Some(writer);
        }
        self.recording
            .as_mut()
            .ok_or_else(|| io::Error::other("the recording could not be opened"))
    }

    fn decision(&mut self, event: &GameEvent, game: &LiveGame) -> io::Result<()> {
        if let Some(pgn) = self.pgn.as_mut() {
            pgn.record(event).map_err(io::Error::other)?;
        }
        write_event(&mut self.out, self.json, event)?;
        if !self.json {
            let moved = matches!(event.kind, EventKind::Move(_) | EventKind::Takeback { .. });
            if let (true, Some(interpreter)) = (moved, game.interpreter()) {
                let position = interpreter.game().position();
                write!(
                    self.out,
                    "{}",
                    board_diagram(position.board(), Bitboard::EMPTY)
                )?;
            }
        }
        self.out.flush()
    }

    fn waiting(&mut self, seen: &touchmove::sensor::BoardSnapshot) -> io::Result<()> {
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

impl<W: Write> Sink for WatchSink<W> {
    fn sensor(&mut self, event: &SensorEvent, game: &LiveGame) -> io::Result<()> {
        if !game.started() || self.record_path.is_none() {
            return Ok(());
        }
        self.recording()?
            .write_event(event)
            .map_err(io::Error::other)
    }

    fn clock_reading(
        &mut self,
        t: Millis,
        reading: &ClockReading,
        game: &LiveGame,
    ) -> io::Result<()> {
        if !game.started() || self.record_path.is_none() {
            return Ok(());
        }
        self.recording()?
            .write_clock_reading(t, reading)
            .map_err(io::Error::other)
    }

    fn live(&mut self, event: &LiveEvent, game: &LiveGame) -> io::Result<()> {
        match event {
            LiveEvent::Started { .. } => {
                eprintln!("touchmove: the board shows the starting position: recording the game");
                Ok(())
            }
            LiveEvent::Waiting { seen } => self.waiting(seen),
            LiveEvent::Decision(decision) => self.decision(decision, game),
        }
    }

    fn link(&mut self, t: Millis, state: LinkState) -> io::Result<()> {
        eprintln!("touchmove: board {}", state.as_str());
        if self.json {
            let event = GameEvent {
                t,
                kind: EventKind::Link { state },
            };
            write_event(&mut self.out, true, &event)?;
            self.out.flush()?;
        }
        Ok(())
    }

    fn notice(&mut self, text: &str) {
        eprintln!("touchmove: {text}");
    }
}
