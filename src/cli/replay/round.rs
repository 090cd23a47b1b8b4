//! A round of logs replayed at once: each log is replayed on its own by one of `--jobs`
//! threads, into memory, and what it printed, told the PGN and failed with is passed on in the
//! order the logs were given, so the output is the same whatever the number of threads. At
//! most [`AHEAD`] logs per thread are replayed ahead of the one being passed on: a long log does
//! not let the others fill the memory.

use std::collections::BTreeMap;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::num::NonZeroUsize;
use std::path::Path;
use std::sync::mpsc;
use std::sync::{Condvar, Mutex, PoisonError};

use anyhow::{Context, Result, bail};
use shakmaty::Chess;

use touchmove::stream::StreamEvent;

use super::super::args::ReplayArgs;
use super::{Pgn, PgnSink, replay_log};
use touchmove_runtime::sinks::printer::EventPrinter;

/// How many logs each thread may replay ahead of the one being passed on.
const AHEAD: usize = 4;

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

/// Which log the threads take next, and how far the round has been passed on.
struct Schedule {
    next: usize,
    passed_on: usize,
    stopped: bool,
}

/// Replays every log of the round; their output goes to standard output and `pgn` in the order
/// given. A log that cannot be read is said on standard error and the others are replayed.
pub(super) fn replay_round(args: &ReplayArgs, pgn: &mut Pgn<'_>) -> Result<()> {
    let total = args.logs.len();
    let jobs = match args.jobs {
        Some(jobs) => usize::from(jobs),
        None => std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
    }
    .clamp(1, total.max(1));
    let window = jobs.saturating_mul(AHEAD);
    let schedule = (
        Mutex::new(Schedule {
            next: 0,
            passed_on: 0,
            stopped: false,
        }),
        Condvar::new(),
    );
    let (done, finished) = mpsc::channel::<(usize, Replayed)>();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let done = done.clone();
            let schedule = &schedule;
            scope.spawn(move || {
                while let Some(index) = take_next(schedule, window, total) {
                    let Some(path) = args.logs.get(index) else {
                        break;
                    };
                    if done.send((index, replay_alone(args, path))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done);
        let passed = pass_on(args, pgn, &schedule, finished);
        stop(&schedule);
        passed
    })
}

/// The next log for a thread, once fewer than `window` logs are ahead of the one being passed
/// on; `None` when there is none left or the round stopped.
fn take_next(schedule: &(Mutex<Schedule>, Condvar), window: usize, total: usize) -> Option<usize> {
    let (state, changed) = schedule;
    let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
    loop {
        if state.stopped || state.next >= total {
            return None;
        }
        if state.next < state.passed_on.saturating_add(window) {
            let index = state.next;
            state.next = index.saturating_add(1);
            return Some(index);
        }
        state = changed.wait(state).unwrap_or_else(PoisonError::into_inner);
    }
}

/// No more logs are to be taken (the output failed, or the round is over).
fn stop(schedule: &(Mutex<Schedule>, Condvar)) {
    let (state, changed) = schedule;
    state.lock().unwrap_or_else(PoisonError::into_inner).stopped = true;
    changed.notify_all();
}

/// One more log was passed on.
fn passed_one(schedule: &(Mutex<Schedule>, Condvar)) {
    let (state, changed) = schedule;
    let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
    state.passed_on = state.passed_on.saturating_add(1);
    changed.notify_all();
}

/// Replays the log at `path` on its own, into memory.
fn replay_alone(args: &ReplayArgs, path: &Path) -> Replayed {
    let mut printer = EventPrinter::new(Vec::new(), args.json).with_notation(args.notation);
    printer.set_log(Some(path.display().to_string()));
    let mut pgn = PgnSteps(args.pgn.is_some().then(Vec::new));
    let outcome = replay_log(args, path, &mut printer, &mut pgn);
    Replayed {
        printed: printer.into_inner(),
        pgn,
        outcome,
    }
}

/// Passes every log's output on as it is replayed, in the order given.
fn pass_on(
    args: &ReplayArgs,
    pgn: &mut Pgn<'_>,
    schedule: &(Mutex<Schedule>, Condvar),
    finished: mpsc::Receiver<(usize, Replayed)>,
) -> Result<()> {
    let total = args.logs.len();
    let progress = io::stderr().is_terminal();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut waiting = BTreeMap::new();
    let mut next = 0usize;
    let mut unreadable = 0usize;
    for (index, replayed) in finished {
        waiting.insert(index, replayed);
        while let Some(replayed) = waiting.remove(&next) {
            out.write_all(&replayed.printed)
                .context("cannot write to standard output")?;
            for step in replayed.pgn.0.into_iter().flatten() {
                match step {
                    PgnStep::Start(start) => pgn.start(&start),
                    PgnStep::Record(event) => pgn.record(&event),
                }
            }
            if let Err(error) = replayed.outcome {
                // What was printed first, then the error, as one log after another would.
                out.flush().context("cannot write to standard output")?;
                unreadable += 1;
                eprintln!("touchmove: {error:#}");
            }
            next += 1;
            passed_one(schedule);
            if progress {
                eprint!("\rtouchmove: {next} of {total} logs replayed");
            }
        }
    }
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
