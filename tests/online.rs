//! `touchmove online` end to end: a local stand-in for the Lichess Board API (written from its
//! published description, `common::lichess`), an emulated board on a real pseudo-terminal (a
//! Bluetooth family's behind the BlueZ stand-in, through the real Bluetooth code) whose hands
//! play White from a script and carry out Black's moves as the host shows them
//! (`emulate --follow black`), and the stand-in's scripted opponent playing Black's moves of
//! the same game. Checked: the server's game is the game, each move sent once, the opponent's
//! moves announced and carried out as shown, the token in no output, and the recording replays
//! to what the session decided.

use crate::common;

use std::process::Stdio;

use serde_json::Value;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Position};

use common::ble::emulate_any;
use common::emulator::emulate_with;
use common::lichess::{Announce, CHALLENGE, GAME, Script, StandIn, TOKEN, script_pgn};
use common::watching::source_game;

/// The plies played.
const PLIES: usize = 30;

/// The first `PLIES` plies of a real game (Kasparov - Deep Blue, 1997, game 1), in SAN and UCI.
fn game() -> (Vec<String>, Vec<String>) {
    let sans: Vec<String> = source_game("corpus/kasparov-deep-blue-1997.pgn", 1)
        .into_iter()
        .take(PLIES)
        .collect();
    let ucis = ucis_of(Chess::default(), &sans);
    (sans, ucis)
}

/// The game `sans` from `start` in UCI as the API writes it: castling as the king's two squares
/// in standard chess, as the king taking its rook in Chess960 (`start`'s castling mode).
fn ucis_of(start: Chess, sans: &[String]) -> Vec<String> {
    let mut position = start;
    let mode = position.castles().mode();
    sans.iter()
        .map(|san| {
            let m = san
                .parse::<SanPlus>()
                .expect("a SAN")
                .san
                .to_move(&position)
                .expect("legal");
            position.play_unchecked(m);
            UciMove::from_move(m, mode).to_string()
        })
        .collect()
}

/// What `online` made of the game on an emulated `board`.
struct Played {
    events: Vec<Value>,
    stdout: String,
    stderr: String,
    emulator: String,
    replayed: Vec<Value>,
}

/// `touchmove online` against `standin` for one game on the emulated `board` at `port`, its
/// decisions as JSON lines, recorded at `log`, with the short windows the emulated hands use.
fn online_command(
    standin: &StandIn,
    board: &str,
    port: &str,
    log: &std::path::Path,
) -> std::process::Command {
    let mut command = common::bin();
    command
        .env("LICHESS_TOKEN", TOKEN)
        .args(["online", "--lichess-url", &standin.url, "--games", "1"])
        .args(["--protocol", board, "--port", port, "--json"])
        .args(common::SHORT_WINDOWS)
        .args(["--record", log.to_str().expect("a path")]);
    command
}

/// `command` running, its standard input, output and error piped to the test.
fn spawn_piped(mut command: std::process::Command) -> std::process::Child {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("online runs")
}

/// An emulated `board` whose hands play the sensor log `script` (written in `dir`), answering
/// a minute after it: the board, and where the session is to record in `dir`.
fn scripted_board(
    dir: &std::path::Path,
    board: &str,
    script: &str,
) -> (common::emulator::Emulator, std::path::PathBuf) {
    let hands = dir.join("hands.log");
    std::fs::write(&hands, script).expect("written");
    let hands = hands.to_str().expect("a path");
    let args = ["--log", hands, "--grace-ms", "60000"];
    (
        emulate_with(board, &args, Stdio::null()),
        dir.join("game.log"),
    )
}

/// Plays the game on an emulated `board` (its emulator given `faults` too) against the
/// stand-in; with `kill_after`, the session is killed (SIGKILL) once that many moves stand and
/// started again with `--resume`: what is returned is the resumed session's.
fn play_on(
    board: &str,
    faults: &[&str],
    kill_after: Option<usize>,
    standin: &StandIn,
    sans: &[String],
    online_args: &[&str],
) -> Played {
    let pgn = script_pgn("online", sans);
    play_pgn_on(board, faults, kill_after, standin, &pgn, online_args)
}

/// As `play_on`, the hands playing the game `pgn` (its moves, from its `FEN` if it has one).
fn play_pgn_on(
    board: &str,
    faults: &[&str],
    kill_after: Option<usize>,
    standin: &StandIn,
    pgn: &str,
    online_args: &[&str],
) -> Played {
    // A folder of its own: several games on one protocol run side by side.
    static GAMES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let number = GAMES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "touchmove-online-{board}-{}-{number}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("a directory");
    let script = dir.join("game.pgn");
    std::fs::write(&script, pgn).expect("written");
    let emulator_log = dir.join("emulator.log");
    let mut emulate_args = vec![
        "-v",
        "--pgn",
        script.to_str().expect("a path"),
        "--follow",
        "black",
        "--speed",
        "5",
    ];
    emulate_args.extend_from_slice(faults);
    let emulated = emulate_any(
        board,
        &emulate_args,
        Stdio::from(std::fs::File::create(&emulator_log).expect("a log")),
    );
    let log = dir.join("game.log");
    let _ = std::fs::remove_file(&log);
    // One user's data for both sessions: what the first learnt of the board (a Certabo board's
    // chips), the resumed one knows.
    let data = common::fresh_data_dir();
    let online = |extra: &[&str]| {
        let mut command = online_command(standin, board, &emulated.port, &log);
        command
            .envs(emulated.env())
            .env("XDG_DATA_HOME", &data)
            .arg("-vvv")
            .args(online_args)
            .args(extra)
            .stdin(Stdio::null());
        command
    };
    if let Some(moves) = kill_after {
        let first_stderr = dir.join("first.stderr");
        let mut first = online(&[])
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&first_stderr).expect("a file"))
            .spawn()
            .expect("online runs");
        let seen = common::child::await_lines(&mut first, r#""kind":"move""#, moves);
        assert_eq!(
            seen,
            moves,
            "the first session decided too little: {}",
            std::fs::read_to_string(&first_stderr).unwrap_or_default()
        );
        first.kill().expect("killed");
        first.wait().expect("reaped");
    }
    let resume: &[&str] = if kill_after.is_some() {
        &["--resume"]
    } else {
        &[]
    };
    // Its diagnostics go to a file, to be read even when the test is stopped by hand.
    let stderr_file = dir.join("online.stderr");
    let output = online(resume)
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&stderr_file).expect("a file"))
        .output()
        .expect("online runs");
    drop(emulated);
    let stderr = std::fs::read_to_string(&stderr_file).expect("its diagnostics");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{stderr}");
    let replayed = common::watching::replay_with(&log, &[]);
    let played = Played {
        events: common::json_lines(&output.stdout),
        stdout,
        stderr,
        emulator: std::fs::read_to_string(&emulator_log).expect("the emulator's log"),
        replayed,
    };
    let _ = std::fs::remove_dir_all(&dir);
    played
}

