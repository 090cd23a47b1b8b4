//! Speed: sensor events per second through the interpreter alone, and through whole
//! `touchmove replay` processes.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use shakmaty::Chess;
use touchmove::interpreter::{Config, Interpreter};
use touchmove::sensor::SensorEvent;

use crate::logs::count_events;
use crate::memory::replay_peak_kib;

/// The best of `runs` timings of every game's events through a fresh interpreter, one thread.
pub fn interpreter_best(
    games: &[(Chess, Vec<SensorEvent>)],
    config: Config,
    runs: usize,
) -> Duration {
    (0..runs)
        .map(|_| {
            let began = Instant::now();
            let mut decisions = 0usize;
            for (start, events) in games {
                let mut interpreter = Interpreter::new(start.clone(), config);
                for event in events {
                    interpreter.handle_event(event);
                    while interpreter.poll_event().is_some() {
                        decisions += 1;
                    }
                }
                interpreter.finish();
                while interpreter.poll_event().is_some() {
                    decisions += 1;
                }
            }
            std::hint::black_box(decisions);
            began.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// The whole-process replay run.
pub struct ProcessRun {
    pub files: usize,
    pub events: usize,
    pub wall: Duration,
    pub peak_kib: Vec<(u64, u64)>,
}

/// Times one `touchmove replay --json` process per log, one after the other, and records each
/// one's (file size, peak RSS).
pub fn replay_processes(bin: &Path, logs: &[PathBuf]) -> Result<ProcessRun, String> {
    let events = logs.iter().map(|log| count_events(log)).sum();
    let mut peak_kib = Vec::new();
    let began = Instant::now();
    for log in logs {
        let peak = replay_peak_kib(bin, log)?;
        let size = fs::metadata(log).map(|m| m.len()).unwrap_or(0);
        peak_kib.push((size, peak));
    }
    Ok(ProcessRun {
        files: logs.len(),
        events,
        wall: began.elapsed(),
        peak_kib,
    })
}
