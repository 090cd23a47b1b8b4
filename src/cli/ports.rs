//! `touchmove ports`: the serial ports, and which answer as a DGT board.

use std::io::Write;

use anyhow::{Context, Result};

use super::args::PortsArgs;
use super::serial::{port_names, probe};

/// Runs `touchmove ports`.
pub fn run(args: &PortsArgs) -> Result<()> {
    let runtime = super::runtime()?;
    let mut names = port_names().context("cannot list the serial ports")?;
    names.extend(args.paths.iter().map(|path| path.display().to_string()));
    let mut out = std::io::stdout().lock();
    if names.is_empty() {
        writeln!(out, "no serial ports found")?;
    }
    for name in names {
        let answer = match runtime.block_on(probe(&name)) {
            Ok(Some((main, sub))) => format!("DGT board, version {main}.{sub:02}"),
            Ok(None) => "no answer to the DGT version request".to_owned(),
            Err(error) => format!("cannot open: {error}"),
        };
        writeln!(out, "{name}\t{answer}")?;
    }
    Ok(())
}
