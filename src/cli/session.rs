//! What the live commands (`watch`, `play`, `serve`, `demo`, `emulate`) share about running: the
//! async runtime, a session's outcome, and the first line they print.

/// Until Ctrl-C (SIGINT) or a service manager's stop (SIGTERM, systemd's): a live command ends
/// on either as it ends on Ctrl-C, its records closed. Without a handler for either, never.
pub async fn stop_signal() {
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    let interrupt = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        () = terminate => {}
        () = interrupt => {}
    }
}

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

/// The Syzygy tables `--syzygy` names (none without it); a folder that holds none is an error.
pub fn tablebases(
    args: &super::args::AnalyseArgs,
) -> anyhow::Result<Option<std::sync::Arc<touchmove_runtime::tablebase::Tablebases>>> {
    let Some(dir) = &args.syzygy else {
        return Ok(None);
    };
    let tables = touchmove_runtime::tablebase::Tablebases::open(dir)?;
    tracing::info!(
        "--syzygy {}: {} tables, up to {} pieces",
        dir.display(),
        tables.count(),
        tables.max_pieces()
    );
    Ok(Some(std::sync::Arc::new(tables)))
}

/// A match's outputs as `watch`'s: the terminal (`--json`, `--notation`), the recording, the
/// PGN (`--pgn`, a game from `start` with `tags`) and the voice (`--speak`).
pub fn outputs(
    board: &super::args::WatchArgs,
    recording: Option<touchmove_runtime::files::recording::Recording>,
    start: &shakmaty::Chess,
    tags: touchmove::output::pgn::PgnTags,
) -> anyhow::Result<touchmove_runtime::sinks::watch::WatchSink<std::io::StdoutLock<'static>>> {
    use touchmove_runtime::sinks::watch::WatchSink;
    Ok(WatchSink::new(
        std::io::stdout().lock(),
        board.json,
        recording,
        board.pgn.as_deref(),
        start,
        tags,
    )
    .with_text(board.notation, board.text.details, board.text.diagram())
    .with_speaker(speaker(board)?))
}

/// The board the options `board` name (`--protocol`, `--port`, `--white-on-clock`), its clock
/// set to `clock` (`None`: left as it is).
pub async fn match_board(
    board: &super::args::WatchArgs,
    clock: Option<touchmove::clock::TimeControl>,
) -> anyhow::Result<touchmove_matches::runner::MatchBoard> {
    use touchmove_matches::runner::MatchBoard;
    let port = board.port.clone();
    let protocol = board.protocol.as_deref();
    Ok(MatchBoard::open(port, protocol, board.white_on_clock, clock).await?)
}

/// `--give-up-after`: how long a board may be missing before it is given up on.
pub fn give_up_after(board: &super::args::WatchArgs) -> Option<std::time::Duration> {
    board.give_up_after.map(std::time::Duration::from_secs_f64)
}
