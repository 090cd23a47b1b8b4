//! The corpus benchmark (`cargo bench --bench corpus`): every game of `../shared/corpus/pgn`
//! simulated under each hand style and replayed through the interpreter and the baseline; then
//! speed and memory. Prints one report; `BENCHMARKS.md` holds a run of it.
//!
//! `cargo bench --bench corpus -- --games N` uses the first N games only;
//! `-- --live NAME` runs only the live rows whose name holds NAME (and nothing else).

// Tests and benchmarks stop on what they did not expect: the workspace's denial of `unwrap`,
// `expect`, indexing and `panic!` is for the code input reaches, not for them.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod fidelity;
mod live;
#[path = "../shared/logs.rs"]
mod logs;
mod memory;
mod speed;
mod stats;
mod styles;

use std::fs::{self, File};
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use shakmaty::Chess;
use touchmove::interpreter::{Config, Interpreter};
use touchmove::sensor::SensorEvent;
use touchmove_simulation::pgn_games::{PgnGame, read_games};
use touchmove_simulation::simulate::simulate;

use logs::corpus_files;
use styles::NamedStyle;

#[global_allocator]
static ALLOCATOR: memory::Counting = memory::Counting;

/// Interpreters kept mid-game for the per-game memory figure.
const IN_PROGRESS: usize = 1_000;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    println!(
        "command: cargo bench --bench corpus (argv: {})",
        args.join(" ")
    );
    let limit = args
        .iter()
        .position(|a| a == "--games")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(usize::MAX);
    let pgns = match corpus_files() {
        Ok(pgns) => pgns,
        Err(error) => {
            eprintln!("corpus: {error}");
            return ExitCode::FAILURE;
        }
    };
    let only_live = args
        .iter()
        .position(|a| a == "--live")
        .and_then(|i| args.get(i + 1));
    if let Some(name) = only_live {
        let (games, unreadable) = load(&pgns, limit);
        println!(
            "corpus: {} games ({unreadable} unreadable games skipped)",
            games.len()
        );
        live_table(&games, name);
        return ExitCode::SUCCESS;
    }
    // First, while this process is still small: a child's peak RSS (ru_maxrss) cannot read
    // below its parent's resident size when it was spawned.
    let floor_kib = memory::status_kib("VmHWM");
    let process = replay_process(&pgns, limit);
    let (games, unreadable) = load(&pgns, limit);
    println!(
        "corpus: {} games from {} PGN files ({unreadable} unreadable games skipped); seed of game i = i",
        games.len(),
        pgns.len()
    );
    let config = Config::default();
    fidelity_table(&games, &config);
    live_table(&games, "");
    speed_and_memory(&games, config);
    match process {
        Ok(run) => {
            print_process(&run, floor_kib);
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("replay processes: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Every readable game (with its file name), up to `limit`, and the number of unreadable ones.
fn load(pgns: &[PathBuf], limit: usize) -> (Vec<(String, PgnGame)>, usize) {
    let mut games = Vec::new();
    let mut unreadable = 0;
    for pgn in pgns {
        let Ok(file) = File::open(pgn) else {
            unreadable += 1;
            continue;
        };
        let name = pgn
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for game in read_games(BufReader::new(file)) {
            match game {
                Ok(game) => games.push((name.clone(), game)),
                Err(_) => unreadable += 1,
            }
        }
    }
    games.truncate(limit);
    (games, unreadable)
}

fn fidelity_table(games: &[(String, PgnGame)], config: &Config) {
    println!();
    println!(
        "Fidelity and decision latency (ms, log time from a move's last sensor event to its decision; median/p99)"
    );
    println!(
        "{:<19} {:>6} {:>7} {:>7} {:>6} {:>11} {:>10} {:>10} {:>5} {:>10} {:>6}",
        "style",
        "games",
        "exact",
        "base",
        "false",
        "breaches",
        "final",
        "all",
        "late",
        "base lat",
        "secs"
    );
    let mut notes = Vec::new();
    for style in styles::all() {
        let began = Instant::now();
        let mut row = fidelity::run(games, &style, config);
        print_row(&style, &mut row, began.elapsed().as_secs_f64());
        note_games(&mut notes, style.name, &row.inexact, &row.misruled);
    }
    println!(
        "columns: exact = SAN equal to the source game (interpreter); base = the same for the baseline"
    );
    println!(
        "  (250 ms quiet, then match a legal move); false = rulings made that the hands did not earn;"
    );
    println!(
        "  breaches = earned rulings found/expected; final = moves that cannot be extended; all = every move;"
    );
    println!(
        "  late = decided > slide window (250 ms) after the last event and not at the move's clock press;"
    );
    println!(
        "  base lat = baseline latency over the plies it agrees on; secs = wall time of the row."
    );
    for note in notes {
        println!("{note}");
    }
}

/// The notes naming a row's first games not reproduced exactly and with false or missed
/// rulings.
fn note_games(notes: &mut Vec<String>, row: &str, inexact: &[String], misruled: &[String]) {
    notes.extend(
        inexact
            .iter()
            .map(|game| format!("not exact under {row}: {game}")),
    );
    notes.extend(
        misruled
            .iter()
            .map(|game| format!("false or missed rulings under {row}: {game}")),
    );
}

/// The live rows whose name holds `name` (every row for "").
fn live_table(games: &[(String, PgnGame)], name: &str) {
    println!();
    println!(
        "Live: an emulated board (DGT: scans, DGT clock; ChessLink: 41 ms scans, a report at each changing scan, no clock; Chessnut: the whole position every 100 ms, no clock, its link dropped as a Bluetooth link drops; eONE: the ChessLink board over Bluetooth, its bytes with their parity bit; Pegasus and Square Off: occupancy, each change, no clock, no buttons; Certabo: a frame every 250 ms (the sentio 50 ms rows: every 50 ms, `watch` told `--scan-ms 50`), the RFID board's chips calibrated before (kept), the Sentio's occupancy only, its hands answering the lights that ask where a piece went (lit 1 s: the piece of their last move lifted and set back), no clock; Hall: occupancy, each change, clock buttons) and the protocol's real host session and live game, in process on simulated time"
    );
    println!(
        "{:<19} {:>6} {:>7} {:>8} {:>6} {:>11} {:>6} {:>7} {:>8} {:>8} {:>14} {:>6}",
        "row",
        "games",
        "exact",
        "=replay",
        "false",
        "breaches",
        "lost",
        "astray",
        "rebuilt",
        "waiting",
        "times off",
        "secs"
    );
    let mut notes = Vec::new();
    for style in live::styles()
        .into_iter()
        .filter(|style| style.name.contains(name))
    {
        let began = Instant::now();
        let row = live::run(games, &style);
        println!(
            "{:<19} {:>6} {:>7} {:>8} {:>6} {:>11} {:>6} {:>7} {:>8} {:>8} {:>14} {:>6.1}",
            style.name,
            row.games,
            row.exact,
            row.same_as_replay,
            row.false_rulings,
            format!("{}/{}", row.breaches_found, row.breaches_expected),
            row.lost,
            format!("{}/{}", row.astray, row.astray_rejoined),
            row.reconstructed,
            format!("{}/{}", row.waiting, row.waiting_resolvable),
            if row.times_checked == 0 {
                "-".to_owned()
            } else {
                format!("{}/{}", row.times_off, row.times_checked)
            },
            began.elapsed().as_secs_f64()
        );
        note_games(&mut notes, style.name, &row.inexact, &row.misruled);
        notes.extend(
            row.unlike_replay
                .iter()
                .map(|game| format!("live unlike its replay under {}: {game}", style.name)),
        );
        notes.extend(row.gone_elsewhere.iter().map(|game| {
            format!(
                "astray under {} and not back to the game: {game}",
                style.name
            )
        }));
        notes.extend(row.resolvable.iter().map(|game| {
            format!(
                "left waiting under {} though a later position resolved it: {game}",
                style.name
            )
        }));
    }
    println!(
        "columns: exact = SAN equal to the source game; =replay = live decisions equal to the replay of"
    );
    println!(
        "  the session's recording; false = rulings the hands did not earn; breaches = earned rulings"
    );
    println!(
        "  found/expected (messy: rook-first castling); lost = plies of the source games missing from the"
    );
    println!(
        "  records; astray = records with a ply the game did not have there / of them, those back in the"
    );
    println!(
        "  game (a position the game reached, every move from there the game's: moves that came back to a"
    );
    println!(
        "  position unseen, caught up as the shorter sequence); rebuilt = moves made while the board was"
    );
    println!(
        "  unplugged, reconstructed; waiting = games left waiting on a board that no single shortest"
    );
    println!(
        "  sequence of up to 4 plies explains (the rule: report and wait) / of them, those a later"
    );
    println!(
        "  position the board rested on (quiet) resolved: the plies played since the record were the one"
    );
    println!(
        "  shortest sequence of up to 4 plies to it, none shorter leaving a move under way (worked out"
    );
    println!(
        "  from the source game, not by the interpreter); unplugs: once a game, the port open, the board"
    );
    println!(
        "  back idle (in the Pegasus and Square Off drop rows the hands heed the lights: lit 2 s, the board is set back to the record's position and what was made since made again); blitz hands"
    );
    println!(
        "  (presses 0-200 ms after the move, one reply in four 50-250 ms after the press) in the DGT"
    );
    println!(
        "  and Hall rows blitz presses, unplugged 0.3 (DGT), 3 (DGT) and 10 s and killed; the ChessLink, eONE, Chessnut, Pegasus, Square Off and Certabo rows have no clock"
    );
    println!(
        "  (moves decided by the slide window or the reply); the Hall rows' hands press its clock"
    );
    println!(
        "  buttons, which report no times; times off = moves whose times (the `move`, then its `clock`"
    );
    println!(
        "  events) differ by over a second from the DGT clock's first report after the press (the clock"
    );
    println!("  adds 2 s a press), of the moves checked (DGT rows without an outage).");
    for note in notes {
        println!("{note}");
    }
}

fn print_row(style: &NamedStyle, row: &mut fidelity::Row, secs: f64) {
    let false_rulings = if style.clean {
        format!("{}", row.false_rulings)
    } else {
        format!("({})", row.false_rulings)
    };
    println!(
        "{:<19} {:>6} {:>7} {:>7} {:>6} {:>11} {:>10} {:>10} {:>5} {:>10} {:>6.1}",
        style.name,
        row.games,
        row.exact,
        row.baseline_exact,
        false_rulings,
        format!("{}/{}", row.breaches_found, row.breaches_expected),
        row.final_latency.summary(),
        row.all_latency.summary(),
        row.late,
        row.baseline_latency.summary(),
        secs
    );
}

/// Every game's simulated events in `style`.
fn presimulate(games: &[(String, PgnGame)], style: &NamedStyle) -> Vec<(Chess, Vec<SensorEvent>)> {
    games
        .iter()
        .enumerate()
        .filter_map(|(seed, (_, game))| {
            let sim = simulate(&game.start, &game.moves, &style.style, seed as u64).ok()?;
            Some((game.start.clone(), sim.events))
        })
        .collect()
}

fn speed_and_memory(games: &[(String, PgnGame)], config: Config) {
    println!();
    println!(
        "Speed, interpreter alone: `cargo bench --bench interpreter` (this bench counts allocations, which slows them)"
    );
    let all = styles::all();
    let in_progress = all
        .iter()
        .find(|s| s.name == "clean occ")
        .map(|style| presimulate(games, style))
        .unwrap_or_default();
    memory_in_progress(&in_progress, config);
}

fn memory_in_progress(presimulated: &[(Chess, Vec<SensorEvent>)], config: Config) {
    let (heap, rss) = memory::per_game_in_progress(presimulated, IN_PROGRESS, config);
    println!();
    println!(
        "Memory per game in progress ({IN_PROGRESS} interpreters kept alive, each fed the first half of a clean-occ game):"
    );
    println!(
        "  heap {heap} B/game (counting allocator, Vec slot included; size_of::<Interpreter>() = {} B); RSS growth {rss} B/game",
        std::mem::size_of::<Interpreter>()
    );
    println!(
        "  this bench process (whole corpus held in memory, not streamed): VmHWM {} KiB",
        memory::status_kib("VmHWM")
    );
}

/// Every corpus game (up to `limit`) written as a log, then replayed by one process each.
fn replay_process(pgns: &[PathBuf], limit: usize) -> Result<speed::ProcessRun, String> {
    let bin = Path::new(env!("CARGO_BIN_EXE_touchmove"));
    let dir = std::env::temp_dir().join(format!("touchmove-bench-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let style = ["--style", "messy"];
    let logs = logs::write_logs(bin, pgns, &dir, &style);
    let run = logs.and_then(|logs| {
        let take = logs.len().min(limit);
        speed::replay_processes(bin, &logs[..take])
    });
    let _ = fs::remove_dir_all(&dir);
    run
}

fn print_process(run: &speed::ProcessRun, floor_kib: u64) {
    let secs = run.wall.as_secs_f64();
    println!();
    println!(
        "Whole process: `touchmove replay --json LOG > /dev/null`, one process per game log, run one after the other"
    );
    println!(
        "  logs: every corpus game, `touchmove simulate --all --style messy` (occupancy), default seed"
    );
    println!(
        "  {} logs, {} sensor events, {:.2} s wall in total: {:.0} events/s, {:.2} ms per process",
        run.files,
        run.events,
        secs,
        run.events as f64 / secs,
        secs * 1e3 / run.files.max(1) as f64
    );
    let smallest = run.peak_kib.iter().min_by_key(|(size, _)| *size);
    let biggest = run.peak_kib.iter().max_by_key(|(size, _)| *size);
    let max_peak = run
        .peak_kib
        .iter()
        .map(|(_, peak)| *peak)
        .max()
        .unwrap_or(0);
    if let (Some(small), Some(big)) = (smallest, biggest) {
        println!(
            "  peak RSS (wait4 ru_maxrss): smallest log ({} B) {} KiB, biggest log ({} B) {} KiB, max over all {} KiB",
            small.0, small.1, big.0, big.1, max_peak
        );
    }
    println!("  (floor: the bench's own VmHWM when it spawned them was {floor_kib} KiB)");
}
