//! The `touchmove` command: watch, play and serve live boards, replay their sensor logs, and
//! simulate hands and emulate boards for tests and demonstrations.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::run()
}
