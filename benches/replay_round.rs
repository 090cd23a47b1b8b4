//! A whole round at once (`cargo bench --bench replay_round`): every game of
//! `../shared/corpus/pgn` simulated into a sensor log (`touchmove simulate --all`, messy hands,
//! not timed), then replayed, the JSON read from a pipe and counted: one
//! `touchmove replay --json LOG` process per log, one after the other, and one
//! `touchmove replay --json LOG...` process for all of them, on one thread (`--jobs 1`) and on
//! one per core (the default), best of five runs each. Checks that every way gives as many
//! decisions and the two round processes the same bytes, and prints the command and the
//! figures.
//!
//! `cargo bench --bench replay_round -- --logs N` uses the first N logs only.

#[path = "shared/logs.rs"]
mod logs;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use logs::{corpus_files, count_events, write_logs};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    println!(
        "command: cargo bench --bench replay_round (argv: {})",
        args.join(" ")
    );
    let limit = args
        .iter()
        .position(|a| a == "--logs")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(usize::MAX);
    match run(limit) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("replay_round: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run(limit: usize) -> Result<(), String> {
    let bin = Path::new(env!("CARGO_BIN_EXE_touchmove"));
    let dir = std::env::temp_dir().join(format!("touchmove-round-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let mut logs = write_logs(bin, &corpus_files()?, &dir, &["--style", "messy"])?;
    logs.truncate(limit);
    let events: usize = logs.iter().map(|log| count_events(log)).sum();
    println!(
        "logs: {} (every corpus game, `touchmove simulate --all --style messy`), {events} sensor events",
        logs.len()
    );
    let (apart, apart_lines) = one_process_per_log(bin, &logs)?;
    let (one_thread, one_thread_out) = best_round(bin, &logs, &["--jobs", "1"])?;
    let (threads, threads_out) = best_round(bin, &logs, &[])?;
    let _ = fs::remove_dir_all(&dir);
    let together_lines = count_lines(&threads_out);
    if apart_lines != together_lines {
        return Err(format!(
            "{apart_lines} decisions one process per log, {together_lines} in one process"
        ));
    }
    if one_thread_out != threads_out {
        return Err("the round's output on one thread differs from the default's".to_owned());
    }
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    println!(
        "decisions: {together_lines} every way; the round's output the same bytes on 1 and {cores} threads"
    );
    for (what, wall) in [
        ("one process per log, one after the other", apart),
        (
            "one process for the round, one thread (`touchmove replay --json --jobs 1 LOG...`)",
            one_thread,
        ),
        (
            "one process for the round, one thread per core (`touchmove replay --json LOG...`)",
            threads,
        ),
    ] {
        let secs = wall.as_secs_f64();
        println!(
            "  {what}: {secs:.2} s wall, {:.2} ms per log, {:.0} events/s",
            secs * 1e3 / logs.len().max(1) as f64,
            events as f64 / secs
        );
    }
    println!(
        "  one process (one thread per core) is {:.1} times as fast as one per log",
        apart.as_secs_f64() / threads.as_secs_f64().max(f64::MIN_POSITIVE)
    );
    Ok(())
}

/// One `touchmove replay --json LOG` per log: the wall time and the decisions printed.
fn one_process_per_log(bin: &Path, logs: &[PathBuf]) -> Result<(Duration, usize), String> {
    let began = Instant::now();
    let mut lines = 0;
    for log in logs {
        let output = Command::new(bin)
            .args(["replay", "--json"])
            .arg(log)
            .stderr(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run replay: {e}"))?;
        if !output.status.success() {
            return Err(format!("replay failed on {}", log.display()));
        }
        lines += count_lines(&output.stdout);
    }
    Ok((began.elapsed(), lines))
}

/// `touchmove replay --json OPTIONS LOG...` for them all, five times: the best wall time and
/// what it printed (the same every time, or an error).
fn best_round(
    bin: &Path,
    logs: &[PathBuf],
    options: &[&str],
) -> Result<(Duration, Vec<u8>), String> {
    let mut best: Option<(Duration, Vec<u8>)> = None;
    for _ in 0..5 {
        let began = Instant::now();
        let output = Command::new(bin)
            .args(["replay", "--json"])
            .args(options)
            .args(logs)
            .stderr(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run replay: {e}"))?;
        let wall = began.elapsed();
        if !output.status.success() {
            return Err("the round's replay failed".to_owned());
        }
        best = match best {
            Some((_, printed)) if printed != output.stdout => {
                return Err("the round's replay printed something else on a run".to_owned());
            }
            Some((fastest, printed)) => Some((fastest.min(wall), printed)),
            None => Some((wall, output.stdout)),
        };
    }
    best.ok_or_else(|| "no run".to_owned())
}

fn count_lines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&byte| byte == b'\n').count()
}
