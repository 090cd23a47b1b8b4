//! A UCI engine as a child process: the thin loop around [`EngineSession`] (for `touchmove play`,
//! issue 14). It starts the engine, passes lines both ways with their time, hands deadlines back,
//! and when the engine dies or stops answering, says so, starts it again and asks again what was
//! being asked: a game is never lost to its engine.

use std::io;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use shakmaty::{Chess, Move};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until};

use touchmove_core::sensor::Millis;
use touchmove_engine::{EngineConfig, EngineEvent, EngineSession, SearchLimits};

/// How many times a dead or silent engine is started again before the game goes on without it.
const RESTARTS: u32 = 3;

/// How to start the engine: a program and its arguments (`--engine "stockfish"`, words
/// separated by spaces).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineCommand {
    program: String,
    args: Vec<String>,
}

impl EngineCommand {
    /// The command `text` names; `None` if it names none.
    pub fn parse(text: &str) -> Option<EngineCommand> {
        let mut words = text.split_whitespace().map(str::to_owned);
        Some(EngineCommand {
            program: words.next()?,
            args: words.collect(),
        })
    }
}

/// What the game asks of its engine.
#[derive(Debug, Clone)]
pub enum EngineRequest {
    /// Its move after `moves` from `start`, within `limits`.
    Go {
        /// The game's start.
        start: Chess,
        /// The moves played.
        moves: Vec<Move>,
        /// How long it may think.
        limits: SearchLimits,
    },
    /// A new game begins.
    NewGame,
    /// Forget the search under way (the position changed).
    Cancel,
}

/// What the engine's process said, or what became of it.
#[derive(Debug, Clone)]
pub enum EngineReport {
    /// What the session made of the engine's lines.
    Said(EngineEvent),
    /// The engine ended or stopped answering (`why`), and was started again (`attempt`).
    Restarted {
        /// What happened to it.
        why: EngineLoss,
        /// The how-manieth restart.
        attempt: u32,
    },
    /// The engine cannot be used any more (`why`): the game goes on without it.
    GaveUp {
        /// What happened.
        why: EngineLoss,
        /// How many times it had been started again before (0: it never ran).
        restarts: u32,
    },
}

/// What became of an engine's process, with its cause.
#[derive(Debug, Clone, thiserror::Error)]
pub enum EngineLoss {
    /// Its program could not be started.
    #[error("cannot start the engine `{program}`: {source}")]
    CannotStart {
        /// The program.
        program: String,
        /// Why.
        #[source]
        source: Arc<io::Error>,
    },
    /// Its standard input or output could not be had.
    #[error("the engine's pipes could not be opened")]
    NoPipes,
    /// Writing to it failed.
    #[error("the engine stopped reading ({source})")]
    StoppedReading {
        /// Why.
        #[source]
        source: Arc<io::Error>,
    },
    /// Reading from it failed.
    #[error("cannot read the engine ({source})")]
    CannotRead {
        /// Why.
        #[source]
        source: Arc<io::Error>,
    },
    /// It ended, with this status.
    #[error("the engine ended ({status})")]
    Ended {
        /// How.
        status: std::process::ExitStatus,
    },
    /// It ended, and how could not be had.
    #[error("the engine ended ({source})")]
    EndedUnknown {
        /// Why its status could not be had.
        #[source]
        source: Arc<io::Error>,
    },
    /// It did not answer in time.
    #[error("the engine sent no {waiting_for} within {after} ms")]
    Unresponsive {
        /// What it was waiting for.
        waiting_for: String,
        /// How long it was waited for (ms).
        after: Millis,
    },
}

/// An engine process and its session.
struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    session: EngineSession,
}

