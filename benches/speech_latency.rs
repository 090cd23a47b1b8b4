//! The voice's latency (`--speak`, issue 29: within 300 ms of the decision): from a decision's
//! line on `touchmove watch --json`'s standard output to the end of espeak-ng's rendering of
//! what the voice says of it (`--speak-wav`: the WAV file's last write). Played live, speech
//! starts before its rendering ends, so this bounds the time to the first sound from above.
//! Run with `cargo bench --locked --bench speech_latency`.
//!
//! The game (a 4.3.1 ruling, an illegal move, a mate; every move said with `--speak-moves`) is
//! played by an emulated Hall board on a pseudo-terminal, ten times.

// Tests and benchmarks stop on what they did not expect: the workspace's denial of `unwrap`,
// `expect`, indexing and `panic!` is for the code input reaches, not for them.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime};

/// The game, as the Hall board's script (the one `tests/speak.rs` plays).
const GAME: &str = include_str!("../tests/data/voice-game.log");

/// The kinds the voice says something of, with every move said.
const SAID: [&str; 4] = ["move", "violation", "illegal", "result"];

const RUNS: usize = 10;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    println!(
        "command: cargo bench --bench speech_latency (argv: {})",
        args.join(" ")
    );
    let mut samples = Vec::new();
    for run in 0..RUNS {
        samples.extend(run_once(run));
    }
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let at = |q: f64| {
        let index = ((samples.len() as f64 - 1.0) * q).round() as usize;
        ms(samples[index])
    };
    println!(
        "decision to the utterance rendered: {} utterances in {RUNS} games; median {:.0} ms, \
         p90 {:.0} ms, max {:.0} ms (target: within 300 ms)",
        samples.len(),
        at(0.5),
        at(0.9),
        ms(*samples.last().expect("samples"))
    );
}

/// One game: the latency of each utterance.
fn run_once(run: usize) -> Vec<Duration> {
    let dir = std::env::temp_dir().join(format!(
        "touchmove-speech-bench-{}-{run}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a directory");
    let log = dir.join("game.log");
    std::fs::write(&log, GAME).expect("written");
    let binary = env!("CARGO_BIN_EXE_touchmove");
    let mut board = Command::new(binary)
        .args(["emulate", "hall", "--log"])
        .arg(&log)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the emulator starts");
    let mut first = String::new();
    BufReader::new(board.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("the port");
    let port = first
        .trim()
        .strip_prefix("port: ")
        .expect("port: PATH")
        .to_owned();
    let wav = dir.join("voice");
    let mut watch = Command::new(binary)
        .args(["watch", "--protocol", "hall", "--port", &port, "--json"])
        .args(["--give-up-after", "1", "--speak", "en", "--speak-moves"])
        .arg("--speak-wav")
        .arg(&wav)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("watch starts");
    let mut decided = Vec::new();
    for line in BufReader::new(watch.stdout.take().expect("stdout")).lines() {
        let Ok(line) = line else { break };
        let now = SystemTime::now();
        let said = SAID
            .iter()
            .any(|kind| line.contains(&format!("\"kind\":\"{kind}\"")));
        if said {
            decided.push(now);
        }
    }
    let _ = watch.wait();
    let _ = board.kill();
    let _ = board.wait();
    let latencies = decided
        .iter()
        .enumerate()
        .filter_map(|(i, at)| {
            let rendered = modified(&wav.join(format!("{}.wav", i + 1)))?;
            Some(rendered.duration_since(*at).unwrap_or_default())
        })
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    latencies
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).ok()?.modified().ok()
}
