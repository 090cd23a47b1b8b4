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
    finished: Result<(), impl Into<anyhow::Error>>,
) -> anyhow::Result<()> {
    use anyhow::Context;
    let finished = finished.map_err(Into::into);
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

/// The voice set up by the board options `args` (`--speak`, `--speak-moves`, `--speak-wav`),
/// if any.
pub fn speaker(
    args: &super::args::WatchArgs,
) -> anyhow::Result<Option<touchmove_runtime::sinks::speaker::Speaker>> {
    use touchmove_runtime::sinks::speaker::Speaker;
    Ok(args
        .speak
        .map(|language| Speaker::start(language, args.speak_moves, args.speak_wav.clone()))
        .transpose()?)
}

/// Starts the engine `--analyse` names (nothing without one); `wake` wakes the board's runner
/// when it has said something (false once the runner is gone).
pub fn analysis_engine(
    args: &super::args::AnalyseArgs,
    wake: impl Fn() -> bool + Send + 'static,
) -> anyhow::Result<Option<touchmove_runtime::analysis::AnalysisEngine>> {
    use anyhow::Context;
    use touchmove_runtime::analysis::AnalysisEngine;
    use touchmove_runtime::engine_runner::EngineCommand;
    let Some(engine) = &args.analyse else {
        return Ok(None);
    };
    let command = EngineCommand::parse(engine)
        .context("--analyse: name the engine's program (and its arguments)")?;
    Ok(Some(AnalysisEngine::start(command, args.analyse_ms, wake)))
}
