//! The interpreter alone (`cargo bench --bench interpreter`): every game of
//! `../shared/corpus/pgn` simulated in memory by two hand styles (clean hands on an occupancy
//! board, every kind of messy hand on an identifying board; not timed), then every game's
//! events through a fresh interpreter, decisions polled as they come: on one thread, then on
//! one thread per core (the games dealt out in turn, as `replay --jobs` deals out a round's
//! logs). Best of five runs each, with the system allocator (the corpus benchmark counts
//! allocations and so cannot time them).
//!
//! `cargo bench --bench interpreter -- --games N` uses the first N games only.

#[path = "shared/logs.rs"]
#[allow(
    dead_code,
    reason = "this bench lists the corpus only; the others write logs too"
)]
mod logs;

use std::fs::File;
use std::io::BufReader;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use shakmaty::Chess;
use touchmove::interpreter::{Config, Interpreter};
use touchmove::sensor::SensorEvent;
use touchmove_simulation::pgn_games::{PgnGame, read_games};
use touchmove_simulation::simulate::{BoardKind, HandStyle, simulate};

use logs::corpus_files;

/// Timed runs per style; the best is reported.
const RUNS: usize = 5;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    println!(
        "command: cargo bench --bench interpreter (argv: {})",
        args.join(" ")
    );
    let limit = args
        .iter()
        .position(|a| a == "--games")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(usize::MAX);
    let games = match load(limit) {
        Ok(games) => games,
        Err(error) => {
            eprintln!("interpreter: {error}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "corpus: {} games; seed of game i = i; best of {RUNS} runs",
        games.len()
    );
    let styles = [
        ("clean occ", HandStyle::clean(BoardKind::Occupancy)),
        (
            "everything id",
            HandStyle::everything(BoardKind::Identifying),
        ),
    ];
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for (name, style) in &styles {
        let presimulated = presimulate(&games, style);
        let events: usize = presimulated.iter().map(|(_, e)| e.len()).sum();
        for threads in [1, cores] {
            let (best, decisions) = interpreter_best(&presimulated, Config::default(), threads);
            println!(
                "  {name:<15} {threads} thread(s): {} games, {events} events, {decisions} decisions in {:.3} s: {:.2} M events/s",
                presimulated.len(),
                best.as_secs_f64(),
                events as f64 / best.as_secs_f64() / 1e6
            );
        }
    }
    ExitCode::SUCCESS
}

/// Every readable game of the corpus, up to `limit`.
fn load(limit: usize) -> Result<Vec<PgnGame>, String> {
    let mut games = Vec::new();
    for pgn in corpus_files()? {
        let file = File::open(&pgn).map_err(|e| format!("{}: {e}", pgn.display()))?;
        games.extend(read_games(BufReader::new(file)).filter_map(Result::ok));
        if games.len() >= limit {
            break;
        }
    }
    games.truncate(limit);
    Ok(games)
}

/// Each game's start and simulated events (game i with seed i; a game the hands cannot play
/// is left out).
fn presimulate(games: &[PgnGame], style: &HandStyle) -> Vec<(Chess, Vec<SensorEvent>)> {
    games
        .iter()
        .enumerate()
        .filter_map(|(seed, game)| {
            let sim = simulate(&game.start, &game.moves, style, seed as u64).ok()?;
            Some((game.start.clone(), sim.events))
        })
        .collect()
}

/// The best of [`RUNS`] timings of every game's events through a fresh interpreter, on
/// `threads` threads (game i on thread i mod `threads`), and the decisions counted (the same
/// in every run).
fn interpreter_best(
    games: &[(Chess, Vec<SensorEvent>)],
    config: Config,
    threads: usize,
) -> (Duration, usize) {
    let mut best = Duration::MAX;
    let mut decisions = 0;
    for _ in 0..RUNS {
        let began = Instant::now();
        decisions = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|first| {
                    scope.spawn(move || {
                        let dealt = games.iter().skip(first).step_by(threads);
                        std::hint::black_box(run(dealt, config))
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|worker| worker.join().unwrap_or(0))
                .sum()
        });
        best = best.min(began.elapsed());
    }
    (best, decisions)
}

/// Every game through a fresh interpreter; the number of decisions. Never inlined, so that a
/// profiler can select it (`valgrind --tool=callgrind --toggle-collect='interpreter::run'`).
#[inline(never)]
fn run<'a>(games: impl Iterator<Item = &'a (Chess, Vec<SensorEvent>)>, config: Config) -> usize {
    let mut decisions = 0;
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
    decisions
}
