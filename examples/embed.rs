//! Embedding the interpreter: read a sensor log, feed its events to an [`Interpreter`] with
//! their times, and print each decided move and ruling as it comes (`--json`: every decision as
//! the JSON stream's line).
//!
//! `cargo run --example embed -- fixtures/castling-rook-first.log`
//!
//! The interpreter and the log are `touchmove-core`'s; the only thing taken from `touchmove`
//! is the registry's scan period of the board a log's `@board` names, for a log that states no
//! `@scan-ms`. The settings are resolved as every command resolves them
//! ([`touchmove_core::sensor_log::LogHeader::config`]), so this replays a log to the decisions `touchmove
//! replay` makes (`tests/examples.rs` checks it on every fixture).

use std::fs::File;
use std::io::BufReader;
use std::process::ExitCode;

use touchmove_core::replay::take_host_note;
use touchmove_core::sensor_log::{LogHeader, LogReader, LogRecord};
use touchmove_core::timing::Timing;
use touchmove_core::{Config, EventKind, GameEvent, Interpreter};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.iter().any(|arg| arg == "--json");
    let Some(path) = args.iter().find(|arg| *arg != "--json") else {
        eprintln!("usage: embed [--json] LOG");
        return ExitCode::FAILURE;
    };
    let file = match File::open(path) {
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
            // The header says where the board starts and how the session decided (a recording
            // states its windows, report horizon and scan).
            LogRecord::Header(header) => {
                let start = match header.start_position() {
                    Ok(start) => start,
                    Err(error) => {
                        eprintln!("{path}: the start position: {error}");
                        return ExitCode::FAILURE;
                    }
                };
                interpreter = Some(Interpreter::new(start, config_for(&header)));
            }
            LogRecord::Event(event) => {
                if let Some(interpreter) = interpreter.as_mut() {
                    interpreter.handle_event(&event);
                }
            }
            LogRecord::ClockReading { t, reading } => {
                if let Some(interpreter) = interpreter.as_mut() {
                    interpreter.handle_clock_reading(t, &reading);
                }
            }
            // What the host knew (a result declared, the arbiter's acts, an engine that stopped
            // playing), taken as the replay takes it. An engine's choices are the engine game's
            // (`touchmove::play::EngineReplay`); the interpreter only stands where it did then.
            LogRecord::HostNote { t, note } => {
                if let Some(interpreter) = interpreter.as_mut() {
                    take_host_note(interpreter, t, &note);
                }
            }
        }
        if let Some(interpreter) = interpreter.as_mut() {
            print_decisions(interpreter, json);
        }
    }
    if let Some(interpreter) = interpreter.as_mut() {
        // End of input: what is pending is decided as the windows would close.
        interpreter.finish();
        print_decisions(interpreter, json);
    }
    ExitCode::SUCCESS
}

/// How to decide a log with `header`: nothing given here, so the log's timing, else the board
/// its `@board` names (the registry's scan period), else the interpreter's defaults; an
/// engine's side, as `touchmove play` ran it, earns no rulings. The same rule as `Replay`'s.
fn config_for(header: &LogHeader) -> Config {
    let board_scan = header
        .board
        .as_deref()
        .and_then(touchmove::registry::scan_of_board);
    header.config(Config::default(), Timing::default(), board_scan)
}

fn print_decisions(interpreter: &mut Interpreter, json: bool) {
    while let Some(event) = interpreter.poll_event() {
        if json {
            let mut line = Vec::new();
            if event.write_json(&mut line).is_ok() {
                println!("{}", String::from_utf8_lossy(&line));
            }
            continue;
        }
        let GameEvent { t, kind } = event;
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
