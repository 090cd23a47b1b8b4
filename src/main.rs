//! The `touchmove` command: replay sensor logs, simulate hands, and (later) drive live boards.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::run()
}
