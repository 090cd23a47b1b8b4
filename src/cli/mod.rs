//! Command-line parsing and dispatch: `main → run → ExitCode`.

mod args;
mod calibrate;
mod demo;
mod demo_games;
#[cfg(test)]
mod docs_commands;
mod doctor;
mod emulate;
mod emulator_pty;
mod hall_file;
mod help;
mod manpages;
mod one_page;
mod online;
mod outputs;
mod pgn_game;
mod play;
mod ports;
mod replay;
mod report;
mod secrets;
mod serve;
mod session;
mod simulate;
mod simulated_log;
mod start;
mod style;
mod watch;

use std::io::ErrorKind;
use std::process::ExitCode;

use args::Command;

/// Parses the command line, runs the command, and turns its outcome into an exit code.
pub fn run() -> ExitCode {
    let cli = match hall_file::parse(std::env::args_os().collect()) {
        Ok(cli) => cli,
        Err(hall_file::Refused::CommandLine(error)) => error.exit(),
        Err(hall_file::Refused::File(error)) => {
            eprintln!("touchmove: {error}");
            return ExitCode::from(2);
        }
    };
    init_tracing(cli.verbose);
    let mut cli = cli;
    say_details(&mut cli.command, cli.verbose > 0);
    let outcome = match cli.command {
        Command::Replay(args) => replay::run(&args),
        Command::Simulate(args) => simulate::run(&args),
        Command::Ports(args) => ports::run(&args),
        Command::Calibrate(args) => calibrate::run(&args),
        Command::Watch(args) => watch::run(&args.board, &args.analyse),
        Command::Play(args) => play::run(&args),
        Command::Emulate(args) => emulate::run(&args),
        Command::Demo(args) => demo::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Online(args) => online::run(&args),
        Command::Report(args) => report::run(&args),
        Command::Doctor(args) => doctor::run(&args),
        Command::Manpages(args) => manpages::run(&args),
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

/// With `-v` the text output says the details too (the moves pending, the clock after each
/// press): the commands that print decisions are told.
fn say_details(command: &mut Command, details: bool) {
    match command {
        Command::Replay(args) => args.details = details,
        Command::Watch(args) => args.board.text.details = details,
        Command::Play(args) => args.board.text.details = details,
        Command::Online(args) => args.board.text.details = details,
        Command::Demo(args) => args.text.details = details,
        _ => {}
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
