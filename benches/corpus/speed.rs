//! Speed: sensor events per second through whole `touchmove replay` processes (the interpreter
//! alone is `benches/interpreter.rs`).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::logs::count_events;
use crate::memory::replay_peak_kib;

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
