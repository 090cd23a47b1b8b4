//! `touchmove simulate` then `touchmove replay --json`: the record is the source game, and the
//! rulings are exactly those the log's comments say the hands earned.

use std::fs::{self, File};
use std::io::BufReader;
use std::path::PathBuf;

use touchmove_simulation::fidelity::san_list;
use touchmove_simulation::pgn_games::{PgnGame, read_games};

use crate::common;

use common::touchmove_ok as touchmove;

/// A PGN file of `fixtures/corpus` (games copied from the shared corpus; see its README).
fn corpus(name: &str) -> PathBuf {
    common::fixture_dir().join("corpus").join(name)
}

fn game(name: &str, number: usize) -> PgnGame {
    let file = File::open(corpus(name)).expect("corpus file");
    read_games(BufReader::new(file))
        .filter_map(Result::ok)
        .find(|g| g.number == number)
        .expect("the game is in the corpus")
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("touchmove-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// The SAN of the moves and the rulings (`<ply> <color> <article|illegal> <square>`, as the
/// log's `# expect` lines give them) of a JSON stream. A violation is reported right after the
/// move that completes it, so its ply is that move's; an illegal move is reported before the
/// mover's next legal move, so its ply is the one after the last move. The square of an
/// illegal move is its destination, from its UCI (as `touchmove_simulation::fidelity::rulings` takes it).
fn decisions(json: &str) -> (Vec<String>, Vec<String>) {
    let mut sans: Vec<String> = Vec::new();
    let mut rulings = Vec::new();
    let mut last_ply = 0;
    for line in json.lines() {
        let event: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let text = |key: &str| event[key].as_str().unwrap_or_default().to_owned();
        match event["kind"].as_str() {
            Some("move") => {
                let ply = event["ply"].as_u64().expect("ply") as usize;
                sans.truncate(ply - 1);
                sans.push(text("san"));
                last_ply = ply;
            }
            Some("takeback") => {
                let ply = event["ply"].as_u64().expect("ply") as usize;
                sans.truncate(ply - 1);
            }
            Some("violation") => rulings.push(format!(
                "{last_ply} {} {} {}",
                text("color"),
                text("rule"),
                text("square")
            )),
            Some("illegal") => {
                let uci = text("uci");
                let square = uci
                    .get(2..4)
                    .expect("an illegal move's UCI names its square");
                rulings.push(format!(
                    "{} {} illegal {square}",
                    last_ply + 1,
                    text("color")
                ));
            }
            _ => {}
        }
    }
    (sans, rulings)
}

/// The rulings the log's `# expect` comments list, as `<ply> <color> <article|illegal> <sq>`.
fn expected_rulings(log: &str) -> Vec<String> {
    log.lines()
        .filter_map(|line| line.strip_prefix("# expect "))
        .map(|rest| {
            let fields: Vec<&str> = rest.split(' ').collect();
            assert_eq!(fields.len(), 4, "{rest}");
            fields.join(" ")
        })
        .collect()
}

/// Simulates game `number` of `pgn` with `options`, replays it, and checks the record.
fn round_trip(pgn: &str, number: usize, options: &[&str]) -> Vec<String> {
    let dir = scratch(&format!("{pgn}-{number}"));
    let log = dir.join("game.log");
    let pgn_path = corpus(pgn);
    let number_text = number.to_string();
    let mut args = vec![
        "simulate",
        pgn_path.to_str().expect("UTF-8 path"),
        "--game",
        &number_text,
        "-o",
        log.to_str().expect("UTF-8 path"),
    ];
    args.extend_from_slice(options);
    touchmove(&args);
    let (sans, rulings) = decisions(&touchmove(&[
        "replay",
        "--json",
        log.to_str().expect("path"),
    ]));
    let source = game(pgn, number);
    assert_eq!(
        sans,
        san_list(&source.start, &source.moves),
        "{pgn} game {number}"
    );
    let text = fs::read_to_string(&log).expect("the log");
    let expected = expected_rulings(&text);
    assert_eq!(rulings, expected, "{pgn} game {number} {options:?}");
    let _ = fs::remove_dir_all(&dir);
    expected
}

#[test]
fn clean_play_replays_to_the_source_game_without_rulings() {
    let expected = round_trip("kasparov-deep-blue-1997.pgn", 2, &[]);
    assert!(expected.is_empty());
}

#[test]
fn a_set_up_position_on_a_scanning_board_replays_to_the_source_game() {
    // Game 2 of the shared corpus's world_matches.pgn (Lewis–Deschapelles 1821, from a FEN) is
    // game 1 of its copy: seed 10 + 1 is the seed 9 + 2 it was simulated with there.
    round_trip(
        "world_matches-game-2.pgn",
        1,
        &["--board", "identifying", "--style", "messy", "--seed", "10"],
    );
}

#[test]
fn injected_breaches_are_listed_and_ruled() {
    let mut listed = 0;
    for seed in ["1", "2", "3"] {
        listed += round_trip(
            "chessjs-benchmark.pgn",
            3,
            &["--style", "everything", "--seed", seed],
        )
        .len();
    }
    assert!(listed > 0, "no breach was injected");
}

#[test]
fn single_switches_add_to_the_clean_preset() {
    // Game 29 of the chess.js benchmark has a queen promotion (19. exf8=Q+) for
    // `--promotion-orders` to act on.
    let (pgn, number) = ("chessjs-benchmark.pgn", 29);
    let source = game(pgn, number);
    assert!(
        san_list(&source.start, &source.moves)
            .iter()
            .any(|san| san.contains("=Q")),
        "{pgn} game {number} has no queen promotion"
    );
    let expected = round_trip(
        pgn,
        number,
        &[
            "--promotion-orders",
            "--slides",
            "--illegal-move",
            "--seed",
            "4",
        ],
    );
    assert!(!expected.is_empty(), "--illegal-move injected nothing");
    assert!(
        expected
            .iter()
            .all(|r| r.split(' ').nth(2) == Some("illegal")),
        "{expected:?}"
    );
}

#[test]
fn all_writes_one_log_per_game() {
    let dir = scratch("all");
    let pgn = corpus("kasparov-deep-blue-1997.pgn");
    touchmove(&[
        "simulate",
        pgn.to_str().expect("UTF-8 path"),
        "--all",
        "-o",
        dir.to_str().expect("UTF-8 path"),
    ]);
    let mut names: Vec<String> = fs::read_dir(&dir)
        .expect("the directory")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    let wanted: Vec<String> = (1..=6).map(|n| format!("game-{n:04}.log")).collect();
    assert_eq!(names, wanted);
    let single = touchmove(&["simulate", pgn.to_str().expect("UTF-8 path"), "--game", "4"]);
    let from_all = fs::read_to_string(dir.join("game-0004.log")).expect("game 4");
    assert_eq!(single, from_all, "--all and --game give the same log");
    let _ = fs::remove_dir_all(&dir);
}
