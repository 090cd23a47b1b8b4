//! What the live commands (`watch`, `play`, `serve`, `demo`, `emulate`) share about running: the
//! async runtime, a session's outcome, and the first line they print.

/// The single-threaded async runtime the live commands run on.
pub fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
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
pub fn session_outcome(
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

/// A side's name as the first lines say it (`White`, `Black`).
pub fn side_name(color: shakmaty::Color) -> &'static str {
    match color {
        shakmaty::Color::White => "White",
        shakmaty::Color::Black => "Black",
    }
}

/// The first line on standard output.
pub fn announce(line: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(())
}
