//! The shared corpus as sensor logs, for the benches that replay whole processes (`corpus`,
//! `replay_round`): the corpus's PGN files, each game simulated into a log (not timed), and a
//! log's event count.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The PGN files of `../shared/corpus/pgn`, sorted.
pub fn corpus_files() -> Result<Vec<PathBuf>, String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/pgn");
    let entries = fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut pgns: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "pgn"))
        .collect();
    pgns.sort();
    Ok(pgns)
}

/// Writes every game of every PGN file as a log with `touchmove simulate --all` and `style`
/// (not timed); returns the log files, sorted.
pub fn write_logs(
    bin: &Path,
    pgns: &[PathBuf],
    dir: &Path,
    style: &[&str],
) -> Result<Vec<PathBuf>, String> {
    let mut logs = Vec::new();
    for pgn in pgns {
        let stem = pgn
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let out = dir.join(stem);
        let status = Command::new(bin)
            .arg("simulate")
            .arg(pgn)
            .args(["--all", "-o"])
            .arg(&out)
            .args(style)
            .stderr(Stdio::null())
            .status()
            .map_err(|e| format!("cannot run simulate: {e}"))?;
        if !status.success() {
            return Err(format!("simulate failed on {}", pgn.display()));
        }
        let entries = fs::read_dir(&out).map_err(|e| format!("{}: {e}", out.display()))?;
        logs.extend(entries.filter_map(Result::ok).map(|entry| entry.path()));
    }
    logs.sort();
    Ok(logs)
}

/// The event lines of a log (lines starting with a digit).
pub fn count_events(log: &Path) -> usize {
    fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter(|line| line.starts_with(|c: char| c.is_ascii_digit()))
        .count()
}
