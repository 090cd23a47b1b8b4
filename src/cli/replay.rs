//! `touchmove replay`: a recorded sensor log through the interpreter, to stdout (and PGN).

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::Path;

use anyhow::{Context, Result};

use touchmove::replay::Replay;
use touchmove::sensor_log::{LogReader, ReadError};

use super::args::ReplayArgs;
use super::output::{EventPrinter, write_pgn_file};
use super::output_paths::{Existing, check_output};

/// Runs `touchmove replay`.
pub fn run(args: &ReplayArgs) -> Result<()> {
    if let Some(path) = &args.pgn {
        check_output(path, "--pgn", Existing::Replace)?;
    }
    let source = open(&args.log)?;
    let stdout = io::stdout().lock();
    let mut printer = EventPrinter::new(BufWriter::new(stdout), args.json, args.pgn.is_some());
    let mut replay = Replay::new(args.interpreter.config())
        .with_report_horizon(args.interpreter.report_horizon_ms)
        .with_time_control(args.interpreter.time_control.clone());
    let reader = if args.ignore_clock_readings {
        LogReader::ignoring_clock_readings(source)
    } else {
        LogReader::new(source)
    };
    let outcome = feed(&mut replay, reader, &mut printer, &args.log);
    replay.finish(&mut |event| printer.print(event));
    printer.finish()?;
    if let Some(pgn) = &args.pgn {
        let start = replay.start_position().unwrap_or_default();
        let time_control = args
            .interpreter
            .time_control
            .as_ref()
            .map(ToString::to_string);
        write_pgn_file(pgn, &start, time_control, printer.events())?;
    }
    outcome
}

/// Feeds every record of the log to the replay; stops at the first malformed line, after
/// everything decided before it has been printed.
fn feed(
    replay: &mut Replay,
    reader: LogReader<Box<dyn Read>>,
    printer: &mut EventPrinter<impl Write>,
    path: &Path,
) -> Result<()> {
    for record in reader {
        match record {
            Ok(record) => replay.record(record, &mut |event| printer.print(event)),
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
