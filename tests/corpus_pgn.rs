//! The project's copy of the corpus of real games (`fixtures/corpus`, copied unchanged from the
//! shared corpus) reads as its README says (files read here, not in the library's sans-IO unit
//! tests). The tests read only the copy: a fresh clone has no shared corpus beside it.

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;

use shakmaty::Chess;
use touchmove_simulation::pgn_games::{PgnError, PgnGame, read_games};

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/corpus")
}

fn read_corpus(name: &str) -> Vec<Result<PgnGame, PgnError>> {
    let file = File::open(corpus_dir().join(name)).expect("corpus file exists");
    read_games(BufReader::new(file)).collect()
}

fn count_ok(name: &str) -> usize {
    let games = read_corpus(name);
    let errors: Vec<String> = games
        .iter()
        .filter_map(|g| g.as_ref().err().map(|e| e.to_string()))
        .collect();
    assert!(errors.is_empty(), "{name}: {errors:?}");
    games.len()
}

#[test]
fn corpus_counts_match_the_readme() {
    for (name, count) in [
        ("chessjs-benchmark.pgn", 100),
        ("kasparov-deep-blue-1997.pgn", 6),
        ("promotion.pgn", 1),
        ("world_matches-game-2.pgn", 1),
        ("demo.pgn", 24),
    ] {
        assert_eq!(count_ok(name), count, "{name}");
    }
}

#[test]
fn every_corpus_file_reads_without_error() {
    for entry in std::fs::read_dir(corpus_dir()).expect("corpus dir") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|ext| ext != "pgn") {
            continue;
        }
        let name = path.file_name().and_then(|n| n.to_str()).expect("name");
        assert!(count_ok(name) >= 1, "{name}");
    }
}

#[test]
fn the_world_matches_game_starts_from_a_set_up_position() {
    // Lewis – Deschapelles, Paris 1821, from a set-up FEN (the README).
    let games: Vec<PgnGame> = read_corpus("world_matches-game-2.pgn")
        .into_iter()
        .filter_map(Result::ok)
        .collect();
    assert_eq!(games.len(), 1);
    assert!(games.iter().all(|game| game.start != Chess::default()));
}
