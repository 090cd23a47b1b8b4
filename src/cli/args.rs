//! The command line, as `clap` parses it.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use touchmove::interpreter::Config;

/// A touch-move controller for sensor chessboards.
#[derive(Debug, Parser)]
#[command(name = "touchmove", version, about)]
pub struct Cli {
    /// More diagnostics on standard error (-v, -vv, -vvv).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Replay a recorded sensor log and print the game it records.
    Replay(ReplayArgs),
}

/// `touchmove replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The sensor log to replay (`-` for standard input).
    pub log: PathBuf,
    /// Print the decisions as JSON lines (the events-json contract).
    #[arg(long)]
    pub json: bool,
    /// Also write the game record as PGN to this file.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// The interpreter's options.
    #[command(flatten)]
    pub interpreter: InterpreterArgs,
}

/// The interpreter's options, shared by every command that runs one.
#[derive(Debug, Args)]
pub struct InterpreterArgs {
    /// Turn the Article 4 rulings off (legality, illegal moves and game end still apply).
    #[arg(long)]
    pub casual: bool,
    /// The completed illegal move that loses the game (2: FIDE 2023; 3: the 2005 Laws).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    pub illegal_limit: u32,
    /// The slide window in ms: a shorter rest on a square is a slide, not a release.
    #[arg(long, value_name = "N", default_value_t = 250)]
    pub slide_ms: u64,
    /// The bounce window in ms: a shorter lift and replace on one square is sensor noise.
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub bounce_ms: u64,
}

impl InterpreterArgs {
    /// The interpreter configuration these options give.
    pub fn config(&self) -> Config {
        Config {
            slide_ms: self.slide_ms,
            bounce_ms: self.bounce_ms,
            strict: !self.casual,
            illegal_limit: self.illegal_limit,
        }
    }
}