/// The stand-in's script for the game: the account plays White, the opponent replies after
/// 300 ms, 10 minutes and 2 s a move.
fn script(ucis: &[String]) -> Script {
    Script::new(Color::White, ucis)
}

/// The checks every game gets: the server's game and the board's record are the game, White's
/// moves taken once each in order (`faults`: the requests answered otherwise, by their number
/// among the move requests), Black's announced and carried out as shown, the server's result,
/// the token in no output, the recording replaying to the session's decisions.
fn check_game(
    standin: &StandIn,
    played: &Played,
    sans: &[String],
    ucis: &[String],
    faults: &[(usize, u16)],
) {
    check_game_carried_out_by(
        standin,
        played,
        (sans, ucis),
        faults,
        ("the hands carry out ", ", as shown"),
    );
}

/// As [`check_game`], Black's moves carried out as the emulator's log says between
/// `carried.0` and `carried.1` (the hands', a robot's).
fn check_game_carried_out_by(
    standin: &StandIn,
    played: &Played,
    (sans, ucis): (&[String], &[String]),
    faults: &[(usize, u16)],
    carried: (&str, &str),
) {
    let (events, stderr) = (&played.events, &played.stderr);
    assert_eq!(standin.moves(), ucis, "{stderr}");
    assert_eq!(
        common::recorded_games(events),
        vec![sans.to_vec()],
        "{stderr}"
    );
    let posts: Vec<(String, u16)> = standin
        .received()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path.starts_with("/api/board/game/"))
        .map(|r| (r.path, r.status))
        .collect();
    let mut expected: Vec<(String, u16)> = ucis
        .iter()
        .step_by(2)
        .map(|uci| (format!("/api/board/game/{GAME}/move/{uci}"), 200))
        .collect();
    // A request answered otherwise comes before the same move's, taken.
    for &(number, status) in faults.iter().rev() {
        let again = expected.get(number).cloned().expect("a faulty request");
        expected.insert(number, (again.0, status));
    }
    assert_eq!(posts, expected, "{stderr}");
    let announced: Vec<&str> = events
        .iter()
        .filter(|e| e["kind"] == "online" && e["what"] == "move")
        .filter_map(|e| e["san"].as_str())
        .collect();
    let black: Vec<&str> = sans.iter().skip(1).step_by(2).map(String::as_str).collect();
    assert_eq!(announced, black, "{stderr}");
    let followed: Vec<&str> = played
        .emulator
        .lines()
        .filter_map(|line| line.split(carried.0).nth(1))
        .filter_map(|rest| rest.strip_suffix(carried.1))
        .collect();
    assert_eq!(followed, black, "{}", played.emulator);
    assert!(
        events.iter().all(|e| e["kind"] != "execution"),
        "{events:?}"
    );
    let result = events
        .iter()
        .find(|e| e["kind"] == "result")
        .expect("a result");
    assert_eq!(result["result"], "1/2-1/2");
    // Nobody broke a rule: no ruling, whatever the hands did with the clock.
    assert_eq!(rulings(events), Vec::<&Value>::new(), "{stderr}");
    for text in [&played.stdout, stderr] {
        assert!(!text.contains(TOKEN), "the token was printed");
    }
    // Live equals replay: the recording (the server's lines and answers in it) replays to
    // every decision the session made; the link's state is the live session's.
    let decided: Vec<&Value> = events.iter().filter(|e| !common::live_only(e)).collect();
    let replayed: Vec<&Value> = played.replayed.iter().collect();
    assert_eq!(replayed, decided, "{stderr}");
}

/// The rulings among `events`: Article 4 violations and illegal moves.
fn rulings(events: &[Value]) -> Vec<&Value> {
    events
        .iter()
        .filter(|e| e["kind"] == "violation" || e["kind"] == "illegal")
        .collect()
}

/// Live equals replay: the recording at `log` (the server's lines and answers in it) replays to
/// every decision of the session's `events`; the link's state is the live session's alone.
fn assert_replays_to(log: &std::path::Path, events: &[Value], stderr: &str) {
    let decided: Vec<&Value> = events.iter().filter(|e| !common::live_only(e)).collect();
    let replayed = common::watching::replay_with(log, &[]);
    assert_eq!(replayed.iter().collect::<Vec<_>>(), decided, "{stderr}");
}

/// The board was lost in the game and came back.
fn assert_unplugged(played: &Played) {
    let states: Vec<&str> = played
        .events
        .iter()
        .filter(|e| e["kind"] == "link")
        .filter_map(|e| e["state"].as_str())
        .collect();
    assert_eq!(states, ["lost", "back"], "{}", played.stderr);
}

