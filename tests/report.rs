//! `touchmove report`: a recorded game's report, with and without an engine, read back by
//! python-chess. The logs are written here move by move (each piece lifted, then set down 300 ms
//! later, a second after the last move); what each report must say is worked out from them.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{python_chess_json, tools, touchmove_ok};

/// A sensor log of moves given as `from-to`, one a second: lifted at `n` s, set down 300 ms
/// later.
fn log_of(moves: &str) -> String {
    let mut log = String::from("touchmove-log 1\n");
    for (n, m) in moves.split_whitespace().enumerate() {
        let (from, to) = m.split_once('-').expect("from-to");
        let t = n * 1000;
        log.push_str(&format!("{t} lift {from}\n{} place {to}\n", t + 300));
    }
    log
}

/// `text` written as `name` in a fresh folder (kept while the test runs).
fn written(dir: &tempfile::TempDir, name: &str, text: &str) -> PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("written");
    path
}

fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// Each move of the first game of `pgn` as python-chess reads it: SAN, NAGs, comment, and the
/// `[%eval]` it parsed (White's centipawns, or `#n`), the game's headers first.
fn python_chess_moves(pgn: &str) -> Value {
    python_chess_json(
        "import sys, json, io, chess.pgn\n\
         g = chess.pgn.read_game(io.StringIO(sys.stdin.read()))\n\
         assert not g.errors, g.errors\n\
         moves = []\n\
         for node in g.mainline():\n\
         \x20   e = node.eval()\n\
         \x20   e = None if e is None else (str(e.white().score()) if not e.is_mate() else '#' + str(e.white().mate()))\n\
         \x20   moves.append([node.san(), sorted(node.nags), node.comment, e])\n\
         print(json.dumps({'headers': dict(g.headers), 'moves': moves, 'before': g.comment}))",
        pgn,
    )
}

#[test]
fn a_line_and_its_transposition_are_named_the_same_opening() {
    let dir = tempfile::tempdir().expect("a folder");
    // d.tsv of lichess-org/chess-openings: `D30 Queen's Gambit Declined 1. d4 d5 2. c4 e6`.
    let line = written(&dir, "line.log", &log_of("d2-d4 d7-d5 c2-c4 e7-e6"));
    let transposed = written(&dir, "transposed.log", &log_of("c2-c4 e7-e6 d2-d4 d7-d5"));
    for log in [&line, &transposed] {
        let pgn = touchmove_ok(&["report", arg(log)]);
        let read = python_chess_moves(&pgn);
        assert_eq!(read["headers"]["ECO"], "D30", "{pgn}");
        assert_eq!(
            read["headers"]["Opening"], "Queen's Gambit Declined",
            "{pgn}"
        );
    }
}

#[test]
fn the_report_of_a_log_says_each_move_s_times_touches_and_rulings() {
    let dir = tempfile::tempdir().expect("a folder");
    // Black touches the knight on g8 (1,400 to 1,900: a touch that binds) and moves e7-e5.
    let log = written(
        &dir,
        "touched.log",
        "touchmove-log 1\n0 lift e2\n400 place e4\n1400 lift g8\n1900 place g8\n\
         2000 lift e7\n2300 place e5\n",
    );
    let pgn = touchmove_ok(&["report", arg(&log)]);
    let read = python_chess_moves(&pgn);
    let moves = read["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 2, "{pgn}");
    assert_eq!(moves[0][2], "in hand 0.4 s", "{pgn}");
    // Black's turn began at White's release (400), its first touch at 1,400: 1 s.
    // The PGN's lines end within 80 columns: a comment's words are read back whatever the
    // line ends between them.
    let black = moves[1][2].as_str().unwrap_or_default();
    let black = black.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        black.starts_with("[%emt 0:00:01.0] in hand 0.3 s; touched g8 and did not move it"),
        "{pgn}"
    );
    assert!(black.contains("4.3.1"), "the ruling is in the PGN: {pgn}");
    // With --pgn, standard output is the per-move table.
    let out = dir.path().join("out.pgn");
    let table = touchmove_ok(&["report", arg(&log), "--pgn", arg(&out)]);
    assert_eq!(std::fs::read_to_string(&out).expect("the PGN"), pgn);
    let row = table
        .lines()
        .find(|l| l.starts_with("1... e5"))
        .expect("a row for e5");
    let cells: Vec<&str> = row
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(cells[..3], ["1... e5", "1.0 s", "0.3 s"], "{table}");
    assert!(row.contains("touched g8; 4.3.1"), "{table}");
}

#[test]
fn a_missed_mate_gets_a_blunder_s_glyph_and_the_mate_as_the_best_move() {
    // 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6?? 4. Qf3??: after 3...Nf6, 4. Qxf7# is mate (the bishop on
    // c4 guards f7, the king cannot take, nothing blocks), the only mate in one; Black's
    // 3...Nf6 allowed it and White's 4. Qf3 let it go. Whatever the engine's evaluations
    // otherwise, a mate counts as 1,000 cp: the mover loses more than 0.3 of their winning
    // chances each time.
    let dir = tempfile::tempdir().expect("a folder");
    let log = written(
        &dir,
        "scholar.log",
        &log_of("e2-e4 e7-e5 f1-c4 b8-c6 d1-h5 g8-f6 h5-f3"),
    );
    let engine = tools::stockfish();
    let args = ["report", arg(&log), "--engine", &engine, "--depth", "8"];
    let pgn = touchmove_ok(&args);
    let read = python_chess_moves(&pgn);
    let moves = read["moves"].as_array().expect("moves");
    let nf6 = &moves[5];
    let qf3 = &moves[6];
    assert_eq!(
        (nf6[0].as_str(), &nf6[1]),
        (Some("Nf6"), &serde_json::json!([4])),
        "{pgn}"
    );
    assert_eq!(nf6[3], "#1", "after 3...Nf6 White mates in one: {pgn}");
    assert_eq!(
        (qf3[0].as_str(), &qf3[1]),
        (Some("Qf3"), &serde_json::json!([4])),
        "{pgn}"
    );
    assert!(
        qf3[2]
            .as_str()
            .unwrap_or_default()
            .contains("Qxf7# was best"),
        "{pgn}"
    );
    let before = read["before"].as_str().unwrap_or_default();
    assert!(before.starts_with("accuracy: white "), "{pgn}");
}

