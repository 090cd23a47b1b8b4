//! The corpus of real games reads as its README says (files read here, not in the library's
//! sans-IO unit tests).

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;

use shakmaty::Chess;
use touchmove::pgn_games::{PgnError, PgnGame, read_games};

fn corpus(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/pgn")
        .join(name)
}

fn read_corpus(name: &str) -> Vec<Result<PgnGame, PgnError>> {
    let file = File::open(corpus(name)).expect("corpus file exists");
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
        ("twic1599_1000k.pgn", 1110),
        ("lichess_db_1000k.pgn", 438),
        ("world_matches.pgn", 580),
        ("dortmund.pgn", 347),
        ("chessjs-benchmark.pgn", 100),
        ("kasparov-deep-blue-1997.pgn", 6),
        ("molinari-bordais-1979.pgn", 1),
        ("chessbase-empty-line.pgn", 1),
        // The README says 1, but the file holds two games ("A" and "B"), the first behind the BOM.
        ("utf8-bom.pgn", 2),
    ] {
        assert_eq!(count_ok(name), count, "{name}");
    }
}

#[test]
fn every_corpus_file_reads_without_error() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/pgn");
    for entry in std::fs::read_dir(dir).expect("corpus dir") {
        let path = entry.expect("entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).expect("name");
        assert!(count_ok(name) >= 1, "{name}");
    }
}

#[test]
fn the_pychess_files_have_eighteen_set_up_games() {
    // The README's "18 start from a set-up FEN" is about world_matches.pgn; dortmund has none.
    let set_up = read_corpus("world_matches.pgn")
        .into_iter()
        .filter_map(Result::ok)
        .filter(|g| g.start != Chess::default())
        .count();
    assert_eq!(set_up, 18);
}
