//! Embedding the interpreter: read a sensor log, feed its events to an [`Interpreter`] with
//! their times, and print each decided move and ruling as it comes.
//!
//! `cargo run --example embed -- fixtures/castling-rook-first.log`

use std::fs::File;
use std::io::BufReader;
use std::process::ExitCode;

use touchmove::sensor_log::{LogReader, LogRecord};
use touchmove::{Config, EventKind, GameEvent, Interpreter};

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: embed LOG");
        return ExitCode::FAILURE;
    };
    let file = match File::open(&path) {
        Ok(file) => file,
        Err(error) => {
            eprintln!("{path}: {error}");
            return ExitCode::FAILURE;
        }
    };
    let mut interpreter: Option<Interpreter> = None;
    for record in LogReader::new(BufReader::new(file)) {
        let record = match record {
            Ok(record) => record,
            Err(error) => {
                eprintln!("{path}: {error}");
                return ExitCode::FAILURE;
            }
        };
        match record {
            // The header says where the board starts, and how long a press waits for the
            // board's reports (a recording of a scanning board says so).
            LogRecord::Header(header) => {
                let start = match header.start_position() {
                    Ok(start) => start,
                    Err(error) => {
                        eprintln!("{path}: the start position: {error}");
                        return ExitCode::FAILURE;
                    }
                };
                let config =
                    Config::default().with_report_horizon_ms(header.report_horizon_ms.unwrap_or(0));
                interpreter = Some(Interpreter::new(start, config));
            }
            LogRecord::Event(event) => {
                if let Some(interpreter) = interpreter.as_mut() {
                    interpreter.handle_event(&event);
                    print_decisions(interpreter);
                }
            }
            LogRecord::ClockReading { t, reading } => {
                if let Some(interpreter) = interpreter.as_mut() {
                    interpreter.handle_clock_reading(t, &reading);
                    print_decisions(interpreter);
                }
            }
            // A game against an engine: the engine's choices are the engine game's
            // (`touchmove::play::EngineReplay`); the interpreter only stands where it did then.
            LogRecord::HostNote { t, .. } => {
                if let Some(interpreter) = interpreter.as_mut() {
                    interpreter.handle_timeout(t);
                    print_decisions(interpreter);
                }
            }
        }
    }
    if let Some(interpreter) = interpreter.as_mut() {
        // End of input: what is pending is decided as the windows would close.
        interpreter.finish();
        print_decisions(interpreter);
    }
    ExitCode::SUCCESS
}

fn print_decisions(interpreter: &mut Interpreter) {
    while let Some(GameEvent { t, kind }) = interpreter.poll_event() {
        match kind {
            EventKind::Move(m) => println!("{t:>8} ms  {} {}", m.color, m.san),
            EventKind::Violation(v) => println!(
                "{t:>8} ms  {} breaks {}: {}",
                v.color,
                v.rule.article(),
                v.message
            ),
            EventKind::Illegal(i) => println!("{t:>8} ms  {} illegal move: {}", i.color, i.message),
            other => println!("{t:>8} ms  {other:?}"),
        }
    }
}
