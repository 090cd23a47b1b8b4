//! A round of logs replayed at once: each log is replayed on its own by one of `--jobs`
//! threads, into memory, and what it printed, told the PGN and failed with is passed on in the
//! order the logs were given (`touchmove_runtime::in_order`), so the output is the same
//! whatever the number of threads.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use shakmaty::Chess;

use touchmove::stream::StreamEvent;

use super::super::args::ReplayArgs;
use super::{Pgn, PgnSink, replay_log};
use touchmove_runtime::in_order::run_in_order;
use touchmove_runtime::sinks::printer::EventPrinter;

/// What replaying one log gave.
struct Replayed {
    /// What it printed.
    printed: Vec<u8>,
    /// What it told the PGN, in order (nothing without `--pgn`).
    pgn: PgnSteps,
    /// How it ended: an error names the log (what it decided before is kept above).
    outcome: Result<()>,
}

/// What one log tells the PGN, kept to be told in the round's order.
struct PgnSteps(Option<Vec<PgnStep>>);

enum PgnStep {
    Start(Chess),
    Record(StreamEvent),
}

impl PgnSink for PgnSteps {
    fn start(&mut self, start: &Chess) {
        if let Some(steps) = self.0.as_mut() {
            steps.push(PgnStep::Start(start.clone()));
        }
    }

    fn record(&mut self, event: &StreamEvent) {
        if let Some(steps) = self.0.as_mut() {
            steps.push(PgnStep::Record(event.clone()));
        }
    }
}

/// Replays every log of the round; their output goes to standard output and `pgn` in the order
/// given. A log that cannot be read is said on standard error and the others are replayed.
pub(super) fn replay_round(args: &ReplayArgs, pgn: &mut Pgn<'_>) -> Result<()> {
    let total = args.logs.len();
    let threads = match args.jobs {
        Some(jobs) => usize::from(jobs),
        None => std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
    };
    let progress = io::stderr().is_terminal();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut unreadable = 0usize;
    let replay = |index: usize| {
        let path = args.logs.get(index).map(PathBuf::as_path);
        path.map(|path| replay_alone(args, path))
    };
    run_in_order(total, threads, replay, |index, replayed| {
        let Some(replayed) = replayed else {
            return Ok(());
        };
        if pass_on(&mut out, pgn, replayed)? {
            unreadable += 1;
        }
        if progress {
            eprint!("\rtouchmove: {} of {total} logs replayed", index + 1);
        }
        anyhow::Ok(())
    })?;
    if progress {
        eprintln!();
    }
    out.flush().context("cannot write to standard output")?;
    if unreadable > 0 {
        bail!(
            "{unreadable} of {total} logs could not be read (said above); the others were replayed"
        );
    }
    Ok(())
}

/// Replays the log at `path` on its own, into memory.
fn replay_alone(args: &ReplayArgs, path: &Path) -> Replayed {
    let mut printer =
        EventPrinter::new(Vec::new(), args.json).with_text(args.notation, args.details);
    printer.set_log(Some(path.display().to_string()));
    let mut pgn = PgnSteps(args.pgn.is_some().then(Vec::new));
    let outcome = replay_log(args, path, &mut printer, &mut pgn);
    Replayed {
        printed: printer.into_inner(),
        pgn,
        outcome,
    }
}

/// Passes one log's output on: what it printed, what it told the PGN, then its error if it
/// failed; whether it failed.
fn pass_on(out: &mut impl Write, pgn: &mut Pgn<'_>, replayed: Replayed) -> Result<bool> {
    out.write_all(&replayed.printed)
        .context("cannot write to standard output")?;
    for step in replayed.pgn.0.into_iter().flatten() {
        match step {
            PgnStep::Start(start) => pgn.start(&start),
            PgnStep::Record(event) => pgn.record(&event),
        }
    }
    let Err(error) = replayed.outcome else {
        return Ok(false);
    };
    // What was printed first, then the error, as one log after another would.
    out.flush().context("cannot write to standard output")?;
    eprintln!("touchmove: {error:#}");
    Ok(true)
}