/// Runs the engine for the game until `requests` closes: each request handed to the session,
/// each report sent to `reports`.
pub async fn run(
    command: EngineCommand,
    config: EngineConfig,
    mut requests: mpsc::UnboundedReceiver<EngineRequest>,
    reports: mpsc::UnboundedSender<EngineReport>,
) {
    let epoch = Instant::now();
    let now = move || Millis::try_from(epoch.elapsed().as_millis()).unwrap_or(Millis::MAX);
    // The search asked for and not yet answered: asked again of a restarted engine.
    let mut asked: Option<EngineRequest> = None;
    let mut restarts = 0;
    let mut engine = match start(&command, &config, now()) {
        Ok(engine) => engine,
        Err(why) => {
            let _ = reports.send(EngineReport::GaveUp { why, restarts: 0 });
            return;
        }
    };
    loop {
        let ended = serve(&mut engine, &mut requests, &reports, &mut asked, &now).await;
        let _ = engine.child.kill().await;
        let Some(why) = ended else {
            return;
        };
        if restarts >= RESTARTS {
            let _ = reports.send(EngineReport::GaveUp { why, restarts });
            return;
        }
        engine = match start(&command, &config, now()) {
            Ok(engine) => engine,
            Err(error) => {
                let _ = reports.send(EngineReport::GaveUp {
                    why: error,
                    restarts,
                });
                return;
            }
        };
        restarts += 1;
        let _ = reports.send(EngineReport::Restarted {
            why,
            attempt: restarts,
        });
        if let Some(EngineRequest::Go {
            start,
            moves,
            limits,
        }) = &asked
        {
            engine.session.go(now(), start, moves, *limits);
        }
    }
}

/// Starts the engine's process at `now`.
fn start(
    command: &EngineCommand,
    config: &EngineConfig,
    now: Millis,
) -> Result<Running, EngineLoss> {
    let mut child = Command::new(&command.program)
        .args(&command.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .map_err(|error| EngineLoss::CannotStart {
            program: command.program.clone(),
            source: Arc::new(error),
        })?;
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(EngineLoss::NoPipes);
    };
    Ok(Running {
        child,
        stdin,
        lines: BufReader::new(stdout).lines(),
        session: EngineSession::new(config.clone(), now),
    })
}

/// Talks to one engine process until the requests end (`None`) or the engine is lost (why).
async fn serve(
    engine: &mut Running,
    requests: &mut mpsc::UnboundedReceiver<EngineRequest>,
    reports: &mpsc::UnboundedSender<EngineReport>,
    asked: &mut Option<EngineRequest>,
    now: &impl Fn() -> Millis,
) -> Option<EngineLoss> {
    loop {
        while let Some(line) = engine.session.poll_transmit() {
            let written = engine.stdin.write_all(format!("{line}\n").as_bytes()).await;
            if let Err(error) = written {
                return Some(EngineLoss::StoppedReading {
                    source: Arc::new(error),
                });
            }
        }
        while let Some(event) = engine.session.poll_event() {
            match &event {
                EngineEvent::BestMove { .. }
                | EngineEvent::NoMove
                | EngineEvent::Illegal { .. } => {
                    *asked = None;
                }
                EngineEvent::Unresponsive { waiting_for, after } => {
                    return Some(EngineLoss::Unresponsive {
                        waiting_for: waiting_for.to_string(),
                        after: *after,
                    });
                }
                _ => {}
            }
            if reports.send(EngineReport::Said(event)).is_err() {
                return None;
            }
        }
        let deadline = engine.session.poll_timeout().map_or_else(
            || Instant::now() + Duration::from_secs(3600),
            |at| Instant::now() + Duration::from_millis(at.saturating_sub(now())),
        );
        tokio::select! {
            line = engine.lines.next_line() => match line {
                Ok(Some(line)) => engine.session.handle_line(now(), &line),
                Ok(None) => return Some(ended(&mut engine.child).await),
                Err(error) => {
                    return Some(EngineLoss::CannotRead {
                        source: Arc::new(error),
                    });
                }
            },
            request = requests.recv() => match request {
                Some(request) => take(engine, request, asked, now()),
                None => {
                    engine.session.quit();
                    while let Some(line) = engine.session.poll_transmit() {
                        let _ = engine.stdin.write_all(format!("{line}\n").as_bytes()).await;
                    }
                    return None;
                }
            },
            () = sleep_until(deadline) => engine.session.handle_timeout(now()),
        }
    }
}

/// Hands `request` to the session at `now`.
fn take(
    engine: &mut Running,
    request: EngineRequest,
    asked: &mut Option<EngineRequest>,
    now: Millis,
) {
    match &request {
        EngineRequest::Go {
            start,
            moves,
            limits,
        } => {
            engine.session.go(now, start, moves, *limits);
            *asked = Some(request);
        }
        EngineRequest::NewGame => engine.session.new_game(),
        EngineRequest::Cancel => {
            engine.session.cancel();
            *asked = None;
        }
    }
}