#[test]
fn the_report_of_a_recording_is_the_same_every_time() {
    let dir = tempfile::tempdir().expect("a folder");
    let log = written(
        &dir,
        "game.log",
        &log_of("e2-e4 c7-c5 g1-f3 d7-d6 d2-d4 g8-f6 b1-c3 a7-a6 f1-e2 e7-e5"),
    );
    let engine = tools::stockfish();
    let run = |n: usize| {
        let [pgn, svg, html] =
            ["pgn", "svg", "html"].map(|ext| dir.path().join(format!("{n}.{ext}")));
        let table = touchmove_ok(&[
            "report",
            arg(&log),
            "--engine",
            &engine,
            "--depth",
            "10",
            "--pgn",
            arg(&pgn),
            "--svg",
            arg(&svg),
            "--html",
            arg(&html),
        ]);
        let read = |path: &Path| std::fs::read_to_string(path).expect("written");
        (table, read(&pgn), read(&svg), read(&html))
    };
    let first = run(1);
    let second = run(2);
    assert_eq!(first, second, "the same log gave two reports");
    let (table, pgn, svg, html) = first;
    assert!(
        svg.starts_with("<svg") && svg.contains("Evaluation"),
        "{svg}"
    );
    assert!(
        html.contains("<table class=\"moves\">") && html.contains(&svg),
        "the page holds the chart"
    );
    // b.tsv: `B50 Sicilian Defense: Modern Variations, Anti-Qxd4 Move Order 1. e4 c5 2. Nf3
    // d6 3. d4 Nf6`, the deepest line of the table these moves reach (4. Nc3 a6 5. Be2 e5
    // are in none).
    let read = python_chess_moves(&pgn);
    assert_eq!(read["moves"].as_array().map(Vec::len), Some(10), "{pgn}");
    assert_eq!(read["headers"]["ECO"], "B50", "{pgn}");
    assert!(
        table
            .lines()
            .any(|line| line.starts_with("accuracy white: ")),
        "{table}"
    );
}

/// The project's test tables (`fixtures/syzygy`, 3 and 4 pieces, from python-chess's test data).
fn syzygy() -> String {
    let tables = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/syzygy");
    tables.to_str().expect("a UTF-8 path").to_owned()
}

#[test]
fn a_krvk_ending_is_told_by_the_tables_distance() {
    // Black (Kh8) to move against Kg6 and Ra1: Kg8 is forced (g7 and h7 are the white king's),
    // then Ra8 mates. After Kg8, White mates in one ply: a win at DTZ 1.
    let dir = tempfile::tempdir().expect("a folder");
    let log = written(
        &dir,
        "krvk.log",
        "touchmove-log 1\n@start 7k/8/6K1/8/8/8/8/R7 b - - 0 1\n0 lift h8\n300 place g8\n\
         1000 lift a1\n1300 place a8\n",
    );
    let pgn = touchmove_ok(&["report", arg(&log), "--syzygy", &syzygy()]);
    let read = python_chess_moves(&pgn);
    let moves = read["moves"].as_array().expect("moves");
    let words = |m: &Value| {
        m[2].as_str()
            .unwrap_or_default()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(moves[0][0], "Kg8", "{pgn}");
    assert!(
        words(&moves[0]).starts_with("tablebase: White wins (DTZ 1)"),
        "{pgn}"
    );
    assert_eq!(moves[1][0], "Ra8#", "{pgn}");
    assert_eq!(read["headers"]["Result"], "1-0", "{pgn}");
}

#[test]
fn a_won_ending_given_away_is_a_blunder_by_the_tables() {
    // White (Kc3, Rf1) wins against Kg7; 1. Rf7+ lets the king take the rook: a draw (two
    // kings). From a win to a draw is all of White's winning chances: a blunder, the table's
    // move the better one.
    let dir = tempfile::tempdir().expect("a folder");
    let log = written(
        &dir,
        "given.log",
        "touchmove-log 1\n@start 8/6k1/8/8/8/2K5/8/5R2 w - - 0 1\n0 lift f1\n300 place f7\n\
         1000 lift f7\n1100 lift g7\n1400 place f7\n",
    );
    let pgn = touchmove_ok(&["report", arg(&log), "--syzygy", &syzygy()]);
    let read = python_chess_moves(&pgn);
    let moves = read["moves"].as_array().expect("moves");
    let rf7 = &moves[0];
    assert_eq!(
        (rf7[0].as_str(), &rf7[1]),
        (Some("Rf7+"), &serde_json::json!([4])),
        "{pgn}"
    );
    let said = rf7[2]
        .as_str()
        .unwrap_or_default()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        said.starts_with("tablebase: draw; (TB 1-0 → TB draw) Blunder. "),
        "{pgn}"
    );
    let best = said
        .split(". ")
        .nth(1)
        .and_then(|s| s.strip_suffix(" was best; in hand 0.3 s"))
        .expect("a best move");
    assert_ne!(best, "Rf7+", "{pgn}");
    let before = read["before"].as_str().unwrap_or_default();
    assert!(before.contains("judged by the Syzygy tables"), "{pgn}");
}