#[test]
fn a_cut_stream_a_429_a_500_a_10_s_unplug_and_a_kill_lose_nothing_and_send_nothing_twice_on_a_dgt_board()
 {
    let (sans, ucis) = game();
    let standin = StandIn::start(Script {
        cut_stream_after: Some(8),
        rate_limit_moves: vec![3],
        fail_moves: vec![6],
        ..script(&ucis)
    });
    // The board unplugged for 10 s (the emulator's time) in the middle of the game.
    let unplug = ["--unplug-at", "40000", "--unplug-for", "10000"];
    let played = play_on("dgt", &unplug, Some(11), &standin, &sans, &[]);
    // The 429 is the fourth move request, sent again once; the 500 the seventh request, not
    // taken by the server, sent again once the stream said so.
    check_game(&standin, &played, &sans, &ucis, &[(3, 429), (5, 500)]);
    let streams = standin
        .received()
        .iter()
        .filter(|r| r.path == format!("/api/board/game/stream/{GAME}"))
        .count();
    assert!(
        streams >= 3,
        "the cut stream and the lost answer open the stream again: {streams}"
    );
    assert_unplugged(&played);
    assert!(played.stderr.contains("resumed: "), "{}", played.stderr);
}

#[test]
fn a_cut_stream_a_429_a_500_a_10_s_unplug_and_a_kill_on_a_hall_board() {
    let (sans, ucis) = game();
    let standin = StandIn::start(Script {
        cut_stream_after: Some(12),
        rate_limit_moves: vec![2],
        fail_moves: vec![8],
        ..script(&ucis)
    });
    let unplug = ["--unplug-at", "40000", "--unplug-for", "10000"];
    let played = play_on("hall", &unplug, Some(9), &standin, &sans, &[]);
    check_game(&standin, &played, &sans, &ucis, &[(2, 429), (7, 500)]);
    assert_unplugged(&played);
    assert!(played.stderr.contains("resumed: "), "{}", played.stderr);
}

#[test]
fn a_cut_stream_a_429_a_500_a_10_s_unplug_and_a_kill_on_a_chesslink_board() {
    cut_stream_unplug_and_kill_on("chesslink", &[]);
}

#[test]
fn a_cut_stream_a_429_a_500_a_10_s_unplug_and_a_kill_on_a_certabo_rfid_board() {
    // The chips learnt from the start position and the spare queens are kept: the session
    // resumed mid-game reads the pieces at once.
    let played = cut_stream_unplug_and_kill_on("certabo", &[]);
    assert!(
        !played.stderr.contains("learning the pieces' chips"),
        "the resumed session had to learn the chips: {}",
        played.stderr
    );
}

#[test]
fn a_cut_stream_a_429_a_500_a_10_s_unplug_and_a_kill_on_a_certabo_sentio_board() {
    // Occupancy only: the moves, the opponent's carried out as the lights show, are told from
    // the squares that empty and fill, and the session resumed mid-game reads the board whole.
    let played = cut_stream_unplug_and_kill_on("certabo", &["--sentio"]);
    assert!(
        played.stderr.contains("a Sentio board senses occupancy"),
        "{}",
        played.stderr
    );
}

/// A game online on serial board `board` (emulated with `emulated_args` too): the stream cut
/// after 10 lines, the first move request answered 500 and the fourth 429, the board unplugged
/// 40 s in for 10 s, the session killed after 13 moves and resumed; nothing lost, nothing sent
/// twice.
fn cut_stream_unplug_and_kill_on(board: &str, emulated_args: &[&str]) -> Played {
    let (sans, ucis) = game();
    let standin = StandIn::start(Script {
        cut_stream_after: Some(10),
        rate_limit_moves: vec![4],
        fail_moves: vec![1],
        ..script(&ucis)
    });
    let mut faults = vec!["--unplug-at", "40000", "--unplug-for", "10000"];
    faults.extend_from_slice(emulated_args);
    let played = play_on(board, &faults, Some(13), &standin, &sans, &[]);
    check_game(&standin, &played, &sans, &ucis, &[(1, 500), (3, 429)]);
    assert_unplugged(&played);
    assert!(played.stderr.contains("resumed: "), "{}", played.stderr);
    played
}

/// A game online on Bluetooth board `family` (through the real Bluetooth code and the BlueZ
/// stand-in): a cut stream, a 429 and a 500 from the server, the board's link dropped for 10 s
/// and the session killed and resumed lose nothing and send nothing twice.
fn online_over_bluetooth(family: &str) {
    online_over_bluetooth_carried_out_by(family, ("the hands carry out ", ", as shown"));
}

/// As [`online_over_bluetooth`], the opponent's moves carried out as the emulator's log says
/// between `carried.0` and `carried.1`.
fn online_over_bluetooth_carried_out_by(family: &str, carried: (&str, &str)) {
    let (sans, ucis) = game();
    let standin = StandIn::start(Script {
        cut_stream_after: Some(10),
        rate_limit_moves: vec![4],
        fail_moves: vec![1],
        ..script(&ucis)
    });
    let drop = ["--unplug-at", "40000", "--unplug-for", "10000"];
    let played = play_on(family, &drop, Some(13), &standin, &sans, &[]);
    let faults = [(1, 500), (3, 429)];
    check_game_carried_out_by(&standin, &played, (&sans, &ucis), &faults, carried);
    assert_unplugged(&played);
    assert!(played.stderr.contains("resumed: "), "{}", played.stderr);
}

#[test]
fn a_cut_stream_a_429_a_500_a_10_s_drop_and_a_kill_on_a_chessnut_board_over_bluetooth() {
    online_over_bluetooth("chessnut");
}

/// On a Chessnut Move its robot, not the hands, carries out the opponent's moves.
#[test]
fn a_cut_stream_a_429_a_500_a_10_s_drop_and_a_kill_on_a_chessnut_move_whose_robot_plays_black() {
    online_over_bluetooth_carried_out_by("chessnut-move", ("the robot carries out ", ", as sent"));
}

#[test]
fn a_cut_stream_a_429_a_500_a_10_s_drop_and_a_kill_on_a_pegasus_over_bluetooth() {
    online_over_bluetooth("pegasus");
}

#[test]
fn a_cut_stream_a_429_a_500_a_10_s_drop_and_a_kill_on_an_eone_over_bluetooth() {
    online_over_bluetooth("eone");
}

#[test]
fn a_cut_stream_a_429_a_500_a_10_s_drop_and_a_kill_on_a_square_off_over_bluetooth() {
    online_over_bluetooth("squareoff");
}

