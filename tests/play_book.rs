//! `touchmove play`'s levels and books, with real parts: an opening book made by Debian's
//! Polyglot (`polyglot make-book`) from the six games of Kasparov–Deep Blue 1997 in the corpus,
//! read back by python-chess; Stockfish and Ethereal (a second engine, which has neither
//! `UCI_Elo` nor `Skill Level`) behind a wrapper that keeps every line the engine was sent;
//! an emulated DGT board on a pseudo-terminal whose hands play White from a script and carry
//! out the engine's moves as the clock shows them.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess};

use common::emulator::emulate_with;
use common::tools::{ethereal, polyglot, require_python_chess, stockfish};
use touchmove::engine::book::Book;

/// The corpus games the book is made from.
fn book_games() -> PathBuf {
    common::emulator::root().join("fixtures/corpus/kasparov-deep-blue-1997.pgn")
}

/// A book made by Polyglot from the corpus games, their first `max_ply` plies, every move
/// played once counted (`-min-game 1`), weighted as Polyglot weighs (2 a win, 1 a draw, a
/// loss's move left out).
fn make_book(dir: &Path, max_ply: u32) -> PathBuf {
    let book = dir.join("db.bin");
    let output = Command::new(polyglot())
        .arg("make-book")
        .args(["-pgn", book_games().to_str().expect("a path")])
        .args(["-bin", book.to_str().expect("a path")])
        .args(["-min-game", "1", "-max-ply", &max_ply.to_string()])
        .output()
        .expect("polyglot runs");
    assert!(
        output.status.success() && book.exists(),
        "polyglot make-book: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    book
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("touchmove-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    dir
}

/// What python-chess reads in `book` for every position of the corpus games' first `plies`:
/// each position's FEN and its moves (UCI, weight) in the book's order.
fn python_chess_book(book: &Path, plies: usize) -> Vec<(String, Vec<(String, u16)>)> {
    require_python_chess();
    let script = r#"
import json, sys
import chess.pgn, chess.polyglot
reader = chess.polyglot.open_reader(sys.argv[1])
with open(sys.argv[2]) as games:
    while (game := chess.pgn.read_game(games)) is not None:
        board = game.board()
        for move in list(game.mainline_moves())[: int(sys.argv[3])]:
            found = [[e.move.uci(), e.weight] for e in reader.find_all(board)]
            print(json.dumps({"fen": board.fen(), "moves": found}))
            board.push(move)
"#;
    let output = Command::new("python3")
        .args(["-c", script])
        .arg(book)
        .arg(book_games())
        .arg(plies.to_string())
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    common::json_lines(&output.stdout)
        .iter()
        .map(|line| {
            let fen = line["fen"].as_str().expect("a FEN").to_owned();
            let moves = line["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .map(|m| {
                    let uci = m[0].as_str().expect("a move").to_owned();
                    let weight = u16::try_from(m[1].as_u64().expect("a weight")).expect("u16");
                    (uci, weight)
                })
                .collect();
            (fen, moves)
        })
        .collect()
}

#[test]
fn a_book_made_by_polyglot_reads_as_python_chess_reads_it() {
    let dir = temp_dir("book-read");
    let book_path = make_book(&dir, 24);
    let book = Book::from_bytes(&std::fs::read(&book_path).expect("the book")).expect("a book");
    let expected = python_chess_book(&book_path, 24);
    let mut in_book = 0;
    let mut choices = 0;
    let mut castles = 0;
    for (fen, moves) in &expected {
        let position: Chess = Fen::from_ascii(fen.as_bytes())
            .ok()
            .and_then(|fen| fen.into_position(CastlingMode::Standard).ok())
            .expect("a position");
        let ours: Vec<(String, u16)> = book
            .moves(&position)
            .iter()
            .map(|m| (UciMove::from_standard(m.chess_move).to_string(), m.weight))
            .collect();
        assert_eq!(&ours, moves, "{fen}");
        in_book += usize::from(!moves.is_empty());
        choices += usize::from(moves.len() > 1);
        castles += moves
            .iter()
            .filter(|(uci, _)| ["e1g1", "e8g8", "e1c1", "e8c8"].contains(&uci.as_str()))
            .count();
    }
    // Not a comparison of empty lists: the book has the games' openings, several moves in
    // some positions, castling among them (Kasparov's 6. O-O in game 1, a win: weight 2).
    assert!(in_book >= 40, "{in_book} positions in the book");
    assert!(choices >= 2, "{choices} positions with a choice");
    assert!(castles >= 1, "no castling in the book");
    let _ = std::fs::remove_dir_all(&dir);
}

/// What a game of `play` with the book came to.
struct BookGame {
    events: Vec<Value>,
    /// Every line the engine was sent.
    uci: String,
    pgn: String,
    log: PathBuf,
    dir: PathBuf,
    /// With the page: the names it showed for Black, and the engine's last score it showed.
    page: Option<(String, String)>,
}

/// Plays White's moves of Deep Blue–Kasparov, game 4 (`1. e4 c6 2. d4 d6 3. Nf3 Nf6 4. Nc3
/// Bg4 5. h3 Bh5 6. Bd3`) against `engine` (Black, with `strength` and the book of the six
/// games' first 10 plies), carries out its sixth move, then resigns at the keyboard. With
/// `page`, the game's live page is opened in headless Chromium.
fn book_game(name: &str, engine: &str, strength: &[&str], page: bool) -> BookGame {
    let dir = temp_dir(&format!("book-game-{name}"));
    let book = make_book(&dir, 10);
    let uci_log = dir.join("uci.log");
    let wrapper = dir.join("engine.sh");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\ntee -a '{}' | exec '{engine}'\n",
            uci_log.display()
        ),
    )
    .expect("written");
    std::fs::set_permissions(
        &wrapper,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .expect("executable");
    let script = dir.join("game.pgn");
    std::fs::write(
        &script,
        "[Event \"play\"]\n\n1. e4 c6 2. d4 d6 3. Nf3 Nf6 4. Nc3 Bg4 5. h3 Bh5 6. Bd3 *\n",
    )
    .expect("written");
    let board = emulate_with(
        "dgt",
        &[
            "--pgn",
            script.to_str().expect("a path"),
            "--follow",
            "black",
            "--speed",
            "5",
            "--grace-ms",
            "300000",
        ],
        Stdio::null(),
    );
    let (pgn, log) = (dir.join("out.pgn"), dir.join("game.log"));
    let listen: &[&str] = if page {
        &["--listen", "127.0.0.1:0"]
    } else {
        &[]
    };
    let mut play = common::bin()
        .args(["play", "--engine", wrapper.to_str().expect("a path")])
        .args(strength)
        .args(listen)
        .args(["--movetime", "300", "--color", "white"])
        .args(["--book", book.to_str().expect("a path"), "--book-seed", "7"])
        .args(["--port", &board.port, "--json"])
        .args(common::SHORT_WINDOWS)
        .args(["--pgn", pgn.to_str().expect("a path")])
        .args(["--record", log.to_str().expect("a path")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("play starts");
    let said = common::child::lines_of(play.stderr.take().expect("stderr"));
    let browser = page.then(|| {
        // With --json the page's address is said on standard error.
        let address = common::child::page_address(&said);
        let browser = common::browser::Browser::start(1280, 800);
        browser.open(&address);
        browser
    });
    std::thread::spawn(move || {
        while let Ok(line) = said.recv() {
            eprintln!("{line}");
        }
    });
    let lines = common::child::lines_of(play.stdout.take().expect("stdout"));
    let mut events = Vec::new();
    let next = |events: &mut Vec<Value>| -> Value {
        let line = lines
            .recv_timeout(Duration::from_secs(180))
            .unwrap_or_else(|_| panic!("play went quiet; so far: {events:?}"));
        let event: Value = serde_json::from_str(&line).expect("JSON");
        events.push(event.clone());
        event
    };
    // The engine's sixth move, out of the book, carried out: then White resigns.
    while !(next(&mut events)["kind"] == "move" && events.last().is_some_and(|e| e["ply"] == 12)) {}
    {
        use std::io::Write;
        let mut keys = play.stdin.take().expect("stdin");
        writeln!(keys, "resign").expect("typed");
    }
    while next(&mut events)["kind"] != "result" {}
    let page = browser.map(|browser| {
        let within = Duration::from_secs(60);
        let black = browser.text_when("#black-name", within, |text| text.contains("Stockfish"));
        browser.text_when("#result", within, |text| !text.is_empty());
        let score = browser.text_when("#engine-score", within, |_| true);
        if let Ok(dir) = std::env::var("TOUCHMOVE_SCREENSHOTS") {
            browser.screenshot(&Path::new(&dir).join("play-book.png"));
        }
        (black, score)
    });
    common::child::interrupt(&play);
    assert!(play.wait().expect("play ends").success());
    // What it said after the result (the clock's report of the last press) to its end.
    while let Ok(line) = lines.recv_timeout(Duration::from_secs(60)) {
        events.push(serde_json::from_str(&line).expect("JSON"));
    }
    drop(board);
    BookGame {
        events,
        uci: std::fs::read_to_string(&uci_log).expect("the engine's input"),
        pgn: std::fs::read_to_string(&pgn).expect("the PGN"),
        log,
        dir,
        page,
    }
}

/// The checks both engines' games get.
fn check_book_game(game: &BookGame) {
    let events = &game.events;
    // The engine's first five moves are the book's: after each of White's moves the book
    // holds one Black move of a weight above 0, game 4's (a draw: weight 1; game 6's 2...
    // d5 and game 2's 1... e5 were Kasparov's losses, weight 0, left out by Polyglot).
    let engine: Vec<&Value> = events.iter().filter(|e| e["kind"] == "engine").collect();
    let chosen: Vec<(&str, bool)> = engine
        .iter()
        .map(|e| (e["san"].as_str().unwrap_or(""), e["book"] == true))
        .collect();
    assert_eq!(
        chosen.get(..5),
        Some(
            &[
                ("c6", true),
                ("d6", true),
                ("Nf6", true),
                ("Bg4", true),
                ("Bh5", true)
            ][..]
        ),
        "{events:?}"
    );
    // The sixth is the engine's own (the book ends at ply 10), with its score.
    assert_eq!(engine.len(), 6, "{events:?}");
    let own = engine.last().expect("six");
    assert!(own.get("book").is_none(), "{own}");
    assert!(own["score_cp"].is_i64() || own["mate"].is_i64(), "{own}");
    for book_move in &engine[..5] {
        assert!(book_move.get("score_cp").is_none() && book_move.get("mate").is_none());
    }
    // The engine was asked once only, in the position out of the book.
    let asked: Vec<&str> = game
        .uci
        .lines()
        .filter(|line| line.starts_with("position") || line.starts_with("go"))
        .collect();
    assert_eq!(
        asked,
        [
            "position startpos moves e2e4 c7c6 d2d4 d7d6 g1f3 g8f6 b1c3 c8g4 h2h3 g4h5 f1d3",
            "go movetime 300"
        ],
        "{}",
        game.uci
    );
    // A whole game: twelve plies, then White's resignation.
    let result = events
        .iter()
        .find(|e| e["kind"] == "result")
        .expect("a result");
    assert_eq!(
        (&result["result"], &result["reason"]),
        (&"0-1".into(), &"resignation".into())
    );
    let games = common::recorded_games(events);
    assert_eq!(games.len(), 1);
    let played = games.first().expect("a game");
    assert_eq!(played.len(), 12, "{played:?}");
    assert_eq!(
        played.get(..11).map(|s| s.join(" ")).as_deref(),
        Some("e4 c6 d4 d6 Nf3 Nf6 Nc3 Bg4 h3 Bh5 Bd3")
    );
    // The recording keeps the book's moves as such: its replay is the session, event for
    // event (the link's state is the live session's alone).
    let recorded = std::fs::read_to_string(&game.log).expect("the log");
    assert!(recorded.contains(" c7c6 book\n"), "{recorded}");
    let replayed = common::touchmove_ok(&["replay", "--json", game.log.to_str().expect("a path")]);
    let replayed = common::json_lines(replayed.as_bytes());
    let decided: Vec<&Value> = events
        .iter()
        .filter(|e| !crate::common::live_only(e))
        .collect();
    assert_eq!(replayed.iter().collect::<Vec<_>>(), decided);
    // python-chess reads the PGN back as the game.
    assert_eq!(
        common::python_chess_games(std::slice::from_ref(&game.pgn)),
        vec![vec![played.clone()]]
    );
}

/// An engine event's score (from the engine's side, Black's here) as the page writes it,
/// from White's side: `+0.31`, `-1.50`, `#3`, `#-2`.
fn white_side_score(event: &Value) -> String {
    assert_eq!(event["color"], "black", "{event}");
    match (event["mate"].as_i64(), event["score_cp"].as_i64()) {
        (Some(mate), _) => format!("#{}", -mate),
        (None, Some(cp)) => {
            let sign = if cp < 0 { "+" } else { "" };
            format!("{sign}{:.2}", -cp as f64 / 100.0)
        }
        (None, None) => String::new(),
    }
}

#[test]
fn stockfish_at_elo_1500_with_a_book_plays_the_book_s_moves_first_and_is_set_as_asked() {
    let game = book_game("stockfish", &stockfish(), &["--elo", "1500"], true);
    check_book_game(&game);
    // The page names the engine with the strength it plays at, and its last score (its own
    // move's, out of the book) from White's side.
    let (black, score) = game.page.clone().expect("the page");
    assert!(black.contains("Elo 1500, book db.bin"), "{black}");
    let own = game
        .events
        .iter()
        .rev()
        .find(|e| e["kind"] == "engine")
        .expect("an engine move");
    assert_eq!(score, white_side_score(own), "{own}");
    // The strength was set as asked, and the PGN (the page's names) says it.
    let lines: Vec<&str> = game.uci.lines().collect();
    assert!(
        lines.contains(&"setoption name UCI_LimitStrength value true"),
        "{}",
        game.uci
    );
    assert!(
        lines.contains(&"setoption name UCI_Elo value 1500"),
        "{}",
        game.uci
    );
    assert!(
        game.pgn.contains("[Black \"Stockfish")
            && game
                .pgn
                .contains("(movetime 300 ms, Elo 1500, book db.bin)\"]"),
        "{}",
        game.pgn
    );
    let _ = std::fs::remove_dir_all(&game.dir);
}

#[test]
fn ethereal_with_a_book_plays_the_book_s_moves_first_and_is_set_with_no_strength() {
    let game = book_game("ethereal", &ethereal(), &[], false);
    check_book_game(&game);
    assert!(!game.uci.contains("setoption"), "{}", game.uci);
    assert!(
        game.pgn
            .contains("[Black \"Ethereal 12.00 (movetime 300 ms, book db.bin)\"]"),
        "{}",
        game.pgn
    );
    let _ = std::fs::remove_dir_all(&game.dir);
}

#[test]
fn a_strength_the_engine_cannot_play_at_and_a_book_that_is_none_are_refused_saying_why() {
    let dir = temp_dir("book-refused");
    let never = dir.join("no-board");
    let run = |args: &[&str]| {
        let output = common::bin()
            .args(["play", "--port", never.to_str().expect("a path")])
            .args(args)
            .output()
            .expect("play runs");
        assert!(!output.status.success(), "{args:?}");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let said = run(&["--engine", &ethereal(), "--elo", "1500"]);
    assert!(
        said.contains("--elo 1500: Ethereal 12.00 has no `UCI_Elo` option")
            && said.contains("Its options: Hash, Threads"),
        "{said}"
    );
    let said = run(&["--engine", &ethereal(), "--skill", "3"]);
    assert!(
        said.contains("--skill 3: Ethereal 12.00 has no `Skill Level` option"),
        "{said}"
    );
    // Not a book: its length, then its order.
    let odd = dir.join("odd.bin");
    std::fs::write(&odd, [0_u8; 17]).expect("written");
    let said = run(&[
        "--engine",
        &stockfish(),
        "--book",
        odd.to_str().expect("a path"),
    ]);
    assert!(
        said.contains("not a Polyglot book: 17 bytes are no whole number"),
        "{said}"
    );
    let missing = dir.join("missing.bin");
    let said = run(&[
        "--engine",
        &stockfish(),
        "--book",
        missing.to_str().expect("a path"),
    ]);
    assert!(said.contains("missing.bin: cannot read it"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}
