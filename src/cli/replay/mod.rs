//! `touchmove replay`: recorded sensor logs through the interpreter, to stdout (and PGN). Several
//! logs (a whole round) are replayed in one process, each its own session, on as many threads
//! as cores (`round.rs`), their output in the order given.

mod round;

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::Path;

use anyhow::{Context, Result, bail};

use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode};

use touchmove::output::pgn::PgnTags;
use touchmove::replay::Replay;
use touchmove::sensor_log::{LogReader, LogRecord, ReadError};
use touchmove::stream::StreamEvent;

use super::args::ReplayArgs;
use touchmove_matches::recorded::Recorded;
use touchmove_runtime::files::paths::{Existing, check_output};
use touchmove_runtime::files::pgn_file::{PgnFileError, PgnStream};
use touchmove_runtime::sinks::printer::EventPrinter;

/// Runs `touchmove replay`.
pub fn run(args: &ReplayArgs) -> Result<()> {
    if let Some(path) = &args.pgn {
        check_output(path, "--pgn", Existing::Replace)?;
    }
    if args
        .logs
        .iter()
        .filter(|path| path.as_os_str() == "-")
        .count()
        > 1
    {
        bail!("standard input (`-`) can be replayed once");
    }
    let mut pgn = Pgn {
        path: args.pgn.as_deref(),
        time_control: args
            .interpreter
            .time_control
            .as_ref()
            .map(ToString::to_string),
        stream: None,
        failed: None,
    };
    let result = match args.logs.as_slice() {
        [path] => {
            let stdout = io::stdout().lock();
            let mut printer = EventPrinter::new(BufWriter::new(stdout), args.json)
                .with_text(args.notation, args.details);
            let result = replay_log(args, path, &mut printer, &mut pgn);
            printer.finish()?;
            result
        }
        _ => round::replay_round(args, &mut pgn),
    };
    pgn.finish(&Chess::default())?;
    result
}

/// Replays the log at `path` as its own session: its decisions to `printer` and `pgn`; an error
/// naming the file (and the line) if it cannot be read, after what it decided was passed on.
fn replay_log(
    args: &ReplayArgs,
    path: &Path,
    printer: &mut EventPrinter<impl Write>,
    pgn: &mut impl PgnSink,
) -> Result<()> {
    let source = open(path)?;
    // A game against an engine (`@engine`) replays through the engine game, an online game
    // (`@online`) through the online game, as they were played.
    let mut replay = Recorded::new(
        Replay::new(args.interpreter.config())
            .with_report_horizon(args.interpreter.report_horizon_ms)
            .with_windows(args.interpreter.slide_ms, args.interpreter.bounce_ms)
            .with_scan(args.interpreter.scan_ms)
            .with_board_scans(touchmove::registry::scan_of_board)
            .with_time_control(args.interpreter.time_control.clone()),
    );
    let reader = if args.ignore_clock_readings {
        LogReader::ignoring_clock_readings(source)
    } else {
        LogReader::new(source)
    };
    let mut started = false;
    let start = args
        .chess960
        .and_then(touchmove::rules::chess960::position)
        .map(|position| Fen::from_position(&position, EnPassantMode::Legal));
    let input = Input {
        reader,
        path,
        start,
    };
    let outcome = feed(&mut replay, input, printer, pgn, &mut started);
    if !started {
        // A log without a header (or unreadable before it) starts from the standard position.
        pgn.start(&Chess::default());
    }
    replay.finish(&mut |event| {
        pgn.record(&event);
        printer.print(event);
    });
    outcome
}

/// What a replay tells the PGN: where each log's game starts, and every decision.
trait PgnSink {
    /// A log's header was read: its game starts from `start`.
    fn start(&mut self, start: &Chess);
    /// A decision.
    fn record(&mut self, event: &StreamEvent);
}

/// The replay's PGN, written as the games end: every log's games, one after another, in one
/// file (created when the first log's header says where its game starts).
struct Pgn<'a> {
    path: Option<&'a Path>,
    time_control: Option<String>,
    stream: Option<PgnStream>,
    failed: Option<PgnFileError>,
}

impl PgnSink for Pgn<'_> {
    fn start(&mut self, start: &Chess) {
        let Some(path) = self.path else {
            return;
        };
        if self.failed.is_some() {
            return;
        }
        if let Some(stream) = self.stream.as_mut() {
            if let Err(error) = stream.next_log(start) {
                self.failed = Some(error);
            }
            return;
        }
        let tags = PgnTags {
            time_control: self.time_control.clone(),
            ..PgnTags::default()
        };
        match PgnStream::create(path, start, tags) {
            Ok(stream) => self.stream = Some(stream),
            Err(error) => self.failed = Some(error),
        }
    }

    /// Records a decision (the first failure is kept, to be reported at the end).
    fn record(&mut self, event: &StreamEvent) {
        if let (Some(stream), None) = (self.stream.as_mut(), &self.failed)
            && let Err(error) = stream.record(event)
        {
            self.failed = Some(error);
        }
    }
}

impl Pgn<'_> {
    /// Puts the file in place; with no log read, an empty game from `default`.
    fn finish(mut self, default: &Chess) -> Result<()> {
        if self.stream.is_none() && self.failed.is_none() {
            self.start(default);
        }
        if let Some(error) = self.failed {
            return Err(error).context("cannot write the PGN");
        }
        match self.stream {
            Some(stream) => stream.finish().context("cannot write the PGN"),
            None => Ok(()),
        }
    }
}

/// Feeds every record of the log to the replay; stops at the first malformed line, after
/// everything decided before it has been printed. `started` is set once the header was read.
/// A log to replay: its records, its path, and the start a log without `@start` has
/// (`--chess960 N`).
struct Input<'a> {
    reader: LogReader<Box<dyn Read>>,
    path: &'a Path,
    start: Option<Fen>,
}

fn feed(
    replay: &mut Recorded,
    input: Input<'_>,
    printer: &mut EventPrinter<impl Write>,
    pgn: &mut impl PgnSink,
    started: &mut bool,
) -> Result<()> {
    let Input {
        reader,
        path,
        start,
    } = input;
    for record in reader {
        match record {
            Ok(mut record) => {
                if let LogRecord::Header(header) = &mut record {
                    if header.start.is_none() {
                        header.start.clone_from(&start);
                    }
                    pgn.start(&header.start_position().unwrap_or_default());
                    *started = true;
                }
                replay.record(record, &mut |event| {
                    pgn.record(&event);
                    printer.print(event);
                });
            }
            Err(ReadError::Log(error)) => {
                return Err(error).with_context(|| format!("{}: malformed log", path.display()));
            }
            Err(ReadError::Io(error)) => {
                return Err(error).with_context(|| format!("{}: cannot read", path.display()));
            }
        }
        printer.check()?;
    }
    Ok(())
}

fn open(path: &Path) -> Result<Box<dyn Read>> {
    if path.as_os_str() == "-" {
        return Ok(Box::new(io::stdin().lock()));
    }
    let file = File::open(path).with_context(|| format!("{}: cannot open", path.display()))?;
    Ok(Box::new(io::BufReader::new(file)))
}
