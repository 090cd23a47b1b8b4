//! `touchmove online` end to end: a local stand-in for the Lichess Board API (written from its
//! published description, `common::lichess`), an emulated board on a real pseudo-terminal
//! whose hands play White from a script and carry out Black's moves as the host shows them
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
    let mut position = Chess::default();
    let ucis = sans
        .iter()
        .map(|san| {
            let m = san
                .parse::<SanPlus>()
                .expect("a SAN")
                .san
                .to_move(&position)
                .expect("legal");
            position.play_unchecked(m);
            UciMove::from_standard(m).to_string()
        })
        .collect();
    (sans, ucis)
}

/// What `online` made of the game on an emulated `board`.
struct Played {
    events: Vec<Value>,
    stdout: String,
    stderr: String,
    emulator: String,
    replayed: Vec<Value>,
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
    // A folder of its own: several games on one protocol run side by side.
    static GAMES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let number = GAMES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "touchmove-online-{board}-{}-{number}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("a directory");
    let script = dir.join("game.pgn");
    std::fs::write(&script, script_pgn("online", sans)).expect("written");
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
    let emulated = emulate_with(
        board,
        &emulate_args,
        Stdio::from(std::fs::File::create(&emulator_log).expect("a log")),
    );
    let log = dir.join("game.log");
    let _ = std::fs::remove_file(&log);
    let online = |extra: &[&str]| {
        let mut command = common::bin();
        command
            .env("LICHESS_TOKEN", TOKEN)
            .args(["online", "--lichess-url", &standin.url, "--games", "1"])
            .args(["--protocol", board, "--port", &emulated.port, "--json"])
            .args(["--slide-ms", "50", "--bounce-ms", "10", "-vvv"])
            .args(["--record", log.to_str().expect("a path")])
            .args(online_args)
            .args(extra)
            .stdin(Stdio::null());
        command
    };
    if let Some(moves) = kill_after {
        use std::io::{BufRead, BufReader};
        let first_stderr = dir.join("first.stderr");
        let mut first = online(&[])
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&first_stderr).expect("a file"))
            .spawn()
            .expect("online runs");
        let stdout = first.stdout.take().expect("stdout");
        let seen = BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .filter(|line| line.contains(r#""kind":"move""#))
            .take(moves)
            .count();
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
    Script {
        player: Color::White,
        moves: ucis.to_vec(),
        reply: std::time::Duration::from_millis(300),
        clock: (600_000, 2_000),
        cut_stream_after: None,
        rate_limit_moves: Vec::new(),
        fail_moves: Vec::new(),
        announce: Announce::AtOnce,
    }
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
        .filter_map(|line| line.split("the hands carry out ").nth(1))
        .filter_map(|rest| rest.strip_suffix(", as shown"))
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
    for text in [&played.stdout, stderr] {
        assert!(!text.contains(TOKEN), "the token was printed");
    }
    // Live equals replay: the recording (the server's lines and answers in it) replays to
    // every decision the session made; the link's state is the live session's.
    let decided: Vec<&Value> = events.iter().filter(|e| e["kind"] != "link").collect();
    let replayed: Vec<&Value> = played.replayed.iter().collect();
    assert_eq!(replayed, decided, "{stderr}");
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
    let (sans, ucis) = game();
    let standin = StandIn::start(Script {
        cut_stream_after: Some(10),
        rate_limit_moves: vec![4],
        fail_moves: vec![1],
        ..script(&ucis)
    });
    let unplug = ["--unplug-at", "40000", "--unplug-for", "10000"];
    let played = play_on("chesslink", &unplug, Some(13), &standin, &sans, &[]);
    check_game(&standin, &played, &sans, &ucis, &[(1, 500), (3, 429)]);
    assert_unplugged(&played);
    assert!(played.stderr.contains("resumed: "), "{}", played.stderr);
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
    let mut online = common::bin()
        .env("LICHESS_TOKEN", TOKEN)
        .args(["online", "--lichess-url", &standin.url, "--games", "1"])
        .args(["--protocol", "dgt", "--port", &emulated.port, "--json"])
        .args(["--slide-ms", "50", "--bounce-ms", "10"])
        .args(["--record", log.to_str().expect("a path")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("online runs");
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
    let decided: Vec<&Value> = lines.iter().filter(|e| e["kind"] != "link").collect();
    let replayed = common::watching::replay_with(&log, &[]);
    assert_eq!(replayed.iter().collect::<Vec<_>>(), decided, "{stderr}");
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
    let seeks: Vec<String> = standin
        .received()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path.starts_with("/api/board/seek"))
        .map(|r| r.path)
        .collect();
    assert_eq!(seeks.len(), 1, "one seek: {seeks:?}");
    let form = seeks[0].split_once('?').map(|(_, form)| form).unwrap_or("");
    for field in ["time=10", "increment=2", "rated=true", "color=white"] {
        assert!(form.split('&').any(|f| f == field), "{field} in {form}");
    }
}
