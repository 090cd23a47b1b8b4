//! `touchmove ports`: the serial ports, and which board answers on each (every protocol of the
//! registry that has a probe asks, in registry order); then the Bluetooth LE boards in range,
//! each named as `--port` takes it, with its address, its family and its signal strength; then
//! the Chessnut boards plugged in by USB (HID).

use std::io::Write;

use anyhow::{Context, Result};

use super::args::PortsArgs;
use touchmove_links::serial::{port_names, probe};

/// Runs `touchmove ports`.
pub fn run(args: &PortsArgs) -> Result<()> {
    let runtime = super::session::runtime()?;
    let mut names = port_names().context("cannot list the serial ports")?;
    names.extend(args.paths.iter().map(|path| path.display().to_string()));
    let mut out = std::io::stdout().lock();
    if names.is_empty() {
        writeln!(out, "no serial ports found")?;
    }
    for name in names {
        let answer = runtime.block_on(ask(&name));
        writeln!(out, "{name}\t{answer}")?;
    }
    match runtime.block_on(touchmove_links::ble::in_range()) {
        Ok(boards) => {
            for board in boards {
                writeln!(out, "{board}")?;
            }
        }
        // No Bluetooth here is no error of `ports`: it says so and lists the rest.
        Err(error) => writeln!(out, "bluetooth\t{error}")?,
    }
    match touchmove_links::hid::boards_plugged_in() {
        Ok(boards) => {
            for board in boards {
                writeln!(
                    out,
                    "{board}\tChessnut board over USB (--protocol chessnut)"
                )?;
            }
        }
        Err(error) => writeln!(out, "hid\t{error}")?,
    }
    Ok(())
}

/// What answered on a port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// A board: what it said of itself, and its protocol.
    Board(String),
    /// No protocol's probe was answered: the protocols asked.
    Nothing(Vec<&'static str>),
    /// The port cannot be opened: why.
    Unopened(String),
}

impl std::fmt::Display for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Answer::Board(what) => write!(f, "{what}"),
            Answer::Nothing(asked) => {
                write!(f, "no board answered ({} asked)", asked.join(", "))
            }
            Answer::Unopened(why) => write!(f, "cannot open: {why}"),
        }
    }
}

/// What answers on `name`: the first protocol whose probe recognises a board, else which
/// protocols asked in vain (or why the port cannot be opened).
pub async fn ask(name: &str) -> Answer {
    let mut asked = Vec::new();
    for protocol in touchmove::registry::PROTOCOLS {
        let (Some(probe_of), Some(line)) = (&protocol.probe, &protocol.line) else {
            continue;
        };
        match probe(name, line, probe_of).await {
            Ok(Some(what)) => {
                return Answer::Board(format!("{what} (--protocol {})", protocol.name));
            }
            Ok(None) => asked.push(protocol.name),
            Err(error) => return Answer::Unopened(error.to_string()),
        }
    }
    Answer::Nothing(asked)
}