/// How the engine's process ended.
async fn ended(child: &mut Child) -> EngineLoss {
    match child.wait().await {
        Ok(status) => EngineLoss::Ended { status },
        Err(error) => EngineLoss::EndedUnknown {
            source: Arc::new(error),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Debian's Stockfish (`.ci/run` installs it).
    /// Debian's Stockfish (on the PATH or in /usr/games); the test fails saying how to get it
    /// when it is in neither.
    fn stockfish() -> EngineCommand {
        let on_path = std::env::var_os("PATH").is_some_and(|path| {
            std::env::split_paths(&path).any(|folder| folder.join("stockfish").is_file())
        });
        let program = if on_path {
            "stockfish"
        } else if std::path::Path::new("/usr/games/stockfish").exists() {
            "/usr/games/stockfish"
        } else {
            panic!(
                "Stockfish is missing: `apt-get install -y stockfish`, or run `.ci/run` (as \
                 root), which installs everything the tests need"
            )
        };
        EngineCommand::parse(program).unwrap_or_else(|| unreachable!())
    }

    /// The single-threaded runtime `touchmove play` runs on.
    fn runtime() -> tokio::runtime::Runtime {
        match tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        {
            Ok(runtime) => runtime,
            Err(error) => panic!("a runtime: {error}"),
        }
    }

    /// The next report that is not the search's progress.
    async fn next(reports: &mut mpsc::UnboundedReceiver<EngineReport>) -> Option<EngineReport> {
        loop {
            match reports.recv().await? {
                EngineReport::Said(EngineEvent::Info { .. }) => {}
                other => return Some(other),
            }
        }
    }

    #[test]
    fn an_engine_killed_mid_search_is_started_again_and_asked_again() {
        runtime().block_on(async {
            let (ask, requests) = mpsc::unbounded_channel();
            let (said, mut reports) = mpsc::unbounded_channel();
            let engine = tokio::spawn(run(stockfish(), EngineConfig::default(), requests, said));
            let ready = next(&mut reports).await;
            assert!(
                matches!(&ready, Some(EngineReport::Said(EngineEvent::Ready { .. }))),
                "{ready:?}"
            );
            // A search, and the engine killed while it thinks.
            let go = EngineRequest::Go {
                start: Chess::default(),
                moves: Vec::new(),
                limits: SearchLimits::MoveTime(2000),
            };
            let _ = ask.send(go);
            // The engine is this test process's child.
            let killed = std::process::Command::new("pkill")
                .args([
                    "-KILL",
                    "-P",
                    &std::process::id().to_string(),
                    "-x",
                    "stockfish",
                ])
                .status();
            assert!(killed.is_ok_and(|status| status.success()), "pkill");
            let restarted = next(&mut reports).await;
            assert!(
                // Killed while it was being written to, or seen ended when read.
                matches!(&restarted, Some(EngineReport::Restarted { attempt: 1, why })
                    if matches!(why, EngineLoss::Ended { .. } | EngineLoss::StoppedReading { .. }
                        | EngineLoss::CannotRead { .. })),
                "{restarted:?}"
            );
            // Nothing asked again by the game: the restarted engine answers the search.
            let mut answer = next(&mut reports).await;
            if matches!(&answer, Some(EngineReport::Said(EngineEvent::Ready { .. }))) {
                answer = next(&mut reports).await;
            }
            assert!(
                matches!(
                    &answer,
                    Some(EngineReport::Said(EngineEvent::BestMove { .. }))
                ),
                "{answer:?}"
            );
            drop(ask);
            let _ = engine.await;
        });
    }

    #[test]
    fn an_engine_that_cannot_start_gives_up_with_its_reason() {
        runtime().block_on(async {
            let (_ask, requests) = mpsc::unbounded_channel();
            let (said, mut reports) = mpsc::unbounded_channel();
            let command = EngineCommand::parse("/nonexistent/engine --uci").unwrap_or_else(|| unreachable!());
            run(command, EngineConfig::default(), requests, said).await;
            let report = reports.recv().await;
            assert!(
                matches!(&report, Some(EngineReport::GaveUp { why: EngineLoss::CannotStart { program, source }, restarts: 0 })
                    if program == "/nonexistent/engine" && source.kind() == io::ErrorKind::NotFound),
                "{report:?}"
            );
        });
    }
}
