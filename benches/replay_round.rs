//! A whole round at once (`cargo bench --bench replay_round`): every game of
//! `../shared/corpus/pgn` simulated into a sensor log (`touchmove simulate --all`, messy hands,
//! not timed), then replayed twice, the JSON read from a pipe and counted: one
//! `touchmove replay --json LOG` process per log, one after the other, and one
//! `touchmove replay --json LOG...` process for all of them. Checks that both give as many
//! decisions, and prints the command and the figures.
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
    let (together, together_lines) = one_process(bin, &logs)?;
    let _ = fs::remove_dir_all(&dir);
    if apart_lines != together_lines {
        return Err(format!(
            "{apart_lines} decisions one process per log, {together_lines} in one process"
        ));
    }
    println!("decisions: {together_lines} both ways");
    for (what, wall) in [
        ("one process per log, one after the other", apart),
        (
            "one process for the round (`touchmove replay --json LOG...`)",
            together,
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
        "  one process is {:.1} times as fast",
        apart.as_secs_f64() / together.as_secs_f64().max(f64::MIN_POSITIVE)
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

/// One `touchmove replay --json LOG...` for them all: the wall time and the decisions printed.
fn one_process(bin: &Path, logs: &[PathBuf]) -> Result<(Duration, usize), String> {
    let began = Instant::now();
    let output = Command::new(bin)
        .args(["replay", "--json"])
        .args(logs)
        .stderr(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run replay: {e}"))?;
    let wall = began.elapsed();
    if !output.status.success() {
        return Err("the round's replay failed".to_owned());
    }
    Ok((wall, count_lines(&output.stdout)))
}

fn count_lines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&byte| byte == b'\n').count()
}
