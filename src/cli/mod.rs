//! Command-line parsing and dispatch: `main → run → ExitCode`.

mod args;
mod demo;
mod demo_games;
mod emulate;
mod emulator_pty;
mod output;
mod output_paths;
mod pgn_file;
mod play;
mod ports;
mod recording;
mod replay;
mod resume;
mod serial;
mod serve;
mod simulate;
mod simulated_log;
mod start;
mod style;
mod tee_sink;
mod token;
mod watch;
mod watch_sink;

use std::io::ErrorKind;
use std::process::ExitCode;

use clap::Parser;

use args::{Cli, Command};

/// The single-threaded async runtime the live commands run on.
fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    use anyhow::Context;
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

/// A live session's outcome: how its runner ended (`watched`, a board given up on is an
/// error) and whether its outputs were written at the end (`finished`, done whatever the
/// runner's end, so that nothing decided is lost). When both failed, the outputs' error is
/// said first and the runner's is returned.
fn session_outcome(
    watched: Result<(), touchmove::runner::RunnerError>,
    finished: anyhow::Result<()>,
) -> anyhow::Result<()> {
    use anyhow::Context;
    match (watched, finished) {
        (Ok(()), finished) => finished,
        (Err(error), finished) => {
            if let Err(unwritten) = finished {
                eprintln!("touchmove: {unwritten:#}");
            }
            Err(error).context("watching the board")
        }
    }
}

/// Parses the command line, runs the command, and turns its outcome into an exit code.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    init_tracing(cli.verbose);
    let outcome = match cli.command {
        Command::Replay(args) => replay::run(&args),
        Command::Simulate(args) => simulate::run(&args),
        Command::Ports(args) => ports::run(&args),
        Command::Watch(args) => watch::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Emulate(args) => emulate::run(&args),
        Command::Demo(args) => demo::run(&args),
        Command::Serve(args) => serve::run(&args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("touchmove: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Diagnostics go to standard error through `tracing`: warnings by default, more with `-v`.
fn init_tracing(verbose: u8) {
    let level = match verbose {
        0 => tracing::Level::WARN,
        1 => tracing::Level::INFO,
        2 => tracing::Level::DEBUG,
        _ => tracing::Level::TRACE,
    };
    tracing_subscriber::fmt()
        .with_max_level(level)
        .with_writer(std::io::stderr)
        .with_target(false)
        .init();
}

/// A reader of our output went away (`touchmove replay … | head`): not an error.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error
        .chain()
        .filter_map(|cause| cause.downcast_ref::<std::io::Error>())
        .any(|io| io.kind() == ErrorKind::BrokenPipe)
}