/// A whole game on an emulated DGT board with a DGT 3000, whose lever bit follows the host's
/// settings of the server's clock, the hands pressing the clock as `presses` says: every check
/// of a game, no ruling among them (the host's settings are no presses; the opponent's side,
/// whose moves the player carries out, is never judged for a press).
fn a_dgt_3000_game_pressing(presses: &str) {
    let (sans, ucis) = game();
    let standin = StandIn::start(script(&ucis));
    let hands = [
        "--clock",
        "3000",
        "--presses",
        presses,
        "--thinking",
        "300-2000",
    ];
    let played = play_on("dgt", &hands, None, &standin, &sans, &[]);
    check_game(&standin, &played, &sans, &ucis, &[]);
}

#[test]
fn a_player_who_presses_after_every_move_carried_out_earns_no_ruling_on_a_dgt_3000() {
    a_dgt_3000_game_pressing("every");
}

#[test]
fn a_player_who_presses_after_their_own_moves_only_earns_no_ruling_on_a_dgt_3000() {
    a_dgt_3000_game_pressing("own");
}

#[test]
fn a_player_who_never_presses_earns_no_ruling_on_a_dgt_3000() {
    a_dgt_3000_game_pressing("never");
}

#[test]
fn resign_typed_at_the_terminal_resigns_the_game_on_the_server() {
    use std::io::{BufRead, BufReader, Write};
    let (sans, ucis) = game();
    let standin = StandIn::start(script(&ucis));
    let dir = std::env::temp_dir().join(format!("touchmove-online-keys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let pgn = dir.join("game.pgn");
    std::fs::write(&pgn, script_pgn("online", &sans)).expect("written");
    let pgn_arg = pgn.to_str().expect("a path");
    let emulate_args = ["--pgn", pgn_arg, "--follow", "black", "--speed", "5"];
    let emulated = emulate_with("dgt", &emulate_args, Stdio::null());
    let log = dir.join("game.log");
    let mut online = spawn_piped(online_command(&standin, "dgt", &emulated.port, &log));
    let mut keyboard = online.stdin.take().expect("stdin");
    let stdout = BufReader::new(online.stdout.take().expect("stdout"));
    let mut lines = Vec::new();
    for line in stdout.lines().map_while(Result::ok) {
        let event: Value = serde_json::from_str(&line).unwrap_or_default();
        // Four plies stand: the player types `resign`.
        if event["kind"] == "move" && event["ply"] == 4 {
            keyboard.write_all(b"resign\n").expect("typed");
        }
        lines.push(event);
    }
    let output = online.wait_with_output().expect("online ends");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{stderr}");
    drop(emulated);
    let posts: Vec<String> = standin
        .received()
        .into_iter()
        .filter(|r| r.method == "POST" && r.status == 200)
        .map(|r| r.path)
        .collect();
    assert_eq!(
        posts.last().map(String::as_str),
        Some(format!("/api/board/game/{GAME}/resign").as_str()),
        "{stderr}"
    );
    let result = lines
        .iter()
        .find(|e| e["kind"] == "result")
        .expect("a result");
    assert_eq!(result["result"], "0-1", "White resigned: {stderr}");
    // The recording replays to the same decisions.
    assert_replays_to(&log, &lines, &stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_challenge_from_the_user_named_by_accept_is_accepted_and_played() {
    let (sans, ucis) = game();
    let standin = StandIn::start(Script {
        announce: Announce::Challenge("mary"),
        ..script(&ucis)
    });
    let played = play_on("dgt", &[], None, &standin, &sans, &["--accept", "Mary"]);
    check_game(&standin, &played, &sans, &ucis, &[]);
    let accepts: Vec<(String, u16)> = standin
        .received()
        .into_iter()
        .filter(|r| r.path.starts_with("/api/challenge/"))
        .map(|r| (r.path, r.status))
        .collect();
    assert_eq!(
        accepts,
        [(format!("/api/challenge/{CHALLENGE}/accept"), 200)],
        "{}",
        played.stderr
    );
}

/// The form of the one seek the stand-in received (a session posts one seek for its game).
fn the_one_seek_form(standin: &StandIn) -> String {
    let seeks: Vec<String> = standin
        .received()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path.starts_with("/api/board/seek"))
        .map(|r| r.path)
        .collect();
    assert_eq!(seeks.len(), 1, "one seek: {seeks:?}");
    seeks[0]
        .split_once('?')
        .map(|(_, form)| form.to_owned())
        .unwrap_or_default()
}

#[test]
fn a_seek_is_posted_with_its_time_control_and_its_game_played() {
    let (sans, ucis) = game();
    let standin = StandIn::start(Script {
        announce: Announce::Seek,
        ..script(&ucis)
    });
    let seek = ["--seek", "10+2", "--rated", "--color", "white"];
    let played = play_on("dgt", &[], None, &standin, &sans, &seek);
    check_game(&standin, &played, &sans, &ucis, &[]);
    let form = the_one_seek_form(&standin);
    for field in ["time=10", "increment=2", "rated=true", "color=white"] {
        assert!(form.split('&').any(|f| f == field), "{field} in {form}");
    }
}

#[test]
fn a_chess960_game_sought_with_variant_chess960_is_played_castling_as_the_api_writes_it() {
    // Position 48, BBNNRQKR, as in tests/chess960.rs: White castles by the rook alone, h1 to f1
    // over its king on g1; Black by king and rook, g8 to c8 and e8 to d8.
    let fen = "bbnnrqkr/pppppppp/8/8/8/8/PPPPPPPP/BBNNRQKR w KQkq - 0 1";
    let sans: Vec<String> = [
        "f3", "Nb6", "Qf2", "Ne6", "O-O", "f6", "e3", "Qf7", "d3", "O-O-O",
    ]
    .map(str::to_owned)
    .to_vec();
    let start = touchmove::rules::chess960::position(48).expect("position 48");
    let ucis = ucis_of(start, &sans);
    // The API writes castling in Chess960 as the king taking its rook.
    assert_eq!((ucis[4].as_str(), ucis[9].as_str()), ("g1h1", "g8e8"));
    let standin = StandIn::start(Script {
        announce: Announce::Seek,
        initial_fen: Some(fen),
        variant: "chess960",
        ..script(&ucis)
    });
    let pgn = script_pgn("online", &sans).replace(
        "[Event \"online\"]\n",
        &format!("[Event \"online\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n"),
    );
    let seek = ["--seek", "10+2", "--variant", "chess960"];
    let played = play_pgn_on("dgt", &[], None, &standin, &pgn, &seek);
    // Every check of a game: White's castling sent as g1h1, Black's g8e8 shown and carried
    // out, the result, the replay.
    check_game(&standin, &played, &sans, &ucis, &[]);
    let form = the_one_seek_form(&standin);
    assert!(form.split('&').any(|f| f == "variant=chess960"), "{form}");
    // The player is told what to set up.
    assert!(
        played
            .stderr
            .contains(&format!("Chess960 position 48: set up {fen}")),
        "{}",
        played.stderr
    );
}

#[test]
fn a_start_of_its_own_is_refused_online_saying_how_to_play_chess960() {
    for given in [
        ["--chess960", "48"],
        ["--start", "8/8/8/8/8/8/8/K1k5 w - - 0 1"],
    ] {
        let output = common::touchmove(
            &["online", given[0], given[1], "--port", "/nonexistent"],
            None,
        );
        assert!(!output.status.success());
        let said = String::from_utf8_lossy(&output.stderr);
        assert!(
            said.contains(&format!(
                "{}: an online game starts from the position the server gives",
                given[0]
            )) && said.contains("--variant chess960"),
            "{said}"
        );
    }
}

#[test]
fn online_offers_no_start_nor_clock_of_its_own_and_refuses_a_time_control() {
    let help = common::touchmove(&["online", "--help"], None);
    assert!(help.status.success());
    let help = String::from_utf8_lossy(&help.stdout);
    for hidden in ["--start", "--chess960", "--time-control"] {
        assert!(!help.contains(hidden), "{hidden} in:\n{help}");
    }
    assert!(help.contains("--seek") && help.contains("--port"), "{help}");
    let output = common::touchmove(
        &[
            "online",
            "--time-control",
            "300+2",
            "--port",
            "/nonexistent",
        ],
        None,
    );
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("--time-control: an online game's clock is the server's")
            && said.contains("--seek MIN+INC"),
        "{said}"
    );
}

/// The seconds a clock's text (`9:58`, `1:02:03`) shows.
fn shown_seconds(text: &str) -> Option<u64> {
    text.split(':').try_fold(0u64, |seconds, part| {
        Some(seconds * 60 + part.parse::<u64>().ok()?)
    })
}

#[test]
fn the_page_shows_the_game_and_the_server_s_clock_and_its_buttons_ask_the_server() {
    use std::time::Duration;
    // Eight plies; with the eighth the opponent offers a draw, then thinks on and on.
    let (sans, ucis) = game();
    let standin = StandIn::start(Script {
        offer_draw_at: Some(8),
        silent_after: Some(8),
        accepts_draw: true,
        ..script(&ucis)
    });
    let dir = std::env::temp_dir().join(format!("touchmove-online-page-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let pgn = dir.join("game.pgn");
    std::fs::write(&pgn, script_pgn("online", &sans[..8])).expect("written");
    let pgn_arg = pgn.to_str().expect("a path");
    let emulate_args = [
        "--pgn",
        pgn_arg,
        "--follow",
        "black",
        "--speed",
        "5",
        "--grace-ms",
        "600000",
    ];
    let emulated = emulate_with("dgt", &emulate_args, Stdio::null());
    let log = dir.join("game.log");
    let mut online = online_command(&standin, "dgt", &emulated.port, &log)
        .args(["--listen", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("online runs");
    let said = common::child::lines_of(online.stderr.take().expect("stderr"));
    let mut stderr = Vec::new();
    let url = loop {
        let line = said
            .recv_timeout(Duration::from_secs(60))
            .expect("online says where its page is");
        if let Some(url) = line.split("the game's page is at ").nth(1) {
            break url.to_owned();
        }
        stderr.push(line);
    };
    let events = common::child::lines_of(online.stdout.take().expect("stdout"));
    let address = url
        .trim_start_matches("http://")
        .split('/')
        .next()
        .expect("host:port")
        .to_owned();
    let browser = common::browser::Browser::start(1280, 800);
    browser.open(&url);
    let within = Duration::from_secs(90);
    // The eight plies, the opponent's last carried out, and its draw offer to answer.
    let moves = browser.text_when("#moves", within, |text| {
        text.split_whitespace().count() == 8
    });
    assert_eq!(moves.split_whitespace().collect::<Vec<_>>(), sans[..8]);
    let offer = browser.text_when("#online-offer-text", within, |text| !text.is_empty());
    assert_eq!(offer, "Mary offers a draw");
    let game = browser.text_when("#online-game", within, |text| !text.is_empty());
    let server = standin.url.trim_start_matches("http://");
    assert_eq!(game, format!("{server} · game {GAME}"));
    assert_eq!(
        browser.text_when("#black-name", within, |text| text == "Mary"),
        "Mary"
    );
    // The page's clock is the server's: White's time runs, as the stand-in counts it.
    let page_white = browser.text_when("#white-clock", within, |text| !text.is_empty());
    let [server_white, _] = standin.clock();
    let page_seconds = shown_seconds(&page_white).expect("a clock's text");
    let server_seconds = server_white.div_ceil(1000);
    assert!(
        page_seconds.abs_diff(server_seconds) <= 1,
        "the page shows {page_white}, the server has {server_white} ms"
    );
    if let Ok(dir) = std::env::var("TOUCHMOVE_SCREENSHOTS") {
        browser.screenshot(&std::path::Path::new(&dir).join("online-offer.png"));
    }
    let posted = |path: &str| {
        standin
            .received()
            .iter()
            .filter(|r| r.method == "POST" && r.path == format!("/api/board/game/{GAME}/{path}"))
            .map(|r| r.status)
            .collect::<Vec<u16>>()
    };
    // Declined: the offer leaves the page.
    browser.click("#offer-decline");
    let offer = browser.text_when("#online-offer", within, |text| text.is_empty());
    assert_eq!(offer, "");
    assert_eq!(posted("draw/no"), [200]);
    let note = browser.text_when("#online-note", within, |text| text.starts_with("Decline"));
    assert_eq!(note, "Decline: asked of the server");
    // A takeback proposed, which the opponent declines. The decline's note stays until the
    // page has the proposal's answer, so the wait is for a note about the proposal.
    browser.click("#ask-takeback");
    let note = browser.text_when("#online-note", within, |text| text.starts_with("Propose"));
    assert_eq!(note, "Propose takeback: asked of the server");
    assert_eq!(
        browser.text_when("#ask-takeback", within, |text| text == "Propose takeback"),
        "Propose takeback"
    );
    assert_eq!(posted("takeback/yes"), [200]);
    // Another site's page may not ask; nobody asks for a move.
    let (status, _) = common::http::request(
        &address,
        "POST /api/boards/1/online/resign",
        &format!("Host: {address}\r\nOrigin: http://evil.example\r\n"),
    );
    assert_eq!(status, 403);
    let (status, body) = common::http::request(
        &address,
        "POST /api/boards/1/online/move/e2e4",
        &format!("Host: {address}\r\n"),
    );
    assert_eq!(
        (status, body.trim()),
        (400, "moves are made on the board, not asked for")
    );
    assert!(posted("resign").is_empty());
    // Resigning waits for a second click; a draw offered is accepted and ends the game.
    browser.click("#ask-resign");
    assert_eq!(
        browser.text_when("#ask-resign", within, |text| text == "Confirm: resign"),
        "Confirm: resign"
    );
    browser.click("#ask-draw");
    let result = browser.text_when("#result", within, |text| !text.is_empty());
    assert_eq!(result, "1/2-1/2 · draw agreed or claimed");
    if let Ok(dir) = std::env::var("TOUCHMOVE_SCREENSHOTS") {
        browser.screenshot(&std::path::Path::new(&dir).join("online-drawn.png"));
    }
    assert_eq!(posted("draw/yes"), [200]);
    assert!(posted("resign").is_empty(), "one click does not resign");
    drop(browser);
    let status = online.wait().expect("online ends");
    // Both streams end with the process.
    stderr.extend(said.iter());
    let stderr = stderr.join("\n");
    assert!(status.success(), "{stderr}");
    drop(emulated);
    let lines: Vec<Value> = events
        .iter()
        .map(|line| serde_json::from_str(&line).expect("JSON"))
        .collect();
    assert_eq!(
        common::recorded_games(&lines),
        vec![sans[..8].to_vec()],
        "{stderr}"
    );
    assert!(!stderr.contains(TOKEN), "the token was printed");
    // The recording replays to the same decisions, the draw included.
    assert_replays_to(&log, &lines, &stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_result_gesture_asks_the_server_kings_on_dark_squares_resign_white_s_game() {
    // 1. e4 e6 at the board; then both kings on dark centre squares (d4, e5): 0-1, which for
    // the player of White is a resignation, asked of the server.
    let ucis: Vec<String> = ["e2e4", "e7e6", "d2d4", "d7d5"]
        .iter()
        .map(|uci| (*uci).to_owned())
        .collect();
    let standin = StandIn::start(script(&ucis));
    let dir = std::env::temp_dir().join(format!("touchmove-online-gesture-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let (emulated, log) = scripted_board(
        &dir,
        "dgt",
        "touchmove-log 1\n1000 lift e2 P\n1300 place e4 P\n\
         3000 lift e7 p\n3300 place e6 p\n\
         5000 lift e1 K\n5300 place d4 K\n5600 lift e8 k\n5900 place e5 k\n",
    );
    let output = online_command(&standin, "dgt", &emulated.port, &log)
        .stdin(Stdio::null())
        .output()
        .expect("online runs");
    drop(emulated);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{stderr}");
    let posts = standin.posts();
    assert_eq!(
        posts,
        [
            (format!("/api/board/game/{GAME}/move/e2e4"), 200),
            (format!("/api/board/game/{GAME}/resign"), 200),
        ],
        "{stderr}"
    );
    let events = common::json_lines(&output.stdout);
    assert_eq!(
        common::recorded_games(&events),
        vec![vec!["e4".to_owned(), "e6".to_owned()]],
        "{stderr}"
    );
    // One result, the server's; the kings' walk is no move, ruling or illegal move.
    let results: Vec<(&Value, &Value)> = events
        .iter()
        .filter(|e| e["kind"] == "result")
        .map(|e| (&e["result"], &e["reason"]))
        .collect();
    assert_eq!(
        results,
        [(&"0-1".into(), &"resignation".into())],
        "{stderr}"
    );
    assert!(
        events.iter().all(|e| !matches!(
            e["kind"].as_str(),
            Some("illegal" | "violation" | "execution")
        )),
        "{events:?}"
    );
    assert_replays_to(&log, &events, &stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_promotion_the_board_cannot_identify_waits_for_the_piece_typed_and_is_never_a_silent_queen() {
    use std::io::Write;
    // On a Hall board (occupancy only) the pawn is set down on e8 with no button pressed: nothing
    // is sent until the player types the knight; the reply is carried out long after.
    let standin = StandIn::start(Script {
        initial_fen: Some("8/4P1k1/8/8/8/8/P7/4K3 w - - 0 1"),
        ..script(&["e7e8n".to_owned(), "g7g6".to_owned()])
    });
    let dir = std::env::temp_dir().join(format!("touchmove-online-promote-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let (emulated, log) = scripted_board(
        &dir,
        "hall",
        "touchmove-log 1\n@start 8/4P1k1/8/8/8/8/P7/4K3 w - - 0 1\n\
         1000 lift e7\n1300 place e8\n15000 lift g7\n15300 place g6\n",
    );
    let mut online = spawn_piped(online_command(&standin, "hall", &emulated.port, &log));
    let mut keyboard = online.stdin.take().expect("stdin");
    let said = common::child::lines_of(online.stderr.take().expect("stderr"));
    let events = common::child::lines_of(online.stdout.take().expect("stdout"));
    let mut stderr = Vec::new();
    loop {
        let line = said
            .recv_timeout(std::time::Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("no promotion asked for: {stderr:?}"));
        let asked = line.contains("e7-e8 promotes: choose the piece");
        stderr.push(line);
        if asked {
            break;
        }
    }
    // Asked, nothing was sent yet.
    let sent_before: Vec<String> = standin
        .received()
        .into_iter()
        .filter(|r| r.method == "POST")
        .map(|r| r.path)
        .collect();
    assert!(sent_before.is_empty(), "{sent_before:?}");
    keyboard.write_all(b"promote n\n").expect("typed");
    let status = online.wait().expect("online ends");
    stderr.extend(said.iter());
    let stderr = stderr.join("\n");
    assert!(status.success(), "{stderr}");
    drop(emulated);
    let posts = standin.posts();
    assert_eq!(
        posts,
        [(format!("/api/board/game/{GAME}/move/e7e8n"), 200)],
        "{stderr}"
    );
    let lines: Vec<Value> = events
        .iter()
        .map(|line| serde_json::from_str(&line).expect("JSON"))
        .collect();
    assert_eq!(
        common::recorded_games(&lines),
        vec![vec!["e8=N+".to_owned(), "Kg6".to_owned()]],
        "{stderr}"
    );
    assert!(
        lines.iter().all(|e| e["promotion_default"].is_null()),
        "{lines:?}"
    );
    // The choice is in the recording as the board's button would be: the replay decides the same.
    let recorded = std::fs::read_to_string(&log).expect("the recording");
    assert!(
        recorded.lines().any(|l| l.ends_with(" promote n")),
        "{recorded}"
    );
    assert_replays_to(&log, &lines, &stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Lines of `said` (a child's output) until one contains `needle`, a minute at most: the lines
/// read, the one found last.
fn said_until(said: &std::sync::mpsc::Receiver<String>, needle: &str) -> Vec<String> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let mut lines = Vec::new();
    while let Some(left) = deadline.checked_duration_since(std::time::Instant::now()) {
        match said.recv_timeout(left) {
            Ok(line) => {
                let found = line.contains(needle);
                lines.push(line);
                if found {
                    return lines;
                }
            }
            Err(_) => break,
        }
    }
    panic!("never said `{needle}`: {lines:#?}");
}

/// The lines `said` says within `within`.
fn said_within(
    said: &std::sync::mpsc::Receiver<String>,
    within: std::time::Duration,
) -> Vec<String> {
    let deadline = std::time::Instant::now() + within;
    let mut lines = Vec::new();
    while let Some(left) = deadline.checked_duration_since(std::time::Instant::now()) {
        match said.recv_timeout(left) {
            Ok(line) => lines.push(line),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => break,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    lines
}

/// How many seeks the stand-in received.
fn seeks(standin: &StandIn) -> usize {
    standin
        .received()
        .iter()
        .filter(|r| r.method == "POST" && r.path.starts_with("/api/board/seek"))
        .count()
}

#[test]
fn nothing_is_sought_before_the_board_is_plugged_in_and_set_up_nor_again_until_it_is_set_up_again()
{
    // The account plays Black: the hands wait for White's moves, shown on the clock.
    let (sans, ucis) = game();
    let (sans, ucis) = (&sans[..12], &ucis[..12]);
    let standin = StandIn::start(Script {
        announce: Announce::Seek,
        ..Script::new(Color::Black, ucis)
    });
    let dir = tempfile::tempdir().expect("a folder");
    let pgn = dir.path().join("game.pgn");
    std::fs::write(&pgn, script_pgn("online", sans)).expect("written");
    let hands = [
        "--pgn",
        pgn.to_str().expect("a path"),
        "--follow",
        "white",
        "--speed",
        "5",
        "--thinking",
        "300-2000",
    ];
    let board = emulate_with("dgt", &hands, Stdio::null());
    // Plugged in later: the port is missing when online starts.
    let plug = dir.path().join("board");
    let log = dir.path().join("game.log");
    let mut command = common::bin();
    command
        .env("LICHESS_TOKEN", TOKEN)
        .args(["online", "--lichess-url", &standin.url, "--games", "2"])
        .args(["--seek", "10+2", "--protocol", "dgt", "--json"])
        .args(["--port", plug.to_str().expect("a path")])
        .args(common::SHORT_WINDOWS)
        .args(["--record", log.to_str().expect("a path")]);
    let mut online = spawn_piped(command);
    let said = common::child::lines_of(online.stderr.take().expect("its errors"));
    let events = common::child::lines_of(online.stdout.take().expect("its output"));
    let waiting = said_until(&said, "no such port");
    assert!(
        waiting.iter().any(|line| line.contains("waiting for")),
        "{waiting:#?}"
    );
    assert_eq!(
        seeks(&standin),
        0,
        "nothing sought while the board is missing"
    );
    std::os::unix::fs::symlink(&board.port, &plug).expect("plugged in");
    said_until(&said, "seeking a game");
    // The game is played; then the board still shows its last position.
    let mut decided = Vec::new();
    while !decided.iter().any(|e: &Value| e["kind"] == "result") {
        let line = events
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the game goes on");
        decided.push(serde_json::from_str(&line).expect("a JSON line"));
    }
    assert_eq!(standin.moves(), ucis);
    assert_eq!(rulings(&decided), Vec::<&Value>::new());
    said_until(&said, "set up the pieces for the next game");
    // As long as the board shows the finished game, nothing more is sought (the seek used to
    // be posted at once, the game then aborted by the server).
    let meanwhile = said_within(&said, std::time::Duration::from_secs(3));
    assert_eq!(seeks(&standin), 1, "{meanwhile:#?}");
    common::child::interrupt(&online);
    let status = online.wait().expect("it ends");
    assert!(status.success(), "{status:?}");
    said_until(&said, "stopped: no game was going on");
    drop(board);
}

#[test]
fn ctrl_c_in_a_game_says_it_goes_on_at_the_server_and_how_to_end_it() {
    let (sans, ucis) = game();
    // The opponent thinks on and on after the fourth ply.
    let standin = StandIn::start(Script {
        silent_after: Some(4),
        ..script(&ucis)
    });
    let dir = tempfile::tempdir().expect("a folder");
    let pgn = dir.path().join("game.pgn");
    std::fs::write(&pgn, script_pgn("online", &sans)).expect("written");
    let hands = [
        "--pgn",
        pgn.to_str().expect("a path"),
        "--follow",
        "black",
        "--speed",
        "5",
    ];
    let board = emulate_with("dgt", &hands, Stdio::null());
    let log = dir.path().join("game.log");
    let mut online = spawn_piped(online_command(&standin, "dgt", &board.port, &log));
    let said = common::child::lines_of(online.stderr.take().expect("its errors"));
    assert_eq!(
        common::child::await_lines(&mut online, r#""kind":"move""#, 4),
        4
    );
    common::child::interrupt(&online);
    let stopped = said_until(&said, "goes on at");
    let line = stopped.last().expect("the line");
    assert!(line.contains(&format!("game {GAME} goes on")), "{line}");
    let resume = format!("touchmove online --resume --record {}", log.display());
    assert!(line.contains(&resume), "{line}");
    assert!(line.contains(&format!("{}/{GAME}", standin.url)), "{line}");
    assert!(line.contains("resign") && line.contains("abort"), "{line}");
    assert!(online.wait().expect("it ends").success());
    assert_eq!(
        standin.status(),
        "started",
        "the game goes on at the server"
    );
    drop(board);
}

#[test]
fn a_game_the_server_aborts_is_said_at_once_with_its_reason() {
    let (_, ucis) = game();
    let standin = StandIn::start(Script {
        aborted_after: Some(std::time::Duration::from_secs(2)),
        ..script(&ucis)
    });
    // The board shows the start, and nobody moves.
    let dir = tempfile::tempdir().expect("a folder");
    let (board, log) = scripted_board(dir.path(), "dgt", "touchmove-log 1\n");
    let output = online_command(&standin, "dgt", &board.port, &log)
        .output()
        .expect("online runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let events = common::json_lines(&output.stdout);
    let ended: Vec<&Value> = events
        .iter()
        .filter(|e| e["kind"] == "online" && e["what"] == "ended")
        .collect();
    assert_eq!(ended.len(), 1, "{events:?}");
    assert_eq!(ended[0]["status"], "aborted");
    let message = ended[0]["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("the server aborted the game"),
        "{message}"
    );
    assert!(events.iter().all(|e| e["kind"] != "result"), "{events:?}");
    drop(board);
}

#[test]
fn an_unreachable_server_is_said_once_naming_it_and_why_and_again_when_it_answers() {
    // A free port, closed: refused until the stand-in starts on it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port();
    // A server that speaks no TLS.
    let plain = std::net::TcpListener::bind("127.0.0.1:0").expect("a listener");
    let plain_port = plain.local_addr().expect("an address").port();
    std::thread::spawn(move || {
        for stream in plain.incoming().flatten() {
            use std::io::Write;
            let mut stream = stream;
            let _ = stream.write_all(b"HTTP/1.1 400 Bad Request\r\n\r\n");
        }
    });
    let cases = [
        (
            format!("http://127.0.0.1:{port}"),
            format!("lichess: 127.0.0.1:{port}: connection refused (the event stream)"),
        ),
        (
            "http://nowhere.invalid".to_owned(),
            "lichess: nowhere.invalid:80: name not found (the event stream)".to_owned(),
        ),
        (
            format!("https://127.0.0.1:{plain_port}"),
            format!("lichess: 127.0.0.1:{plain_port}: TLS: "),
        ),
    ];
    let dir = tempfile::tempdir().expect("a folder");
    let (board, log) = scripted_board(dir.path(), "dgt", "touchmove-log 1\n");
    let mut running = Vec::new();
    for (url, expected) in &cases {
        let mut command = common::bin();
        command
            .env("LICHESS_TOKEN", TOKEN)
            .args(["online", "--lichess-url", url, "--games", "1"])
            .args(["--protocol", "dgt", "--port", &board.port, "--json"])
            .args(["--record", log.to_str().expect("a path")]);
        let mut child = spawn_piped(command);
        let said = common::child::lines_of(child.stderr.take().expect("its errors"));
        running.push((child, said, expected));
    }
    // Said once, though each is tried again and again (1, 2, 4 s apart).
    for (child, said, expected) in &mut running {
        let lines = said_within(said, std::time::Duration::from_secs(4));
        let faults: Vec<&String> = lines.iter().filter(|l| l.contains("lichess:")).collect();
        assert_eq!(faults.len(), 1, "{lines:#?}");
        assert!(
            faults[0].contains(expected.as_str()),
            "{faults:?}, not {expected}"
        );
        assert!(faults[0].ends_with("trying again"), "{faults:?}");
        if !expected.contains("refused") {
            let _ = child.kill();
        }
    }
    // The first server comes up: that is said, and the game found.
    let (_, ucis) = game();
    let standin = StandIn::start_on(script(&ucis), port);
    let (child, said, _) = &mut running[0];
    said_until(said, &format!("lichess: 127.0.0.1:{port} answers again"));
    said_until(said, "you play White");
    let _ = child.kill();
    drop(standin);
    drop(board);
}

#[test]
fn a_game_the_server_aborts_before_the_board_shows_its_start_is_said_and_left() {
    let (_, ucis) = game();
    let standin = StandIn::start(Script {
        aborted_after: Some(std::time::Duration::from_secs(2)),
        ..script(&ucis)
    });
    // The board still shows the last game's end: the pieces are never set up.
    let dir = tempfile::tempdir().expect("a folder");
    let shown = "touchmove-log 1\n@start 4k3/8/8/8/8/8/8/4K2R w - - 0 1\n";
    let (board, log) = scripted_board(dir.path(), "dgt", shown);
    let output = online_command(&standin, "dgt", &board.port, &log)
        .output()
        .expect("online runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "game {GAME}: the server ended it (aborted) before the board showed its starting \
             position: nothing was played"
        )),
        "{stderr}"
    );
    drop(board);
}
